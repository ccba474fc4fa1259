"""The league desk's window: the connection, the model's requests sent (a save's several results one after the other)
and the server's news taken in (``client.desk.league_desk_model``), painted by the lobby's view."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from client.desk.league_desk_model import LeagueDeskModel
from shared.protocol import Welcome
from shared.protocol.lan_record import DESK_CLIENT


class LeagueDeskLink:
    """What the desk asks for, carried out (``send``), and the server's news taken in (``poll``)."""

    def __init__(self, model: LeagueDeskModel, client: Any, window: Any) -> None:
        self.model, self.client, self.window = model, client, window

    def send(self, request: object) -> None:
        """A request to the server (and those a save adds), or quitting."""
        from client.common.menu import QUIT

        if request is QUIT:
            self.window.close()
            return
        for message in ([request] if request is not None else []) + list(self.model.take_pending()):
            if not self.client.send(message):
                self.model.error = "not connected"

    def poll(self) -> None:
        """The server's news into the model."""
        for message in self.client.drain():
            if isinstance(message, Welcome):
                for first in self.model.first_requests():
                    self.client.send(first)
            for follow_up in self.model.apply(message):
                self.client.send(follow_up)


def run_league_desk(*, server: str, league: str, secret: str, screenshot: Path | None = None,
                    prepare: Callable[[LeagueDeskModel], None] | None = None, wait_s: float = 20.0) -> int:
    """Open the league's desk on ``server`` until its window closes (or save a screenshot once the league is there,
    ``prepare`` setting the screen up)."""
    from client.common import i18n, user_settings
    from client.common import window as app

    app.prepare(screenshot)
    from client.common.menu_view import LobbyView
    from client.match.net import NetClient

    i18n.set_language(user_settings.load().language or None)
    model = LeagueDeskModel(server=server, league=league, secret=secret)
    client = NetClient(server, None, identity=None, program=DESK_CLIENT)
    window = app.open_window(f"sprtec — {league}", screenshot)
    link = LeagueDeskLink(model, client, window)
    client.start()
    try:
        window.show_view(LobbyView(model, link.send, link.poll))
        if screenshot is not None:
            started = time.monotonic()
            if not app.settle(window, lambda: model.update is not None and time.monotonic() - started > 0.3,
                              wait_s):
                print(f"sprtec organise: no league {league} from {server} after {wait_s:g} s", file=sys.stderr)
            if prepare is not None:
                prepare(model)
            app.settle(window, lambda: False, 0.3)
        return app.finish(window, screenshot)
    finally:
        client.close()

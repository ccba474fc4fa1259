"""The league hall's director: follows one league over a connection and moves its pages on (no arcade of its own:
the window it is given shows its view).

Why a director (as ``client.hall.hall_director`` for a tournament): it asks ``WatchLeague`` once (again after a new
Welcome), keeps the latest update and shows each page - every team match of the open day, then the table - for
``PAGE_S`` seconds; a person's ←/→ holds the page chosen for ``HOLD_S``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from client.common.i18n import _
from client.hall.hall_model import HOLD_S, PAGE_S
from client.hall.league_view import LeagueHallView, pages_of
from client.match.net import NetLink
from client.match.state import MatchState
from shared.protocol import Error, LeagueUpdate, UnwatchLeague, WatchLeague, Welcome


class LeagueHallDirector:
    """Shows ``league`` in ``window`` over ``link``."""

    def __init__(self, window: Any, link: NetLink, league: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.link = link
        self.league = league
        self.clock = clock
        self.state = MatchState()
        self.update: LeagueUpdate | None = None
        self.page = "table"
        self.since: float | None = None
        self.held_until = 0.0
        self.asked = False
        self.problem = ""
        self.view = LeagueHallView(league, lambda: self.update, lambda: self.page, self.poll, self.choose,
                                   self.status)

    def start(self) -> None:
        """Show the hall and ask for the league."""
        self.window.show_view(self.view)
        self._ask()

    def _ask(self) -> None:
        """Watch the league once welcomed."""
        if self.link.player is not None and not self.asked:
            self.asked = self.link.request(WatchLeague(self.league))

    def poll(self) -> None:
        """Bring in the news; move the page on when its time is over."""
        now = self.clock()
        for message in self.link.client.drain():
            self.link.apply(self.state, message, now)
        self.link.poll(self.state, now)
        news, self.link.other = list(self.link.other), []
        for message in news:
            if isinstance(message, LeagueUpdate) and message.league == self.league:
                first = self.update is None
                self.update = message
                if first:
                    self.page = pages_of(message)[0]
            elif isinstance(message, Welcome):
                self.asked = False
                self._ask()
            elif isinstance(message, Error):
                self.problem = message.message
        pages = pages_of(self.update)
        if self.since is None:
            self.since = now
        if self.page not in pages or (now >= self.held_until and now - self.since >= PAGE_S):
            self._go(pages, 1, now)

    def _go(self, pages: list[str], step: int, now: float) -> None:
        """The page ``step`` on from the one shown."""
        index = pages.index(self.page) if self.page in pages else -1
        self.page, self.since = pages[(index + step) % len(pages)], now

    def hold(self, page: str) -> None:
        """Show ``page`` and keep it (a screenshot)."""
        self.page, self.since, self.held_until = page, self.clock(), float("inf")

    def choose(self, command: str) -> None:
        """←/→ step the pages (held a while), Escape closes the hall."""
        now = self.clock()
        if command in ("next", "previous"):
            self._go(pages_of(self.update), 1 if command == "next" else -1, now)
            self.held_until = now + HOLD_S
        elif command == "close":
            self.link.request(UnwatchLeague(self.league))
            self.window.close()

    def status(self) -> str:
        """The status line: the last refusal, else whom the server welcomed us as."""
        if self.problem:
            return self.problem
        if self.link.player is None:
            return _("Connecting…")
        return _("Connected as {player}").format(player=self.link.player)

"""A real server on port 0 with tournaments run through the organiser's protocol messages, and players' clients
driven frame by frame: what the tournament tests of the client share.

Why real: the player's and the hall's screens follow the server's own messages (TableAssigned, TournamentUpdate);
the organiser, the coaches and the navigators here speak to an in-process server over websockets on loopback, and
every answer waited for is the server's.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from client.common.sound import Sounds
from client.match.net import NetClient, NetLink
from client.match.state import MatchState
from client.player.lobby_model import LobbyModel
from client.player.navigator import Navigator
from server.app import Server, ServerConfig
from shared.protocol import (
    CheckIn,
    ClientMessage,
    CreateTournament,
    Error,
    GiveCard,
    JoinTournament,
    OverrideResult,
    Score,
    StartRound,
    TableAssigned,
    TableLine,
    TournamentCreated,
    TournamentDone,
    TournamentJoined,
    TournamentUpdate,
    WatchTournament,
    Welcome,
)

WAIT_S = 30.0
M = TypeVar("M")


@contextmanager
def running_server(data: Any) -> Iterator[str]:
    """A real server (physics in-line) on a free port, on its own event-loop thread; its URL; shut down after."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    server = Server(ServerConfig(port=0, data_dir=data, workers=0))
    port = asyncio.run_coroutine_threadsafe(server.start(), loop).result(10)
    try:
        yield f"ws://127.0.0.1:{port}/"
    finally:
        asyncio.run_coroutine_threadsafe(server.shutdown(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


class Wire:
    """A connection speaking the protocol as the client does (NetClient), for the organiser and other coaches."""

    def __init__(self, url: str, name: str) -> None:
        """Connect as ``name`` and wait for the Welcome."""
        self.client = NetClient(url, name)
        self.link = NetLink(self.client)
        self.state = MatchState()
        self.seen: list[object] = []
        self.client.start()
        self.expect(Welcome)

    def send(self, message: ClientMessage) -> None:
        """Send ``message`` (the connection is up)."""
        assert self.client.send(message), message

    def expect(self, kind: type[M], where: Callable[[M], bool] = lambda m: True) -> M:
        """The next message of ``kind`` for which ``where`` holds (one seen already counts); an Error fails."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            for message in self.client.drain():
                self.link.apply(self.state, message, time.monotonic())
                self.seen.append(message)
            for i, message in enumerate(self.seen):
                if isinstance(message, kind) and where(message):
                    del self.seen[i]
                    return message
                assert not (isinstance(message, Error) and message.ref != "Hello"), message
            time.sleep(0.02)
        raise AssertionError(f"no {kind.__name__} within {WAIT_S} s")

    def ask(self, message: ClientMessage) -> TournamentDone:
        """A tournament request that must be carried out."""
        self.send(message)
        return self.expect(TournamentDone, lambda d: d.ref == type(message).__name__)

    def close(self) -> None:
        """Close the connection."""
        self.client.close()


@dataclass
class Organised:
    """A tournament, its organiser and the entry codes of its players by name."""

    tid: str
    secret: str
    organiser: Wire
    codes: dict[str, str] = field(default_factory=dict)
    entries: dict[str, str] = field(default_factory=dict)  # name -> entry id

    def watch(self) -> None:
        """The organiser follows the tournament's updates (``round_tables`` reads them)."""
        self.organiser.send(WatchTournament(self.tid))
        self.organiser.expect(TournamentUpdate, lambda u: u.tournament == self.tid)

    def round_tables(self, number: int) -> tuple[TableLine, ...]:
        """The tables of round ``number`` once every one of them is open (from the organiser's updates)."""
        update = self.organiser.expect(TournamentUpdate, lambda u: u.tournament == self.tid and u.round == number
                                       and u.status == "playing" and bool(u.tables))
        return update.tables

    def start_round(self) -> int:
        """The organiser starts the next round; its number."""
        return int(self.organiser.ask(StartRound(self.tid, self.secret)).id or 0)

    def decide(self, number: int, table: int, home: int, away: int, stage: int = 0) -> None:
        """XVII.5: the organiser sets a table's score (its coaches never sat down)."""
        self.organiser.ask(OverrideResult(tournament=self.tid, secret=self.secret, stage=stage, round=number,
                                          table=table, reason="played on paper", score=Score(home, away)))

    def card(self, name: str, card: str, reason: str) -> None:
        """The organiser gives ``name`` a card for his conduct in the current round."""
        self.organiser.ask(GiveCard(tournament=self.tid, secret=self.secret, entry=self.entries[name], card=card,
                                    reason=reason))


def organise(url: str, organiser: Wire, name: str, players: list[str], stages: list[dict[str, Any]],
             no_show_ms: int = 120_000) -> Organised:
    """Create a tournament of ``players`` from a file (each gets an entry code)."""
    entries = [{"id": f"p{i}", "name": player, "rating": 1800 - 20 * i} for i, player in enumerate(players, start=1)]
    file = json.dumps({"name": name, "seed": 7, "players": entries, "stages": stages})
    organiser.send(CreateTournament(file=file, no_show_ms=no_show_ms))
    created = organiser.expect(TournamentCreated)
    return Organised(created.tournament, created.secret, organiser, {e.name: e.code for e in created.entries},
                     {e.name: e.entry for e in created.entries})


def claim_and_check_in(coach: Wire, organised: Organised, name: str) -> None:
    """``coach`` claims the entry of ``name`` with its code and checks in."""
    coach.send(JoinTournament(organised.tid, organised.codes[name]))
    coach.expect(TournamentJoined, lambda j: j.tournament == organised.tid)
    coach.ask(CheckIn(organised.tid))


def assigned(coach: Wire, organised: Organised, number: int) -> TableAssigned:
    """The table ``coach`` is given in round ``number``."""
    return coach.expect(TableAssigned, lambda a: a.tournament == organised.tid and a.round == number)


def navigator(window: Any, url: str, name: str) -> Navigator:
    """A player's client as ``sprtec play`` makes it (the navigator, its link and lobby), welcomed as ``name``."""
    client = NetClient(url, name)
    nav = Navigator(window, NetLink(client), LobbyModel(origin=f"Server {url}"), Sounds(muted=True))
    client.start()
    nav.show_first()
    frames([nav], lambda: nav.lobby.connected and nav.lobby.player == name, f"{name}'s welcome")
    return nav


def frames(navs: list[Navigator], done: Callable[[], bool], what: str, seconds: float = WAIT_S,
           also: Callable[[], None] = lambda: None) -> None:
    """Run every navigator's shown view frame by frame (and ``also``) until ``done()``; fail naming ``what``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for nav in navs:
            view = nav.window.current_view
            if view is not None:
                view.on_update(0.02)
        also()
        if done():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")

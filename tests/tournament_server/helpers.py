"""A tournament set up over the protocol for the tests: its organiser, its coaches, and the steps they take.

Why helpers: every flow test begins alike - an organiser creates a tournament, players claim their entries with the
codes and check in - and then acts through the real protocol; these functions say each step once, and every
answer they wait for is the server's own.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any, TypeVar

from shared.protocol import (
    CheckIn,
    ClientMessage,
    CreateTournament,
    EntryCode,
    Error,
    JoinRoom,
    JoinTournament,
    RoomJoined,
    TableAssigned,
    TournamentCreated,
    TournamentDone,
    TournamentJoined,
    TournamentUpdate,
    WatchTournament,
)
from tests.server.players import WireClient

M = TypeVar("M")
UPDATE_WAIT_S = 30.0
_SETUPS = itertools.count(1)  # display names are unique on a server: each setup's connections get their own


@dataclass
class Setup:
    """A tournament, its organiser's connection and secret, and each entry's coach by entry id."""

    tid: str
    secret: str
    organiser: WireClient
    coaches: dict[str, WireClient] = field(default_factory=dict)
    unclaimed: list[EntryCode] = field(default_factory=list)  # entries left without a coach, with their codes


def file_of(players: int, *, stages: list[dict[str, Any]] | None = None, **top: Any) -> str:
    """A tournament file of ``players`` entries p1, p2, ... with rating 2000 - 10 i."""
    entries = [{"id": f"p{i}", "name": f"Player {i}", "rating": 2000 - 10 * i} for i in range(1, players + 1)]
    return json.dumps({"name": "test", "seed": 11, "players": entries,
                       "stages": stages or [{"system": "swiss", "rounds": 3}], **top})


async def tournament(url: str, file: str, *, checked_in: int | None = None, no_show_ms: int = 60_000,
                     next_round_after_ms: int | None = None, claimed_by: dict[str, WireClient] | None = None,
                     keep_unclaimed: int = 0, on_boards: bool = False) -> Setup:
    """Create the tournament from ``file``; every entry but the last ``keep_unclaimed`` claimed by a coach of its own
    (``claimed_by`` gives some of them an existing connection); the first ``checked_in`` (all when None) check
    in."""
    number = next(_SETUPS)
    organiser = await WireClient.connect(url, f"organiser-{number}")
    await organiser.send(CreateTournament(file=file, no_show_ms=no_show_ms, next_round_after_ms=next_round_after_ms,
                                          on_boards=on_boards))
    created = await expect(organiser, TournamentCreated)
    setup = Setup(created.tournament, created.secret, organiser)
    claimed = len(created.entries) - keep_unclaimed
    setup.unclaimed = list(created.entries[claimed:])
    for index, entry in enumerate(created.entries[:claimed]):
        coach = (claimed_by or {}).get(entry.entry) or await WireClient.connect(url, f"coach-{number}-{entry.entry}")
        await coach.send(JoinTournament(created.tournament, entry.code))
        joined = await expect(coach, TournamentJoined)
        assert joined.entry == entry.entry
        if checked_in is None or index < checked_in:
            await coach.send(CheckIn(created.tournament))
            await expect(coach, TournamentDone)
        setup.coaches[entry.entry] = coach
    return setup


async def expect(client: WireClient, kind: type[M], where: Any = None) -> M:
    """The next message of ``kind`` (for which ``where(message)`` holds, when given); an Error first fails the
    test, naming it."""
    while True:
        message = await client.recv()
        if isinstance(message, kind) and (where is None or where(message)):
            return message
        assert not isinstance(message, Error), message


async def seen(client: WireClient, kind: type[M], where: Any) -> M:
    """A message of ``kind`` for which ``where`` holds: one received already, or the next one."""
    for message in client.received:
        if isinstance(message, kind) and where(message):
            return message
    return await expect(client, kind, where)


async def refused(client: WireClient, request: ClientMessage) -> str:
    """Send a request that must be refused; the Error's code."""
    await client.send(request)
    while True:
        message = await client.recv()
        if isinstance(message, Error):
            assert message.ref == type(request).__name__, message
            return message.code
        assert not isinstance(message, TournamentDone), f"{request} was carried out"


async def watcher(url: str, tid: str, name: str = "spectator") -> tuple[WireClient, TournamentUpdate]:
    """A connection watching the tournament, and the update it got first."""
    client = await WireClient.connect(url, name)
    await client.send(WatchTournament(tid))
    return client, await expect(client, TournamentUpdate)


async def update_until(client: WireClient, done: Any, timeout: float = UPDATE_WAIT_S) -> TournamentUpdate:
    """Updates until one satisfies ``done``."""
    async def wait() -> TournamentUpdate:
        """Receive updates."""
        while True:
            message = await client.recv()
            if isinstance(message, TournamentUpdate) and done(message):
                return message

    return await asyncio.wait_for(wait(), timeout)


async def sit(coach: WireClient) -> TableAssigned:
    """The coach's next table: he joins it."""
    table = await expect(coach, TableAssigned)
    assert table.room is not None, "a table on a board has no room to sit at"
    await coach.send(JoinRoom(table.room))
    await expect(coach, RoomJoined)
    return table

"""A league set up over the protocol for the tests: its organiser, a connection per roster player, and the file.

Why helpers: every flow test begins alike - an organiser creates a league of three teams, each roster player takes
his place with his code - and then acts through the real protocol; every answer waited for is the server's own.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from shared.protocol import (
    CreateLeague,
    JoinLeague,
    LeagueCreated,
    LeagueDone,
    LeagueJoined,
    LeagueUpdate,
    OpenMatchDay,
    SubmitLineup,
    WatchLeague,
)
from tests.server.players import WireClient
from tests.tournament_server.helpers import expect

_SETUPS = itertools.count(1)
TEAMS = (("most", "BHC Most", "m"), ("brno", "SK Brno", "b"), ("kladno", "Kladno", "k"))
# One 3-second period, no break: a game that ends quickly when played.
SHORT = {"period_ms": 3000, "move_clock_ms": 1500, "choice_timeout_ms": 500, "break_ms": 0}


def league_file(size: int = 3, roster: int | None = None, days: int = 1) -> dict[str, Any]:
    """Three teams of ``roster`` players (``size`` by default) and, per day, the three fixtures of a three-team day
    (each supervised by the idle team)."""
    count = roster or size
    teams = [{"id": tid, "name": name, "players": [{"id": f"{p}{i}", "name": f"{name} {i}"}
                                                   for i in range(1, count + 1)]} for tid, name, p in TEAMS]
    fixtures = []
    for day in range(1, days + 1):
        pairs = (("most", "brno", "kladno"), ("brno", "kladno", "most"), ("kladno", "most", "brno"))
        for number, (home, away, referee) in enumerate(pairs, start=1):
            if day % 2 == 0:
                home, away = away, home
            fixtures.append({"id": f"d{day}f{number}", "day": day, "home": home, "away": away,
                             "referee_team": referee})
    return {"format": "sprtec-league/1", "name": "2. liga", "season": 2026, "seed": 1,
            "settings": {"team_size": size, "ruleset": "quick"}, "teams": teams, "fixtures": fixtures}


@dataclass
class League:
    """A league, its organiser's connection and secret, and each roster player's connection."""

    lid: str
    secret: str
    organiser: WireClient
    players: dict[str, WireClient] = field(default_factory=dict)
    codes: dict[str, str] = field(default_factory=dict)


async def league(url: str, file: dict[str, Any], *, captains: dict[str, str] | None = None, no_show_ms: int = 60_000,
                 unclaimed: tuple[str, ...] = (), settings: dict[str, Any] | None = None) -> League:
    """Create the league; every roster player but ``unclaimed`` takes his place on a connection of his own."""
    number = next(_SETUPS)
    organiser = await WireClient.connect(url, f"organiser-{number}")
    await organiser.send(CreateLeague(file=json.dumps(file), captains=captains or {}, no_show_ms=no_show_ms,
                                      settings=settings if settings is not None else SHORT))
    created = await expect(organiser, LeagueCreated)
    setup = League(created.league, created.secret, organiser, codes={p.player: p.code for p in created.players})
    for p in created.players:
        if p.player in unclaimed:
            continue
        client = await WireClient.connect(url, f"l{number}-{p.player}")
        await client.send(JoinLeague(created.league, p.code))
        joined = await expect(client, LeagueJoined)
        assert joined.player == p.player and joined.team == p.team
        setup.players[p.player] = client
    return setup


async def done(client: WireClient, request: Any) -> LeagueDone:
    """Send a request and wait for its LeagueDone."""
    await client.send(request)
    return await expect(client, LeagueDone, lambda m: m.ref == type(request).__name__)


async def day_with_lineups(setup: League, day: int, fixture: str, home: list[str], away: list[str],
                           teams: tuple[str, str]) -> None:
    """Open the day and give both line-ups of one fixture as the organiser."""
    await done(setup.organiser, OpenMatchDay(setup.lid, setup.secret, day))
    await done(setup.organiser, SubmitLineup(league=setup.lid, fixture=fixture, players=tuple(home), team=teams[0],
                                             secret=setup.secret))
    await done(setup.organiser, SubmitLineup(league=setup.lid, fixture=fixture, players=tuple(away), team=teams[1],
                                             secret=setup.secret))


async def watch(url: str, lid: str, name: str = "spectator") -> tuple[WireClient, LeagueUpdate]:
    """A connection watching the league, and its first update."""
    client = await WireClient.connect(url, f"{name}-{next(_SETUPS)}")
    await client.send(WatchLeague(lid))
    return client, await expect(client, LeagueUpdate)


async def update_until(client: WireClient, done_when: Any, timeout: float = 30.0) -> LeagueUpdate:
    """Updates until one satisfies ``done_when``."""
    async def wait() -> LeagueUpdate:
        """Receive updates."""
        while True:
            message = await client.recv()
            if isinstance(message, LeagueUpdate) and done_when(message):
                return message

    return await asyncio.wait_for(wait(), timeout)

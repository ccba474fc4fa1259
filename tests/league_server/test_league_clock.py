"""A league's game being played reaches its watchers with its clock moving between moves, as a tournament's table."""

from __future__ import annotations

from typing import Any

from server.app import Server
from shared.protocol import JoinRoom, LeagueGameAssigned, LeagueUpdate, RoomJoined, StartLeagueRound
from tests.league_server.helpers import day_with_lineups, done, league, league_file, update_until, watch
from tests.tournament_server.helpers import expect

Start = Any


def _game(update: LeagueUpdate) -> Any:
    """The first game of fixture d1f1."""
    line = next(f for f in update.fixtures if f.fixture == "d1f1")
    return line.games[0] if line.games else None


async def test_a_played_games_clock_reaches_watchers_between_moves(start_server: Start) -> None:
    """While a game is played and nobody moves, watchers still get an update every second with its part clock
    counted down (the hall's league table is not frozen at the last move's time)."""
    server: Server = await start_server()
    setup = await league(server.url, league_file(size=1), settings={"period_ms": 60_000, "move_clock_ms": 0})
    await day_with_lineups(setup, 1, "d1f1", ["m1"], ["b1"], ("most", "brno"))
    spectator, _ = await watch(server.url, setup.lid)
    await done(setup.organiser, StartLeagueRound(league=setup.lid, secret=setup.secret, fixture="d1f1"))
    for player in ("m1", "b1"):
        client = setup.players[player]
        told = await expect(client, LeagueGameAssigned)
        await client.send(JoinRoom(told.room))
        await expect(client, RoomJoined)
    first = await update_until(spectator, lambda u: _game(u) is not None and _game(u).status == "playing"
                          and _game(u).part_ms is not None)
    later = await update_until(spectator, lambda u: u.sequence >= first.sequence + 2)
    assert _game(later).status == "playing" and _game(later).part_ms is not None
    assert _game(later).part_ms < _game(first).part_ms
    assert _game(first).part is not None

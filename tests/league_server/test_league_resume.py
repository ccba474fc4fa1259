"""A league after a restart: folded from its log to the same state, its games that had not started at new tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.app import Server
from server.leagues import league_records as records
from server.leagues.state import fold
from shared.protocol import StartLeagueRound
from tests.league_server.helpers import day_with_lineups, done, league, league_file

Start = Any


async def test_a_restarted_server_folds_the_league_and_opens_again_the_tables_nobody_played_at(
        start_server: Start, tmp_path: Path) -> None:
    """A round's tables open, nobody plays, the server stops: the next server on the same data has the same league
    (its file, its places, its open day) and the round's games at new tables, none recorded twice."""
    data = tmp_path / "league-data"
    server: Server = await start_server(data_dir=data)
    setup = await league(server.url, league_file(size=2))
    await day_with_lineups(setup, 1, "d1f1", ["m1", "m2"], ["b1", "b2"], ("most", "brno"))
    await done(setup.organiser, StartLeagueRound(league=setup.lid, secret=setup.secret, fixture="d1f1"))
    before = server.leagues.runs[setup.lid].state
    assert len(before.tables) == 2
    await server.shutdown()
    again: Server = await start_server(data_dir=data)
    after = again.leagues.runs[setup.lid].state
    assert after.league == before.league and after.day == 1 and after.coaches == before.coaches
    assert set(after.tables) == set(before.tables)
    assert {t.room for t in after.tables.values()}.isdisjoint({t.room for t in before.tables.values()})
    assert all(t.room in again.lobby.rooms for t in after.tables.values())
    assert fold(setup.lid, records.log(again.store, setup.lid)) == after

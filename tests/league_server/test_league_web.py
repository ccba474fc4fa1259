"""The league's read API and page on a real server: the file byte for byte the export's league.json, the table
byte for byte `sprtec league table` of it, the list with the open day, 404 for an unknown league, the page's shell
and the home page's script naming the leagues."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.app import Server
from server.leagues.export import export
from shared.protocol import LeagueResult, Score, StartLeagueRound
from sprtec.commands.league import table_answer
from tests.league_server.helpers import day_with_lineups, done, league, league_file
from tests.web.http_get import get

API = "/api/v1"


async def test_a_league_is_its_exported_file_and_its_table_is_the_clis(start_server: Any, tmp_path: Path) -> None:
    """A fixture of 1-player teams played on boards: /leagues/ID is the export's league.json, /table what
    `sprtec league table` prints of it, the list names the league with its day and one finished team match."""
    data = tmp_path / "data"
    server: Server = await start_server(data_dir=data)
    setup = await league(server.url, league_file(size=1))
    await day_with_lineups(setup, 1, "d1f1", ["m1"], ["b1"], ("most", "brno"))
    await done(setup.organiser, StartLeagueRound(league=setup.lid, secret=setup.secret, fixture="d1f1", boards=True))
    await done(setup.organiser, LeagueResult(league=setup.lid, secret=setup.secret, fixture="d1f1", round=1, board=1,
                                             score=Score(3, 1)))
    file = await get(server.url, f"{API}/leagues/{setup.lid}")
    assert file.status == 200
    exported = export(data, setup.lid, tmp_path / "out")
    assert file.body == (tmp_path / "out" / "league.json").read_bytes() and exported.files
    table = await get(server.url, f"{API}/leagues/{setup.lid}/table")
    assert (0, table.body.decode("utf-8")) == table_answer(file.body)
    listed = await get(server.url, f"{API}/leagues")
    assert listed.json()["leagues"] == [{"id": setup.lid, "name": "2. liga", "season": 2026, "day": 1, "teams": 3,
                                         "fixtures": 3, "finished": 1}]
    missing = await get(server.url, f"{API}/leagues/NOPE/table")
    assert missing.status == 404 and missing.json()["error"]["code"] == "LEAGUE_NOT_FOUND"
    page = await get(server.url, f"/leagues/{setup.lid}")
    assert page.status == 200 and b'data-page="league"' in page.body and b"/static/league.js" in page.body
    home = await get(server.url, "/static/home.js")
    assert b"/api/v1/leagues" in home.body

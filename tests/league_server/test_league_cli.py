"""The organiser's ``sprtec league`` actions against a real server on port 0 - a day played on boards from the
command line - and ``export`` from its data."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from server.app import Server
from sprtec.cli import main
from sprtec.commands.league import table_answer
from tests.league_server.helpers import league_file
from tests.server.conftest import Start


async def _sprtec(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``sprtec ARGV`` in a thread (it runs its own event loop) and capture what it printed."""
    status = await asyncio.to_thread(main, list(argv))
    out, err = capsys.readouterr()
    return status, out, err


async def test_the_organiser_runs_a_day_on_boards_from_the_command_line_and_exports_it(
        start_server: Start, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """create prints the codes and keeps the secret; open-day, lineup, start-round --boards and result play a
    fixture of two-player teams; status shows its team score and the table; a refusal exits 1 naming its code;
    export writes the league file, whose `sprtec league table` is the exported table.json, and the table CSV."""
    data = tmp_path / "data"
    server: Server = await start_server(data_dir=data)
    path = tmp_path / "league.json"
    path.write_text(json.dumps(league_file(size=2)), encoding="utf-8")
    url = server.url
    status, out, _ = await _sprtec(capsys, "league", "create", str(path), "--server", url, "--json",
                                   "--captain", "most=m1")
    assert status == 0
    lid = json.loads(out)["league"]
    assert {p["player"] for p in json.loads(out)["players"]} == {"m1", "m2", "b1", "b2", "k1", "k2"}
    assert await _sprtec(capsys, "league", "open-day", lid, "1", "--server", url) == (0, "day 1 is open\n", "")
    for team, players in (("most", ["m1", "m2"]), ("brno", ["b2", "b1"])):
        assert (await _sprtec(capsys, "league", "lineup", lid, "--fixture", "d1f1", "--team", team, *players,
                              "--server", url))[0] == 0
    status, _, err = await _sprtec(capsys, "league", "lineup", lid, "--fixture", "d1f1", "--team", "brno", "b1",
                                   "b2", "--server", url)
    assert status == 1 and "ROUND_ORDER" in err
    # round 1: m1 2:0 b2, m2 0:1 b1; round 2 (Brno at home): b1 1:1 m1, b2 3:0 m2 - Brno 2:1
    for number, results in ((1, ("2:0", "0:1")), (2, ("1:1", "3:0"))):
        assert (await _sprtec(capsys, "league", "start-round", lid, "--fixture", "d1f1", "--boards",
                              "--server", url))[1] == f"round {number} of d1f1 started on boards\n"
        for board, score in enumerate(results, start=1):
            assert (await _sprtec(capsys, "league", "result", lid, "--fixture", "d1f1", str(number), str(board),
                                  "--score", score, "--server", url))[0] == 0
    status, out, _ = await _sprtec(capsys, "league", "status", lid, "--server", url)
    assert status == 0 and "BHC Most - SK Brno  1:2  (finished)" in out and "Table" in out
    await server.shutdown()
    status, out, _ = await _sprtec(capsys, "league", "export", lid, "--data", str(data), "--out", str(tmp_path / "x"))
    assert status == 0
    exported = tmp_path / "x"
    assert table_answer((exported / "league.json").read_bytes()) == (0, (exported / "table.json").read_text())
    rows = (exported / "table.csv").read_text().splitlines()
    assert rows[0].startswith("rank,shared,team,name") and rows[1] == "1,false,brno,SK Brno,1,1,0,0,2,1,2"

"""Two three-team match days of 3-player teams played by bots on a real server (``sprtec league run --bots``): each
day's three fixtures have 9 games each with a result, their team scores and points are those the games give, the
exported table is ``sprtec league table`` of the exported file, and the second day moves the table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sprtec.commands.league import table_answer
from tests.league_server.helpers import league_file

ROOT = Path(__file__).resolve().parents[2]
SHORT_ARGS = ["--setting", "period_ms=2000", "--setting", "move_clock_ms=1500", "--setting", "break_ms=0",
              "--setting", "choice_timeout_ms=500"]


def _team_score(fixture: dict) -> tuple[int, int]:
    """The team score of a fixture's games, counted here from the contract's words: a game won by its home side is
    the home team's in odd rounds, the away team's in even ones; a walkover counts for its winner; a draw for
    neither."""
    home = away = 0
    for g in fixture["games"]:
        side = g.get("walkover")
        if side is None:
            h, a = g["score"]
            side = None if h == a else ("home" if h > a else "away")
        if side is None:
            continue
        if (side == "home") == (g["round"] % 2 == 1):
            home += 1
        else:
            away += 1
    return home, away


def _counted(fixtures: list[dict]) -> dict[str, tuple[int, int, int]]:
    """Each team's points (2/1/0), games for and against over these finished fixtures, counted here."""
    out: dict[str, list[int]] = {}
    for f in fixtures:
        home, away = _team_score(f)
        for team, mine, theirs in ((f["home"], home, away), (f["away"], away, home)):
            line = out.setdefault(team, [0, 0, 0])
            line[0] += 2 if mine > theirs else 1 if mine == theirs else 0
            line[1] += mine
            line[2] += theirs
    return {team: (p, gf, ga) for team, (p, gf, ga) in out.items()}


@pytest.mark.slow(seconds=45)
def test_two_match_days_of_bots_end_in_the_table_of_the_exported_file(tmp_path: Path) -> None:
    """Day 1 and day 2 of three teams of three, one player absent (his games are walkovers): after each day three
    finished fixtures of 9 games, a replay of each game played online; the exported table is the CLI's table of
    the exported file and the run prints the last; day 2 moves the table (every team has played 2, then 4 fixtures,
    and its points follow)."""
    file = tmp_path / "league.json"
    file.write_text(json.dumps(league_file(size=3, days=2)), encoding="utf-8")
    data, out = tmp_path / "data", tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "sprtec", "league", "run", str(file), "--bots", "--level", "random",
                           "--absent", "k3", "--data", str(data), "--out", str(out), "--timeout", "900",
                           *SHORT_ARGS], cwd=ROOT, capture_output=True, text=True, timeout=960)
    assert done.returncode == 0, done.stderr[-3000:]
    tables = []
    for day in (1, 2):
        folder = out / f"day-{day}"
        league = json.loads((folder / "league.json").read_text(encoding="utf-8"))
        played = [f for f in league["fixtures"] if f["day"] == day]
        assert len(played) == 3
        for f in played:
            assert len(f["games"]) == 9 and all("score" in g or "walkover" in g for g in f["games"])
            assert len({(g["home"], g["away"]) for g in f["games"]}) == 9  # everyone meets each opponent once
            absent = [g for g in f["games"] if "k3" in (g["home"], g["away"])]
            assert all(g["walkover"] == ("away" if g["home"] == "k3" else "home") for g in absent)
        replays = sorted((folder / "games").glob(f"d{day}f*.json"))
        assert len(replays) == 27 - 6  # a replay per game played online: all but k3's six walkovers
        assert all(json.loads(r.read_text(encoding="utf-8"))["actions"] for r in replays)
        table = (folder / "table.json").read_text(encoding="utf-8")
        assert table_answer((folder / "league.json").read_bytes()) == (0, table)
        value = json.loads(table)
        assert {r["team"]: (r["points"], r["games_for"], r["games_against"]) for r in value["table"]} == \
            _counted([f for f in league["fixtures"] if f["day"] <= day])
        tables.append(value)
    assert done.stdout == (out / "day-2" / "table.json").read_text(encoding="utf-8")
    assert [r["played"] for r in tables[0]["table"]] == [2, 2, 2]
    assert [r["played"] for r in tables[1]["table"]] == [4, 4, 4]
    assert tables[1]["table"] != tables[0]["table"]
    assert sum(r["points"] for r in tables[1]["table"]) == 2 * sum(r["points"] for r in tables[0]["table"]) == 12
    kladno = [next(r for r in t["table"] if r["team"] == "kladno") for t in tables]
    assert kladno[1]["games_against"] >= kladno[0]["games_against"] + 6  # k3's six walkovers of day 2 at least

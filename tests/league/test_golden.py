"""Golden leagues: the stored states and the commands' answers equal what the engine makes.

Regenerate only on purpose (then review the diff): ``.venv/bin/python -m tests.league.regenerate``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared.league.reading import parse
from shared.league.writing import dump_bytes
from tests.league.cases import CASES, ERRORS, liga_3_two_days, ties, trojutkani_5
from tests.league.regenerate import GOLDEN, ROOT, error_answer, expected_files

REGENERATE = "python -m tests.league.regenerate"


@pytest.fixture(scope="module")
def expected() -> dict[Path, bytes]:
    """Every golden file as the engine makes it."""
    return expected_files()


def test_every_golden_league_file_is_what_the_engine_makes(expected: dict[Path, bytes]) -> None:
    """Byte for byte, and every stored golden file belongs to a state of a case or an invalid file."""
    for path, data in expected.items():
        assert path.exists(), f"missing {path.relative_to(ROOT)}: {REGENERATE}"
        assert path.read_bytes() == data, f"{path.relative_to(ROOT)} differs: review, then {REGENERATE}"
    stored = set(GOLDEN.rglob("*.json"))
    assert stored == set(expected), f"stale files: {sorted(str(p) for p in stored - set(expected))}"


def test_every_golden_state_reads_back_to_the_value_it_was_written_from() -> None:
    """Each state is a valid league whose canonical file reads to the same value (and so the same bytes)."""
    for case in CASES:
        for label, league in case.states():
            assert parse(dump_bytes(league)) == league, f"{case.name}/{label}"


def test_every_invalid_golden_file_answers_its_code_with_exit_status_2() -> None:
    """Each error case gives exactly its code, and there is one for every code the league commands use."""
    for error in ERRORS:
        status, text = error_answer(error)
        assert status == 2 and json.loads(text)["error"]["code"] == error.code, error.name
    assert {e.code for e in ERRORS} == {"BAD_FORMAT", "UNKNOWN_PLAYER", "DUPLICATE_PLAYER", "PLAYED_TWICE",
                                        "BAD_RESULT", "ROUND_ORDER", "UNKNOWN_FIXTURE"}


def test_the_three_team_day_has_what_the_golden_case_promises() -> None:
    """Three fixtures of five-player teams on one day, each supervised by the idle team; draws; a walkover in m1
    (kladno5 absent), two in m3 (praha6 gone after round 3); m2 unfinished while under way."""
    states = dict(trojutkani_5())
    final = states["final"]
    assert {f.day for f in final.fixtures} == {1} and len(final.fixtures) == 3
    for f in final.fixtures:
        assert {f.home, f.away, f.referee_team} == {"most", "kladno", "praha"}
        assert f.finished and len(f.games) == 25
    walkovers = {(f.id, g.round, g.home, g.away) for f in final.fixtures for g in f.games if g.walkover}
    assert {(fid, rnd) for fid, rnd, *_ in walkovers} == {("m1", 4), ("m3", 4), ("m3", 5)}
    assert all("kladno5" in players for fid, _, *players in walkovers if fid == "m1")
    assert all("praha6" in players for fid, _, *players in walkovers if fid == "m3")
    assert any(g.score and g.score[0] == g.score[1] for f in final.fixtures for g in f.games)
    under_way = states["under-way"]
    assert under_way.fixture("m1").finished and not under_way.fixture("m2").finished
    assert sum(1 for g in under_way.fixture("m2").games if not g.finished) == 2
    assert states["lineups-given"].fixture("m2").lineups.away is None


def test_the_two_day_league_of_three_player_teams_has_what_the_golden_case_promises() -> None:
    """team_size 3 (9 games a fixture), a three-team day 1, a day 2 with an unfinished fixture and one with no
    line-ups yet."""
    states = dict(liga_3_two_days())
    final = states["final"]
    assert final.settings.team_size == 3 and {f.day for f in final.fixtures} == {1, 2}
    assert all(f.finished and len(f.games) == 9 for f in final.fixtures)
    middle = states["day-2-unfinished"]
    assert [f.id for f in middle.fixtures if not f.finished] == ["d2-2", "d2-3"]
    assert middle.fixture("d2-3").lineups.home is None
    table = json.loads((GOLDEN / "liga-3-two-days" / "day-2-unfinished.table.json").read_text(encoding="utf-8"))
    assert {row["team"]: row["played"] for row in table["table"]} == {"brno": 3, "ostrava": 2, "plzen": 2,
                                                                       "zlin": 1}


def test_the_ties_case_needs_games_for_the_mini_table_once_and_a_shared_rank() -> None:
    """All five teams on 4 points and difference 0; Tábor first on games_for; the mini-table puts Jihlava above;
    Kolín beat Liberec but they share 3rd (applied once); Opava 5th."""
    table = json.loads((GOLDEN / "ties" / "final.table.json").read_text(encoding="utf-8"))["table"]
    assert {(r["points"], r["games_for"] - r["games_against"]) for r in table} == {(4, 0)}
    assert [(r["rank"], r["shared"], r["team"]) for r in table] == [
        (1, False, "tabor"), (2, False, "jihlava"), (3, True, "kolin"), (3, True, "liberec"), (5, False, "opava")]
    final = dict(ties())["final"]
    kolin_liberec = final.fixture("t1")
    assert (kolin_liberec.home, kolin_liberec.away) == ("kolin", "liberec")


def _table_in_a_process(path: Path, hash_seed: str) -> bytes:
    """stdout of ``sprtec league table --pretty FILE`` in a fresh interpreter with this PYTHONHASHSEED."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-m", "sprtec", "league", "table", "--pretty", str(path)], env=env,
                          capture_output=True, cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_same_league_file_gives_the_same_table_bytes_in_processes_with_other_hash_seeds() -> None:
    """The ties case's final table: identical bytes for PYTHONHASHSEED 0 and 4242, equal to the golden answer."""
    path = GOLDEN / "ties" / "final.league.json"
    golden = (GOLDEN / "ties" / "final.table.json").read_bytes()
    assert _table_in_a_process(path, "0") == _table_in_a_process(path, "4242") == golden

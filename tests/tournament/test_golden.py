"""Golden tournaments: the stored states and the command's answers equal what the engine makes.

Regenerate only on purpose (then review the diff): ``.venv/bin/python -m tests.tournament.regenerate``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from shared.tournament.model import Bye, Match, Tournament
from shared.tournament.reading import parse
from sprtec.cli import main
from tests.tournament.cases import czech_cup_40
from tests.tournament.cup_cases import ALL_CASES, SEASONS
from tests.tournament.regenerate import EXAMPLE_NAMES, EXAMPLES, GOLDEN, ROOT, expected_files, season_paths

REGENERATE = "python -m tests.tournament.regenerate"


@pytest.fixture(scope="module")
def expected() -> dict[Path, bytes]:
    """Every golden file as the engine makes it."""
    return expected_files()


def test_every_golden_file_and_example_is_what_the_engine_makes(expected: dict[Path, bytes]) -> None:
    """Byte for byte, and every stored golden file belongs to a state of a case."""
    for path, data in expected.items():
        assert path.exists(), f"missing {path.relative_to(ROOT)}: {REGENERATE}"
        assert path.read_bytes() == data, f"{path.relative_to(ROOT)} differs: review, then {REGENERATE}"
    stored = set(GOLDEN.rglob("*.json")) | set(EXAMPLES.glob("tournament-*.json"))
    assert {EXAMPLES / name for name in EXAMPLE_NAMES} <= set(expected)
    assert stored == set(expected), f"stale files: {sorted(str(p) for p in stored - set(expected))}"


def test_each_state_lists_the_round_its_predecessor_paired() -> None:
    """The next state's new round is exactly the pairing printed for the state before it (walkovers set in the
    pairing stay walkovers), unless the next state is the tournament ended early."""
    for case in ALL_CASES:
        folder = GOLDEN / case.name
        states = [label for label, _ in case.states()]
        for before, after in pairwise(states):
            printed = json.loads((folder / f"{before}.pair.json").read_text(encoding="utf-8"))
            if "error" in printed:
                continue
            t = parse((folder / f"{after}.tournament.json").read_bytes())
            if t.ended is not None:
                continue  # the organiser ended the tournament instead of playing that round
            (r,) = [r for r in t.results if (r.stage, r.round) == (printed["stage"], printed["round"])]
            listed = [(e.home, e.away) for e in r.matches if isinstance(e, Match)]
            assert listed == [(x["home"], x["away"]) for x in printed["matches"]]
            assert [e.player for e in r.matches if isinstance(e, Bye)] == printed["byes"]
            for entry, x in zip([e for e in r.matches if isinstance(e, Match)], printed["matches"], strict=True):
                if "walkover" in x:
                    assert entry.walkover == x["walkover"]


def test_the_czech_cup_field_has_what_the_golden_case_promises() -> None:
    """40 players, 5 rounds, a bye every round, an absence, a late entry, a withdrawal, walkovers, draws, and
    two suspensions from cards (a red, three yellows) served in round 4."""
    states = dict(czech_cup_40())
    final: Tournament = states["final"]
    assert len(final.players) == 40 and len(final.results) == 5
    entries = [e for r in final.results for e in r.matches]
    assert all(any(isinstance(e, Bye) for e in r.matches) for r in final.results)
    assert sum(1 for e in entries if isinstance(e, Match) and e.walkover is not None) == 2
    assert sum(1 for e in entries if isinstance(e, Match) and e.score and e.score[0] == e.score[1]) >= 5
    in_round = [{p for e in r.matches for p in e.players()} for r in final.results]
    assert "pvlcek" not in in_round[0] and all("pvlcek" in r for r in in_round[1:])
    assert "rkolar" not in in_round[1] and "vbartos" not in in_round[2] | in_round[3] | in_round[4]
    assert "lkucera" not in in_round[3] and "ksedlacek" not in in_round[3]
    assert {"lkucera", "ksedlacek"} <= in_round[4]
    pairing = json.loads((GOLDEN / "czech-cup-40" / "before-round-4.pair.json").read_text(encoding="utf-8"))
    assert sorted(x["player"] for x in pairing["not_paired"] if x["why"] == "suspended") == ["ksedlacek", "lkucera"]


def _pair_in_a_process(path: Path, hash_seed: str) -> bytes:
    """stdout of ``sprtec tournament pair --pretty FILE`` in a fresh interpreter with this PYTHONHASHSEED."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-m", "sprtec", "tournament", "pair", "--pretty", str(path)], env=env,
                          capture_output=True, cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_same_file_pairs_to_the_same_bytes_in_processes_with_other_hash_seeds() -> None:
    """Late in the Czech Cup (round 5 after suspensions, a withdrawal and walkovers): identical bytes for
    PYTHONHASHSEED 0 and 4242, equal to the golden answer."""
    path = GOLDEN / "czech-cup-40" / "before-round-5.tournament.json"
    golden = (GOLDEN / "czech-cup-40" / "before-round-5.pair.json").read_bytes()
    assert _pair_in_a_process(path, "0") == _pair_in_a_process(path, "4242") == golden


def test_the_stored_season_files_give_the_stored_season_answers_through_the_command(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    """``sprtec season standings --pretty [--best N] FILE...`` over the stored golden files prints the stored
    answer, for every season run (error objects and exit status 2 included)."""
    for run in SEASONS:
        best = [] if run.best is None else ["--best", str(run.best)]
        status = main(["season", "standings", "--pretty", *best, *[str(p) for p in season_paths(run)]])
        out = capsysbinary.readouterr().out
        assert out == (GOLDEN / "season" / f"{run.label}.season.json").read_bytes(), run.label
        assert status == (2 if b'"error"' in out else 0)


def test_the_stored_files_give_the_stored_rankings_through_the_command(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    """``sprtec tournament ranking --pretty FILE`` over each stored state prints its stored ranking."""
    for path in sorted(GOLDEN.glob("*/*.tournament.json")):
        status = main(["tournament", "ranking", "--pretty", str(path)])
        out = capsysbinary.readouterr().out
        assert out == path.with_name(path.name.replace(".tournament.", ".ranking.")).read_bytes(), path.name
        assert status == 0

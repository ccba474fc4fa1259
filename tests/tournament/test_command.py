"""``sprtec tournament standings|pair``: the contract's output, every error code through the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sprtec.cli import main
from tests.tournament.builders import bye, doc, m, players, rounds

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tournament-swiss.json"
Capture = pytest.CaptureFixture[bytes]


def _run(capsysbinary: Capture, tmp_path: Path, value: Any, *args: str) -> tuple[int, bytes]:
    """Write ``value`` as a file, run ``sprtec tournament ARGS FILE`` and return the status and stdout."""
    path = tmp_path / "t.json"
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    status = main(["tournament", *args, str(path)])
    out = capsysbinary.readouterr().out
    return status, out


FOUR = players("a", "b", "c", "d")
ERRORS = [
    ("BAD_FORMAT", "pair", "{nope"),
    ("UNKNOWN_PLAYER", "pair", doc(FOUR, results=rounds([m("a", "zed", (1, 0))]))),
    ("DUPLICATE_PLAYER", "standings", doc([*FOUR, {"id": "a", "name": "Again"}])),
    ("PLAYED_TWICE", "standings", doc(FOUR, results=rounds([m("a", "b", (1, 0)), m("c", "a", (1, 0))]))),
    ("BAD_RESULT", "pair", doc(FOUR, results=rounds([m("a", "b", (1, 0), walkover="home")]))),
    ("ROUND_ORDER", "pair", doc(FOUR, results=rounds([m("a", "b", (1, 0)), m("c", "d")]))),
    ("NOTHING_TO_PAIR", "pair", doc(players("a", "b"), stages=[{"rounds": 1}], results=rounds([m("a", "b", (1, 0))]))),
    ("NO_PAIRING", "pair", doc(players("a", "b"), results=rounds([m("a", "b", (1, 0))]))),
]


@pytest.mark.parametrize("code, action, value", ERRORS, ids=[e[0] for e in ERRORS])
def test_every_error_code_prints_the_error_object_on_stdout_and_exits_2(
    capsysbinary: Capture, tmp_path: Path, code: str, action: str, value: Any
) -> None:
    """One line ``{"error": {"code", "message"}}`` on standard output, exit status 2."""
    status, out = _run(capsysbinary, tmp_path, value, action)
    assert status == 2
    assert out.endswith(b"\n") and out.count(b"\n") == 1
    answer = json.loads(out)
    assert list(answer) == ["error"] and list(answer["error"]) == ["code", "message"]
    assert answer["error"]["code"] == code and answer["error"]["message"]


def test_standings_print_the_contract_object(capsysbinary: Capture, tmp_path: Path) -> None:
    """``sprtec-standings/1`` with the contract's keys in its order, exit 0."""
    value = doc(players("a", "b", "c"), results=rounds([m("a", "b", (3, 1)), bye("c")]))
    status, out = _run(capsysbinary, tmp_path, value, "standings")
    assert status == 0
    answer = json.loads(out)
    assert list(answer) == ["format", "stage", "after_round", "complete", "standings"]
    assert answer["format"] == "sprtec-standings/1" and (answer["stage"], answer["after_round"]) == (0, 1)
    assert list(answer["standings"][0]) == ["rank", "shared", "player", "points", "played", "wins", "draws", "losses",
                                            "byes", "goals_for", "goals_against", "tiebreaks", "yellow", "red",
                                            "suspended_next"]
    assert list(answer["standings"][0]["tiebreaks"]) == ["buchholz", "goals_capped", "buchholz2"]
    assert answer["complete"] is False


def test_pair_prints_the_contract_object_and_pretty_indents_the_same_object(
    capsysbinary: Capture, tmp_path: Path
) -> None:
    """``sprtec-pairing/1``; ``--pretty`` is the same object indented by two spaces."""
    value = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    status, out = _run(capsysbinary, tmp_path, value, "pair")
    assert status == 0
    answer = json.loads(out)
    assert list(answer) == ["format", "stage", "round", "matches", "byes", "not_paired"]
    assert list(answer["matches"][0]) == ["table", "home", "away"]
    assert answer["not_paired"] == [{"player": "kcerna", "why": "absent"}]
    status, pretty = _run(capsysbinary, tmp_path, value, "pair", "--pretty")
    assert status == 0 and json.loads(pretty) == answer and pretty.startswith(b'{\n  "format"')


def test_stage_chooses_the_stage_of_the_standings(capsysbinary: Capture, tmp_path: Path) -> None:
    """--stage 0 of a tournament in its second stage; --stage 2 of a two-stage file is an error object."""
    value = doc(players("a", "b", "c", "d"), stages=[{"rounds": 1, "advance": 2}, {"system": "knockout"}],
                results=[*rounds([m("a", "b", (3, 0)), m("c", "d", (2, 0))]),
                         {"stage": 1, "round": 1, "matches": [m("a", "c", (1, 0))]}])
    status, out = _run(capsysbinary, tmp_path, value, "standings")
    assert status == 0 and json.loads(out)["stage"] == 1 and json.loads(out)["complete"] is True
    status, out = _run(capsysbinary, tmp_path, value, "standings", "--stage", "0")
    assert status == 0 and json.loads(out)["stage"] == 0 and len(json.loads(out)["standings"]) == 4
    status, out = _run(capsysbinary, tmp_path, value, "standings", "--stage", "2")
    assert status == 2 and json.loads(out)["error"]["code"] == "BAD_FORMAT"


def test_a_file_that_cannot_be_read_is_bad_format(capsysbinary: Capture, tmp_path: Path) -> None:
    """No such file: the error object, exit 2."""
    assert main(["tournament", "pair", str(tmp_path / "missing.json")]) == 2
    assert json.loads(capsysbinary.readouterr().out)["error"]["code"] == "BAD_FORMAT"


@pytest.mark.slow
def test_the_command_reads_standard_input_in_a_real_process() -> None:
    """``sprtec tournament pair -`` in a subprocess prints the same bytes as for the file."""
    data = EXAMPLE.read_bytes()
    by_stdin = subprocess.run([sys.executable, "-m", "sprtec", "tournament", "pair", "-"], input=data,
                              capture_output=True, cwd=ROOT, timeout=60, check=False)
    by_file = subprocess.run([sys.executable, "-m", "sprtec", "tournament", "pair", str(EXAMPLE)],
                             capture_output=True, cwd=ROOT, timeout=60, check=False)
    assert by_stdin.returncode == by_file.returncode == 0
    assert by_stdin.stdout == by_file.stdout and by_stdin.stderr == b""


def test_an_action_is_required() -> None:
    """``sprtec tournament`` without an action is a usage error (argparse, exit 2)."""
    with pytest.raises(SystemExit) as caught:
        main(["tournament"])
    assert caught.value.code == 2

"""``sprtec league games|table``: the contract's output and error object through the command line."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from sprtec.cli import COMMANDS, main
from tests.league.cases import ERRORS, ErrorCase
from tests.league.regenerate import GOLDEN, ROOT

Capture = pytest.CaptureFixture[bytes]
FINAL = GOLDEN / "trojutkani-5" / "final.league.json"


def _run(capsysbinary: Capture, *args: str) -> tuple[int, bytes]:
    """Run ``sprtec league ARGS`` and return the status and stdout."""
    status = main(["league", *args])
    return status, capsysbinary.readouterr().out


@pytest.mark.parametrize("error", ERRORS, ids=[e.name for e in ERRORS])
def test_every_error_code_prints_the_error_object_on_stdout_and_exits_2(
    capsysbinary: Capture, tmp_path: Path, error: ErrorCase
) -> None:
    """One line ``{"error": {"code", "message"}}`` on standard output, exit status 2."""
    path = tmp_path / "league.json"
    path.write_text(error.text, encoding="utf-8")
    action, *rest = error.args
    status, out = _run(capsysbinary, action, str(path), *rest)
    assert status == 2
    assert out.endswith(b"\n") and out.count(b"\n") == 1
    answer = json.loads(out)
    assert list(answer) == ["error"] and list(answer["error"]) == ["code", "message"]
    assert answer["error"]["code"] == error.code and answer["error"]["message"]


def test_games_prints_the_team_match_and_pretty_indents_the_same_object(capsysbinary: Capture) -> None:
    """``sprtec-team-match/1`` of fixture m1 on one line, exit 0; ``--pretty`` is the golden answer."""
    status, out = _run(capsysbinary, "games", str(FINAL), "--fixture", "m1")
    assert status == 0 and out.count(b"\n") == 1
    pretty_status, pretty = _run(capsysbinary, "games", str(FINAL), "--fixture", "m1", "--pretty")
    assert pretty_status == 0 and pretty == (GOLDEN / "trojutkani-5" / "final.games-m1.json").read_bytes()
    assert json.loads(out) == json.loads(pretty)
    assert [len(r["games"]) for r in json.loads(out)["rounds"]] == [5] * 5


def test_table_prints_the_league_table_exit_0(capsysbinary: Capture) -> None:
    """``sprtec-league-table/1`` with the table and the players, as the golden answer."""
    status, out = _run(capsysbinary, "table", str(FINAL), "--pretty")
    assert status == 0 and out == (GOLDEN / "trojutkani-5" / "final.table.json").read_bytes()
    assert list(json.loads(out)) == ["format", "table", "players"]


def test_a_file_on_standard_input_reads_as_the_file(capsysbinary: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    """FILE ``-`` reads standard input."""
    data = FINAL.read_bytes()

    class Stdin:
        buffer = io.BytesIO(data)

    monkeypatch.setattr(sys, "stdin", Stdin())
    status, out = _run(capsysbinary, "table", "-", "--pretty")
    assert status == 0 and out == (GOLDEN / "trojutkani-5" / "final.table.json").read_bytes()


def test_a_file_that_cannot_be_read_is_bad_format(capsysbinary: Capture, tmp_path: Path) -> None:
    """No such file: ``BAD_FORMAT`` naming it, exit 2."""
    status, out = _run(capsysbinary, "table", str(tmp_path / "missing.json"))
    answer: dict[str, Any] = json.loads(out)
    assert status == 2 and answer["error"]["code"] == "BAD_FORMAT" and "missing.json" in answer["error"]["message"]


def test_the_league_command_is_wired_and_documented() -> None:
    """``sprtec league`` is in the command table and README.md's command table lists both actions."""
    assert COMMANDS["league"][0] == "league"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`sprtec league games FILE" in readme and "`sprtec league table FILE" in readme

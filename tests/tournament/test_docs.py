"""docs/TOURNAMENT.md stays the contract, and every choice written in docs/TOURNAMENT-NOTES.md has its test."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COPY = ROOT / "docs" / "TOURNAMENT.md"
NOTES = ROOT / "docs" / "TOURNAMENT-NOTES.md"


def test_docs_tournament_copy_equals_the_contract() -> None:
    """docs/TOURNAMENT.md is a verbatim copy of the contract handed beside the repository, when it is there."""
    contract = ROOT.parent / "shared" / "TOURNAMENT.md"
    if not contract.exists():
        pytest.skip("no ../shared/TOURNAMENT.md beside this checkout")
    assert COPY.read_bytes() == contract.read_bytes(), "cp ../shared/TOURNAMENT.md docs/TOURNAMENT.md"


def test_every_test_the_notes_name_exists() -> None:
    """Each decision of the notes names tests; each of them is defined in tests/tournament (or, for a reading of the
    server's tournaments, tests/tournament_server)."""
    named = set(re.findall(r"`(test_[A-Za-z0-9_]+)`", NOTES.read_text(encoding="utf-8")))
    folders = (Path(__file__).parent, Path(__file__).parent.parent / "tournament_server")
    defined = {
        node.name
        for folder in folders
        for path in folder.glob("test_*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    assert len(named) > 30
    assert sorted(named - defined) == []

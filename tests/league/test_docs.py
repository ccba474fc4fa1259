"""Every choice written in docs/LEAGUE-NOTES.md has its test in tests/league (the engine) or tests/league_server."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "docs" / "LEAGUE-NOTES.md"


def test_every_test_the_league_notes_name_exists() -> None:
    """Each reading of the notes names tests; each of them is defined in tests/league or tests/league_server."""
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", NOTES.read_text(encoding="utf-8")))
    defined = {
        node.name
        for folder in (Path(__file__).parent, Path(__file__).parents[1] / "league_server")
        for path in folder.glob("test_*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    assert len(named) > 15
    assert sorted(named - defined) == []

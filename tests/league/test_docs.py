"""Every choice written in docs/LEAGUE-NOTES.md has its test in tests/league."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "docs" / "LEAGUE-NOTES.md"


def test_every_test_the_league_notes_name_exists() -> None:
    """Each reading of the notes names tests; each of them is defined in tests/league."""
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", NOTES.read_text(encoding="utf-8")))
    defined = {
        node.name
        for path in Path(__file__).parent.glob("test_*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef)
    }
    assert len(named) > 15
    assert sorted(named - defined) == []

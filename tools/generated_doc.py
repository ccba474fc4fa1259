"""Writing a generated document, or checking that the committed copy is current.

Why one helper: the rules-coverage table and the settings table are generated from code and committed;
both generators offer the same two modes (rewrite, or ``--check`` that exits 1 when the committed file is
stale, for tests and CI) and must behave identically.
"""

from __future__ import annotations

import sys
from pathlib import Path


def write_or_check(path: Path, text: str, command: str, argv: list[str]) -> int:
    """Write ``text`` to ``path``; with ``--check`` in ``argv`` only report (exit status 1) when it differs."""
    if "--check" in argv:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != text:
            print(f"{path} is stale: run {command}", file=sys.stderr)
            return 1
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return 0

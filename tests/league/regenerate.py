"""Rewrite the golden league files from the cases; run only on purpose, then review the diff.

    .venv/bin/python -m tests.league.regenerate

For every state of every case in ``cases.CASES`` it writes, under ``tests/league/golden/<case>/``:
``<state>.league.json`` (the canonical file), ``<state>.table.json`` (exactly what ``sprtec league table
--pretty`` prints for it) and ``<state>.games-<fixture>.json`` for each fixture (``sprtec league games --fixture
<fixture> --pretty``, error objects included). For every invalid file of ``cases.ERRORS`` it writes
``golden/errors/<name>.league.json`` (the file) and ``golden/errors/<name>.answer.json`` (what the command
prints for it).
"""

from __future__ import annotations

from pathlib import Path

from shared.league.writing import dump_bytes
from sprtec.commands.league import games_answer, table_answer
from tests.league.cases import CASES, ERRORS, ErrorCase

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"


def error_answer(case: ErrorCase) -> tuple[int, str]:
    """The exit status and the text ``sprtec league ARGS FILE --pretty`` prints for an invalid file."""
    data = case.text.encode("utf-8")
    if case.args[0] == "games":
        return games_answer(data, case.args[2], pretty=True)
    return table_answer(data, pretty=True)


def expected_files() -> dict[Path, bytes]:
    """Every golden file as the engine makes it."""
    files: dict[Path, bytes] = {}
    for case in CASES:
        folder = GOLDEN / case.name
        for label, league in case.states():
            data = dump_bytes(league)
            files[folder / f"{label}.league.json"] = data
            files[folder / f"{label}.table.json"] = table_answer(data, pretty=True)[1].encode("utf-8")
            for f in league.fixtures:
                answer = games_answer(data, f.id, pretty=True)[1]
                files[folder / f"{label}.games-{f.id}.json"] = answer.encode("utf-8")
    for error in ERRORS:
        files[GOLDEN / "errors" / f"{error.name}.league.json"] = error.text.encode("utf-8")
        files[GOLDEN / "errors" / f"{error.name}.answer.json"] = error_answer(error)[1].encode("utf-8")
    return files


def main() -> None:
    """Replace the golden folder."""
    files = expected_files()
    for stored in GOLDEN.rglob("*.json"):
        stored.unlink()
    for path, data in sorted(files.items()):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"wrote {len(files)} files")


if __name__ == "__main__":
    main()

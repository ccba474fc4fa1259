"""Rewrite the golden files and the tournament examples from the cases; run only on purpose, then review the diff.

    .venv/bin/python -m tests.tournament.regenerate

For every state of every case in ``cases.CASES`` it writes, under ``tests/tournament/golden/<case>/``:
``<state>.tournament.json`` (the canonical file), ``<state>.standings.json`` and ``<state>.pair.json``
(exactly what ``sprtec tournament standings|pair --pretty`` prints for it, error objects included), and for
tournaments of several stages ``<state>.standings-stage-<n>.json`` (``--stage n``). It also writes
``examples/tournament-swiss.json``, ``examples/tournament-swiss-ko.json`` and ``examples/tournament-demo.json``.
"""

from __future__ import annotations

from pathlib import Path

from shared.tournament.writing import dump_bytes
from sprtec.commands.tournament import pair_answer, standings_answer
from tests.tournament.cases import CASES, demo_example, swiss_example, swiss_ko_example

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
EXAMPLES = ROOT / "examples"


def expected_files() -> dict[Path, bytes]:
    """Every golden file and example as the engine makes it."""
    files: dict[Path, bytes] = {
        EXAMPLES / "tournament-swiss.json": dump_bytes(swiss_example()),
        EXAMPLES / "tournament-swiss-ko.json": dump_bytes(swiss_ko_example()),
        EXAMPLES / "tournament-demo.json": dump_bytes(demo_example()),
    }
    for case in CASES:
        folder = GOLDEN / case.name
        for label, t in case.states():
            data = dump_bytes(t)
            files[folder / f"{label}.tournament.json"] = data
            files[folder / f"{label}.standings.json"] = standings_answer(data, pretty=True)[1].encode("utf-8")
            files[folder / f"{label}.pair.json"] = pair_answer(data, pretty=True)[1].encode("utf-8")
            if len(t.stages) > 1:
                for stage in range(len(t.stages)):
                    answer = standings_answer(data, stage=stage, pretty=True)[1]
                    files[folder / f"{label}.standings-stage-{stage}.json"] = answer.encode("utf-8")
    return files


def main() -> None:
    """Replace the golden folder and the examples."""
    files = expected_files()
    for stored in GOLDEN.rglob("*.json"):
        stored.unlink()
    for path, data in sorted(files.items()):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"wrote {len(files)} files")


if __name__ == "__main__":
    main()

"""Rewrite the golden files and the tournament examples from the cases; run only on purpose, then review the diff.

    .venv/bin/python -m tests.tournament.regenerate

For every state of every case in ``cup_cases.ALL_CASES`` it writes, under ``tests/tournament/golden/<case>/``:
``<state>.tournament.json`` (the canonical file), ``<state>.standings.json``, ``<state>.pair.json`` and
``<state>.ranking.json`` (exactly what ``sprtec tournament standings|pair|ranking --pretty`` prints for it,
error objects included), and for tournaments of several stages ``<state>.standings-stage-<n>.json``
(``--stage n``). For every run of ``cup_cases.SEASONS`` it writes ``golden/season/<label>.files.json`` (the
files, as paths under golden/, and ``--best``) and ``golden/season/<label>.season.json`` (what
``sprtec season standings --pretty`` prints for them). It also writes ``examples/tournament-swiss.json``,
``examples/tournament-swiss-ko.json``, ``examples/tournament-demo.json`` and
``examples/tournament-czech-cup-24.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

from shared.tournament.writing import dump_bytes
from sprtec.commands.season import standings_answer as season_answer
from sprtec.commands.tournament import pair_answer, ranking_answer, standings_answer
from tests.tournament.cases import demo_example, swiss_example, swiss_ko_example
from tests.tournament.cup_cases import ALL_CASES, SEASONS, SeasonRun, czech_cup_24_example

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
EXAMPLES = ROOT / "examples"
EXAMPLE_NAMES = ("tournament-swiss.json", "tournament-swiss-ko.json", "tournament-demo.json",
                 "tournament-czech-cup-24.json")


def expected_files() -> dict[Path, bytes]:
    """Every golden file and example as the engine makes it."""
    files: dict[Path, bytes] = {
        EXAMPLES / "tournament-swiss.json": dump_bytes(swiss_example()),
        EXAMPLES / "tournament-swiss-ko.json": dump_bytes(swiss_ko_example()),
        EXAMPLES / "tournament-demo.json": dump_bytes(demo_example()),
        EXAMPLES / "tournament-czech-cup-24.json": dump_bytes(czech_cup_24_example()),
    }
    for case in ALL_CASES:
        folder = GOLDEN / case.name
        for label, t in case.states():
            data = dump_bytes(t)
            files[folder / f"{label}.tournament.json"] = data
            files[folder / f"{label}.standings.json"] = standings_answer(data, pretty=True)[1].encode("utf-8")
            files[folder / f"{label}.pair.json"] = pair_answer(data, pretty=True)[1].encode("utf-8")
            files[folder / f"{label}.ranking.json"] = ranking_answer(data, pretty=True)[1].encode("utf-8")
            if len(t.stages) > 1:
                for stage in range(len(t.stages)):
                    answer = standings_answer(data, stage=stage, pretty=True)[1]
                    files[folder / f"{label}.standings-stage-{stage}.json"] = answer.encode("utf-8")
    for run in SEASONS:
        files.update(season_files(run, files))
    return files


def season_paths(run: SeasonRun) -> list[Path]:
    """The tournament files of a season run, in its order."""
    return [GOLDEN / f"{name}.tournament.json" for name in run.files]


def season_files(run: SeasonRun, made: dict[Path, bytes]) -> dict[Path, bytes]:
    """A season run's listing and answer (computed from the files the cases make, not from the stored ones)."""
    listing = {"files": [f"{name}.tournament.json" for name in run.files], "best": run.best}
    folder = GOLDEN / "season"
    missing = [path for path in season_paths(run) if path not in made]
    assert not missing, f"a season run names files no case makes: {missing}"
    answer = season_answer([str(path) for path in season_paths(run)], best=run.best, pretty=True,
                           read=lambda name: made[Path(name)])
    return {
        folder / f"{run.label}.files.json": (json.dumps(listing, ensure_ascii=False, indent=2) + "\n").encode("utf-8"),
        folder / f"{run.label}.season.json": answer[1].encode("utf-8"),
    }


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

"""A Czech Cup season from tournaments the server played: the README's three Expres tournaments of 2026 each played
by bots with ``sprtec tournament run FILE --bots --out DIR``, then ``sprtec season standings`` of the three exported
tournament files ranks the season - every player's points the sum of his cup points in the exports' rankings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "examples" / "season-2026"
FILES = ("expres-brno.json", "expres-praha.json", "expres-ostrava.json")
QUICK_ARGS = ["--setting", "periods=1", "--setting", "period_ms=2000", "--setting", "break_ms=0",
              "--setting", "overtime_ms=1000", "--setting", "shootout_series=1", "--gap-ms", "300"]


@pytest.mark.slow(seconds=25)
def test_the_season_of_three_exported_tournaments_sums_each_players_cup_points(tmp_path: Path) -> None:
    """Three runs exit 0 and export; the season lists the three in the order given, ranks every player who played,
    his points the sum of his three rankings' cup points (no --best), his latest tournament's name and category,
    each category ranked apart; --best 2 counts his two best."""
    outs = [tmp_path / f"export-{index}" for index in range(len(FILES))]
    runs = [subprocess.Popen([sys.executable, "-m", "sprtec", "tournament", "run", str(SEASON / name), "--bots",
                              "--level", "random", "--data", str(tmp_path / f"data-{index}"), "--out", str(out),
                              "--timeout", "400", *QUICK_ARGS], cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
            for index, (name, out) in enumerate(zip(FILES, outs, strict=True))]  # three servers at once: days apart
    for run in runs:
        _, err = run.communicate(timeout=460)
        assert run.returncode == 0, err[-2000:]
    exported = [str(out / "tournament.json") for out in outs]
    rankings = [json.loads((out / "ranking.json").read_text(encoding="utf-8")) for out in outs]
    done = subprocess.run([sys.executable, "-m", "sprtec", "season", "standings", *exported], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    season = json.loads(done.stdout)
    assert season["format"] == "sprtec-season/1" and season["season"] == 2026 and season["best"] is None
    assert [t["date"] for t in season["tournaments"]] == ["2026-03-14", "2026-05-09", "2026-09-19"]
    earned: dict[str, list[int]] = {}
    for ranking in rankings:
        assert ranking["complete"] and ranking["cup"]["tier"] == "expres"
        for row in ranking["ranking"]:
            earned.setdefault(row["player"], []).append(row["cup_points"])
    lines = {line["player"]: line for line in season["standings"]}
    assert set(lines) == set(earned)
    for player, points in earned.items():
        assert lines[player]["points"] == sum(points) and lines[player]["played"] == len(points)
    assert [line["points"] for line in season["standings"]] == sorted((sum(p) for p in earned.values()),
                                                                     reverse=True)
    assert lines["kstary"]["category"] == "V" and "V" in season["categories"]
    best = subprocess.run([sys.executable, "-m", "sprtec", "season", "standings", *exported, "--best", "2"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    two = {line["player"]: line["points"] for line in json.loads(best.stdout)["standings"]}
    assert all(two[player] == sum(sorted(points, reverse=True)[:2]) for player, points in earned.items())

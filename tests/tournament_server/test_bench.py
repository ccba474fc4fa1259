"""``sprtec bench tournament``'s live part runs a small tournament's tables on a real server and reports them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_live_bench_plays_every_table_at_once_and_reports_its_latency() -> None:
    """Eight players' four tables flick for two seconds: the report counts the tables and the flicks' latency."""
    command = [sys.executable, "-m", "sprtec", "bench", "tournament", "--part", "live", "--live-players", "8",
               "--duration", "3", "--warmup", "1", "--move-every", "1", "--workers", "0"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "8 players, 4 tables at once" in done.stdout
    assert "flick -> MovePlayed p50" in done.stdout and " 0 flicks" not in done.stdout


def test_the_round_bench_times_a_round_start_against_its_floor() -> None:
    """A 20-player round 1 and round 3: each StartRound opens its 10 tables and tells its 20 coaches, with its floor
    (the pairing and the rooms' matches) and a verdict against the 100 ms target."""
    command = [sys.executable, "-m", "sprtec", "bench", "tournament", "--part", "round", "--players", "20",
               "--played", "2", "--round-repeat", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert sum("StartRound to 10 tables open and 20 coaches told" in line for line in lines) == 2
    assert sum("floor" in line and "the engine's pairing" in line for line in lines) == 2
    assert sum("the 100 ms target" in line for line in lines) == 2

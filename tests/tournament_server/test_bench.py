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

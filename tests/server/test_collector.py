"""The server process's paced garbage collector (server.ops.collector): the plan's choices as a pure function of the
ticks and the heap's size, the task on a real loop with the real collector, and ``sprtec serve`` running it."""

from __future__ import annotations

import asyncio
import gc
import re
import signal
import sys
from pathlib import Path

import pytest

from server.ops.collector import MIDDLE, NEVER, OLDEST, YOUNGEST, CollectionPlan, PacedCollector
from tests.server.test_http_endpoints import get

ROOT = Path(__file__).resolve().parents[2]
START_S = 60.0  # how long the server may take to print its URL on a loaded machine


def test_the_youngest_generation_every_tick_and_the_middle_one_every_tenth() -> None:
    plan = CollectionPlan(1_000_000, middle_every=10)
    chosen = [plan.tick(1_000_000) for _ in range(30)]
    assert [i + 1 for i, generation in enumerate(chosen) if generation == MIDDLE] == [10, 20, 30]
    assert chosen.count(YOUNGEST) == 27 and OLDEST not in chosen


def test_a_full_pass_only_once_the_heap_doubled_since_the_last_one() -> None:
    plan = CollectionPlan(1_000_000, growth=1.0, floor=10)
    assert plan.tick(1_999_999) != OLDEST
    assert plan.tick(2_000_000) == OLDEST
    plan.collected(OLDEST, 1_500_000)  # what the pass left is the new baseline
    assert plan.tick(2_999_999) != OLDEST
    assert plan.tick(3_000_000) == OLDEST


def test_a_small_heap_waits_for_the_floor_before_its_full_pass() -> None:
    plan = CollectionPlan(1_000, growth=1.0, floor=500_000)
    assert plan.tick(400_000) != OLDEST
    assert plan.tick(501_000) == OLDEST


def test_a_young_pass_does_not_move_the_full_passes_threshold() -> None:
    plan = CollectionPlan(1_000_000, growth=1.0, floor=10)
    plan.collected(YOUNGEST, 100)
    plan.collected(MIDDLE, 100)
    assert plan.full_at == 2_000_000


async def test_the_collector_runs_its_passes_on_the_loop_with_cpythons_full_passes_off_and_gives_them_back() -> None:
    before = gc.get_threshold()
    heap = [1_000_000]
    passes: list[int] = []
    task = asyncio.get_running_loop().create_task(
        PacedCollector(lambda generation, seconds: passes.append(generation), every_s=0.001,
                       blocks=lambda: heap[0]).run())
    try:
        while len(passes) < 12:
            await asyncio.sleep(0.005)
        assert gc.get_threshold() == (before[0], before[1], NEVER)
        assert MIDDLE in passes and OLDEST not in passes
        heap[0] = 10_000_000  # the heap grew tenfold: the next tick is a full pass
        seen = len(passes)
        while len(passes) == seen:
            await asyncio.sleep(0.005)
        assert passes[seen] == OLDEST
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert gc.get_threshold() == before


async def test_no_pass_runs_while_the_collector_is_disabled() -> None:
    passes: list[int] = []
    gc.disable()
    task = asyncio.get_running_loop().create_task(
        PacedCollector(lambda generation, seconds: passes.append(generation), every_s=0.001).run())
    try:
        await asyncio.sleep(0.05)
        assert passes == []
    finally:
        gc.enable()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


def _passes(metrics: str, generation: int) -> float:
    """The count of ``generation``'s passes in a /metrics text."""
    found = re.search(rf'^sprtec_gc_pass_seconds_count{{generation="{generation}"}} (\S+)$', metrics, re.MULTILINE)
    assert found is not None, metrics[:2000]
    return float(found.group(1))


async def test_sprtec_serve_collects_its_young_generations_by_itself_and_shows_the_passes_in_metrics(
        tmp_path: Path) -> None:
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sprtec", "serve", "--port", "0", "--workers", "0", "--data", str(tmp_path / "data"),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        url = (await asyncio.wait_for(child.stdout.readline(), START_S)).decode().strip()
        http = url.replace("ws://", "http://").rstrip("/")
        for _ in range(200):
            _, _, metrics = await get(f"{http}/metrics")
            if _passes(metrics, 0) >= 3 and _passes(metrics, 1) >= 1:
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("no young passes counted in 20 s")
        assert _passes(metrics, 2) == 0  # an idle server's heap does not double
        child.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(child.communicate(), START_S)
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
    assert child.returncode == 0, err.decode()[-2000:]

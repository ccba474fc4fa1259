"""``sprtec bench physics`` times the move against the bare loop with the heap as a physics worker has it."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

from benchmarks.physics_cost import timed

ROOT = Path(__file__).resolve().parents[2]


def test_the_bench_prints_both_ratios_and_the_pass_that_walks_the_heap() -> None:
    """Two moves, one repeat: a row per move, the reused and fresh ratios against the target, and the comparison
    pass that collects the whole heap before each sample."""
    command = [sys.executable, "-m", "sprtec", "bench", "physics", "--moves", "2", "--repeat", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "the heap made before the samples frozen out of it" in out
    assert "ratio move/bare = " in out and "ratio fresh move/bare = " in out
    assert "a second pass collecting the whole heap before every sample" in out


class _Cycle:
    """An object that refers to itself: only the cyclic collector frees it."""

    me: object


def test_only_a_sample_that_walks_the_heap_frees_garbage_frozen_with_it_and_both_leave_the_heap_frozen() -> None:
    """A reference cycle dropped just before the heap is frozen: the collection before an ordinary sample does not
    reach it (a worker's do not either); the one before a ``walk_heap`` sample frees it, and freezes the heap again."""
    gc.collect()
    cycle = _Cycle()
    cycle.me = cycle
    alive = weakref.ref(cycle)
    del cycle
    gc.freeze()
    try:
        seconds, _teardown = timed(lambda: [object() for _ in range(100)])
        assert seconds >= 0 and alive() is not None
        timed(lambda: None, walk_heap=True)
        assert alive() is None
        assert gc.get_freeze_count() > 0 and gc.isenabled()
    finally:
        gc.unfreeze()

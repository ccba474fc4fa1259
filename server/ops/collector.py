"""The server process's cyclic garbage collector, paced by the event loop: the young generations collected often and
small, the oldest one only when the heap has doubled.

Why: CPython starts a young collection when the tracked objects allocated exceed those freed by 700, so a server in a
steady state - each move's new position replacing the last - frees about as many as it makes, and its youngest
generation grew to 15,000-80,000 objects before a pass walked them (5-15 ms), the middle one to 60,000 (50-75 ms);
and it starts a full pass whenever a quarter more objects than the last one left have survived, which with 2,000
live matches (~580,000 tracked objects: each connection's coroutines and transports, each room's positions) held
the loop 0.2-0.4 s every few seconds. Every flick waiting behind a pass felt it: ``sprtec bench server --matches
2000`` had a p99 of 355 ms from these alone. Yet nearly nothing the server keeps is cyclic garbage - every full pass
under that load collected nothing, a closed connection's objects go by reference counting.

So the loop collects the youngest generation every ``YOUNG_EVERY_S`` (a pass of ~0.2 ms), the middle one every
``MIDDLE_EVERY``-th time (~2 ms), and the oldest one only when the heap - the blocks the object allocator hands out,
``sys.getallocatedblocks``, cheap to read - has grown by ``FULL_GROWTH`` of itself since the last full pass: the
memory cyclic garbage can hold stays bounded by the live heap, and a server whose heap is steady never stalls on a
full pass. CPython's own young collections stay on as a backstop for a burst of allocations between two ticks. The
plan (``CollectionPlan``) is pure; ``PacedCollector`` runs it on the loop.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from collections.abc import Callable

YOUNG_EVERY_S = 0.1  # the youngest generation is collected this often
MIDDLE_EVERY = 10  # ... the middle one (with the youngest) every 10th time: once a second
FULL_GROWTH = 1.0  # the oldest one once the heap grew by this fraction of itself since the last full pass ...
FULL_FLOOR_BLOCKS = 500_000  # ... and by this many blocks at least (~30 MB): a small heap is not walked for little
NEVER = 2**30  # CPython's threshold for its own full passes: none (count of middle passes it would wait for)

YOUNGEST, MIDDLE, OLDEST = 0, 1, 2


class CollectionPlan:
    """Which generation to collect at each tick, from the heap's size then (pure: the ticks and sizes are inputs)."""

    def __init__(self, blocks: int, *, middle_every: int = MIDDLE_EVERY, growth: float = FULL_GROWTH,
                 floor: int = FULL_FLOOR_BLOCKS) -> None:
        """``blocks``: the heap's size now, the baseline the first full pass is measured from."""
        self._middle_every = middle_every
        self._growth = growth
        self._floor = floor
        self._ticks = 0
        self.full_at = self._next_full(blocks)

    def _next_full(self, blocks: int) -> int:
        """The heap's size at which the next full pass is due, after one that left ``blocks``."""
        return blocks + max(self._floor, int(self._growth * blocks))

    def tick(self, blocks: int) -> int:
        """The generation to collect now (that one and every younger), the heap being ``blocks``."""
        self._ticks += 1
        if blocks >= self.full_at:
            return OLDEST
        return MIDDLE if self._ticks % self._middle_every == 0 else YOUNGEST

    def collected(self, generation: int, blocks: int) -> None:
        """A pass of ``generation`` left the heap at ``blocks``: a full one moves the next one's threshold."""
        if generation == OLDEST:
            self.full_at = self._next_full(blocks)


class PacedCollector:
    """Runs a ``CollectionPlan`` on the event loop (``run``, a task for the server's lifetime); ``observe(generation,
    seconds)`` hears each pass (the ``sprtec_gc_pass_seconds`` metric)."""

    def __init__(self, observe: Callable[[int, float], None], *, every_s: float = YOUNG_EVERY_S,
                 blocks: Callable[[], int] = sys.getallocatedblocks) -> None:
        self._observe = observe
        self._every_s = every_s
        self._blocks = blocks

    async def run(self) -> None:
        """Collect as planned until cancelled; CPython's thresholds are given back then. While the collector is off
        (``gc.disable``: a recovery that makes thousands of long-lived objects at once), no pass runs."""
        before = gc.get_threshold()
        gc.set_threshold(before[0], before[1], NEVER)
        plan = CollectionPlan(self._blocks())
        try:
            while True:
                await asyncio.sleep(self._every_s)
                if not gc.isenabled():
                    continue
                generation = plan.tick(self._blocks())
                started = time.perf_counter()
                gc.collect(generation)
                self._observe(generation, time.perf_counter() - started)
                plan.collected(generation, self._blocks())
        finally:
            gc.set_threshold(*before)

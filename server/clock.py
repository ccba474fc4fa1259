"""The clock that drives every room: monotonic milliseconds and sleeping until a deadline.

Why injectable: the engine is pure and only ever receives elapsed milliseconds; the room is the only
place that reads time, and it reads it through this interface, so tests drive periods, move clocks,
choice timeouts and disconnect grace with ``FakeClock.advance`` instead of waiting for them.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class WallClock(Protocol):
    """What a room needs from time: now in ms, and a sleep that ends at an absolute deadline."""

    def now_ms(self) -> int:
        """Monotonic milliseconds (only differences are meaningful)."""
        ...

    async def sleep_until(self, deadline_ms: int) -> None:
        """Return once ``now_ms() >= deadline_ms``."""
        ...


class MonotonicClock:
    """The real clock: ``time.monotonic`` and ``asyncio.sleep``."""

    def now_ms(self) -> int:
        """Monotonic wall time in whole milliseconds."""
        return time.monotonic_ns() // 1_000_000

    async def sleep_until(self, deadline_ms: int) -> None:
        """Sleep until the deadline (returns at once when it has passed)."""
        delay = deadline_ms - self.now_ms()
        if delay > 0:
            await asyncio.sleep(delay / 1000)


class FakeClock:
    """A clock that only moves when a test calls ``advance``; sleepers wake in deadline order."""

    def __init__(self, start_ms: int = 0) -> None:
        self._now = start_ms
        self._sleepers: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now_ms(self) -> int:
        """The fake time."""
        return self._now

    async def sleep_until(self, deadline_ms: int) -> None:
        """Wait until a test advances the clock past ``deadline_ms``."""
        if deadline_ms <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (deadline_ms, next(self._order), future))
        await future

    async def advance(self, ms: int) -> None:
        """Move time forward by ``ms``, waking each sleeper at its own deadline and letting it run."""
        target = self._now + ms
        while self._sleepers and self._sleepers[0][0] <= target:
            deadline, _, future = heapq.heappop(self._sleepers)
            self._now = max(self._now, deadline)
            if not future.done():
                future.set_result(None)
            for _ in range(20):  # let the woken task and what it starts run to their next await
                await asyncio.sleep(0)
        self._now = target
        for _ in range(20):
            await asyncio.sleep(0)

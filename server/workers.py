"""The process pool that runs moves, so the event loop never waits on physics.

Why a pool of processes: a flick costs milliseconds of pymunk time and the GIL would stall every room
of the loop while it runs; the engine is pure and its inputs and outputs are picklable dataclasses, so
a worker process runs the whole ``apply_entry`` and ships the ``Outcome`` back (PHYSICS-NOTES §6).
Entries without physics (timeouts, forfeits, choices, clock-only entries) are microseconds and run
in-line - same function, same result.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor

from server import engine
from server.store import LogEntry
from shared.model import Position


def _warm() -> None:
    """Import the engine in each worker before the first move arrives."""
    import shared.match  # noqa: F401


def make_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """A pool of ``workers`` (default: one per core) started with forkserver (the server has threads)."""
    context = multiprocessing.get_context("forkserver")
    return ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1, mp_context=context, initializer=_warm)


def needs_worker(entry: LogEntry) -> bool:
    """True for entries that simulate physics (flicks); the rest are cheap enough for the loop."""
    return entry.kind == "action" and entry.action is not None and entry.action.get("action") == "flick"


class Engine:
    """``apply_entry`` on the pool for flicks, in-line otherwise."""

    def __init__(self, pool: Executor | None) -> None:
        self._pool = pool

    async def apply(self, position: Position, entry: LogEntry) -> engine.Outcome:
        """The outcome of one entry, computed without blocking the loop on physics."""
        if self._pool is None or not needs_worker(entry):
            return engine.apply_entry(position, entry)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, engine.apply_entry, position, entry)

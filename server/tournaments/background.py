"""The background tasks of a competition's service (a tournament's or a league's timers and pushes): kept until they
end, a failure logged, all cancelled when the server stops.

Why one piece: the tournaments' and the leagues' services run the same kind of tasks - a timer per competition that
sleeps until its next deadline, a coalesced push to its watchers - and both must end them all, and nothing else, when
the server stops (their logs have everything).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)


class Background:
    """A service's running tasks; ``what`` names them in the log ("a tournament task failed")."""

    def __init__(self, what: str) -> None:
        self._what = what
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopped = False

    def spawn(self, job: Any) -> asyncio.Task[Any]:
        """Run a coroutine of this service in the background; it is kept until it ends (and logged if it fails)."""
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        """Forget a finished task; a failure is logged."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a %s task failed", self._what, exc_info=task.exception())

    async def stop(self) -> None:
        """The server stops: every timer and push ends (the log has everything)."""
        self._stopped = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

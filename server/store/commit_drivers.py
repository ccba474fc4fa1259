"""The group-commit machine (``server.store.group_commit``) carried out in the store's two concurrency models: a
thread of its own (SQLite: ``ThreadWriter``) and tasks on an event loop (PostgreSQL's asyncpg: ``LoopWriter``).

Why two drivers of one machine: SQLite's calls block and belong on a thread; asyncpg's are coroutines and belong on a
loop. What differs is only how the machine is woken and how long it waits; which jobs go together, what a failure
does and what health the listeners hear are the machine's. Each driver is given its dialect's ``commit`` (one
transaction for a batch, a savepoint per job) and calls it one batch at a time; jobs submitted meanwhile, from any
thread, join the next batch.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from functools import partial

from server.store.group_commit import (
    Announce,
    Answer,
    Commit,
    Effect,
    Failure,
    GroupCommit,
    Job,
    RetryAfter,
    Settle,
)
from server.store.store_port import Health, StoreLost, StoreUnavailable

log = logging.getLogger(__name__)
_CLOSE, _ABANDON = "close", "abandon"  # the thread driver's inbox carries jobs and these two words


class CommitDriver:
    """What both drivers share: the machine, the health listeners, the commit timing; ``submit``, ``queued`` and
    ``close`` are each driver's."""

    def __init__(self, batch: int) -> None:
        self._machine = GroupCommit(batch)
        self._listeners: list[Callable[[Health], None]] = []
        self._closed = False
        self.on_commit: Callable[[float], None] | None = None  # told each committed transaction's seconds (metrics)

    @property
    def health(self) -> Health:
        """Whether the store commits now."""
        return self._machine.health

    @property
    def commits(self) -> int:
        """Transactions committed so far."""
        return self._machine.commits

    def listen(self, listener: Callable[[Health], None]) -> None:
        """Call ``listener(health)`` (from the writer's thread) whenever the store's health changes."""
        self._listeners.append(listener)

    @property
    def queued(self) -> int:
        """Jobs waiting for the writer (not counting the batch it is committing)."""
        raise NotImplementedError

    def submit(self, job: Job) -> None:
        """Queue one job (from any thread)."""
        raise NotImplementedError

    def close(self, timeout_s: float) -> bool:
        """Commit what is queued and stop; while the store fails, give up after ``timeout_s``; True when it ended."""
        raise NotImplementedError

    def _refuse_now(self, job: Job) -> bool:
        """Fail ``job`` at once when the writer was closed or the store lost (True), without waking the writer."""
        if not (self._closed or self._machine.stopped or self.health.lost):
            return False
        if job[1] is not None:
            job[1].settle(StoreLost(self.health.reason) if self.health.lost
                          else StoreUnavailable("the store is closed"))
        return True

    @staticmethod
    def _raised(exc: Exception) -> Failure:
        """A commit that raised instead of answering: the store failing, so that the machine hears back (and
        retries) - left unanswered, it would wait for that commit, and every write after it, for ever."""
        log.error("a commit raised instead of answering (%r): taken as the store failing", exc, exc_info=exc)
        return Failure(f"the commit raised {exc!r}")

    def _timed(self, began: float, answer: Answer) -> Answer:
        """Report a committed transaction's seconds to the metrics."""
        if isinstance(answer, list) and self.on_commit is not None:
            self.on_commit(time.perf_counter() - began)
        return answer

    def _announce(self, effect: Announce) -> None:
        """Log a change of health and tell the listeners (a listener's bug must not stop the writer)."""
        if effect.health.ok:
            log.warning("the database commits again: %d waiting writes committed", effect.committed)
        else:
            log.error("the database cannot commit (%s): %s", effect.health.reason,
                      "every write fails from now on" if effect.health.lost else "play pauses, retrying")
        for listener in self._listeners:
            try:
                listener(effect.health)
            except Exception:
                log.exception("a store health listener failed")


class ThreadWriter(CommitDriver):
    """The machine on a thread of its own: ``commit(jobs)`` blocks in it; ``submit`` may be called from any thread."""

    def __init__(self, commit: Callable[[tuple[Job, ...]], Answer], batch: int, name: str) -> None:
        super().__init__(batch)
        self._commit = commit
        self._inbox: queue.SimpleQueue[Job | str] = queue.SimpleQueue()
        self._retry_at: float | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    @property
    def queued(self) -> int:
        """Jobs waiting for the writer (not counting the batch it is committing)."""
        return self._inbox.qsize() + len(self._machine.queue)

    def submit(self, job: Job) -> None:
        """Queue one job; once the store was lost, or the writer closed, it fails at once."""
        if self._refuse_now(job):
            return
        self._inbox.put(job)
        if self._machine.stopped:  # the writer ended between the check and the put: nobody else will answer it
            self._drain_refused()

    def close(self, timeout_s: float) -> bool:
        """Commit what is queued and stop; while the store fails, give up after ``timeout_s`` (the waiting jobs fail
        with ``StoreUnavailable``). Returns True when the thread ended in time."""
        self._closed = True
        if self._thread.is_alive():
            self._inbox.put(_CLOSE)
            self._thread.join(timeout_s)
            if self._thread.is_alive():
                self._inbox.put(_ABANDON)
                self._thread.join(timeout_s)
        return not self._thread.is_alive()

    @property
    def ended(self) -> bool:
        """Whether the writer's thread has ended (its connection may be closed)."""
        return not self._thread.is_alive()

    def _run(self) -> None:
        """Wait for a job, a word or the end of a pause after a failed commit; carry out what the machine says."""
        while not self._machine.stopped:
            timeout = None if self._retry_at is None else max(0.0, self._retry_at - time.monotonic())
            try:
                event = self._inbox.get(timeout=timeout)
            except queue.Empty:
                self._retry_at = None
                self._carry_out(self._machine.retry())
                continue
            self._carry_out(self._feed(event))
        self._drain_refused()

    def _feed(self, event: Job | str) -> list[Effect]:
        """One event of the inbox, into the machine."""
        if event == _CLOSE:
            return self._machine.close()
        if event == _ABANDON:
            return self._machine.abandon()
        assert not isinstance(event, str)
        return self._machine.submit(event)

    def _carry_out(self, effects: list[Effect]) -> None:
        """Carry out the machine's effects in order, a commit and what it leads to included."""
        todo = list(effects)
        while todo:
            effect = todo.pop(0)
            if isinstance(effect, Commit):
                began = time.perf_counter()
                try:
                    answer = self._timed(began, self._commit(effect.jobs))
                except Exception as exc:
                    answer = self._raised(exc)
                while True:  # what came meanwhile joins the queue first, so the next batch takes it
                    try:
                        todo += self._feed(self._inbox.get_nowait())
                    except queue.Empty:
                        break
                todo += self._machine.answer(answer)
            elif isinstance(effect, Settle):
                effect.settler.settle(effect.outcome)
            elif isinstance(effect, Announce):
                self._announce(effect)
            elif isinstance(effect, RetryAfter):
                self._retry_at = time.monotonic() + effect.delay_s
            else:
                self._retry_at = None

    def _drain_refused(self) -> None:
        """Fail whatever reached the inbox after the writer stopped."""
        while True:
            try:
                event = self._inbox.get_nowait()
            except queue.Empty:
                return
            if not isinstance(event, str):
                for effect in self._machine.submit(event):
                    if isinstance(effect, Settle):
                        effect.settler.settle(effect.outcome)


class LoopWriter(CommitDriver):
    """The machine on an event loop (run in another thread): ``commit(jobs)`` is awaited there; ``submit`` and
    ``close`` may be called from any thread but the loop's own."""

    def __init__(self, loop: asyncio.AbstractEventLoop, commit: Callable[[tuple[Job, ...]], Awaitable[Answer]],
                 batch: int, on_stop: Callable[[], Awaitable[None]]) -> None:
        super().__init__(batch)
        self._loop = loop
        self._commit = commit
        self._on_stop = on_stop
        self._retry: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._ended: Future[None] = Future()

    @property
    def queued(self) -> int:
        """Jobs waiting for the writer (not counting the batch it is committing)."""
        return len(self._machine.queue)

    def submit(self, job: Job) -> None:
        """Queue one job (from any thread); once the writer closed, it fails at once."""
        if self._refuse_now(job):
            return
        try:
            self._loop.call_soon_threadsafe(self._on_loop, partial(self._machine.submit, job))
        except RuntimeError:  # the loop is closed: the store has stopped
            self._closed = True
            self._refuse_now(job)

    def close(self, timeout_s: float) -> bool:
        """Commit what is queued and stop; while the store fails, give up after ``timeout_s``."""
        self._closed = True
        for word in (self._machine.close, self._machine.abandon):
            if self._ended.done():
                break
            self._loop.call_soon_threadsafe(self._on_loop, word)
            try:
                self._ended.result(timeout_s)
            except FutureTimeout:
                continue
        return self._ended.done()

    def _on_loop(self, step: Callable[[], list[Effect]]) -> None:
        """One input of the machine, on the loop, and its effects carried out."""
        self._apply(step())

    def _apply(self, effects: list[Effect]) -> None:
        """Carry out the machine's effects in order (a commit runs as a task and answers when it is done)."""
        for effect in effects:
            if isinstance(effect, Commit):
                self._spawn(self._run_commit(effect.jobs))
            elif isinstance(effect, Settle):
                effect.settler.settle(effect.outcome)
            elif isinstance(effect, Announce):
                self._announce(effect)
            elif isinstance(effect, RetryAfter):
                self._retry = self._loop.call_later(effect.delay_s, self._on_loop, self._machine.retry)
            else:
                if self._retry is not None:
                    self._retry.cancel()
                self._spawn(self._stop())

    def _spawn(self, work: Awaitable[None]) -> None:
        """Run ``work`` as a task the writer keeps until it ends."""
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run_commit(self, jobs: tuple[Job, ...]) -> None:
        """Commit one batch and hand the answer to the machine."""
        began = time.perf_counter()
        try:
            answer = self._timed(began, await self._commit(jobs))
        except Exception as exc:
            answer = self._raised(exc)
        self._apply(self._machine.answer(answer))

    async def _stop(self) -> None:
        """The writer ended: close its connection, then say so."""
        try:
            await self._on_stop()
        finally:
            self._ended.set_result(None)

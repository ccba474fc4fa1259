"""The store's one writer as a pure machine: which jobs are committed together, what a failed commit does, the
store's health - the outcomes of commits and the passing of time as inputs, what to do as effects out.

Why pure (as ``server.rooms.room_core``, h11's state machine): both stores commit the same way - SQLite from a
thread of its own (``server.store.sqlite.sqlite_writer``), PostgreSQL from a task on the store's event loop
(``server.store.postgres.pg_store``) - and that policy is decided once, here, and tested as transitions
(tests/server/test_group_commit.py) instead of by filling disks:

* **group commit**: whatever is queued when the writer is free, up to ``batch`` jobs and in the order submitted, is
  one ``Commit`` - one transaction, a savepoint per job, so a job refused for its own data (a constraint) fails
  alone. Jobs submitted while a commit runs wait for the next one, whatever room they come from;
* **nothing acknowledged is lost**: a job is settled with its ids only by ``committed``, after its transaction
  committed; a commit that ``failed`` for a reason of the store itself (full disk, read-only file system, a lost
  connection) is retried - the same batch, in the same order - after the growing pauses of ``RETRY_DELAYS_S``, and
  the health effects say the store is unavailable and, at the next commit, that it has recovered;
* **lost**: a commit that failed because the database is gone for good (its file deleted or replaced) fails every
  waiting and later job with ``StoreLost``;
* **stopping**: ``close`` commits what is queued and stops - at once while the store fails, failing what waits;
  ``abandon`` gives up on what still waits (the driver's close timed out).

A driver carries the effects out in order: ``Commit`` (answer ``committed`` or ``failed``), ``Settle``, ``Announce``
(tell the health listeners), ``RetryAfter`` (answer ``retry`` after that many seconds, unless ``close`` or
``abandon`` comes first) and ``Stopped`` (the writer ends).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Literal, Protocol

from server.store.store_port import Health, Statement, StoreLost, StoreUnavailable

RETRY_DELAYS_S = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)  # pauses between commit attempts while the store fails
Outcome = list[int] | BaseException  # a job's: each statement's generated id, or why its own statements failed


class Settler(Protocol):
    """What waits for one job: settled by the driver with a list of row ids or an exception."""

    def settle(self, outcome: Outcome) -> None:
        """Hand the job's outcome over (thread-safe)."""
        ...


Job = tuple[list[Statement], Settler | None]  # statements for one savepoint, and who waits for them (None: nobody)


@dataclass(frozen=True, slots=True)
class Commit:
    """Commit these jobs in one transaction, a savepoint each; answer ``committed`` or ``failed``."""

    jobs: tuple[Job, ...]


@dataclass(frozen=True, slots=True)
class Settle:
    """Tell one job's waiter its outcome."""

    settler: Settler
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class Announce:
    """The store's health changed: tell the listeners. ``committed``: the writes that waited, committed at last."""

    health: Health
    committed: int = 0


@dataclass(frozen=True, slots=True)
class RetryAfter:
    """Answer ``retry`` after ``delay_s`` seconds (the failed batch is committed again)."""

    delay_s: float


@dataclass(frozen=True, slots=True)
class Stopped:
    """The writer has nothing left to do and ends (close its connection)."""


Effect = Commit | Settle | Announce | RetryAfter | Stopped


@dataclass(frozen=True, slots=True)
class Failure:
    """A commit that failed for a reason of the store itself: ``reason`` (the database's error); ``lost``: for good."""

    reason: str
    lost: bool = False


Answer = list[Outcome] | Failure  # what a driver's commit gives back: each job's outcome, or why nothing committed
Phase = Literal["idle", "committing", "waiting", "stopped"]


class GroupCommit:
    """The writer's state: the queue, the batch being committed, its attempts, the store's health."""

    def __init__(self, batch: int) -> None:
        self.batch_size = batch
        self.phase: Phase = "idle"
        self.queue: deque[Job] = deque()
        self.batch: tuple[Job, ...] = ()
        self.attempt = 0  # failed commits of the batch so far
        self.health = Health(True)
        self.commits = 0
        self.closing = False  # close: commit what is queued, then stop
        self.abandoning = False  # abandon asked while a commit ran: stop once it answers

    @property
    def stopped(self) -> bool:
        """Whether the writer has ended (every later job fails)."""
        return self.phase == "stopped"

    # ------------------------------------------------------------------ inputs
    def submit(self, job: Job) -> list[Effect]:
        """A job to commit; failed at once when the writer is closing, stopped or the store was lost."""
        if self.closing or self.stopped:
            return self._refuse([job])
        self.queue.append(job)
        return self._next() if self.phase == "idle" else []

    def answer(self, answer: Answer) -> list[Effect]:
        """The driver's answer to ``Commit``: ``committed`` or ``failed``."""
        if isinstance(answer, Failure):
            return self.failed(answer.reason, answer.lost)
        return self.committed(answer)

    def committed(self, outcomes: list[Outcome]) -> list[Effect]:
        """The batch's transaction committed; ``outcomes`` is each job's, in order."""
        assert self.phase == "committing" and len(outcomes) == len(self.batch)
        effects: list[Effect] = [Settle(settler, outcome) for (_, settler), outcome in zip(self.batch, outcomes,
                                                                                            strict=True)
                                 if settler is not None]
        self.commits += 1
        if not self.health.ok:
            self.health = Health(True)
            effects.append(Announce(self.health, committed=len(self.batch)))
        self.batch, self.attempt, self.phase = (), 0, "idle"
        if self.abandoning:
            return effects + self._give_up()
        return effects + self._next()

    def failed(self, reason: str, lost: bool = False) -> list[Effect]:
        """The batch's transaction failed for a reason of the store itself (rolled back: nothing of it is kept);
        ``lost``: for good."""
        assert self.phase == "committing"
        effects: list[Effect] = []
        if lost:
            self.health = Health(False, reason, lost=True)
            return [Announce(self.health), *self._give_up()]
        if self.health.ok or self.health.reason != reason:
            self.health = Health(False, reason)
            effects.append(Announce(self.health))
        if self.abandoning:
            return effects + self._give_up()
        delay = RETRY_DELAYS_S[min(self.attempt, len(RETRY_DELAYS_S) - 1)]
        self.attempt += 1
        self.phase = "waiting"
        return [*effects, RetryAfter(delay)]

    def retry(self) -> list[Effect]:
        """The pause after a failed commit is over: commit the same batch again."""
        if self.phase != "waiting":
            return []  # a pause that a close or an abandon cut short
        self.phase = "committing"
        return [Commit(self.batch)]

    def close(self) -> list[Effect]:
        """Stop once what is queued is committed; while the store fails, at once (what waits fails)."""
        self.closing = True
        if not self.health.ok:
            return self.abandon()
        return self._next() if self.phase == "idle" else []

    def abandon(self) -> list[Effect]:
        """Give up on what still waits (a close that timed out): it fails; a commit under way decides its own."""
        self.closing = True
        if self.phase == "committing":
            self.abandoning = True
            return []
        if self.stopped:
            return []
        return self._give_up()

    # ------------------------------------------------------------------ steps
    def _next(self) -> list[Effect]:
        """The next batch, when something is queued; the end, when closing and nothing is."""
        if self.queue:
            count = min(self.batch_size, len(self.queue))
            self.batch = tuple(self.queue.popleft() for _ in range(count))
            self.phase = "committing"
            return [Commit(self.batch)]
        if self.closing:
            self.phase = "stopped"
            return [Stopped()]
        return []

    def _give_up(self) -> list[Effect]:
        """Fail the batch and everything queued, and stop."""
        pending = [*self.batch, *self.queue]
        self.batch, self.queue, self.phase = (), deque(), "stopped"
        return [*self._refuse(pending), Stopped()]

    def _refuse(self, jobs: list[Job]) -> list[Effect]:
        """Fail these jobs: the store is lost, or the writer stopped (or is stopping)."""
        if self.health.lost:
            problem: StoreUnavailable = StoreLost(self.health.reason)
        elif not self.health.ok:
            problem = StoreUnavailable(f"shut down while the store failed: {self.health.reason}")
        else:
            problem = StoreUnavailable("the store is closed")
        return [Settle(settler, problem) for _, settler in jobs if settler is not None]

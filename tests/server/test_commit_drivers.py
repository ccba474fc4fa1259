"""The group-commit machine's two drivers over a commit of the test's own: a thread (SQLite's) and an event loop in
another thread (PostgreSQL's) - jobs that arrive during a commit go together in the next, a failing store is retried
and heard, a close while it fails gives up at once."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from server.store.commit_drivers import CommitDriver, LoopWriter, ThreadWriter
from server.store.group_commit import Answer, Failure, Job, Outcome
from server.store.store_port import Health, StoreUnavailable


class Waiter:
    """One job's waiter, settled from the writer's thread."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.outcome: Outcome | None = None

    def settle(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.done.set()


class Database:
    """A commit that records its batches, holds the first one until released, and fails while told to."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.release = threading.Event()
        self.failing = 0  # how many commits fail next
        self.raising = 0  # how many commits raise next instead of answering
        self.lock = threading.Lock()

    def commit(self, batch: tuple[Job, ...]) -> Answer:
        if not self.batches:
            self.release.wait(10)
        with self.lock:
            if self.failing:
                self.failing -= 1
                return Failure("disk I/O error")
            if self.raising:
                self.raising -= 1
                raise RuntimeError("cannot switch to state 15; another operation is in progress")
            self.batches.append([str(statements[0][0]) for statements, _ in batch])
        return [[1] for _ in batch]


def job(name: str) -> tuple[Job, Waiter]:
    waiter = Waiter()
    return ([(name, ())], waiter), waiter


@pytest.fixture(params=["thread", "loop"])
def make_writer(request: pytest.FixtureRequest) -> Iterator[Callable[[Database], CommitDriver]]:
    """A driver of each kind over a ``Database`` (the loop driver on a loop running in a thread of its own)."""
    loops: list[asyncio.AbstractEventLoop] = []

    def make(database: Database) -> CommitDriver:
        if request.param == "thread":
            return ThreadWriter(database.commit, batch=10, name="test-writer")
        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_forever, daemon=True).start()
        loops.append(loop)

        async def commit(batch: tuple[Job, ...]) -> Answer:
            return await asyncio.to_thread(database.commit, batch)

        async def stopped() -> None:
            return None

        return LoopWriter(loop, commit, 10, stopped)

    yield make
    for loop in loops:
        loop.call_soon_threadsafe(loop.stop)


def test_jobs_arriving_during_a_commit_are_committed_together_next(make_writer):
    database = Database()
    writer = make_writer(database)
    (first, w1) = job("a")
    writer.submit(first)
    time.sleep(0.1)  # the first commit is under way, held
    later = [job(f"r{i}") for i in range(5)]
    for j, _ in later:
        writer.submit(j)
    database.release.set()
    for _, waiter in [(first, w1), *later]:
        assert waiter.done.wait(5) and waiter.outcome == [1]
    assert database.batches == [["a"], ["r0", "r1", "r2", "r3", "r4"]]
    assert writer.close(5) and writer.commits == 2


def _one_job_through(make_writer: Callable[[Database], CommitDriver],
                     database: Database) -> tuple[CommitDriver, list[Health]]:
    """A writer over ``database`` commits one job (``database`` may fail or raise first), and what its listener heard
    by then: the failure and the recovery, told just after the job's waiter."""
    database.release.set()
    writer = make_writer(database)
    heard: list[Health] = []
    writer.listen(heard.append)
    (a, wa) = job("a")
    writer.submit(a)
    assert wa.done.wait(5) and wa.outcome == [1]
    deadline = time.monotonic() + 2
    while len(heard) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    return writer, heard


def test_a_failing_store_is_retried_heard_once_and_heard_again_when_it_commits(make_writer):
    database = Database()
    database.failing = 3
    writer, heard = _one_job_through(make_writer, database)  # after pauses of 0.05, 0.1 and 0.25 s
    assert heard == [Health(False, "disk I/O error"), Health(True)]
    assert writer.health.ok and writer.close(5)


def test_close_while_the_store_fails_gives_up_at_once_and_later_jobs_fail(make_writer):
    database = Database()
    database.release.set()
    database.failing = 1000
    writer = make_writer(database)
    (a, wa), (b, wb) = job("a"), job("b")
    writer.submit(a)
    writer.submit(b)
    time.sleep(0.2)
    began = time.monotonic()
    assert writer.close(5)
    assert time.monotonic() - began < 2
    for waiter in (wa, wb):
        assert waiter.done.wait(1) and isinstance(waiter.outcome, StoreUnavailable)
    (c, wc) = job("c")
    writer.submit(c)
    assert wc.done.wait(1) and isinstance(wc.outcome, StoreUnavailable)


def test_a_commit_that_raises_is_a_failure_retried_and_no_write_waits_forever(make_writer):
    """A driver's commit that raises (a library's error nobody foresaw) is the store failing: heard, retried, and the
    job committed once it answers; before, the writer waited for that commit's answer for ever."""
    database = Database()
    database.raising = 2
    writer, heard = _one_job_through(make_writer, database)
    assert [h.ok for h in heard] == [False, True] and "another operation is in progress" in heard[0].reason
    assert database.batches == [["a"]] and writer.close(5)

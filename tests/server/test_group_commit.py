"""The store's group-commit machine as transitions: what is committed together, what a failed commit does, the
store's health and its stopping - with the outcomes of commits and the end of each pause given as inputs."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from server.store.group_commit import (
    RETRY_DELAYS_S,
    Announce,
    Commit,
    Effect,
    GroupCommit,
    Job,
    Outcome,
    RetryAfter,
    Settle,
    Stopped,
)
from server.store.store_port import Health, StoreLost, StoreUnavailable


@dataclass
class Waiter:
    """A job's waiter: every outcome it was given (a job must be settled exactly once)."""

    name: str
    outcomes: list[Outcome] = field(default_factory=list)

    def settle(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)


def job(name: str, room: str = "R") -> tuple[Job, Waiter]:
    """A job writing one row named ``name`` of room ``room``, and its waiter."""
    waiter = Waiter(name)
    return ([("INSERT", (room, name))], waiter), waiter


def carry(effects: list[Effect]) -> list[Effect]:
    """Settle the waiters the effects name (as a driver does); the effects, for the test to look at."""
    for effect in effects:
        if isinstance(effect, Settle):
            effect.settler.settle(effect.outcome)
    return effects


def only(effects: list[Effect], kind: type) -> list[Effect]:
    return [e for e in effects if isinstance(e, kind)]


def ok(effect: Effect) -> list[Outcome]:
    """Every job of a ``Commit`` committed: one id each."""
    assert isinstance(effect, Commit)
    return [[1] for _ in effect.jobs]


def test_jobs_submitted_while_a_commit_runs_are_committed_together_next_whatever_their_room():
    machine = GroupCommit(batch=10)
    (first, w1) = job("a", "ROOM1")
    effects = machine.submit(first)
    assert effects == [Commit((first,))]
    later = [job(f"m{i}", f"ROOM{i}") for i in range(4)]
    for j, _ in later:
        assert machine.submit(j) == []  # the writer is busy: they wait
    effects = machine.committed(ok(effects[0]))
    assert effects[0] == Settle(w1, [1])
    assert effects[1:] == [Commit(tuple(j for j, _ in later))]  # one transaction for four rooms


def test_a_batch_takes_at_most_its_size_in_the_order_submitted():
    machine = GroupCommit(batch=2)
    jobs = [job(str(i)) for i in range(5)]
    first = machine.submit(jobs[0][0])
    for j, _ in jobs[1:]:
        machine.submit(j)
    second = machine.committed(ok(first[0]))[-1]
    assert second == Commit((jobs[1][0], jobs[2][0]))
    third = machine.committed(ok(second))[-1]
    assert third == Commit((jobs[3][0], jobs[4][0]))


def test_a_failed_batch_is_retried_with_growing_pauses_reported_unhealthy_once_then_recovered():
    machine = GroupCommit(batch=10)
    (a, wa), (b, wb) = job("a"), job("b")
    commit = machine.submit(a)[0]
    assert machine.failed("disk I/O error") == [Announce(Health(False, "disk I/O error")),
                                                RetryAfter(RETRY_DELAYS_S[0])]
    assert machine.submit(b) == []  # it waits behind the failed batch
    assert machine.retry() == [commit]  # the same batch again
    assert machine.failed("disk I/O error") == [RetryAfter(RETRY_DELAYS_S[1])]  # told once per reason
    assert machine.retry() == [commit]
    assert machine.failed("database or disk is full") == [Announce(Health(False, "database or disk is full")),
                                                          RetryAfter(RETRY_DELAYS_S[2])]
    assert wa.outcomes == []  # nothing acknowledged before its commit
    effects = machine.retry()
    effects = machine.committed(ok(effects[0]))
    assert effects == [Settle(wa, [1]), Announce(Health(True), committed=1), Commit((b,))]
    assert machine.committed(ok(effects[-1])) == [Settle(wb, [1])]
    assert machine.health.ok and machine.attempt == 0


def test_the_pauses_stop_growing_at_the_longest():
    machine = GroupCommit(batch=1)
    machine.submit(job("a")[0])
    delays = []
    for _ in range(len(RETRY_DELAYS_S) + 3):
        delays += [e.delay_s for e in only(machine.failed("I/O"), RetryAfter)]
        machine.retry()
    assert delays == [*RETRY_DELAYS_S, RETRY_DELAYS_S[-1], RETRY_DELAYS_S[-1], RETRY_DELAYS_S[-1]]


def test_a_job_refused_for_its_own_data_fails_alone():
    machine = GroupCommit(batch=1)
    (a, wa), (b, wb) = job("a"), job("b")
    commit = machine.submit(a)[0]
    machine.submit(b)
    assert machine.committed(ok(commit)) == [Settle(wa, [1]), Commit((b,))]
    refused = ValueError("UNIQUE constraint failed")
    assert machine.committed([refused]) == [Settle(wb, refused)] and machine.health.ok


def test_a_lost_store_fails_the_batch_everything_waiting_and_everything_later():
    machine = GroupCommit(batch=1)
    (a, wa), (b, wb), (c, wc) = job("a"), job("b"), job("c")
    carry(machine.submit(a))
    carry(machine.submit(b))
    effects = carry(machine.failed("the database file was replaced", lost=True))
    assert effects[0] == Announce(Health(False, "the database file was replaced", lost=True))
    assert isinstance(effects[-1], Stopped)
    carry(machine.submit(c))
    for waiter in (wa, wb, wc):
        (outcome,) = waiter.outcomes
        assert isinstance(outcome, StoreLost)


def test_close_commits_what_is_queued_then_stops_and_refuses_later_jobs():
    machine = GroupCommit(batch=1)
    (a, wa), (b, wb), (c, wc) = job("a"), job("b"), job("c")
    commit = machine.submit(a)[0]
    carry(machine.submit(b))
    assert machine.close() == []  # a commit is under way
    second = carry(machine.committed(ok(commit)))[-1]
    assert second == Commit((b,))
    assert carry(machine.committed(ok(second)))[-1] == Stopped()
    carry(machine.submit(c))
    assert wa.outcomes == [[1]] and wb.outcomes == [[1]]
    assert isinstance(wc.outcomes[0], StoreUnavailable)


def test_close_while_the_store_fails_gives_up_at_once_on_what_waits():
    machine = GroupCommit(batch=1)
    (a, wa), (b, wb) = job("a"), job("b")
    carry(machine.submit(a))
    carry(machine.submit(b))
    carry(machine.failed("disk full"))
    effects = carry(machine.close())
    assert effects[-1] == Stopped() and machine.retry() == []  # the pause's end comes too late
    assert [type(w.outcomes[0]) for w in (wa, wb)] == [StoreUnavailable, StoreUnavailable]
    assert "disk full" in str(wa.outcomes[0])


def test_abandon_during_a_commit_lets_it_answer_then_fails_the_rest():
    machine = GroupCommit(batch=1)
    (a, wa), (b, wb) = job("a"), job("b")
    commit = machine.submit(a)[0]
    carry(machine.submit(b))
    assert machine.abandon() == []
    effects = carry(machine.committed(ok(commit)))
    assert effects[-1] == Stopped()
    assert wa.outcomes == [[1]] and isinstance(wb.outcomes[0], StoreUnavailable)


# ---------------------------------------------------------------------- any history
Step = tuple[str, int]
submits = st.tuples(st.just("submit"), st.integers(0, 3))  # a job of room 0..3 (3: nobody waits for it)
commits = st.tuples(st.just("commit"), st.integers(0, 15))  # the commit under way succeeds; bit i: job i refused
steps = st.lists(st.one_of(
    submits, submits, submits, commits, commits,  # weighted: batches of several jobs fail and are retried
    st.tuples(st.just("fail"), st.integers(0, 1)),  # ... or it fails for one of two reasons
    st.tuples(st.just("lose"), st.just(0)),
    st.tuples(st.just("retry"), st.just(0)),
    st.tuples(st.just("close"), st.just(0)),
    st.tuples(st.just("abandon"), st.just(0)),
), max_size=60)


class Driver:
    """A driver of the machine over a model database: commits only when told, keeps what each commit wrote."""

    def __init__(self, batch: int) -> None:
        self.machine = GroupCommit(batch)
        self.batch = batch
        self.database: list[tuple[str, str]] = []  # (room, name) of every row committed, in commit order
        self.in_flight: tuple[Job, ...] | None = None
        self.failed_batch: tuple[Job, ...] | None = None
        self.pausing = False
        self.stopped = False
        self.health: list[Health] = []
        self.jobs: list[tuple[str, str, Waiter | None]] = []
        self.waiting_when_lost: list[Waiter] = []  # the waiters not yet answered when the store was lost

    def apply(self, effects: list[Effect]) -> None:
        for effect in effects:
            assert not self.stopped, "an effect after Stopped"
            if isinstance(effect, Commit):
                assert self.in_flight is None and 0 < len(effect.jobs) <= self.batch
                if self.failed_batch is not None:
                    assert effect.jobs == self.failed_batch, "a retry commits the same batch"
                self.in_flight, self.pausing = effect.jobs, False
            elif isinstance(effect, Settle):
                effect.settler.settle(effect.outcome)
            elif isinstance(effect, Announce):
                self.health.append(effect.health)
            elif isinstance(effect, RetryAfter):
                self.pausing = True
            else:
                self.stopped = True

    def step(self, kind: str, arg: int) -> None:
        m = self.machine
        if kind == "submit":
            room = f"R{arg}"
            name = f"j{len(self.jobs)}"
            (statements, _), waiter = job(name, room)
            kept = None if arg == 3 else waiter
            self.jobs.append((room, name, kept))
            self.apply(m.submit((statements, kept)))
        elif kind == "commit" and self.in_flight is not None:
            jobs, self.in_flight, self.failed_batch = self.in_flight, None, None
            outcomes: list[Outcome] = []
            for i, (statements, _) in enumerate(jobs):
                if arg >> i & 1:
                    outcomes.append(ValueError("refused"))
                else:
                    self.database += [tuple(p) for _, p in statements]
                    outcomes.append([1])
            self.apply(m.committed(outcomes))
        elif kind in ("fail", "lose") and self.in_flight is not None:
            self.failed_batch, self.in_flight = self.in_flight, None
            if kind == "lose":
                self.waiting_when_lost = [w for _, _, w in self.jobs if w is not None and not w.outcomes]
            self.apply(m.failed(f"reason {arg}", lost=kind == "lose"))
            if self.stopped:
                self.failed_batch = None
        elif kind == "retry" and self.pausing:
            self.apply(m.retry())
        elif kind == "close":
            self.apply(m.close())
        elif kind == "abandon":
            self.apply(m.abandon())

    def finish(self) -> None:
        """Close, and let every commit under way succeed, until the machine stops."""
        self.apply(self.machine.close())
        while not self.stopped:
            if self.in_flight is not None:
                self.step("commit", 0)
            elif self.pausing:
                self.step("retry", 0)
            else:
                raise AssertionError("the machine neither commits, pauses nor stops")


@settings(max_examples=200, deadline=None)
@given(steps, st.integers(1, 4))
def test_no_acknowledged_write_is_lost_and_each_rooms_order_is_kept(history: list[Step], batch: int):
    driver = Driver(batch)
    for kind, arg in history:
        if driver.stopped:
            break
        driver.step(kind, arg)
    driver.finish()
    committed = set(driver.database)
    for room, name, waiter in driver.jobs:
        if waiter is None:
            continue
        assert len(waiter.outcomes) == 1, f"{name} settled {len(waiter.outcomes)} times"
        (outcome,) = waiter.outcomes
        # acknowledged (ids) if and only if it is in the database
        assert isinstance(outcome, list) == ((room, name) in committed)
    for room in {r for r, _, _ in driver.jobs}:
        submitted = [n for r, n, _ in driver.jobs if r == room and (r, n) in committed]
        assert [n for r, n in driver.database if r == room] == submitted  # each room's order kept
    assert len(driver.database) == len(committed)  # nothing committed twice (a retry after a real commit)
    for before, after in zip(driver.health, driver.health[1:], strict=False):
        assert before != after  # a health is announced only when it changes
    assert all(isinstance(w.outcomes[0], StoreLost) for w in driver.waiting_when_lost)

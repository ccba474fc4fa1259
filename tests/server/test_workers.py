"""The physics hand-off: the loop resolves an entry itself while its in-line budget lasts and the entry cannot take
long, a worker otherwise, and both give the same bytes (server/rooms/workers.py)."""

from __future__ import annotations

import dataclasses

import pytest

from server.rooms import resolve
from server.rooms.workers import InlineBudget, Resolver, WorkerPool, inline_bound
from shared import match as rules
from shared.match_log import LogEntry, new_match
from shared.model import Flick, Position, Timeout
from shared.rulesets import make_settings


class Clocks:
    """A wall clock and a CPU clock the test moves by hand."""

    def __init__(self) -> None:
        self.wall = 0.0
        self.cpu = 0.0


def _budget(share: float, burst: float = 0.05) -> tuple[InlineBudget, Clocks]:
    clocks = Clocks()
    return InlineBudget(share, burst, now=lambda: clocks.wall, cpu=lambda: clocks.cpu), clocks


def _spend(budget: InlineBudget, clocks: Clocks, seconds: float) -> None:
    """An in-line entry that took ``seconds`` of CPU (the wall clock is moved apart)."""

    def work() -> None:
        clocks.cpu += seconds

    budget.run(work)


def _entries_allowed(budget: InlineBudget, clocks: Clocks, seconds: float) -> int:
    """How many entries of ``seconds`` each the budget lets through before it refuses one (no wall time passing)."""
    allowed = 0
    while budget.allows():
        _spend(budget, clocks, seconds)
        allowed += 1
    return allowed


def test_the_budget_starts_with_its_burst_and_stops_once_it_is_spent() -> None:
    """A server starting idle may resolve its burst in-line; the last entry may overdraw, the next goes elsewhere."""
    budget, clocks = _budget(0.3, burst=0.05)
    assert _entries_allowed(budget, clocks, 0.004) == 13  # 12 leave 2 ms of the 50; the 13th overdraws by 2 ms
    assert not budget.allows()


def test_the_budget_grows_by_its_share_of_the_wall_time_up_to_the_burst() -> None:
    """After spending, the credit comes back at ``share`` of the time that passes, never beyond the burst."""
    budget, clocks = _budget(0.3, burst=0.05)
    _entries_allowed(budget, clocks, 0.004)  # 2 ms overdrawn
    clocks.wall += 0.005
    assert not budget.allows()  # 1.5 ms back: still 0.5 ms short
    clocks.wall += 0.002
    assert budget.allows()  # 0.6 ms back: 0.1 ms to spend
    _spend(budget, clocks, 0.004)
    clocks.wall += 100.0
    assert _entries_allowed(budget, clocks, 0.004) == 13  # a long idle saves up the burst, no more


def test_a_share_of_zero_never_resolves_in_line() -> None:
    """``--inline-physics 0``: every entry goes to a worker."""
    budget, _ = _budget(0.0)
    assert not budget.allows()


def _stamp(table_friction: float | None = None) -> resolve.Stamp:
    chosen = make_settings("standard")
    if table_friction is not None:
        chosen = dataclasses.replace(chosen, table_friction=table_friction)
    return resolve.Stamp(code="ROOM", match_id="m", version=1, team="home", turn_used=0, absent=False,
                         settings=chosen)


def test_only_entries_that_cannot_take_long_are_resolved_in_line() -> None:
    """No physics is always short; a flick is short with a standard table; on a table so slippery that a move could
    run past ``INLINE_MOVE_MS`` it goes to a worker, where it holds up no other room."""
    flick = LogEntry(index=0, elapsed_ms=0, input=Flick("home", "home:1", 2000.0, 0.0))
    assert inline_bound(_stamp(), LogEntry(index=0, elapsed_ms=0, input=Timeout("home")))
    assert inline_bound(_stamp(), flick)
    friction = make_settings("standard").table_friction
    assert not inline_bound(_stamp(table_friction=friction / 10), flick)  # ~37 s to stop, at most, beyond 6 s
    assert not inline_bound(_stamp(table_friction=0.0), flick)  # nothing would ever stop it



def _first_flick() -> tuple[Position, LogEntry, resolve.Stamp]:
    """A standard match's opening position, a flick of its first legal stone, and the room's stamp for it."""
    settings = make_settings("standard")
    position = new_match("standard", {}, 7)
    stone = rules.legal_stones(position, position.to_move)[0]
    entry = LogEntry(index=0, elapsed_ms=0, input=Flick(position.to_move, stone, 1800.0, 350.0))
    stamp = resolve.Stamp(code="ROOM", match_id="m", version=1, team=position.to_move, turn_used=0, absent=False,
                          settings=settings)
    return position, entry, stamp


async def test_in_line_and_in_a_worker_give_the_same_bytes() -> None:
    """The same flick resolved by the loop (a budget to spare) and by a worker process (no budget): equal Resolved,
    the MovePlayed bytes included."""
    position, entry, stamp = _first_flick()
    pool = WorkerPool(1)
    try:
        in_line = await Resolver(pool, inline_share=1.0).resolve(position, entry, stamp)
        worker = Resolver(pool, inline_share=0.0)
        in_worker = await worker.resolve(position, entry, stamp)
    finally:
        pool.close()
    assert in_line.frame is not None and in_line.frame == in_worker.frame
    assert in_line == in_worker


async def test_the_resolver_tells_each_entrys_cpu_and_where_it_was_resolved() -> None:
    """The same flick in-line and in a worker: ``observe`` hears "loop" then "worker", each with the CPU time of
    resolving it there (a flick's physics takes some; far less than a second)."""
    position, entry, stamp = _first_flick()
    heard: list[tuple[str, float]] = []
    pool = WorkerPool(1)
    try:
        for share in (1.0, 0.0):
            await Resolver(pool, share, lambda where, seconds: heard.append((where, seconds))).resolve(
                position, entry, stamp)
    finally:
        pool.close()
    assert [where for where, _ in heard] == ["loop", "worker"]
    assert all(0 < seconds < 1 for _, seconds in heard)


def _burn(seconds: float) -> int:
    """Spin on the CPU for ``seconds`` of this thread's time (a job for ``timed_call``)."""
    import time

    start, spins = time.thread_time(), 0
    while time.thread_time() - start < seconds:
        spins += 1
    return spins


async def test_a_timed_call_gives_the_jobs_cpu_in_the_worker_and_not_the_wait_for_it() -> None:
    """A job that spins 0.2 s of CPU in the worker is told as at least that, and less than the wall time the call
    took; a job that sleeps is told as next to nothing (waiting is no CPU)."""
    import time

    pool = WorkerPool(1)
    try:
        await pool.call(_burn, 0.0)  # the worker started and warmed up
        started = time.monotonic()
        spins, cpu = await pool.timed_call(_burn, 0.2)
        wall = time.monotonic() - started
        _, slept = await pool.timed_call(time.sleep, 0.2)
    finally:
        pool.close()
    assert spins > 0 and 0.2 <= cpu <= wall
    assert slept < 0.05


@pytest.mark.parametrize("value", ["-0.1", "1.5"])
def test_a_share_outside_zero_to_one_is_refused(tmp_path: object, value: str) -> None:
    """``--inline-physics`` takes a share of the loop's time: from 0 to 1."""
    import argparse

    from sprtec.commands.serve import add_arguments, server_config, settings_from

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    with pytest.raises(SystemExit, match="inline_physics must be a number from 0 to 1"):
        server_config(settings_from(parser.parse_args(["--inline-physics", value])))
    chosen = server_config(settings_from(parser.parse_args(["--inline-physics", "0"])))
    assert chosen.inline_share == 0.0

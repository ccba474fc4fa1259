"""The worker processes that resolve entries, so the event loop never waits long on physics or encoding.

Why processes: a flick costs ~2-5 ms of pymunk and the GIL would stall every room of the loop while it
runs; the engine is pure and its inputs and outputs are picklable, so a worker runs ``resolve.resolve`` -
the engine, then the encoding of the broadcast - and ships back only the new position, the decisions and
the frame bytes (docs/ARCHITECTURE.md "Physics facts"). But the hand-off itself costs about a fifth of the
resolution (pickling both ways, the pipe, the worker's wake-up), so an operator with cores to spare may give the
loop an in-line budget - a share of its time (``INLINE_SHARE``, none by default) - to resolve entries that cannot
take long itself (``Resolver``); the workers take the rest, so no room waits behind more than one in-line entry.

Why not ``ProcessPoolExecutor``: it moves each job through two helper threads (its manager thread and
the call queue's feeder thread) and each result through the manager thread and ``call_soon_threadsafe``;
measured, that cost ~0.6 ms of the server process's CPU per move and put GIL hand-offs between the loop
and every result. Here the loop itself writes a job to an idle worker's pipe and reads the result when
the pipe is readable (``add_reader``): no threads, one write and one read per move. Each worker has at
most one job in flight, so a write never blocks on a full pipe and a free worker always takes the
oldest waiting job. A worker that dies fails its job (the room refuses that request and stays as it
was) and is replaced.

Why a lifeline besides the job pipe: a worker dies with the server. An idle worker notices at once (its job pipe
reads end-of-file), but one in the middle of a job - a long replay of a log without kept positions, or any job on
a machine too loaded to schedule a nice worker soon - would run it to the end first, and a ``kill -9`` of the
server left workers running. So each worker also holds the read end of one pipe whose only write end the server
holds and never writes: a thread of the worker waits on it, and the moment it reads end-of-file - the kernel closes
the server's end however the server dies - the worker exits, job or not. A pipe rather than ``PR_SET_PDEATHSIG``:
a worker's parent is multiprocessing's fork server, not the server, and a pipe works alike on every platform;
rather than the multiprocessing sentinel, which a fork-server child cannot use (it reads end-of-file at once).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from server.rooms import job_pickle, resolve
from shared import match as rules
from shared.match_log import LogEntry, new_match
from shared.model import Flick, Position
from shared.physics import max_flick_speed
from shared.rulesets import make_settings

log = logging.getLogger(__name__)
T = TypeVar("T")
JOIN_TIMEOUT_S = 5.0  # how long a closing pool waits for a worker to exit before killing it
# Workers run below the event loop's priority: when the cores are busy, the loop (every room's I/O, timers and
# broadcasts) runs first and physics takes what is left, instead of a woken worker preempting the loop.
WORKER_NICE = 5
FULL_GC_EVERY = 1000  # jobs between full collections in a worker (only what was made since the warm-up: frozen)
YOUNG_GC_AFTER = 2000  # tracked objects a worker's jobs may leave behind before a young collection looks at them
# Of the loop's time that may go to resolving entries in-line (``InlineBudget``): none by default. Measured with
# ``sprtec bench server`` on a 2-core machine shared with other work, in-line resolution saved up to ~15 % of the
# server's CPU per flick, but the loop, busy a few ms per move at the same priority as everything else, let the
# p99 grow (300 matches: 222 ms against 85 ms; README: Performance): an operator with cores to spare sets it.
INLINE_SHARE = 0.0
INLINE_BURST_S = 0.05  # the in-line credit saved up while the loop idles, at most
INLINE_MOVE_MS = 6000  # the longest simulated move an in-line entry may make (``inline_bound``)


class WorkerDied(RuntimeError):
    """The worker running a job exited before answering (killed, or crashed in C code)."""


def _warm_up() -> None:
    """Resolve one flick of a standard match: the physics' reused space, the codec's plans and every lazy import
    are made before the worker takes jobs (and before ``gc.freeze``)."""
    settings = make_settings("standard")
    position = new_match("standard", {}, 0)
    stone = rules.legal_stones(position, position.to_move)[0]
    entry = LogEntry(index=0, elapsed_ms=0, input=Flick(position.to_move, stone, 1500.0, 200.0))
    resolve.resolve(position, entry, resolve.Stamp(code="WARMUP", match_id="warm-up", version=1, team=position.to_move,
                                                   turn_used=0, absent=False, settings=settings))


def _die_with_server(lifeline: Connection) -> None:
    """Wait until the server's end of ``lifeline`` is closed (it never writes to it), then end this worker at once,
    whatever its main thread is doing (a thread of the worker; see the module docstring)."""
    try:
        while True:
            lifeline.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(0)


def _serve(conn: Connection, lifeline: Connection) -> None:
    """A worker: run each pickled ``(fn, args)`` and send back ``(ok, value, cpu)`` until the pipe closes - or the
    server is gone (``_die_with_server``); ``cpu`` is the job's CPU seconds in this thread (the server's metrics).

    Garbage is collected between jobs, not during them, so no collection adds to a move's latency: the automatic
    collector is off. A move leaves no reference cycles (the physics reuses its space and frees its bodies; measured:
    a young collection after a move frees nothing and costs ~12 us), so a young collection only runs once the jobs
    have left ``YOUNG_GC_AFTER`` tracked objects behind (a refused job's traceback is a cycle), and a full one every
    ``FULL_GC_EVERY`` jobs. Everything made at start (the engine's modules, the warmed-up space and caches, ~31,000
    objects) is frozen out of the collector, so a full collection only walks what jobs made since (it walked all of
    it in ~7.5 ms, a stall of the job waiting behind it).
    """
    threading.Thread(target=_die_with_server, args=(lifeline,), name="lifeline", daemon=True).start()
    os.nice(WORKER_NICE)
    gc.disable()
    try:
        _warm_up()
    except Exception:  # the jobs will say what is wrong; the worker still serves them
        log.exception("physics worker: the warm-up move failed")
    gc.collect()
    gc.freeze()
    jobs = 0
    while True:
        try:
            fn, args = job_pickle.loads(conn.recv_bytes())
        except EOFError:
            return
        started = time.thread_time()
        try:
            value = fn(*args)
            reply = job_pickle.dumps((True, value, time.thread_time() - started))
        except Exception as exc:  # the caller gets the exception, the worker goes on
            spent = time.thread_time() - started
            try:
                reply = job_pickle.dumps((False, exc, spent))
            except Exception:
                reply = job_pickle.dumps((False, RuntimeError(repr(exc)), spent))
        conn.send_bytes(reply)
        jobs += 1
        if jobs % FULL_GC_EVERY == 0:
            gc.collect()
        elif gc.get_count()[0] > YOUNG_GC_AFTER:
            gc.collect(0)


class _Worker:
    """One worker process, its end of the pipe and the job it runs (if any)."""

    def __init__(self, process: multiprocessing.process.BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.job: asyncio.Future[tuple[Any, float]] | None = None  # settled with the value and the job's CPU


class WorkerPool:
    """``size`` worker processes fed by the event loop through pipes; see the module docstring."""

    def __init__(self, size: int, on_replaced: Callable[[], None] | None = None) -> None:
        """``on_replaced``: called once for every worker that died and was replaced (the restarts metric)."""
        self._on_replaced = on_replaced
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["server.rooms.resolve"])  # workers start with the engine imported
        self.size = size
        self._workers: list[_Worker] = []
        self._waiting: deque[tuple[bytes, asyncio.Future[tuple[Any, float]]]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self._lifeline: tuple[Connection, Connection] | None = None  # (the workers' read end, the server's end)

    @property
    def waiting(self) -> int:
        """Jobs queued for a worker and not handed out yet (the physics queue's length)."""
        return len(self._waiting)

    def _spawn(self) -> _Worker:
        """Start one worker and watch its pipe."""
        assert self._loop is not None
        if self._lifeline is None:
            self._lifeline = self._context.Pipe(duplex=False)  # never written: only its closing says something
        ours, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(target=_serve, args=(theirs, self._lifeline[0]), name="sprtec-physics",
                                        daemon=True)
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        self._loop.add_reader(ours.fileno(), self._readable, worker)
        return worker

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process (``fn`` importable, arguments and result picklable)."""
        value, _cpu = await self.timed_call(fn, *args)
        return value

    async def timed_call(self, fn: Callable[..., T], *args: Any) -> tuple[T, float]:
        """``call``, with the CPU seconds the job took in the worker (the worker's thread time, not the hand-off)."""
        if self._closed:
            raise RuntimeError("the worker pool is closed")
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._workers = [self._spawn() for _ in range(self.size)]
        future: asyncio.Future[tuple[T, float]] = self._loop.create_future()
        self._waiting.append((job_pickle.dumps((fn, args)), future))
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        """Give the oldest waiting jobs to idle workers."""
        for worker in self._workers:
            if not self._waiting:
                return
            if worker.job is None:
                payload, future = self._waiting.popleft()
                worker.job = future
                worker.conn.send_bytes(payload)

    def _readable(self, worker: _Worker) -> None:
        """A worker answered (or died): settle its job, replace it if it died, hand out the next job."""
        job, worker.job = worker.job, None
        try:
            ok, value, cpu = job_pickle.loads(worker.conn.recv_bytes())
        except (EOFError, OSError):
            self._replace(worker)
            if job is not None and not job.done():
                job.set_exception(WorkerDied(f"physics worker {worker.process.pid} exited"))
        else:
            if job is not None and not job.done():
                if ok:
                    job.set_result((value, cpu))
                else:
                    job.set_exception(value)
        self._dispatch()

    def _replace(self, worker: _Worker) -> None:
        """Forget a dead worker and start another in its place."""
        assert self._loop is not None
        self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()
        worker.process.join(0)
        log.error("physics worker %s exited with %s; starting another", worker.process.pid, worker.process.exitcode)
        index = self._workers.index(worker)
        self._workers[index] = self._spawn()
        if self._on_replaced is not None:
            self._on_replaced()

    def close(self) -> None:
        """Stop the workers (they exit when their pipe closes); waiting jobs are cancelled."""
        self._closed = True
        for _, future in self._waiting:
            future.cancel()
        self._waiting.clear()
        for worker in self._workers:
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(worker.conn.fileno())
            worker.conn.close()
        for worker in self._workers:
            worker.process.join(JOIN_TIMEOUT_S)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        self._workers = []
        if self._lifeline is not None:
            for end in self._lifeline:
                end.close()
            self._lifeline = None


def default_workers() -> int:
    """One worker per core."""
    return os.cpu_count() or 1


class InlineBudget:
    """How much of the event loop's time may go to resolving entries in-line instead of in a worker.

    Why: handing an entry to a worker costs the server about a fifth of what resolving it costs - pickling the job
    and the answer on both sides, two pipe writes and reads, the worker's wake-up and the loop's reader callback
    (``sprtec bench server``; README: Performance) - and the loop is idle most of the time. So the loop resolves an
    entry itself while it has credit, and the workers take the rest: the credit grows by ``share`` of the wall time
    that passes, up to ``burst`` seconds, and each in-line entry spends the CPU time it took (the loop's thread
    time). However busy the server, the loop never spends more than ``share`` of its time (plus one entry) on
    physics, so other rooms' messages wait at most one entry - a few milliseconds (``inline_bound``) - behind it.
    """

    def __init__(self, share: float, burst: float = INLINE_BURST_S, *,
                 now: Callable[[], float] = time.monotonic, cpu: Callable[[], float] = time.thread_time) -> None:
        self.share = share
        self.burst = burst
        self._now = now
        self._cpu = cpu
        self._credit = burst if share > 0 else 0.0
        self._at = now()

    def allows(self) -> bool:
        """Whether an entry may be resolved in-line now (there is credit left)."""
        if self.share <= 0:
            return False
        now = self._now()
        self._credit = min(self.burst, self._credit + (now - self._at) * self.share)
        self._at = now
        return self._credit > 0

    def run(self, fn: Callable[[], T]) -> tuple[T, float]:
        """``fn()`` here, its CPU time taken from the credit: its value and that CPU time."""
        start = self._cpu()
        try:
            value = fn()
        finally:
            spent = self._cpu() - start
            self._credit -= spent
        return value, spent


def inline_bound(stamp: resolve.Stamp, entry: LogEntry) -> bool:
    """Whether ``entry`` is short enough to resolve in the loop: anything but a flick (no physics), or a flick whose
    move cannot last longer than ``INLINE_MOVE_MS`` of simulated time with the room's settings - the fastest body
    slowed by table friction alone, with a margin of 2 for re-hits (a standard room's hardest flick: ~1.2 s; a room
    whose settings let a move run long goes to a worker, where it holds up nobody)."""
    if not isinstance(entry.input, Flick):
        return True
    settings = stamp.settings
    deceleration = settings.table_friction * settings.gravity  # mm/s² (shared.physics: the friction joints)
    if deceleration <= 0:
        return False
    fastest = max_flick_speed(settings) * 1.5  # a struck puck leaves at up to ~1.4x the flick (as measured here)
    return 2 * 1000 * fastest / deceleration + settings.rest_ms <= INLINE_MOVE_MS


def _not_observed(where: str, seconds: float) -> None:
    """The default of ``Resolver``'s ``observe``: nobody counts."""


class Resolver:
    """``resolve.resolve`` in a worker, or in-line: without workers (tests, ``--workers 0``), or while the loop's
    in-line budget lasts (``InlineBudget``) for an entry that cannot take long (``inline_bound``). Both give the same
    bytes (``resolve`` is pure).

    ``observe(where, seconds)`` is told each entry's CPU time in the thread that resolved it, ``where`` "worker" or
    "loop" (the server's ``sprtec_resolve_cpu_seconds``): what resolving costs apart from handing it to a worker."""

    def __init__(self, pool: WorkerPool | None, inline_share: float = INLINE_SHARE,
                 observe: Callable[[str, float], None] = _not_observed) -> None:
        self._pool = pool
        self.budget = InlineBudget(inline_share)
        self._observe = observe

    async def resolve(self, position: Position, entry: LogEntry, stamp: resolve.Stamp) -> resolve.Resolved:
        """The resolved entry, computed without blocking the loop on physics for longer than the budget allows."""
        if self._pool is None:
            started = time.thread_time()
            resolved = resolve.resolve(position, entry, stamp)
            self._observe("loop", time.thread_time() - started)
        elif self.budget.allows() and inline_bound(stamp, entry):
            resolved, spent = self.budget.run(lambda: resolve.resolve(position, entry, stamp))
            self._observe("loop", spent)
        else:
            resolved, spent = await self._pool.timed_call(resolve.resolve, position, entry, stamp)
            self._observe("worker", spent)
        return resolved

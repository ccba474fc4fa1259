"""The worker processes that resolve entries, so the event loop never waits on physics or encoding.

Why processes: a flick costs ~4-5 ms of pymunk and the GIL would stall every room of the loop while it
runs; the engine is pure and its inputs and outputs are picklable, so a worker runs ``resolve.resolve`` -
the engine, then the encoding of the broadcast - and ships back only the new position, the decisions and
the frame bytes (docs/ARCHITECTURE.md "Physics facts"). Every entry goes to a worker when there are workers: even an
entry without physics costs ~1 ms to encode, more than the round trip.

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
import pickle
import threading
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from server.rooms import resolve
from shared import match as rules
from shared.match_log import LogEntry, new_match
from shared.model import Flick, Position
from shared.rulesets import make_settings

log = logging.getLogger(__name__)
T = TypeVar("T")
JOIN_TIMEOUT_S = 5.0  # how long a closing pool waits for a worker to exit before killing it
# Workers run below the event loop's priority: when the cores are busy, the loop (every room's I/O, timers and
# broadcasts) runs first and physics takes what is left, instead of a woken worker preempting the loop.
WORKER_NICE = 5
FULL_GC_EVERY = 1000  # jobs between full collections in a worker (only what was made since the warm-up: frozen)
YOUNG_GC_AFTER = 2000  # tracked objects a worker's jobs may leave behind before a young collection looks at them


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
    """A worker: run each pickled ``(fn, args)`` and send back ``(ok, value)`` until the pipe closes - or the server
    is gone (``_die_with_server``).

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
            fn, args = pickle.loads(conn.recv_bytes())
        except EOFError:
            return
        try:
            reply = pickle.dumps((True, fn(*args)), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # the caller gets the exception, the worker goes on
            try:
                reply = pickle.dumps((False, exc), pickle.HIGHEST_PROTOCOL)
            except Exception:
                reply = pickle.dumps((False, RuntimeError(repr(exc))), pickle.HIGHEST_PROTOCOL)
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
        self.job: asyncio.Future[Any] | None = None


class WorkerPool:
    """``size`` worker processes fed by the event loop through pipes; see the module docstring."""

    def __init__(self, size: int, on_replaced: Callable[[], None] | None = None) -> None:
        """``on_replaced``: called once for every worker that died and was replaced (the restarts metric)."""
        self._on_replaced = on_replaced
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["server.rooms.resolve"])  # workers start with the engine imported
        self.size = size
        self._workers: list[_Worker] = []
        self._waiting: deque[tuple[bytes, asyncio.Future[Any]]] = deque()
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
        if self._closed:
            raise RuntimeError("the worker pool is closed")
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._workers = [self._spawn() for _ in range(self.size)]
        future: asyncio.Future[T] = self._loop.create_future()
        self._waiting.append((pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL), future))
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
            ok, value = pickle.loads(worker.conn.recv_bytes())
        except (EOFError, OSError):
            self._replace(worker)
            if job is not None and not job.done():
                job.set_exception(WorkerDied(f"physics worker {worker.process.pid} exited"))
        else:
            if job is not None and not job.done():
                if ok:
                    job.set_result(value)
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


class Resolver:
    """``resolve.resolve`` in a worker, or in-line without workers (tests, ``--workers 0``)."""

    def __init__(self, pool: WorkerPool | None) -> None:
        self._pool = pool

    async def resolve(self, position: Position, entry: LogEntry, stamp: resolve.Stamp) -> resolve.Resolved:
        """The resolved entry, computed without blocking the loop on physics."""
        if self._pool is None:
            return resolve.resolve(position, entry, stamp)
        return await self._pool.call(resolve.resolve, position, entry, stamp)

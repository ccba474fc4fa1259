"""The one thread that writes the SQLite database: group commits, and a writer that survives the disk failing.

Why its own module: SQLite allows one writer, so every write of the server goes through this thread, and a
fault here stops the whole server unless it is handled here. A commit that fails for a reason of the store
itself - the disk is full, the file system was remounted read-only, an I/O error - is not a failed request:
the batch is rolled back and retried with growing pauses on a fresh connection, the awaiting coroutines keep
waiting, and the health listeners hear that the store is unavailable (rooms then pause and refuse new actions)
and, later, that it has recovered. Nothing acknowledged is lost, because nothing is acknowledged before its
commit. A statement that fails on its own (a constraint) fails its own job only, inside a savepoint.

The database file's identity (device and inode) is checked before every commit: a file deleted or replaced
under the running server would otherwise take every later write into a file nobody will read again. That is
permanent: every waiting and later write fails with ``StoreLost`` and the listeners hear it once.
"""

from __future__ import annotations

import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger(__name__)

Statement = tuple[str, Sequence[Any]]
RETRY_DELAYS_S = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)  # pauses between commit attempts while the store fails


class StoreUnavailable(Exception):
    """A write that could not be committed because the store stopped (shutdown while it was failing)."""


class StoreLost(StoreUnavailable):
    """The database file was deleted or replaced under the running server: no write can be trusted to it."""


class StaleLease(StoreUnavailable):
    """A write of a room this node no longer owns: another node of the cluster holds its lease under a newer fencing
    number, or this node holds none. Refused without writing anything; the room stops here and its connections go
    to the owner. Only the shared store of a cluster fences (``server.store.postgres.pg_store``); it is defined here,
    beside the store's other failures, so a room recognises it without the cluster's libraries."""


@dataclass(frozen=True, slots=True)
class Health:
    """Whether the store commits: ``ok``; otherwise ``reason`` (the SQLite error) and ``lost`` (permanent)."""

    ok: bool
    reason: str = ""
    lost: bool = False


class Settler(Protocol):
    """What waits for one job: settled from the writer thread with a list of row ids or an exception."""

    def settle(self, outcome: list[int] | BaseException) -> None:
        """Hand the job's outcome over (thread-safe)."""
        ...


Job = tuple[list[Statement], Settler | None]


def file_identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of ``path``, or None when it does not exist."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return None
    return stat.st_dev, stat.st_ino


def _is_store_fault(exc: sqlite3.Error) -> bool:
    """True for errors of the store itself (full, read-only, I/O, corrupt), not of one statement's data."""
    return not isinstance(exc, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.InterfaceError)


class Writer:
    """The writer thread: queue jobs with ``submit``; ``close`` flushes (or gives up within a timeout)."""

    def __init__(self, path: Path, connect: Callable[[Path], sqlite3.Connection], batch: int) -> None:
        self.path = path
        self._connect = connect
        self._batch = batch
        self._identity = file_identity(path)
        self._conn: sqlite3.Connection | None = connect(path)
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._stopping = threading.Event()
        self._closed = False
        self._listeners: list[Callable[[Health], None]] = []
        self.health = Health(True)
        self.commits = 0
        self.on_commit: Callable[[float], None] | None = None  # told each committed transaction's seconds
        self._thread = threading.Thread(target=self._run, name="sqlite-writer", daemon=True)
        self._thread.start()

    def listen(self, listener: Callable[[Health], None]) -> None:
        """Call ``listener(health)`` (from the writer thread) whenever the store's health changes."""
        self._listeners.append(listener)

    def submit(self, job: Job) -> None:
        """Queue one job; once the store was lost, or the writer closed, it fails at once."""
        problem = StoreLost(self.health.reason) if self.health.lost else StoreUnavailable("the store is closed")
        if self.health.lost or self._closed:
            if job[1] is not None:
                job[1].settle(problem)
            return
        self._jobs.put(job)

    @property
    def queued(self) -> int:
        """Jobs waiting for the writer (not counting the batch it is committing)."""
        return self._jobs.qsize()

    def close(self, timeout_s: float) -> bool:
        """Commit what is queued and stop; while the store fails, give up after ``timeout_s`` (the waiting jobs fail
        with ``StoreUnavailable``). Returns True when the thread ended in time."""
        self._closed = True
        if self._thread.is_alive():
            self._jobs.put(None)
            if not self.health.ok:
                self._stopping.set()  # the writer is retrying a failed commit: it would not reach the sentinel
            self._thread.join(timeout_s)
            if self._thread.is_alive():
                self._stopping.set()
                self._thread.join(timeout_s)
        if self._conn is not None and not self._thread.is_alive():
            self._conn.close()
            self._conn = None
        return not self._thread.is_alive()

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        """Take queued jobs, commit them together, settle them; retry the same batch while the store fails."""
        batch: list[Job] = []
        stop = False
        attempt = 0
        while True:
            if not batch:
                if stop:
                    return
                first = self._jobs.get()
                if first is None:
                    return
                batch, stop = self._gather(first)
            outcomes = self._commit(batch)
            if outcomes is not None:
                for (_, settler), outcome in zip(batch, outcomes, strict=True):
                    if settler is not None:
                        settler.settle(outcome)
                batch, attempt = [], 0
                if not self.health.ok:
                    log.warning("the database commits again: %d waiting writes committed", len(outcomes))
                    self._set_health(Health(True))
                continue
            if self.health.lost:
                self._fail(batch, StoreLost(self.health.reason))
                return
            delay = RETRY_DELAYS_S[min(attempt, len(RETRY_DELAYS_S) - 1)]
            attempt += 1
            if self._stopping.wait(delay):
                self._fail(batch, StoreUnavailable(f"shut down while the store failed: {self.health.reason}"))
                return

    def _gather(self, first: Job) -> tuple[list[Job], bool]:
        """``first`` and whatever else is queued, up to the batch size; True when the stop sentinel came too."""
        batch = [first]
        while len(batch) < self._batch:
            try:
                nxt = self._jobs.get_nowait()
            except queue.Empty:
                break
            if nxt is None:
                return batch, True
            batch.append(nxt)
        return batch, False

    def _fail(self, batch: list[Job], exc: StoreUnavailable) -> None:
        """Fail the batch and everything still queued (the writer is stopping or the store is lost)."""
        pending = list(batch)
        while True:
            try:
                nxt = self._jobs.get_nowait()
            except queue.Empty:
                break
            if nxt is not None:
                pending.append(nxt)
        for _, settler in pending:
            if settler is not None:
                settler.settle(exc)

    def _commit(self, batch: list[Job]) -> list[list[int] | BaseException] | None:
        """One transaction for the batch, a savepoint per job; None when the store itself failed (retry later)."""
        if file_identity(self.path) != self._identity:
            reason = f"the database file {self.path} was deleted or replaced while the server ran"
            log.critical("%s: refusing every write from now on; restart the server once the data is restored", reason)
            self._set_health(Health(False, reason, lost=True))
            return None
        try:
            conn = self._conn if self._conn is not None else self._connect(self.path)
            self._conn = conn
            outcomes: list[list[int] | BaseException] = []
            began = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            for statements, _ in batch:
                conn.execute("SAVEPOINT job")
                try:
                    ids = [conn.execute(sql, params).lastrowid or 0 for sql, params in statements]
                except sqlite3.Error as exc:
                    if _is_store_fault(exc):
                        raise
                    conn.execute("ROLLBACK TO job")
                    conn.execute("RELEASE job")
                    outcomes.append(exc)
                    continue
                conn.execute("RELEASE job")
                outcomes.append(ids)
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._drop_connection()
            if self.health.ok or self.health.reason != str(exc):
                log.error("the database cannot commit (%s): play pauses, retrying", exc)
                self._set_health(Health(False, str(exc)))
            return None
        self.commits += 1
        if self.on_commit is not None:
            self.on_commit(time.perf_counter() - began)
        return outcomes

    def _drop_connection(self) -> None:
        """Forget a connection a failed commit left behind (rolled back); the next attempt opens a fresh one."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        try:
            conn.close()
        except sqlite3.Error:
            pass

    def _set_health(self, health: Health) -> None:
        """Record and announce a change of health."""
        self.health = health
        for listener in self._listeners:
            try:
                listener(health)
            except Exception:  # a listener's bug must not stop the writer
                log.exception("a store health listener failed")

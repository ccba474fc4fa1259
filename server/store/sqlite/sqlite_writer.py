"""The one thread that writes the SQLite database: its transactions, on the group-commit machine's thread driver.

Why its own module: SQLite allows one writer, so every write of the server goes through this thread, and a
fault here stops the whole server unless it is handled here. What is committed together, what a failure does and the
store's health are the machine's (``server.store.group_commit``, run by ``server.store.commit_drivers.ThreadWriter``);
this module is how SQLite commits a batch and what counts as SQLite failing. A commit that fails for a reason of the
store itself - the disk is full, the file system was remounted read-only, an I/O error - rolls the batch back and is
retried on a fresh connection; a statement that fails on its own (a constraint) fails its own job only, inside a
savepoint
(a constraint's refusal is the store's ``ConstraintViolation``).

The database file's identity (device and inode) is checked before every commit: a file deleted or replaced
under the running server would otherwise take every later write into a file nobody will read again. That is
permanent: every waiting and later write fails with ``StoreLost`` and the listeners hear it once.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from server.store.commit_drivers import ThreadWriter
from server.store.group_commit import Answer, Failure, Job, Outcome
from server.store.store_port import ConstraintViolation

log = logging.getLogger(__name__)


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


class SqliteWriter(ThreadWriter):
    """The writer thread: queue jobs with ``submit``; ``close`` flushes (or gives up within a timeout)."""

    def __init__(self, path: Path, connect: Callable[[Path], sqlite3.Connection], batch: int) -> None:
        self.path = path
        self._connect = connect
        self._identity = file_identity(path)
        self._conn: sqlite3.Connection | None = connect(path)
        super().__init__(self._transaction, batch, "sqlite-writer")

    def close(self, timeout_s: float) -> bool:
        """Commit what is queued and stop (``ThreadWriter.close``), then close the connection."""
        ended = super().close(timeout_s)
        if ended and self._conn is not None:
            self._conn.close()
            self._conn = None
        return ended

    def _transaction(self, batch: tuple[Job, ...]) -> Answer:
        """One transaction for the batch, a savepoint per job (in the writer's thread)."""
        if file_identity(self.path) != self._identity:
            reason = f"the database file {self.path} was deleted or replaced while the server ran"
            log.critical("%s: refusing every write from now on; restart the server once the data is restored", reason)
            return Failure(reason, lost=True)
        try:
            conn = self._conn if self._conn is not None else self._connect(self.path)
            self._conn = conn
            outcomes: list[Outcome] = []
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
                    outcomes.append(ConstraintViolation(str(exc)) if isinstance(exc, sqlite3.IntegrityError) else exc)
                    continue
                conn.execute("RELEASE job")
                outcomes.append(ids)
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._drop_connection()
            return Failure(str(exc))
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

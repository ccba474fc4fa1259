"""The embedded SQLite database: players, rooms, matches and the action log of every match.

Why this shape: the match log (seed, ruleset, overrides, initial position, then every action and every
clock input) *is* the match - the engine is pure, so replaying the log rebuilds any match bit for bit
after a crash. Writes go through one writer thread (SQLite allows one writer; WAL lets reads run
beside it) and are committed before the awaiting coroutine resumes, so a room broadcasts a move only once
it is in the database. ``synchronous=NORMAL`` with WAL: a commit is in the WAL file (the OS page cache)
when it returns, so a killed server (``kill -9``, a crash) loses nothing it acknowledged; only a power
loss or kernel crash may lose the last commits, and the WAL is fsynced at each checkpoint. FULL cost one
fsync per group commit, which on this VM held every move behind the disk. The writer commits whatever
is queued in one transaction (group commit).
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import stat
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from server.constants import STORE_CLOSE_TIMEOUT_S, WRITER_BATCH
from server.store import hash_key, match_reads
from server.store.name_keys import RULE_KEY, keys_for
from server.store.sqlite import sqlite_schema as schema
from server.store.sqlite.data_reader import DATABASE
from server.store.sqlite.sqlite_writer import SqliteWriter
from server.store.store_base import StoreBase
from server.tokens import Hasher
from shared.names import NAME_RULE

MARKER = "sprtec-data.json"  # beside the database: says this directory holds sprtec data, and which database
PRIVATE_DIR = 0o700  # the data directory: the server's user only
PRIVATE_FILE = 0o600  # each file in it

__all__ = ["DATABASE", "SqliteStore", "StoreOpenError"]


class StoreOpenError(Exception):
    """The data directory cannot be used: one line a person can act on (path, cause, what to do)."""


def connect(path: Path) -> sqlite3.Connection:
    """A connection in WAL mode (``synchronous=NORMAL``: durable against kill -9, not power loss)."""
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def open_database(data_dir: Path) -> tuple[Path, bytes]:
    """Check the data directory, create or migrate its database, and return the database's path and the hash key.

    Why the marker file: a data directory that held matches must never silently start empty - a database
    deleted, moved or swapped for another while the server was down is refused with what to do, instead of
    a fresh empty one taking its place. Raises ``StoreOpenError`` (corrupt, unreadable, read-only, missing).

    Why private modes whatever the umask: the database holds every player's token hash and every tournament's
    codes; the directory is made 0700 and each of its files 0600 (``make_private``), and SQLite gives the WAL and
    shared-memory files it makes later the database file's own mode.
    """
    path, marker = data_dir / DATABASE, data_dir / MARKER
    try:
        data_dir.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
    except OSError as exc:
        raise StoreOpenError(f"cannot create the data directory {data_dir}: {exc.strerror}") from None
    expected = _marker_id(marker)
    if expected is not None and not path.exists():
        raise StoreOpenError(
            f"{data_dir} held a sprtec database ({MARKER} is there) but {DATABASE} is missing: restore it from a "
            f"backup, or delete {marker} to start with no data"
        )
    make_private(data_dir)
    try:
        key = hash_key.read_key_file(data_dir)
        conn = connect(path)
        try:
            schema.migrate(conn)
            rekey_names(conn)
            found = conn.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()
            if found is None:
                found = (str(uuid.uuid4()),)
                conn.execute("INSERT INTO meta (key, value) VALUES ('id', ?)", found)
            key = _keyed_hashes(conn, data_dir, key)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreOpenError(f"cannot use the database {path}: {exc} - {_advice(exc, data_dir)}") from None
    except (hash_key.HashKeyError, OSError) as exc:
        raise StoreOpenError(str(exc)) from None
    if expected is not None and expected != found[0]:
        raise StoreOpenError(
            f"{path} is not the database this data directory held ({MARKER} names another): put the right file "
            f"back, or delete {marker} to use this one"
        )
    if expected is None:
        try:
            _write_private(marker, json.dumps({"format": "sprtec-data/1", "database": DATABASE, "id": found[0]}) + "\n")
        except OSError as exc:
            raise StoreOpenError(f"cannot write {marker}: {exc.strerror} - is the data directory writable?") from None
    return path, key


def make_private(data_dir: Path) -> None:
    """The data directory 0700 and the server's files in it 0600 (the database, its WAL and shared memory, the
    marker, the hash key); a database file that does not exist yet is created 0600 first, so SQLite makes its WAL
    and shared-memory files with that mode too. A mode already right is left alone (a read-only file system)."""
    try:
        _chmod(data_dir, PRIVATE_DIR)
        database = data_dir / DATABASE
        if not database.exists():
            os.close(os.open(database, os.O_RDWR | os.O_CREAT, PRIVATE_FILE))
        for name in (DATABASE, f"{DATABASE}-wal", f"{DATABASE}-shm", f"{DATABASE}-journal", MARKER,
                     hash_key.KEY_FILE):
            if (data_dir / name).exists():
                _chmod(data_dir / name, PRIVATE_FILE)
    except OSError as exc:
        why = "its file system is mounted read-only" if exc.errno == errno.EROFS else exc.strerror
        raise StoreOpenError(f"cannot make {data_dir} private to the server's user: {why} - the server must own "
                             "its data directory and be able to write there") from None


def _chmod(path: Path, mode: int) -> None:
    """Give ``path`` these permission bits, unless it has them."""
    if stat.S_IMODE(path.stat().st_mode) != mode:
        os.chmod(path, mode)


def _write_private(path: Path, text: str) -> None:
    """Write a small file of the data directory, 0600 whatever the umask."""
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        os.fchmod(out.fileno(), PRIVATE_FILE)
        out.write(text)


def _keyed_hashes(conn: sqlite3.Connection, data_dir: Path, key: bytes | None) -> bytes:
    """The data directory's hash key (made when there is none), after the database's hashes are keyed with it: an
    older database's bare hashes are rehashed once (``server.store.hash_key``). A database hashed with a key that
    is gone is refused (no stored secret could be checked)."""
    scheme = conn.execute("SELECT value FROM meta WHERE key = ?", (hash_key.SCHEME_KEY,)).fetchone()
    if scheme is not None:
        if key is None:
            raise hash_key.HashKeyError(
                f"{data_dir / hash_key.KEY_FILE} is missing, and the database's tokens and codes were hashed with "
                "it: restore it from the backup of this data directory (without it no player's token works)")
        return key
    if key is None:
        key = hash_key.new_key()
        hash_key.write_key_file(data_dir, key)
    conn.execute("BEGIN IMMEDIATE")
    try:
        statements = hash_key.rehash(lambda q, a: conn.execute(q, a).fetchall(), key)
        for sql, params in statements:
            conn.execute(sql, params)
        conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (hash_key.SCHEME_KEY, hash_key.SCHEME))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    if statements:  # the bare hashes linger in free pages and old WAL frames until the file is rewritten
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return key


def rekey_names(conn: sqlite3.Connection) -> None:
    """Compute every player's name keys again when they were computed under another name rule
    (``server.store.name_keys``), in one transaction with the rule's meta row."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = conn.execute("SELECT value FROM meta WHERE key = ?", (RULE_KEY,)).fetchone()
        if found is None or found[0] != NAME_RULE:
            keyed = keys_for((int(row[0]), str(row[1])) for row in conn.execute("SELECT id, name FROM players"))
            conn.execute("UPDATE players SET name_key = NULL, name_shape = NULL")
            conn.executemany("UPDATE players SET name_key = ?, name_shape = ? WHERE id = ?",
                             [(k.key, k.shape, k.player_id) for k in keyed if k.key is not None])
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (RULE_KEY, NAME_RULE))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _marker_id(marker: Path) -> str | None:
    """The database id the data directory's marker names, None without a marker."""
    try:
        data = json.loads(marker.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise StoreOpenError(f"cannot read {marker}: {exc} - restore it, or delete it to start with no data") from None
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        raise StoreOpenError(f"{marker} is not a sprtec data marker: restore it, or delete it to start with no data")
    return str(data["id"])


def _advice(exc: sqlite3.DatabaseError, data_dir: Path) -> str:
    """What to do about a database that cannot be opened."""
    text = str(exc)
    if os.statvfs(data_dir).f_flag & os.ST_RDONLY:
        return f"the file system of {data_dir} is mounted read-only: remount it read-write or use another --data"
    if "readonly" in text or "read-only" in text:
        return "the file or its directory is read-only: give the server write access or use another --data"
    if "newer than" in text:
        return "run the sprtec that wrote it"
    if "not a database" in text or "malformed" in text:
        return "the file is damaged: restore it from a backup, or move it away to start with no data"
    return "check the file and its directory (permissions, free disk), or use another --data"


class SqliteStore(StoreBase):
    """The database of one server: synchronous reads on a connection of their own (WAL: they never wait for the
    writer), and writes through one writer thread (``server.store.sqlite.sqlite_writer``)."""

    def __init__(self, data_dir: Path) -> None:
        self.path, key = open_database(data_dir)
        self.hasher = Hasher(key)  # how every secret is stored (server.tokens)
        self._read = connect(self.path)
        self._last_player_id = 0
        super().__init__(SqliteWriter(self.path, connect, WRITER_BATCH))

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read on the read connection (WAL: it never waits for the writer)."""
        return self._read.execute(sql, params).fetchall()

    def close(self, timeout_s: float = STORE_CLOSE_TIMEOUT_S) -> None:
        """Finish every queued write and stop; while the store fails, give up after ``timeout_s``."""
        self._writer.close(timeout_s)
        self._read.close()

    def new_player_id(self) -> int:
        """An id for a player not stored yet (``server.players``: a guest is stored only once he needs to be): one
        past every id stored or handed out by this process, which is the database's only writer. An id handed out
        but never stored may be handed out again after a restart; the token made with it then names another
        player, whose hashes it does not match."""
        stored = int(self.read("SELECT COALESCE(MAX(id), 0) FROM players")[0][0])
        self._last_player_id = max(self._last_player_id, stored) + 1
        return self._last_player_id

    def read_match(self, match: str) -> match_reads.StoredMatch:
        """A match as its export reads it (``server.store.match_reads``), on a read-only connection of its own:
        safe from any thread (a replay is built off the event loop)."""
        return match_reads.read_match(self.path.parent, match)

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

import asyncio
import errno
import json
import os
import sqlite3
import stat
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from server.constants import IN_LIST_CHUNK, STORE_CLOSE_TIMEOUT_S, WRITER_BATCH
from server.store import hash_key, match_reads
from server.store.log_rows import entry_from_row, entry_row
from server.store.match_records import EntryWrite, FinishedMatch, MatchRow, MatchStart, Record, RoomRow
from server.store.name_keys import RULE_KEY, keys_for
from server.store.sqlite import sqlite_schema as schema
from server.store.sqlite.sqlite_writer import Writer
from server.store.store_port import Health, StaleLease, Statement, StoreLost, StoreUnavailable
from server.tokens import Hasher
from shared import notation
from shared.match_log import Checkpoint, LogEntry
from shared.names import NAME_RULE

DATABASE = "sprtec.sqlite3"
MARKER = "sprtec-data.json"  # beside the database: says this directory holds sprtec data, and which database
PRIVATE_DIR = 0o700  # the data directory: the server's user only
PRIVATE_FILE = 0o600  # each file in it

__all__ = ["Health", "StaleLease", "Statement", "Store", "StoreLost", "StoreOpenError", "StoreUnavailable"]


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


class Store:
    """The database of one server: synchronous reads, and asynchronous writes through one writer thread.

    ``health`` says whether writes commit (``server.store.sqlite.sqlite_writer``); ``listen`` hears every change of it.
    """

    def __init__(self, data_dir: Path) -> None:
        self.path, key = open_database(data_dir)
        self.hasher = Hasher(key)  # how every secret is stored (server.tokens)
        self._read = connect(self.path)
        self._last_player_id = 0
        self._writer = Writer(self.path, connect, WRITER_BATCH)

    @property
    def health(self) -> Health:
        """Whether the store commits now."""
        return self._writer.health

    @property
    def commits(self) -> int:
        """Transactions committed so far (group commits)."""
        return self._writer.commits

    @property
    def queued_writes(self) -> int:
        """Write jobs waiting for the writer thread."""
        return self._writer.queued

    def time_commits(self, observer: Callable[[float], None]) -> None:
        """Call ``observer(seconds)`` (from the writer thread) after every committed transaction."""
        self._writer.on_commit = observer

    def listen(self, listener: Callable[[Health], None]) -> None:
        """Call ``listener(health)`` on the running event loop whenever the store's health changes."""
        loop = asyncio.get_running_loop()

        def hand_over(health: Health) -> None:
            """From the writer thread to the loop."""
            loop.call_soon_threadsafe(listener, health)

        self._writer.listen(hand_over)

    # ------------------------------------------------------------------ writing
    async def write(self, statements: list[Statement]) -> list[int]:
        """Commit ``statements`` in one transaction; returns each statement's ``lastrowid``.

        While the store fails this waits for it to recover (nothing is acknowledged before its commit); raises
        ``StoreUnavailable`` when the server stops first, ``StoreLost`` when the database file is gone.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[list[int]] = loop.create_future()
        self._writer.submit((statements, _LoopSettler(loop, future)))
        return await future

    def write_later(self, statements: list[Statement]) -> None:
        """Queue statements nobody waits for (a player's last visit): committed in order with the others."""
        self._writer.submit((statements, None))

    def write_sync(self, statements: list[Statement]) -> list[int]:
        """Commit from outside an event loop (start-up, tools); waits for the writer."""
        settler = _ThreadSettler()
        self._writer.submit((statements, settler))
        settler.done.wait()
        if isinstance(settler.outcome, BaseException):
            raise settler.outcome
        assert settler.outcome is not None
        return settler.outcome

    def close(self, timeout_s: float = STORE_CLOSE_TIMEOUT_S) -> None:
        """Finish every queued write and stop; while the store fails, give up after ``timeout_s``."""
        self._writer.close(timeout_s)
        self._read.close()

    def new_player_id(self) -> int:
        """An id for a player not stored yet (``server.players``: a guest is stored only once he needs to be): one
        past every id stored or handed out by this process, which is the database's only writer. An id handed out
        but never stored may be handed out again after a restart; the token made with it then names another
        player, whose hashes it does not match."""
        stored = int(self._read.execute("SELECT COALESCE(MAX(id), 0) FROM players").fetchone()[0])
        self._last_player_id = max(self._last_player_id, stored) + 1
        return self._last_player_id

    # ------------------------------------------------------------------ statements
    def fenced(self, code: str, statements: list[Statement]) -> list[Statement]:
        """Room ``code``'s statements as this process may write them: one process owns its data, so unchanged (a
        cluster's store refuses writes of a room's former owner: ``server.store.postgres.pg_store``)."""
        return statements

    @classmethod
    def statements(cls, records: tuple[Record, ...]) -> list[Statement]:
        """The statements that write a room's records (``server.store.match_records``), in order, for one
        transaction."""
        out: list[Statement] = []
        for record in records:
            if isinstance(record, RoomRow):
                out.append(cls.save_room(record))
            elif isinstance(record, MatchStart):
                out.append(cls.add_match(record))
            else:
                out += cls.append_entry(record)
        return out

    @classmethod
    def append_entry(cls, write: EntryWrite) -> list[Statement]:
        """An entry, its checkpoint and the match's end, as statements."""
        out = [cls.append_log(write.match_id, write.entry, write.position, write.turn_used)]
        if write.checkpoint is not None:
            out.append(cls.save_checkpoint(write.match_id, write.checkpoint))
        if write.end is not None:
            out.append(cls.finish_match(write.match_id, {"winner": write.end.winner, "reason": write.end.reason},
                                        write.end.score))
        return out

    @staticmethod
    def save_room(room: RoomRow) -> Statement:
        """Insert or update a room."""
        return (
            "INSERT INTO rooms (code, ruleset, overrides, private, home_player, away_player, match_id, created_at, "
            "rated, reserved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(code) DO UPDATE SET "
            "ruleset=excluded.ruleset, overrides=excluded.overrides, home_player=excluded.home_player, "
            "away_player=excluded.away_player, match_id=excluded.match_id, rated=excluded.rated, "
            "reserved=excluded.reserved",
            (
                room.code,
                room.ruleset,
                json.dumps(room.overrides, sort_keys=True),
                int(room.private),
                room.home_player,
                room.away_player,
                room.match_id,
                time.time(),
                int(room.rated),
                int(room.reserved),
            ),
        )

    @staticmethod
    def add_match(start: MatchStart) -> Statement:
        """Insert a match with its initial position (the log's starting point) when it starts."""
        return (
            "INSERT INTO matches (id, room_code, seed, ruleset, overrides, initial_position, home_player, away_player,"
            " version_base, started_at, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                start.match_id,
                start.room_code,
                start.seed,
                start.ruleset,
                json.dumps(start.overrides, sort_keys=True),
                json.dumps(notation.position_to_json(start.initial)),
                start.home_player,
                start.away_player,
                start.version_base,
                time.time(),
                int(start.rated),
            ),
        )

    @staticmethod
    def append_log(match_id: str, entry: LogEntry, position: bytes | None = None, turn_used: int = 0) -> Statement:
        """Append one entry to a match's log, with the position it produced (``server.store.position_blob``)."""
        kind, team, action, elapsed = entry_row(entry)
        return (
            "INSERT INTO match_log (match_id, idx, kind, team, action, elapsed_ms, position, turn_used)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (match_id, entry.index, kind, team, None if action is None else json.dumps(action, sort_keys=True),
             elapsed, position, turn_used),
        )

    @staticmethod
    def save_checkpoint(match_id: str, checkpoint: Checkpoint) -> Statement:
        """Keep a match's latest checkpoint (written in the same transaction as the entry it follows)."""
        return (
            "INSERT INTO checkpoints (match_id, idx, position, turn_used) VALUES (?, ?, ?, ?) ON CONFLICT(match_id)"
            " DO UPDATE SET idx=excluded.idx, position=excluded.position, turn_used=excluded.turn_used",
            (match_id, checkpoint.after, json.dumps(notation.position_to_json(checkpoint.position)),
             checkpoint.turn_used),
        )

    @staticmethod
    def finish_match(match_id: str, result: dict[str, Any], score: tuple[int, int]) -> Statement:
        """Mark a match finished with its result (winner, reason) and final score."""
        return (
            "UPDATE matches SET finished = 1, result = ?, score_home = ?, score_away = ?, finished_at = ? WHERE id = ?",
            (json.dumps(result, sort_keys=True), score[0], score[1], time.time(), match_id),
        )

    # ------------------------------------------------------------------ reading
    def read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read on the read connection (WAL: it never waits for the writer)."""
        return list(self._read.execute(sql, params).fetchall())

    def last_finished_match(self, player_id: int, room_code: str | None = None) -> FinishedMatch | None:
        """The player's latest finished match (in room ``room_code`` if given): how a returning coach's match ended."""
        where = "(home_player = ? OR away_player = ?) AND finished = 1"
        params: list[Any] = [player_id, player_id]
        if room_code is not None:
            where += " AND room_code = ?"
            params.append(room_code)
        row = self._read.execute(
            f"SELECT id, room_code, result, score_home, score_away, finished_at, home_player FROM matches WHERE {where}"
            " ORDER BY started_at DESC LIMIT 1",
            params,
        ).fetchone()
        if row is None:
            return None
        result = json.loads(row[2]) if row[2] else {}
        team = "home" if row[6] == player_id else "away"
        return FinishedMatch(id=row[0], room_code=row[1], winner=result.get("winner"),
                             reason=str(result.get("reason", "")), score=(row[3] or 0, row[4] or 0),
                             finished_at=row[5], team=team)

    def read_match(self, match: str) -> match_reads.StoredMatch:
        """A match as its export reads it (``server.store.match_reads``), on a read-only connection of its own:
        safe from any thread (a replay is built off the event loop)."""
        return match_reads.read_match(self.path.parent, match)

    @staticmethod
    def delete_room(code: str) -> Statement:
        """Forget a room (its matches and logs stay for export)."""
        return ("DELETE FROM rooms WHERE code = ?", (code,))

    def rooms(self, codes: Sequence[str] | None = None) -> list[RoomRow]:
        """Every stored room, or those of ``codes`` (a cluster node taking a few rooms over reads only them)."""
        columns = ("SELECT code, ruleset, overrides, private, home_player, away_player, match_id, rated, reserved"
                   " FROM rooms")
        if codes is None:
            rows = self._read.execute(columns + " ORDER BY created_at").fetchall()
        else:
            rows = [row for chunk in _chunks(codes) for row in self._read.execute(
                f"{columns} WHERE code IN ({_marks(chunk)})", tuple(chunk)).fetchall()]
        return [RoomRow(code=r[0], ruleset=r[1], overrides=json.loads(r[2]), private=bool(r[3]), home_player=r[4],
                        away_player=r[5], match_id=r[6], rated=bool(r[7]), reserved=bool(r[8])) for r in rows]

    def entries_of(self, match_ids: Sequence[str]) -> dict[str, int]:
        """How many log entries each of ``match_ids`` that has any has, in one read per IN_LIST_CHUNK of them."""
        return {str(row[0]): int(row[1]) for chunk in _chunks(match_ids) for row in self._read.execute(
            f"SELECT match_id, COUNT(*) FROM match_log WHERE match_id IN ({_marks(chunk)}) GROUP BY match_id",
            tuple(chunk)).fetchall()}

    def actions_of(self, match_ids: Sequence[str]) -> dict[str, int]:
        """How many of the entries of each of ``match_ids`` that has any are the coaches' own actions (not clock
        events), in one read per IN_LIST_CHUNK of them."""
        return {str(row[0]): int(row[1]) for chunk in _chunks(match_ids) for row in self._read.execute(
            f"SELECT match_id, COUNT(*) FROM match_log WHERE match_id IN ({_marks(chunk)}) AND kind = 'action'"
            " GROUP BY match_id", tuple(chunk)).fetchall()}

    def match(self, match_id: str) -> MatchRow | None:
        """One stored match."""
        return self.matches([match_id]).get(match_id)

    def matches(self, match_ids: Sequence[str]) -> dict[str, MatchRow]:
        """The stored matches of ``match_ids`` by id (one read per IN_LIST_CHUNK of them: recovery reads hundreds)."""
        found: dict[str, MatchRow] = {}
        for chunk in _chunks(match_ids):
            for row in self._read.execute(
                "SELECT id, room_code, seed, ruleset, overrides, initial_position, home_player, away_player,"
                f" version_base, finished FROM matches WHERE id IN ({_marks(chunk)})", tuple(chunk)
            ).fetchall():
                found[str(row[0])] = MatchRow(
                    id=row[0], room_code=row[1], seed=row[2], ruleset=row[3], overrides=json.loads(row[4]),
                    initial_position=json.loads(row[5]), home_player=row[6], away_player=row[7],
                    version_base=row[8], finished=bool(row[9]))
        return found

    def checkpoint(self, match_id: str) -> Checkpoint | None:
        """A match's latest checkpoint, if it has one."""
        row = self._read.execute(
            "SELECT idx, position, turn_used FROM checkpoints WHERE match_id = ?", (match_id,)
        ).fetchone()
        if row is None:
            return None
        return Checkpoint(after=row[0], position=notation.position_from_json(json.loads(row[1])), turn_used=row[2])

    def resting_points(self, match_ids: Sequence[str] | None = None) -> dict[str, tuple[int, bytes, int]]:
        """For every unfinished match of a stored room (or those of ``match_ids``): (entries, the last entry's
        position blob, its move clock used) - one read for all of them, where the last entry kept its position."""
        query = ("SELECT l.match_id, l.idx + 1, l.position, l.turn_used FROM match_log l JOIN rooms r ON r.match_id ="
                 " l.match_id JOIN matches m ON m.id = l.match_id WHERE m.finished = 0 AND l.idx = (SELECT MAX(idx)"
                 " FROM match_log WHERE match_id = l.match_id) AND l.position IS NOT NULL")
        if match_ids is None:
            rows = self._read.execute(query).fetchall()
        else:
            rows = [row for chunk in _chunks(match_ids) for row in self._read.execute(
                f"{query} AND l.match_id IN ({_marks(chunk)})", tuple(chunk)).fetchall()]
        return {str(r[0]): (int(r[1]), bytes(r[2]), int(r[3] or 0)) for r in rows}

    def stored_positions(self, match_id: str) -> list[tuple[int, bytes | None, int | None]]:
        """Every entry's (index, stored position blob, move clock used) of a match, in order (``sprtec verify``)."""
        rows = self._read.execute("SELECT idx, position, turn_used FROM match_log WHERE match_id = ? ORDER BY idx",
                                  (match_id,)).fetchall()
        return [(int(r[0]), None if r[1] is None else bytes(r[1]), r[2]) for r in rows]

    def log(self, match_id: str, since: int = 0) -> list[LogEntry]:
        """A match's entries in order, from index ``since``."""
        rows = self._read.execute(
            "SELECT idx, kind, team, action, elapsed_ms FROM match_log WHERE match_id = ? AND idx >= ? ORDER BY idx",
            (match_id, since),
        ).fetchall()
        return [entry_from_row(r[0], r[1], r[2], None if r[3] is None else json.loads(r[3]), r[4]) for r in rows]


def _chunks(values: Sequence[str]) -> Iterator[Sequence[str]]:
    """``values`` in slices of at most IN_LIST_CHUNK (an empty sequence gives none: no query at all)."""
    for start in range(0, len(values), IN_LIST_CHUNK):
        yield values[start:start + IN_LIST_CHUNK]


def _marks(values: Sequence[str]) -> str:
    """The placeholders of an ``IN`` list of ``values``."""
    return ", ".join("?" * len(values))


class _LoopSettler:
    """Settles a write's future on its own event loop (called from the writer thread)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[list[int]]) -> None:
        self._loop = loop
        self._future = future

    def settle(self, outcome: list[int] | BaseException) -> None:
        """Resolve the future on its loop; a loop already closed (shutdown) has nobody to tell."""
        try:
            self._loop.call_soon_threadsafe(_resolve, self._future, outcome)
        except RuntimeError:
            pass


class _ThreadSettler:
    """Settles a synchronous caller's write: the outcome and an event it waits on."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.outcome: list[int] | BaseException | None = None

    def settle(self, outcome: list[int] | BaseException) -> None:
        """Keep the outcome and wake the caller."""
        self.outcome = outcome
        self.done.set()


def _resolve(future: asyncio.Future[list[int]], outcome: list[int] | BaseException) -> None:
    """Resolve a write's future (on its loop)."""
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)

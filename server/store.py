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
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.constants import WRITER_BATCH

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    overrides TEXT NOT NULL,
    private INTEGER NOT NULL,
    home_player INTEGER,
    away_player INTEGER,
    match_id TEXT,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    room_code TEXT NOT NULL,
    seed INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    overrides TEXT NOT NULL,
    initial_position TEXT NOT NULL,
    home_player INTEGER NOT NULL,
    away_player INTEGER NOT NULL,
    version_base INTEGER NOT NULL,
    started_at REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    result TEXT
);
CREATE TABLE IF NOT EXISTS checkpoints (
    match_id TEXT PRIMARY KEY,
    idx INTEGER NOT NULL,
    position TEXT NOT NULL,
    turn_used INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS match_log (
    match_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    kind TEXT NOT NULL,
    team TEXT,
    action TEXT,
    elapsed_ms INTEGER NOT NULL,
    PRIMARY KEY (match_id, idx)
);
"""

Statement = tuple[str, Sequence[Any]]


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One input of a match, in order: ``elapsed_ms`` of clock time before it, then the input itself.

    ``kind`` is ``action`` (a coach's action, or the documented default applied for him when a choice
    timed out), ``timeout`` (the move clock ran out for ``team``), ``forfeit`` (``team`` stayed away past
    the disconnect grace), ``resign`` (``team``'s coach left the running match) or ``elapse`` (only clock
    time: a part or break ended with nobody acting).
    """

    index: int
    kind: str
    team: str | None
    action: dict[str, Any] | None
    elapsed_ms: int


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A match's position after its first ``after`` log entries (SCENARIOS.md JSON) and the move clock used then.

    Why: recovery would otherwise replay every unfinished match from its first entry - a few ms of physics
    per entry, minutes for a thousand long matches - where it now replays at most CHECKPOINT_EVERY entries.
    The log stays complete (export and audits replay it all); checkpoints only shorten the way.
    """

    after: int
    position: str
    turn_used: int


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A stored match: what is needed to replay it."""

    id: str
    room_code: str
    seed: int
    ruleset: str
    overrides: dict[str, Any]
    initial_position: dict[str, Any]
    home_player: int
    away_player: int
    version_base: int
    finished: bool


@dataclass(frozen=True, slots=True)
class RoomRow:
    """A stored room."""

    code: str
    ruleset: str
    overrides: dict[str, Any]
    private: bool
    home_player: int | None
    away_player: int | None
    match_id: str | None


def connect(path: Path) -> sqlite3.Connection:
    """A connection in WAL mode with the schema in place."""
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")  # durable against kill -9, not power loss
    conn.executescript(SCHEMA)
    return conn


class Store:
    """The database of one server: synchronous reads, and asynchronous writes through one writer thread."""

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / "sprtec.sqlite3"
        self._read = connect(self.path)
        self._writer_conn = connect(self.path)
        self._jobs: queue.Queue[tuple[list[Statement], asyncio.Future[list[int]] | None] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="sqlite-writer", daemon=True)
        self._thread.start()
        self.commits = 0

    # ------------------------------------------------------------------ writing
    def _run(self) -> None:
        """The writer thread: take queued jobs, commit them together, then resolve their futures."""
        while True:
            job = self._jobs.get()
            if job is None:
                break
            batch = [job]
            stop = False
            while len(batch) < WRITER_BATCH:
                try:
                    nxt = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            outcomes: list[list[int] | BaseException] = []
            conn = self._writer_conn
            conn.execute("BEGIN IMMEDIATE")
            for statements, _ in batch:
                conn.execute("SAVEPOINT job")
                try:
                    ids = [conn.execute(sql, params).lastrowid or 0 for sql, params in statements]
                    conn.execute("RELEASE job")
                    outcomes.append(ids)
                except sqlite3.Error as exc:  # one bad job must not take the others down
                    conn.execute("ROLLBACK TO job")
                    conn.execute("RELEASE job")
                    outcomes.append(exc)
            conn.execute("COMMIT")
            self.commits += 1
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future is not None:
                    future.get_loop().call_soon_threadsafe(_settle, future, outcome)
            if stop:
                break

    async def write(self, statements: list[Statement]) -> list[int]:
        """Commit ``statements`` in one transaction; returns each statement's ``lastrowid``."""
        future: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
        self._jobs.put((statements, future))
        return await future

    def write_sync(self, statements: list[Statement]) -> list[int]:
        """Commit from outside an event loop (start-up, tools); waits for the writer."""
        done = threading.Event()
        box: list[list[int] | BaseException] = []

        class _Future:
            """The minimal future the writer thread settles for a synchronous caller."""

            def get_loop(self) -> _Future:
                return self

            def call_soon_threadsafe(self, fn: Any, future: Any, outcome: Any) -> None:
                box.append(outcome)
                done.set()

        self._jobs.put((statements, _Future()))  # type: ignore[arg-type]
        done.wait()
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]

    def close(self) -> None:
        """Finish every queued write, stop the writer and close the connections."""
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join()
        self._writer_conn.close()
        self._read.close()

    # ------------------------------------------------------------------ statements
    @staticmethod
    def add_player(name: str, token_hash: str) -> Statement:
        """Insert a player."""
        return ("INSERT INTO players (name, token_hash, created_at) VALUES (?, ?, ?)", (name, token_hash, time.time()))

    @staticmethod
    def save_room(room: RoomRow) -> Statement:
        """Insert or update a room."""
        return (
            "INSERT INTO rooms (code, ruleset, overrides, private, home_player, away_player, match_id, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(code) DO UPDATE SET ruleset=excluded.ruleset, "
            "overrides=excluded.overrides, home_player=excluded.home_player, away_player=excluded.away_player, "
            "match_id=excluded.match_id",
            (
                room.code,
                room.ruleset,
                json.dumps(room.overrides, sort_keys=True),
                int(room.private),
                room.home_player,
                room.away_player,
                room.match_id,
                time.time(),
            ),
        )

    @staticmethod
    def add_match(
        match_id: str,
        room_code: str,
        seed: int,
        ruleset: str,
        overrides: dict[str, Any],
        initial: dict[str, Any],
        home: int,
        away: int,
        version_base: int,
    ) -> Statement:
        """Insert a match with its initial position (the log's starting point) when it starts."""
        return (
            "INSERT INTO matches (id, room_code, seed, ruleset, overrides, initial_position, home_player, away_player,"
            " version_base, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match_id,
                room_code,
                seed,
                ruleset,
                json.dumps(overrides, sort_keys=True),
                json.dumps(initial),
                home,
                away,
                version_base,
                time.time(),
            ),
        )

    @staticmethod
    def append_log(match_id: str, entry: LogEntry) -> Statement:
        """Append one input to a match's log."""
        return (
            "INSERT INTO match_log (match_id, idx, kind, team, action, elapsed_ms) VALUES (?, ?, ?, ?, ?, ?)",
            (
                match_id,
                entry.index,
                entry.kind,
                entry.team,
                None if entry.action is None else json.dumps(entry.action, sort_keys=True),
                entry.elapsed_ms,
            ),
        )

    @staticmethod
    def save_checkpoint(match_id: str, checkpoint: Checkpoint) -> Statement:
        """Keep a match's latest checkpoint (written in the same transaction as the entry it follows)."""
        return (
            "INSERT INTO checkpoints (match_id, idx, position, turn_used) VALUES (?, ?, ?, ?) ON CONFLICT(match_id)"
            " DO UPDATE SET idx=excluded.idx, position=excluded.position, turn_used=excluded.turn_used",
            (match_id, checkpoint.after, checkpoint.position, checkpoint.turn_used),
        )

    @staticmethod
    def finish_match(match_id: str, result: dict[str, Any]) -> Statement:
        """Mark a match finished with its result."""
        return ("UPDATE matches SET finished = 1, result = ? WHERE id = ?", (json.dumps(result), match_id))

    # ------------------------------------------------------------------ reading
    def player_by_token_hash(self, token_hash: str) -> tuple[int, str] | None:
        """(id, name) of the player holding this token, if any."""
        row = self._read.execute("SELECT id, name FROM players WHERE token_hash = ?", (token_hash,)).fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def player_name(self, player_id: int) -> str:
        """A player's name ('' when unknown)."""
        row = self._read.execute("SELECT name FROM players WHERE id = ?", (player_id,)).fetchone()
        return "" if row is None else str(row[0])

    @staticmethod
    def delete_room(code: str) -> Statement:
        """Forget a room (its matches and logs stay for export)."""
        return ("DELETE FROM rooms WHERE code = ?", (code,))

    def rooms(self) -> list[RoomRow]:
        """Every stored room."""
        rows = self._read.execute(
            "SELECT code, ruleset, overrides, private, home_player, away_player, match_id"
            " FROM rooms ORDER BY created_at"
        ).fetchall()
        return [RoomRow(r[0], r[1], json.loads(r[2]), bool(r[3]), r[4], r[5], r[6]) for r in rows]

    def match(self, match_id: str) -> MatchRow | None:
        """One stored match."""
        row = self._read.execute(
            "SELECT id, room_code, seed, ruleset, overrides, initial_position, home_player, away_player, version_base,"
            " finished FROM matches WHERE id = ?",
            (match_id,),
        ).fetchone()
        if row is None:
            return None
        return MatchRow(
            row[0], row[1], row[2], row[3], json.loads(row[4]), json.loads(row[5]), row[6], row[7], row[8], bool(row[9])
        )

    def checkpoint(self, match_id: str) -> Checkpoint | None:
        """A match's latest checkpoint, if it has one."""
        row = self._read.execute(
            "SELECT idx, position, turn_used FROM checkpoints WHERE match_id = ?", (match_id,)
        ).fetchone()
        return None if row is None else Checkpoint(row[0], row[1], row[2])

    def log(self, match_id: str, since: int = 0) -> list[LogEntry]:
        """A match's inputs in order, from index ``since``."""
        rows = self._read.execute(
            "SELECT idx, kind, team, action, elapsed_ms FROM match_log WHERE match_id = ? AND idx >= ? ORDER BY idx",
            (match_id, since),
        ).fetchall()
        return [LogEntry(r[0], r[1], r[2], None if r[3] is None else json.loads(r[3]), r[4]) for r in rows]


def _settle(future: asyncio.Future[list[int]], outcome: list[int] | BaseException) -> None:
    """Resolve a write's future on its own loop (called there by the writer thread)."""
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)

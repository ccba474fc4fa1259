"""A stored match read back whole - its room row, initial position and every log entry - from either database.

Why in the store: the reads are SQL over the store's own tables, the same statements for SQLite and PostgreSQL
(``Reader`` is the read half of a DB-API connection, which ``sqlite3`` and the PostgreSQL store's reader both
are). What a match becomes once read - a scenario (``server.replays.replay_export``) - is not the store's business.

The SQLite database is opened read-only through a connection of its own, so this may run in any thread (the
server calls it through ``asyncio.to_thread``, off its event loop) and beside a running server: a running match
reads as far as its log is committed.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

DATABASE = "sprtec.sqlite3"  # the file server.store.sqlite.sqlite_store.Store keeps in its data directory


MATCH_ID = re.compile(r"[0-9a-f]{12}")  # server.rooms.lobby.new_match_id: 12 lower-case hex digits


class ExportError(Exception):
    """Why a match cannot be exported: ``code`` (``NO_DATA``, ``NO_MATCH``, ``BAD_LOG``) and a message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def to_json(self) -> dict[str, str]:
        """The ``error`` object ``sprtec export`` prints."""
        return {"code": self.code, "message": str(self)}


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """What the export reads of one match: its room, whether it is over, its initial position and its log rows
    (kind, team, action, elapsed ms)."""

    id: str
    room_code: str
    finished: bool
    initial_position: dict[str, Any]
    log: tuple[tuple[str, str | None, dict[str, Any] | None, int], ...]
    players: tuple[str, str] | None = None  # the coaches' names (home, away)


class Reader(Protocol):
    """A connection that answers the export's reads (SQLite's own, or the PostgreSQL store's:
    ``server.store.postgres.pg_store``)."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one read; the answer has ``fetchone`` and ``fetchall``."""
        ...


def read_match(data_dir: Path, match: str) -> StoredMatch:
    """The stored match named by ``match`` (a match id or a room code), read through a read-only connection."""
    path = data_dir / DATABASE
    if not path.is_file():
        raise ExportError("NO_DATA", f"no sprtec database in {data_dir} (expected {path})")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise ExportError("NO_DATA", f"cannot open {path}: {exc}") from None
    try:
        return read_match_from(conn, match, str(path))
    except sqlite3.Error as exc:
        raise ExportError("NO_DATA", f"cannot read {path}: {exc}") from None
    finally:
        conn.close()


def read_match_from(conn: Reader, match: str, where: str) -> StoredMatch:
    """The stored match named by ``match`` read through ``conn`` (``where`` names the database in messages)."""
    try:
        match_id = _match_id(conn, match)
        row = conn.execute(
            "SELECT initial_position, room_code, finished, (SELECT name FROM players WHERE id = home_player),"
            " (SELECT name FROM players WHERE id = away_player) FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        if row is None:
            raise ExportError("NO_MATCH", f"no match {match!r} in {where}")
        rows = conn.execute(
            "SELECT kind, team, action, elapsed_ms FROM match_log WHERE match_id = ? ORDER BY idx", (match_id,)
        ).fetchall()
        log = tuple((str(k), t, None if a is None else json.loads(a), int(ms)) for k, t, a, ms in rows)
        players = (str(row[3]), str(row[4])) if row[3] and row[4] else None
        return StoredMatch(match_id, str(row[1]), bool(row[2]), json.loads(row[0]), log, players)
    except json.JSONDecodeError as exc:
        raise ExportError("BAD_LOG", f"match {match!r}: stored JSON is broken: {exc}") from None


def _match_id(conn: Reader, match: str) -> str:
    """``match`` itself when it is a match id, else the latest match of the room with that code."""
    if MATCH_ID.fullmatch(match.strip().lower()):
        return match.strip().lower()
    code = "".join(ch for ch in match.upper() if ch.isalnum())  # as server.tokens.normalise_code stores it
    row = conn.execute(
        "SELECT id FROM matches WHERE room_code = ? ORDER BY started_at DESC, rowid DESC LIMIT 1", (code,)
    ).fetchone()
    if row is None:
        raise ExportError("NO_MATCH", f"no match with id or room code {match!r}")
    return str(row[0])

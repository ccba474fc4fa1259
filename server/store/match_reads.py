"""A stored match read back whole - its room row, initial position and every log entry - from either database.

Why in the store: the reads are SQL over the store's own tables, the same statements for SQLite and PostgreSQL, asked
through the store's one read port (``server.store.store_port.ReadPort``). What a match becomes once read - a scenario
(``server.replays.replay_export``) - is not the store's business.

The SQLite database is opened read-only through a connection of its own, so this may run in any thread (the
server calls it through ``asyncio.to_thread``, off its event loop) and beside a running server: a running match
reads as far as its log is committed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.store.sqlite.data_reader import NoData, ReadOnlyData
from server.store.store_port import ReadPort

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


def read_match(data_dir: Path, match: str) -> StoredMatch:
    """The stored match named by ``match`` (a match id or a room code), read through a read-only connection."""
    try:
        data = ReadOnlyData(data_dir)
    except NoData as exc:
        raise ExportError("NO_DATA", str(exc)) from None
    try:
        return read_match_from(data, match, str(data.path))
    except NoData as exc:
        raise ExportError("NO_DATA", str(exc)) from None
    finally:
        data.close()


def read_match_from(port: ReadPort, match: str, where: str) -> StoredMatch:
    """The stored match named by ``match`` read through ``port`` (``where`` names the database in messages)."""
    try:
        match_id = _match_id(port, match)
        found = port.read(
            "SELECT initial_position, room_code, finished, (SELECT name FROM players WHERE id = home_player),"
            " (SELECT name FROM players WHERE id = away_player) FROM matches WHERE id = ?", (match_id,))
        if not found:
            raise ExportError("NO_MATCH", f"no match {match!r} in {where}")
        row = found[0]
        rows = port.read("SELECT kind, team, action, elapsed_ms FROM match_log WHERE match_id = ? ORDER BY idx",
                         (match_id,))
        log = tuple((str(k), t, None if a is None else json.loads(a), int(ms)) for k, t, a, ms in rows)
        players = (str(row[3]), str(row[4])) if row[3] and row[4] else None
        return StoredMatch(match_id, str(row[1]), bool(row[2]), json.loads(row[0]), log, players)
    except json.JSONDecodeError as exc:
        raise ExportError("BAD_LOG", f"match {match!r}: stored JSON is broken: {exc}") from None


def _match_id(port: ReadPort, match: str) -> str:
    """``match`` itself when it is a match id, else the latest match of the room with that code."""
    if MATCH_ID.fullmatch(match.strip().lower()):
        return match.strip().lower()
    code = "".join(ch for ch in match.upper() if ch.isalnum())  # as server.tokens.normalise_code stores it
    found = port.read("SELECT id FROM matches WHERE room_code = ? ORDER BY started_at DESC, rowid DESC LIMIT 1",
                      (code,))
    if not found:
        raise ExportError("NO_MATCH", f"no match with id or room code {match!r}")
    return str(found[0][0])

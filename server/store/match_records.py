"""What the server keeps about rooms and matches, as plain values: what a room asks the store to write, and what
the store reads back.

Why a module of its own: the pure room core (``server.rooms.room_core``) says *what* to persist without knowing the
store, and the store (SQLite now, PostgreSQL in a cluster) says *how*; both speak these records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.match_log import LogEntry
from shared.model import Position


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomRow:
    """A stored room: its settings, who holds its seats, its current match."""

    code: str
    ruleset: str
    overrides: dict[str, Any]
    private: bool
    home_player: int | None
    away_player: int | None
    match_id: str | None
    rated: bool = False
    reserved: bool = False  # a tournament's table: the seats are held for these players


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchStart:
    """A match begins: everything its replay needs before the first entry (the log's starting point)."""

    match_id: str
    room_code: str
    seed: int
    ruleset: str
    overrides: dict[str, Any]
    initial: Position
    home_player: int
    away_player: int
    version_base: int  # the version of the match's first Snapshot: versions continue from it after a restart
    rated: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchEnd:
    """How a match ended: the winner (None: a draw), the reason and the final score."""

    winner: str | None
    reason: str
    score: tuple[int, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class EntryWrite:
    """One log entry to append with the position it produced, and the match's end when it ends it."""

    match_id: str
    entry: LogEntry
    end: MatchEnd | None = None
    position: bytes | None = None  # the position after the entry (server.store.position_blob), kept with it
    turn_used: int = 0  # the move clock the team to move had used then


Record = RoomRow | MatchStart | EntryWrite  # what a room may ask the store to write (in one transaction)


@dataclass(frozen=True, slots=True, kw_only=True)
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


@dataclass(frozen=True, slots=True, kw_only=True)
class FinishedMatch:
    """How a stored match ended, for a coach who was away: its room, winner, reason, score, end time, his seat."""

    id: str
    room_code: str
    winner: str | None
    reason: str
    score: tuple[int, int]
    finished_at: float | None
    team: str

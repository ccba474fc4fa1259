"""The statements that write rooms, matches and their logs: a room's records (``server.store.match_records``) as the
store's SQL.

Why a module of its own and not methods of one store: both stores write them (each runs the store's SQL in its own
dialect: ``server.store.postgres.pg_dialect``), and the room, the lobby, recovery, the tools and the tests build them
without holding a store. Like ``server.store.player_records`` and ``server.tournaments.tournament_records``, the SQL
is written once, here.
"""

from __future__ import annotations

import json
import time
from typing import Any

from server.store.log_rows import entry_row
from server.store.match_records import EntryWrite, MatchStart, Record, RoomRow
from server.store.store_port import Statement
from shared import notation
from shared.match_log import LogEntry


def statements(records: tuple[Record, ...]) -> list[Statement]:
    """The statements that write a room's records, in order, for one transaction."""
    out: list[Statement] = []
    for record in records:
        if isinstance(record, RoomRow):
            out.append(save_room(record))
        elif isinstance(record, MatchStart):
            out.append(add_match(record))
        else:
            out += append_entry(record)
    return out


def append_entry(write: EntryWrite) -> list[Statement]:
    """An entry (with the position it produced) and the match's end, as statements. No checkpoint: the row's own
    position is the match's latest, and the checkpoints table is read only for logs of older servers."""
    out = [append_log(write.match_id, write.entry, write.position, write.turn_used)]
    if write.end is not None:
        out.append(finish_match(write.match_id, {"winner": write.end.winner, "reason": write.end.reason},
                                write.end.score))
    return out


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


def append_log(match_id: str, entry: LogEntry, position: bytes | None = None, turn_used: int = 0) -> Statement:
    """Append one entry to a match's log, with the position it produced (``server.store.position_blob``)."""
    kind, team, action, elapsed = entry_row(entry)
    return (
        "INSERT INTO match_log (match_id, idx, kind, team, action, elapsed_ms, position, turn_used)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (match_id, entry.index, kind, team, None if action is None else json.dumps(action, sort_keys=True),
         elapsed, position, turn_used),
    )


def finish_match(match_id: str, result: dict[str, Any], score: tuple[int, int]) -> Statement:
    """Mark a match finished with its result (winner, reason) and final score."""
    return (
        "UPDATE matches SET finished = 1, result = ?, score_home = ?, score_away = ?, finished_at = ? WHERE id = ?",
        (json.dumps(result, sort_keys=True), score[0], score[1], time.time(), match_id),
    )


def delete_room(code: str) -> Statement:
    """Forget a room (its matches and logs stay for export)."""
    return ("DELETE FROM rooms WHERE code = ?", (code,))

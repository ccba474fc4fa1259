"""What the store keeps about tournaments: each one's row and event log, as statements to write and reads.

Why beside the store and not in it (like ``server.store.player_records``): the store is the database of rooms and
matches and its one writer; a tournament is a service of its own with its own questions - which tournaments are there,
what is this one's log, how did this table's match end. The SQL lives here, once; reads go through any ``ReadPort`` (the
server's store, or a data directory opened read-only for ``sprtec tournament export``).

Events are appended to the log; every ``SNAPSHOT_EVERY`` events (``server.tournaments.tournament_core``) the same
transaction puts the whole state after them on the tournament's row (``snapshot``, with ``events``, the count it
holds, and the status then), so a restart folds only the events after it (an older row's snapshot is the tournament
file alone: the whole log is folded).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from server.store.store_port import ReadPort, Statement
from server.tournaments.log import Row, from_json, to_json
from server.tournaments.results import StoredResult


@dataclass(frozen=True, kw_only=True, slots=True)
class TournamentRow:
    """A stored tournament: its id, name, the hash of its organiser secret, events logged, status, creation."""

    id: str
    name: str
    secret_hash: str
    events: int
    status: str
    created_at: float


def add_tournament(row: TournamentRow, snapshot: str) -> Statement:
    """Insert a tournament's row with its first snapshot (its first event follows in the same transaction)."""
    return ("INSERT INTO tournaments (id, name, secret_hash, snapshot, events, status, created_at) VALUES "
            "(?, ?, ?, ?, ?, ?, ?)", (row.id, row.name, row.secret_hash, snapshot, row.events, row.status,
                                      row.created_at))


def append_event(tournament_id: str, row: Row) -> Statement:
    """Append one event to a tournament's log."""
    kind, body = to_json(row.event)
    return ("INSERT INTO tournament_log (tournament_id, idx, kind, body, actor, at) VALUES (?, ?, ?, ?, ?, ?)",
            (tournament_id, row.index, kind, json.dumps(body, ensure_ascii=False, sort_keys=True), row.actor,
             row.at_ms / 1000))


def save_snapshot(tournament_id: str, snapshot: str, events: int, status: str) -> Statement:
    """The tournament's state after its first ``events`` events (``server.tournaments.state_snapshot``) and its
    status then, on the tournament's row."""
    return ("UPDATE tournaments SET snapshot = ?, events = ?, status = ? WHERE id = ?",
            (snapshot, events, status, tournament_id))


def tournaments(store: ReadPort) -> list[TournamentRow]:
    """Every stored tournament, oldest first."""
    rows = store.read("SELECT id, name, secret_hash, events, status, created_at FROM tournaments ORDER BY created_at")
    return [TournamentRow(id=r[0], name=r[1], secret_hash=r[2], events=int(r[3]), status=r[4],
                          created_at=float(r[5])) for r in rows]


def tournament(store: ReadPort, tournament_id: str) -> TournamentRow | None:
    """One stored tournament."""
    return next((t for t in tournaments(store) if t.id == tournament_id), None)


def snapshot(store: ReadPort, tournament_id: str) -> str | None:
    """The stored tournament file of a tournament (its canonical text)."""
    rows = store.read("SELECT snapshot FROM tournaments WHERE id = ?", (tournament_id,))
    return None if not rows else str(rows[0][0])


def log(store: ReadPort, tournament_id: str, since: int = 0) -> list[Row]:
    """A tournament's events in order (those from index ``since`` on)."""
    rows = store.read("SELECT idx, kind, body, actor, at FROM tournament_log WHERE tournament_id = ? AND idx >= ? "
                      "ORDER BY idx", (tournament_id, since))
    return [Row(index=int(r[0]), at_ms=round(float(r[4]) * 1000), actor=str(r[3]),
                event=from_json(str(r[1]), json.loads(r[2]))) for r in rows]


def match_result(store: ReadPort, match_id: str) -> StoredResult | None:
    """How a stored match ended (None: no match has this id - it never started)."""
    rows = store.read("SELECT finished, result, score_home, score_away FROM matches WHERE id = ?", (match_id,))
    if not rows:
        return None
    finished, result, home, away = rows[0]
    outcome = json.loads(result) if result else {}
    return StoredResult(finished=bool(finished), winner=outcome.get("winner"), reason=str(outcome.get("reason", "")),
                        score=(int(home or 0), int(away or 0)))


def now_ms() -> int:
    """Wall time in ms since the epoch (a log row's time)."""
    return time.time_ns() // 1_000_000

"""What the store keeps about leagues: each one's row and event log, as statements to write and reads.

Why beside the store, as ``server.tournaments.tournament_records``: a league is a service of its own with its own
questions (which leagues are there, what is this one's log); the SQL lives here once, and reads go through any
``ReadPort`` (the server's store, or a data directory opened read-only for ``sprtec league export``). How a table's
match ended is the tournaments' question too (``tournament_records.match_result``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from server.leagues.log import Row, from_json, to_json
from server.store.store_port import ReadPort, Statement


@dataclass(frozen=True, kw_only=True, slots=True)
class LeagueRow:
    """A stored league: its id, name, the hash of its organiser secret and when it was created."""

    id: str
    name: str
    secret_hash: str
    created_at: float


def add_league(row: LeagueRow) -> Statement:
    """Insert a league's row (its first event follows in the same transaction)."""
    return ("INSERT INTO leagues (id, name, secret_hash, created_at) VALUES (?, ?, ?, ?)",
            (row.id, row.name, row.secret_hash, row.created_at))


def append_event(league_id: str, row: Row) -> Statement:
    """Append one event to a league's log."""
    kind, body = to_json(row.event)
    return ("INSERT INTO league_log (league_id, idx, kind, body, actor, at) VALUES (?, ?, ?, ?, ?, ?)",
            (league_id, row.index, kind, json.dumps(body, ensure_ascii=False, sort_keys=True), row.actor,
             row.at_ms / 1000))


def leagues(store: ReadPort) -> list[LeagueRow]:
    """Every stored league, oldest first."""
    rows = store.read("SELECT id, name, secret_hash, created_at FROM leagues ORDER BY created_at, id")
    return [LeagueRow(id=r[0], name=r[1], secret_hash=r[2], created_at=float(r[3])) for r in rows]


def log(store: ReadPort, league_id: str) -> list[Row]:
    """A league's events in order."""
    rows = store.read("SELECT idx, kind, body, actor, at FROM league_log WHERE league_id = ? ORDER BY idx",
                      (league_id,))
    return [Row(index=int(r[0]), at_ms=round(float(r[4]) * 1000), actor=str(r[3]),
                event=from_json(str(r[1]), json.loads(r[2]))) for r in rows]

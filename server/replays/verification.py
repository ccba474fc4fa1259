"""Proving a data directory: every stored match run again through the physics and the referee, and every position
its log kept compared with what the fold gives.

Why offline: a restart trusts the positions the log kept (``server.rooms.rebuild``) instead of replaying the physics,
so the determinism guarantee - a move is a pure function of its inputs, bit for bit - is checked here, on demand
(``sprtec verify``), rather than paid for at every start.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.store import position_blob
from server.store.store_port import Store
from shared import match_log, notation


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """One match checked: how many entries, how many kept positions were compared, and the first disagreement."""

    match_id: str
    entries: int
    compared: int
    problem: str | None = None


def verify_match(store: Store, match_id: str) -> Verdict:
    """Run a stored match's log through the fold and compare each kept position and move clock, and the end."""
    stored = store.match(match_id)
    if stored is None:
        return Verdict(match_id=match_id, entries=0, compared=0, problem="no such match")
    position = notation.position_from_json(stored.initial_position)
    kept = {index: (blob, used) for index, blob, used in store.stored_positions(match_id)}
    turn_used, compared = 0, 0
    entries = store.log(match_id)
    for entry in entries:
        after = match_log.apply_entry(position, entry).position
        turn_used = match_log.next_turn_used(position, after, entry.elapsed_ms, turn_used)
        position = after
        blob, used = kept.get(entry.index, (None, None))
        if blob is None:
            continue
        compared += 1
        try:
            kept_position = position_blob.unpack(blob)
        except position_blob.BlobError as exc:
            return Verdict(match_id=match_id, entries=len(entries), compared=compared,
                           problem=f"entry {entry.index}: the kept position cannot be read ({exc})")
        if kept_position != position:
            return Verdict(match_id=match_id, entries=len(entries), compared=compared,
                           problem=f"entry {entry.index}: the kept position is not what the fold gives")
        if used is not None and used != turn_used:
            return Verdict(match_id=match_id, entries=len(entries), compared=compared,
                           problem=f"entry {entry.index}: move clock used {used}, the fold gives {turn_used}")
    ended = store.last_finished_match(stored.home_player, stored.room_code) if stored.finished else None
    if ended is not None and ended.id == match_id:
        result = position.result
        if result is None or (result.winner, result.reason) != (ended.winner, ended.reason) or \
                tuple(position.score) != ended.score:
            return Verdict(match_id=match_id, entries=len(entries), compared=compared,
                           problem="the stored result is not the one the log plays to")
    return Verdict(match_id=match_id, entries=len(entries), compared=compared)


def all_matches(store: Store) -> list[str]:
    """Every stored match id, oldest first."""
    return [str(r[0]) for r in store.read("SELECT id FROM matches ORDER BY started_at, id")]

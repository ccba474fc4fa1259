"""Crash recovery: every unfinished match of the data directory rebuilt from the store.

Why a module of its own: it is the one place the server reads matches back into rooms. Every log entry keeps the
position it produced (``server.store.position_blob``), so a match is back at its last row without any physics - a read
and an unpacking (~0.1 ms), where replaying the log took a few ms per entry. A log written before entries kept
their positions is still folded from its latest checkpoint through the same fold the live room ran
(``shared.match_log``; in the worker pool, all at once), so ``kill -9`` loses nothing that was acknowledged.
``sprtec verify`` proves offline that the stored positions are what the fold gives. Both coaches are away until
they reconnect; their grace runs from the restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

from server.constants import HISTORY_SIZE
from server.rooms.lobby import Lobby
from server.rooms.room import Connection, Room
from server.rooms.room_core import LiveMatch, RoomCore
from server.rooms.workers import WorkerPool
from server.store import match_statements, position_blob
from server.store.match_records import MatchRow, RoomRow
from server.store.player_records import PlayerRecords
from server.store.store_port import Store
from shared import match_log, notation
from shared.model import Position, Team

log = logging.getLogger(__name__)


async def recover(store: Store, pool: WorkerPool | None, lobby: Lobby, rows: list[RoomRow] | None = None) -> list[Room]:
    """Rebuild every unfinished match of ``rows`` (default: every stored room; a cluster node passes the rooms it
    takes over) - replays run in the pool, all at once; returns the rooms resumed. A room without an unfinished
    match is forgotten."""
    jobs: list[tuple[RoomRow, MatchRow, Position | None, int, Awaitable[tuple[Position, int]]]] = []
    if rows is None:
        rows, resting = store.rooms(), store.resting_points()
    else:  # a cluster node taking some rooms over: read only theirs
        resting = store.resting_points([row.match_id for row in rows if row.match_id])
    stored_matches = store.matches([row.match_id for row in rows if row.match_id])
    logged = store.entries_of([match_id for match_id in stored_matches if match_id not in resting])
    for row in rows:
        stored = stored_matches.get(row.match_id) if row.match_id else None
        if stored is None or stored.finished:
            await store.write(store.fenced(row.code, [match_statements.delete_room(row.code)]))
            await lobby.registry.remove(row.code)
            continue
        kept = resting.get(stored.id)
        resting_at = None if kept is None else _readable(stored.id, kept[1])
        if kept is not None and resting_at is not None:  # the last row kept its position: no physics, no start
            entries_count, _, used = kept
            jobs.append((row, stored, None, entries_count, asyncio.sleep(0, (resting_at, used))))
            continue
        initial = notation.position_from_json(stored.initial_position)
        if stored.id not in logged and kept is None:  # no entry yet: the match is at its start (nothing to read)
            jobs.append((row, stored, initial, 0, asyncio.sleep(0, (initial, 0))))
            continue
        start, after, turn_used = initial, 0, 0
        checkpoint = store.checkpoint(stored.id)
        if checkpoint is not None:
            start, after, turn_used = checkpoint.position, checkpoint.after, checkpoint.turn_used
        entries = store.log(stored.id, since=after)
        if pool is not None:
            job: Awaitable[tuple[Position, int]] = asyncio.ensure_future(
                pool.call(match_log.replay, start, entries, turn_used))
        else:
            job = asyncio.sleep(0, match_log.replay(start, entries, turn_used))
        jobs.append((row, stored, initial, after + len(entries), job))
    actions = store.actions_of([stored.id for _, stored, _, _, _ in jobs])
    names = PlayerRecords(store).names([p for _, s, _, _, _ in jobs for p in (s.home_player, s.away_player)])
    rooms = []
    for row, stored, start_position, count, job in jobs:
        position, turn_used = await job
        core = RoomCore[Connection](code=row.code, ruleset=row.ruleset, overrides=row.overrides,
                                    private=row.private, match_id=stored.id, seed=stored.seed,
                                    history_size=HISTORY_SIZE, rated=row.rated, first=position)
        core.reserved = row.reserved
        state = LiveMatch(id=stored.id, seed=stored.seed, initial=start_position, position=position, started=True,
                          log_len=count, version_base=stored.version_base, turn_used=turn_used)
        seats: dict[Team, int | None] = {"home": stored.home_player, "away": stored.away_player}
        room = lobby.room(core)
        room.restore(state, seats, {p: names[p] for p in (stored.home_player, stored.away_player)},
                     actions.get(stored.id, 0))
        rooms.append(room)
        log.info("resumed match %s in room %s at log entry %d", stored.id, row.code, count,
                 extra={"room": row.code, "match": stored.id})
    await lobby.adopt(rooms)
    return rooms


def _readable(match_id: str, blob: bytes) -> Position | None:
    """The position a match's last row kept, or None when it cannot be read (the log is folded instead)."""
    try:
        return position_blob.unpack(blob)
    except position_blob.BlobError as exc:
        log.warning("match %s: its last kept position cannot be read (%s); its log is folded instead", match_id, exc)
        return None

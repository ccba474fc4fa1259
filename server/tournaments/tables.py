"""A tournament table's room: opened for two coaches, closed when nobody played at it.

Why here: the lobby opens rooms whose seats are held for two players (``Lobby.open_table``) and closes rooms only
when they are empty; a table whose time ran out before its match started (a no-show) must close although the coach
who came is still in it - he is told he left (``Left``), the room stops, the registry and the store forget it and
the bus hears ``RoomClosed``, exactly as for a room that closed empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from server.lifecycle import RoomClosed
from server.rooms.lobby import Lobby
from server.store.sqlite.sqlite_store import Store
from server.tournaments.creation import stage_overrides
from server.tournaments.state import Coach
from shared.protocol import Left
from shared.tournament.model import Stage


@dataclass(frozen=True, kw_only=True, slots=True)
class Opened:
    """A table's room and the match that will be played in it."""

    room: str
    match_id: str


async def open_table(lobby: Lobby, stage: Stage, ruleset: str, home: Coach, away: Coach) -> Opened:
    """A rated room held for the two coaches, under the match's ruleset and the stage's settings."""
    room = await lobby.open_table(ruleset, stage_overrides(stage), (home.player_id, home.name),
                                  (away.player_id, away.name), rated=True)
    await lobby.adopt([room])  # indexes the held seats, so a coach who reconnects is taken to his table at once
    return Opened(room=room.code, match_id=room.match.id)


async def close_table(lobby: Lobby, code: str) -> None:
    """Close a table's room whose match never started; whoever is in it is told he left."""
    room = lobby.rooms.get(code)
    if room is None or room.closed:
        return
    for member in room.core.members():
        connection = cast(Any, member)
        connection.room = None
        await connection.send(Left(code))
    await room.close()
    lobby.rooms.pop(code, None)
    await lobby.registry.remove(code)
    lobby.bus.publish(RoomClosed(room=code))
    await lobby.store.write([Store.delete_room(code)])

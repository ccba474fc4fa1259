"""The lobby: create a room, join one by its code, quick-match, list the public rooms, watch any room.

Why separate from the room: the lobby decides *which* room and seat a connection gets (validating the
ruleset and overrides with ``shared.rulesets``, pairing the quick-match queue, recognising a returning
coach by his player id) and knows nothing of clocks or moves; the room knows nothing of other rooms.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from server import engine
from server.clock import Clock
from server.constants import ROOM_CODE_LENGTH
from server.registry import InProcessRegistry
from server.room import Member, Room, RoomError
from server.store import Store
from server.tokens import new_room_code, normalise_code
from server.workers import Engine
from shared.model import Team
from shared.protocol import QueueStatus, RoomInfo
from shared.rulesets import SettingsError, coerce_setting, make_settings

log = logging.getLogger(__name__)


def new_match_id() -> str:
    """An id for a match (unguessable enough to publish, short enough to type into ``sprtec export``)."""
    return secrets.token_hex(6)


class Lobby:
    """Rooms of this server and how connections get into them."""

    def __init__(self, store: Store, engine_: Engine, clock: Clock) -> None:
        self.store = store
        self.engine = engine_
        self.clock = clock
        self.registry: InProcessRegistry[Room, Member] = InProcessRegistry()

    def _room(self, ruleset: str, overrides: dict[str, Any], private: bool) -> Room:
        """A fresh room with a code no other room has."""
        code = new_room_code(ROOM_CODE_LENGTH)
        while self.registry.get(code) is not None:
            code = new_room_code(ROOM_CODE_LENGTH)
        room = Room(
            code,
            ruleset,
            overrides,
            private,
            store=self.store,
            engine_=self.engine,
            clock=self.clock,
            new_match_id=new_match_id,
            on_empty=self._forget,
        )
        self.registry.add(code, room)
        log.info("room %s opened (%s, %s)", code, ruleset, "private" if private else "public")
        return room

    def _forget(self, room: Room) -> None:
        """An empty room without a running match is closed."""
        self.registry.remove(room.code)
        room.closed = True
        log.info("room %s closed (empty)", room.code)

    def find(self, code: str) -> Room:
        """The room with this code (typed codes are normalised), or ROOM_NOT_FOUND; BAD_MESSAGE for a string that
        cannot be a room code (empty, or no letters and digits once spaces and dashes are gone)."""
        normal = normalise_code(code)
        if not normal or not normal.isascii():
            raise RoomError("BAD_MESSAGE", f"{code!r} is not a room code: room codes are letters and digits")
        room = self.registry.get(normal)
        if room is None or room.closed:
            raise RoomError("ROOM_NOT_FOUND", f"no room has the code {code!r}")
        return room

    @staticmethod
    def validate(ruleset: str, settings: dict[str, Any]) -> dict[str, Any]:
        """The overrides checked and converted by ``shared.rulesets``, or BAD_SETTINGS naming the problem."""
        try:
            overrides = {name: coerce_setting(name, value) for name, value in settings.items()}
            make_settings(ruleset, overrides)
            engine.new_match(ruleset, overrides, 0)
        except SettingsError as exc:
            raise RoomError("BAD_SETTINGS", str(exc)) from None
        except (ValueError, TypeError, ArithmeticError) as exc:
            raise RoomError("BAD_SETTINGS", f"these settings cannot start a match: {exc}") from None
        return {k: list(v) if isinstance(v, tuple) else v for k, v in overrides.items()}

    async def create(self, member: Member, ruleset: str, settings: dict[str, Any], private: bool) -> Room:
        """Open a room; its creator takes the home seat (the room sends him RoomJoined)."""
        overrides = self.validate(ruleset, settings)
        room = self._room(ruleset, overrides, private)
        await self.store.write([Store.save_room(room.row())])
        await room.seat(member, "home")
        return room

    async def join(self, member: Member, code: str) -> tuple[Room, Team]:
        """Take the free seat of a room - or one's own seat again (a returning coach is known by his player id)."""
        room = self.find(code)
        own = room.seat_of_player(member.player_id)
        if own is not None:
            await room.attach(member, own)
            return room, own
        free = [t for t in ("home", "away") if room.seats[t] is None]
        if not free:
            raise RoomError("ROOM_FULL", f"both seats of room {room.code} are taken; watch it instead")
        team: Team = free[0]  # type: ignore[assignment]
        await room.seat(member, team)
        return room, team

    async def quick(self, member: Member, ruleset: str | None, settings: dict[str, Any]) -> bool:
        """Queue for an opponent (False: queued); when one waits with a compatible ruleset and equal overrides,
        both are told they left the queue (QueueStatus) and get a new public room (RoomJoined, from the room).

        Overrides are checked like CreateRoom's and need a named ruleset (they are validated against it, and
        "any ruleset" could pair them with one they do not fit)."""
        if settings and ruleset is None:
            raise RoomError("BAD_SETTINGS", "name a ruleset to quick-match with setting overrides")
        overrides = self.validate(ruleset, settings) if ruleset is not None else {}
        paired = self.registry.enqueue(ruleset, overrides, member)
        if paired is None:
            return False
        opponent, chosen = paired
        for waiter in (opponent, member):
            await waiter.send(QueueStatus(False, chosen, 0))
        room = self._room(chosen, overrides, False)
        await self.store.write([Store.save_room(room.row())])
        await room.seat(opponent, "home")
        await room.seat(member, "away")
        return True

    def cancel_quick(self, member: Member) -> bool:
        """Leave the quick-match queue."""
        return self.registry.dequeue(member)

    def public_rooms(self) -> tuple[RoomInfo, ...]:
        """The public rooms, newest first."""
        rooms = [r for r in self.registry.all() if not r.private and not r.closed][-200:]
        return tuple(
            RoomInfo(
                r.code, r.ruleset, r.seats_info(), len(r.spectators), r.status, r.score(),
                r.clocks() if r.match.started else None, r.part_name(),
            )
            for r in reversed(rooms)
        )

    def rooms_with_seat(self, player_id: int) -> list[Room]:
        """Rooms where a player holds a seat (a returning coach)."""
        return [r for r in self.registry.all() if r.seat_of_player(player_id) is not None]

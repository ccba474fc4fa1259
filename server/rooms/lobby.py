"""The lobby: create a room, join one by its code, quick-match, list the public rooms, watch any room.

Why separate from the room: the lobby decides *which* room and seat a connection gets (validating the ruleset and
overrides with ``shared.rulesets``, pairing the quick-match queue, recognising a returning coach by his player id)
and knows nothing of clocks or moves; the room knows nothing of other rooms. Which rooms exist and who waits is the
registry's (``server.rooms.registry``, given to the lobby); the live rooms of this process are the lobby's own.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from server.clock import WallClock
from server.constants import HISTORY_SIZE, ROOM_CODE_LENGTH
from server.lifecycle import EventBus, PresenceChanged, RoomClosed
from server.rooms.lobby_core import HeldSeat, LobbyCore, disposition
from server.rooms.registry import Listing, Pairing, QueueEntry, Registry
from server.rooms.room import Connection, Room, RoomError
from server.rooms.room_core import RoomCore
from server.rooms.workers import Resolver
from server.store import match_statements
from server.store.player_records import PlayerRecords
from server.store.store_port import Store
from server.tokens import new_room_code, new_seed, normalise_code
from shared import match_log
from shared.model import Team
from shared.protocol import Left, Notice, QueueStatus, RoomInfo
from shared.rulesets import SettingsError, coerce_setting, make_settings

log = logging.getLogger(__name__)
LISTED_ROOMS = 200  # rooms a RoomList holds at most
DEFAULT_QUEUE_RATING = 1500  # a player without a rating waits in the queue as a newcomer (shared.ratings)


@dataclass(frozen=True, slots=True, kw_only=True)
class HeldTable:
    """A room to open with both seats held: the ruleset and overrides of its match, and the two players (id, name)."""

    ruleset: str
    overrides: dict[str, Any]
    home: tuple[int, str]
    away: tuple[int, str]
    rated: bool = True


def new_match_id() -> str:
    """An id for a match (unguessable enough to publish, short enough to type into ``sprtec export``)."""
    return secrets.token_hex(6)


class Lobby:
    """The rooms of this server process and how connections get into them."""

    def __init__(self, *, store: Store, resolver: Resolver, clock: WallClock, bus: EventBus, registry: Registry,
                 connection_of: Callable[[int], Connection | None], node: str = "local",
                 rating_of: Callable[[int, str], tuple[int, bool] | None] | None = None) -> None:
        self.store = store
        self.resolver = resolver
        self.clock = clock
        self.bus = bus
        self.registry = registry
        self.node = node
        self._connection_of = connection_of
        self._rating_of = rating_of
        self.rooms: dict[str, Room] = {}  # the live rooms of this process, oldest first
        self._seats: dict[int, set[str]] = {}  # player -> codes of rooms where he held a seat (checked on use)
        bus.subscribe(PresenceChanged, self._presence_changed)
        self.core = LobbyCore()  # the timing rules: the next queue pass, the seats held for players sent here
        self._timer: asyncio.Task[None] | None = None  # sleeps until the core's next deadline
        self._timer_wake: int | None = None  # the deadline the sleeping timer wakes at (None: busy or gone)
        self._held_here: dict[str, Connection] = {}  # a held room -> the player seated in it here
        self.queued = 0  # players in the quick-match queue after this process's last change to it (the metric)
        # A cluster (server.cluster.node): asks the node where a paired player waits to send him to room ``code`` here;
        # False when he waits on no other node. None: one process, where every waiting player is connected here.
        self.call_player: Callable[[QueueEntry, str], Awaitable[bool]] | None = None
        # A cluster: where a room's frames for everyone go besides its members (spectators on other nodes).
        self.relay_of: Callable[[str], Callable[[bytes], None]] | None = None

    # ------------------------------------------------------------------ rooms
    def room(self, core: RoomCore[Connection]) -> Room:
        """A live room around ``core`` (new, or recovered from the store); ``adopt`` makes it known."""
        room = Room(core, store=self.store, resolver=self.resolver, clock=self.clock, bus=self.bus,
                    new_match_id=new_match_id, rating_of=self._rating_of)
        if self.relay_of is not None:
            room.relay = self.relay_of(core.code)
        return room

    async def adopt(self, rooms: list[Room]) -> None:
        """Register rooms this process runs (recovered ones) under their codes: one registry update for all."""
        for room in rooms:
            self.rooms[room.code] = room
            self._index_seats(room)
        await self.registry.update_many([self.listing(room) for room in rooms])

    def listing(self, room: Room) -> Listing:
        """The registry's record of a room of ours."""
        return Listing(code=room.code, node=self.node, private=room.private, info=room.info())

    async def _open(self, ruleset: str, overrides: dict[str, Any], private: bool, *, rated: bool = False,
                    reserved: dict[Team, tuple[int, str]] | None = None, spectator_chat: str = "room") -> Room:
        """A fresh room with a code no other room has."""
        room = await self._claim(ruleset, overrides, private, rated=rated, reserved=reserved,
                                 spectator_chat=spectator_chat)
        self.rooms[room.code] = room
        await self.store.write(self.store.fenced(room.code, self.store.statements((room.core.row(),))))
        return room

    async def _claim(self, ruleset: str, overrides: dict[str, Any], private: bool, *, rated: bool,
                     reserved: dict[Team, tuple[int, str]] | None, spectator_chat: str) -> Room:
        """A room under a code claimed in the registry (not yet written nor known here)."""
        while True:
            core = RoomCore[Connection](code=new_room_code(ROOM_CODE_LENGTH), ruleset=ruleset, overrides=overrides,
                                        private=private, match_id=new_match_id(), seed=new_seed(),
                                        history_size=HISTORY_SIZE, rated=rated, reserved=reserved,
                                        spectator_chat=spectator_chat)
            room = self.room(core)
            if await self.registry.claim(self.listing(room)):
                break
        log.info("room %s opened (%s, %s)", room.code, ruleset, "private" if private else "public",
                 extra={"room": room.code, "match": core.match.id})
        return room

    async def close_if_idle(self, room: Room) -> None:
        """An empty room without a running match is closed and forgotten."""
        if not room.core.idle() or room.closed:
            return
        await self._close(room)
        log.info("room %s closed (empty)", room.code, extra={"room": room.code})

    async def _close(self, room: Room) -> None:
        """Close ``room`` and forget it here and in the registry; RoomClosed tells the rest (a cluster node deletes
        its stored row: ``server.cluster.node``)."""
        await room.close()
        self.rooms.pop(room.code, None)
        for player in room.core.seats.values():
            if player is not None:
                self._seats.get(player, set()).discard(room.code)
        await self.registry.remove(room.code)
        self.bus.publish(RoomClosed(room=room.code))

    def let_go(self, room: Room) -> None:
        """``room`` goes on elsewhere (a cluster: another node holds it now, or this node drains): it is this lobby's no
        more - forgotten here without its stored row or its listing, which are the room's wherever it is played."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]

    def find(self, code: str) -> Room:
        """The room with this code (typed codes are normalised), or ROOM_NOT_FOUND; BAD_MESSAGE for a string that
        cannot be a room code (empty, or no letters and digits once spaces and dashes are gone)."""
        normal = normalise_code(code)
        if not normal or not normal.isascii():
            raise RoomError("BAD_MESSAGE", f"{code!r} is not a room code: room codes are letters and digits")
        room = self.rooms.get(normal)
        if room is None or room.closed:
            raise RoomError("ROOM_NOT_FOUND", f"no room has the code {code!r}")
        return room

    def rooms_with_seat(self, player_id: int) -> list[Room]:
        """Rooms where a player holds a seat (a returning coach), from the seat index: no scan of every room."""
        codes = self._seats.get(player_id, set())
        return [room for code in sorted(codes) if (room := self.rooms.get(code)) is not None
                and room.seat_of_player(player_id) is not None]

    def _index_seats(self, room: Room) -> None:
        """Remember which players hold the room's seats."""
        for player in room.core.seats.values():
            if player is not None:
                self._seats.setdefault(player, set()).add(room.code)

    def _presence_changed(self, event: PresenceChanged) -> None:
        """A room's seats may have changed: index the players holding them now."""
        room = self.rooms.get(event.room)
        if room is not None:
            self._index_seats(room)

    @staticmethod
    def validate(ruleset: str, settings: dict[str, Any]) -> dict[str, Any]:
        """The overrides checked and converted by ``shared.rulesets``, or BAD_SETTINGS naming the problem."""
        try:
            overrides = {name: coerce_setting(name, value) for name, value in settings.items()}
            make_settings(ruleset, overrides)
            match_log.new_match(ruleset, overrides, 0)
        except SettingsError as exc:
            raise RoomError("BAD_SETTINGS", str(exc)) from None
        except (ValueError, TypeError, ArithmeticError) as exc:
            raise RoomError("BAD_SETTINGS", f"these settings cannot start a match: {exc}") from None
        return {k: list(v) if isinstance(v, tuple) else v for k, v in overrides.items()}

    # ------------------------------------------------------------------ getting in
    async def create(self, member: Connection, ruleset: str, settings: dict[str, Any], private: bool,
                     rated: bool = False, spectator_chat: str = "room") -> Room:
        """Open a room; its creator takes the home seat (the room sends him RoomJoined)."""
        overrides = self.validate(ruleset, settings)
        room = await self._open(ruleset, overrides, private, rated=rated, spectator_chat=spectator_chat)
        await room.seat(member, "home")
        return room

    async def open_tables(self, tables: list[HeldTable]) -> list[Room]:
        """Rooms whose seats are held for two players each (a tournament round's tables), opened together: the
        settings checked once per ruleset, the rooms written in one transaction and registered in one update, their
        held seats indexed so a coach who reconnects is taken to his table at once."""
        checked: dict[tuple[str, str], dict[str, Any]] = {}
        rooms = []
        for table in tables:
            key = (table.ruleset, repr(sorted(table.overrides.items())))
            if key not in checked:
                checked[key] = self.validate(table.ruleset, table.overrides)
            rooms.append(await self._claim(table.ruleset, checked[key], True, rated=table.rated,
                                           reserved={"home": table.home, "away": table.away},
                                           spectator_chat="spectators"))
        statements = []
        for room in rooms:
            self.rooms[room.code] = room
            self._index_seats(room)
            statements += self.store.fenced(room.code, self.store.statements((room.core.row(),)))
        if statements:
            await self.store.write(statements)
        await self.registry.update_many([self.listing(room) for room in rooms])
        return rooms

    async def close_table(self, code: str) -> None:
        """Close a held room whose match never started (a tournament's table nobody played at): whoever is in it is
        told he left, and the room is forgotten here, in the registry and in the store."""
        room = self.rooms.get(code)
        if room is None or room.closed:
            return
        for connection in room.core.members():
            connection.room = None
            await connection.send(Left(code))
        await self._close(room)
        await self.store.write(self.store.fenced(code, [match_statements.delete_room(code)]))

    async def join(self, member: Connection, code: str) -> tuple[Room, Team]:
        """Take the free seat of a room - or one's own seat again (a returning coach is known by his player id)."""
        room = self.find(code)
        own = room.seat_of_player(member.player_id)
        if own is not None:
            await room.attach(member, own)
            return room, own
        free: list[Team] = [t for t in ("home", "away") if room.core.seats[t] is None]
        if not free:
            raise RoomError("ROOM_FULL", f"both seats of room {room.code} are taken; watch it instead")
        await room.seat(member, free[0])
        return room, free[0]

    async def watch(self, member: Connection, code: str) -> Room:
        """Watch a room (read-only)."""
        room = self.find(code)
        await room.watch(member)
        return room

    async def quick(self, member: Connection, ruleset: str | None, settings: dict[str, Any]) -> bool:
        """Queue for an opponent; True when this player was paired at once (both are told they left the queue -
        QueueStatus - and get a new rated public room: RoomJoined, from the room).

        The queue pairs by rating (``shared.matchmaking``: the closest first, each player's window widening while he
        waits, anyone compatible after the longest wait), now and again whenever two waiting players will next
        accept each other. Overrides are checked like CreateRoom's and need a named ruleset (they are validated
        against it, and "any ruleset" could pair them with one they do not fit).
        """
        if settings and ruleset is None:
            raise RoomError("BAD_SETTINGS", "name a ruleset to quick-match with setting overrides")
        overrides = self.validate(ruleset, settings) if ruleset is not None else {}
        rating = self._rating_of(member.player_id, ruleset or "standard") if self._rating_of else None
        await self.registry.join_queue(QueueEntry(player_id=member.player_id, ruleset=ruleset, overrides=overrides,
                                                  since_ms=self.clock.now_ms(),
                                                  rating=rating[0] if rating else DEFAULT_QUEUE_RATING))
        return member.player_id in await self.pair_queue()

    async def pair_queue(self) -> set[int]:
        """One pass over the quick-match queue: a room for every pair whose coaches are still here (the other one
        waits on), then a pass scheduled for when the next pair will accept each other. Returns who was seated."""
        result = await self.registry.take_pairs(self.clock.now_ms())
        seated: set[int] = set()
        for pairing in result.pairs:
            first, second = self._connection_of(pairing.first.player_id), self._connection_of(pairing.second.player_id)
            here = [(c, e) for c, e in ((first, pairing.first), (second, pairing.second))
                    if c is not None and c.room is None]
            away = [e for c, e in ((first, pairing.first), (second, pairing.second)) if c is None]
            fate = disposition(len(here), len(away), self.call_player is not None)
            if fate == "across" and await self._pair_across_nodes(pairing, here, away[0]):
                seated.update((pairing.first.player_id, pairing.second.player_id))
                continue
            if fate != "here":  # one left meanwhile (or his node is gone): the other waits on, from when he first asked
                for _, entry in here:
                    await self.registry.join_queue(entry)
                continue
            for connection, _ in here:
                await connection.send(QueueStatus(False, pairing.ruleset, 0))
            room = await self._open(pairing.ruleset, pairing.first.overrides, False, rated=True)
            await room.seat(here[0][0], "home")
            await room.seat(here[1][0], "away")
            seated.update((pairing.first.player_id, pairing.second.player_id))
        self.queued = await self.registry.waiting(None)
        if self.core.pass_wanted(result.next_pass_ms):
            self._rearm()
        return seated

    async def _pair_across_nodes(self, pairing: Pairing, here: list[tuple[Connection, QueueEntry]],
                                 away: QueueEntry) -> bool:
        """A pair whose second player waits on another node of the cluster: a rated public room here with both seats
        held, the player here seated, the other one sent here by his node (he is taken to his seat on arrival)."""
        names = PlayerRecords(self.store)
        reserved: dict[Team, tuple[int, str]] = {
            "home": (pairing.first.player_id, names.name(pairing.first.player_id)),
            "away": (pairing.second.player_id, names.name(pairing.second.player_id))}
        room = await self._open(pairing.ruleset, pairing.first.overrides, False, rated=True, reserved=reserved)
        self._index_seats(room)  # the other player is taken to his seat when he arrives
        assert self.call_player is not None
        if not await self.call_player(away, room.code):  # his node is gone: the room is forgotten
            await self._close(room)
            return False
        connection, entry = here[0]
        await connection.send(QueueStatus(False, pairing.ruleset, 0))
        await room.attach(connection, "home" if entry.player_id == pairing.first.player_id else "away")
        self.core.hold(room.code, entry, self.clock.now_ms())
        self._held_here[room.code] = connection
        self._rearm()
        return True

    async def _give_up(self, seat: HeldSeat) -> None:
        """The player sent over from another node had ``held_seat_wait_ms`` to arrive; if he never did, the room is
        given up and the player here is told so and queued again, with his first wait's start (he keeps his place by
        time)."""
        present = self._held_here.pop(seat.room, None)
        room = self.rooms.get(seat.room)
        if room is None or present is None or not LobbyCore.give_up(
                closed=room.closed, waiting=room.core.phase == "waiting", still_there=present.room is room):
            return  # he came (the match started), or the player here left or was moved on
        entry = seat.entry
        log.info("room %s: the opponent sent from another node did not arrive; back to the queue", room.code,
                 extra={"room": room.code})
        await room.detach(present)
        await present.send(Left(room.code))
        await present.send(Notice("OPPONENT_MISSING", "your opponent did not arrive: you are back in the queue"))
        await self._close(room)
        await self.registry.join_queue(entry)
        self.queued = await self.registry.waiting(None)
        await present.send(QueueStatus(True, entry.ruleset, await self.registry.waiting(entry.ruleset)))
        await self.pair_queue()

    # ------------------------------------------------------------------ the timer
    @property
    def held_seat_wait_ms(self) -> int:
        """How long a seat held for a player sent from another node waits for him (set by ``server.cluster.node``)."""
        return self.core.held_seat_wait_ms

    @held_seat_wait_ms.setter
    def held_seat_wait_ms(self, ms: int) -> None:
        self.core.held_seat_wait_ms = ms

    def _rearm(self) -> None:
        """Make sure the lobby's timer wakes by the core's next deadline (a sleeping timer due no later is kept; a busy
        one looks again when done; only an earlier deadline replaces it)."""
        wake = self.core.next_wake()
        timer = self._timer
        if timer is not None and not timer.done():
            if self._timer_wake is None or wake is None or self._timer_wake <= wake:
                return
            timer.cancel()
        if wake is None:
            return
        self._timer_wake = wake
        self._timer = asyncio.get_running_loop().create_task(self._run_timer())

    async def _run_timer(self) -> None:
        """Sleep until each deadline and carry out what is due: held rooms given up, then the queue pass."""
        while (wake := self.core.next_wake()) is not None:
            self._timer_wake = wake
            await self.clock.sleep_until(wake)
            self._timer_wake = None
            due = self.core.due(self.clock.now_ms())
            for seat in due.given_up:
                try:
                    await self._give_up(seat)
                except Exception:  # one room's failure must not stop the others, nor the passes
                    log.exception("giving up room %s failed", seat.room)
            if due.queue_pass:
                try:
                    await self.pair_queue()
                except Exception:  # a failed pass must not stop the next ones
                    log.exception("a quick-match pass failed")

    def stop(self) -> None:
        """The server stops: no more queue passes, no held seat given up."""
        if self._timer is not None:
            self._timer.cancel()

    async def cancel_quick(self, member: Connection) -> bool:
        """Leave the quick-match queue."""
        left = await self.registry.leave_queue(member.player_id)
        if left:
            self.queued = await self.registry.waiting(None)
        return left

    async def waiting(self, ruleset: str | None) -> int:
        """How many wait in the quick-match queue for ``ruleset`` (None: all)."""
        return await self.registry.waiting(ruleset)

    async def public_rooms(self) -> tuple[RoomInfo, ...]:
        """The public rooms, newest first: ours as they are now, others' as their owners last listed them."""
        listings = await self.registry.public(LISTED_ROOMS)
        out = []
        for listing in listings:
            room = self.rooms.get(listing.code)
            if room is not None and not room.closed:
                out.append(room.info())
            elif room is None:
                out.append(listing.info)
        return tuple(out)

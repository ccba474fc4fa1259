"""A room as the server runs it: the pure ``RoomCore`` with a lock, a timer, the store, the worker pool and sockets.

Why so thin: every rule of a room - seats, versions, D3, clock deadlines, forfeit, rematch - is in
``server.rooms.room_core``, pure and tested without I/O. This shell does only what needs the event loop: one lock so a
room handles one request or clock event at a time, in order; the timer task that wakes at the core's next deadline;
resolving entries in the worker pool (physics never blocks the loop); and carrying out the core's effects in order -
writing to the store before anything that follows (nothing is broadcast before it is durable, and the core changes
only once its write is done: ``Persist.then``), sending frames through ``server.wire.deliver``, publishing lifecycle
events. An engine failure refuses the request without changing the room; a store that is lost stops it; a write the
cluster's store refuses because another node owns the room now stops it here at once (``RoomLost``: the node sends
its connections on).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from server import logs
from server.clock import WallClock
from server.lifecycle import EventBus, RoomLost
from server.rooms.resolve import PromptInfo, Resolved
from server.rooms.room_core import (
    Broadcast,
    Effect,
    EntryPlan,
    LiveMatch,
    Member,
    Persist,
    Publish,
    RoomCore,
    RoomError,
)
from server.rooms.workers import Resolver
from server.store.match_records import Record
from server.store.store_port import Health, StaleLease, Store, StoreUnavailable
from server.tokens import new_seed
from server.wire import deliver, outgoing
from shared.model import Action, Team
from shared.protocol import Clocks, RoomInfo, ServerMessage, Snapshot
from shared.rulesets import Settings

log = logging.getLogger(__name__)

__all__ = ["Connection", "Member", "Room", "RoomError"]


class Connection(Member, Protocol):
    """A member the server can write to: its websocket, and the room it is in (the room sets it)."""

    ws: Any
    room: Room | None

    async def send(self, message: ServerMessage) -> None:
        """Send one message to this connection only."""
        ...


class Room:
    """One room on this server (see the module docstring). Created by the lobby, restored by recovery."""

    def __init__(self, core: RoomCore[Connection], *, store: Store, resolver: Resolver, clock: WallClock, bus: EventBus,
                 new_match_id: Callable[[], str],
                 rating_of: Callable[[int, str], tuple[int, bool] | None] | None = None) -> None:
        """``rating_of(player, ruleset)``: a coach's rating as shown beside his name (``server.players``)."""
        self.core = core
        self._rating_of = rating_of
        self.store = store
        self.resolver = resolver
        self.clock = clock
        self.bus = bus
        self._new_match_id = new_match_id
        self.lock = asyncio.Lock()
        self._timer: asyncio.Task[None] | None = None
        self._timer_sleeping = False
        self._sleep_deadline = 0  # the wall deadline the sleeping timer wakes at
        self._closing = False  # set at once by close(); the core closes once the lock is free
        self._presence_task: asyncio.Task[None] | None = None
        self.relay: Callable[[bytes], None] | None = None  # a cluster: every frame for everyone, to other nodes too

    # ------------------------------------------------------------------ views
    @property
    def code(self) -> str:
        """The room's code."""
        return self.core.code

    @property
    def ruleset(self) -> str:
        """The room's ruleset."""
        return self.core.ruleset

    @property
    def private(self) -> bool:
        """True when the room is not listed."""
        return self.core.private

    @property
    def settings(self) -> Settings:
        """The room's settings (its ruleset with its overrides)."""
        return self.core.settings

    @property
    def match(self) -> LiveMatch:
        """The match being played (or last played) in the room."""
        return self.core.match

    @property
    def version(self) -> int:
        """The version of the room's latest broadcast."""
        return self.core.version

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or ``ended``."""
        return self.core.status

    @property
    def closed(self) -> bool:
        """True once the room is closing or has closed."""
        return self._closing or self.core.phase == "closed"

    def seat_of_player(self, player_id: int) -> Team | None:
        """The seat a player holds, connected or not."""
        return self.core.seat_of_player(player_id)

    def snapshot(self) -> Snapshot:
        """The whole state of the room now."""
        return self.core.snapshot(self.clock.now_ms())

    def clocks(self) -> Clocks:
        """The clocks now."""
        return self.core.clocks(self.clock.now_ms())

    def prompts(self) -> tuple[PromptInfo, ...]:
        """The choices awaited now."""
        return self.core.prompts(self.clock.now_ms())

    def info(self) -> RoomInfo:
        """The room's line in the lobby's list."""
        return self.core.info(self.clock.now_ms())

    # ------------------------------------------------------------------ carrying out effects
    async def _carry_out(self, effects: list[Effect]) -> None:
        """Carry out the core's effects in order (lock held): a write, then what the core does once it is written."""
        for effect in effects:
            if isinstance(effect, Persist):
                await self._persist(effect.records)
                await self._carry_out(effect.then(self._now()))
            elif isinstance(effect, Broadcast):
                deliver(effect.to, effect.frame)
                if effect.everyone and self.relay is not None:
                    self.relay(effect.frame)
            elif isinstance(effect, Publish):
                self.bus.publish(effect.event)

    async def _persist(self, records: tuple[Record, ...]) -> None:
        """Write the records durably; a store that stopped (shutdown while failing, or lost) stops the room, and so
        does a refusal because another node owns the room now - at once, before anything else reaches it."""
        try:
            await self.store.write(self.store.fenced(self.code, self.store.statements(records)))
        except StaleLease as exc:
            self._closing = True
            self.core.close()  # the lock is held: nothing else reaches the core before it is closed
            log.warning("room %s: the store refused this node's write (%s); the room stops here", self.code, exc)
            self.bus.publish(RoomLost(room=self.code))
            raise RoomError("ROOM_NOT_FOUND", f"room {self.code} is played on another server now; nothing changed: "
                                              "you are sent there") from None
        except StoreUnavailable as exc:
            self.core.store_ok = False
            log.error("room %s: could not save (%s); the room stops", self.code, exc)
            raise RoomError("STORE_UNAVAILABLE", f"the server could not save this: {exc}") from None
        except Exception:  # a statement the store refused for its own data: a bug; the room stays as it was
            log.exception("room %s: the store refused the write of %s", self.code, [type(r).__name__ for r in records])
            raise RoomError("INTERNAL", "the server could not save this; nothing changed") from None

    def _now(self) -> int:
        """The wall clock in ms."""
        return self.clock.now_ms()

    # ------------------------------------------------------------------ seats and spectators
    async def seat(self, member: Connection, team: Team) -> None:
        """Give ``member`` (a new coach) the free ``team`` seat; starts the match when both are taken."""
        async with self.lock:
            self._connect(member, team)
            await self._carry_out(self.core.seat(member, team, self._now()))
            self._reschedule()

    async def attach(self, member: Connection, team: Team) -> None:
        """Connect ``member`` to his seat (a return); RoomJoined first, the clocks run again once nobody is away."""
        async with self.lock:
            self._connect(member, team)
            await self._carry_out(self.core.attach(member, team, self._now()))
            self._reschedule()

    def _connect(self, member: Connection, team: Team) -> None:
        """``member`` is in this room now; an older connection of the same seat is not. His rating goes beside
        his name."""
        previous = self.core.connected[team]
        if previous is not None and previous is not member:
            previous.room = None
        member.room = self
        self.refresh_rating(member.player_id)

    def refresh_rating(self, player_id: int) -> None:
        """Look up a coach's rating again (after he joined, or after a rated match)."""
        if self._rating_of is None:
            return
        rating = self._rating_of(player_id, self.core.ruleset)
        if rating is None:
            self.core.ratings.pop(player_id, None)
        else:
            self.core.ratings[player_id] = rating

    def tell(self, message: ServerMessage) -> None:
        """Send a message to everyone in the room now (a service's news: ratings, tournaments)."""
        deliver(self.core.members(), outgoing(message))

    async def watch(self, member: Connection) -> None:
        """Add a spectator (read-only); the spectators' count goes out coalesced."""
        async with self.lock:
            member.room = self
            await self._carry_out(self.core.watch(member, self._now()))
        self._presence_soon()

    def _presence_soon(self) -> None:
        """Make sure the coalesced Presence goes out when the core says it is due."""
        if self.core.presence_due is not None and (self._presence_task is None or self._presence_task.done()):
            self._presence_task = asyncio.get_running_loop().create_task(self._presence_later())

    async def _presence_later(self) -> None:
        """Wait until the coalesced Presence is due and send it."""
        with logs.bind(room=self.code, match=self.core.match.id, player=None):  # not the player who started it
            while not self.closed and self.core.presence_due is not None:
                await self.clock.sleep_until(self.core.presence_due)
                async with self.lock:
                    await self._carry_out(self.core.flush_presence(self._now()))

    async def detach(self, member: Connection) -> bool:
        """``member``'s connection went away (the seat waits for him); True when the room may close now."""
        member.room = None
        async with self.lock:
            await self._carry_out(self.core.detach(member, self._now()))
            self._reschedule()
            idle = self.core.idle() and not self.closed
        self._presence_soon()
        return idle

    async def leave(self, member: Connection) -> bool:
        """Leave on purpose: a coach in a running match resigns it, then the seat is given up. True: may close."""
        async with self.lock:
            plan = self.core.plan_resign(member, self._now())
            if plan is not None:
                await self._run(plan)
        return await self.detach(member)

    # ------------------------------------------------------------------ the match
    async def act(self, member: Connection, action: Action, version: int) -> None:
        """A coach's action: checked by the core, resolved in a worker, logged, broadcast."""
        self.core.ensure_store()  # before the lock: an entry waiting for a failed disk holds it
        async with self.lock:
            plan = self.core.plan_action(member, action, version, self._now())
            resolved = await self._run(plan)
        if not resolved.accepted and resolved.error is not None:
            raise RoomError(resolved.error.code, resolved.error.message)

    async def _run(self, plan: EntryPlan) -> Resolved:
        """Resolve, persist and broadcast one entry (lock held); an engine failure changes nothing."""
        try:
            resolved = await self.resolver.resolve(plan.position, plan.entry, plan.stamp)
        except Exception:  # an engine bug refuses the request; the room stays as it was
            log.exception("room %s: the engine failed on %s", self.code, plan.entry)
            raise RoomError("INTERNAL", "the server failed to apply this action; nothing changed") from None
        if resolved.broken is not None:
            log.error("room %s: cannot encode the outcome of %s: %s", self.code, plan.entry, resolved.broken)
        effects = self.core.commit(plan, resolved)
        await self._carry_out(effects)
        if self.core.status == "ended" and effects:
            position = self.core.match.position
            result = position.result
            log.info("room %s: match %s ended %d-%d, %s (%s)", self.code, self.core.match.id, *position.score,
                     result.winner if result else None, result.reason if result else "")
        self._reschedule()
        return resolved

    def restore(self, state: LiveMatch, seats: dict[Team, int | None], names: dict[int, str], actions: int) -> None:
        """Recovery: take over a replayed match; both coaches are away until they reconnect (the grace runs)."""
        self.core.restore(state, seats, names, self._now(), actions)
        self._reschedule()

    async def resync(self, member: Connection, since: int) -> None:
        """What ``member`` missed after ``since`` (see ``RoomCore.resync``)."""
        async with self.lock:
            await self._carry_out(self.core.resync(member, since, self._now()))

    async def ask_rematch(self, member: Connection) -> None:
        """After the end: both coaches ask, and a new match starts with the seats swapped."""
        async with self.lock:
            await self._carry_out(self.core.ask_rematch(member, self._now(), self._new_match_id(), new_seed()))
            self._reschedule()

    async def chat(self, member: Connection, text: str | None, emote: str | None) -> None:
        """A line of chat: straight to the room's members (not part of the match: no lock, no store)."""
        await self._carry_out(self.core.chat(member, text, emote))

    def silence(self, player_id: int, silenced: bool = True) -> None:
        """The organiser silences a player in this room (or lets him speak again)."""
        if silenced:
            self.core.silenced.add(player_id)
        else:
            self.core.silenced.discard(player_id)

    async def store_changed(self, health: Health) -> None:
        """The store stopped or started saving moves: the core pauses or resumes and tells everyone."""
        if self.closed:
            return
        effects = self.core.store_changed(health.ok, health.lost, health.reason, self._now())
        await self._carry_out(effects)  # only frames: nothing here writes
        self._reschedule()

    def reschedule(self) -> None:
        """Make the timer follow a change made to the room from outside (tests, tools)."""
        self._reschedule()

    # ------------------------------------------------------------------ the timer
    def _reschedule(self) -> None:
        """Make sure a timer wakes by the next clock event.

        A sleeping timer that wakes no later than that is kept: it wakes, finds nothing due and sleeps on to the new
        deadline. Only an earlier deadline cancels it. Why: nearly every move pushes the deadline later, and
        cancelling and creating a task per move cost loop time and left a CancelledError cycle per move for the
        garbage collector, whose pauses showed in the benchmark's p99.
        """
        timer = self._timer
        if timer is not None and not timer.done() and self._timer_sleeping:
            if not self.closed:
                wake = self.core.next_wake()
                if wake is None or self._sleep_deadline <= wake:
                    return
            timer.cancel()
        if self.closed:
            return
        self._timer = asyncio.get_running_loop().create_task(self._run_timer())

    async def _run_timer(self) -> None:
        """Sleep until the next clock event and apply it, unless the room changed meanwhile."""
        with logs.bind(room=self.code, match=self.core.match.id, player=None):  # not the player who started it
            await self._timer_loop()

    async def _timer_loop(self) -> None:
        """The timer's body (see ``_run_timer``)."""
        me = asyncio.current_task()
        while not self.closed:
            wake = self.core.next_wake()
            if wake is None:
                return
            self._timer_sleeping, self._sleep_deadline = True, wake
            try:
                await self.clock.sleep_until(wake)
            finally:
                self._timer_sleeping = False
            async with self.lock:
                if self._timer is not me or self.closed:
                    return
                plan = self.core.due(self._now())
                if plan is None:
                    continue
                try:
                    await self._run(plan)
                except RoomError:
                    if not self.closed:  # a room that stopped here (lost to another node) has no next deadline
                        log.error("room %s: a clock event failed; retrying at the next deadline", self.code)
                return  # _run started the next timer

    async def close(self) -> None:
        """Stop the room's timer (shutdown, or empty); waits for an entry in progress to finish."""
        self._closing = True
        if self._presence_task is not None:
            self._presence_task.cancel()
        async with self.lock:
            self.core.close()
            if self._timer is not None and not self._timer.done():
                self._timer.cancel()

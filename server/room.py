"""A room: two seats, its spectators, one match at a time, its clocks and its versioned broadcasts.

Why this is where time lives: the engine is pure, so the room is the only place that measures time
(through an injectable ``Clock``) and turns it into log entries - the period clock's elapsed time before
each action, part ends nobody acted on, move-clock timeouts, the documented default of a choice nobody
made, and the forfeit of a coach who stayed away past the grace period. Every entry goes through
``Engine.apply`` (physics in a worker process), is committed to the store, and only then is broadcast
with the next version. One lock makes a room handle one entry at a time, in order; nothing a client
sends reaches another room, and an engine failure refuses the request without changing the room.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from typing import Any

import websockets

from server import engine, moves
from server.clock import Clock
from server.constants import HISTORY_SIZE
from server.history import History
from server.match_clock import MatchClock
from server.store import Health, LogEntry, RoomRow, Store, StoreUnavailable
from server.tokens import new_seed
from server.workers import Engine
from shared import match as rules
from shared.model import Action, Position, Team, other
from shared.protocol import (
    Clocks,
    ClockUpdate,
    Notice,
    Presence,
    RematchOffered,
    RoomJoined,
    Score,
    SeatInfo,
    Seats,
    Snapshot,
    encode,
)
from shared.rulesets import Settings, make_settings

log = logging.getLogger(__name__)

TEAMS: tuple[Team, Team] = ("home", "away")
RESIGN_REASON = "RESIGNED"


class RoomError(Exception):
    """A request the room refuses: an Error code of the protocol and a message a person understands."""

    def __init__(self, code: str, message: str, retry_ms: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_ms = retry_ms  # the Error's retry_ms: how long to wait before the same request can succeed


class Member:
    """What a room needs from a connection: its websocket, its player and a way to send one message."""

    ws: Any
    player_id: int
    name: str
    token: str  # the player's token, sent back in RoomJoined (it reclaims his seat)
    room: Room | None

    async def send(self, message: object) -> None:  # pragma: no cover - implemented by Session
        """Send one message to this connection only."""
        raise NotImplementedError


@dataclasses.dataclass(slots=True)
class MatchState:
    """The match being played in a room: its log length, where its versions start, its clocks."""

    id: str
    seed: int
    initial: Position
    position: Position
    started: bool = False
    log_len: int = 0
    version_base: int = 0
    turn_used: int = 0  # clock time used since the team to move got the turn (the move clock)
    absent: dict[Team, int] = dataclasses.field(default_factory=dict)  # team -> wall ms it dropped
    moving_until: int = 0  # wall ms the clients' playback of the last move ends (D3: no input before)


class Room:
    """One room; see the module docstring. Created by the lobby, restored by recovery."""

    def __init__(
        self,
        code: str,
        ruleset: str,
        overrides: dict[str, Any],
        private: bool,
        *,
        store: Store,
        engine_: Engine,
        clock: Clock,
        new_match_id: Callable[[], str],
        on_empty: Callable[[Room], None] | None = None,
    ) -> None:
        self.code = code
        self.ruleset = ruleset
        self.overrides = dict(overrides)
        self.settings: Settings = make_settings(ruleset, overrides)
        self.private = private
        self.store = store
        self.engine = engine_
        self.clock = clock
        self._new_match_id = new_match_id
        self._on_empty = on_empty
        self.seats: dict[Team, int | None] = {"home": None, "away": None}
        self.names: dict[int, str] = {}
        self.connected: dict[Team, Member | None] = {"home": None, "away": None}
        self.spectators: set[Member] = set()
        self.history: History[bytes] = History(HISTORY_SIZE)
        self.lock = asyncio.Lock()
        self.mclock = MatchClock(clock)
        self.rematch: set[Team] = set()
        self._timer: asyncio.Task[None] | None = None
        self._timer_sleeping = False
        self._sleep_deadline = 0  # the wall deadline the sleeping timer wakes at
        self.closed = False
        seed = new_seed()
        self.match = MatchState(self._new_match_id(), seed, *(2 * (engine.new_match(ruleset, overrides, seed),)))

    # ------------------------------------------------------------------ views
    @property
    def version(self) -> int:
        """The version of the room's latest broadcast."""
        return self.history.version

    @property
    def status(self) -> str:
        """``waiting`` for a second coach, ``playing``, or ``ended``."""
        if not self.match.started:
            return "waiting"
        return "ended" if self.match.position.result is not None else "playing"

    def score(self) -> Score | None:
        """The running or finished match's score for the room list (None before the match starts)."""
        return Score(*self.match.position.score) if self.match.started else None

    def part_name(self) -> str | None:
        """The part being played, for the room list (``period 2``, ``break``), None before the match starts."""
        if not self.match.started:
            return None
        part = self.match.position.part
        return part.kind if part.kind in ("break", "shootout") else f"{part.kind} {part.number}"

    def team_of(self, member: Member) -> Team | None:
        """The seat ``member`` holds in this room, if any."""
        for team in TEAMS:
            if self.connected[team] is member:
                return team
        return None

    def seat_of_player(self, player_id: int) -> Team | None:
        """The seat a player holds, connected or not."""
        for team in TEAMS:
            if self.seats[team] == player_id:
                return team
        return None

    def seats_info(self) -> Seats:
        """Who holds each seat and whether they are connected."""
        infos = []
        for team in TEAMS:
            pid = self.seats[team]
            if pid is None:
                infos.append(None)
                continue
            since = self.match.absent.get(team)
            grace = None
            if since is not None and self.match.started and self.match.position.result is None:
                grace = max(0, since + self.settings.disconnect_grace_ms - self.clock.now_ms())
            infos.append(SeatInfo(self.names.get(pid, "?"), self.connected[team] is not None, grace))
        return Seats(*infos)

    def members(self) -> list[Member]:
        """Every connection in the room: coaches first, then spectators."""
        return [m for m in self.connected.values() if m is not None] + list(self.spectators)

    def prompts(self) -> tuple[dict[str, Any], ...]:
        """The choices awaited now, as protocol dicts (kind, team, options, default action, ms_left)."""
        return moves.prompts_of(self.match.position, self.settings, self._ms_left)

    def _ms_left(self, deadline: int) -> int:
        """Wall ms from now until the clock reaches ``deadline`` (clock ms after the last entry), as the timer sees it.

        Why the clock and not the wall: the room's timer applies a default when the match clock reaches the
        prompt's deadline, and that clock stops during a playback and while paused. Running, this is the wall time
        to that moment (playback included); paused (an absent coach), the clock time still left, which the
        client shows frozen while the Clocks say ``paused``.
        """
        if not self.match.started:
            return deadline
        wall = self.mclock.wall_deadline(deadline)
        if wall is None:
            return max(0, deadline - self.mclock.used())
        return max(0, wall - self.clock.now_ms())

    def clocks(self) -> Clocks:
        """The clocks as they stand now (clients count down locally from this)."""
        position = self.match.position
        used = self.mclock.used() if self.match.started else 0
        part_ms = max(0, position.part.clock_ms - used)
        move_ms = engine.move_ms_left(self.settings, position, self.match.turn_used, used)
        paused = not self.mclock.running or position.result is not None
        return Clocks(part_ms, move_ms, position.to_move, paused)

    def snapshot(self) -> Snapshot:
        """The whole state of the room at its current version."""
        return Snapshot(
            self.code,
            self.version,
            self.match.id,
            self.match.position,
            self.clocks(),
            self.prompts(),
            self.seats_info(),
            len(self.spectators),
        )

    def row(self) -> RoomRow:
        """The room as stored."""
        return RoomRow(
            self.code,
            self.ruleset,
            self.overrides,
            self.private,
            self.seats["home"],
            self.seats["away"],
            self.match.id,
        )

    # ------------------------------------------------------------------ sending
    def _broadcast(self, message: object) -> None:
        """Send one message to everyone in the room (encoded once, websockets.broadcast)."""
        websockets.broadcast([m.ws for m in self.members()], encode(message))

    def _broadcast_versioned(self, make: Callable[[int], object]) -> None:
        """Give the next version to ``make(version)``, keep the frame for resync, send it to everyone."""
        frames: list[bytes] = []

        def build(version: int) -> bytes:
            frames.append(encode(make(version)))
            return frames[-1]

        self.history.append(build)
        websockets.broadcast([m.ws for m in self.members()], frames[0])

    def presence(self) -> None:
        """Tell everyone who is in the room now."""
        self._broadcast(Presence(self.code, self.seats_info(), len(self.spectators)))

    async def resync(self, member: Member, since: int) -> None:
        """Send ``member`` what it missed after ``since``: the kept messages, or a full Snapshot."""
        missing = self.history.since(since)
        if missing is None:
            await member.send(self.snapshot())
            return
        for frame in missing:
            await member.ws.send(frame)

    # ------------------------------------------------------------------ seats and spectators
    async def seat(self, member: Member, team: Team) -> None:
        """Give ``member`` (a new coach) the free ``team`` seat; starts the match when both are taken."""
        self.seats[team] = member.player_id
        self.names[member.player_id] = member.name
        await self.attach(member, team)

    async def attach(self, member: Member, team: Team) -> None:
        """Connect ``member`` to its seat (first join or reconnect); the clock runs again once nobody is away.

        ``RoomJoined`` is the first message a connection gets about a room: it is sent before the member joins the
        broadcasts, so what follows (the match's first Snapshot, Presence) comes after it, in version order.
        """
        async with self.lock:
            previous = self.connected[team]
            await member.send(RoomJoined(self.code, team, member.token, self.snapshot()))
            self.connected[team] = member
            member.room = self
            if previous is not None and previous is not member:
                previous.room = None
            self.match.absent.pop(team, None)
            if not self.match.started and all(self.seats[t] is not None for t in TEAMS):
                await self._start_match()
            elif self._clock_may_run():
                log.info("room %s: %s coach back, clocks running", self.code, team)
                self.mclock.resume()
                self._reschedule()
                self._broadcast(ClockUpdate(self.code, self.clocks()))
            self.presence()

    async def watch(self, member: Member) -> None:
        """Add a spectator (read-only): RoomJoined first, then he is one of the room's broadcasts."""
        await member.send(RoomJoined(self.code, "spectator", None, self.snapshot()))
        self.spectators.add(member)
        member.room = self
        self.presence()

    async def detach(self, member: Member) -> None:
        """``member``'s connection went away: a coach's seat waits for him (grace), a spectator just leaves."""
        member.room = None
        if member in self.spectators:
            self.spectators.discard(member)
            self.presence()
            self._maybe_empty()
            return
        team = self.team_of(member)
        if team is None:
            return
        async with self.lock:
            if self.connected[team] is not member:
                return
            self.connected[team] = None
            if self.match.started and self.match.position.result is None:
                log.info("room %s: %s coach away, clocks paused for the grace period", self.code, team)
                self.match.absent[team] = self.clock.now_ms()
                self.mclock.pause()
                self._reschedule()
                self._broadcast(ClockUpdate(self.code, self.clocks()))
            elif not self.match.started:
                self.seats[team] = None  # nobody is waiting on a seat that was never played
            self.presence()
        self._maybe_empty()

    async def leave(self, member: Member) -> None:
        """Leave on purpose: a coach in a running match resigns it (Leave), then the seat is given up."""
        team = self.team_of(member)
        if team is not None and self.match.started and self.match.position.result is None:
            async with self.lock:
                await self._run_entry(LogEntry(self.match.log_len, "resign", team, None, self.mclock.used()), team)
        await self.detach(member)

    def _maybe_empty(self) -> None:
        """Tell the lobby when nobody is left in a room that has no running match."""
        if not self.members() and self.status != "playing" and self._on_empty is not None:
            self._on_empty(self)

    # ------------------------------------------------------------------ the match
    async def _start_match(self) -> None:
        """Both seats are taken: store the match, then broadcast its first Snapshot (lock held)."""
        state = self.match
        state.version_base = self.version + 1
        await self.store.write(
            [
                Store.add_match(
                    state.id,
                    self.code,
                    state.seed,
                    self.ruleset,
                    self.overrides,
                    engine.position_json(state.initial),
                    self.seats["home"],  # type: ignore[arg-type]
                    self.seats["away"],  # type: ignore[arg-type]
                    state.version_base,
                ),
                Store.save_room(self.row()),
            ]
        )
        state.started = True
        home, away = (self.names.get(self.seats[t] or 0, "?") for t in TEAMS)
        log.info("room %s: match %s started (%s), %s vs %s", self.code, state.id, self.ruleset, home, away)
        absent = [t for t in TEAMS if self.connected[t] is None]
        for team in absent:
            state.absent[team] = self.clock.now_ms()
        if self._clock_may_run():
            self.mclock.resume()
        self._broadcast_versioned(lambda v: dataclasses.replace(self.snapshot(), version=v))
        self._reschedule()

    def _clock_may_run(self) -> bool:
        """The match clock runs only in a running match with both coaches present and a store that saves moves."""
        started = self.match.started and self.match.position.result is None
        return started and not self.match.absent and self.store.health.ok

    def store_changed(self, health: Health) -> None:
        """The store stopped or started saving moves: pause or resume the match, and tell everyone in the room.

        Why pause: no move, clock event or forfeit can be acknowledged while nothing can be written, so the clocks
        must not run either - a coach must not lose on time to a full disk. Nothing acknowledged is lost; an entry
        that was being written when the disk failed is committed when it recovers.
        """
        if self.closed:
            return
        if health.ok:
            if self._clock_may_run():
                self.mclock.resume()
            notice = Notice("PLAY_RESUMED", "the server saves moves again: play goes on")
        else:
            self.mclock.pause()
            what = "the operator must restart the server" if health.lost else "play resumes when it can again"
            notice = Notice("PLAY_PAUSED", f"the server cannot save moves ({health.reason}): the clocks are "
                                           f"stopped and nothing is lost; {what}")
        self._reschedule()
        self._broadcast(notice)
        if self.match.started:
            self._broadcast(ClockUpdate(self.code, self.clocks()))

    def restore(self, state: MatchState, seats: dict[Team, int | None], names: dict[int, str]) -> None:
        """Recovery: take over a replayed match; both coaches are away until they reconnect (grace runs)."""
        self.match = state
        self.seats = dict(seats)
        self.names.update(names)
        self.history = History(HISTORY_SIZE, state.version_base + state.log_len)
        if state.started and state.position.result is None:
            now = self.clock.now_ms()
            state.absent = {t: now for t in TEAMS}
            self._reschedule()

    async def act(self, member: Member, action: Action, version: int) -> None:
        """A coach's action: checked against the seat and the version, applied, logged, broadcast."""
        team = self.team_of(member)
        if team is None:
            raise RoomError("NOT_A_PLAYER", "spectators are read-only: only a seated coach may act")
        if action.team != team:
            raise RoomError("NOT_YOUR_TEAM", f"you coach {team}, the action names {action.team}")
        self._store_saves()  # before the lock: an entry waiting for a failed disk holds it
        async with self.lock:
            if not self.match.started:
                raise RoomError("ACTION_NOT_ALLOWED", "the match starts when the second coach joins")
            if self.match.position.result is not None:
                raise RoomError("MATCH_OVER", "the match is over")
            if version != self.version:
                newer = "never sent" if version > self.version else "older"
                raise RoomError("STALE_VERSION", f"the room is at version {self.version}; the action was chosen on "
                                                 f"version {version} ({newer}): resync and decide again")
            self._playable()
            self._board_at_rest()
            entry = LogEntry(self.match.log_len, "action", team, engine.action_json(action), self.mclock.used())
            resolved = await self._run_entry(entry, team)
        if not resolved.accepted and resolved.error is not None:
            raise RoomError(resolved.error.code, resolved.error.message)

    def _playable(self) -> None:
        """Refuse input while the match cannot go on: a coach is away (product decision 5: the match waits for him,
        and so does his opponent), the store cannot save moves, or it is the break (III.5; retry when it ends)."""
        if self.match.absent:
            team = min(self.match.absent)
            raise RoomError("ACTION_NOT_ALLOWED", f"the match is paused while {self._coach(team)} is away; it "
                                                  "goes on when he is back (or he forfeits when the grace runs out)")
        self._store_saves()
        part = self.match.position.part
        if part.kind == "break":
            wall = self.mclock.wall_deadline(part.clock_ms)
            left = None if wall is None else max(0, wall - self.clock.now_ms())
            raise RoomError("ACTION_NOT_ALLOWED", "it is the break between periods (III.5): no moves until it ends",
                            retry_ms=left)

    def _store_saves(self) -> None:
        """STORE_UNAVAILABLE while the store cannot commit: the action would wait for a disk that failed."""
        if not self.store.health.ok:
            raise RoomError("STORE_UNAVAILABLE", "the server cannot save moves right now: play is paused, nothing "
                                                 "is lost; a Notice says when it resumes")

    def _coach(self, team: Team) -> str:
        """The name of ``team``'s coach (or the team)."""
        pid = self.seats[team]
        return self.names.get(pid, team) if pid is not None else team

    def _board_at_rest(self) -> None:
        """D3: refuse any input while the clients still play the last move back (its duration after its broadcast).

        Why wall time and not the move's record: the move is resolved at once, but RULES.md D3 makes input
        illegal until the bodies are at rest (D4), which is what every client shows until ``duration_ms``
        after the MovePlayed. An early input is discarded, not queued (VII.3.b [DIGITAL]); nothing changes.
        """
        left = self.match.moving_until - self.clock.now_ms()
        if left > 0:
            message = f"the board is still moving (D3): wait {left} ms for the move to end"
            raise RoomError("ACTION_NOT_ALLOWED", message, retry_ms=left)

    async def _run_entry(self, entry: LogEntry, team: Team) -> moves.Resolved:
        """Resolve, persist and broadcast one entry (lock held). A refused action is logged only for its clock part.

        The worker builds the broadcast before anything is written: an outcome that cannot be encoded
        refuses the entry, so the log, the room and what clients saw never disagree.
        """
        state = self.match
        stamp = moves.Stamp(
            self.code,
            state.id,
            self.version + 1,
            team,
            state.turn_used,
            bool(state.absent),
            self.settings,
        )
        try:
            resolved = await self.engine.resolve(state.position, entry, stamp)
        except Exception:  # an engine bug refuses the request; the room stays as it was
            log.exception("room %s: the engine failed on %s", self.code, entry)
            raise RoomError("INTERNAL", "the server failed to apply this action; nothing changed") from None
        if resolved.broken is not None:
            log.error("room %s: cannot encode the outcome of %s: %s", self.code, entry, resolved.broken)
            raise RoomError("INTERNAL", "the server could not send this move; nothing changed")
        if resolved.entry is not None:
            await self._commit(resolved, entry.elapsed_ms)
        return resolved

    async def _commit(self, resolved: moves.Resolved, used: int) -> None:
        """Write the entry (and the match's end) durably, then update the room and send the frames (lock held)."""
        state = self.match
        entry = resolved.entry
        assert entry is not None and resolved.frame is not None
        result = resolved.position.result
        statements = [Store.append_log(state.id, entry)]
        if resolved.checkpoint is not None:
            statements.append(Store.save_checkpoint(state.id, resolved.checkpoint))
        if result is not None:
            ending = {"winner": result.winner, "reason": result.reason}
            statements.append(Store.finish_match(state.id, ending, resolved.position.score))
        try:
            await self.store.write(statements)
        except StoreUnavailable as exc:  # the server stops while the disk fails, or the file is gone: not applied
            raise RoomError("STORE_UNAVAILABLE", f"the server could not save this: {exc}") from None
        state.position = resolved.position
        state.log_len += 1
        state.turn_used = resolved.turn_used
        state.moving_until = max(state.moving_until, self.clock.now_ms() + resolved.duration_ms)
        self.mclock.committed(used, entry.elapsed_ms, resolved.duration_ms)
        if result is not None:
            self.mclock.pause()
            log.info(
                "room %s: match %s ended %d-%d, %s (%s)",
                self.code,
                state.id,
                *resolved.position.score,
                result.winner,
                result.reason,
            )
        self.history.append(resolved.frame)
        targets = [m.ws for m in self.members()]
        websockets.broadcast(targets, resolved.frame)
        if resolved.ended is not None:
            websockets.broadcast(targets, resolved.ended)
        self._reschedule()

    # ------------------------------------------------------------------ timers
    def _reschedule(self) -> None:
        """Make sure a timer wakes by the next clock event.

        A sleeping timer that wakes no later than that is kept: it wakes, finds nothing due and sleeps on
        to the new deadline. Only an earlier deadline cancels it. Why: nearly every move pushes the deadline
        later, and cancelling and creating a task per move cost loop time and left a CancelledError cycle
        per move for the garbage collector, whose pauses showed in the benchmark's p99.
        """
        timer = self._timer
        if timer is not None and not timer.done() and self._timer_sleeping:
            if not self.closed:
                event = self._next_event()
                if event is None or self._sleep_deadline <= event[0]:
                    return
            timer.cancel()
        if self.closed:
            return
        self._timer = asyncio.get_running_loop().create_task(self._run_timer())

    def _next_event(self) -> tuple[int, LogEntry] | None:
        """The earliest clock event: (wall deadline, the entry it makes), or None when nothing is due."""
        state = self.match
        position = state.position
        if not state.started or position.result is not None:
            return None
        if state.absent:
            team, since = min(state.absent.items(), key=lambda item: item[1])
            entry = LogEntry(state.log_len, "forfeit", team, None, self.mclock.pending)
            return since + self.settings.disconnect_grace_ms, entry
        events: list[tuple[int, int, LogEntry]] = []  # (used deadline, priority, entry)
        if position.part.kind in ("period", "overtime", "break") and position.part.clock_ms > 0:
            ms = position.part.clock_ms
            events.append((ms, 0, LogEntry(state.log_len, "elapse", None, None, ms)))
        for prompt in rules.prompts(position):
            if prompt.default is None:
                continue  # an offer: nothing happens when nobody takes it
            ms = moves.deadline_ms(self.settings, prompt)  # the choice's timeout: the fold applies its default
            events.append((ms, 1, LogEntry(state.log_len, "timeout", prompt.team, {"kind": prompt.kind}, ms)))
        if self.settings.move_clock_ms > 0 and position.part.kind != "break":
            ms = engine.move_ms_left(self.settings, position, state.turn_used)
            events.append((ms, 2, LogEntry(state.log_len, "timeout", position.to_move, None, ms)))
        if not events:
            return None
        used_deadline, _, entry = min(events, key=lambda e: (e[0], e[1]))
        wall = self.mclock.wall_deadline(used_deadline)
        return None if wall is None else (wall, entry)

    async def _run_timer(self) -> None:
        """Sleep until the next clock event and apply it, unless the room changed meanwhile."""
        me = asyncio.current_task()
        while not self.closed:
            event = self._next_event()
            if event is None:
                return
            self._timer_sleeping, self._sleep_deadline = True, event[0]
            try:
                await self.clock.sleep_until(event[0])
            finally:
                self._timer_sleeping = False
            async with self.lock:
                if self._timer is not me or self.closed:
                    return
                now_event = self._next_event()
                if now_event is None or now_event[0] > self.clock.now_ms():
                    continue
                _, entry = now_event
                team = entry.team or self.match.position.to_move
                try:
                    await self._run_entry(entry, team)  # type: ignore[arg-type]
                except RoomError:
                    log.error("room %s: a clock event failed; retrying at the next deadline", self.code)
                    return
                return  # _commit started the next timer

    async def close(self) -> None:
        """Stop the room's timer (shutdown); waits for an entry in progress to finish."""
        self.closed = True
        async with self.lock:
            if self._timer is not None and not self._timer.done():
                self._timer.cancel()

    # ------------------------------------------------------------------ rematch
    async def ask_rematch(self, member: Member) -> None:
        """After the end: both coaches ask, and a new match starts with the seats swapped."""
        team = self.team_of(member)
        if team is None:
            raise RoomError("NOT_A_PLAYER", "only a seated coach may ask for a rematch")
        if self.status != "ended":
            raise RoomError("MATCH_NOT_OVER", "a rematch can only be asked for once the match has ended")
        self.rematch.add(team)
        log.info("room %s: %s asks for a rematch", self.code, team)
        self._broadcast(RematchOffered(self.code, team))
        if self.rematch != set(TEAMS):
            return
        async with self.lock:
            self.rematch.clear()
            self.seats = {"home": self.seats["away"], "away": self.seats["home"]}
            self.connected = {"home": self.connected["away"], "away": self.connected["home"]}
            seed = new_seed()
            first = engine.new_match(self.ruleset, self.overrides, seed)
            self.mclock = MatchClock(self.clock)
            self.match = MatchState(self._new_match_id(), seed, first, first)
            await self._start_match()
            self.presence()
            await self._tell_seats()

    async def _tell_seats(self) -> None:
        """Tell each connected coach his seat in the new match: a RoomJoined with it and the match's Snapshot.

        Why: the rematch swaps the seats, and a client must not have to infer that from the new match id
        (a coach who reconnects gets his seat in RoomJoined too). Sent after the match's first Snapshot,
        at the same version, so a client that swapped on that Snapshot just confirms its seat.
        """
        snapshot = self.snapshot()
        for team in TEAMS:
            member = self.connected[team]
            if member is not None:
                await member.send(RoomJoined(self.code, team, member.token, snapshot))


__all__ = ["Member", "Room", "RoomError", "other"]

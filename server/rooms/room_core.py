"""A room's rules without I/O: seats, presence, versions, the D3 window, clock deadlines, forfeit, rematch.

Why sans-I/O (websockets' ``Protocol``, h11's state machine, lila-ws's room actor ``receive(state) -> (state,
out)``): everything a room decides is a pure function of its state, what happened and the wall time ``now``, so it
is written here once and tested without a socket, a task or a database. Each transition returns the **effects** to
carry out, in order:

* ``Persist(records, then)`` - write these records durably (one transaction); only once they are written does
  ``then(now)`` change the room and give the effects that follow (what was written, broadcast). A move is
  broadcast only once it is in the log, and a write that is refused - the store stopped, or a cluster's store
  refused a former owner (``server.store.postgres.pg_store``) - leaves the room exactly as it was: ``then`` is never
  called. ``Persist`` is always the last effect of a list (what follows it is in ``then``);
* ``Broadcast(frame, to)`` - send these bytes to these connections (one member for a reply);
* ``Publish(event)`` - tell the lifecycle bus (``server.lifecycle``).

Why two phases: the room's state must be a function of what the store committed. A room that took its new position
before the write and then had the write refused would be ahead of its own log: its history, a Resync, a Snapshot,
the next clock event would all tell a move that was never stored - and the node that really owns the room would
play another one at that version. So a transition that writes decides everything first (the records, what changes)
and changes nothing until the shell reports the write done by calling ``then``. Transitions that write nothing
(presence, spectators, chat, the store's health) change the room at once. The asyncio ``server.rooms.room.Room``
carries the effects out under its lock, so nothing else happens between a write and its ``then``; a room whose store
is lost stops. Resolving an entry (physics in a worker) is the one step before: ``plan_*`` and ``due`` say which
entry to resolve, ``commit`` takes the resolved entry.

The room's lifecycle, as data (``TRANSITIONS``): a room is ``waiting`` for its second coach, ``playing`` a match,
``ended`` after it (a rematch makes it ``playing`` again), and ``closed`` once empty without a running match, or
when the server stops. Within ``playing`` the clocks run only while both coaches are there and the store saves
(``clock_may_run``); a coach away past ``disconnect_grace_ms`` forfeits.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, Literal, Protocol, TypeVar

from server.lifecycle import LifecycleEvent, MatchFinished, MatchStarted, MoveApplied, PresenceChanged
from server.rooms.history import History
from server.rooms.match_clock import MatchClock
from server.rooms.resolve import PromptInfo, Resolved, Stamp, deadline_ms, prompts_of
from server.store.match_records import EntryWrite, MatchEnd, MatchStart, Record, RoomRow
from server.wire import outgoing
from shared import match as rules
from shared import match_log
from shared.match_log import LogEntry
from shared.model import Action, Forfeit, Position, Team, Timeout
from shared.protocol import (
    Chat,
    Clocks,
    ClockUpdate,
    Notice,
    Presence,
    RematchOffered,
    RoomInfo,
    RoomJoined,
    Score,
    SeatInfo,
    Seats,
    Snapshot,
)
from shared.rulesets import Settings, make_settings

TEAMS: tuple[Team, Team] = ("home", "away")
PRESENCE_COALESCE_MS = 250  # spectators coming and going reach everyone at most four times a second
Phase = Literal["waiting", "playing", "ended", "closed"]

# The lifecycle: (phase, what happened) -> the next phase. Anything else is a bug (KeyError).
TRANSITIONS: dict[tuple[Phase, str], Phase] = {
    ("waiting", "start"): "playing",  # the second coach sat down
    ("playing", "end"): "ended",  # the match has a result
    ("ended", "rematch"): "playing",  # both coaches asked for another match
    ("waiting", "close"): "closed",  # everyone left before the match
    ("ended", "close"): "closed",  # everyone left after it
    ("playing", "close"): "closed",  # only when the server stops
    ("closed", "close"): "closed",
}


class RoomError(Exception):
    """A request the room refuses: an Error code of the protocol and a message a person understands."""

    def __init__(self, code: str, message: str, retry_ms: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_ms = retry_ms  # the Error's retry_ms: how long to wait before the same request can succeed


class Member(Protocol):
    """What the room knows of a connection: whose it is, and whose chat it does not want. The room never touches its
    socket."""

    player_id: int
    name: str
    token: str
    muted: set[int]  # players whose chat this connection does not receive


@dataclass(frozen=True, slots=True)
class Persist:
    """Write ``records`` in one transaction; once they are written, ``then(now)`` changes the room and gives the
    effects that follow. A refused write never calls ``then``: the room stays as it was."""

    records: tuple[Record, ...]
    then: Callable[[int], list[Effect]]


@dataclass(frozen=True, slots=True)
class Broadcast:
    """Send ``frame`` to ``to`` (the room's members when it was decided; one member for a reply). ``everyone``: the
    frame is for whoever follows the room (a spectator anywhere in a cluster may have it), not a reply."""

    frame: bytes
    to: tuple[Member, ...]
    everyone: bool = False


@dataclass(frozen=True, slots=True)
class Publish:
    """Tell the lifecycle bus."""

    event: LifecycleEvent


Effect = Persist | Broadcast | Publish


@dataclass(slots=True, kw_only=True)
class LiveMatch:
    """The match being played in a room: its log length, where its versions start, its move clock."""

    id: str
    seed: int
    initial: Position | None  # the match's start (None for a recovered match: it is in the store already)
    position: Position
    started: bool = False
    log_len: int = 0
    version_base: int = 0
    turn_used: int = 0  # clock time used since the team to move got the turn (the move clock)
    absent: dict[Team, int] = field(default_factory=dict)  # team -> wall ms it dropped
    moving_until: int = 0  # wall ms the clients' playback of the last move ends (D3: no input before)


@dataclass(frozen=True, slots=True, kw_only=True)
class EntryPlan:
    """An entry to resolve: from ``position``, with the ``stamp`` its broadcast carries; ``used`` is the clock
    time measured since the last entry when it was planned (the part the entry does not take counts on)."""

    position: Position
    entry: LogEntry
    stamp: Stamp
    used: int


M = TypeVar("M", bound=Member)  # the shell's own kind of member: the core keeps and returns it as given


class RoomCore(Generic[M]):
    """One room's state and transitions (see the module docstring). ``history_size``: versions kept for resync."""

    def __init__(self, *, code: str, ruleset: str, overrides: dict[str, object], private: bool,
                 match_id: str, seed: int, history_size: int, rated: bool = False,
                 reserved: dict[Team, tuple[int, str]] | None = None, first: Position | None = None,
                 spectator_chat: str = "room") -> None:
        """``rated``: the match counts for ratings. ``reserved``: seats held for these players (id, name) from the
        start - a tournament's table - which only they may take and which stay theirs when they leave. ``first``:
        the match's position when it is known already (recovery), else the ruleset's opening is set up."""
        self.code = code
        self.ruleset = ruleset
        self.overrides = dict(overrides)
        self.settings: Settings = make_settings(ruleset, overrides)
        self.private = private
        self.rated = rated
        self.phase: Phase = "waiting"
        self.seats: dict[Team, int | None] = {"home": None, "away": None}
        self.names: dict[int, str] = {}
        self.ratings: dict[int, tuple[int, bool]] = {}  # player -> (rating shown, provisional) in this room's family
        self.reserved = reserved is not None
        self.spectator_chat = spectator_chat  # room, spectators (their chat reaches only spectators) or off
        self.silenced: set[int] = set()  # players the organiser silenced in this room
        for team, (player, name) in (reserved or {}).items():
            self.seats[team], self.names[player] = player, name
        self.connected: dict[Team, M | None] = {"home": None, "away": None}
        self.spectators: dict[M, None] = {}  # an ordered set: joined first, sent first
        self.history: History[bytes] = History(history_size)
        self.clock = MatchClock()
        self.rematch: set[Team] = set()
        self.store_ok = True
        self.presence_due: int | None = None  # when the coalesced spectators' count goes out
        self._history_size = history_size
        self._coach_actions = 0  # the coaches' own actions in this match (an abandoned-at-start match has none)
        if first is None:
            first = match_log.new_match(ruleset, overrides, seed)
        self.match = LiveMatch(id=match_id, seed=seed, initial=first, position=first)

    # ------------------------------------------------------------------ the lifecycle
    def _go(self, what: str) -> None:
        """Move along ``TRANSITIONS``."""
        self.phase = TRANSITIONS[(self.phase, what)]

    def close(self) -> None:
        """The room closes (nobody left without a running match, or the server stops)."""
        self._go("close")

    def _ensure_open(self) -> None:
        """ROOM_NOT_FOUND once the room has closed here: nothing is written for it any more.

        Why: a room closes when the server stops, and a cluster node that stops hands the room to another node
        (``server.cluster.node``) which rebuilds it from the store; an entry committed here after that would be a move
        the new owner never saw, told to coaches who would then be ahead of the room they are sent to.
        """
        if self.phase == "closed":
            raise RoomError("ROOM_NOT_FOUND", f"room {self.code} has closed on this server: connect again (with "
                                              "your token) to be taken to where its match goes on")

    # ------------------------------------------------------------------ views
    @property
    def version(self) -> int:
        """The version of the room's latest broadcast."""
        return self.history.version

    @property
    def status(self) -> Literal["waiting", "playing", "ended"]:
        """``waiting`` for a second coach, ``playing``, or ``ended`` (a closed room shows how it was left)."""
        if not self.match.started:
            return "waiting"
        return "ended" if self.match.position.result is not None else "playing"

    def running(self) -> bool:
        """True while a started match has no result."""
        return self.match.started and self.match.position.result is None

    def clock_may_run(self) -> bool:
        """The match clock runs only in a running match with both coaches present and a store that saves."""
        return self.running() and not self.match.absent and self.store_ok

    def team_of(self, member: M) -> Team | None:
        """The seat ``member`` is connected to, if any."""
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

    def members(self) -> tuple[M, ...]:
        """Every connection in the room: coaches first, then spectators."""
        return tuple(m for m in self.connected.values() if m is not None) + tuple(self.spectators)

    def coach_name(self, team: Team) -> str:
        """The name of ``team``'s coach (or the team)."""
        player = self.seats[team]
        return self.names.get(player, team) if player is not None else team

    def seats_info(self, now: int) -> Seats:
        """Who holds each seat, whether he is connected, and how long an away coach has to come back."""
        infos: list[SeatInfo | None] = []
        for team in TEAMS:
            player = self.seats[team]
            if player is None:
                infos.append(None)
                continue
            since = self.match.absent.get(team)
            grace = None
            if since is not None and self.running():
                grace = max(0, since + self.settings.disconnect_grace_ms - now)
            rating, provisional = self.ratings.get(player, (None, False))
            infos.append(SeatInfo(self.names.get(player, "?"), self.connected[team] is not None, grace, rating,
                                  provisional))
        return Seats(*infos)

    def prompts(self, now: int) -> tuple[PromptInfo, ...]:
        """The choices awaited now, with the ms left until their defaults apply."""
        return prompts_of(self.match.position, self.settings, lambda deadline: self._ms_left(deadline, now))

    def _ms_left(self, deadline: int, now: int) -> int:
        """Wall ms from now until the clock reaches ``deadline`` (clock ms after the last entry), as the timer sees it.

        Running, this is the wall time to that moment (a playback included); paused (an absent coach), the clock
        time still left, which the client shows frozen while the Clocks say ``paused``.
        """
        if not self.match.started:
            return deadline
        wall = self.clock.wall_deadline(deadline)
        if wall is None:
            return max(0, deadline - self.clock.used(now))
        return max(0, wall - now)

    def clocks(self, now: int) -> Clocks:
        """The clocks as they stand now (clients count down locally from this)."""
        position = self.match.position
        used = self.clock.used(now) if self.match.started else 0
        part_ms = max(0, position.part.clock_ms - used)
        move_ms = match_log.move_ms_left(self.settings, position, self.match.turn_used, used)
        paused = not self.clock.running or position.result is not None
        return Clocks(part_ms, move_ms, position.to_move, paused)

    def snapshot(self, now: int) -> Snapshot:
        """The whole state of the room at its current version."""
        return Snapshot(self.code, self.version, self.match.id, self.match.position, self.clocks(now),
                        self.prompts(now), self.seats_info(now), len(self.spectators), self.rated)

    def part_name(self) -> str | None:
        """The part being played, for the room list (``period 2``, ``break``), None before the match starts."""
        if not self.match.started:
            return None
        part = self.match.position.part
        return part.kind if part.kind in ("break", "shootout") else f"{part.kind} {part.number}"

    def info(self, now: int) -> RoomInfo:
        """The room's line in the lobby's list."""
        started = self.match.started
        score = Score(*self.match.position.score) if started else None
        return RoomInfo(self.code, self.ruleset, self.seats_info(now), len(self.spectators), self.status, score,
                        self.clocks(now) if started else None, self.part_name(), self.rated)

    def row(self) -> RoomRow:
        """The room as stored."""
        return RoomRow(code=self.code, ruleset=self.ruleset, overrides=self.overrides, private=self.private,
                       home_player=self.seats["home"], away_player=self.seats["away"], match_id=self.match.id,
                       rated=self.rated, reserved=self.reserved)

    # ------------------------------------------------------------------ effects
    def _to_all(self, message: object) -> Broadcast:
        """``message`` to everyone in the room now."""
        return Broadcast(outgoing(message), self.members(), everyone=True)  # type: ignore[arg-type]

    def _presence(self, now: int) -> list[Effect]:
        """Tell everyone, and the bus, who is in the room now (a pending coalesced count goes with it)."""
        self.presence_due = None
        seats = self.seats_info(now)
        connected = tuple(t for t in TEAMS if self.connected[t] is not None)
        return [
            self._to_all(Presence(self.code, seats, len(self.spectators))),
            Publish(PresenceChanged(room=self.code, home_player=self.seats["home"], away_player=self.seats["away"],
                                    connected=connected, spectators=len(self.spectators))),
        ]

    def _versioned(self, make: Callable[[int], object]) -> Broadcast:
        """Give the next version to ``make(version)``, keep its frame for resync, send it to everyone."""
        frames: list[bytes] = []

        def build(version: int) -> bytes:
            frames.append(outgoing(make(version)))  # type: ignore[arg-type]
            return frames[-1]

        self.history.append(build)
        return Broadcast(frames[0], self.members(), everyone=True)

    # ------------------------------------------------------------------ seats and spectators
    def seat(self, member: M, team: Team, now: int) -> list[Effect]:
        """Give ``member`` (a new coach) the free ``team`` seat; starts the match when both are taken."""
        self._ensure_open()
        self.seats[team] = member.player_id
        self.names[member.player_id] = member.name
        return self.attach(member, team, now)

    def attach(self, member: M, team: Team, now: int) -> list[Effect]:
        """Connect ``member`` to his seat (a first join or a return); the clock runs again once nobody is away.

        ``RoomJoined`` is the first message a connection gets about a room: it is decided before the member joins
        the broadcasts, so what follows (the match's first Snapshot, Presence) reaches him after it.
        """
        effects: list[Effect] = [Broadcast(outgoing(RoomJoined(self.code, team, member.token, self.snapshot(now))),
                                           (member,))]
        self.connected[team] = member
        self.match.absent.pop(team, None)
        if self.phase == "waiting" and all(self.connected[t] is not None for t in TEAMS):
            version_base = self.version + 1

            def started(at: int) -> list[Effect]:
                """The match is stored: it starts, and everyone hears who is in the room."""
                return self._begin(at, version_base) + self._presence(at)

            return [*effects, Persist(self._start_records(self.match, self.seats, version_base), started)]
        if self.clock_may_run() and not self.clock.running:
            self.clock.resume(now)
            effects.append(self._to_all(ClockUpdate(self.code, self.clocks(now))))
        return effects + self._presence(now)

    def watch(self, member: M, now: int) -> list[Effect]:
        """Add a spectator (read-only): RoomJoined first, then he is one of the room's broadcasts.

        The spectators' count reaches everyone coalesced (``presence_due``): a Presence to every member for every
        join would make a crowd of N joining cost N² frames.
        """
        joined = Broadcast(outgoing(RoomJoined(self.code, "spectator", None, self.snapshot(now))), (member,))
        self.spectators[member] = None
        self._count_changed(now)
        return [joined]

    def _count_changed(self, now: int) -> None:
        """The spectators' count changed: tell everyone at ``presence_due`` (within PRESENCE_COALESCE_MS)."""
        if self.presence_due is None:
            self.presence_due = now + PRESENCE_COALESCE_MS

    def flush_presence(self, now: int) -> list[Effect]:
        """The coalesced Presence, once it is due (nothing before, nothing when none is pending)."""
        if self.presence_due is None or now < self.presence_due:
            return []
        return self._presence(now)

    def detach(self, member: M, now: int) -> list[Effect]:
        """``member``'s connection went away: a coach's seat waits for him (grace), a spectator just leaves."""
        if member in self.spectators:
            del self.spectators[member]
            self._count_changed(now)
            return []
        team = self.team_of(member)
        if team is None:
            return []
        self.connected[team] = None
        effects: list[Effect] = []
        if self.running():
            self.match.absent[team] = now
            self.clock.pause(now)
            effects.append(self._to_all(ClockUpdate(self.code, self.clocks(now))))
        elif not self.match.started and not self.reserved:
            self.seats[team] = None  # nobody is waiting on a seat that was never played (a table's stays his)
        return effects + self._presence(now)

    def idle(self) -> bool:
        """True when nobody is left and no match runs: the room may close (a table waits for its coaches)."""
        return not self.members() and not self.running() and not (self.reserved and self.phase == "waiting")

    # ------------------------------------------------------------------ the match
    def _start_records(self, match: LiveMatch, seats: dict[Team, int | None], version_base: int) -> tuple[Record, ...]:
        """What starting ``match`` with ``seats`` writes: the match, and the room with its seats and match."""
        home, away = seats["home"], seats["away"]
        assert home is not None and away is not None
        assert match.initial is not None, "only a fresh match starts"
        start = MatchStart(match_id=match.id, room_code=self.code, seed=match.seed, ruleset=self.ruleset,
                           overrides=self.overrides, initial=match.initial, home_player=home, away_player=away,
                           version_base=version_base, rated=self.rated)
        return start, dataclasses.replace(self.row(), home_player=home, away_player=away, match_id=match.id)

    def _begin(self, now: int, version_base: int) -> list[Effect]:
        """The stored match starts (both seats are taken): its clock runs, its first Snapshot goes to everyone."""
        state = self.match
        assert self.version + 1 == version_base, "nothing is versioned between a match's write and its start"
        state.version_base = version_base
        state.started = True
        self._go("start" if self.phase == "waiting" else "rematch")
        for team in TEAMS:
            if self.connected[team] is None:
                state.absent[team] = now
        if self.clock_may_run():
            self.clock.resume(now)
        snapshot = self._versioned(lambda v: dataclasses.replace(self.snapshot(now), version=v))
        home, away = self.seats["home"], self.seats["away"]
        assert home is not None and away is not None
        started = MatchStarted(room=self.code, match_id=state.id, ruleset=self.ruleset, overrides=self.overrides,
                               private=self.private, rated=self.rated, home_player=home, away_player=away)
        return [snapshot, Publish(started)]

    def _ensure_playable(self, member: M, action: Action, version: int, now: int) -> Team:
        """The seat of a coach who may act now, or the RoomError that refuses him."""
        team = self.team_of(member)
        if team is None:
            raise RoomError("NOT_A_PLAYER", "spectators are read-only: only a seated coach may act")
        if action.team != team:
            raise RoomError("NOT_YOUR_TEAM", f"you coach {team}, the action names {action.team}")
        self.ensure_store()
        if not self.match.started:
            raise RoomError("ACTION_NOT_ALLOWED", "the match starts when the second coach joins")
        if self.match.position.result is not None:
            raise RoomError("MATCH_OVER", "the match is over")
        if version != self.version:
            newer = "never sent" if version > self.version else "older"
            raise RoomError("STALE_VERSION", f"the room is at version {self.version}; the action was chosen on "
                                             f"version {version} ({newer}): resync and decide again")
        if self.match.absent:
            away = min(self.match.absent)
            raise RoomError("ACTION_NOT_ALLOWED", f"the match is paused while {self.coach_name(away)} is away; it "
                                                  "goes on when he is back (or he forfeits when the grace runs out)")
        part = self.match.position.part
        if part.kind == "break":  # III.5
            wall = self.clock.wall_deadline(part.clock_ms)
            left = None if wall is None else max(0, wall - now)
            raise RoomError("ACTION_NOT_ALLOWED", "it is the break between periods (III.5): no moves until it ends",
                            retry_ms=left)
        left = self.match.moving_until - now
        if left > 0:  # D3, VII.3.b [DIGITAL]: input before the board is at rest is discarded, not queued
            raise RoomError("ACTION_NOT_ALLOWED", f"the board is still moving (D3): wait {left} ms for the move to "
                                                  "end", retry_ms=left)
        return team

    def ensure_store(self) -> None:
        """STORE_UNAVAILABLE while the store cannot save moves."""
        if not self.store_ok:
            raise RoomError("STORE_UNAVAILABLE", "the server cannot save moves right now: play is paused, nothing "
                                                 "is lost; a Notice says when it resumes")

    def plan_action(self, member: M, action: Action, version: int, now: int) -> EntryPlan:
        """A coach's action, checked against his seat, the version and the moment (D3, the break, an absent
        coach, the store); the entry to resolve. Raises RoomError; nothing changes."""
        self._ensure_open()
        team = self._ensure_playable(member, action, version, now)
        return self._plan(action, team, now)

    def plan_resign(self, member: M, now: int) -> EntryPlan | None:
        """A coach leaving a running match resigns it (Leave); None when there is nothing to resign."""
        team = self.team_of(member)
        if team is None or not self.running():
            return None
        return self._plan(Forfeit(team, "RESIGNED"), team, now)

    def _plan(self, entry_input: Action | Timeout | Forfeit | None, team: Team, now: int,
              elapsed: int | None = None) -> EntryPlan:
        """The entry of ``entry_input`` after the clock time used so far (or ``elapsed``), and its stamp."""
        self._ensure_open()
        used = self.clock.used(now)
        entry = LogEntry(index=self.match.log_len, elapsed_ms=used if elapsed is None else elapsed, input=entry_input)
        stamp = Stamp(code=self.code, match_id=self.match.id, version=self.version + 1, team=team,
                      turn_used=self.match.turn_used, absent=bool(self.match.absent), settings=self.settings)
        return EntryPlan(position=self.match.position, entry=entry, stamp=stamp, used=used)

    def commit(self, plan: EntryPlan, resolved: Resolved) -> list[Effect]:
        """A resolved entry: persist it, and only then take its position and broadcast its frames (``Persist.then``).
        Raises RoomError for an outcome that could not be encoded; an entry where nothing happened changes nothing.
        Nothing changes here: a write that is refused leaves the room at the version it was."""
        if resolved.broken is not None:
            raise RoomError("INTERNAL", "the server could not send this move; nothing changed")
        entry = resolved.entry
        if entry is None or resolved.frame is None:
            return []
        position = resolved.position
        result = position.result
        end = None if result is None else MatchEnd(winner=result.winner, reason=result.reason, score=position.score)
        write = EntryWrite(match_id=self.match.id, entry=entry, end=end,
                           position=resolved.position_blob, turn_used=resolved.turn_used)
        return [Persist((write,), lambda at: self._committed(plan, resolved, at))]

    def _committed(self, plan: EntryPlan, resolved: Resolved, now: int) -> list[Effect]:
        """The entry is in the log: the room takes its position and version, then broadcasts and publishes it."""
        state = self.match
        entry = resolved.entry
        assert entry is not None and resolved.frame is not None
        assert state.id == plan.stamp.match_id and state.log_len == entry.index, "the room moved during its write"
        assert self.version + 1 == plan.stamp.version, "the room moved during its write"
        position = resolved.position
        result = position.result
        state.position = position
        state.log_len += 1
        if entry.input is not None and not isinstance(entry.input, Timeout | Forfeit):
            self._coach_actions += 1
        state.turn_used = resolved.turn_used
        state.moving_until = max(state.moving_until, now + resolved.duration_ms)
        self.clock.committed(plan.used, entry.elapsed_ms, resolved.duration_ms, now)
        self.history.append(resolved.frame)
        targets = self.members()
        effects: list[Effect] = [Broadcast(resolved.frame, targets, everyone=True)]
        kind = "elapse" if entry.input is None else entry.input.action
        effects.append(Publish(MoveApplied(room=self.code, match_id=state.id, version=self.version,
                                           team=entry.team or plan.stamp.team, score=position.score, kind=kind,
                                           duration_ms=resolved.duration_ms)))
        if result is not None:
            self.clock.pause(now)
            self._go("end")
            if resolved.ended is not None:
                effects.append(Broadcast(resolved.ended, targets, everyone=True))
            home, away = self.seats["home"], self.seats["away"]
            assert home is not None and away is not None
            effects.append(Publish(MatchFinished(room=self.code, match_id=state.id, ruleset=self.ruleset,
                                                 overrides=self.overrides, private=self.private, rated=self.rated,
                                                 home_player=home, away_player=away, winner=result.winner,
                                                 reason=result.reason, score=position.score, moves=state.log_len,
                                                 actions=self._coach_actions)))
        return effects

    # ------------------------------------------------------------------ clock events
    def next_wake(self) -> int | None:
        """The wall time of the next clock event (None when nothing is due or the clocks are stopped)."""
        event = self._next_event()
        return None if event is None else event[0]

    def due(self, now: int) -> EntryPlan | None:
        """The clock event due at ``now`` as an entry to resolve (None when nothing is due yet)."""
        event = self._next_event()
        if event is None or event[0] > now:
            return None
        _, entry_input, team, elapsed = event
        return self._plan(entry_input, team, now, elapsed)

    def _next_event(self) -> tuple[int, Timeout | Forfeit | None, Team, int] | None:
        """The earliest clock event: (wall deadline, the entry's input, its team, its elapsed clock ms)."""
        state = self.match
        position = state.position
        if not self.running() or not self.store_ok:
            return None
        if state.absent:  # product decision 5: the first to leave forfeits when his grace runs out
            team, since = min(state.absent.items(), key=lambda item: item[1])
            return since + self.settings.disconnect_grace_ms, Forfeit(team), team, self.clock.pending
        events: list[tuple[int, int, Timeout | Forfeit | None, Team]] = []  # (used deadline, priority, input, team)
        if position.part.kind in ("period", "overtime", "break") and position.part.clock_ms > 0:
            events.append((position.part.clock_ms, 0, None, position.to_move))
        for prompt in rules.prompts(position):
            if prompt.default is not None:  # an offer without a default lapses by itself
                events.append((deadline_ms(self.settings, prompt), 1, Timeout(prompt.team, prompt.kind), prompt.team))
        if self.settings.move_clock_ms > 0 and position.part.kind != "break":
            ms = match_log.move_ms_left(self.settings, position, state.turn_used)
            events.append((ms, 2, Timeout(position.to_move), position.to_move))
        if not events:
            return None
        used_deadline, _, entry_input, team = min(events, key=lambda e: (e[0], e[1]))
        wall = self.clock.wall_deadline(used_deadline)
        return None if wall is None else (wall, entry_input, team, used_deadline)

    # ------------------------------------------------------------------ the store
    def store_changed(self, ok: bool, lost: bool, reason: str, now: int) -> list[Effect]:
        """The store stopped or started saving moves: pause or resume the match, and tell everyone.

        Why pause: no move, clock event or forfeit can be acknowledged while nothing can be written, so the clocks
        must not run either - a coach must not lose on time to a full disk. Nothing acknowledged is lost.
        """
        self.store_ok = ok
        if ok:
            if self.clock_may_run():
                self.clock.resume(now)
            notice = Notice("PLAY_RESUMED", "the server saves moves again: play goes on")
        else:
            self.clock.pause(now)
            what = "the operator must restart the server" if lost else "play resumes when it can again"
            notice = Notice("PLAY_PAUSED", f"the server cannot save moves ({reason}): the clocks are stopped and "
                                           f"nothing is lost; {what}")
        effects: list[Effect] = [self._to_all(notice)]
        if self.match.started:
            effects.append(self._to_all(ClockUpdate(self.code, self.clocks(now))))
        return effects

    # ------------------------------------------------------------------ resync
    def resync(self, member: M, since: int, now: int) -> list[Effect]:
        """What ``member`` missed after ``since``: the kept frames, a Snapshot, or a ClockUpdate when nothing was
        missed; STALE_VERSION when ``since`` is past every version the room sent."""
        if since > self.version:
            raise RoomError("STALE_VERSION", f"room {self.code} is at version {self.version}; it never sent "
                                             f"{since}: Resync from 0 for a Snapshot")
        if since == self.version:
            return [Broadcast(outgoing(ClockUpdate(self.code, self.clocks(now))), (member,))]
        missing = self.history.since(since)
        if missing is None:
            return [Broadcast(outgoing(self.snapshot(now)), (member,))]
        return [Broadcast(frame, (member,)) for frame in missing]

    # ------------------------------------------------------------------ rematch
    def ask_rematch(self, member: M, now: int, match_id: str, seed: int) -> list[Effect]:
        """After the end: both coaches ask, and a new match (``match_id``, ``seed``) starts with the seats swapped."""
        self._ensure_open()
        team = self.team_of(member)
        if team is None:
            raise RoomError("NOT_A_PLAYER", "only a seated coach may ask for a rematch")
        if self.status != "ended":
            raise RoomError("MATCH_NOT_OVER", "a rematch can only be asked for once the match has ended")
        self.rematch.add(team)
        effects: list[Effect] = [self._to_all(RematchOffered(self.code, team))]
        if self.rematch != set(TEAMS):
            return effects
        seats: dict[Team, int | None] = {"home": self.seats["away"], "away": self.seats["home"]}
        first = match_log.new_match(self.ruleset, self.overrides, seed)
        match = LiveMatch(id=match_id, seed=seed, initial=first, position=first)
        version_base = self.version + 1

        def started(at: int) -> list[Effect]:
            """The new match is stored: the seats swap, it starts, each coach learns his new seat."""
            self.rematch.clear()
            self.seats = dict(seats)
            self.connected = {"home": self.connected["away"], "away": self.connected["home"]}
            self.clock = MatchClock()
            self.match = match
            self._coach_actions = 0
            out = self._begin(at, version_base) + self._presence(at)
            snapshot = self.snapshot(at)  # each coach learns his new seat (after the match's first Snapshot)
            for new_team in TEAMS:
                coach = self.connected[new_team]
                if coach is not None:
                    out.append(Broadcast(outgoing(RoomJoined(self.code, new_team, coach.token, snapshot)), (coach,)))
            return out

        return [*effects, Persist(self._start_records(match, seats, version_base), started)]

    # ------------------------------------------------------------------ chat
    def chat(self, member: M, text: str | None, emote: str | None) -> list[Effect]:
        """A line of chat (``text`` already cleaned) or an emote, to everyone in the room who has not muted the
        speaker - a spectator's only to spectators when the room says so. Not part of the match: not versioned, not
        logged."""
        team = self.team_of(member)
        if team is None and member not in self.spectators:
            raise RoomError("NOT_IN_ROOM", "join or watch a room to chat in it")
        if member.player_id in self.silenced:
            raise RoomError("CHAT_MUTED", "the organiser silenced you in this tournament's chat")
        if team is None and self.spectator_chat == "off":
            raise RoomError("CHAT_CLOSED", "spectators cannot chat in this room")
        audience = tuple(self.spectators) if team is None and self.spectator_chat == "spectators" else self.members()
        to = tuple(m for m in audience if member.player_id not in m.muted)
        return [Broadcast(outgoing(Chat(self.code, member.name, team or "spectator", text, emote)), to)]

    # ------------------------------------------------------------------ recovery
    def restore(self, state: LiveMatch, seats: dict[Team, int | None], names: dict[int, str], now: int,
                actions: int = 0) -> None:
        """Take over a replayed match (``actions``: the coaches' own actions in its log); both coaches are away
        until they reconnect (the grace runs from ``now``)."""
        self.match = state
        self._coach_actions = actions
        self.seats = dict(seats)
        self.names.update(names)
        self.history = History(self._history_size, state.version_base + state.log_len)
        if state.started:
            self.phase = "ended" if state.position.result is not None else "playing"
        if self.running():
            state.absent = {t: now for t in TEAMS}

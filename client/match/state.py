"""The match as this client knows it: position, version, clocks, prompts, seat, spectators and the message log,
plus the queue of moves waiting to be played back (pure: no arcade, no sockets, time passed in).

Why one object: the network thread delivers messages, the view draws and takes input, the replay steps
through a recorded match; all three read and change the same facts. Moves are shown in order: a move that
arrives while another is playing back waits; only after a move's playback are its decisions written to the
log, the banner raised, the sounds cued and the position at rest adopted, so nothing is told before it is seen.

Input stays locked while a move plays back here *and* while the server may still be playing the last one back
(RULES.md D3: it refuses any input until ``duration_ms`` after its MovePlayed): a Snapshot (reconnect, resync)
drops the playback on screen, but not the server's wait, so ``load`` keeps ``still_until``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from client.common import decision_text, knocks
from client.common.i18n import _
from client.common.playback import Playback, Pose, poses_from_position
from client.match import move_list
from shared.model import Position, Role, Team
from shared.outcome import Decision
from shared.protocol.trajectory import Trajectory

BANNER_SECONDS = 4.0
LOG_LIMIT = 200


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the message log: text, kind (``decision``, ``info``, ``error``) and the move it follows."""

    text: str
    kind: str
    move_number: int


@dataclass(frozen=True, slots=True)
class Clock:
    """A countdown synchronised from the server: ``remaining_ms`` at ``synced_at`` (seconds), running or stopped."""

    remaining_ms: int
    running: bool
    synced_at: float

    def at(self, now: float) -> int:
        """Milliseconds left at ``now`` (never below zero)."""
        if not self.running:
            return max(0, self.remaining_ms)
        return max(0, self.remaining_ms - int((now - self.synced_at) * 1000))


@dataclass(frozen=True, slots=True)
class Prompt:
    """A choice a coach must make now (setup, exclusion, advantage, counting, swaps, goalie reset) and its deadline."""

    kind: str
    team: Team
    options: tuple[str, ...] = ()
    clock: Clock | None = None


CATCH_UP_STEP = 0.5  # each move queued behind the one playing speeds its playback by half again ...
CATCH_UP_MAX = 4.0  # ... up to four times (a whole move still reads as a move)


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A resolved move waiting for (or in) playback."""

    record: Trajectory | None
    decisions: tuple[Decision, ...]
    position: Position
    version: int
    team: str | None = None  # who moved (or for whom the server decided)
    action: object | None = None  # the coach's action (None: the server decided, or a clock event)


def catch_up(waiting: int) -> float:
    """How much faster a move plays back while ``waiting`` more moves are queued behind it: a client that fell
    behind - a spectator who came late, the hall, coaches who move the moment the server lets them (bots) while this
    client also shows the referee's interventions and a hold the server does not wait for - gets back to the
    present within a few moves; alone, a move plays at its own speed."""
    return min(CATCH_UP_MAX, 1.0 + CATCH_UP_STEP * max(0, waiting))


@dataclass
class MatchState:
    """Everything the client shows about one match."""

    position: Position | None = None
    version: int = 0
    seat: Team | None = None
    room: str | None = None
    names: dict[str, str] = field(default_factory=dict)
    coaches: dict[str, str] = field(default_factory=dict)  # every coach seen in this match (one who left stays)
    ratings: dict[str, tuple[int, bool]] = field(default_factory=dict)  # team: (rating, provisional) beside names
    offline: set[str] = field(default_factory=set)  # the teams whose coach's connection is down
    spectators: int = 0
    free_seats: tuple[str, ...] = ()
    part_clock: Clock | None = None
    move_clock: Clock | None = None
    prompts: tuple[Prompt, ...] = ()
    prompt_clocks: dict[tuple[str, str], Clock] = field(default_factory=dict)  # (kind, team): the server's ms_left
    log: list[LogLine] = field(default_factory=list)
    angles: dict[str, float] = field(default_factory=dict)
    queue: deque[PendingMove] = field(default_factory=deque)
    playback: Playback | None = None
    playback_started: float = 0.0
    banner: str | None = None
    banner_until: float = 0.0
    playback_speed: float = 1.0
    needs_resync: bool = False
    still_until: float = 0.0  # when the server's playback of the last move ends, on this clock (D3: input waits)
    against_bot: bool = False  # the opponent is the bot this client started (the HUD waits for it, not a friend)
    grace: dict[str, Clock] = field(default_factory=dict)  # team: time an away coach has left to come back
    moves: list[move_list.MoveEntry] = field(default_factory=list)  # the match record, one entry per move shown
    open_defaults: dict[str, object] = field(default_factory=dict)  # team: the default of its awaited choice
    pending_knocks: list[knocks.Knock] = field(default_factory=list)  # the sounds of the move playing, unheard
    no_show_until: float | None = None  # at a tournament's table: when a coach not there loses by walkover
    coach_moves: int | None = None  # moves of this match a coach played himself, counted from its first position
    # (None: joined later, not known); none of them: the match is not rated

    # ----------------------------------------------------------------- incoming facts
    def reset(self) -> None:
        """Forget the room and its match (back in the lobby), keeping the playback speed."""
        speed = self.playback_speed
        for name, value in vars(MatchState()).items():
            setattr(self, name, value)
        self.playback_speed = speed

    def load(self, position: Position, version: int) -> None:
        """Adopt a full snapshot (join, reconnect, resync): drops pending playback, the server's word is final
        (input stays locked until ``still_until``: the server's own playback of the last move goes on)."""
        self.position = position
        self.version = version
        self.queue.clear()
        self.playback = None
        self.needs_resync = False

    def set_clocks(self, part_ms: int | None, part_running: bool, move_ms: int | None, now: float) -> None:
        """Synchronise the part clock and the move clock (None hides a clock, e.g. the strict ruleset's move clock)."""
        self.part_clock = None if part_ms is None else Clock(part_ms, part_running, now)
        self.move_clock = None if move_ms is None else Clock(move_ms, True, now)

    def set_prompts(self, prompts: Sequence[Mapping[str, object]], running: bool, now: float) -> None:
        """Keep the server's countdown of each awaited prompt (``ms_left`` at ``now``, frozen unless ``running``).

        Why: the server's timer applies the default, so its remaining time is the honest countdown; prompts of
        older servers carry no ``ms_left`` and leave no clock (the view then counts choice_timeout_ms itself).
        """
        self.prompt_clocks = {
            (str(p.get("kind")), str(p.get("team"))): Clock(ms, running, now)
            for p in prompts
            if type(ms := p.get("ms_left")) is int
        }
        self.open_defaults = {str(p.get("team")): p["default"] for p in prompts if isinstance(p.get("default"), dict)}

    def run_prompts(self, running: bool, now: float) -> None:
        """The clocks paused or resumed without a move: the prompts' countdowns freeze or go on from ``now``."""
        if self.prompt_clocks:
            self.prompt_clocks = {key: Clock(c.at(now), running, now) for key, c in self.prompt_clocks.items()}

    def add_move(self, record: Trajectory | None, decisions: Sequence[Decision], position: Position, version: int,
                 now: float, *, team: str | None = None, action: object | None = None) -> None:
        """Queue a move the server resolved; a gap in versions asks for a snapshot instead (docs/ARCHITECTURE.md "Seats
        and resume tokens").

        A new move's arrival starts the server's D3 wait (its playback, ``duration_ms`` after the broadcast, which
        reached us later, so waiting from the arrival is never early), even when a gap drops the move itself."""
        last = self.queue[-1].version if self.queue else self.version
        if self.position is not None and version <= last:
            return  # already known (a resent broadcast)
        if record is not None:
            self.hold_input(now + record.duration_ms / 1000)
        if self.position is not None and version != last + 1:
            self.needs_resync = True
            return
        self.queue.append(PendingMove(record, tuple(decisions), position, version, team, action))
        self.update(now)

    def hold_input(self, until: float) -> None:
        """Keep input locked until ``until`` at least: the server still plays a move back (D3)."""
        self.still_until = max(self.still_until, until)

    def note(self, text: str, kind: str = "info") -> None:
        """Add a line to the log (connection news, refusals, chat)."""
        number = self.position.move_number if self.position is not None else 0
        self.log.append(LogLine(text, kind, number))
        del self.log[:-LOG_LIMIT]

    # ----------------------------------------------------------------- time
    def update(self, now: float) -> list[str]:
        """Advance playback to ``now``; return the sound cues (``siren``, ``goal``) of moves that finished."""
        cues: list[str] = []
        while True:
            if self.playback is not None:
                if not self.playback.done(now - self.playback_started):
                    return cues
                self.angles.update(self.playback.final_angles())
                self.playback = None
                cues.extend(self._finish(self.queue.popleft(), now))
            if not self.queue:
                return cues
            head = self.queue[0]
            if head.record is None or not head.record.frames:
                cues.extend(self._finish(self.queue.popleft(), now))
                continue
            base = poses_from_position(self.position, self.angles) if self.position is not None else {}
            self.playback = Playback(head.record, self.playback_speed * catch_up(len(self.queue) - 1), base)
            self.playback_started = now
            if self.position is not None:
                from shared.match import settings_of

                flicked = getattr(head.action, "stone", None) if getattr(head.action, "action", "") == "flick" \
                    else None
                self.pending_knocks = knocks.knocks(head.record, settings_of(self.position), flicked)

    def _finish(self, move: PendingMove, now: float) -> list[str]:
        """Adopt a played-back move's position, enter it in the match record, write its decisions to the log, raise
        the banner, cue sounds."""
        self.position = move.position
        self.version = max(self.version, move.version)
        self.record_move(move.team, move.action, move.decisions)
        return self.announce(move.decisions, move.position.move_number, now)

    def record_move(self, team: str | None, action: object | None, decisions: Sequence[Decision]) -> None:
        """Add one move to the match record (the move list)."""
        team = move_list.team_of(action, team)
        self.moves.append(move_list.entry(len(self.moves) + 1, team, action, decisions, self.names,
                                          self.move_clock_ms()))

    def move_clock_ms(self) -> int:
        """The room's move clock (A35), which a timeout's words tell: the match's settings, not the default's."""
        if self.position is None:
            return decision_text.MOVE_CLOCK_MS
        from shared.match import settings_of

        return settings_of(self.position).move_clock_ms

    def announce(self, decisions: Sequence[Decision], move_number: int, now: float) -> list[str]:
        """Tell a move's decisions: one log line each, the banner, and the sound cues to play."""
        for decision in decisions:
            self.log.append(LogLine(decision_text.text(decision, self.names, move_clock_ms=self.move_clock_ms()),
                                    "decision", move_number))
        del self.log[:-LOG_LIMIT]
        head = decision_text.headline(decisions, self.names, move_clock_ms=self.move_clock_ms())
        choice = self.position.exclusion_choice if self.position is not None else None
        if head is not None and choice is not None:  # the coach still chooses: tell the choice, not its default
            head = _("{foul}: {team} chooses which stone is excluded (VIII.1a, XII.7)").format(
                foul=head.split(":")[0], team=self.team_label(choice.team))
        if head is not None:
            self.banner, self.banner_until = head, now + BANNER_SECONDS
        cues = []
        if decision_text.is_goal(decisions):
            cues.append("goal")
        if decision_text.is_siren(decisions):
            cues.append("siren")
        return cues

    def due_knocks(self, now: float) -> list[knocks.Knock]:
        """The knocks of the playing move whose moment has come by ``now`` (each is given once)."""
        if self.playback is None:
            self.pending_knocks.clear()
            return []
        elapsed = (now - self.playback_started) * self.playback.speed
        due = [k for k in self.pending_knocks if k.time <= elapsed]
        self.pending_knocks = [k for k in self.pending_knocks if k.time > elapsed]
        return due

    # ----------------------------------------------------------------- what to draw
    def poses(self, now: float) -> dict[str, Pose]:
        """Where to draw every body now: from the playing move, else from the position at rest."""
        if self.playback is not None:
            return self.playback.poses(now - self.playback_started)
        if self.position is None:
            return {}
        return poses_from_position(self.position, self.angles)

    def banner_at(self, now: float) -> str | None:
        """The banner text while it is up."""
        return self.banner if self.banner is not None and now < self.banner_until else None

    @property
    def busy(self) -> bool:
        """True while a move plays back or waits to (the screen is not at rest)."""
        return self.playback is not None or bool(self.queue)

    def locked(self, now: float) -> bool:
        """True while input is locked: a move plays back here, or the server still plays the last one back (D3)."""
        return self.busy or now < self.still_until

    def my_turn(self, now: float) -> bool:
        """True when this client's seat is to move and input is not locked at ``now``."""
        return (
            self.seat is not None and self.position is not None and self.position.result is None
            and self.position.to_move == self.seat and not self.locked(now) and not self.waiting_for_opponent()
        )

    def roles(self) -> Mapping[str, Role]:
        """Each stone's role, for drawing the goalie's mask (bodies leaving the board keep their last role)."""
        if self.position is None:
            return {}
        return {s.id: s.role for s in self.position.stones}

    def waiting_for_opponent(self) -> bool:
        """True for a seated coach whose opponent's seat is still free (a created room before anyone joined), or
        held for an opponent who has not come (a tournament's table before its match begins)."""
        if self.seat is None:
            return False
        if any(team != self.seat for team in self.free_seats):
            return True
        return self.missing_opponent() is not None

    def missing_opponent(self) -> str | None:
        """The name of the opponent a held seat waits for before the match begins (None: he is there, or it runs)."""
        if self.seat is None or self.position is None or self.position.move_number > 0 or self.grace:
            return None
        if self.part_clock is not None and self.part_clock.running:
            return None
        other = next((team for team in self.names if team != self.seat), None)
        return self.names[other] if other is not None and other in self.offline else None

    def team_label(self, team: Team) -> str:
        """The display name of a team, marked while its coach is offline."""
        name = decision_text.team_name(team, self.names)
        return _("{name} (offline)").format(name=name) if team in self.offline else name

    def coaches_named(self) -> dict[str, str]:
        """Both coaches' names for the results: the seated ones, and one who has left the match by his name too."""
        return {**self.coaches, **self.names}

    def team_name(self, team: Team) -> str:
        """The display name of a team, unmarked."""
        return decision_text.team_name(team, self.names)

"""Following one room over the protocol, without I/O: feed it what the server sends, it says what to send back.

Why sans-I/O (websockets' ``Protocol``, h11): the arcade client, the bot and the test client all need the same
client side of docs/PROTOCOL.md - the handshake and the resume token, the room's version and the gap that asks
for a ``Resync``, the D3 wait before an action, the D3 refusal that says when to send the same action again, a
reconnect that takes the coach back to his seat. Written once here, as pure state changes, it is tested without a
socket and each program only moves bytes: ``connected()`` on every (re)connection, ``receive(message, now)`` for
every decoded message, ``act(action, now)`` for a decision, ``tick(now)`` now and then; each returns the messages
to send, in order. ``now`` is the caller's monotonic clock in seconds (the core reads no clock).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.model import Action, Position
from shared.protocol.messages import (
    PROTOCOL_VERSION,
    Act,
    ClientMessage,
    Clocks,
    ClockUpdate,
    Error,
    Hello,
    Left,
    MatchEnded,
    MovePlayed,
    Presence,
    QueueStatus,
    RematchOffered,
    Resync,
    RoomJoined,
    Seats,
    Snapshot,
    Watch,
    Welcome,
)

TEAMS = ("home", "away")


@dataclass(slots=True, kw_only=True)
class RoomView:
    """What the follower knows of its room: the latest version and everything that came with it."""

    code: str
    seat: str  # "home", "away" or "spectator"
    version: int = -1
    match_id: str = ""
    position: Position | None = None
    clocks: Clocks | None = None
    clocks_at: float = 0.0  # when ``clocks`` arrived (clients count down from then)
    prompts: tuple[dict[str, object], ...] = ()
    seats: Seats | None = None
    spectators: int = 0
    ended: MatchEnded | None = None
    rematch: set[str] = field(default_factory=set)
    moving_until: float = 0.0  # D3: the last move's playback ends then; the server takes no input before

    def ours_to_decide(self, decided_on: int) -> tuple[Position, str] | None:
        """The position and our team when we coach a running match with both seats taken and have not decided
        on this version yet (``decided_on``, the version of our last decision); else None - also while the room's
        version is unknown (-1: a Snapshot is awaited, the position shown may be one the room never reached)."""
        seats = self.seats
        if self.position is None or self.seat not in TEAMS or self.ended is not None or seats is None:
            return None
        if self.version < 0:
            return None
        if seats.home is None or seats.away is None or decided_on == self.version:
            return None
        return self.position, self.seat


@dataclass(slots=True, kw_only=True)
class Follower:
    """One connection's side of the protocol (see the module docstring). ``room`` is None outside a room."""

    client: str
    name: str | None = None
    token: str | None = None
    player: str | None = None  # the display name the server gave us (Welcome.player)
    room: RoomView | None = None
    queued: bool = False
    ended: MatchEnded | None = None  # the last MatchEnded received (also one told after a reconnect)
    errors: list[Error] = field(default_factory=list)  # refusals the program has not looked at yet
    _resync_asked: int = -2  # the version a Resync was sent for (not again until something arrives)
    _sent: tuple[Action, int] | None = None  # the last action sent and the version it was chosen on
    _again: tuple[Action, int, float] | None = None  # an action refused by D3: send again at this time

    # ------------------------------------------------------------------ the connection
    def connected(self) -> list[ClientMessage]:
        """A connection is open: Hello, with the token of an earlier Welcome (the same player again)."""
        self._resync_asked = -2
        return [Hello(PROTOCOL_VERSION, self.client, self.token, self.name)]

    def forget_token(self) -> None:
        """The server refused the token (close 4002): the next Hello asks to be a new player."""
        self.token = None
        self.room = None

    # ------------------------------------------------------------------ what arrives
    def receive(self, message: object, now: float) -> list[ClientMessage]:
        """Apply one server message; the requests it calls for (a Resync after a gap, rejoining after Welcome)."""
        room = self.room
        match message:
            case Welcome():
                self.token, self.player = message.token, message.player
                return self._rejoin()
            case RoomJoined():
                self.room = RoomView(code=message.code, seat=message.seat)
                self.queued = False
                self._snapshot(message.snapshot, now)
            case Snapshot() if room is not None and message.code == room.code:
                if message.version > room.version or message.match_id != room.match_id:
                    self._snapshot(message, now)
            case MovePlayed() if room is not None and message.code == room.code:
                return self._move(room, message, now)
            case ClockUpdate() if room is not None and message.code == room.code:
                room.clocks, room.clocks_at = message.clocks, now
            case Presence() if room is not None and message.code == room.code:
                room.seats, room.spectators = message.seats, message.spectators
            case MatchEnded():
                self.ended = message
                if room is not None and message.code == room.code:
                    room.ended = message
            case RematchOffered() if room is not None and message.code == room.code:
                room.rematch.add(message.team)
            case Left() if room is not None and message.code == room.code:
                self.room = None
            case QueueStatus():
                self.queued = message.queued
            case Error():
                return self._refused(message, now)
        return []

    def _rejoin(self) -> list[ClientMessage]:
        """After a Welcome on a new connection: back into the room we were in.

        A coach asks for what he missed (``Resync``): the server has already seated him again if his match runs
        (its RoomJoined comes first), seats him with the Resync otherwise, and tells him how the match ended if
        the room has closed. A spectator watches again.
        """
        room = self.room
        if room is None:
            return []
        if room.seat == "spectator":
            return [Watch(room.code)]
        self._resync_asked = room.version
        return [Resync(room.code, max(room.version, 0))]

    def _snapshot(self, snapshot: Snapshot, now: float) -> None:
        """A whole state: a new match id starts afresh (a rematch swaps the seats, RoomJoined says which)."""
        room = self.room
        assert room is not None
        if room.match_id and snapshot.match_id != room.match_id:
            room.ended, room.rematch = None, set()
        room.version, room.match_id, room.position = snapshot.version, snapshot.match_id, snapshot.position
        room.clocks, room.clocks_at, room.prompts = snapshot.clocks, now, snapshot.prompts
        room.seats, room.spectators = snapshot.seats, snapshot.spectators
        self._resync_asked = -2

    def _move(self, room: RoomView, move: MovePlayed, now: float) -> list[ClientMessage]:
        """The next version is applied; an older one is dropped; a gap asks for a Resync (once)."""
        if move.version <= room.version:
            return []
        if move.version > room.version + 1:
            if self._resync_asked == room.version:
                return []
            self._resync_asked = room.version
            return [Resync(room.code, max(room.version, 0))]
        room.version, room.position, room.prompts = move.version, move.position, move.prompts
        room.clocks, room.clocks_at = move.clocks, now
        if move.trajectory is not None:
            room.moving_until = max(room.moving_until, now + move.trajectory.duration_ms / 1000)
        self._resync_asked = -2
        return []

    def _refused(self, error: Error, now: float) -> list[ClientMessage]:
        """A refusal: the D3 wait holds the action for ``retry_ms``; a stale version asks for a Resync."""
        room = self.room
        if error.ref == "Act" and error.retry_ms is not None and self._sent is not None:
            action, version = self._sent
            self._again = (action, version, now + error.retry_ms / 1000)
            return []
        self.errors.append(error)
        if error.code != "STALE_VERSION" or room is None:
            return []
        if error.ref == "Resync":  # we are past every version the room sent (it lost them): start again from it
            room.version = -1
            self._resync_asked = -1
            return [Resync(room.code, 0)]
        if self._resync_asked == room.version:
            return []
        self._resync_asked = room.version
        return [Resync(room.code, max(room.version, 0))]

    # ------------------------------------------------------------------ what the program decides
    def locked(self, now: float) -> bool:
        """True while the last move still plays back (D3): an action now would be refused."""
        return self.room is not None and now < self.room.moving_until

    def act(self, action: Action, now: float) -> list[ClientMessage]:
        """Send ``action`` on the current version - once the board is at rest (D3); until then it waits here.

        Nothing is sent while the version is unknown (a Snapshot is awaited after a refused Resync): an action
        needs the version it was chosen on, and the program decides again on the Snapshot."""
        room = self.room
        if room is None or room.seat not in TEAMS or room.version < 0:
            return []
        if self.locked(now):
            self._again = (action, room.version, room.moving_until)
            return []
        self._sent, self._again = (action, room.version), None
        return [Act(action, room.version)]

    def tick(self, now: float) -> list[ClientMessage]:
        """The action held back by D3, once its time has come - unless the room moved on meanwhile."""
        again = self._again
        room = self.room
        if again is None or room is None or now < again[2]:
            return []
        self._again = None
        action, version, _ = again
        if version != room.version:
            return []
        self._sent = (action, version)
        return [Act(action, version)]

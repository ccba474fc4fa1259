"""The network side of the client: websockets' sync client on a background thread, and the link that turns
server messages into client state (no arcade).

Why a thread: arcade's loop must never block on the network (DESIGN.md "Client"). The thread owns the
socket: it connects (compression off: msgpack frames are small and the server does not negotiate it),
says Hello with the protocol version and the player's resume token, pings every 15 s, and puts every
decoded server message on a thread-safe queue that the view's ``poll`` drains without waiting. After a drop
it reconnects with growing pauses and, once welcomed again, rejoins its room with the seat's token.

With an ``IdentityStore`` (``client.identity``) the token, the name and the seat of a running match outlive the
process: a coach whose client closed or crashed starts again as the same player and is taken back to his
match. A token the server refuses (close 4002) is forgotten and the client connects at once without one.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from client import move_list
from client.i18n import _, team_word
from client.identity import IdentityStore
from client.state import Clock, MatchState
from shared.model import Action, other
from shared.protocol import (
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Act,
    ClockUpdate,
    Error,
    Hello,
    JoinRoom,
    Left,
    MatchEnded,
    MovePlayed,
    Ping,
    Presence,
    ProtocolError,
    RematchOffered,
    Resync,
    RoomJoined,
    Seats,
    Snapshot,
    Watch,
    Welcome,
    decode,
    encode,
)

PING_SECONDS = 15.0
RECONNECT_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)
CLIENT_NAME = "sprtec-arcade"
BAD_TOKEN = 4002  # the close code of a resume token the server does not know (docs/PROTOCOL.md "Connecting")


@dataclass(frozen=True, slots=True)
class ConnectionEvent:
    """News about the connection itself (not a protocol message): ``up``, ``down`` or ``failed`` with a reason."""

    kind: str
    detail: str = ""


class NetClient:
    """One websocket connection to a sprtec server, run on its own daemon thread."""

    def __init__(self, url: str, name: str | None = None, connect: Callable | None = None,  # type: ignore[type-arg]
                 identity: IdentityStore | None = None) -> None:
        """Prepare to connect to ``url`` as ``name``; ``connect`` replaces websockets' connect in tests (it must
        return a context manager like websockets' sync connection); ``identity`` keeps the player's token, name
        and running match on disk (None: in memory only)."""
        self.url = url
        self.identity = identity
        kept = identity.get(url) if identity is not None else None
        self.name = name or (kept.name if kept else None)
        self.inbox: queue.Queue[object] = queue.Queue()
        self.token: str | None = kept.token if kept else None
        self.room: str | None = kept.room if kept else None
        self.room_token: str | None = kept.room_token if kept else None
        self.resuming = self.room is not None  # rejoining a kept match: a refusal means it is over
        self.spectating = False
        self._connect = connect
        self._socket: Any = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ----------------------------------------------------------------- arcade side (never blocks)
    def start(self) -> None:
        """Start the network thread."""
        self._thread = threading.Thread(target=self._run, name="sprtec-net", daemon=True)
        self._thread.start()

    def send(self, message: object) -> bool:
        """Send a protocol message now if connected; False (and nothing sent) while the connection is down."""
        with self._lock:
            socket = self._socket
        if socket is None:
            return False
        try:
            socket.send(encode(message))  # type: ignore[arg-type]
            return True
        except Exception:  # the reader notices the drop and reconnects
            return False

    def drain(self) -> list[object]:
        """Every message received since the last call, oldest first."""
        items = []
        while True:
            try:
                items.append(self.inbox.get_nowait())
            except queue.Empty:
                return items

    def close(self) -> None:
        """Stop the thread and close the socket."""
        self._stop.set()
        with self._lock:
            socket = self._socket
        if socket is not None:
            try:
                socket.close()
            except Exception:
                pass

    # ----------------------------------------------------------------- network thread
    def _open(self) -> Any:
        """Open the websocket (compression off)."""
        if self._connect is not None:
            return self._connect(self.url)
        from websockets.sync.client import connect

        return connect(self.url, compression=None, open_timeout=10, max_size=None)

    def _run(self) -> None:
        """Connect, read until the socket drops, reconnect with growing pauses until closed."""
        attempt = 0
        while not self._stop.is_set():
            try:
                socket = self._open()
            except Exception as exc:
                self.inbox.put(ConnectionEvent("failed", str(exc) or type(exc).__name__))
                self._stop.wait(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
                attempt += 1
                continue
            attempt = 0
            with self._lock:
                self._socket = socket
            self.inbox.put(ConnectionEvent("up"))
            try:
                with socket:  # websockets' sync connection closes itself on leaving (17.1+ expects the with)
                    socket.send(encode(Hello(PROTOCOL_VERSION, CLIENT_NAME, self.token, self.name)))
                    self._read(socket)
            except Exception as exc:
                if _close_code(exc) == BAD_TOKEN and self.token is not None:
                    self._forget_token()
                    continue  # connect again at once, as a new player
                if not self._stop.is_set():
                    self.inbox.put(ConnectionEvent("down", str(exc) or type(exc).__name__))
            finally:
                with self._lock:
                    self._socket = None
            self._stop.wait(RECONNECT_DELAYS[0])

    def _forget_token(self) -> None:
        """The server does not know our token (close 4002): forget it, and the seat it held, here and on disk."""
        self.token, self.room, self.room_token, self.resuming = None, None, None, False
        self._keep(token=None, room=None, room_token=None)
        self.inbox.put(ConnectionEvent("down", "the server did not know this player — connecting as a new one"))

    def _keep(self, **changes: str | None) -> None:
        """Write identity changes to disk (when kept there); a failing disk never stops the game."""
        if self.identity is None:
            return
        try:
            self.identity.update(self.url, **changes)
        except OSError:
            pass

    def _read(self, socket) -> None:  # type: ignore[no-untyped-def]
        """Receive frames, decode them and queue them; ping when idle; rejoin after a reconnect."""
        last_ping = time.monotonic()
        nonce = 0
        while not self._stop.is_set():
            try:
                data = socket.recv(timeout=1.0)
            except TimeoutError:
                data = None
            if time.monotonic() - last_ping > PING_SECONDS:
                nonce = (nonce + 1) % 2**32
                socket.send(encode(Ping(nonce)))
                last_ping = time.monotonic()
            if data is None:
                continue
            try:
                message = decode(data, SERVER_MESSAGES)
            except ProtocolError as exc:
                self.inbox.put(ConnectionEvent("failed", f"bad message from the server: {exc}"))
                continue
            if not self._track(socket, message):
                continue
            self.inbox.put(message)

    def _track(self, socket, message: object) -> bool:  # type: ignore[no-untyped-def]
        """Follow the player's identity and room through ``message``; False for a message only this thread needs
        (the refusal of rejoining a kept match that is over)."""
        if isinstance(message, Welcome):
            self.token = message.token
            self._keep(token=message.token, name=self.name or message.player)
            if self.room is not None:  # resume: take the seat back, or watch again
                socket.send(encode(Watch(self.room) if self.spectating else JoinRoom(self.room, self.room_token)))
        elif isinstance(message, RoomJoined):
            self.room, self.resuming = message.code, False
            self.spectating = message.seat == "spectator"
            self.room_token = message.token or (None if self.spectating else self.room_token)
            if not self.spectating:
                self._keep(room=self.room, room_token=self.room_token)
        elif isinstance(message, Left) and message.code == self.room:
            self.room, self.room_token, self.spectating = None, None, False
            self._keep(room=None, room_token=None)
        elif isinstance(message, MatchEnded):
            self._keep(room=None, room_token=None)  # nothing to come back to after a restart
        elif isinstance(message, Error) and message.ref == "JoinRoom" and self.resuming:
            self.room, self.room_token, self.resuming = None, None, False  # the kept match is gone
            self._keep(room=None, room_token=None)
            return False
        return True


def _close_code(exc: BaseException) -> int | None:
    """The close code the server sent with a closed connection (websockets' ``rcvd``), if any."""
    received = getattr(exc, "rcvd", None)
    code = getattr(received, "code", None)
    return code if isinstance(code, int) else None


class NetLink:
    """Applies server messages to a MatchState and sends the coach's actions (every view's link).

    Match messages change the state; lobby messages (Welcome, RoomList, QueueStatus, Left, Error outside a
    room) are kept in ``other`` for the lobby to take. ``ended`` holds the MatchEnded of the current match
    and ``rematch`` the teams that asked for another; a Snapshot with a new match id starts afresh.

    An action the server refused because the board still moves (D3: a reconnect's Snapshot left this client
    without the last move's playback) locks input for the wait the server names and is sent again after it,
    if nothing happened meanwhile, so the coach's aimed flick is not lost.
    """

    def __init__(self, client: NetClient) -> None:
        """Link ``client`` to the views."""
        self.client = client
        self.ended: MatchEnded | None = None
        self.rematch: set[str] = set()
        self.match_id: str | None = None
        self.connected = False
        self.player: str | None = None
        self.other: list[object] = []  # messages for other views (room lists, queue status)
        self._state: MatchState | None = None
        self._notes: list[str] = []
        self._sent: tuple[Action, int] | None = None  # the last action sent, and the version it was sent on
        self._again: tuple[Action, int] | None = None  # an action refused by D3, to send once the board is still

    def poll(self, state: MatchState, now: float) -> None:
        """Apply every queued message to ``state``; ask for a snapshot after a gap in versions."""
        for message in self.client.drain():
            self.apply(state, message, now)
        for note in self._notes:
            state.note(note, "error")
        self._notes.clear()
        self._state = state
        if self._again is not None and not state.locked(now):
            action, version = self._again
            self._again = None
            if version == state.version:
                self.send(action)
        if state.needs_resync and state.room is not None:
            if self.client.send(Resync(state.room, state.version)):
                state.needs_resync = False

    def apply(self, state: MatchState, message: object, now: float) -> None:
        """One server message into the state."""
        if isinstance(message, ConnectionEvent):
            self.connected = message.kind == "up"
            text = {"up": _("Connected"), "down": _("Connection lost — reconnecting…"),
                    "failed": _("Cannot connect")}.get(message.kind, message.kind)
            state.note(f"{text}{': ' + message.detail if message.detail else ''}",
                       "info" if message.kind == "up" else "error")
            self.other.append(message)
        elif isinstance(message, Welcome):
            self.player = message.player
            self.other.append(message)
        elif isinstance(message, RoomJoined):
            state.room = message.code
            state.seat = None if message.seat == "spectator" else message.seat  # type: ignore[assignment]
            self._snapshot(state, message.snapshot, now)
            state.note(_("Room {code}: you are watching").format(code=message.code) if state.seat is None else
                       _("Room {code}: you are playing {team}").format(code=message.code, team=team_word(state.seat)))
        elif isinstance(message, Snapshot):
            self._snapshot(state, message, now)
        elif isinstance(message, MovePlayed):
            default = move_list.timed_out(state.open_defaults, message.team, message.action)
            if default is not None:  # a choice closed by its timeout: say what was chosen for the coach
                state.note(_("Time ran out for {team}'s choice — by default: {what}").format(
                    team=state.team_label(message.team), what=move_list.action_words(default.action)))  # type: ignore
            state.add_move(message.trajectory, message.decisions, message.position, message.version, now,
                           team=message.team, action=default or message.action)
            if (state.queue[-1].version if state.queue else state.version) == message.version:
                state.set_prompts(message.prompts, not message.clocks.paused, now)
            self._clocks(state, message.clocks, now)
        elif isinstance(message, ClockUpdate):
            state.run_prompts(not message.clocks.paused, now)
            self._clocks(state, message.clocks, now)
        elif isinstance(message, Presence):
            self._presence(state, message.seats, message.spectators, now)
        elif isinstance(message, Error):
            # The D3 refusal says how long the board still moves (server.room.Room._board_at_rest).
            if message.ref == "Act" and message.retry_ms is not None and self._sent is not None:
                state.hold_input(now + message.retry_ms / 1000)
                self._again = self._sent
                state.note(_("The board is still moving — your action goes once it stops"))
                return
            state.note(message.message, "error")
            self.other.append(message)
        elif isinstance(message, MatchEnded):
            self.ended = message
        elif isinstance(message, RematchOffered):
            self.rematch.add(message.team)
            state.note(_("{team} offers a rematch").format(team=state.team_label(message.team)))  # type: ignore
        elif isinstance(message, Left):
            self.leave_room(state)
            self.other.append(message)
        else:
            self.other.append(message)

    def leave_room(self, state: MatchState) -> None:
        """Forget the room (after Left, or when going back to the lobby)."""
        state.reset()
        self._sent = self._again = None
        self.ended, self.match_id = None, None
        self.rematch.clear()

    def send(self, action: Action) -> None:
        """Send a coach's action with the version it was decided on: the state's version now, since playback may
        have finished (and the version advanced) after the last poll."""
        version = self._state.version if self._state is not None else 0
        self._sent = (action, version)
        if not self.client.send(Act(action, version)):
            self._notes.append(_("Not connected — the action was not sent"))

    def request(self, message: object) -> bool:
        """Send a lobby or room request (CreateRoom, Rematch, Leave, …); False while disconnected."""
        return self.client.send(message)

    def _snapshot(self, state: MatchState, snapshot: Snapshot, now: float) -> None:
        """A full snapshot: position, version, clocks, seats; a new match id after a rematch starts afresh."""
        if self.match_id is not None and snapshot.match_id != self.match_id:
            if self.ended is not None and state.seat is not None:
                state.seat = other(state.seat)  # the server swaps the seats for a rematch (Room.ask_rematch)
            self.ended = None
            self.rematch.clear()
            state.log.clear()
            state.note(_("A new match begins — you play the other end"))
        self.match_id = snapshot.match_id
        state.load(snapshot.position, snapshot.version)
        state.set_prompts(snapshot.prompts, not snapshot.clocks.paused, now)
        self._clocks(state, snapshot.clocks, now)
        self._presence(state, snapshot.seats, snapshot.spectators, now)

    @staticmethod
    def _clocks(state: MatchState, clocks, now: float) -> None:  # type: ignore[no-untyped-def]
        """Synchronise the part and move clocks."""
        state.set_clocks(clocks.part_ms, not clocks.paused, clocks.move_ms or None, now)

    @staticmethod
    def _presence(state: MatchState, seats: Seats, spectators: int, now: float) -> None:
        """Coach names, free seats, the spectators' count, and how long an away coach has left to come back
        (``SeatInfo.grace_ms``, counted down locally from ``now``)."""
        free = []
        state.grace.clear()
        for team in ("home", "away"):
            info = getattr(seats, team)
            before, was_offline = state.names.get(team), team in state.offline
            if info is None:
                free.append(team)
                state.names.pop(team, None)
                state.offline.discard(team)
                if before is not None and state.position is not None:
                    state.note(_("{name} left the match").format(name=before))
                continue
            state.names[team] = info.name
            if info.connected:
                state.offline.discard(team)
            else:
                state.offline.add(team)
            if before is None and state.position is not None and team != state.seat:
                state.note(_("{name} joined as {team}").format(name=info.name, team=team_word(team)))
            elif before is not None and was_offline and info.connected:
                state.note(_("{name} is back").format(name=info.name))
            elif before is not None and not was_offline and not info.connected:
                state.note(_("{name} lost the connection").format(name=info.name), "error")
            if not info.connected and info.grace_ms is not None:
                state.grace[team] = Clock(info.grace_ms, True, now)
        state.free_seats = tuple(free)
        state.spectators = spectators

"""The network side of the client: websockets' sync client on a background thread, and the link that turns
server messages into client state (no arcade).

Why a thread: arcade's loop must never block on the network (docs/ARCHITECTURE.md "The client never simulates"). The
thread owns the socket: it connects (compression off: msgpack frames are small and the server does not negotiate it),
says Hello with the protocol version and the player's resume token, pings every 15 s, and puts every
decoded server message on a thread-safe queue that the view's ``poll`` drains without waiting. After a drop
it reconnects with growing pauses and, once welcomed again, rejoins its room with the seat's token.

With an ``IdentityStore`` (``client.common.identity``) the token, the name and the seat of a running match outlive the
process: a coach whose client closed or crashed starts again as the same player and is taken back to his
match. A token the server refuses (close 4002) is forgotten and the client connects at once without one.

A new player says who he is first (``ask_name``): the client does not connect until he has chosen a name, a claim
code from another machine, or to play as a guest (``introduce``). A Hello the server refuses (the name is taken or
not a name, the claim code does not work) waits the same way for another answer, which goes on the same connection
while the server still waits for it, or on the next one (docs/PROTOCOL.md "Players").
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from client.common.i18n import _, team_word
from client.common.identity import IdentityStore
from client.common.notice_text import notice_text
from client.match import match_history, move_list
from client.match.chat import ChatLog
from client.match.state import Clock, MatchState
from shared.model import Action, Position, other
from shared.protocol import (
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Chat,
    ClientMessage,
    ClockUpdate,
    CreateRoom,
    Error,
    GetReplay,
    Hello,
    JoinRoom,
    Left,
    MatchEnded,
    MovePlayed,
    Muted,
    Notice,
    Ping,
    Presence,
    ProtocolError,
    QuickMatch,
    Rated,
    RematchOffered,
    Renamed,
    Replay,
    RoomJoined,
    Seats,
    Snapshot,
    Watch,
    Welcome,
    decode,
    encode,
)
from shared.protocol.errors import moved_to
from shared.protocol.follower import Follower, RoomView

PING_SECONDS = 15.0
RECONNECT_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)
CLIENT_NAME = "sprtec-arcade"
BAD_TOKEN = 4002  # the close code of a resume token the server does not know (docs/PROTOCOL.md "Connecting")
HELLO_TIMEOUT = 4001  # the close code of a connection that said no Hello within 10 s
GOING_AWAY = 1001  # the close code of a server shutting down
HELLO_REFUSALS = ("NAME_TAKEN", "BAD_NAME", "BAD_CLAIM")  # the server waits for another Hello after these


@dataclass(frozen=True, slots=True)
class ConnectionEvent:
    """News about the connection itself (not a protocol message): ``up``, ``down`` or ``failed`` with a reason;
    ``stopped`` is a down one the server closed itself, shutting down (close 1001: at a club event, the organiser
    closed it)."""

    kind: str
    detail: str = ""

    @property
    def lost(self) -> bool:
        """True when the connection is gone and the client connects again by itself."""
        return self.kind in ("down", "stopped")


def connection_words(event: ConnectionEvent) -> str:
    """The connection's news as a player reads it."""
    if event.kind == "stopped":
        return _("The server was closed (the organiser stopped it) — connecting again when it runs")
    if event.kind == "failed":
        return _("Cannot connect: {detail}").format(detail=event.detail)
    return _("Connected") if event.kind == "up" else _("Connection lost — reconnecting…")


class NetClient:
    """One websocket connection to a sprtec server, run on its own daemon thread.

    The protocol's client side - the resume token, rejoining after a reconnect, the Resync after a gap in versions,
    the D3 wait and the resend after a D3 refusal - is ``shared.protocol.follower.Follower`` (the bot and the tests
    use the same one); this class moves its messages over the socket. The follower is shared by the network thread
    (what arrives) and the arcade thread (what the coach does), under one lock.
    """

    def __init__(self, url: str, name: str | None = None, connect: Callable | None = None,  # type: ignore[type-arg]
                 identity: IdentityStore | None = None, ask_name: bool = False, program: str = CLIENT_NAME) -> None:
        """Prepare to connect to ``url`` as ``name``; ``connect`` replaces websockets' connect in tests (it must
        return a context manager like websockets' sync connection); ``identity`` keeps the player's token, name
        and running match on disk (None: in memory only); ``ask_name``: a new player (no token, no name) is asked
        who he is before the client connects (``introduce``); ``program`` is what Hello calls the client (a desk
        or a hall says so: it is not counted as a player online)."""
        self.url = url  # the server the player chose: his identity is kept under it
        self.node_url: str | None = None  # a cluster's node the server sent us to (close MOVED); None: ``url``
        self.identity = identity
        kept = identity.get(url) if identity is not None else None
        kept_name = kept.name if kept is not None and kept.name and not is_guest(kept.name) else None
        self.program = program
        self.follower = Follower(client=program, name=name or kept_name, token=kept.token if kept else None)
        self.claim: str | None = None  # a claim code from another machine, said instead of a name
        self.awaiting_name = ask_name and self.follower.token is None and self.follower.name is None
        self._introduced = threading.Event()  # set while the client knows what to say in Hello
        if not self.awaiting_name:
            self._introduced.set()
        self._in_hello = False  # connected, and no Welcome yet on this connection
        if kept is not None and kept.room is not None:  # a coach's running match: the follower rejoins it
            self.follower.room = RoomView(code=kept.room, seat="home")
        self.inbox: queue.Queue[object] = queue.Queue()
        self.on_news: Callable[[], None] | None = None  # called on the network thread after news is queued (the
        # window's wake_soon: an idle loop ticks again at once)
        self._connect = connect
        self._socket: Any = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def name(self) -> str | None:
        """The display name asked for in Hello."""
        return self.follower.name

    @property
    def token(self) -> str | None:
        """The player's token (None before the first Welcome)."""
        return self.follower.token

    @property
    def room(self) -> str | None:
        """The code of the room the follower is in."""
        room = self.follower.room
        return None if room is None else room.code

    # ----------------------------------------------------------------- arcade side (never blocks)
    def introduce(self, name: str | None = None, claim: str | None = None) -> None:
        """The player's answer to "who are you?": a display name, a claim code from another machine, or neither (a
        guest). Said at once while the server waits for a Hello on this connection, else on the next one."""
        with self._lock:
            self.follower.name, self.claim = name, claim
            self.awaiting_name = False
            socket = self._socket if self._in_hello else None
            hello = self._hello() if socket is not None else []
        self._introduced.set()
        for message in hello:
            self.send(message)

    def _hello(self) -> list[ClientMessage]:
        """What to say on a new connection: the follower's Hello (the token, or the name), or the claim code."""
        hello = self.follower.connected()
        if self.follower.token is None and self.claim is not None:
            return [Hello(PROTOCOL_VERSION, self.program, None, None, self.claim)]
        return hello

    def start(self) -> None:
        """Start the network thread."""
        self._thread = threading.Thread(target=self._run, name="sprtec-net", daemon=True)
        self._thread.start()

    def send(self, message: ClientMessage) -> bool:
        """Send a protocol message now if connected; False (and nothing sent) while the connection is down."""
        with self._lock:
            socket = self._socket
        if socket is None:
            return False
        try:
            socket.send(encode(message))
            return True
        except Exception:  # the reader notices the drop and reconnects
            return False

    def act(self, action: Action, now: float) -> bool:
        """Send a coach's action on the room's current version (the follower holds it while the board moves, by
        the monotonic clock ``now``); False when the connection is down."""
        with self._lock:
            messages = self.follower.act(action, now)
        return all([self.send(m) for m in messages])

    def arrive(self, message: object, now: float) -> None:
        """One decoded server message: the follower answers it (the replies are sent), the identity follows it,
        and it is queued for the views."""
        if isinstance(message, Error) and message.ref == "Hello" and message.code in HELLO_REFUSALS:
            with self._lock:  # the player answers again; the server waits for it (a while)
                self.awaiting_name, self.claim = True, None
                self._introduced.clear()
        elif isinstance(message, Welcome):
            with self._lock:
                self._in_hello, self.claim = False, None  # a claim code is used once: we have a token now
        with self._lock:
            replies = self.follower.receive(message, now)
            self.follower.errors.clear()  # the views see every Error through the inbox
        if self._track(message):
            self.inbox.put(message)
            self._news()
        for reply in replies:
            self.send(reply)

    def _news(self) -> None:
        """Tell the window news is waiting (a failing hook never stops the network thread)."""
        hook = self.on_news
        if hook is not None:
            try:
                hook()
            except Exception:  # the window closing under us
                pass

    def tick(self, now: float) -> None:
        """Send what the follower held back once its time has come (an action after the D3 wait)."""
        with self._lock:
            messages = self.follower.tick(now)
        for message in messages:
            self.send(message)

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
        url = self.node_url or self.url
        if self._connect is not None:
            return self._connect(url)
        from websockets.sync.client import connect

        return connect(url, compression=None, open_timeout=10, max_size=None)

    def _run(self) -> None:
        """Connect, read until the socket drops, reconnect with growing pauses until closed."""
        attempt = 0
        while not self._stop.is_set():
            if not self._introduced.wait(0.2):  # a new player has not said who he is yet
                continue
            try:
                socket = self._open()
            except Exception as exc:
                self.inbox.put(ConnectionEvent("failed", str(exc) or type(exc).__name__))
                self._news()
                self.node_url = None  # the node we were sent to is gone: the server we chose sends us on again
                self._stop.wait(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
                attempt += 1
                continue
            attempt = 0
            with self._lock:
                self._socket, self._in_hello = socket, True
                hello = self._hello()
            self.inbox.put(ConnectionEvent("up"))
            self._news()
            try:
                with socket:  # websockets' sync connection closes itself on leaving (17.1+ expects the with)
                    for message in hello:
                        socket.send(encode(message))
                    self._read(socket)
            except Exception as exc:
                if _close_code(exc) == BAD_TOKEN and self.token is not None:
                    self._forget_token()
                    continue  # connect again at once, as a new player
                moved = _moved_to(exc)
                if moved is not None:
                    self.node_url = moved
                    continue  # a cluster: the room is played on that node; go there at once, with the token
                if _close_code(exc) == HELLO_TIMEOUT and self.awaiting_name:
                    continue  # the server stopped waiting for the player's name: the next connection says it
                if not self._stop.is_set():
                    stopped = _close_code(exc) == GOING_AWAY  # the server shut down (its organiser closed it)
                    self.inbox.put(ConnectionEvent("stopped" if stopped else "down", str(exc) or type(exc).__name__))
                    self._news()
            finally:
                with self._lock:
                    self._socket, self._in_hello = None, False
            self._stop.wait(RECONNECT_DELAYS[0])

    def _forget_token(self) -> None:
        """The server does not know our token (close 4002): forget it, and the seat it held, here and on disk."""
        with self._lock:
            self.follower.forget_token()
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
        """Receive frames, decode them leniently (a newer server may add fields and codes), let the follower answer
        them, and queue them for the views; ping when idle; send what the follower held back when due."""
        last_ping = time.monotonic()
        nonce = 0
        while not self._stop.is_set():
            try:
                data = socket.recv(timeout=0.1)
            except TimeoutError:
                data = None
            now = time.monotonic()
            if now - last_ping > PING_SECONDS:
                nonce = (nonce + 1) % 2**32
                socket.send(encode(Ping(nonce)))
                last_ping = now
            if data is None:
                self.tick(now)
                continue
            try:
                message = decode(data, SERVER_MESSAGES, lenient=True)
            except ProtocolError as exc:
                if exc.code != "UNKNOWN_MESSAGE":  # a message type of a newer server: not for us
                    self.inbox.put(ConnectionEvent("failed", f"bad message from the server: {exc}"))
                continue
            self.arrive(message, now)

    def _track(self, message: object) -> bool:
        """Keep the player's identity and running match on disk as messages arrive; False for a message only this
        thread needs (the refusal of rejoining a kept match that is over)."""
        if isinstance(message, Welcome):
            self._keep(token=message.token, name=message.player)  # the server's word: a returning player's own
        elif isinstance(message, Renamed):
            with self._lock:
                self.follower.name = message.name
            self._keep(name=message.name)
        elif isinstance(message, RoomJoined):
            if message.seat != "spectator":
                self._keep(room=message.code, room_token=message.token)
        elif isinstance(message, Left) or isinstance(message, MatchEnded):
            self._keep(room=None, room_token=None)  # nothing to come back to after a restart
        elif isinstance(message, Error) and message.ref == "Resync" and message.code == "ROOM_NOT_FOUND":
            with self._lock:
                self.follower.room = None  # the kept match is gone
            self._keep(room=None, room_token=None)
            return False
        return True


def act_refusal(state: MatchState, error: Error) -> str:
    """A refused action in the coach's words, naming the coaches (the server's own words name the roles, "away
    cannot move: it is home's turn"); other refusals as the server says them."""
    position = state.position
    if error.ref == "Act" and error.code == "NOT_YOUR_TURN" and position is not None:
        return _("Not your move: {name} is to move (VI.1)").format(name=state.team_name(position.to_move))
    return error.message


def is_guest(name: str) -> bool:
    """True for a name the server gave a player who chose none (``guest-<n>``: names starting so are the server's
    own, refused in a Hello, so one is never asked for again)."""
    return name.casefold().startswith("guest-")


def _moved_to(exc: BaseException) -> str | None:
    """The node a cluster sent us to (close MOVED with its websocket URL as the reason), if that is what it was."""
    received = getattr(exc, "rcvd", None)
    return moved_to(_close_code(exc), getattr(received, "reason", None))


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
    without the last move's playback) locks input for the wait the server names; the follower sends it again after
    it, if nothing happened meanwhile, so the coach's aimed flick is not lost. A gap in versions is the follower's
    too (it asks for a Resync).

    ``chat`` is the room's chat (``client.match.chat``): Chat and Muted go there, and so do the refusals of our Say and
    Mute. A client that arrives in a match already under way (a spectator, a coach whose client restarted) asks for
    the match so far (``GetReplay`` of the running match) and puts its moves before the ones it sees live
    (``client.match.match_history``; re-running them takes a while, so it is done off the drawing thread).
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
        self.ended_at = 0.0  # when ``ended`` arrived (the ratings' news follows it)
        self.rated_news: Rated | None = None  # what the last rated match did to both coaches' ratings
        self.room_rated: bool | None = None  # the room's matches are rated (None: not known, joined by its code)
        self._asked_rated: bool | None = None  # rated or not, the room asked for last (CreateRoom, QuickMatch)
        self._rated_room: str | None = None  # the room ``room_rated`` is about
        self._state: MatchState | None = None
        self._notes: list[str] = []
        self._acted = False  # an action was sent (a D3 refusal then refers to it)
        self._now = 0.0  # the monotonic time of the last poll
        self.chat = ChatLog()
        self._history_asked: tuple[str, Position] | None = None  # the match and position the history is asked up to
        self._history: queue.Queue[tuple[str, list[move_list.MoveEntry] | None]] = queue.Queue()

    def poll(self, state: MatchState, now: float) -> None:
        """Apply every queued message to ``state`` (the follower already asked for what a gap missed)."""
        for message in self.client.drain():
            self.apply(state, message, now)
        for note in self._notes:
            state.note(note, "error")
        self._notes.clear()
        self._take_history(state)
        self._state, self._now = state, now
        state.needs_resync = False
        self.client.tick(now)

    def apply(self, state: MatchState, message: object, now: float) -> None:
        """One server message into the state: its handler (``_HANDLERS``, by message type), else kept in ``other``
        for the lobby."""
        handler = _HANDLERS.get(type(message))
        if handler is None:
            self.other.append(message)
        else:
            handler(self, state, message, now)

    def _on_connection(self, state: MatchState, message: ConnectionEvent, now: float) -> None:
        """The connection came up, dropped or failed: said in the log, and kept for the lobby."""
        self.connected = message.kind == "up"
        if self.connected:
            self.chat.muted.clear()  # mutes last as long as the connection (docs/PROTOCOL.md "Chat")
        if message.kind == "stopped":
            state.note(connection_words(message), "error")
        else:
            text = {"up": _("Connected"), "down": _("Connection lost — reconnecting…"),
                    "failed": _("Cannot connect")}.get(message.kind, message.kind)
            state.note(f"{text}{': ' + message.detail if message.detail else ''}",
                       "info" if message.kind == "up" else "error")
        self.other.append(message)

    def _on_welcome(self, state: MatchState, message: Welcome, now: float) -> None:
        """The server knows us: our display name, and the Welcome kept for the lobby."""
        self.player = message.player
        self.other.append(message)

    def _on_room_joined(self, state: MatchState, message: RoomJoined, now: float) -> None:
        """In a room (created, joined, watched, or back after a reconnect or a rematch): its snapshot and our seat."""
        if message.code != self._rated_room:  # a new room (a rematch keeps the room, and whether it is rated)
            self.room_rated, self._rated_room = self._asked_rated, message.code
        self._asked_rated = None
        state.room = message.code
        state.seat = None if message.seat == "spectator" else message.seat  # type: ignore[assignment]
        self._snapshot(state, message.snapshot, now)
        state.note(_("Room {code}: you are watching").format(code=message.code) if state.seat is None else
                   _("Room {code}: you are playing {team}").format(code=message.code, team=team_word(state.seat)))

    def _on_snapshot(self, state: MatchState, message: Snapshot, now: float) -> None:
        """A whole state of the room (a resync, a rematch's first position). An older state of the same match is
        dropped: a restarted coach's Resync from 0 is answered with the room's kept frames from the match's first
        Snapshot on, after the RoomJoined that already brought him the present - taken, it would play every earlier
        move back again and enter it in the move list twice."""
        known = state.queue[-1].version if state.queue else state.version
        if state.position is not None and message.match_id == self.match_id and message.version < known:
            return
        self._snapshot(state, message, now)

    def _on_move(self, state: MatchState, message: MovePlayed, now: float) -> None:
        """A resolved move, queued for playback; a choice closed by its timeout says what was chosen for the
        coach."""
        default = move_list.timed_out(state.open_defaults, message.team, message.action)
        if default is not None:
            state.note(_("Time ran out for {team}'s choice — by default: {what}").format(
                team=state.team_label(message.team), what=move_list.action_words(default.action)))  # type: ignore
        own = message.action is not None and default is None  # nil: the move clock ran out, the server moved
        if own and state.coach_moves is not None:
            state.coach_moves += 1  # a coach played this one himself (a match of none is not rated)
        state.add_move(message.trajectory, message.decisions, message.position, message.version, now,
                       team=message.team, action=default or message.action)
        if (state.queue[-1].version if state.queue else state.version) == message.version:
            state.set_prompts(message.prompts, not message.clocks.paused, now)
        self._clocks(state, message.clocks, now)

    def _on_clock_update(self, state: MatchState, message: ClockUpdate, now: float) -> None:
        """The clocks paused or resumed without a move; the prompts' countdowns follow them."""
        state.run_prompts(not message.clocks.paused, now)
        self._clocks(state, message.clocks, now)

    def _on_presence(self, state: MatchState, message: Presence, now: float) -> None:
        """Who is in the room changed."""
        self._presence(state, message.seats, message.spectators, now)

    def _on_error(self, state: MatchState, message: Error, now: float) -> None:
        """A refusal: the D3 wait of our action (the board still moves) locks input until the follower resends
        it; a refused chat line is said in the chat; any other is said in the log and kept for the lobby."""
        if self.chat.refused(message):
            return
        if message.ref == "GetReplay" and self._history_asked is not None:
            self._history_asked = None  # the match so far is not to be had (too large, or gone): the list starts here
            return
        # The D3 refusal says how long the board still moves (server.rooms.room.Room._board_at_rest).
        if message.ref == "Act" and message.retry_ms is not None and self._acted:
            state.hold_input(now + message.retry_ms / 1000)  # the follower sends it again then
            state.note(_("The board is still moving — your action goes once it stops"))
            return
        state.note(act_refusal(state, message), "error")
        self.other.append(message)

    def _on_match_ended(self, state: MatchState, message: MatchEnded, now: float) -> None:
        """The match is over (the results screen takes it from ``ended``)."""
        self.ended, self.ended_at = message, now

    def _on_rated(self, state: MatchState, message: Rated, now: float) -> None:
        """What the match did to both coaches' ratings."""
        self.rated_news = message
        for change in message.changes:
            state.coaches.setdefault(change.team, change.player)

    def _on_rematch(self, state: MatchState, message: RematchOffered, now: float) -> None:
        """A coach asked for another match."""
        self.rematch.add(message.team)
        state.note(_("{team} offers a rematch").format(team=state.team_label(message.team)))  # type: ignore

    def _on_chat(self, state: MatchState, message: Chat, now: float) -> None:
        """A line of the room's chat."""
        self.chat.hear(message, state.names)  # a tournament table's seats are named as its entries

    def _on_muted(self, state: MatchState, message: Muted, now: float) -> None:
        """The server confirmed a mute (or its end)."""
        self.chat.muted_changed(message)

    def _on_replay(self, state: MatchState, message: Replay, now: float) -> None:
        """A match's replay: the match so far when we asked for it (rebuilt on a thread of its own); also kept for
        the views that asked for one to save."""
        asked = self._history_asked
        if asked is not None and asked[0] == message.match_id:
            self._history_asked = None
            names = dict(state.names)
            threading.Thread(target=self._rebuild_history, args=(message.match_id, message.scenario, asked[1], names),
                             name="sprtec-history", daemon=True).start()
        self.other.append(message)

    def _rebuild_history(self, match_id: str, scenario: str, joined_at: Position, names: dict[str, str]) -> None:
        """Re-run the replay up to the position we joined at (off the drawing thread) and hand the entries over."""
        self._history.put((match_id, match_history.earlier_moves(scenario, joined_at, names)))

    def _take_history(self, state: MatchState) -> None:
        """Put the match so far, once rebuilt, before the moves seen live (for the match it was asked for)."""
        while True:
            try:
                match_id, history = self._history.get_nowait()
            except queue.Empty:
                return
            if history and match_id == self.match_id:
                state.moves[:] = match_history.merged(history, state.moves)

    def _ask_history(self, state: MatchState, snapshot: Snapshot) -> None:
        """Arriving in a match already under way with an empty move list: ask for the match so far."""
        if state.moves or snapshot.position.move_number == 0 or self._history_asked is not None:
            return
        if self.client.send(GetReplay(snapshot.match_id)):
            self._history_asked = (snapshot.match_id, snapshot.position)

    def _on_notice(self, state: MatchState, message: Notice, now: float) -> None:
        """News from the server about play (its disk, an opponent who did not come): in the log, and for the
        lobby's status line."""
        state.note(notice_text(message), "error" if message.code in ("PLAY_PAUSED", "OPPONENT_MISSING") else "info")
        self.other.append(message)

    def _on_left(self, state: MatchState, message: Left, now: float) -> None:
        """We left the room (or it closed): forget it, and tell the lobby."""
        self.leave_room(state)
        self.other.append(message)

    def leave_room(self, state: MatchState) -> None:
        """Forget the room (after Left, or when going back to the lobby)."""
        state.reset()
        self._acted = False
        self.ended, self.match_id, self.rated_news = None, None, None
        self.room_rated, self._rated_room = None, None
        self.rematch.clear()
        self.chat.leave()
        self._history_asked = None

    def send(self, action: Action) -> None:
        """Send a coach's action on the room's current version (the follower's: it has seen every message)."""
        self._acted = True
        if not self.client.act(action, self._now):
            self._notes.append(_("Not connected — the action was not sent"))

    def request(self, message: ClientMessage) -> bool:
        """Send a lobby or room request (CreateRoom, Rematch, Leave, …); False while disconnected. A room asked for
        is known to be rated or casual (quick matches are rated); one joined by its code or watched is not."""
        if isinstance(message, CreateRoom):
            self._asked_rated = message.rated
        elif isinstance(message, QuickMatch):
            self._asked_rated = True
        elif isinstance(message, JoinRoom | Watch):
            self._asked_rated = None
        return self.client.send(message)

    def _snapshot(self, state: MatchState, snapshot: Snapshot, now: float) -> None:
        """A full snapshot: position, version, clocks, seats; a new match id after a rematch starts afresh."""
        if self.match_id is not None and snapshot.match_id != self.match_id:
            if self.ended is not None and state.seat is not None:
                state.seat = other(state.seat)  # the server swaps the seats for a rematch (Room.ask_rematch)
            self.ended = None
            self.rematch.clear()
            state.log.clear()
            state.moves.clear()  # the move list is this match's record
            state.coaches.clear()
            self.rated_news = None
            state.note(_("A new match begins — you play the other end"))
        if snapshot.match_id != self.match_id:
            state.coach_moves = 0 if snapshot.position.move_number == 0 else None  # counted from the first position
        self.match_id = snapshot.match_id
        state.load(snapshot.position, snapshot.version)
        self._ask_history(state, snapshot)
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
                state.ratings.pop(team, None)
                state.offline.discard(team)
                if before is not None and state.position is not None:
                    state.note(_("{name} left the match").format(name=before))
                continue
            state.names[team] = state.coaches[team] = info.name
            if info.rating is None:
                state.ratings.pop(team, None)
            else:
                state.ratings[team] = (info.rating, info.provisional)
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


# The message types NetLink applies to the match state, each with its handler; the rest go to ``other``.
_HANDLERS: dict[type, Callable[[NetLink, MatchState, Any, float], None]] = {
    ConnectionEvent: NetLink._on_connection,
    Welcome: NetLink._on_welcome,
    RoomJoined: NetLink._on_room_joined,
    Snapshot: NetLink._on_snapshot,
    MovePlayed: NetLink._on_move,
    ClockUpdate: NetLink._on_clock_update,
    Presence: NetLink._on_presence,
    Error: NetLink._on_error,
    MatchEnded: NetLink._on_match_ended,
    Rated: NetLink._on_rated,
    RematchOffered: NetLink._on_rematch,
    Left: NetLink._on_left,
    Notice: NetLink._on_notice,
    Chat: NetLink._on_chat,
    Muted: NetLink._on_muted,
    Replay: NetLink._on_replay,
}

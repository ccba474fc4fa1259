"""One websocket connection: the Hello handshake, then decoded, rate-limited requests routed to lobby and room.

Why this is the only place that reads the socket: every input is policed here before anything else sees
it (docs/ARCHITECTURE.md "Every input is validated at the
edge", as lila-ws does): frames are size-capped by websockets, decoded by ``shared.protocol``
(which raises only ``ProtocolError``), counted against a token bucket, and dispatched. A bad request gets
an ``Error`` with a code and changes nothing; a connection that keeps misbehaving - text frames, repeated
invalid frames, floods - is closed with a close code and a reason. Exceptions from a room are caught here, so
one request can never take down the connection's task or another room.

Keep-alive is websockets' own: the server pings every KEEPALIVE_INTERVAL_S and closes with 1011 when no pong
comes within KEEPALIVE_TIMEOUT_S. A connection that answers pings may stay silent for as long as it likes (a
spectator, a coach waiting for an opponent).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from websockets.exceptions import ConnectionClosed

from server import logs
from server.connections.abort import abort
from server.connections.address_budgets import CLAIM_CODE, NEW_PLAYER, AddressBudgets
from server.connections.ratelimit import TokenBucket
from server.constants import ABORT_LINGER_S, CHAT_BURST, CHAT_WINDOW_S, MAX_VIOLATIONS, RATE_BURST, RATE_WINDOW_S
from server.ops.metrics import Metrics
from server.players import Identity, Players, chosen_name
from server.replays.replay_request import replay_frame
from server.rooms.lobby import Lobby
from server.rooms.placement import Placement
from server.rooms.registry import Moved
from server.rooms.room import Room, RoomError
from server.store.store_port import Store
from server.tokens import normalise_code
from server.wire import outgoing
from shared.model import Flick
from shared.names import BadName, clean_chat
from shared.protocol import (
    CLIENT_MESSAGES,
    HELLO_TIMEOUT_S,
    LARGE_REQUESTS,
    MAX_CLIENT_FRAME,
    MAX_LARGE_FRAME,
    MAX_RATE_STRIKES,
    PROTOCOL_VERSION,
    Act,
    CancelQuickMatch,
    ClientMessage,
    CloseCode,
    CreateRoom,
    Error,
    GetClaimCode,
    GetReplay,
    Hello,
    JoinRoom,
    JoinTournament,
    Leave,
    Left,
    ListRooms,
    MatchEnded,
    Mute,
    Muted,
    Ping,
    Pong,
    ProtocolError,
    QueueStatus,
    QuickMatch,
    Rematch,
    Rename,
    Resync,
    RoomList,
    Say,
    Score,
    ServerMessage,
    Watch,
    Welcome,
    decode,
)

log = logging.getLogger(__name__)
SERVER_NAME = "sprtec"
_REFUSED = object()  # what ``_next`` returns for a frame it answered with an Error (the connection goes on)


Handler = Callable[["Session", Any], Awaitable[None]]  # a service's answer to one kind of request


class Host(Protocol):
    """What a session needs from the server it runs in (not the server itself: no import circle).

    ``handlers``: the requests the server's services answer (players, tournaments), by message type, so a
    service adds requests without this module knowing it.
    """

    store: Store
    lobby: Lobby
    players: Players
    handlers: dict[type, Handler]
    ready: asyncio.Event  # set once a restarted server's rooms are back
    metrics: Metrics  # the operators' figures: connections here, flick latency
    limits: AddressBudgets  # what connections from one address may do together
    placement: Placement  # where rooms are played: this process alone, or a node of a cluster (server.rooms.placement)

    async def register(self, session: Session) -> None:
        """A player is connected through ``session`` now."""
        ...

    def unregister(self, session: Session) -> None:
        """``session`` ended."""
        ...


class Session:
    """A connected client: its player (after Hello), its room, its budget."""

    def __init__(self, ws: Any, server: Host) -> None:
        self.ws = ws
        self.server = server
        self.player_id = 0
        self.name = ""
        self.token = ""
        self.identity = Identity(0, "", "")  # who the Hello said (``stored`` False: a guest not stored yet)
        self.program = ""  # the program its Hello named (``Hello.client``): a desk or a hall is not a player online
        self.client = server.limits.client_of(ws)  # where it comes from, for the per-address budgets
        self.room: Room | None = None
        self.relayed: str | None = None  # a cluster: the room played elsewhere this connection watches through here
        self.bucket = TokenBucket(RATE_BURST, RATE_WINDOW_S, time.monotonic)
        self.chat_bucket = TokenBucket(CHAT_BURST, CHAT_WINDOW_S, time.monotonic)
        self.muted: set[int] = set()  # players whose chat this connection does not receive (Mute)
        self.violations = 0
        self.strikes = 0

    # ------------------------------------------------------------------ sending and closing
    async def send(self, message: ServerMessage) -> None:
        """Send one message; a connection that is already gone is ignored (its reader will clean up)."""
        try:
            await self.ws.send(outgoing(message))
        except ConnectionClosed:
            pass

    async def send_frame(self, frame: bytes) -> None:
        """Send one message encoded already (a Replay, checked against the frame size before)."""
        try:
            await self.ws.send(frame)
        except ConnectionClosed:
            pass

    async def error(self, code: str, message: str, ref: str | None, retry_ms: int | None = None) -> None:
        """Refuse one request; the connection stays usable (``retry_ms``: when the same request may succeed)."""
        await self.send(Error(code, message[:500], ref, retry_ms))

    async def close(self, code: int, reason: str) -> None:
        """Close the connection with a code and a reason."""
        log.info("closing connection of player %s: %s %s", self.player_id, code, reason)
        await self.ws.close(code, reason)

    async def moved(self, url: str) -> None:
        """Send the connection to the node where its room is played (a cluster): MOVED with that node's URL."""
        await self.close(CloseCode.MOVED, url)

    async def _here(self, code: str) -> bool:
        """Make room ``code`` this server's if it is nobody's (a cluster); False after sending the connection to the
        node that plays it (MOVED)."""
        return await self._unless_moved(self.server.placement.here(normalise_code(code)))

    async def _unless_moved(self, step: Awaitable[None]) -> bool:
        """A cluster's step for this connection; False after sending the connection on (MOVED) when the step says
        its room is played on another node."""
        try:
            await step
        except Moved as moved:
            await self.moved(moved.url)
            return False
        return True

    async def abort(self, code: int, reason: str) -> None:
        """Close an abusive connection at once (``server.connections.abort``): the close frame, then TCP dropped within
        ABORT_LINGER_S - never the closing handshake a flooding client does not complete."""
        log.warning("aborting connection of player %s from %s: %s", self.player_id, self.ws.remote_address, reason)
        await abort(self.ws, code, reason, ABORT_LINGER_S)

    # ------------------------------------------------------------------ the connection's life
    async def run(self) -> None:
        """Handshake, then serve requests until the connection closes; always leave the room cleanly.

        Every line logged while serving this player carries his id (``server.logs.bind``: this task only)."""
        connections = self.server.metrics.connections
        connections.inc()
        try:
            if await self._hello():
                with logs.bind(player=self.player_id):
                    await self._serve()
        except ConnectionClosed:
            pass
        finally:
            connections.dec()
            await self._gone()

    async def _next(self, timeout: float | None) -> object | None:
        """The next valid message, ``_REFUSED`` after answering a bad frame with an Error, or None once the
        connection is closed (a text frame, silence before Hello, repeated abuse).

        The rate limit counts every frame; a frame over the budget is decoded first, so its Error names the
        message it refuses (``ref`` is nil only when a frame could not be decoded).
        """
        try:
            async with asyncio.timeout(timeout):  # no task per message, unlike wait_for on Python 3.11
                data = await self.ws.recv()
        except TimeoutError:
            await self.close(CloseCode.HELLO_TIMEOUT, f"no Hello within {HELLO_TIMEOUT_S} s")
            return None
        if isinstance(data, str):
            await self.close(CloseCode.UNSUPPORTED_DATA, "messages are binary msgpack frames")
            return None
        allowed = self.bucket.take()
        message: ClientMessage | None = None
        problem: ProtocolError | None = None
        try:
            message = decode(data, CLIENT_MESSAGES, MAX_LARGE_FRAME)  # type: ignore[assignment]
        except ProtocolError as exc:
            problem = exc
        if len(data) > MAX_CLIENT_FRAME and not isinstance(message, LARGE_REQUESTS):
            await self.close(CloseCode.MESSAGE_TOO_BIG, f"a message is at most {MAX_CLIENT_FRAME} bytes")
            return None
        if not allowed:
            self.strikes += 1
            if self.strikes > MAX_RATE_STRIKES:
                await self.abort(CloseCode.POLICY_VIOLATION, "rate limit exceeded repeatedly")
                return None
            ref = None if message is None else type(message).__name__
            await self.error("RATE_LIMITED", "too many messages: the budget is 100 messages per 20 seconds", ref)
            return _REFUSED
        if problem is not None:
            if await self._violation():
                return None
            await self.error(problem.code, problem.message, None)
            return _REFUSED
        return message

    async def _violation(self) -> bool:
        """Count one invalid message; True (after closing the connection) once there were too many."""
        self.violations += 1
        if self.violations > MAX_VIOLATIONS:
            await self.abort(CloseCode.POLICY_VIOLATION, "too many invalid messages")
            return True
        return False

    async def _hello(self) -> bool:
        """Wait for a Hello of our protocol (other messages get HELLO_REQUIRED), then answer Welcome.

        A returning coach (a token whose player holds a seat in a running match) is taken straight back to his
        room: ``RoomJoined`` follows the Welcome. One whose match ended while he was away is told how it ended.
        """
        deadline = asyncio.get_running_loop().time() + HELLO_TIMEOUT_S
        while True:
            message = await self._next(max(0.0, deadline - asyncio.get_running_loop().time()))
            if message is None:
                return False
            if message is _REFUSED:
                continue
            if not isinstance(message, Hello):
                if await self._violation():
                    return False
                await self.error("HELLO_REQUIRED", "say Hello first (the protocol version and your client)",
                                 type(message).__name__)
                continue
            if message.protocol != PROTOCOL_VERSION:
                await self.close(CloseCode.VERSION_MISMATCH, f"protocol mismatch: server speaks {PROTOCOL_VERSION}")
                return False
            refusal: RoomError | None = None
            try:
                name = None if message.name is None else chosen_name(message.name)
                identified = await self._identify(message, name)
            except BadName as exc:
                identified, refusal = None, RoomError("BAD_NAME", f"{exc}; send Hello again with another name")
            except RoomError as exc:  # NAME_TAKEN, BAD_CLAIM: another Hello may follow
                identified, refusal = None, exc
            if refusal is not None:  # a valid Hello the server refuses: not an invalid message (the deadline holds)
                await self.error(refusal.code, refusal.message, "Hello", refusal.retry_ms)
                continue
            if identified is None:
                return False
            self.player_id, self.name, self.token = identified.player_id, identified.name, identified.token
            self.identity, self.program = identified, message.client
            break
        await self.server.register(self)
        log.info("player %s (%r) connected from %s", self.player_id, self.name, self.ws.remote_address,
                 extra={"player": self.player_id})
        await self.send(Welcome(PROTOCOL_VERSION, SERVER_NAME, self.name, self.token, self.player_id))
        await self.server.ready.wait()  # a restarted server rebuilds its rooms first (a second or two)
        await self._come_back()
        return True

    async def _identify(self, hello: Hello, name: str | None) -> Identity | None:
        """The player this Hello is: the token's, the claim code's, or a new one (a guest is not stored yet); None
        after closing the connection (an unknown token, a store that cannot take a new player, an address that added
        too many). Raises RoomError for another Hello to follow (a wrong claim code is answered a second late, and
        an address's wrong ones are limited: ``server.connections.address_budgets``)."""
        players, store, limits = self.server.players, self.server.store, self.server.limits
        if hello.token is not None:
            found = players.by_token(hello.token)
            if found is None:
                await self.close(CloseCode.BAD_TOKEN, "unknown token: connect again without one")
            return found
        if not store.health.ok:
            await self.close(CloseCode.TRY_AGAIN_LATER, "the server cannot store new players right now; try later")
            return None
        if hello.claim is not None:
            limits.check(CLAIM_CODE, self.client)
            claimed = await players.claim(hello.claim)
            if claimed is None:
                await limits.wrong_guess(CLAIM_CODE, self.client)
                raise RoomError("BAD_CLAIM", "that claim code is not one of this server's, was used, or expired")
            return claimed
        if name is None:
            return players.new_guest()
        try:
            limits.check(NEW_PLAYER, self.client)
        except RoomError as exc:
            await self.close(CloseCode.TRY_AGAIN_LATER, exc.message)
            return None
        created = await players.new_player(name)
        limits.spend(NEW_PLAYER, self.client)
        return created

    async def _keep(self) -> None:
        """Store a guest who does something the server must remember (``_KEPT``), within his address's budget."""
        self.server.limits.check(NEW_PLAYER, self.client)
        self.identity = await self.server.players.keep(self.identity)
        self.server.limits.spend(NEW_PLAYER, self.client)

    async def _come_back(self) -> None:
        """After Welcome: back to a running match this player holds a seat in, or the news of how it ended."""
        lobby = self.server.lobby
        if not lobby.rooms_with_seat(self.player_id):  # a cluster: a room nobody owns is taken over here
            if not await self._unless_moved(self.server.placement.seat_elsewhere(self.player_id)):
                return
        for room in lobby.rooms_with_seat(self.player_id):
            team = room.seat_of_player(self.player_id)
            table_waits = room.core.reserved and room.core.phase == "waiting"  # his tournament table
            if team is not None and (room.status == "playing" or table_waits):
                await room.attach(self, team)
                return
        last_seen = self.server.players.records.last_seen(self.player_id)
        finished = self.server.store.last_finished_match(self.player_id)
        if finished is not None and last_seen is not None and (finished.finished_at or 0) >= last_seen:
            await self._tell_result(finished)
        if self.identity.stored:
            self.server.players.touch(self.player_id)

    async def _tell_result(self, finished: Any) -> None:
        """Tell a coach how a match he was away from ended (a forfeit, usually)."""
        await self.send(
            MatchEnded(finished.room_code, finished.id, Score(*finished.score), finished.winner, finished.reason)
        )

    async def _serve(self) -> None:
        """Decode, police and dispatch requests until the connection ends.

        The lines a request logs name the connection's room and match (``server.logs.bind``), bound again only when
        they change: a move costs no new log context."""
        bound_room: Room | None = None
        bound_match = ""
        with contextlib.ExitStack() as binding:
            while True:
                message = await self._next(None)
                if message is None:
                    return
                if message is _REFUSED:
                    continue
                room = self.room
                if room is not bound_room or (room is not None and room.match.id != bound_match):
                    binding.close()
                    if room is not None:
                        binding.enter_context(logs.bind(room=room.code, match=room.match.id))
                    bound_room, bound_match = room, "" if room is None else room.match.id
                await self._answer(message)

    async def _answer(self, message: object) -> None:
        """Dispatch one request; a refusal or a bug is answered with an Error and the connection goes on."""
        ref = type(message).__name__
        try:
            await self._dispatch(message)
        except RoomError as exc:
            await self.error(exc.code, exc.message, ref, exc.retry_ms)
        except ConnectionClosed:
            raise
        except Exception:  # a bug must not kill the connection's task or touch other rooms
            log.exception("session %s: %s failed", self.player_id, ref)
            await self.error("INTERNAL", "the server failed to handle this request; nothing changed", ref)

    async def _gone(self) -> None:
        """The connection ended: leave the quick-match queue and detach from the room (the seat waits)."""
        if self.player_id:
            log.info("player %s disconnected (%s)", self.player_id, self.ws.close_code,
                     extra={"player": self.player_id})
            if self.identity.stored:
                self.server.players.touch(self.player_id)
        await self.server.lobby.cancel_quick(self)
        if self.relayed is not None:
            await self.server.placement.unwatch(self)
        self.server.unregister(self)
        if self.room is not None:
            room = self.room
            if await room.detach(self):
                await self.server.lobby.close_if_idle(room)

    # ------------------------------------------------------------------ requests
    async def _dispatch(self, message: object) -> None:
        """Route one decoded request: to its handler here (``_REQUESTS``), or to a service of the server; a guest
        not stored yet is stored first when the request needs him to be (``_KEPT``)."""
        if not self.identity.stored and type(message) in _KEPT:
            await self._keep()
        own = _REQUESTS.get(type(message))
        if own is not None:
            await own(self, message)
        elif type(message) in self.server.handlers:
            await self.server.handlers[type(message)](self, message)
        else:
            raise RoomError("UNKNOWN_MESSAGE", f"{type(message).__name__} is not a request")

    async def _ping(self, message: Ping) -> None:
        """Pong with the same nonce."""
        await self.send(Pong(message.nonce))

    async def _second_hello(self, _message: Hello) -> None:
        """A second Hello is a protocol violation."""
        await self.close(CloseCode.PROTOCOL_ERROR, "Hello may be sent only once")

    async def _list_rooms(self, _message: ListRooms) -> None:
        """The public rooms."""
        await self.send(RoomList(await self.server.lobby.public_rooms()))

    async def _create_room(self, message: CreateRoom) -> None:
        """Open a room and take its home seat."""
        self._must_be_free()
        await self.server.lobby.create(self, message.ruleset, message.settings, message.private, message.rated,
                                       message.spectator_chat)

    async def _join_room(self, message: JoinRoom) -> None:
        """Take a free seat (or one's own again); a closed room's last match is told instead."""
        self._must_be_free()
        if await self._here(message.code):
            await self._or_result(message.code, self.server.lobby.join(self, message.code))

    async def _watch(self, message: Watch) -> None:
        """Watch a room."""
        self._must_be_free()
        if await self.server.placement.watch_elsewhere(self, normalise_code(message.code)):
            return  # the room is played on another node: its frames come through this one (server.cluster.relay)
        await self.server.lobby.watch(self, message.code)

    async def _quick_match(self, message: QuickMatch) -> None:
        """Queue for a quick match (answered QueueStatus while waiting)."""
        self._must_be_free()
        lobby = self.server.lobby
        if not await lobby.quick(self, message.ruleset, message.settings):
            await self.send(QueueStatus(True, message.ruleset, await lobby.waiting(message.ruleset)))

    async def _cancel_quick_match(self, _message: CancelQuickMatch) -> None:
        """Leave the queue."""
        if not await self.server.lobby.cancel_quick(self):
            raise RoomError("NOT_IN_QUEUE", "you are not in the quick-match queue")
        await self.send(QueueStatus(False, None, 0))

    async def _leave(self, _message: Leave) -> None:
        """Leave the room (a coach in a running match resigns it)."""
        if self.relayed is not None:
            code = self.relayed
            await self.server.placement.unwatch(self)
            await self.send(Left(code))
            return
        room = self._room()
        idle = await room.leave(self)
        await self.send(Left(room.code))
        if idle:
            await self.server.lobby.close_if_idle(room)

    async def _act(self, message: Act) -> None:
        """A coach's action; a flick's time from its arrival to its MovePlayed broadcast is measured."""
        room = await self._live_room()
        if not isinstance(message.action, Flick):
            await room.act(self, message.action, message.version)
            return
        began = time.perf_counter()
        await room.act(self, message.action, message.version)  # returns once committed and broadcast (or raises)
        self.server.metrics.move_latency.observe(time.perf_counter() - began)

    async def _rematch(self, _message: Rematch) -> None:
        """Ask for a rematch."""
        await (await self._live_room()).ask_rematch(self)

    async def _resync_request(self, message: Resync) -> None:
        """What was missed (a closed room's last match is told instead)."""
        placement = self.server.placement
        if self.relayed is not None and self.relayed == normalise_code(message.code):
            await placement.resync_elsewhere(self)
            return
        if self.room is not None and self.room.closed and placement.moves_rooms:
            self.room = None  # the room stopped here (another node plays it now): look it up as from outside
        if self.room is None and not await self._here(message.code):
            return
        await self._or_result(message.code, self._resync(message.code, message.since_version))

    async def _say(self, message: Say) -> None:
        """A line of chat or an emote in the connection's room (cleaned, rate-limited)."""
        if (message.text is None) == (message.emote is None):
            raise RoomError("BAD_MESSAGE", "Say carries either text or an emote")
        text = None if message.text is None else clean_chat(message.text)
        if message.text is not None and not text:
            raise RoomError("BAD_MESSAGE", "the line has nothing printable left")
        if not self.chat_bucket.take():
            raise RoomError("RATE_LIMITED", f"chat: at most {CHAT_BURST} lines per {CHAT_WINDOW_S:g} seconds")
        await self._room().chat(self, text, message.emote)

    async def _mute(self, message: Mute) -> None:
        """Stop or start receiving a player's chat."""
        found = self.server.players.records.named(message.player)
        if found is None:
            raise RoomError("NO_PLAYER", f"no player of this server is called {message.player!r}")
        if message.muted:
            self.muted.add(found[0])
        else:
            self.muted.discard(found[0])
        await self.send(Muted(found[1], message.muted))

    async def _replay(self, message: GetReplay) -> None:
        """A match's replay."""
        await self.send_frame(await replay_frame(self.server.store.read_match, message.match_id, self._follows))

    async def _resync(self, code: str, since: int) -> None:
        """Resync: the missed messages, a Snapshot, a ClockUpdate when nothing was missed, or STALE_VERSION."""
        room = self.server.lobby.find(code)
        if self.room is not room:
            own = room.seat_of_player(self.player_id)
            if own is None:
                raise RoomError("NOT_IN_ROOM", "resync a room you coach in, or Watch it first")
            self._must_be_free()
            await room.attach(self, own)
            return  # RoomJoined carried a Snapshot of the room as it is
        await room.resync(self, since)

    async def _or_result(self, code: str, request: Any) -> None:
        """Run a request on room ``code``; when that room has closed and this player coached its last match, tell
        him how it ended instead of ROOM_NOT_FOUND."""
        try:
            await request
        except RoomError as exc:
            if exc.code != "ROOM_NOT_FOUND":
                raise
            finished = self.server.store.last_finished_match(self.player_id, normalise_code(code))
            if finished is None:
                raise
            await self._tell_result(finished)

    def _room(self) -> Room:
        """The connection's room, or NOT_IN_ROOM."""
        if self.room is None:
            raise RoomError("NOT_IN_ROOM", "join or watch a room first")
        return self.room

    async def _live_room(self) -> Room:
        """The connection's room. In a cluster, a room that has stopped on this node (another node owns it now, or
        this node is taking it over again) first sends the connection where it is played - ``MOVED`` to its owner, or
        back into its seat here (``RoomJoined``) - and the request is refused: it changed nothing, decide again."""
        room = self._room()
        if not room.closed or not self.server.placement.moves_rooms:
            return room
        self.room = None
        if await self._here(room.code):
            await self._or_result(room.code, self._resync(room.code, room.version))
        raise RoomError("ROOM_NOT_FOUND", f"room {room.code} stopped on this server and goes on where you are sent; "
                                          "nothing changed: decide again")

    def _follows(self, code: str) -> bool:
        """True when this player is in room ``code`` (seated or watching) or holds a seat there while away."""
        if (self.room is not None and self.room.code == code) or self.relayed == code:
            return True
        room = self.server.lobby.rooms.get(code)
        return room is not None and room.seat_of_player(self.player_id) is not None

    def _must_be_free(self) -> None:
        """ALREADY_IN_ROOM unless the connection is in no room."""
        if self.room is not None or self.relayed is not None:
            code = self.room.code if self.room is not None else self.relayed
            raise RoomError("ALREADY_IN_ROOM", f"leave room {code} first")


# The requests that need their sender stored: they keep his id (a seat, a queue, an entry), change his row (a name, a
# claim code) or let others name him (chat, which Mute answers by name). Looking - lists, watching, replays - does not.
_KEPT = frozenset({CreateRoom, JoinRoom, QuickMatch, Say, Rename, GetClaimCode, JoinTournament})

# The requests a session answers itself, by message type (the server's services answer others: Host.handlers).
_REQUESTS: dict[type, Callable[[Session, Any], Awaitable[None]]] = {
    Ping: Session._ping,
    Hello: Session._second_hello,
    ListRooms: Session._list_rooms,
    CreateRoom: Session._create_room,
    JoinRoom: Session._join_room,
    Watch: Session._watch,
    QuickMatch: Session._quick_match,
    CancelQuickMatch: Session._cancel_quick_match,
    Leave: Session._leave,
    Act: Session._act,
    Rematch: Session._rematch,
    Resync: Session._resync_request,
    GetReplay: Session._replay,
    Say: Session._say,
    Mute: Session._mute,
}

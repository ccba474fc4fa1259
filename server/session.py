"""One websocket connection: the Hello handshake, then decoded, rate-limited requests routed to lobby and room.

Why this is the only place that reads the socket: every input is policed here before anything else sees
it (DESIGN.md "Server", lila-ws): frames are size-capped by websockets, decoded by ``shared.protocol``
(which raises only ``ProtocolError``), counted against a token bucket, and dispatched. A bad request gets
an ``Error`` with a code and changes nothing; a connection that keeps misbehaving - text frames, no Hello,
repeated undecodable frames, floods - is closed with a close code and a reason. Exceptions from a room
are caught here, so one request can never take down the connection's task or another room.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from websockets.exceptions import ConnectionClosed

from server.abort import abort
from server.constants import ABORT_LINGER_S, MAX_RATE_STRIKES, MAX_VIOLATIONS, RATE_BURST, RATE_WINDOW_S
from server.ratelimit import TokenBucket
from server.replay_request import replay_frame
from server.room import Member, Room, RoomError
from server.store import Store
from server.tokens import hash_token, new_token
from shared.protocol import (
    CLIENT_MESSAGES,
    HELLO_TIMEOUT_S,
    IDLE_TIMEOUT_S,
    MAX_CLIENT_FRAME,
    PROTOCOL_VERSION,
    Act,
    CancelQuickMatch,
    CloseCode,
    CreateRoom,
    Error,
    GetReplay,
    Hello,
    JoinRoom,
    Leave,
    Left,
    ListRooms,
    Ping,
    Pong,
    ProtocolError,
    QueueStatus,
    QuickMatch,
    Rematch,
    Resync,
    RoomJoined,
    RoomList,
    Watch,
    Welcome,
    decode,
    encode,
)

if TYPE_CHECKING:
    from server.app import Server

log = logging.getLogger(__name__)
SERVER_NAME = "sprtec"


class Session(Member):
    """A connected client: its player (after Hello), its room, its budget."""

    def __init__(self, ws: Any, server: Server) -> None:
        self.ws = ws
        self.server = server
        self.player_id = 0
        self.name = ""
        self.token = ""
        self.room: Room | None = None
        self.bucket = TokenBucket(RATE_BURST, RATE_WINDOW_S, time.monotonic)
        self.violations = 0
        self.strikes = 0

    # ------------------------------------------------------------------ sending and closing
    async def send(self, message: object) -> None:
        """Send one message; a connection that is already gone is ignored (its reader will clean up)."""
        try:
            await self.ws.send(encode(message))
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

    async def abort(self, code: int, reason: str) -> None:
        """Close an abusive connection at once (``server.abort``): the close frame, then TCP dropped within
        ABORT_LINGER_S - never the closing handshake a flooding client does not complete."""
        log.warning("aborting connection of player %s from %s: %s", self.player_id, self.ws.remote_address, reason)
        await abort(self.ws, code, reason, ABORT_LINGER_S)

    # ------------------------------------------------------------------ the connection's life
    async def run(self) -> None:
        """Handshake, then serve requests until the connection closes; always leave the room cleanly."""
        try:
            if await self._hello():
                await self._serve()
        except ConnectionClosed:
            pass
        finally:
            await self._gone()

    async def _receive(self, timeout: float) -> bytes | None:
        """The next binary frame, or None after closing the connection for a text frame or silence."""
        try:
            async with asyncio.timeout(timeout):  # no task per message, unlike wait_for on Python 3.11
                data = await self.ws.recv()
        except TimeoutError:
            await self.close(CloseCode.IDLE if self.player_id else CloseCode.HELLO_TIMEOUT, "no message in time")
            return None
        if isinstance(data, str):
            await self.close(CloseCode.UNSUPPORTED_DATA, "messages are binary msgpack frames")
            return None
        return data

    async def _hello(self) -> bool:
        """The first message must be a Hello of our protocol; answer Welcome with the player's token."""
        data = await self._receive(HELLO_TIMEOUT_S)
        if data is None:
            return False
        try:
            hello = decode(data, CLIENT_MESSAGES, MAX_CLIENT_FRAME)
        except ProtocolError as exc:
            await self.close(CloseCode.PROTOCOL_ERROR, f"expected Hello: {exc.message}"[:120])
            return False
        if not isinstance(hello, Hello):
            await self.close(CloseCode.PROTOCOL_ERROR, "the first message must be Hello")
            return False
        if hello.protocol != PROTOCOL_VERSION:
            await self.close(CloseCode.VERSION_MISMATCH, f"this server speaks protocol {PROTOCOL_VERSION}")
            return False
        store = self.server.store
        if hello.token is not None:
            found = store.player_by_token_hash(hash_token(hello.token))
            if found is None:
                await self.close(CloseCode.BAD_TOKEN, "unknown token: connect again without one")
                return False
            self.player_id, self.name = found
            self.token = hello.token
        else:
            self.token = new_token()
            self.name = hello.name or "guest"
            (self.player_id,) = await store.write([Store.add_player(self.name, hash_token(self.token))])
            if hello.name is None:
                self.name = f"guest-{self.player_id}"
        await self.server.register(self)
        log.info("player %s (%s) connected from %s", self.player_id, self.name, self.ws.remote_address)
        await self.send(Welcome(PROTOCOL_VERSION, SERVER_NAME, self.name, self.token))
        return True

    async def _serve(self) -> None:
        """Decode, police and dispatch requests until the connection ends."""
        while True:
            data = await self._receive(IDLE_TIMEOUT_S)
            if data is None:
                return
            if not self.bucket.take():
                self.strikes += 1
                if self.strikes > MAX_RATE_STRIKES:
                    await self.abort(CloseCode.POLICY_VIOLATION, "rate limit exceeded repeatedly")
                    return
                await self.error("RATE_LIMITED", "too many messages: the budget is 100 messages per 20 seconds", None)
                continue
            try:
                message = decode(data, CLIENT_MESSAGES, MAX_CLIENT_FRAME)
            except ProtocolError as exc:
                self.violations += 1
                if self.violations > MAX_VIOLATIONS:
                    await self.abort(CloseCode.POLICY_VIOLATION, "too many invalid messages")
                    return
                await self.error(exc.code, exc.message, None)
                continue
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
            log.info("player %s disconnected (%s)", self.player_id, self.ws.close_code)
        self.server.lobby.cancel_quick(self)
        self.server.unregister(self)
        if self.room is not None:
            await self.room.detach(self)

    # ------------------------------------------------------------------ requests
    async def _dispatch(self, message: object) -> None:
        """Route one decoded request."""
        lobby = self.server.lobby
        match message:
            case Ping(nonce=nonce):
                await self.send(Pong(nonce))
            case Hello():
                await self.close(CloseCode.PROTOCOL_ERROR, "Hello may be sent only once")
            case ListRooms():
                await self.send(RoomList(lobby.public_rooms()))
            case CreateRoom(ruleset=ruleset, settings=settings, private=private):
                self._must_be_free()
                room = await lobby.create(self, ruleset, settings, private)
                await self.send(RoomJoined(room.code, "home", self.token, room.snapshot()))
            case JoinRoom(code=code):
                self._must_be_free()
                room, team = await lobby.join(self, code)
                await self.send(RoomJoined(room.code, team, self.token, room.snapshot()))
            case Watch(code=code):
                self._must_be_free()
                room = lobby.find(code)
                await room.watch(self)
                await self.send(RoomJoined(room.code, "spectator", None, room.snapshot()))
            case QuickMatch(ruleset=ruleset, settings=settings):
                self._must_be_free()
                paired = await lobby.quick(self, ruleset, settings)
                if paired is None:
                    await self.send(QueueStatus(True, ruleset, lobby.registry.waiting(ruleset)))
                    return
                room, opponent = paired
                await opponent.send(QueueStatus(False, room.ruleset, 0))
                await opponent.send(RoomJoined(room.code, "home", opponent.token, room.snapshot()))
                await self.send(QueueStatus(False, room.ruleset, 0))
                await self.send(RoomJoined(room.code, "away", self.token, room.snapshot()))
            case CancelQuickMatch():
                if not lobby.cancel_quick(self):
                    raise RoomError("NOT_IN_QUEUE", "you are not in the quick-match queue")
                await self.send(QueueStatus(False, None, 0))
            case Leave():
                room = self._room()
                await room.leave(self)
                await self.send(Left(room.code))
            case Act(action=action, version=version):
                await self._room().act(self, action, version)
            case Rematch():
                await self._room().ask_rematch(self)
            case Resync(code=code, since_version=since):
                room = lobby.find(code)
                if self.room is not room:
                    own = room.seat_of_player(self.player_id)
                    if own is None:
                        raise RoomError("NOT_IN_ROOM", "resync a room you coach in, or Watch it first")
                    self._must_be_free()
                    await room.attach(self, own)
                await room.resync(self, since)
            case GetReplay(match_id=match_id):
                await self.send_frame(await replay_frame(self.server.store.path.parent, match_id, self._follows))
            case _:
                raise RoomError("UNKNOWN_MESSAGE", f"{type(message).__name__} is not a request")

    def _room(self) -> Room:
        """The connection's room, or NOT_IN_ROOM."""
        if self.room is None:
            raise RoomError("NOT_IN_ROOM", "join or watch a room first")
        return self.room

    def _follows(self, code: str) -> bool:
        """True when this player is in room ``code`` (seated or watching) or holds a seat there while away."""
        if self.room is not None and self.room.code == code:
            return True
        room = self.server.lobby.registry.get(code)
        return room is not None and room.seat_of_player(self.player_id) is not None

    def _must_be_free(self) -> None:
        """ALREADY_IN_ROOM unless the connection is in no room."""
        if self.room is not None:
            raise RoomError("ALREADY_IN_ROOM", f"leave room {self.room.code} first")

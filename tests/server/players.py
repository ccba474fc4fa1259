"""A small protocol client for the end-to-end tests: connect, say Hello, follow a room, play simple flicks.

Why in the tests and not the bot: the tests need a client whose every step is visible (versions,
messages received) and whose play is deterministic; it flicks the first selectable stone
(``shared.match.legal_stones``) straight at the puck - real, legal moves through the real protocol. It does not
use ``shared.protocol.follower`` on purpose: where the follower recovers (a version gap → ``Resync``, a refusal →
wait and retry), this client asserts, so a test sees the server skip a version or refuse a move instead of having
it papered over.
"""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any

import websockets

from shared import match as rules
from shared.model import Flick, Position, Team, is_team
from shared.protocol import (
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Act,
    CreateRoom,
    Hello,
    JoinRoom,
    MatchEnded,
    MovePlayed,
    RoomJoined,
    Snapshot,
    Welcome,
    decode,
    encode,
)
from shared.protocol.messages import Message

RECV_TIMEOUT_S = 20.0


async def answer_to(url: str, hello: Hello, headers: dict[str, str] | None = None) -> object:
    """The server's first answer to ``hello`` on a new connection: a message, or the close code (an int) when it
    closes the connection instead. The connection is closed after."""
    async with websockets.connect(url, compression=None, max_size=2**20, additional_headers=headers) as ws:
        await ws.send(encode(hello))
        try:
            return decode(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S), SERVER_MESSAGES)
        except websockets.ConnectionClosed:
            assert ws.close_code is not None
            return ws.close_code


class WireClient:
    """One websocket connection speaking the protocol, recording what it received."""

    def __init__(self, ws: Any, welcome: Welcome) -> None:
        self.ws = ws
        self.welcome = welcome
        self.token = welcome.token
        self.team: Team | None = None
        self.code = ""
        self.version = 0
        self.position: Position | None = None
        self.moves: list[MovePlayed] = []
        self.ended: MatchEnded | None = None
        self.received: list[object] = []
        self.moving_until = 0.0  # monotonic s the last move's playback ends (D3: the server refuses input before)

    @classmethod
    async def connect(cls, url: str, name: str | None = None, token: str | None = None,
                      headers: dict[str, str] | None = None) -> WireClient:
        """Open a connection and complete the Hello handshake (``headers``: more headers in the opening request,
        e.g. the X-Forwarded-For of a proxy)."""
        ws = await websockets.connect(url, compression=None, max_size=2**20, additional_headers=headers)
        await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", token, name)))
        welcome = decode(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S), SERVER_MESSAGES)
        assert isinstance(welcome, Welcome), welcome
        return cls(ws, welcome)

    async def send(self, message: Message) -> None:
        """Send one message."""
        await self.ws.send(encode(message))

    async def recv(self) -> object:
        """Receive one message and fold it into what the client knows."""
        message = decode(await asyncio.wait_for(self.ws.recv(), RECV_TIMEOUT_S), SERVER_MESSAGES)
        self.received.append(message)
        state = message
        if isinstance(message, RoomJoined):
            self.code = message.code
            self.team = message.seat if is_team(message.seat) else None  # a spectator has no team
            state = message.snapshot
        if isinstance(state, Snapshot):
            self.version, self.position = state.version, state.position
        elif isinstance(message, MovePlayed):
            assert message.version == self.version + 1, (message.version, self.version)
            self.version, self.position = message.version, message.position
            self.moves.append(message)
            if message.trajectory is not None:
                self.moving_until = time.monotonic() + message.trajectory.duration_ms / 1000
        elif isinstance(message, MatchEnded):
            self.ended = message
        return message

    async def until(self, kind: type) -> Any:
        """Receive until a message of ``kind`` arrives; returns it."""
        while True:
            message = await self.recv()
            if isinstance(message, kind):
                return message

    def my_turn(self) -> bool:
        """True when the room waits for this client's team to move."""
        p = self.position
        return p is not None and self.team is not None and p.result is None and p.to_move == self.team and (
            p.part.kind in ("period", "overtime")
        )

    def flick(self) -> Act:
        """The first selectable stone, flicked at the puck at 1.5 m/s."""
        p = self.position
        assert p is not None and self.team is not None
        stone_id = rules.legal_stones(p, self.team)[0]
        stone = p.stone(stone_id)
        assert stone is not None
        dx, dy = p.puck.x - stone.x, p.puck.y - stone.y
        norm = math.hypot(dx, dy) or 1.0
        return Act(Flick(self.team, stone_id, 1500.0 * dx / norm, 1500.0 * dy / norm), self.version)

    async def close(self) -> None:
        """Close the connection."""
        await self.ws.close()


    async def at_rest(self) -> None:
        """Wait until the last move's playback has ended (on a real clock), as a client locks its input."""
        left = self.moving_until - time.monotonic()
        if left > 0:
            await asyncio.sleep(left)


async def two_coaches(url: str, ruleset: str, settings: dict[str, Any], *, rated: bool = False,
                      names: tuple[str, str] = ("ann", "bob"), started: bool = True) -> tuple[WireClient, WireClient]:
    """The first of ``names`` creates a private room (``ruleset``, ``settings``), the second joins it; with
    ``started`` both have seen the match's first Snapshot (it follows both RoomJoined)."""
    home = await WireClient.connect(url, names[0])
    await home.send(CreateRoom(ruleset, settings, True, rated=rated))
    await home.until(RoomJoined)
    away = await WireClient.connect(url, names[1])
    await away.send(JoinRoom(home.code))
    await away.until(RoomJoined)
    if started:
        for coach in (home, away):
            await coach.until(Snapshot)
    return home, away


async def play_until_end(client: WireClient, stop_after: int | None = None) -> None:
    """Play this client's turns until the match ends (or until ``stop_after`` moves were seen)."""
    if client.my_turn():
        await client.send(client.flick())
    while client.ended is None:
        if stop_after is not None and len(client.moves) >= stop_after:
            return
        message = await client.recv()
        if isinstance(message, MovePlayed | Snapshot) and client.my_turn():
            await client.at_rest()
            await client.send(client.flick())

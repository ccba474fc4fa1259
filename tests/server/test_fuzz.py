"""Thousands of random and mutated frames against a running server while a match goes on in another room."""

from __future__ import annotations

import asyncio
import random

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from server.app import Server
from shared.model import Flick
from shared.protocol import (
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Act,
    CreateRoom,
    Error,
    Hello,
    JoinRoom,
    ListRooms,
    Ping,
    Pong,
    RoomJoined,
    Watch,
    decode,
    encode,
)
from tests.server.conftest import SHORT
from tests.server.players import WireClient, play_until_end

FRAMES = 3000
_VALID = [
    encode(Ping(7)),
    encode(ListRooms()),
    encode(CreateRoom("quick", {"period_ms": 4000}, False)),
    encode(JoinRoom("ACDEFG")),
    encode(Watch("ACDEFG")),
    encode(Act(Flick("home", "h2", 100.0, 0.0), 3)),
]
# msgpack of {"t": "Act", ...} with NaN, inf, wrong types and unknown fields, written by hand
_NASTY = [
    b"\x82\xa1t\xa4Ping\xa5nonce\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00",  # nonce = NaN
    b"\x82\xa1t\xa4Ping\xa5nonce\xcb\x7f\xf0\x00\x00\x00\x00\x00\x00",  # nonce = inf
    b"\x81\xa1t\xa7Nothing",  # unknown type
    b"\x83\xa1t\xa4Ping\xa5nonce\x01\xa3bad\xc0",  # extra field
    b"\xc1",  # never-used byte
    b"\xdd\xff\xff\xff\xff",  # array32 claiming 4 billion items
    b"\x92\x01\x02",  # an array, not a map
]


def _frame(rng: random.Random) -> bytes:
    """A random, nasty or mutated frame."""
    kind = rng.random()
    if kind < 0.3:
        return bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 64)))
    if kind < 0.45:
        return rng.choice(_NASTY)
    frame = bytearray(rng.choice(_VALID))
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        if op < 0.5 and frame:
            frame[rng.randrange(len(frame))] = rng.getrandbits(8)
        elif op < 0.75 and frame:
            del frame[rng.randrange(len(frame)) :]
        else:
            frame.insert(rng.randrange(len(frame) + 1), rng.getrandbits(8))
    return bytes(frame)


async def _fuzzer(url: str, seed: int, count: int) -> int:
    """Send ``count`` frames, reconnecting whenever the server closes us; returns the connections used."""
    rng = random.Random(seed)
    sent, connections = 0, 0
    while sent < count:
        connections += 1
        async with websockets.connect(url, compression=None) as ws:
            if rng.random() < 0.8:
                await ws.send(encode(Hello(PROTOCOL_VERSION, "fuzz")))
            try:
                while sent < count:
                    sent += 1
                    if rng.random() < 0.02:
                        await ws.send("a text frame")
                    elif rng.random() < 0.01:
                        await ws.send(b"\x80" * 70_000)  # larger than the frame cap
                    else:
                        await ws.send(_frame(rng))
                    if sent % 25 == 0:
                        await asyncio.sleep(0)
            except ConnectionClosed:
                continue
    return connections


@pytest.mark.slow
async def test_random_frames_never_disturb_a_match_in_another_room(server: Server):
    """The fuzzed connections get errors or closes; the match elsewhere ends normally and the server answers."""
    ann = await WireClient.connect(server.url, "ann")
    await ann.send(CreateRoom("quick", {**SHORT, "period_ms": 5000, "move_clock_ms": 3000}, True))
    await ann.until(RoomJoined)
    bob = await WireClient.connect(server.url, "bob")
    await bob.send(JoinRoom(ann.code))
    await bob.until(RoomJoined)
    fuzz = asyncio.gather(*(_fuzzer(server.url, seed, FRAMES // 3) for seed in range(3)))
    await asyncio.wait_for(asyncio.gather(play_until_end(ann), play_until_end(bob), fuzz), 60)
    assert ann.ended is not None and ann.ended == bob.ended
    assert ann.ended.reason != "FORFEIT_DISCONNECTED"
    probe = await WireClient.connect(server.url, "probe")
    await probe.send(Ping(42))
    assert await probe.until(Pong) == Pong(42)
    room = server.lobby.find(ann.code)
    assert room.match.log_len == len(ann.moves)


async def test_bad_messages_get_an_error_code_and_the_connection_stays_usable(server: Server):
    """Undecodable bytes and NaN get BAD_MESSAGE, an unknown type UNKNOWN_MESSAGE; a Ping still works after."""
    client = await WireClient.connect(server.url, "zed")
    codes = []
    for frame in (b"\xc1", _NASTY[0], _NASTY[2]):
        await client.ws.send(frame)
        message = decode(await client.ws.recv(), SERVER_MESSAGES)
        assert isinstance(message, Error)
        codes.append(message.code)
    assert codes == ["BAD_MESSAGE", "BAD_MESSAGE", "UNKNOWN_MESSAGE"]
    await client.send(Ping(1))
    assert await client.until(Pong) == Pong(1)


async def test_a_flood_is_rate_limited_then_closed_with_policy_violation(server: Server):
    """Past 100 messages the client gets RATE_LIMITED, and a continued flood is closed with 1008."""
    client = await WireClient.connect(server.url, "flood")
    errors = 0
    try:
        for i in range(400):
            await client.send(Ping(i))
        while True:
            message = decode(await asyncio.wait_for(client.ws.recv(), 15), SERVER_MESSAGES)
            errors += isinstance(message, Error) and message.code == "RATE_LIMITED"
    except ConnectionClosed:
        pass
    assert errors > 0
    assert client.ws.close_code == 1008

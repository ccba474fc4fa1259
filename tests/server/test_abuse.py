"""A connection closed for abuse is dropped at once, even when the client never answers the closing handshake."""

from __future__ import annotations

import asyncio
import base64
import os
import struct
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import server.app
from server.app import Server, ServerConfig
from server.constants import MAX_VIOLATIONS
from shared.protocol import PROTOCOL_VERSION, CloseCode, Hello, encode

GUARD_S = 30.0  # only a hang guard: with the close handshake awaited, the server would wait an hour


@pytest.fixture
async def patient_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Server]:
    """A server whose closing handshake would wait an hour, so only an abort can end a connection quickly."""
    monkeypatch.setattr(server.app, "CLOSE_TIMEOUT_S", 3600.0)
    srv = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0))
    await srv.start()
    yield srv
    await srv.shutdown()


def _masked(payload: bytes, opcode: int = 0x2) -> bytes:
    """One client frame (FIN, masked) as RFC 6455 writes it."""
    mask = os.urandom(4)
    size = len(payload)
    length = bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + struct.pack("!H", size)
    head = bytes([0x80 | opcode]) + length
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def test_a_client_sending_junk_is_aborted_without_waiting_for_its_close_frame(patient_server: Server):
    """After MAX_VIOLATIONS bad frames the server sends 1008 and drops TCP; the raw client never sends a close."""
    reader, writer = await asyncio.open_connection("127.0.0.1", patient_server.port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    assert b" 101 " in await reader.readuntil(b"\r\n\r\n")
    writer.write(_masked(encode(Hello(PROTOCOL_VERSION, "tests", None, "mallory"))))
    for _ in range(MAX_VIOLATIONS + 1):
        writer.write(_masked(b"\xc1"))  # never a msgpack value
    await writer.drain()
    received = await asyncio.wait_for(reader.read(), GUARD_S)  # until the server drops the connection (EOF)
    close = received.rfind(b"\x88")  # the last frame: close, code and reason
    assert close >= 0, received[-40:]
    code = struct.unpack("!H", received[close + 2 : close + 4])[0]
    assert code == CloseCode.POLICY_VIOLATION
    writer.close()


async def test_a_message_past_16_kib_is_closed_with_1009_unless_it_may_be_large(patient_server: Server):
    """A 20 KB Ping closes the connection with 1009 (message too big), as websockets' own limit did before
    CreateTournament and RegisterEntries were allowed 64 KiB; a 70 KB CreateTournament is closed likewise."""
    import msgpack
    import websockets
    from websockets.exceptions import ConnectionClosed

    for frame in (msgpack.packb({"t": "Ping", "nonce": 1, "pad": "x" * 20_000}),
                  msgpack.packb({"t": "CreateTournament", "file": "ż" * 35_000})):
        async with websockets.connect(patient_server.url, compression=None) as ws:
            await ws.send(encode(Hello(PROTOCOL_VERSION, "tests")))
            await ws.recv()
            await ws.send(frame)
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), GUARD_S)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.MESSAGE_TOO_BIG

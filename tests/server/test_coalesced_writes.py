"""A connection's frames of one event-loop turn reach the client in one write, in order; closing, the handshake and
plain HTTP answers are written at once, over real websockets on port 0."""

from __future__ import annotations

import asyncio
import http
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
import websockets
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from server.connections.coalesced_writes import CoalescedConnection

pytestmark = pytest.mark.asyncio

Handler = Callable[[ServerConnection], Awaitable[None]]


@asynccontextmanager
async def _serving(handler: Handler, **options: Any) -> AsyncIterator[str]:
    """A websockets server with coalesced connections on a free loopback port: its URI."""
    async with websockets.serve(handler, "127.0.0.1", 0, create_connection=CoalescedConnection,
                                compression=None, **options) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}/"


def _count_writes(ws: ServerConnection) -> list[bytes]:
    """Every ``write`` the connection's transport is given from now on."""
    written: list[bytes] = []
    write = ws.transport.write

    def counting(data: bytes | bytearray | memoryview) -> None:
        written.append(bytes(data))
        write(data)

    ws.transport.write = counting  # type: ignore[method-assign]
    return written


async def test_the_frames_of_one_turn_go_out_in_one_write_and_in_order() -> None:
    writes: list[list[bytes]] = []

    async def handler(ws: ServerConnection) -> None:
        writes.append(_count_writes(ws))
        for k in range(3):
            await ws.send(f"first turn {k}".encode())
        await asyncio.sleep(0.01)
        await ws.send(b"a later turn")
        await ws.wait_closed()

    async with _serving(handler) as uri, connect(uri) as client:
        received = [await client.recv() for _ in range(4)]
    assert received == [b"first turn 0", b"first turn 1", b"first turn 2", b"a later turn"]
    first, later = writes[0][:2]  # then the close frame answering the client's
    assert first.count(b"first turn") == 3  # the three frames of the first turn in one write
    assert b"a later turn" in later and b"first turn" not in later


async def test_broadcast_reaches_every_connection_once_each() -> None:
    joined: list[ServerConnection] = []
    everyone = asyncio.Event()

    async def handler(ws: ServerConnection) -> None:
        joined.append(ws)
        if len(joined) == 5:
            everyone.set()
        await ws.wait_closed()

    async with _serving(handler) as uri:
        clients = [await connect(uri) for _ in range(5)]
        await asyncio.wait_for(everyone.wait(), 5)
        websockets.broadcast(joined, b"to all")
        websockets.broadcast(joined, b"again")
        for client in clients:
            assert [await client.recv(), await client.recv()] == [b"to all", b"again"]
            await client.close()


async def test_a_close_after_frames_arrives_after_them_with_its_code() -> None:
    async def handler(ws: ServerConnection) -> None:
        await ws.send(b"before the close")
        await ws.close(4003, "goodbye")

    async with _serving(handler) as uri, connect(uri) as client:
        assert await client.recv() == b"before the close"
        with pytest.raises(ConnectionClosed) as closed:
            await client.recv()
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4003, "goodbye")


async def test_frames_of_a_connection_that_dropped_meanwhile_are_not_written() -> None:
    done = asyncio.Event()

    async def handler(ws: ServerConnection) -> None:
        written = _count_writes(ws)
        await ws.send(b"never written")
        ws.transport.abort()  # gone before the turn ends
        await asyncio.sleep(0.01)
        assert written == []
        done.set()

    async with _serving(handler) as uri:
        async with connect(uri) as client:
            with pytest.raises(ConnectionClosed):
                await client.recv()
        await asyncio.wait_for(done.wait(), 5)


async def test_a_plain_http_answer_is_written_at_once() -> None:
    def process_request(connection: ServerConnection, request: Any) -> Any:
        return connection.respond(http.HTTPStatus.OK, "healthy\n")

    async def handler(ws: ServerConnection) -> None:  # never reached: every request is answered in HTTP
        raise AssertionError("no websocket expected")

    async with _serving(handler, process_request=process_request) as uri:
        host, port = uri.removeprefix("ws://").rstrip("/").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        answer = await asyncio.wait_for(reader.read(), 5)
        writer.close()
    assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(b"healthy\n")

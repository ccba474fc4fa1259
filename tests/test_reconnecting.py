"""The reconnecting loop of the bot and the tournament coach against real websocket servers on port 0: MOVED is
followed at once, an unreachable node gives way to the next of the cluster, a refused token ends it, a dropped
connection is made again."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from shared.protocol import CloseCode
from sprtec.commands.reconnecting import Reconnecting, Refused, stay_connected

QUICK = Reconnecting(give_up_s=10.0)


def _closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _read_one(ws: Any) -> str:
    """A session that is done with the first message it receives."""
    return str(await ws.recv())


class Node:
    """A websocket server on 127.0.0.1:0 that does ``behave(connection)`` with each connection, counting them."""

    def __init__(self, behave: Callable[[ServerConnection], Any]) -> None:
        self.behave = behave
        self.connections = 0
        self.url = ""

    async def handler(self, connection: ServerConnection) -> None:
        """One connection."""
        self.connections += 1
        await self.behave(connection)


@pytest.fixture
async def nodes() -> AsyncIterator[Callable[[Callable[[ServerConnection], Any]], Any]]:
    """Start nodes on demand; all are closed after the test."""
    servers = []

    async def start(behave: Callable[[ServerConnection], Any]) -> Node:
        node = Node(behave)
        server = await serve(node.handler, "127.0.0.1", 0)
        servers.append(server)
        node.url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/"
        return node

    yield start
    for server in servers:
        server.close()
        await server.wait_closed()


async def test_moved_is_followed_at_once_to_the_rooms_node(nodes: Any) -> None:
    """Node A closes with MOVED and B's URL: the next connection is to B, without a pause, and B's session ends it."""
    async def greet(ws: ServerConnection) -> None:
        await ws.send("hello from b")
        await ws.wait_closed()

    b = await nodes(greet)

    async def send_on(ws: ServerConnection) -> None:
        await ws.close(CloseCode.MOVED, b.url)

    a = await nodes(send_on)
    started = asyncio.get_running_loop().time()
    assert await stay_connected(a.url, _read_one, QUICK) == "hello from b"
    assert (a.connections, b.connections) == (1, 1)
    assert asyncio.get_running_loop().time() - started < 0.4  # no reconnection pause (the first is 0.5 s)


async def test_an_unreachable_node_gives_way_to_the_next_of_the_cluster(nodes: Any) -> None:
    """The first URL refuses connections: the loop tries the others it was given."""
    async def greet(ws: ServerConnection) -> None:
        await ws.send("hello from the other node")
        await ws.wait_closed()

    other = await nodes(greet)
    how = Reconnecting(give_up_s=10.0, others=(other.url,))
    assert await stay_connected(f"ws://127.0.0.1:{_closed_port()}/", _read_one, how) == "hello from the other node"


async def test_a_dropped_connection_is_made_again(nodes: Any) -> None:
    """The first connection drops without a close frame's reason; the second one is served."""
    async def drop_first(ws: ServerConnection) -> None:
        if node.connections == 1:
            await ws.close(CloseCode.GOING_AWAY, "restarting")
            return
        await ws.send("back")
        await ws.wait_closed()

    node = await nodes(drop_first)
    said: list[str] = []
    how = Reconnecting(give_up_s=10.0, say=said.append)
    assert await stay_connected(node.url, _read_one, how) == "back"
    assert node.connections == 2 and said and "reconnecting" in said[0]


@pytest.mark.parametrize("code", [CloseCode.BAD_TOKEN, CloseCode.VERSION_MISMATCH])
async def test_a_refusal_for_good_ends_the_loop(nodes: Any, code: int) -> None:
    """A server that will never take the client (unknown token, another protocol) ends it with Refused."""
    async def refuse(ws: ServerConnection) -> None:
        await ws.close(code, "no")

    node = await nodes(refuse)
    with pytest.raises(Refused):
        await stay_connected(node.url, _read_one, QUICK)
    assert node.connections == 1


async def test_a_client_never_welcomed_gives_up_after_the_first_connect_limit() -> None:
    """Nothing listens at the URL and the client was never welcomed: it stops after ``first_connect_s``."""
    how = Reconnecting(give_up_s=60.0, first_connect_s=0.6)
    with pytest.raises(RuntimeError, match="no connection"):
        await asyncio.wait_for(stay_connected(f"ws://127.0.0.1:{_closed_port()}/", _read_one, how,
                                              welcomed=lambda: False), 10)

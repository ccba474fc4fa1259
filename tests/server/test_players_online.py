"""The players online a server tells the LAN are its players: the organiser's desk and the hall's screen, which say
who they are in their Hello, are connections but not players; the client's desk and hall say so."""

from __future__ import annotations

import asyncio

import websockets

from client.match.net import NetClient
from server.app import Server
from shared.protocol import PROTOCOL_VERSION, SERVER_MESSAGES, Hello, Welcome, decode, encode
from shared.protocol.lan_record import DESK_CLIENT, HALL_CLIENT


async def _hello(url: str, program: str, name: str | None = None) -> websockets.ClientConnection:
    """A connection that said Hello as ``program`` and was welcomed."""
    ws = await websockets.connect(url, compression=None)
    await ws.send(encode(Hello(PROTOCOL_VERSION, program, None, name)))
    assert isinstance(decode(await asyncio.wait_for(ws.recv(), 10), SERVER_MESSAGES), Welcome)
    return ws


async def test_the_desk_and_the_hall_are_not_players_online(server: Server) -> None:
    """A desk, a hall and two players connected: two players online; one player leaving: one."""
    desk = await _hello(server.url, DESK_CLIENT)
    hall = await _hello(server.url, f"{HALL_CLIENT}/0.1")
    jana = await _hello(server.url, "sprtec-arcade", "Jana")
    tomas = await _hello(server.url, "sprtec-arcade", "Tomáš")
    assert len(server.sessions) == 4 and server.players_online() == 2
    await tomas.close()
    for _ in range(100):
        if server.players_online() == 1:
            break
        await asyncio.sleep(0.02)
    assert server.players_online() == 1
    for ws in (desk, hall, jana):
        await ws.close()


def test_the_clients_desk_and_hall_name_themselves_in_their_hello() -> None:
    """The NetClient of a desk or a hall says its program in Hello; a player's says the arcade client's."""
    desk, player = NetClient("ws://x/", None, program=DESK_CLIENT)._hello()[0], NetClient("ws://x/", "Jana")._hello()[0]
    assert isinstance(desk, Hello) and desk.client == DESK_CLIENT
    assert isinstance(player, Hello) and player.client == "sprtec-arcade"

"""One contract, two placements: a server alone (``server.rooms.placement.OneProcess``) and a cluster's node
(``server.cluster.node.ClusterNode`` on a real Redis and PostgreSQL) answer a session's questions alike for what is
theirs - a room of their own is played here, a player without a seat is nowhere else, a room nobody plays is watched
here - and differ only where a cluster has somewhere else: a room played on another node sends the coach there
(``Moved``) and a stopped room may go on elsewhere."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from server.app import Server, ServerConfig
from server.cluster.node import ClusterConfig
from server.cluster.redis_registry import lease_key, node_key
from server.rooms.registry import Moved
from shared.protocol import CreateRoom, RoomJoined
from tests.cluster.conftest import fresh_services
from tests.server.players import WireClient


@dataclass
class Placed:
    """A started server and what its placement is, with the Redis client of its cluster (None: alone)."""

    server: Server
    redis: aioredis.Redis | None


@pytest.fixture(params=["one-process", "cluster-node"])
async def placed(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Placed]:
    """Each placement in turn, in a real server on port 0 (the node on an emptied Redis and a new database)."""
    if request.param == "one-process":
        server = Server(ServerConfig(port=0, workers=0, data_dir=tmp_path))
        await server.start()
        await server.ready.wait()
        try:
            yield Placed(server, None)
        finally:
            await server.shutdown()
        return
    async with fresh_services(request) as (client, postgres_url):
        redis_url = request.getfixturevalue("redis_server").url
        server = Server(ServerConfig(port=0, workers=0, postgres=postgres_url,
                                     cluster=ClusterConfig(redis=redis_url, node_id="a", public_url="")))
        try:
            await server.start()
            await server.ready.wait()
            yield Placed(server, client)
        finally:
            await server.shutdown()


async def _room_of_its_own(placed: Placed) -> str:
    """A room a coach created on the server: its code."""
    coach = await WireClient.connect(placed.server.url, f"ann-{uuid.uuid4().hex[:6]}")
    await coach.send(CreateRoom("quick", {}, False))
    joined: RoomJoined = await coach.until(RoomJoined)
    return joined.code


async def test_a_room_of_its_own_is_played_here(placed: Placed) -> None:
    """``here`` of a room the server runs says nothing: the session goes on with it."""
    code = await _room_of_its_own(placed)
    await placed.server.placement.here(code)
    assert code in placed.server.lobby.rooms


async def test_a_player_without_a_seat_is_nowhere_else(placed: Placed) -> None:
    """A returning coach with no seat anywhere is not sent away."""
    await placed.server.placement.seat_elsewhere(987654)


async def test_a_room_nobody_plays_is_left_to_the_lobby_to_answer(placed: Placed) -> None:
    """``here`` of an unknown code says nothing and a spectator's Watch of it is the lobby's (ROOM_NOT_FOUND)."""
    await placed.server.placement.here("NOSUCH")
    assert not await placed.server.placement.watch_elsewhere(object(), "NOSUCH")


async def test_nothing_stands_in_the_way_of_new_players(placed: Placed) -> None:
    """A started placement gives ``/readyz`` no reason to refuse."""
    assert placed.server.placement.registry_problem() is None


async def test_a_room_played_on_another_server_sends_the_coach_there_where_there_is_one(placed: Placed) -> None:
    """A cluster's room held by another living node: ``Moved`` to its URL, and a stopped room goes on elsewhere. A
    server alone has no elsewhere: every room is its own."""
    placement = placed.server.placement
    if placed.redis is None:
        assert not placement.moves_rooms
        await placement.here("ELSWHR")
        return
    assert placement.moves_rooms
    await placed.redis.set(node_key("b"), "ws://b.example:8801/", px=10_000)
    await placed.redis.set(lease_key("ELSWHR"), "b", px=10_000)
    with pytest.raises(Moved) as moved:
        await placement.here("ELSWHR")
    assert moved.value.url == "ws://b.example:8801/"

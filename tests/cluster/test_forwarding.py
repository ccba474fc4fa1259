"""The forwarder's own rules on a real Redis: who a frame for many clients reaches through which node, and which
clients of other nodes are gone with their node."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from server.cluster.forwarding import Forwarder
from server.cluster.leased import LeasedObjects
from server.cluster.redis_registry import RedisRegistry, inbox, node_key
from tests.cluster.conftest import fresh_services


async def test_the_clients_of_a_node_that_died_are_found_gone_and_the_living_nodes_are_not(
    request: pytest.FixtureRequest,
) -> None:
    """Clients of node b (alive: its key is set) stay; those of node c (its key lapsed) are gone."""
    async with fresh_services(request) as (client, _postgres_url):
        registry = RedisRegistry(client, "a", 3000)
        forwarder = Forwarder(LeasedObjects(registry, registry.url_of), client.publish, lambda player: None)
        await client.set(node_key("b"), "ws://b/", px=10_000)
        on_b, on_c = forwarder.client(1, "b"), forwarder.client(2, "c")
        assert await forwarder.dead([on_b, on_c, object()]) == [on_c]


async def test_a_frame_for_clients_of_other_nodes_is_published_once_per_node(request: pytest.FixtureRequest) -> None:
    """Two clients on b and one on c: one message to b's inbox naming both, one to c's."""
    async with fresh_services(request) as (client, _postgres_url):
        registry = RedisRegistry(client, "a", 3000)
        sent: list[tuple[str, dict[str, Any]]] = []

        async def publish(channel: str, text: str) -> int:
            """Record what would be published."""
            sent.append((channel, json.loads(text)))
            return 1

        forwarder = Forwarder(LeasedObjects(registry, registry.url_of), publish, lambda player: None)
        forwarder.deliver([forwarder.client(1, "b"), forwarder.client(2, "c"), forwarder.client(3, "b")], b"\x81")
        for _turn in range(3):  # the publishing tasks run (their fake publish never waits)
            await asyncio.sleep(0)
        assert sorted((channel, message["players"]) for channel, message in sent) == [
            (inbox("b"), [1, 3]), (inbox("c"), [2])]
        assert all(message == {"kind": "tell", "players": message["players"], "frame": "81"} for _, message in sent)

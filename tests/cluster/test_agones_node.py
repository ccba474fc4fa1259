"""A cluster node run by Agones: it learns where players reach it from the SDK sidecar (the GameServer's address
and the host port Agones picked), not from a flag no manifest can set per pod."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis.asyncio as aioredis

from server.app import Server, ServerConfig
from server.cluster.node import ClusterConfig
from server.cluster.redis_registry import node_key
from server.ops import agones
from tests.server.test_agones import Sidecar, _free_port, _start


@pytest.mark.parametrize("flag", ["", "wss://play.example.org/node-7/"])
async def test_a_node_under_agones_announces_its_gameservers_address_unless_told_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, redis_url: str, postgres_url: str, flag: str
) -> None:
    """Without --public-url the node's URL in the registry (where MOVED sends coaches) is ws:// the GameServer's
    address and its default port's host port; a --public-url given wins."""
    fake, port = Sidecar(), _free_port()
    runner = await _start(fake, port)
    monkeypatch.setenv(agones.PORT_VARIABLE, str(port))
    config = ServerConfig(port=0, data_dir=tmp_path / "data", workers=0, postgres=postgres_url,
                          cluster=ClusterConfig(redis=redis_url, node_id="gs-1", public_url=flag))
    server = Server(config)
    client = aioredis.Redis.from_url(redis_url)
    try:
        await server.start()
        await server.ready.wait()
        announced = await client.get(node_key("gs-1"))
        assert isinstance(announced, bytes)
        assert announced.decode() == (flag or "ws://203.0.113.7:7351/")
        assert ("/gameserver" in fake.paths("GET")) == (not flag)  # asked only when no URL was given
    finally:
        await client.aclose()
        await server.shutdown()
        await runner.cleanup()

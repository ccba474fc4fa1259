"""Fixtures for the cluster tests: one real Redis and one real PostgreSQL per test session, fresh state per test.

Why session-scoped servers: initdb and a first start cost about a second; a test gets its isolation from a database
of its own (``postgres_database``) or an emptied Redis (``redis_url``) instead of a server of its own.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import asyncpg
import pytest
import redis.asyncio as aioredis

from benchmarks import local_services as servers
from tests.cluster.nodes import Node, start_node


@pytest.fixture(scope="session")
def redis_server() -> Iterator[servers.Running]:
    """A real redis-server on loopback for the whole session (skipped, with what to install, where there is none)."""
    reason = servers.redis_unavailable()
    if reason is not None:
        pytest.skip(reason)
    with servers.redis_server() as running:
        yield running


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[servers.Running]:
    """A real PostgreSQL on loopback for the whole session (skipped, with what to install, where there is none)."""
    reason = servers.postgres_unavailable()
    if reason is not None:
        pytest.skip(reason)
    with servers.postgres_server() as running:
        yield running


@pytest.fixture
async def redis_url(redis_server: servers.Running) -> AsyncIterator[str]:
    """The session's Redis, emptied before the test: its URL."""
    client = aioredis.Redis.from_url(redis_server.url)
    try:
        await client.flushall()
    finally:
        await client.aclose()
    yield redis_server.url


@pytest.fixture
async def postgres_url(postgres_server: servers.Running) -> AsyncIterator[str]:
    """A new empty database on the session's PostgreSQL, dropped after the test: its URL."""
    name = f"test_{uuid.uuid4().hex}"
    admin = await asyncpg.connect(postgres_server.url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    yield postgres_server.url.rsplit("/", 1)[0] + f"/{name}"
    admin = await asyncpg.connect(postgres_server.url)
    try:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture
async def cluster(redis_url: str, postgres_url: str, tmp_path: Path) -> AsyncIterator[Callable[..., Node]]:
    """Starts nodes of one cluster on demand (``cluster("a")``, ``cluster("a", "--held-seat-wait", "2")``); every
    node is stopped after the test."""
    started: list[Node] = []

    def start(node_id: str, *options: str) -> Node:
        node = start_node(node_id, redis_url, postgres_url, tmp_path, *options)
        started.append(node)
        return node

    yield start
    for node in started:
        node.stop()


@contextlib.asynccontextmanager
async def fresh_services(request: pytest.FixtureRequest) -> AsyncIterator[tuple[aioredis.Redis, str]]:
    """The session's Redis, emptied, and a new database on its PostgreSQL (dropped after), for a fixture whose other
    params need neither (``redis_url`` and ``postgres_url`` are async fixtures, which a parametrised async fixture
    cannot ask for by name): a client of the Redis and the database's URL."""
    redis_server: servers.Running = request.getfixturevalue("redis_server")
    postgres_server: servers.Running = request.getfixturevalue("postgres_server")
    client = aioredis.Redis.from_url(redis_server.url)
    await client.flushall()
    name = f"test_{uuid.uuid4().hex}"
    admin = await asyncpg.connect(postgres_server.url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield client, postgres_server.url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        await client.aclose()
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await admin.close()

"""The real servers the cluster tests run on: Redis and PostgreSQL answer for real, and stop without a trace."""

from __future__ import annotations

import os
import pwd
import shutil

import asyncpg
import pytest
import redis.asyncio as aioredis

from benchmarks import local_services as servers


async def test_redis_set_get_and_pubsub_round_trip(redis_url: str) -> None:
    """A value SET is read back by GET, and a message published on a channel reaches its subscriber."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        await client.set("sprtec:smoke", "šprtec")
        assert await client.get("sprtec:smoke") == "šprtec".encode()
        async with client.pubsub() as pubsub:
            await pubsub.subscribe("sprtec:events")
            confirmation = await pubsub.get_message(timeout=5.0)
            assert confirmation is not None and confirmation["type"] == "subscribe"
            assert await client.publish("sprtec:events", b"MovePlayed") == 1
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5.0)
            assert message is not None
            assert (message["channel"], message["data"]) == (b"sprtec:events", b"MovePlayed")
    finally:
        await client.aclose()


async def test_redis_is_empty_for_each_test(redis_url: str) -> None:
    """The fixture hands every test an empty Redis (the key of the test before is gone)."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        assert await client.dbsize() == 0
    finally:
        await client.aclose()


async def test_postgres_create_insert_select(postgres_url: str) -> None:
    """A table created, a row inserted in a transaction and selected back, types and all."""
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("CREATE TABLE smoke (id BIGINT PRIMARY KEY, name TEXT NOT NULL, at DOUBLE PRECISION)")
        async with conn.transaction():
            await conn.execute("INSERT INTO smoke (id, name, at) VALUES ($1, $2, $3)", 2**40, "Šprtec Brno", 0.1)
        row = await conn.fetchrow("SELECT id, name, at FROM smoke")
        assert row is not None and tuple(row) == (2**40, "Šprtec Brno", 0.1)
        assert int(await conn.fetchval("SHOW server_version_num")) >= 130000  # DROP DATABASE … WITH (FORCE)
    finally:
        await conn.close()


async def test_postgres_gives_each_test_its_own_database(postgres_url: str) -> None:
    """The fixture's database is new and empty: no table of another test is in it."""
    conn = await asyncpg.connect(postgres_url)
    try:
        tables = await conn.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        assert tables == 0
    finally:
        await conn.close()


def test_redis_stops_without_leftover_processes_or_directories() -> None:
    """A stopped redis-server leaves no process of its group and no directory behind."""
    reason = servers.redis_unavailable()
    if reason is not None:
        pytest.skip(reason)
    with servers.redis_server() as running:
        pid, directory = running.process.pid, running.directory
        assert servers.group_alive(pid) and directory.is_dir()
    assert not servers.group_alive(pid)
    assert not directory.exists()


async def test_postgres_stops_without_leftover_processes_or_directories() -> None:
    """A stopped PostgreSQL, with a client still connected, leaves no backend, no process and no directory."""
    reason = servers.postgres_unavailable()
    if reason is not None:
        pytest.skip(reason)
    with servers.postgres_server() as running:
        pid, directory = running.process.pid, running.directory
        conn = await asyncpg.connect(running.url)  # kept open: the stop must not wait for it
        backend = await conn.fetchval("SELECT pg_backend_pid()")
        assert backend != pid and servers.group_alive(pid) and (directory / "data" / "postmaster.pid").is_file()
    assert not servers.group_alive(pid)
    assert not os.path.exists(f"/proc/{backend}")
    assert not directory.exists()
    conn.terminate()


@pytest.mark.skipif(os.geteuid() != 0, reason="the unprivileged PostgreSQL user is only used as root")
def test_postgres_runs_unprivileged_when_the_tests_run_as_root(postgres_server: servers.Running) -> None:
    """As root, the server's process belongs to the unprivileged user (PostgreSQL refuses root)."""
    status = open(f"/proc/{postgres_server.process.pid}/status").read()
    uid = next(line.split()[1] for line in status.splitlines() if line.startswith("Uid:"))
    assert int(uid) == pwd.getpwnam(servers.UNPRIVILEGED_USER).pw_uid


def test_missing_servers_are_named_as_packages_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no binaries anywhere, both servers are reported missing with the packages and the pip extra to install."""
    monkeypatch.setattr(servers, "_package_dir", lambda module: None)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(servers, "SYSTEM_POSTGRES_BINS", "/nonexistent/*/bin")
    assert servers.missing_packages() == ["redis-server", "postgresql"]
    for reason in (servers.redis_unavailable(), servers.postgres_unavailable()):
        assert reason is not None and "apt-get install redis-server postgresql" in reason and ".[test]" in reason

"""What the tests of a cluster's leased objects (tournaments, leagues) ask of the real Redis, PostgreSQL and nodes:
who holds a lease, how far a match's log got, a lease made to leave a node, and waiting for a condition or an update.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable
from typing import TypeVar

import redis.asyncio as aioredis

from server.cluster.redis_registry import lease_key
from server.store.postgres.pg_store import PgStore
from sprtec.commands.tournament_client import Connection
from tests.cluster.nodes import Node

U = TypeVar("U")


async def owner(redis_url: str, lease: str) -> str | None:
    """The node holding the lease (``tournament:ID``, ``league:ID``)."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        found = await client.get(lease_key(lease))
        return None if found is None else found.decode() if isinstance(found, bytes) else str(found)
    finally:
        await client.aclose()


def committed(postgres_url: str, read: Callable[[PgStore], U]) -> U:
    """What ``read`` finds in the shared store (a store of its own, opened for it and closed after)."""
    store = PgStore(postgres_url, migrate=False)
    try:
        return read(store)
    finally:
        store.close()


def moves(postgres_url: str, match_id: str) -> int:
    """Entries committed in a match's log."""
    return committed(postgres_url, lambda store: int(
        store.read("SELECT COUNT(*) FROM match_log WHERE match_id = ?", (match_id,))[0][0]))


async def until(check: Callable[[], object], timeout: float = 60.0) -> object:
    """Poll ``check()`` (sync) until it returns something true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        await asyncio.sleep(0.2)
    raise AssertionError(f"nothing after {timeout} s")


async def update_until(watcher: Connection, done: Callable[[U], bool], first: U, timeout: float) -> U:
    """The watcher's updates (of the type of ``first``) until one is ``done``."""
    update = first
    deadline = time.monotonic() + timeout
    while not done(update):
        message = await watcher.receive(timeout=max(0.1, deadline - time.monotonic()))
        update = message if isinstance(message, type(first)) else update
    return update


async def moved_away(redis_url: str, lease: str, node: Node, attempts: int = 5) -> str:
    """Make the lease leave ``node`` while the object's rooms stay there: the lease is held for a moment by a node that
    does not exist (as after a registry's hiccup), and ``node`` is frozen across its lapse for less than a room's
    lease, so another node takes the object over first. That node's id."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        for _attempt in range(attempts):
            await client.set(lease_key(lease), "nobody", px=2000)
            await asyncio.sleep(1.6)
            node.process.send_signal(signal.SIGSTOP)
            try:
                await asyncio.sleep(1.5)
            finally:
                node.process.send_signal(signal.SIGCONT)
            found = await client.get(lease_key(lease))
            held = "" if found is None else found.decode() if isinstance(found, bytes) else str(found)
            if held not in ("", "nobody", node.node_id):
                return held
    finally:
        await client.aclose()
    raise AssertionError(f"{lease} stayed on node {node.node_id}")

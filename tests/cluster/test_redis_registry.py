"""The cluster's registry on a real Redis: a code claimed once, leases that lapse and are taken with a higher fencing
number (drawn from the shared PostgreSQL store, so a Redis restart does not reset them), a listing without dead nodes'
rooms, and a shared queue that never pairs a player twice."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest
import redis.asyncio as aioredis

from server.cluster.redis_registry import RedisRegistry
from server.rooms.registry import Listing, QueueEntry
from server.store.postgres.pg_store import PgStore
from shared.protocol import RoomInfo, SeatInfo, Seats

LEASE_MS = 300


def _listing(code: str, node: str, private: bool = False) -> Listing:
    """A waiting room's listing."""
    seats = Seats(SeatInfo("ann", True), None)
    return Listing(code=code, node=node, private=private,
                   info=RoomInfo(code=code, ruleset="quick", seats=seats, spectators=0, status="waiting"))


@pytest.fixture
async def registries(redis_url: str, postgres_url: str) -> AsyncIterator[Callable[[str], RedisRegistry]]:
    """Registries of nodes of one cluster (``registries("a")``), drawing their fencing numbers from one shared store,
    closed after the test."""
    made: list[RedisRegistry] = []
    store = PgStore(postgres_url)

    def make(node: str) -> RedisRegistry:
        registry = RedisRegistry(aioredis.Redis.from_url(redis_url), node, LEASE_MS, draw_fences=store.draw_fences)
        made.append(registry)
        return registry

    yield make
    for registry in made:
        await registry.client.aclose()
    store.close()


async def test_a_code_is_claimed_by_one_node_only_and_never_again(registries: Callable[[str], RedisRegistry]) -> None:
    """Of two nodes claiming one code at once exactly one wins; once the room is gone its code stays used."""
    a, b = registries("a"), registries("b")
    won = await asyncio.gather(a.claim(_listing("ROOM1", "a")), b.claim(_listing("ROOM1", "b")))
    assert sorted(won) == [False, True]
    winner = a if won[0] else b
    found = await a.room("ROOM1")
    assert found is not None and found.node == winner.node and found.info.seats.home is not None
    await winner.remove("ROOM1")
    assert await a.room("ROOM1") is None and not await b.claim(_listing("ROOM1", "b"))


async def test_a_lapsed_lease_is_taken_with_a_higher_fence_and_its_former_holder_hears_it(
    registries: Callable[[str], RedisRegistry],
) -> None:
    """A's lease lapses unrenewed: the room leaves the public listing, B acquires it under fence 2, A's renewal
    reports it lost, and the listing shows B."""
    a, b = registries("a"), registries("b")
    assert await a.claim(_listing("ROOM2", "a"))
    assert a.fences["ROOM2"] == 1 and await b.acquire("ROOM2") is None
    assert await a.renew(["ROOM2"]) == []
    await asyncio.sleep(LEASE_MS / 1000 * 1.5)
    assert await a.public(10) == [] and await b.unowned(["ROOM2"]) == ["ROOM2"]
    assert await b.acquire("ROOM2") == 2
    assert await a.renew(["ROOM2"]) == ["ROOM2"]
    assert [listing.node for listing in await a.public(10)] == ["b"]


async def test_many_leases_are_taken_at_once_except_those_another_node_holds(
    registries: Callable[[str], RedisRegistry],
) -> None:
    """A takeover of many rooms acquires them in one go: each free lease is taken under the next fencing number,
    one another node holds is left to it."""
    a, b = registries("a"), registries("b")
    assert await a.claim(_listing("HELD", "a"))
    assert await b.acquire_many(["FREE1", "HELD", "FREE2"]) == {"FREE1": 1, "FREE2": 1}
    assert b.fences == {"FREE1": 1, "FREE2": 1} and await b.owner("HELD") == "a"
    await b.release("FREE1")
    assert await a.acquire_many(["FREE1"]) == {"FREE1": 2}


async def test_two_nodes_pairing_the_shared_queue_at_once_pair_each_player_once(
    registries: Callable[[str], RedisRegistry],
) -> None:
    """Twenty players wait, queued through two nodes; both nodes pass over the queue at the same moment, again and
    again: every player is in exactly one pair, and the queue ends empty."""
    a, b = registries("a"), registries("b")
    for player in range(20):
        node = a if player % 2 else b
        await node.join_queue(QueueEntry(player_id=player, ruleset="quick", since_ms=0, rating=1500 + player))
    pairs = []
    for _round in range(5):
        done = await asyncio.gather(a.take_pairs(600_000), b.take_pairs(600_000))
        pairs += [pair for result in done for pair in result.pairs]
    players = [p.player_id for pair in pairs for p in (pair.first, pair.second)]
    assert sorted(players) == list(range(20))
    assert await a.waiting(None) == 0


async def test_a_player_open_to_any_ruleset_pairs_with_a_later_named_one_across_nodes(
    registries: Callable[[str], RedisRegistry],
) -> None:
    """Queued open (ruleset nil, and counted as waiting for ko) through one node, a player is paired with a ko
    player queued later through the other: they play ko."""
    a, b = registries("a"), registries("b")
    await a.join_queue(QueueEntry(player_id=1, ruleset=None, since_ms=0))
    assert await b.waiting("ko") == 1 and (await b.take_pairs(1_000)).pairs == ()
    await b.join_queue(QueueEntry(player_id=2, ruleset="ko", since_ms=5_000))
    (pair,) = (await a.take_pairs(6_000)).pairs
    assert (pair.first.player_id, pair.second.player_id, pair.ruleset) == (1, 2, "ko")


async def test_a_burst_of_commands_past_the_pool_waits_for_connections_instead_of_failing(redis_url: str) -> None:
    """A node's registry takes 300 commands at once (sessions leaving the queue together): each waits for one of
    the node's Redis connections and succeeds (redis-py's default pool refused them past 100: Too many
    connections)."""
    from server.cluster.node import REDIS_CONNECTIONS, ClusterConfig, registry_for

    registry = registry_for(ClusterConfig(redis=redis_url, node_id="burst", public_url="ws://127.0.0.1:1/"))
    try:
        left = await asyncio.wait_for(asyncio.gather(*(registry.leave_queue(i) for i in range(300))), 30)
        assert left == [False] * 300
        assert registry.client.connection_pool.max_connections == REDIS_CONNECTIONS
    finally:
        await registry.client.aclose()


async def test_a_redis_that_forgot_everything_still_gives_higher_fencing_numbers_and_keeps_codes_used(
    registries: Callable[[str], RedisRegistry],
) -> None:
    """Redis loses every key (a restart without persistence): the next lease of a room taken twice before is drawn
    under 3, not 1 again (the store had refused 1 and 2 for ever), and its code cannot be claimed by a new room."""
    a, b = registries("a"), registries("b")
    assert await a.claim(_listing("OLD1", "a"))
    await a.release("OLD1")
    assert await b.acquire("OLD1") == 2
    await b.client.flushall()
    assert await a.acquire("OLD1") == 3
    await a.client.flushall()
    assert not await b.claim(_listing("OLD1", "b")) and await b.owner("OLD1") is None

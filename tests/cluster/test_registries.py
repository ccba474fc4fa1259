"""One contract, two registries: the in-process one (the single server's default) and the cluster's on a real Redis
pass the same tests of ``server.rooms.registry.Registry`` - a code claimed once, listings replaced and forgotten, the
public list newest first, the quick-match queue (``waiting``, leaving, pairing compatible players once)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from server.cluster.redis_registry import RedisRegistry
from server.rooms.registry import InProcessRegistry, Listing, QueueEntry, Registry
from server.store.postgres.pg_store import PgStore
from shared.protocol import RoomInfo, SeatInfo, Seats
from tests.cluster.conftest import fresh_services

NODE = "a"


def _listing(code: str, private: bool = False, spectators: int = 0) -> Listing:
    """A waiting room's listing, owned by this test's node."""
    seats = Seats(SeatInfo("ann", True), None)
    return Listing(code=code, node=NODE, private=private,
                   info=RoomInfo(code=code, ruleset="quick", seats=seats, spectators=spectators, status="waiting"))


@pytest.fixture(params=["in-process", "redis"])
async def registry(request: pytest.FixtureRequest) -> AsyncIterator[Registry]:
    """Each implementation in turn (Redis's, emptied, with its fencing numbers from a new database of a real
    PostgreSQL)."""
    if request.param == "in-process":
        yield InProcessRegistry()
        return
    async with fresh_services(request) as (client, postgres_url):
        store = PgStore(postgres_url)
        try:
            yield RedisRegistry(client, NODE, 3000, draw_fences=store.draw_fences)
        finally:
            store.close()


async def test_a_code_is_claimed_once_and_never_again_after_its_room_is_removed(registry: Registry) -> None:
    """The second claim of a code fails, and so does one after the room is gone: its matches keep the code."""
    assert await registry.claim(_listing("ROOM1"))
    assert not await registry.claim(_listing("ROOM1"))
    await registry.remove("ROOM1")
    assert await registry.room("ROOM1") is None
    assert not await registry.claim(_listing("ROOM1"))


async def test_a_listing_is_replaced_by_its_update_and_read_back(registry: Registry) -> None:
    """``update`` and ``update_many`` replace what ``room`` answers."""
    assert await registry.claim(_listing("ROOM1"))
    assert await registry.claim(_listing("ROOM2"))
    await registry.update(_listing("ROOM1", spectators=3))
    await registry.update_many([_listing("ROOM2", spectators=5)])
    one, two = await registry.room("ROOM1"), await registry.room("ROOM2")
    assert one is not None and one.info.spectators == 3 and one.node == NODE
    assert two is not None and two.info.spectators == 5


async def test_the_public_list_is_newest_first_without_private_rooms_and_within_its_limit(registry: Registry) -> None:
    """Private rooms are never listed; a room made private leaves the list."""
    for code in ("ROOM1", "ROOM2", "ROOM3", "ROOM4"):
        assert await registry.claim(_listing(code, private=code == "ROOM3"))
    assert [listing.code for listing in await registry.public(10)] == ["ROOM4", "ROOM2", "ROOM1"]
    assert [listing.code for listing in await registry.public(2)] == ["ROOM4", "ROOM2"]
    await registry.update(_listing("ROOM2", private=True))
    assert [listing.code for listing in await registry.public(10)] == ["ROOM4", "ROOM1"]


async def test_a_queued_player_is_counted_replaced_and_taken_out(registry: Registry) -> None:
    """Joining again replaces a player's entry; a player open to any ruleset counts for each; leaving twice fails."""
    await registry.join_queue(QueueEntry(player_id=1, ruleset="quick", since_ms=0))
    await registry.join_queue(QueueEntry(player_id=2, ruleset=None, since_ms=0))
    await registry.join_queue(QueueEntry(player_id=1, ruleset="standard", since_ms=10))
    assert await registry.waiting(None) == 2
    assert await registry.waiting("quick") == 1 and await registry.waiting("standard") == 2
    assert await registry.leave_queue(1) and not await registry.leave_queue(1)
    assert await registry.waiting(None) == 1


async def test_compatible_players_are_paired_once_and_leave_the_queue(registry: Registry) -> None:
    """Two players of one ruleset pair (the longer waiting first); one with other settings waits on; a second pass
    pairs nobody again."""
    await registry.join_queue(QueueEntry(player_id=1, ruleset="quick", since_ms=0, rating=1500))
    await registry.join_queue(QueueEntry(player_id=2, ruleset="quick", since_ms=5, rating=1510))
    await registry.join_queue(QueueEntry(player_id=3, ruleset="quick", overrides={"period_ms": 20000}, since_ms=1))
    done = await registry.take_pairs(1000)
    assert [(p.first.player_id, p.second.player_id, p.ruleset) for p in done.pairs] == [(1, 2, "quick")]
    assert await registry.waiting(None) == 1
    assert (await registry.take_pairs(2000)).pairs == ()


async def test_a_player_open_to_any_ruleset_pairs_with_a_later_named_one(registry: Registry) -> None:
    """The "any" player waits first; a later player naming a ruleset pairs with him, in that ruleset."""
    await registry.join_queue(QueueEntry(player_id=1, ruleset=None, since_ms=0))
    await registry.join_queue(QueueEntry(player_id=2, ruleset="ko", since_ms=5))
    done = await registry.take_pairs(1000)
    assert [(p.first.player_id, p.second.player_id, p.ruleset) for p in done.pairs] == [(1, 2, "ko")]

"""The registry of a cluster on Redis: room codes and their owner node as leases, the listing, the seats, the queue.

Why leases: a room is played on one node only, and a node that dies must give its rooms up by itself. The owner
of room ``C`` is the value of ``sprtec:lease:C``, set with ``SET NX PX`` (nobody else can take a held code) and
renewed by the owner's heartbeat (``renew``, only while it still holds it); a killed node renews nothing and its
leases lapse within ``lease_ms``, after which any node may take the room (``acquire``). Every acquisition draws
the room's next fencing number from the shared store, which refuses writes carrying an older one
(``server.store.postgres.pg_store``), so a node that lost its lease while paused cannot write over the new owner's
moves. Why from the store and not a Redis counter: the numbers must only ever grow, and a Redis that restarts
without persistence starts its counters again at 1 - numbers the store had already seen, so it refused the new
owner's every write and the room was never played again. The first number of a code is 1: a code drawn higher was
used before, and a new room does not take it (codes are never reused).

What else lives here, all as plain values (no live object of one process): ``sprtec:rooms`` (code -> listing, the
last line its owner published), ``sprtec:public`` (the public codes by creation), ``sprtec:node:N`` (node N's
public URL, a lease of its own: the node is alive), ``sprtec:seat:P`` (the room where player P holds a seat: a
coach landing on another node is sent to it), and the quick-match queue ``sprtec:queue`` (player -> entry with the
node he waits on), paired under WATCH/MULTI so two nodes never pair the same player.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Any, cast

import redis.asyncio as aioredis
from redis.exceptions import WatchError

from server.rooms.registry import Listing, Pairing, QueueEntry, QueuePass, paired_ruleset, pool_entry, waits_for
from shared.matchmaking import PoolRules, pair_pool
from shared.protocol import SERVER_MESSAGES, RoomList, decode, encode

PREFIX = "sprtec:"
ROOMS = PREFIX + "rooms"
PUBLIC = PREFIX + "public"
SEQUENCE = PREFIX + "sequence"
QUEUE = PREFIX + "queue"
PAIR_ATTEMPTS = 20  # WATCH conflicts (another node changed the queue meanwhile) before a pass gives up

# Renew or release a lease only while this node holds it (KEYS[1] the lease, ARGV[1] the node, ARGV[2] the TTL).
_RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0"
_RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


def lease_key(code: str) -> str:
    """The key whose value is the owner node of room ``code``."""
    return f"{PREFIX}lease:{code}"


def node_key(node: str) -> str:
    """The key holding node ``node``'s public URL while it lives."""
    return f"{PREFIX}node:{node}"


def inbox(node: str) -> str:
    """The pub/sub channel where node ``node`` hears what other nodes ask of it (send a paired player over)."""
    return f"{PREFIX}inbox:{node}"


def seat_key(player_id: int) -> str:
    """The key holding the room where a player holds a seat."""
    return f"{PREFIX}seat:{player_id}"


def _listing_bytes(listing: Listing) -> bytes:
    """A listing as stored: its line as the wire encodes it (checked on the way back), and whether it is private."""
    return json.dumps({"private": listing.private, "info": encode(RoomList((listing.info,))).hex()}).encode()


def _listing_from(code: str, node: str, data: bytes) -> Listing:
    """A stored listing read back, with the node that holds its lease now ("" when none does)."""
    stored = json.loads(data)
    message = decode(bytes.fromhex(stored["info"]), expect=SERVER_MESSAGES)
    assert isinstance(message, RoomList)
    return Listing(code=code, node=node, private=bool(stored["private"]), info=message.rooms[0])


# Draws the next fencing number of each room code and raises it where writes are checked (``PgStore.draw_fences``).
FenceSource = Callable[[list[str]], Awaitable[dict[str, int]]]


class RedisRegistry:
    """``server.rooms.registry.Registry`` on Redis for node ``node`` (see the module docstring); ``draw_fences``
    gives the fencing number of each lease acquired (the shared store's)."""

    def __init__(self, client: aioredis.Redis, node: str, lease_ms: int, rules: PoolRules | None = None,
                 draw_fences: FenceSource | None = None) -> None:
        self.client = client
        self.node = node
        self.lease_ms = lease_ms
        self.rules = rules or PoolRules()
        self.draw_fences = draw_fences  # set before the first lease is acquired (server.cluster.node)
        self.fences: dict[str, int] = {}  # the fencing number of each lease this node acquired
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    # ------------------------------------------------------------------ leases
    async def acquire(self, code: str) -> int | None:
        """Take room ``code``'s lease if nobody holds it: its fencing number, or None when another node holds it."""
        return (await self.acquire_many([code])).get(code)

    async def acquire_many(self, codes: list[str]) -> dict[str, int]:
        """``acquire`` of each of ``codes``: one round trip to Redis, one to the store for the fencing numbers of the
        leases taken. A lease whose number cannot be drawn is given up again (the error is raised)."""
        if not codes:
            return {}
        assert self.draw_fences is not None, "the registry draws fencing numbers from the shared store"
        async with self.client.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.set(lease_key(code), self.node, nx=True, px=self.lease_ms)
            taken = [code for code, ok in zip(codes, await pipe.execute(), strict=True) if ok]
        if not taken:
            return {}
        try:
            fences = await self.draw_fences(taken)
        except BaseException:
            for code in taken:
                await self._release(keys=[lease_key(code)], args=[self.node])
            raise
        self.fences.update(fences)
        return fences

    async def renew(self, codes: list[str]) -> list[str]:
        """Renew this node's leases of ``codes``; returns the codes whose lease it no longer holds."""
        if not codes:
            return []
        async with self.client.pipeline(transaction=False) as pipe:
            for code in codes:
                await self._renew(keys=[lease_key(code)], args=[self.node, self.lease_ms], client=pipe)
            renewed = await pipe.execute()
        return [code for code, ok in zip(codes, renewed, strict=True) if not ok]

    async def release(self, code: str) -> None:
        """Give room ``code``'s lease up (a graceful drain: another node takes the room at once)."""
        await self._release(keys=[lease_key(code)], args=[self.node])
        self.fences.pop(code, None)

    async def owner(self, code: str) -> str | None:
        """The node holding room ``code``'s lease, None when nobody does."""
        found = await self.client.get(lease_key(code))
        return None if found is None else cast(bytes, found).decode()

    async def lease_left_ms(self, code: str) -> int:
        """How long room ``code``'s lease still runs unless renewed (0 when nobody holds it)."""
        return max(0, int(await self.client.pttl(lease_key(code))))

    async def unowned(self, codes: list[str]) -> list[str]:
        """Which of ``codes`` no node holds a lease on."""
        if not codes:
            return []
        async with self.client.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.exists(lease_key(code))
            held = await pipe.execute()
        return [code for code, exists in zip(codes, held, strict=True) if not exists]

    async def announce(self, url: str) -> None:
        """This node lives and is reached at ``url`` (renewed with the leases)."""
        await self.client.set(node_key(self.node), url, px=self.lease_ms)

    async def url_of(self, node: str) -> str | None:
        """The public URL of a living node."""
        found = await self.client.get(node_key(node))
        return None if found is None else cast(bytes, found).decode()

    async def hold_seat(self, player_id: int, code: str) -> None:
        """Player ``player_id`` holds a seat in room ``code``."""
        await self.client.set(seat_key(player_id), code)

    async def release_seat(self, player_id: int, code: str) -> None:
        """Player ``player_id`` holds no seat in room ``code`` any more (its match ended)."""
        await self._release(keys=[seat_key(player_id)], args=[code])

    async def seat_of(self, player_id: int) -> str | None:
        """The room where a player last took a seat, if any."""
        found = await self.client.get(seat_key(player_id))
        return None if found is None else cast(bytes, found).decode()

    # ------------------------------------------------------------------ Registry: rooms
    async def claim(self, listing: Listing) -> bool:
        """Register a new room under its code with this node's lease; False when the code is taken."""
        fence = await self.acquire(listing.code)
        if fence is None:
            return False
        if fence != 1:  # a code that was ever used stays used: its matches keep their room code
            await self.release(listing.code)
            return False
        await self.update(listing)
        return True

    async def update(self, listing: Listing) -> None:
        """Replace the room's listing (its owner publishes its line again)."""
        await self.update_many([listing])

    async def update_many(self, listings: list[Listing]) -> None:
        """Replace several rooms' listings in one round trip (the heartbeat's fresh lines of every room here)."""
        if not listings:
            return
        sequence = int(await self.client.incrby(SEQUENCE, len(listings)))
        async with self.client.pipeline(transaction=True) as pipe:
            for offset, listing in enumerate(listings):
                pipe.hset(ROOMS, listing.code, _listing_bytes(listing))
                if listing.private:
                    pipe.zrem(PUBLIC, listing.code)
                else:  # a public room keeps its place (nx): newest first is by creation
                    pipe.zadd(PUBLIC, {listing.code: sequence - len(listings) + 1 + offset}, nx=True)
            await pipe.execute()

    async def room(self, code: str) -> Listing | None:
        """The room with this code, with the node holding its lease ("" when its owner's lease lapsed)."""
        data = await self.client.hget(ROOMS, code)
        if data is None:
            return None
        return _listing_from(code, await self.owner(code) or "", cast(bytes, data))

    async def remove(self, code: str) -> None:
        """Forget a room (its lease too, when this node holds it). Its fencing number stays in ``fences`` for the
        node to delete the room's stored row under it (``server.cluster.node``), which forgets it then."""
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.hdel(ROOMS, code)
            pipe.zrem(PUBLIC, code)
            await pipe.execute()
        await self._release(keys=[lease_key(code)], args=[self.node])

    async def public(self, limit: int) -> list[Listing]:
        """The public rooms whose owner's lease is alive, newest first, at most ``limit`` (a dead node's rooms leave
        the list with their leases and come back with their takeover)."""
        codes = [cast(bytes, c).decode() for c in await self.client.zrevrange(PUBLIC, 0, limit - 1)]
        if not codes:
            return []
        found = await self.client.hmget(ROOMS, codes)
        owners = await self.client.mget([lease_key(code) for code in codes])
        return [_listing_from(code, cast(bytes, owner).decode(), cast(bytes, data))
                for code, data, owner in zip(codes, found, owners, strict=True)
                if data is not None and owner is not None]

    # ------------------------------------------------------------------ Registry: the quick-match queue
    async def join_queue(self, entry: QueueEntry) -> None:
        """Put a player in the queue (replacing an earlier entry)."""
        await self.client.hset(QUEUE, str(entry.player_id), json.dumps({"entry": asdict(entry), "node": self.node}))

    async def leave_queue(self, player_id: int) -> bool:
        """Take a player out of the queue."""
        return bool(await self.client.hdel(QUEUE, str(player_id)))

    async def _entries(self, source: Any = None) -> list[QueueEntry]:
        """Every waiting entry, with the node its player waits on."""
        raw = await (source or self.client).hgetall(QUEUE)
        out = []
        for value in raw.values():
            stored = json.loads(value)
            out.append(QueueEntry(**{**stored["entry"], "node": str(stored["node"])}))
        return out

    async def take_pairs(self, now_ms: int) -> QueuePass:
        """Pair by rating (``shared.matchmaking.pair_pool``) under WATCH: the pairs leave the queue in the same
        transaction that saw them, so a player paired by another node at the same moment is never paired twice."""
        for _attempt in range(PAIR_ATTEMPTS):
            async with self.client.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(QUEUE)
                    waiting = sorted(await self._entries(pipe), key=lambda e: (e.since_ms, e.player_id))
                    by_id = {e.player_id: e for e in waiting}
                    done = pair_pool([pool_entry(e) for e in waiting], now_ms, self.rules)
                    pairs = tuple(Pairing(first=by_id[int(p.first.player_id)], second=by_id[int(p.second.player_id)],
                                          ruleset=paired_ruleset(by_id[int(p.first.player_id)],
                                                                 by_id[int(p.second.player_id)]))
                                  for p in done.pairs)
                    pipe.multi()  # type: ignore[no-untyped-call]
                    for pair in pairs:
                        pipe.hdel(QUEUE, str(pair.first.player_id), str(pair.second.player_id))
                    await pipe.execute()
                    return QueuePass(pairs=pairs, next_pass_ms=done.next_pass_ms)
                except WatchError:
                    continue
        return QueuePass(pairs=(), next_pass_ms=now_ms + 50)

    async def waiting(self, ruleset: str | None) -> int:
        """How many wait for ``ruleset`` (None: in every queue; a player open to any ruleset counts for each)."""
        return sum(1 for e in await self._entries() if waits_for(e, ruleset))

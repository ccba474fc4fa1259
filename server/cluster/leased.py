"""Objects a cluster runs on one node at a time under a lease and a fence, like its rooms: tournaments, leagues.

Why one mechanism beside the rooms' and not a copy per kind: a tournament (and the team league, which follows its
shapes) is, for the cluster, exactly what a room is - one node runs it and alone may write it; a killed node's
objects are taken over by another from the store; a node paused past its lease must write nothing more. What differs
between kinds is only how an object is read back from the store, stopped and listed, so a kind is a small adapter
(``LeasedKind``) and this module does the rest on the registry's leases (``server.cluster.redis_registry``) and the
store's fencing numbers (``server.store.postgres.pg_store``):

- an object's lease is the registry's lease of the name ``KIND:ID`` (``lease_name``): no room code has a colon, so
  the names of different kinds never meet a room's code, and the store fences its writes under the same name
  (``store.fenced(lease_name(kind, id), statements)``) with the fencing number drawn when the lease was acquired;
- a new object takes its lease before its first write (``claim``: its first fencing number must be 1 - an id used
  before is never used again);
- the node's heartbeat renews the leases of every object it runs (``renew``) and stops here at once each one it no
  longer holds (``LeasedKind.lost``); the store refuses that node's writes anyway, since the new owner drew a higher
  fencing number before it read the object;
- the heartbeat's scan takes over every stored object nobody holds (``scan``): the lease with its next fencing
  number first, then the object read back from the store (``LeasedKind.take_over``), so it sees everything its former
  owner committed, and its former owner can commit nothing after;
- a request for an object on a node that does not run it asks ``where`` it runs: here (taken over on the spot when
  nobody held it), or the node that owns it, to which the request is forwarded (``server.cluster.forwarding``);
- a graceful stop (``drain``) stops every object here and releases its lease for the others to take at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from redis.exceptions import RedisError

from server.cluster.redis_registry import PREFIX, RedisRegistry

log = logging.getLogger(__name__)


def lease_name(kind: str, object_id: str) -> str:
    """The registry's and the store's name of object ``object_id`` of ``kind`` (``tournament:K7QX``)."""
    return f"{kind}:{object_id}"


def lines_key(kind: str) -> str:
    """The hash of the listing lines of the objects of ``kind`` (id -> line), as their owners last published them."""
    return f"{PREFIX}lines:{kind}"


class LeasedKind(Protocol):
    """One kind of object a node runs under leases (its adapter: ``server.tournaments.leases`` for tournaments)."""

    kind: str  # the prefix of its lease names

    def running(self) -> list[str]:
        """The ids of the objects running on this node now."""
        ...

    def stored(self) -> list[str]:
        """The ids of every object of this kind in the shared store (each runs on some node)."""
        ...

    async def take_over(self, ids: list[str]) -> None:
        """Run these objects here, read back from the store (their leases were just acquired with their fences)."""
        ...

    async def lost(self, object_id: str) -> None:
        """Another node holds the object's lease now (or nobody does): stop it here at once, write nothing more."""
        ...

    async def stop_all(self) -> list[str]:
        """A graceful stop: every object here stops after its write in progress; their ids."""
        ...


class LeasedObjects:
    """The leased objects of every kind on one node (see the module docstring)."""

    def __init__(self, registry: RedisRegistry, url_of: Callable[[str], Awaitable[str | None]]) -> None:
        self.registry = registry
        self.url_of = url_of  # a living node's public URL
        self.kinds: dict[str, LeasedKind] = {}
        self.taken_over = 0  # objects this node took over from others
        self._taking: dict[str, asyncio.Future[None]] = {}  # lease names being taken over here: done when run

    def add(self, kind: LeasedKind) -> None:
        """Run objects of ``kind`` under leases on this node."""
        self.kinds[kind.kind] = kind

    @property
    def node(self) -> str:
        """This node's id."""
        return self.registry.node

    def held(self) -> list[str]:
        """The lease names of every object running here."""
        return [lease_name(name, object_id) for name, kind in self.kinds.items() for object_id in kind.running()]

    async def claim(self, kind: str, object_id: str) -> bool:
        """Take the lease of a new object before its first write; False when the id is held or was ever used."""
        name = lease_name(kind, object_id)
        fence = await self.registry.acquire(name)
        if fence is None:
            return False
        if fence != 1:  # an id used before stays used: its log and its audit are its own
            await self.registry.release(name)
            return False
        return True

    async def renew(self) -> None:
        """The heartbeat's part: renew every lease of an object running here; one it no longer holds stops here."""
        held = self.held()
        for name in await self.registry.renew(held):
            kind, object_id = name.split(":", 1)
            await self.lost(kind, object_id)

    async def lost(self, kind: str, object_id: str) -> None:
        """Another node holds the object's lease (the heartbeat could not renew it, or the store refused a write
        under it): it stops here at once, and nothing more is written for it here."""
        log.warning("node %s lost the lease of %s %s: it stops here", self.node, kind, object_id)
        self.registry.fences.pop(lease_name(kind, object_id), None)
        await self.kinds[kind].lost(object_id)

    async def scan(self) -> None:
        """Take over every stored object nobody holds a lease on (per kind, all at once)."""
        for name, kind in self.kinds.items():
            here = set(kind.running())
            names = [lease_name(name, i) for i in kind.stored() if i not in here]
            await self._take_over(kind, await self.registry.unowned(names))

    async def _take_over(self, kind: LeasedKind, names: list[str]) -> None:
        """Acquire the leases (their fences drawn from the store, which raises them) and run the objects here.

        A name is marked as being taken over before its lease is asked for: a request that finds the lease this
        node's meanwhile waits for the object to run here instead of finding it nowhere."""
        done = asyncio.get_running_loop().create_future()
        mine = [name for name in names if name not in self._taking]
        for name in mine:
            self._taking[name] = done
        try:
            fences = await self.registry.acquire_many(mine)
            if not fences:
                return
            ids = [name.split(":", 1)[1] for name in mine if name in fences]
            try:
                await kind.take_over(ids)
            except BaseException:
                for name in fences:  # not running here: the lease goes back for another node (or the next scan)
                    await self.registry.release(name)
                raise
            self.taken_over += len(ids)
            log.info("node %s took over %s %s", self.node, kind.kind, ", ".join(ids))
        finally:
            done.set_result(None)
            for name in mine:
                if self._taking.get(name) is done:
                    del self._taking[name]

    async def where(self, kind: str, object_id: str) -> str | None:
        """The node that runs object ``object_id``: None when this one (taken over here when nobody held its lease, or
        no such object is stored: the local handler says so). An owner that died - its node's key gone - is waited
        for until its lease lapses (a lease's time at most), and the object is then taken over here."""
        name = lease_name(kind, object_id)
        leased = self.kinds[kind]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.registry.lease_ms / 1000 + 1.0
        while True:
            taking = self._taking.get(name)
            if taking is not None:  # being read back here: the request waits for it
                await asyncio.shield(taking)
            if object_id in leased.running():
                return None
            owner = await self.registry.owner(name)
            if owner is None:
                if object_id not in leased.stored():
                    return None
                await self._take_over(leased, [name])
                if object_id in leased.running() or loop.time() >= deadline:
                    return None
                continue  # another node was first
            if owner == self.node:
                if name in self._taking:
                    continue  # taken over here since the wait above: wait for it now
                return None  # ours: just created here (or lost a moment ago: the store refuses its writes)
            if await self.url_of(owner) is not None:
                return owner
            if loop.time() >= deadline:
                raise RedisError(f"{kind} {object_id} is held by node {owner}, which is gone")
            left_ms = await self.registry.lease_left_ms(name)  # a dead owner renews nothing: it lapses then
            await asyncio.sleep(min(max(left_ms, 20), self.registry.lease_ms) / 1000)

    async def publish_lines(self, kind: str, lines: dict[str, str]) -> None:
        """The listing lines of the objects of ``kind`` running here, for every node's list (``lines``)."""
        if lines:
            await self.registry.client.hset(lines_key(kind), mapping=lines)  # type: ignore[arg-type]

    async def lines(self, kind: str) -> dict[str, str]:
        """The latest listing line of every object of ``kind``, whichever node published it, by id."""
        found = await self.registry.client.hgetall(lines_key(kind))
        return {_text(key): _text(value) for key, value in found.items()}

    async def drain(self) -> None:
        """A graceful stop: every object stops here and its lease is released for another node to take at once."""
        for name, kind in self.kinds.items():
            for object_id in await kind.stop_all():
                await self.registry.release(lease_name(name, object_id))


def _text(value: bytes | str) -> str:
    """A Redis answer as text."""
    return value.decode() if isinstance(value, bytes) else value

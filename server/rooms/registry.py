"""Where rooms are found and players wait: room codes and their owner node, the public listing, the quick-match
queue - as value records behind an asynchronous interface.

Why an interface of values: one server process keeps all of this in memory; several processes share it (Redis),
and then nothing in it can be a live object of one process - a room is its code, its owner node and its last
known listing, a waiting player is his id. The lobby talks only to ``Registry`` and is given one; this module
holds the in-process implementation, the embedded default.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from shared.matchmaking import PoolEntry, PoolRules, pair_pool, pool_key
from shared.protocol import RoomInfo
from shared.rulesets import RULESETS


@dataclass(frozen=True, slots=True, kw_only=True)
class Listing:
    """A room as the registry knows it: the node that owns it, whether it is listed, its last known line."""

    code: str
    node: str
    private: bool
    info: RoomInfo


@dataclass(frozen=True, slots=True, kw_only=True)
class QueueEntry:
    """A player waiting for a quick match: the ruleset (None: any) and setting overrides he asked for, since when
    (wall ms), his rating in that ruleset's family, and the node of a cluster he waits on (as the registry read him
    back; "" in one process, where everyone waits here)."""

    player_id: int
    ruleset: str | None
    overrides: dict[str, Any] = field(default_factory=dict)
    since_ms: int = 0
    rating: int = 1500
    node: str = ""


def pool_entry(entry: QueueEntry) -> PoolEntry:
    """A waiting player as the pool pairs him: a named ruleset with its overrides is his key; one who asked for any
    ruleset (no overrides: ``Lobby.quick`` refuses them) waits in ``standard`` and accepts every ruleset's plain key,
    so he pairs with a later player who names one as readily as with an earlier one."""
    also: tuple[str, ...] = ()
    if entry.ruleset is not None:
        key = pool_key(entry.ruleset, entry.overrides)
    else:
        key, also = pool_key("standard", {}), tuple(pool_key(r, {}) for r in RULESETS if r != "standard")
    return PoolEntry(player_id=str(entry.player_id), rating=entry.rating, waiting_since_ms=entry.since_ms, key=key,
                     also=also)


def paired_ruleset(first: QueueEntry, second: QueueEntry) -> str:
    """The ruleset two paired players play: the one either named (they are compatible: the same, when both did),
    ``standard`` when both asked for any."""
    return first.ruleset or second.ruleset or "standard"


def waits_for(entry: QueueEntry, ruleset: str | None) -> bool:
    """Whether a waiting player counts among those waiting for ``ruleset`` (None: everyone; a player open to any
    ruleset waits for each)."""
    return ruleset is None or entry.ruleset in (None, ruleset)


@dataclass(frozen=True, slots=True, kw_only=True)
class Pairing:
    """Two waiting players paired (``first`` waited longer) and the ruleset their match is played with."""

    first: QueueEntry
    second: QueueEntry
    ruleset: str


@dataclass(frozen=True, slots=True, kw_only=True)
class QueuePass:
    """One pass over the queue: the pairs made (they left the queue) and when two waiting players will next
    accept each other (None: no such pair)."""

    pairs: tuple[Pairing, ...]
    next_pass_ms: int | None


class Moved(Exception):
    """The room is played on another node of the cluster: connect to ``url`` (with the token)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.url = url


class Registry(Protocol):
    """Rooms by code, the public listing and the quick-match queue (see the module docstring)."""

    async def claim(self, listing: Listing) -> bool:
        """Register a new room under its code; False when the code is taken or was ever used - a code is claimed once,
        and stays used after its room is removed (its matches keep their room's code): try another."""
        ...

    async def update(self, listing: Listing) -> None:
        """Replace the room's listing (its owner may change: a takeover)."""
        ...

    async def update_many(self, listings: list[Listing]) -> None:
        """Replace several rooms' listings at once (recovery, a takeover, the heartbeat)."""
        ...

    async def room(self, code: str) -> Listing | None:
        """The room with this code, if any."""
        ...

    async def remove(self, code: str) -> None:
        """Forget a room."""
        ...

    async def public(self, limit: int) -> list[Listing]:
        """The public rooms, newest first, at most ``limit``."""
        ...

    async def join_queue(self, entry: QueueEntry) -> None:
        """Put a player in the quick-match queue (again: his earlier entry is replaced)."""
        ...

    async def leave_queue(self, player_id: int) -> bool:
        """Take a player out of the queue; False when he was not queued."""
        ...

    async def take_pairs(self, now_ms: int) -> QueuePass:
        """Pair the waiting players by rating at ``now_ms`` (``shared.matchmaking``); the pairs leave the queue.

        Compatible: the same ruleset and equal setting overrides, or, for a player who asked for any ruleset, any
        ruleset without overrides (``pool_entry``); the pair plays the ruleset one of them named (``paired_ruleset``).
        """
        ...

    async def waiting(self, ruleset: str | None) -> int:
        """How many wait for ``ruleset`` (None: in every queue)."""
        ...


class InProcessRegistry:
    """The registry of one server process: dicts and a list, insertion-ordered."""

    def __init__(self, rules: PoolRules | None = None, used: Iterable[str] = ()) -> None:
        """``used``: the codes of rooms that existed before (the store's), which are never claimed again."""
        self._rooms: dict[str, Listing] = {}
        self._queue: list[QueueEntry] = []
        self._used = set(used)  # every code ever claimed or stored: none is claimed twice
        self.rules = rules or PoolRules()

    async def claim(self, listing: Listing) -> bool:
        """Register a new room under its code; False when the code is taken or was ever used."""
        if listing.code in self._rooms or listing.code in self._used:
            return False
        self._rooms[listing.code] = listing
        self._used.add(listing.code)
        return True

    async def update(self, listing: Listing) -> None:
        """Replace the room's listing."""
        self._rooms[listing.code] = listing

    async def update_many(self, listings: list[Listing]) -> None:
        """Replace several rooms' listings."""
        for listing in listings:
            self._rooms[listing.code] = listing

    async def room(self, code: str) -> Listing | None:
        """The room with this code, if any."""
        return self._rooms.get(code)

    async def remove(self, code: str) -> None:
        """Forget a room."""
        self._rooms.pop(code, None)

    async def public(self, limit: int) -> list[Listing]:
        """The public rooms, newest first."""
        return _newest_public(self._rooms.values(), limit)

    async def join_queue(self, entry: QueueEntry) -> None:
        """Put a player in the queue (replacing an earlier entry of his)."""
        await self.leave_queue(entry.player_id)
        self._queue.append(entry)

    async def leave_queue(self, player_id: int) -> bool:
        """Take a player out of the queue."""
        before = len(self._queue)
        self._queue = [e for e in self._queue if e.player_id != player_id]
        return len(self._queue) != before

    async def take_pairs(self, now_ms: int) -> QueuePass:
        """Pair by rating, closest first, windows widening with the wait (``shared.matchmaking.pair_pool``).

        Why overrides must be equal: a player who asked for a 20-second period must not silently get the
        ruleset's 5-minute one, nor impose his on someone who asked for the plain ruleset.
        """
        by_id = {e.player_id: e for e in self._queue}
        done = pair_pool([pool_entry(e) for e in self._queue], now_ms, self.rules)
        pairs = []
        for pair in done.pairs:
            first, second = by_id[int(pair.first.player_id)], by_id[int(pair.second.player_id)]
            pairs.append(Pairing(first=first, second=second, ruleset=paired_ruleset(first, second)))
        paired = {p.first.player_id for p in pairs} | {p.second.player_id for p in pairs}
        self._queue = [e for e in self._queue if e.player_id not in paired]
        return QueuePass(pairs=tuple(pairs), next_pass_ms=done.next_pass_ms)

    async def waiting(self, ruleset: str | None) -> int:
        """How many wait for ``ruleset`` (None: in every queue; a player open to any ruleset counts for each)."""
        return sum(1 for e in self._queue if waits_for(e, ruleset))


def _newest_public(listings: Iterable[Listing], limit: int) -> list[Listing]:
    """The public listings, newest first (they are kept oldest first)."""
    public = [listing for listing in listings if not listing.private]
    return public[::-1][:limit]

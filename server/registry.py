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

from shared.protocol import RoomInfo


@dataclass(frozen=True, slots=True, kw_only=True)
class Listing:
    """A room as the registry knows it: the node that owns it, whether it is listed, its last known line."""

    code: str
    node: str
    private: bool
    info: RoomInfo


@dataclass(frozen=True, slots=True, kw_only=True)
class QueueEntry:
    """A player waiting for a quick match: the ruleset (None: any) and setting overrides he asked for."""

    player_id: int
    ruleset: str | None
    overrides: dict[str, Any] = field(default_factory=dict)
    since_ms: int = 0
    rating: float = 1500.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Pairing:
    """Two waiting players paired (``first`` waited longer) and the ruleset their match is played with."""

    first: QueueEntry
    second: QueueEntry
    ruleset: str


class Registry(Protocol):
    """Rooms by code, the public listing and the quick-match queue (see the module docstring)."""

    async def claim(self, listing: Listing) -> bool:
        """Register a new room under its code; False when the code is taken (try another)."""
        ...

    async def update(self, listing: Listing) -> None:
        """Replace the room's listing (its owner may change: a takeover)."""
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

    async def enqueue(self, entry: QueueEntry) -> Pairing | None:
        """Queue ``entry``; the pairing when a compatible player was waiting (both then leave the queue).

        Compatible: equal setting overrides, and the same ruleset or either side said any.
        """
        ...

    async def dequeue(self, player_id: int) -> bool:
        """Take a player out of the queue; False when he was not queued."""
        ...

    async def waiting(self, ruleset: str | None) -> int:
        """How many wait for ``ruleset`` (None: in every queue)."""
        ...


class InProcessRegistry:
    """The registry of one server process: dicts and a list, insertion-ordered."""

    def __init__(self) -> None:
        self._rooms: dict[str, Listing] = {}
        self._queue: list[QueueEntry] = []

    async def claim(self, listing: Listing) -> bool:
        """Register a new room under its code; False when the code is taken."""
        if listing.code in self._rooms:
            return False
        self._rooms[listing.code] = listing
        return True

    async def update(self, listing: Listing) -> None:
        """Replace the room's listing."""
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

    async def enqueue(self, entry: QueueEntry) -> Pairing | None:
        """Pair with the longest-waiting compatible player (same overrides; same ruleset, or either side said any).

        Why overrides must be equal: a player who asked for a 20-second period must not silently get the
        ruleset's 5-minute one, nor impose his on someone who asked for the plain ruleset.
        """
        for i, other in enumerate(self._queue):
            if other.player_id == entry.player_id or other.overrides != entry.overrides:
                continue
            if other.ruleset is None or entry.ruleset is None or other.ruleset == entry.ruleset:
                del self._queue[i]
                return Pairing(first=other, second=entry, ruleset=entry.ruleset or other.ruleset or "standard")
        await self.dequeue(entry.player_id)
        self._queue.append(entry)
        return None

    async def dequeue(self, player_id: int) -> bool:
        """Take a player out of the queue."""
        before = len(self._queue)
        self._queue = [e for e in self._queue if e.player_id != player_id]
        return len(self._queue) != before

    async def waiting(self, ruleset: str | None) -> int:
        """How many wait for ``ruleset`` (None: in every queue)."""
        return sum(1 for e in self._queue if ruleset is None or e.ruleset == ruleset)


def _newest_public(listings: Iterable[Listing], limit: int) -> list[Listing]:
    """The public listings, newest first (they are kept oldest first)."""
    public = [listing for listing in listings if not listing.private]
    return public[::-1][:limit]

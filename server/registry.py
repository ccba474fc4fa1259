"""Where rooms are found: by code, in the public list, and through the quick-match queue.

Why an interface: DESIGN.md "Scale" - past one machine, rooms, seats and matchmaking move to a shared
registry (Redis) while each room stays in one process. The lobby talks only to ``Registry``; this module
holds the in-process implementation used on one machine and in tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, Protocol, TypeVar

R = TypeVar("R")
W = TypeVar("W")


class Registry(Protocol[R, W]):
    """Rooms by code and the quick-match queues (``W`` is whatever waits: a connection)."""

    def add(self, code: str, room: R) -> None:
        """Register a room under its code."""
        ...

    def get(self, code: str) -> R | None:
        """The room with this code, if any."""
        ...

    def remove(self, code: str) -> None:
        """Forget a room."""
        ...

    def all(self) -> Iterable[R]:
        """Every room, oldest first."""
        ...

    def enqueue(self, ruleset: str | None, overrides: dict[str, Any], waiter: W) -> tuple[W, str] | None:
        """Queue ``waiter``; returns (the opponent, the ruleset) when someone compatible was waiting.

        Compatible: the same ruleset (or either side said any) and equal setting overrides.
        """
        ...

    def dequeue(self, waiter: W) -> bool:
        """Take ``waiter`` out of the queue; False when it was not queued."""
        ...

    def waiting(self, ruleset: str | None) -> int:
        """How many wait for ``ruleset`` (None: in every queue)."""
        ...


class InProcessRegistry(Generic[R, W]):
    """The registry of one server process: dicts and a list, insertion-ordered."""

    def __init__(self) -> None:
        self._rooms: dict[str, R] = {}
        self._queue: list[tuple[str | None, dict[str, Any], W]] = []

    def add(self, code: str, room: R) -> None:
        """Register a room under its code."""
        self._rooms[code] = room

    def get(self, code: str) -> R | None:
        """The room with this code, if any."""
        return self._rooms.get(code)

    def remove(self, code: str) -> None:
        """Forget a room."""
        self._rooms.pop(code, None)

    def all(self) -> list[R]:
        """Every room, oldest first."""
        return list(self._rooms.values())

    def enqueue(self, ruleset: str | None, overrides: dict[str, Any], waiter: W) -> tuple[W, str] | None:
        """Pair with the longest-waiting compatible player (same overrides; same ruleset, or either side said any).

        Why overrides must be equal: a player who asked for a 20-second period must not silently get the
        ruleset's 5-minute one, nor impose his on someone who asked for the plain ruleset.
        """
        for i, (wanted, their_overrides, other) in enumerate(self._queue):
            if other is waiter or their_overrides != overrides:
                continue
            if wanted is None or ruleset is None or wanted == ruleset:
                del self._queue[i]
                return other, ruleset or wanted or "standard"
        self.dequeue(waiter)
        self._queue.append((ruleset, dict(overrides), waiter))
        return None

    def dequeue(self, waiter: W) -> bool:
        """Take ``waiter`` out of the queue."""
        before = len(self._queue)
        self._queue = [(r, o, w) for r, o, w in self._queue if w is not waiter]
        return len(self._queue) != before

    def waiting(self, ruleset: str | None) -> int:
        """How many wait for ``ruleset`` (None: in every queue)."""
        return sum(1 for r, _, _ in self._queue if ruleset is None or r == ruleset)

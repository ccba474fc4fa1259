"""A bounded memo keyed by an object's identity, for values derived from objects nobody changes.

Why: the same immutable object is converted or checked several times in a row - a resolved position written into
its MovePlayed and into the log's kept copy, a room's position into the RoomJoined of every coach and spectator who
comes (back). Hashing such an object by value costs about what the conversion saves, so the memo finds it by
``id`` and holds it, so that its ``id`` is not reused by another object while it is remembered. The oldest entry
is dropped first once ``size`` are kept. Threads may share one memo (the store's writer thread and the event loop):
a lookup never fails because of another thread, and at worst the same value is computed twice.
"""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityMemo(Generic[K, V]):
    """The values of the last ``size`` objects put here, found by the object itself (``is``, not ``==``)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: dict[int, tuple[K, V]] = {}

    def get(self, key: K) -> V | None:
        """The value put for this very object, or None."""
        found = self._kept.get(id(key))
        return found[1] if found is not None and found[0] is key else None

    def put(self, key: K, value: V) -> None:
        """Remember ``value`` for ``key`` (held until dropped), dropping the oldest entry beyond ``size``."""
        kept = self._kept
        kept[id(key)] = (key, value)
        if len(kept) > self.size:
            try:  # another thread may be dropping the same one
                kept.pop(next(iter(kept)), None)
            except RuntimeError:  # ... or changing the dict while this looks for its oldest
                pass

    def __len__(self) -> int:
        return len(self._kept)

"""The versioned history of what a room broadcast, for reconnects and resync (Lichess lila-ws).

Why: every broadcast gets the next version (one more than the last); a client that reconnects or
notices a gap sends the last version it has and receives exactly the missing messages, or - when
they are older than the kept window - ``None``, which tells the room to send a full snapshot.
"""

from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class History(Generic[T]):
    """The last ``size`` broadcast messages of a room with their versions."""

    def __init__(self, size: int, version: int = 0) -> None:
        self._items: deque[tuple[int, T]] = deque(maxlen=size)
        self._version = version

    @property
    def version(self) -> int:
        """The version of the latest broadcast (0 before the first)."""
        return self._version

    def append(self, make: object) -> int:
        """Reserve the next version and store the message ``make(version)`` builds; returns the version."""
        self._version += 1
        item = make(self._version) if callable(make) else make
        self._items.append((self._version, item))  # type: ignore[arg-type]
        return self._version

    def since(self, version: int) -> list[T] | None:
        """The messages after ``version``, in order; None when some of them are no longer kept."""
        if version >= self._version:
            return []
        if version < 0:
            return None
        if not self._items or self._items[0][0] > version + 1:
            return None
        return [item for v, item in self._items if v > version]

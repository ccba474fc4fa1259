"""Answers made once per version: a small LRU of bodies by key.

Why: the standings of a 200-player Swiss take milliseconds to rank and to write as JSON, and a hall of phones asks
for them every few seconds; a tournament changes only when an event is logged, so the key holds its version and a
body is made once per version, whoever asks (and its ETag with it).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable

from server.web.web_responses import Body

KEPT = 512  # bodies kept at most (a few tournaments' files, standings and pairings; the last finished matches)


class BodyCache:
    """``get(key, make)``: the body kept for ``key``, else ``make()``'s, kept."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._bodies: OrderedDict[Hashable, Body] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], Body]) -> Body:
        """The body for ``key`` (made by ``make`` the first time)."""
        found = self._bodies.get(key)
        if found is not None:
            self._bodies.move_to_end(key)
            return found
        body = self._bodies[key] = make()
        if len(self._bodies) > self._kept:
            self._bodies.popitem(last=False)
        return body

    def put(self, key: Hashable, body: Body) -> Body:
        """Keep ``body`` for ``key`` (made elsewhere: in a thread)."""
        self._bodies[key] = body
        self._bodies.move_to_end(key)
        if len(self._bodies) > self._kept:
            self._bodies.popitem(last=False)
        return body

    def find(self, key: Hashable) -> Body | None:
        """The body kept for ``key``, if any."""
        return self._bodies.get(key)

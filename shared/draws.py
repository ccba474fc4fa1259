"""Deterministic pseudo-random draws for the core, keyed by the match seed and named indices.

Why not ``random``: the core must never touch global random state, and a draw must depend only on
what identifies it (the match seed, the move number, the event's index), never on how many draws
came before it in some other code path. ``draw(seed, "exit", move, index)`` is the same number in
every process and on every platform (it is a hash, not floating-point arithmetic).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_SCALE = float(1 << 53)


def draw(*key: object) -> float:
    """A number in [0, 1) fixed by ``key`` (e.g. ``draw(seed, "flip", move_number, index)``)."""
    digest = hashlib.blake2b(repr(key).encode("utf-8"), digest_size=8).digest()
    return (int.from_bytes(digest, "big") >> 11) / _SCALE


def lot(seed: int, purpose: str, *options: T) -> T:
    """A seeded lot between ``options`` (V.2, V.6, XV.16): the same seed and purpose give the same result."""
    return options[int(draw(seed, "lot", purpose) * len(options))]


class Stream:
    """A reproducible stream of draws for one purpose (the bot's candidate flicks, property tests)."""

    __slots__ = ("_count", "_key")

    def __init__(self, *key: object) -> None:
        """A stream keyed by ``key`` (e.g. the seed, a purpose and a move number), starting at its first draw."""
        self._key = key
        self._count = 0

    def random(self) -> float:
        """The next number in [0, 1)."""
        self._count += 1
        return draw(*self._key, self._count)

    def uniform(self, low: float, high: float) -> float:
        """The next number in [low, high)."""
        return low + (high - low) * self.random()

    def choice(self, options: Sequence[T]) -> T:
        """The next pick among ``options``."""
        return options[int(self.random() * len(options))]

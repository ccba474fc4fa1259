"""A token bucket per connection: the Lichess-like budget of 100 messages per 20 seconds.

Why a bucket and not a fixed window: a burst (a reconnect's resync, a quick series of choices) is
allowed up to the budget, while a steady flood is cut to the refill rate; it needs only two numbers
per connection and the clock it is given.
"""

from __future__ import annotations

from collections.abc import Callable


class TokenBucket:
    """``capacity`` tokens, refilled continuously at ``capacity / window_s`` per second."""

    __slots__ = ("_capacity", "_last", "_now", "_rate", "_tokens")

    def __init__(self, capacity: int, window_s: float, now: Callable[[], float]) -> None:
        self._capacity = float(capacity)
        self._rate = capacity / window_s
        self._now = now
        self._tokens = float(capacity)
        self._last = now()

    def take(self) -> bool:
        """Spend one token if there is one; False means the message must be refused."""
        current = self._now()
        self._tokens = min(self._capacity, self._tokens + (current - self._last) * self._rate)
        self._last = current
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

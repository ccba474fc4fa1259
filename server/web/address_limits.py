"""A token bucket per remote address for the web's requests: a page polls, a script reads, nobody floods.

Why per address and not per connection: every HTTP request is a connection of its own (the handshake hook answers
one and closes), so only the address says who asks. The buckets are the connections' own (``TokenBucket``); an
address unseen for a while is forgotten, so the table holds only those who asked lately.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from server.connections.ratelimit import TokenBucket

BURST = 120  # requests an address may make at once (a page's first load is about ten)
WINDOW_S = 20.0  # ... refilled over this long: 6 requests a second, a page polling every 2 s needs well under one
KEPT_ADDRESSES = 10_000  # the buckets kept at most; the least recently seen go first


class AddressLimits:
    """Whether one more request from an address is within its budget."""

    def __init__(self, burst: int = BURST, window_s: float = WINDOW_S,
                 now: Callable[[], float] = time.monotonic, kept: int = KEPT_ADDRESSES) -> None:
        self.burst = burst
        self.window_s = window_s
        self._now = now
        self._kept = kept
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allow(self, address: str) -> bool:
        """Spend one of ``address``'s tokens; False when it has none left."""
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self.burst, self.window_s, self._now)
            if len(self._buckets) > self._kept:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(address)
        return bucket.take()

    @property
    def retry_after_s(self) -> int:
        """Seconds until an address out of tokens has one again (the refill of one token, rounded up)."""
        return max(1, int(self.window_s / self.burst + 0.999))

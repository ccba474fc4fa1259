"""Waiting in a test for something another process does: one polling loop for every test that has no event to
await (a window drawn by another process, a server's state read over the wire)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def until(check: Callable[[], Any], timeout: float, what: str, every: float = 0.5) -> Any:
    """``check()``'s first true value within ``timeout`` seconds (asked every ``every`` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(every)
    raise AssertionError(f"not within {timeout:.0f} s: {what}")

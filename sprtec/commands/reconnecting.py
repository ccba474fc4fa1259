"""A protocol client that stays connected: it reconnects with growing pauses, follows MOVED to a room's node, tries
the other nodes of a cluster when one cannot be reached, and gives up only after a long time without a connection.

Why one loop for the bot and the tournament coach: both play across server restarts, kill -9 and (in a cluster) a
node's death or drain, and docs/PROTOCOL.md "Clusters" and "Reconnecting" say the same for both - connect again with
the token, go where MOVED says at once. Each program gives only what one connection does (``session``).
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from shared.protocol import MAX_SERVER_FRAME, CloseCode
from shared.protocol.errors import moved_to

T = TypeVar("T")
RECONNECT_DELAYS_S = (0.5, 1.0, 2.0, 4.0, 8.0)  # pauses between reconnection attempts (then 8 s each)


class Refused(RuntimeError):
    """The server will never take this client: its token is unknown (4002) or it speaks another protocol (4005)."""


@dataclass(frozen=True, kw_only=True)
class Reconnecting:
    """How a client reconnects: ``others`` are more nodes of the same cluster (tried in turn when the node in use
    cannot be reached); it gives up after ``give_up_s`` without a connection, ``first_connect_s`` when it was never
    welcomed (``welcomed()`` False: most likely a wrong URL); ``say`` tells the operator of a lost connection."""

    give_up_s: float
    first_connect_s: float | None = None
    others: tuple[str, ...] = ()
    say: Callable[[str], None] | None = None


async def stay_connected(url: str, session: Callable[[Any], Awaitable[T | None]], how: Reconnecting,
                         welcomed: Callable[[], bool] = lambda: True) -> T:
    """Run ``session(ws)`` on connection after connection until it returns something other than None."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    down_since: float | None = None
    attempt = 0
    nodes, turn = (url, *how.others), 0
    while True:
        try:
            async with connect(url, compression=None, max_size=MAX_SERVER_FRAME, open_timeout=10) as ws:
                down_since, attempt = None, 0
                result = await session(ws)
                if result is not None:
                    return result
        except ConnectionClosed as closed:
            code, reason = (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd is not None else (None, "")
            if code == CloseCode.BAD_TOKEN:
                raise Refused("the server no longer knows this client's token") from None
            if code == CloseCode.VERSION_MISMATCH:
                raise Refused(f"the server speaks another protocol: {reason}") from None
            node = moved_to(code, reason) if code is not None else None
            if node is not None:
                url, down_since, attempt = node, None, 0  # the room's node (a cluster): go there now
                continue
            _say(how, f"connection lost ({closed}); reconnecting")
        except (OSError, InvalidHandshake, TimeoutError) as problem:
            _say(how, f"cannot connect ({problem}); retrying")
            if url == nodes[turn]:
                turn = (turn + 1) % len(nodes)
            url = nodes[turn]
        now = time.monotonic()
        down_since = now if down_since is None else down_since
        limit = how.give_up_s if welcomed() or how.first_connect_s is None else min(how.give_up_s,
                                                                                     how.first_connect_s)
        if now - down_since > limit:
            raise RuntimeError(f"no connection to {url} for {limit:.0f} s")
        await asyncio.sleep(RECONNECT_DELAYS_S[min(attempt, len(RECONNECT_DELAYS_S) - 1)])
        attempt += 1


def _say(how: Reconnecting, text: str) -> None:
    """Tell the operator (when the program wants it)."""
    if how.say is not None:
        how.say(text)


def on_stderr(program: str) -> Callable[[str], None]:
    """A ``say`` that prints ``program: text`` on stderr."""
    return lambda text: print(f"{program}: {text}", file=sys.stderr, flush=True)

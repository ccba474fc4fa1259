"""End an abusive connection quickly without losing the close frame that tells the client why.

Why not ``close``: it waits up to CLOSE_TIMEOUT_S for the client's close frame, which never comes from a
client that floods us (its close frame sits behind the frames we stopped reading). Why not just drop TCP
after writing the close frame: the frame may still be in the transport's buffer, and closing a socket with
unread input makes the kernel send RST, which makes the client's next write fail and its stack throw away
everything it had not read yet - the client then sees 1006 instead of 1008 (the flood test failed so under
load). So, bounded by ``linger_s``: write the close frame, wait for the buffer to drain, half-close (FIN after
the frame), read and discard whatever the client still sends until it closes, then drop the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

DRAIN_POLL_S = 0.01  # how often the drain is checked (the transport has no awaitable for an empty buffer)


class _Discard(asyncio.Protocol):
    """Swallows what a closed-out client still sends; tells the connection when TCP is finally gone."""

    def __init__(self, connection: asyncio.Protocol) -> None:
        self._connection = connection
        self.eof = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        """Discard: nothing a closed-out client sends is read any more."""

    def eof_received(self) -> bool | None:
        """The client closed its side: nothing more can arrive, so dropping TCP now sends no RST."""
        if not self.eof.done():
            self.eof.set_result(None)
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        """Hand the end to the websockets connection, so its tasks and ``close`` finish at once."""
        if not self.eof.done():
            self.eof.set_result(None)
        self._connection.connection_lost(exc)


async def abort(ws: Any, code: int, reason: str, linger_s: float) -> None:
    """Send a close frame with ``code`` and ``reason`` on the websockets connection ``ws``, then drop TCP.

    Returns within about ``linger_s`` whatever the client does; a client that reads gets the close frame.
    """
    transport: asyncio.Transport = ws.transport
    with contextlib.suppress(Exception):  # already closing: dropping TCP is all that is left
        ws.protocol.send_close(code, reason)
        ws.send_data()
    try:
        async with asyncio.timeout(linger_s):
            while transport.get_write_buffer_size() > 0 and not transport.is_closing():
                await asyncio.sleep(DRAIN_POLL_S)
            if transport.is_closing():
                return
            if transport.can_write_eof():
                transport.write_eof()
            sink = _Discard(ws)
            transport.set_protocol(sink)
            transport.resume_reading()
            await sink.eof
    except TimeoutError:
        pass
    finally:
        transport.abort()

"""A websockets connection that writes each open connection's frames of one event-loop turn in one ``send``.

Why: a coach coming back after a restart gets Welcome, RoomJoined, a ClockUpdate and Presence in the same turn, and
websockets writes every frame with a ``send`` of its own - on loopback each one also runs the receiver's side of TCP,
about 20 us. 2,000 coaches spent a tenth of the server's recovery CPU there, and their clients as much again reading
the separate segments. Here the frames of an open connection wait in a list until the end of the turn (one
``call_soon`` per turn for all connections) and go out joined, in order. The price is on the live path: a frame a
connection gets alone in its turn (a MovePlayed to each member and spectator) waits for that second pass too - a
broadcast to 2,000 spectators measured 1.11-1.31x ``websockets.broadcast`` of the same frames, 1.06-1.10x before.

Nothing waits when it must not: the opening handshake's response, a close frame, the end of the stream and anything
once the connection is no longer open are written at once, after what was waiting, exactly as websockets writes them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

log = logging.getLogger(__name__)

_DUE: dict[asyncio.AbstractEventLoop, list[CoalescedConnection]] = {}  # per loop: connections with frames waiting


class CoalescedConnection(ServerConnection):
    """``ServerConnection`` whose open-state frames of one loop turn go to the transport in one write."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.waiting: list[bytes] = []  # frames written this turn, not yet given to the transport
        self.opened = False  # the handshake's response is written (it leaves the protocol OPEN before it is)

    async def handshake(self, *args: Any, **kwargs: Any) -> None:
        """websockets' opening handshake, its response written at once; frames wait for the turn's end after it."""
        await super().handshake(*args, **kwargs)
        self.opened = True

    def send_data(self) -> None:
        """Keep an open connection's frames for the end of the turn; write everything else at once, after them.

        While the protocol is OPEN its outgoing data are frames only: websockets leaves OPEN in the same call that
        queues a close frame or the end of the stream (``Protocol.send_close``, ``fail``, a received close), so those
        always come here in another state and go out through websockets' own ``send_data``."""
        if not (self.opened and self.protocol.state is State.OPEN):
            self.write_waiting()
            super().send_data()
            return
        chunks = self.protocol.data_to_send()
        if chunks:
            if not self.waiting:
                _due(self)
            self.waiting += chunks

    def write_waiting(self) -> None:
        """Give the transport the frames kept this turn, joined (none once the transport is closing)."""
        waiting = self.waiting
        if not waiting:
            return
        data = waiting[0] if len(waiting) == 1 else b"".join(waiting)
        waiting.clear()
        if not self.transport.is_closing():
            self.transport.write(data)


def _due(connection: CoalescedConnection) -> None:
    """Note that ``connection`` has frames waiting; the first of a turn schedules the flush of them all."""
    loop = connection.loop
    due = _DUE.get(loop)
    if due is None:
        _DUE[loop] = due = []
        loop.call_soon(_flush, loop)
    due.append(connection)


def _flush(loop: asyncio.AbstractEventLoop) -> None:
    """End of the turn: every connection's waiting frames to its transport. A connection whose write fails is
    dropped; the others are written all the same."""
    for connection in _DUE.pop(loop, ()):
        try:
            connection.write_waiting()
        except Exception:
            log.exception("writing to %s failed; dropping the connection", connection.remote_address)
            connection.transport.abort()

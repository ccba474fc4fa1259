"""Spectators of a room played on another node of the cluster: the owner's frames, relayed to them here.

Why relay spectators and send coaches away: a coach's actions must reach the one node that runs his match, but a
spectator only receives, and a popular match may have more spectators than one node should carry. So the owner
publishes every frame meant for everyone in the room (``Broadcast.everyone``: moves, clocks, presence, the end -
never a reply, which may carry a coach's token) on the room's channel, and each node with spectators of the room
subscribes once and hands every frame to all of them (``server.wire.deliver``). The channel is the room's, not the
owner's: when the owner dies and another node takes the room over, its frames come on the same channel and the
spectators here keep watching without reconnecting.

Pub/sub delivers at most once: a frame lost on the way is a gap in the versions, which the spectator's client
answers with ``Resync`` as it always does; this node then asks the owner for a fresh ``Snapshot``. A relay first
subscribes, then asks the owner for the spectator's ``RoomJoined`` (its Snapshot); the moves that were published
meanwhile and are not newer than that Snapshot are dropped, so the spectator sees each version once, in order.
"""

from __future__ import annotations

import logging
from typing import Any

from server.wire import deliver
from shared.protocol import SERVER_MESSAGES, MovePlayed, ProtocolError, RoomJoined, Snapshot, decode

log = logging.getLogger(__name__)


def frames_channel(code: str) -> str:
    """The pub/sub channel where room ``code``'s owner publishes its frames for everyone."""
    return f"sprtec:frames:{code}"


class Relay:
    """The spectators on this node of room ``code``, played elsewhere, and the frames they are sent."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.spectators: dict[Any, None] = {}  # connections, in the order they came (an ordered set)
        self._joining: dict[Any, list[bytes]] = {}  # connections waiting for their RoomJoined: frames meanwhile
        self.relayed = 0  # frames handed on

    def add(self, connection: Any) -> None:
        """A spectator asked to watch: frames are held for him until his RoomJoined comes (``joined``)."""
        self._joining[connection] = []

    def joined(self, connection: Any, frame: bytes) -> None:
        """The owner's RoomJoined (or Snapshot) for ``connection``: send it, then the held frames newer than it."""
        held = self._joining.pop(connection, [])
        try:
            message = decode(frame, SERVER_MESSAGES)
        except ProtocolError:
            log.warning("room %s: the owner sent an unreadable snapshot", self.code)
            return
        snapshot = message.snapshot if isinstance(message, RoomJoined) else message
        version = snapshot.version if isinstance(snapshot, Snapshot) else -1
        deliver([connection], frame)
        for later in held:
            if _newer(later, version):
                deliver([connection], later)
        self.spectators[connection] = None

    def waiting(self) -> list[Any]:
        """The connections still waiting for their RoomJoined."""
        return list(self._joining)

    def remove(self, connection: Any) -> None:
        """A spectator left (or his connection ended)."""
        self.spectators.pop(connection, None)
        self._joining.pop(connection, None)

    def empty(self) -> bool:
        """Nobody here watches the room any more (the node unsubscribes)."""
        return not self.spectators and not self._joining

    def forward(self, frame: bytes) -> None:
        """One frame of the owner: to every spectator here at once, held for those still joining."""
        for held in self._joining.values():
            held.append(frame)
        if self.spectators:
            deliver(self.spectators, frame)
            self.relayed += 1


def _newer(frame: bytes, version: int) -> bool:
    """Whether a held frame is still news after a Snapshot at ``version`` (moves at or before it are not)."""
    try:
        message = decode(frame, SERVER_MESSAGES)
    except ProtocolError:
        return False
    return not isinstance(message, MovePlayed) or message.version > version

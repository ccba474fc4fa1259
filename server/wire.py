"""The frames this server sends: its own messages, encoded without the codec's spec checks, and the one way they go
out to clients other than a session's reply on its own connection (``deliver``).

Why trusted: every message the server sends it built itself, from validated input and its own state, so checking
each field's type, range and choice again on the way out costs ~0.5 ms a Snapshot-bearing frame and finds nothing -
2,000 coaches coming back after a restart spent most of the server's time there. Sizes are still checked (a room's
settings can make a frame too long for a client), the bytes are those of the checked encoding
(tests/protocol/test_codec.py), and the tests' clients decode every frame with the full checks, so a server that
built a wrong message still fails its tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import websockets

from shared.protocol import encode
from shared.protocol.messages import ServerMessage


def outgoing(message: ServerMessage) -> bytes:
    """The msgpack frame of one of this server's messages."""
    return encode(message, trusted=True)


def deliver(clients: Iterable[Any], frame: bytes) -> None:
    """Send ``frame`` to each client's connection at once - a room's members, a tournament's watchers, relayed
    spectators, the players a service tells - as every part of the server does (``websockets.broadcast``: a slow
    client's full buffer never holds up the others, a closed connection is skipped). A client connected to another
    node of a cluster has no connection here (``ws`` None) and is skipped: ``server.cluster.forwarding`` sends his."""
    websockets.broadcast([ws for client in clients if (ws := getattr(client, "ws", None)) is not None], frame)

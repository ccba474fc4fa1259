"""The frames this server sends: its own messages, encoded without the codec's spec checks.

Why trusted: every message the server sends it built itself, from validated input and its own state, so checking
each field's type, range and choice again on the way out costs ~0.5 ms a Snapshot-bearing frame and finds nothing -
2,000 coaches coming back after a restart spent most of the server's time there. Sizes are still checked (a room's
settings can make a frame too long for a client), the bytes are those of the checked encoding
(tests/protocol/test_codec.py), and the tests' clients decode every frame with the full checks, so a server that
built a wrong message still fails its tests.
"""

from __future__ import annotations

from shared.protocol import encode
from shared.protocol.messages import ServerMessage


def outgoing(message: ServerMessage) -> bytes:
    """The msgpack frame of one of this server's messages."""
    return encode(message, trusted=True)

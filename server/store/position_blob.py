"""A position as the log keeps it beside each entry: one format byte, then the position packed compactly.

Why beside every entry: a restarted server then takes each match's position from its last row instead of running
its log through the physics again (a few ms per entry, tens of seconds for a thousand matches), and
``sprtec verify`` can prove, entry by entry, that the stored positions are what the fold gives. Packed as the values
of its fields (``shared.protocol.packed_position``: ~0.5 kB, a small part of the JSON's cost to write and to read
back), built where the entry is resolved (a physics worker, or the event loop within its in-line budget).

Rows written before kept their position as SCENARIOS.md JSON compressed with zlib, whose first byte is always 0x78;
they are read as before, so an existing database opens and verifies unchanged.
"""

from __future__ import annotations

import json
import zlib

from shared import notation
from shared.model import Position
from shared.protocol import packed_position

PACKED = b"\x01"  # the format byte of a packed position
ZLIB_JSON = 0x78  # the first byte of the older rows' zlib stream (deflate, 32 KiB window)


class BlobError(ValueError):
    """A kept position that cannot be read (damaged, or of a format this build does not know)."""


def pack(position: Position) -> bytes:
    """The stored form of a position."""
    return PACKED + packed_position.pack(position)


def unpack(blob: bytes) -> Position:
    """The position a stored blob holds; ``BlobError`` when it is damaged."""
    if blob[:1] == PACKED:
        try:
            return packed_position.unpack(blob[1:])
        except packed_position.PackedPositionError as exc:
            raise BlobError(str(exc)) from None
    if blob[:1] == bytes((ZLIB_JSON,)):
        try:
            return notation.position_from_json(json.loads(zlib.decompress(blob).decode("utf-8")))
        except (zlib.error, ValueError) as exc:  # NotationError and a broken JSON are ValueErrors
            raise BlobError(f"a damaged kept position: {exc}") from None
    raise BlobError(f"a kept position of an unknown format (first byte {blob[:1].hex() or 'none'})")


"""A position as the log keeps it beside each entry: its SCENARIOS.md JSON, compressed.

Why beside every entry: a restarted server then takes each match's position from its last row instead of running
its log through the physics again (a few ms per entry, tens of seconds for a thousand matches), and
``sprtec verify`` can prove, entry by entry, that the stored positions are what the fold gives. Compressed because a
position's JSON is ~1.5 kB and repeats itself (~0.4 kB with zlib); built in the physics worker, not the event loop.
"""

from __future__ import annotations

import json
import zlib

from shared import notation
from shared.model import Position

LEVEL = 6  # zlib's default: ~0.05 ms for a position


def pack(position: Position) -> bytes:
    """The stored form of a position."""
    text = json.dumps(notation.position_json(position), separators=(",", ":"), sort_keys=True)
    return zlib.compress(text.encode("utf-8"), LEVEL)


def unpack(blob: bytes) -> Position:
    """The position a stored blob holds (``notation.NotationError`` or ``zlib.error`` when it is damaged)."""
    return notation.position_from_json(json.loads(zlib.decompress(blob).decode("utf-8")))

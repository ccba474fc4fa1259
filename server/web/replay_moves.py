"""A stored match's moves as the room broadcast them: each log entry resolved again into its ``MovePlayed``.

Why the server does it for a browser: the log keeps a match's inputs, not its trajectories (docs/ARCHITECTURE.md
"A move is a pure function": the log is the replay), and the desktop client re-runs the physics itself to replay
a match - a browser cannot. So the server resolves each entry again with the room's own code
(``server.rooms.resolve``), which gives the very ``MovePlayed`` the room sent (the same trajectory, decisions and
position, bit for bit), and hands them out as JSON: the page's playback reads a move from the API and a move from
the websocket alike. This is CPU work (a few ms a flick) done in a thread, and kept for finished matches.
"""

from __future__ import annotations

from typing import Any

from server.rooms.resolve import Stamp, resolve
from server.store.log_rows import entry_from_row
from server.store.match_reads import ExportError, StoredMatch
from shared import notation
from shared.protocol.codec import peek
from shared.rulesets import make_settings

FORMAT = "sprtec-moves/1"


def moves_of(stored: StoredMatch, *, version_base: int) -> dict[str, Any]:
    """The match's first position and every entry's ``MovePlayed`` wire map (``"t"`` included) with its log ``index``;
    the broadcast of entry i carried version ``version_base + i + 1``. Raises ``ExportError`` for a broken log."""
    try:
        start = notation.position_from_json(stored.initial_position, path="initial_position")
    except notation.NotationError as exc:
        raise ExportError("BAD_LOG", f"match {stored.id}: {exc}") from None
    settings = make_settings(start.ruleset, start.setting_overrides())
    position, turn_used = start, 0
    moves: list[dict[str, Any]] = []
    for index, (kind, team, action, elapsed_ms) in enumerate(stored.log):
        try:
            entry = entry_from_row(index, kind, team, action, elapsed_ms)
        except notation.NotationError as exc:
            raise ExportError("BAD_LOG", f"match {stored.id}, log entry {index}: {exc}") from None
        stamp = Stamp(code=stored.room_code or "-", match_id=stored.id, version=version_base + index + 1,
                      team=entry.team or position.to_move, turn_used=turn_used, absent=False, settings=settings)
        resolved = resolve(position, entry, stamp)
        if resolved.frame is not None:
            moves.append({"index": index, "elapsed_ms": elapsed_ms, **peek(resolved.frame)})
        position, turn_used = resolved.position, resolved.turn_used
    home, away = stored.players or ("", "")
    return {"format": FORMAT, "match_id": stored.id, "room": stored.room_code, "finished": stored.finished,
            "players": {"home": home, "away": away}, "version_base": version_base,
            "start": notation.position_to_json(start), "moves": moves}

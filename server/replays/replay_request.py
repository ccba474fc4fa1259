"""The server's answer to ``GetReplay``: the match's scenario, built off the event loop, as one ``Replay`` frame.

Why a module of its own: the session only routes requests; reading a whole match log and writing it as JSON is
work (tens of ms for a long match) that must not stall every room of the server, so both steps run in a thread
(``asyncio.to_thread``) on a read-only connection of their own (``server.replays.replay_export``, the code behind
``sprtec export`` too). Who may have which replay (docs/PROTOCOL.md "Replay"): a finished match is public, like a
Lichess game; a running one only goes to its room's coaches and spectators, so a private room's match cannot be
followed from outside while it is played.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from server.replays import replay_export
from server.rooms.room import RoomError
from server.store import match_reads
from server.wire import outgoing
from shared.protocol import MAX_REPLAY_CHARS, MAX_SERVER_FRAME, Replay

log = logging.getLogger(__name__)


async def replay_frame(read_match: Callable[[str], match_reads.StoredMatch], match_id: str,
                       follows_room: Callable[[str], bool]) -> bytes:
    """The encoded ``Replay`` of ``match_id`` as ``read_match`` (the store's) reads it; ``follows_room(code)`` tells
    whether the asker coaches in or watches room ``code``. Raises ``RoomError``: NO_MATCH, NOT_IN_ROOM,
    REPLAY_TOO_LARGE or INTERNAL (a broken log)."""
    if not match_reads.MATCH_ID.fullmatch(match_id):
        raise RoomError("NO_MATCH", f"no match has the id {match_id!r} (a match id is 12 hex digits)")
    try:
        stored = await asyncio.to_thread(read_match, match_id)
        if not stored.finished and not follows_room(stored.room_code):
            raise RoomError("NOT_IN_ROOM", f"match {match_id} is still being played: until it ends, only the "
                                           "coaches and spectators of its room may have its replay")
        text = await asyncio.to_thread(replay_export.scenario_text, stored)
    except match_reads.ExportError as exc:  # its message names the server's files: for the log, not the client
        if exc.code == "BAD_LOG":
            log.error("the log of match %s cannot be replayed: %s", match_id, exc)
            raise RoomError("INTERNAL", f"the server could not read the log of match {match_id}") from None
        raise RoomError("NO_MATCH", f"no match has the id {match_id}") from None
    too_large = RoomError("REPLAY_TOO_LARGE", f"the replay of match {match_id} is {len(text)} characters, over the "
                                              f"{MAX_REPLAY_CHARS} a Replay carries: ask the server's operator for "
                                              "`sprtec export`")
    if len(text) > MAX_REPLAY_CHARS:
        raise too_large
    frame = outgoing(Replay(match_id, text))
    if len(frame) > MAX_SERVER_FRAME:  # only non-ASCII text can get here: characters are not bytes
        raise too_large
    return frame

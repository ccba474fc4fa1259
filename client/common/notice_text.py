"""The server's Notices (docs/PROTOCOL.md) in the player's language: the match log and the lobby's status line
both say them, so they are worded once."""

from __future__ import annotations

from client.common.i18n import N_, _
from shared.protocol import Notice

NOTICES = {  # an unknown code: the server's own words
    "PLAY_PAUSED": N_("The server cannot save moves: play is paused, nothing is lost"),
    "PLAY_RESUMED": N_("Moves are saved again: play goes on"),
    "OPPONENT_MISSING": N_("Your opponent did not arrive — you are back in the queue"),
}


def notice_text(message: Notice) -> str:
    """A Notice as the player reads it."""
    known = NOTICES.get(message.code)
    return _(known) if known is not None else message.message

"""A part of a match as the server names it (``period 2``, ``overtime 1``, ``break``, ``shootout``) in the player's
words, for the room list, the tournament's tables and the hall.
"""

from __future__ import annotations

from client.common.i18n import _


def part_words(part: str) -> str:
    """A part as the server names it (``period 2``, ``overtime 1``, ``break``, ``shootout``) in words."""
    kind, _sep, number = part.partition(" ")
    words = {"period": _("Period {n}"), "overtime": _("Overtime {n}"), "break": _("Break"),
             "shootout": _("Shoot-out")}
    return words.get(kind, part.capitalize()).format(n=number)

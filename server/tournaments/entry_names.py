"""The names a tournament shows - its own, and each entry's name, club and category - under the display names' rule.

Why here and not in the engine: a tournament file is the contract's (TOURNAMENT.md), which any program may write and
``sprtec tournament`` reads as it is; but a tournament the server runs shows its names to everyone - in the lobby,
the hall, the standings and TableAssigned - so they get the rule a display name gets (``shared.names``: BAD_NAME
for a bidi override, a control character, a name that shows nothing), and within one tournament no two entries may
look alike (NAME_TAKEN): a Cyrillic "Nоvák" entered beside Novák, or a player entering himself under the name of an
entry the organiser registered for someone else, would be taken for him on every screen. Names are kept as the rule
cleans them (NFC, trimmed, single spaces). Tournaments' own names need not differ: an id tells them apart, and the
same cup is played every year.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from server.rooms.room import RoomError
from shared.names import MAX_ENTRY_NAME_CHARS, MAX_TOURNAMENT_NAME_CHARS, BadName, clean_name, name_key, name_shape
from shared.tournament.model import Player, Tournament

MAX_CLUB_CHARS = 64  # EntryForm.club
MAX_CATEGORY_CHARS = 32  # EntryForm.category


def tournament_name(raw: str) -> str:
    """A tournament's name as the rule cleans it ('' stays '': the contract's default, shown as the id)."""
    return _optional(raw, MAX_TOURNAMENT_NAME_CHARS, "the tournament's name")


def entry(player: Player) -> Player:
    """An entry with its name, club and category as the rule cleans them (BAD_NAME naming the field)."""
    try:
        name = clean_name(player.name, MAX_ENTRY_NAME_CHARS)
    except BadName as exc:
        raise RoomError("BAD_NAME", f"the name of entry {player.id}: {exc}") from None
    return replace(player, name=name, club=_optional(player.club, MAX_CLUB_CHARS, f"the club of entry {player.id}"),
                   category=_optional(player.category, MAX_CATEGORY_CHARS, f"the category of entry {player.id}"))


def checked(t: Tournament) -> Tournament:
    """The tournament with its names cleaned, or BAD_NAME / NAME_TAKEN (two entries whose names look alike)."""
    players = tuple(entry(p) for p in t.players)
    Field(()).admit(players)
    return replace(t, name=tournament_name(t.name), players=players)


class Field:
    """The entries' names of one tournament, by key and by shape (``shared.names``), to find a look-alike fast."""

    __slots__ = ("by_key", "by_shape")

    def __init__(self, players: Iterable[Player]) -> None:
        self.by_key: dict[str, Player] = {}
        self.by_shape: dict[str, Player] = {}
        for player in players:
            self._add(player)

    def alike(self, name: str) -> Player | None:
        """The entry whose name looks like ``name``, if any."""
        return self.by_key.get(name_key(name)) or self.by_shape.get(name_shape(name))

    def admit(self, players: Iterable[Player]) -> None:
        """Add entries one by one; NAME_TAKEN for one whose name looks like an entry's before it."""
        for player in players:
            other = self.alike(player.name)
            if other is not None:
                raise RoomError("NAME_TAKEN", f"entry {player.id} ({player.name!r}) looks like entry {other.id} "
                                              f"({other.name!r}): give one of them a name that tells them apart")
            self._add(player)

    def _add(self, player: Player) -> None:
        """Index one entry's name."""
        self.by_key.setdefault(name_key(player.name), player)
        self.by_shape.setdefault(name_shape(player.name), player)


def _optional(raw: str, max_chars: int, what: str) -> str:
    """A shown text that may be empty: '' or the text as the name rule cleans it (BAD_NAME naming ``what``)."""
    if not raw.strip():
        return ""
    try:
        return clean_name(raw, max_chars)
    except BadName as exc:
        raise RoomError("BAD_NAME", f"{what}: {exc}") from None

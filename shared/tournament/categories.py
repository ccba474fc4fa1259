"""The Czech Cup's categories of players (the association ČSBH's, as organisers' software derives them).

Why derived and not typed in: organisers enter a year of birth, a sex and whether a player is a veteran once,
and the category follows from them for every season (TOURNAMENT.md "Categories"). A ``category`` that is
one of the exact codes wins; anything else there (``"men"``, ``"m"``) is free text and the category is
derived with age = season - year of birth: ``V`` veterans; else ``P`` younger pupils (under 12); else ``L``
women; else ``Z`` older pupils (under 15); else ``J`` juniors (under 18); else ``M`` men when the year of
birth is known; else ``?``. Without a year of birth every age test fails; without a season only an explicit
code gives a category.
"""

from __future__ import annotations

from typing import Literal

from shared.tournament.model import Player

Category = Literal["P", "Z", "J", "L", "M", "V", "?"]
CODES: tuple[Category, ...] = ("V", "P", "L", "Z", "J", "M")  # in the order the contract derives them
UNKNOWN: Category = "?"
YOUNGER_PUPILS_UNDER = 12
OLDER_PUPILS_UNDER = 15
JUNIORS_UNDER = 18


def category_of(player: Player, season: int | None) -> Category:
    """The player's category in ``season`` (None: the tournament has no season)."""
    for code in CODES:
        if player.category == code:
            return code
    if season is None:
        return UNKNOWN
    if player.veteran:
        return "V"
    age = None if player.year_of_birth is None else season - player.year_of_birth
    if age is not None and age < YOUNGER_PUPILS_UNDER:
        return "P"
    if player.sex == "f":
        return "L"
    if age is None:
        return UNKNOWN
    if age < OLDER_PUPILS_UNDER:
        return "Z"
    if age < JUNIORS_UNDER:
        return "J"
    return "M"

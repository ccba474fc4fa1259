"""Czech Cup points: each tier's table of points by place, and the adjustment by the size of the field.

Why tables and one formula: the association gives every tournament of the Czech Cup (Český pohár) a tier,
and each tier a table T of points by place, T[1] first (TOURNAMENT.md "Czech Cup points"). A field of n
ranked players shifts the table by n - L (L its length): a player ranked r gets T[r] + (n - L) when r <= L,
and T[L] + n - r below the table, so a bigger field is worth more and the last of any field gets at least
1. Players sharing a rank get the points of that rank. The tables are copied from the contract;
``tests/tournament/test_cup.py`` reads them back from docs/TOURNAMENT.md so that a typo cannot hide.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from shared.tournament.model import Tier

EXPRES = (40, 34, 29, 25, 22, 20, 18, 16, 14, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
CP12 = (
    160, 145, 133, 123, 114, 106, 99, 93, 88, 83, 79, 75, 71, 67, 64, 61, 58, 55, 52, 49, 46, 43, 41,
    39, 37, 35, 33, 31, 29, 27, 25, 23, 21, 19, 17, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
)
CP24 = (
    200, 185, 173, 163, 154, 146, 139, 133, 128, 123, 119, 115, 111, 107, 104, 101, 98, 95, 92, 89,
    86, 83, 81, 79, 77, 75, 73, 71, 69, 67, 65, 63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 34, 33,
    32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11,
)
CP36 = (
    340, 325, 313, 303, 294, 286, 279, 273, 268, 263, 259, 256, 253, 250, 247,
    244, 241, 238, 235, 232, 229, 227, 225, 223, 221, 219, 217, 215, 213, 211, 209, 207, 205, 203, 201, 199, 197,
    195, 193, 191, 188, 186, 184, 182, 180, 178, 176, 174, 172, 170, 168, 166, 164, 162, 160, 158, 156, 154, 152,
    150, 148, 146, 144, 142, 140, 138, 136, 134, 132, 130, 128, 126, 124, 122, 120, 118, 116, 114, 112, 110, 108,
    106, 104, 102, 100, 98, 96, 94, 92, 90, 88, 86, 84, 82, 80, 78, 76, 74, 72, 70, 68, 67, 66, 65, 64, 63, 62, 61,
    60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
)

TABLES: Mapping[Tier, tuple[int, ...]] = MappingProxyType({
    "expres": EXPRES,
    "cp12": CP12,
    "cp24": CP24,
    "cp36": CP36,
    "czech_open": CP36,  # the contract gives cp36 and czech_open one table
})


def cup_points(tier: Tier, rank: int, field: int) -> int:
    """The points of rank ``rank`` (1 = first; a shared rank is the group's first place) in a field of ``field``
    ranked players."""
    table = TABLES[tier]
    length = len(table)
    if rank <= length:
        return table[rank - 1] + (field - length)
    return table[-1] + field - rank

"""Berger tables: the round-robin schedule of TOURNAMENT.md, every player meeting every other once per cycle.

Why Berger's: it is the table organisers print (the FIDE handbook's tables: for four players 1-4 2-3 /
4-3 1-2 / 2-4 3-1), so a player can check his schedule by hand. Players are numbered 1..n; with an odd n a
dummy n+1 is added and whoever meets it has the round's bye. Round 1 pairs i with m+1-i (m the even size,
i at home); each next round moves every number but m on by m/2 (modulo m-1) in its seat, and m changes
sides. ``double`` adds a second cycle in the same order with home and away swapped.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True, slots=True)
class BergerRound:
    """One round of the table: (home, away) numbers in the table's row order, and the number with the bye."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


def berger_rounds(n: int, *, double: bool = False) -> tuple[BergerRound, ...]:
    """The rounds for players 1..n (none for fewer than two players)."""
    if n < 2:
        return ()
    m = n if n % 2 == 0 else n + 1
    half = m // 2

    def shift(number: int) -> int:
        """The seat a number moves to in the next round."""
        return number if number == m else (number - 1 + half) % (m - 1) + 1

    rows = [(i, m + 1 - i) for i in range(1, half + 1)]
    cycle: list[list[tuple[int, int]]] = []
    for _ in range(m - 1):
        cycle.append(rows)
        rows = [_seat(shift(h), shift(a), m) for h, a in rows]
    tables = cycle + ([[(a, h) for h, a in r] for r in cycle] if double else [])
    return tuple(_round(r, n, m) for r in tables)


def _seat(home: int, away: int, m: int) -> tuple[int, int]:
    """A row of the next round: the pair holding m changes sides."""
    return (away, home) if m in (home, away) else (home, away)


def _round(rows: list[tuple[int, int]], n: int, m: int) -> BergerRound:
    """A round's real pairs and its bye (the number paired with the dummy m when n is odd)."""
    if n == m:
        return BergerRound(pairs=tuple(rows), bye=None)
    pairs = tuple((h, a) for h, a in rows if m not in (h, a))
    bye = next(h if a == m else a for h, a in rows if m in (h, a))
    return BergerRound(pairs=pairs, bye=bye)

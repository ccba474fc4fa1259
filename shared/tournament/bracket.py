"""Knockout brackets: seeds placed in the standard order of a power-of-two bracket, byes to the top seeds.

Why the standard order: it keeps the best seeds apart until the last rounds (1 and 2 can only meet in the
final, 1-4 in a semi-final) and it is what organisers and players expect to see. For 16 the first round is
1-16, 8-9, 5-12, 4-13, 3-14, 6-11, 7-10, 2-15 (TOURNAMENT.md). The order is built by doubling: each seed s of
the order for k slots becomes the pair (s, 2k+1-s), written the other way round at every second position, so
the lower half mirrors the upper. A seed above the field's size is a missing place: its opponent (a top seed)
has a bye. Home is the better seed; the final and the match for third place (the semi-finals' losers, when
``third_place``) are played in the same, last round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

MatchKind = Literal["match", "final", "third_place"]


@dataclass(frozen=True, kw_only=True, slots=True)
class BracketMatch:
    """A scheduled knockout match: the better seed at home."""

    home: str
    away: str
    kind: MatchKind = "match"


@dataclass(frozen=True, kw_only=True, slots=True)
class BracketRound:
    """One round of a bracket: ``lines`` is the bracket from top to bottom (a match, or a player with a bye);
    ``third_place`` is the extra match of the last round."""

    number: int
    lines: tuple[BracketMatch | str, ...]
    third_place: BracketMatch | None = None

    @property
    def matches(self) -> tuple[BracketMatch, ...]:
        """Every match of the round, the bracket's first, the match for third place last."""
        main = tuple(line for line in self.lines if isinstance(line, BracketMatch))
        return main + ((self.third_place,) if self.third_place is not None else ())

    @property
    def byes(self) -> tuple[str, ...]:
        """The players through to the next round without a match (first round only)."""
        return tuple(line for line in self.lines if isinstance(line, str))


def seeding_order(size: int) -> tuple[int, ...]:
    """Seeds 1..size (a power of two) from the top of the bracket down."""
    order = [1]
    while len(order) < size:
        k = 2 * len(order)
        doubled: list[int] = []
        for index, s in enumerate(order):
            doubled += [s, k + 1 - s] if index % 2 == 0 else [k + 1 - s, s]
        order = doubled
    return tuple(order)


def bracket_size(field: int) -> int:
    """The smallest power of two holding ``field`` players (1 for an empty or one-player field)."""
    size = 1
    while size < field:
        size *= 2
    return size


def rounds_total(field: int) -> int:
    """How many rounds a bracket of ``field`` players has (0 when there is nobody to play)."""
    return bracket_size(field).bit_length() - 1


def opening_round(seeds: Sequence[str]) -> BracketRound:
    """Round 1 for ``seeds`` (best first): the standard order, missing places giving the top seeds byes."""
    size = bracket_size(len(seeds))
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in seeding_order(size)]
    rank = {player: index for index, player in enumerate(seeds)}
    lines: list[BracketMatch | str] = []
    for index in range(0, len(slots), 2):
        a, b = slots[index], slots[index + 1]
        if a is not None and b is not None:
            lines.append(_match(a, b, rank, "final" if size == 2 else "match"))
        elif a is not None:
            lines.append(a)
        elif b is not None:
            lines.append(b)
    return BracketRound(number=1, lines=tuple(lines))


def next_round(
    previous: BracketRound,
    winner: Callable[[BracketMatch], str],
    seeds: Sequence[str],
    *,
    total: int,
    third_place: bool,
) -> BracketRound:
    """The round after ``previous``: the winners (and the byes) of neighbouring lines meet."""
    rank: Mapping[str, int] = {player: index for index, player in enumerate(seeds)}
    through = [line if isinstance(line, str) else winner(line) for line in previous.lines]
    number = previous.number + 1
    kind: MatchKind = "final" if number == total else "match"
    lines = tuple(_match(through[i], through[i + 1], rank, kind) for i in range(0, len(through), 2))
    third = None
    semis = [line for line in previous.lines if isinstance(line, BracketMatch)]
    if third_place and number == total and len(semis) == 2:
        losers = [m.away if winner(m) == m.home else m.home for m in semis]
        third = _match(losers[0], losers[1], rank, "third_place")
    return BracketRound(number=number, lines=lines, third_place=third)


def _match(a: str, b: str, rank: Mapping[str, int], kind: MatchKind) -> BracketMatch:
    """The match of a and b with the better seed at home."""
    home, away = (a, b) if rank[a] < rank[b] else (b, a)
    return BracketMatch(home=home, away=away, kind=kind)

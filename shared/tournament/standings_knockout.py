"""Knockout standings: 1st, 2nd, 3rd (and 4th) from the last matches, then by the round reached.

Why so: a bracket ranks only who went how far (TOURNAMENT.md): the final gives 1st and 2nd, the match for
third place 3rd and 4th (without it the semi-finals' losers share 3rd), and everyone else shares a rank
with those who went out in the same round. While the stage runs, the players still in share the top rank.
``reached`` is the round a player went out in (the last round for the finalists, the semi-final for the
players of the match for third place, the next round for a player still in). Within a shared rank players
are listed by seed.
"""

from __future__ import annotations

from collections.abc import Mapping

from shared.tournament.model import Match
from shared.tournament.progress import StageCourse
from shared.tournament.tally import Line


def knockout_order(
    sc: StageCourse, after_round: int, lines: Mapping[str, Line]
) -> tuple[list[list[str]], dict[str, tuple[tuple[str, int], ...]]]:
    """The tiers (best first) and each player's round reached after ``after_round``."""
    out_in: dict[str, int] = {}
    for number in range(1, after_round + 1):
        for m in _played(sc, number):
            if (m.home, m.away) not in _third_place(sc, number) and m.loser is not None:
                out_in[m.loser] = number
    alive = [p for p in sc.field if p not in out_in]
    tiers: list[list[str]] = []
    if after_round == sc.total and sc.total >= 1:
        for m in _played(sc, sc.total):
            assert m.winner is not None and m.loser is not None
            tiers += [[m.winner], [m.loser]]  # the final first, the match for third place after it
    elif alive:
        tiers.append(alive)
    placed = {p for tier in tiers for p in tier}
    for number in range(after_round, 0, -1):
        group = [p for p in sc.field if out_in.get(p) == number and p not in placed]
        if group:
            tiers.append(group)
    last = sc.total if after_round == sc.total else after_round + 1
    reached = {p: out_in.get(p, last) for p in lines}
    return tiers, {p: (("reached", reached[p]),) for p in lines}


def _played(sc: StageCourse, number: int) -> list[Match]:
    """Round ``number``'s scheduled matches with their results, in the bracket's order (the final first)."""
    results = {frozenset(e.players()): e for e in sc.rounds[number - 1].matches if isinstance(e, Match)}
    return [results[frozenset((m.home, m.away))] for m in sc.brackets[number - 1].matches]


def _third_place(sc: StageCourse, number: int) -> set[tuple[str, str]]:
    """The match for third place of round ``number``, if it has one, both ways round."""
    m = sc.brackets[number - 1].third_place
    return set() if m is None else {(m.home, m.away), (m.away, m.home)}

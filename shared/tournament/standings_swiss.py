"""Swiss standings: points, Buchholz, capped goals, Buchholz of Buchholz, head-to-head between exactly two.

Why these, in this order: they are the Czech Cup's tie-breaks (TOURNAMENT.md "Standings"):

1. points;
2. ``buchholz``: the sum of the points of every opponent met over the board; an opponent's unplayed rounds
   (absent, suspended, withdrawn, entered late) count as draws, so meeting a player who missed rounds is
   not held against anyone (a walkover loss is a played round and counts its 0 points);
3. ``goals_capped``: goals scored, each match counting at most ``goals_cap`` (a bye the first number of
   ``bye_score``, a walkover win the first number of ``walkover_score``, a walkover loss 0);
4. ``buchholz2``: the sum of the Buchholz of every opponent met over the board;
5. shared rank.

When exactly two players have equal points and met in this stage with a decisive result (over the board
or by walkover), the winner is placed directly above the loser whatever 2-4 say. Players sharing a rank
are ordered by the seed (``draws.place_key``), which is the order pairing then uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.tournament import draws
from shared.tournament.model import Match
from shared.tournament.progress import StageCourse
from shared.tournament.table import tiers_of
from shared.tournament.tally import Line


def swiss_order(
    seed: int, sc: StageCourse, after_round: int, lines: Mapping[str, Line]
) -> tuple[list[list[str]], dict[str, tuple[tuple[str, int], ...]]]:
    """The tiers (best first) and each player's tie-break values after ``after_round``."""
    draw_points = sc.stage.points.draw
    counted = {p: line.points + draw_points * (after_round - line.played) for p, line in lines.items()}
    buchholz = {p: sum(counted[o] for o in line.opponents) for p, line in lines.items()}
    buchholz2 = {p: sum(buchholz[o] for o in line.opponents) for p, line in lines.items()}
    criteria = {p: (line.points, buchholz[p], line.goals_capped, buchholz2[p]) for p, line in lines.items()}

    def key(player: str) -> tuple[int, int, int, int, float, str]:
        """Best first on every criterion, then the seed's order among equals."""
        points, b1, capped, b2 = criteria[player]
        return (-points, -b1, -capped, -b2, draws.place_key(seed, sc.index, after_round, player), player)

    ordered = sorted(lines, key=key)
    tiers: list[list[str]] = []
    for group in _by_points(ordered, lines):
        winner = head_to_head(sc, after_round, group) if len(group) == 2 else None
        if winner is not None:
            tiers += [[winner], [group[1] if group[0] == winner else group[0]]]
        else:
            tiers += tiers_of(group, criteria)
    tiebreaks: dict[str, tuple[tuple[str, int], ...]] = {
        p: (("buchholz", buchholz[p]), ("goals_capped", lines[p].goals_capped), ("buchholz2", buchholz2[p]))
        for p in lines
    }
    return tiers, tiebreaks


def head_to_head(sc: StageCourse, after_round: int, pair: Sequence[str]) -> str | None:
    """The player who won more of the decisive meetings of these two in the stage (None: no decisive result)."""
    a, b = pair
    wins = {a: 0, b: 0}
    for _, entry in sc.matches_until(after_round):
        if isinstance(entry, Match) and {entry.home, entry.away} == {a, b} and entry.winner is not None:
            wins[entry.winner] += 1
    if wins[a] == wins[b]:
        return None
    return a if wins[a] > wins[b] else b


def _by_points(ordered: Sequence[str], lines: Mapping[str, Line]) -> list[list[str]]:
    """Consecutive runs of players with equal points."""
    groups: list[list[str]] = []
    for player in ordered:
        if groups and lines[groups[-1][-1]].points == lines[player].points:
            groups[-1].append(player)
        else:
            groups.append([player])
    return groups

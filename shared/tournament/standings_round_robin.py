"""Round-robin standings: points, the mini-table of the tied players once, goal difference, goals scored.

Why "once": TOURNAMENT.md applies the mini-table to the group tied on points and does not apply it again
to a subgroup still tied after it; goal difference and goals scored over all matches decide next, then the
players share the rank. ``mini_points`` is the points a player took from the matches among his group
(walkovers included; 0 for a player alone on his points). Players sharing a rank are ordered by the seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.tournament import draws
from shared.tournament.model import Match, Points
from shared.tournament.progress import StageCourse
from shared.tournament.table import tiers_of
from shared.tournament.tally import Line


def round_robin_order(
    seed: int, sc: StageCourse, after_round: int, lines: Mapping[str, Line]
) -> tuple[list[list[str]], dict[str, tuple[tuple[str, int], ...]]]:
    """The tiers (best first) and each player's tie-break values after ``after_round``."""
    matches = [e for _, e in sc.matches_until(after_round) if isinstance(e, Match) and e.finished]
    by_points: dict[int, list[str]] = {}
    for player in lines:
        by_points.setdefault(lines[player].points, []).append(player)
    mini: dict[str, int] = {}
    for group in by_points.values():
        mini.update(_mini_points(group, matches, sc.stage.points))
    criteria = {
        p: (line.points, mini[p], line.goals_for - line.goals_against, line.goals_for) for p, line in lines.items()
    }

    def key(player: str) -> tuple[int, int, int, int, float, str]:
        """Best first on every criterion, then the seed's order among equals."""
        points, mini_points, difference, goals = criteria[player]
        return (-points, -mini_points, -difference, -goals,
                draws.place_key(seed, sc.index, after_round, player), player)

    ordered = sorted(lines, key=key)
    tiebreaks: dict[str, tuple[tuple[str, int], ...]] = {
        p: (("mini_points", criteria[p][1]), ("goal_difference", criteria[p][2]), ("goals_for", criteria[p][3]))
        for p in lines
    }
    return tiers_of(ordered, criteria), tiebreaks


def _mini_points(group: Sequence[str], matches: Sequence[Match], points: Points) -> dict[str, int]:
    """Each player's points from the matches among ``group`` only."""
    members = set(group)
    out = dict.fromkeys(group, 0)
    if len(group) < 2:
        return out
    for match in matches:
        if match.home in members and match.away in members:
            winner = match.winner
            for player in match.players():
                out[player] += points.draw if winner is None else points.win if winner == player else points.loss
    return out

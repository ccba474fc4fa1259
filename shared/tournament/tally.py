"""Counting a stage's results per player: points, played, wins, draws, losses, byes and goals.

Why shared by the three systems: they count matches the same way (a walkover is a win of
``walkover_score`` for the winner and a loss for the other, both played; an unplayed round gives 0 points)
and differ only in byes: in Swiss a bye is a played win of ``bye_score``; in round robin and knockout it is
nothing but a bye (no points, no goals, not played). Round-robin and knockout byes come from the schedule,
so a file that lists them and one that does not count the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.tournament.model import Bye, Match
from shared.tournament.progress import StageCourse


@dataclass(kw_only=True, slots=True)
class Line:
    """One player's counts in a stage (built up while counting, then read)."""

    points: int = 0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    goals_for: int = 0
    goals_against: int = 0
    goals_capped: int = 0
    opponents: list[str] = field(default_factory=list)  # met over the board, in round order
    walkover_opponents: list[str] = field(default_factory=list)


def tally(sc: StageCourse, after_round: int, walkover_score: tuple[int, int], bye_score: tuple[int, int],
          goals_cap: int) -> dict[str, Line]:
    """Every player of the stage's counts over rounds 1..after_round, in field order."""
    points = sc.stage.points
    lines = {p: Line() for p in sc.field}
    swiss = sc.stage.system == "swiss"
    for _, entry in sc.matches_until(after_round):
        if isinstance(entry, Bye):
            if swiss:
                line = lines[entry.player]
                line.points += points.win
                line.played += 1
                line.wins += 1
                line.byes += 1
                line.goals_for += bye_score[0]
                line.goals_against += bye_score[1]
                line.goals_capped += min(bye_score[0], goals_cap)
            continue
        _count_match(entry, lines, walkover_score, goals_cap, points.win, points.draw, points.loss)
    if not swiss:
        for number in range(1, after_round + 1):
            for player in _scheduled_byes(sc, number):
                lines[player].byes += 1
    return lines


def _count_match(match: Match, lines: dict[str, Line], walkover_score: tuple[int, int], goals_cap: int,
                 win: int, draw: int, loss: int) -> None:
    """Add one finished match to both players' lines."""
    if not match.finished:
        return
    home, away = lines[match.home], lines[match.away]
    if match.walkover is not None:
        winner, loser = (home, away) if match.walkover == "home" else (away, home)
        winner.walkover_opponents.append(match.away if match.walkover == "home" else match.home)
        loser.walkover_opponents.append(match.home if match.walkover == "home" else match.away)
        for line, result, goals in ((winner, "win", walkover_score), (loser, "loss", walkover_score[::-1])):
            _add(line, result, goals[0], goals[1], win, draw, loss)
        winner.goals_capped += min(walkover_score[0], goals_cap)
        return
    assert match.score is not None
    home.opponents.append(match.away)
    away.opponents.append(match.home)
    side = match.winning_side
    for line, mine, theirs, is_home in ((home, match.score[0], match.score[1], True),
                                        (away, match.score[1], match.score[0], False)):
        result = "draw" if side is None else "win" if (side == "home") == is_home else "loss"
        _add(line, result, mine, theirs, win, draw, loss)
        line.goals_capped += min(mine, goals_cap)


def _add(line: Line, result: str, goals_for: int, goals_against: int, win: int, draw: int, loss: int) -> None:
    """One played match in a line."""
    line.played += 1
    line.goals_for += goals_for
    line.goals_against += goals_against
    if result == "win":
        line.wins += 1
        line.points += win
    elif result == "draw":
        line.draws += 1
        line.points += draw
    else:
        line.losses += 1
        line.points += loss


def _scheduled_byes(sc: StageCourse, number: int) -> tuple[str, ...]:
    """The players the schedule gives a bye in round ``number`` (round robin and knockout)."""
    if sc.stage.system == "round_robin":
        bye = sc.berger_round(number)[1]
        return () if bye is None else (bye,)
    return sc.brackets[number - 1].byes if number <= len(sc.brackets) else ()

"""Standings of a stage after a round, in the stage's system, and which stage ``sprtec tournament standings`` shows.

Why here: the three systems rank differently (``standings_swiss``, ``standings_round_robin``,
``standings_knockout``) but count alike (``tally``) and print alike (``table``). Standings count finished
rounds only: ``after_round`` is the stage's last finished round, so a round still being played shows up
once all its matches have results. The default stage is the last stage with a result (a score, a walkover
or a bye); the ledger columns (``yellow``, ``red``, ``suspended_next``) are the tournament's totals at that
moment.
"""

from __future__ import annotations

from shared.tournament.errors import TournamentError
from shared.tournament.model import Bye, Match, Tournament
from shared.tournament.progress import Course, StageCourse
from shared.tournament.standings_knockout import knockout_order
from shared.tournament.standings_round_robin import round_robin_order
from shared.tournament.standings_swiss import swiss_order
from shared.tournament.table import Standings, build_rows
from shared.tournament.tally import tally


def stage_standings(t: Tournament, sc: StageCourse, after_round: int, *, complete: bool = False) -> Standings:
    """The standings of one reached stage after its round ``after_round`` (at most its finished rounds)."""
    after_round = min(after_round, sc.finished)
    s = t.settings
    lines = tally(sc, after_round, s.walkover_score, s.bye_score, s.goals_cap)
    if sc.stage.system == "swiss":
        tiers, tiebreaks = swiss_order(t.seed, sc, after_round, lines)
    elif sc.stage.system == "round_robin":
        tiers, tiebreaks = round_robin_order(t.seed, sc, after_round, lines)
    else:
        tiers, tiebreaks = knockout_order(sc, after_round, lines)
    rows = build_rows(tiers, lines, tiebreaks, sc.ledgers[after_round])
    return Standings(stage=sc.index, after_round=after_round, complete=complete, rows=rows)


def standings(course: Course, stage: int | None = None) -> Standings:
    """The standings ``sprtec tournament standings`` prints: of ``stage``, or of the last stage with a result."""
    t = course.tournament
    if stage is None:
        stage = last_stage_with_a_result(course)
    if not 0 <= stage < len(t.stages):
        raise TournamentError("BAD_FORMAT", f"there is no stage {stage}: the file has {len(t.stages)}")
    if stage >= len(course.stages) and t.ended is not None:
        raise TournamentError(
            "ROUND_ORDER", f"stage {stage} was not played: the tournament ended after stage {t.ended.after_stage} "
                           f"round {t.ended.after_round}"
        )
    if stage >= len(course.stages):
        before = course.stages[-1]
        raise TournamentError(
            "ROUND_ORDER", f"stage {stage} has not begun: stage {before.index} is not finished "
                           f"({before.finished} of its {before.total} rounds)"
        )
    sc = course.stages[stage]
    return stage_standings(t, sc, sc.finished, complete=course.complete)


def last_stage_with_a_result(course: Course) -> int:
    """The last reached stage with a score, a walkover or a bye in it (0 when there is none)."""
    for sc in reversed(course.stages):
        for r in sc.rounds:
            if any(isinstance(e, Bye) or (isinstance(e, Match) and e.finished) for e in r.matches):
                return sc.index
    return 0

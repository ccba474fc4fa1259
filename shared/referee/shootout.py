"""XV.16-XV.18, III.3-III.4: the deciding shoot-out - who starts, whose shot is next, when it is decided.

Why a module of its own: the shoot-out is a small match of its own made of penalty shots: a lot
decides who starts (XV.16), the teams alternate single shots, a first series of ``shootout_series``
shots each (3; 5 in the final, III.4, A58) ends as soon as it is decided, then series of one shot each
until exactly one team scores in a series. Each shot is a penalty shot (``shared.referee.penalty_shot``
with ``in_shootout``: XV.11-XV.13 plus the 15 s limit of XV.18 counted from its first flick, A42).

Engine calls: ``begin`` when the part of kind ``shootout`` starts (the clock no longer runs), then after
each shot's ``PenaltyVerdict`` ended, ``after_shot`` - which either ends the match or sets up the next
shot. XV.15 and XV.17 (trial moves, drags) cannot happen online.
"""

from __future__ import annotations

from dataclasses import replace

from shared.draws import lot
from shared.model import TEAMS, PenaltyShotState, Position, Result, ShootoutState, Team, other
from shared.outcome import Decision
from shared.referee import penalty_shot
from shared.rulesets import Settings


def draw_starter(position: Position) -> Team:
    """XV.16: a lot keyed by the match seed decides which team shoots first (who started the periods does
    not matter)."""
    return lot(position.seed, "XV.16 shoot-out", *TEAMS)


def next_shooter(state: ShootoutState) -> Team:
    """XV.16: the teams alternate single shots, keeping the order of the first series throughout."""
    return state.starter if len(state.shots) % 2 == 0 else other(state.starter)


def goals(state: ShootoutState, team: Team, shots: int | None = None) -> int:
    """Goals of ``team`` among the first ``shots`` shots (all when None)."""
    return sum(1 for t, scored in state.shots[:shots] if t == team and scored)


def winner(state: ShootoutState) -> Team | None:
    """XV.16: the winner as soon as it is known, else None.

    First series: a team wins when its goals exceed what the other could still reach with the shots left
    to it in the series. Then, series of one shot each: a completed pair where only one team scored.
    """
    first = 2 * state.series
    taken = len(state.shots)
    if taken <= first:
        for team in (state.starter, other(state.starter)):
            rival = other(team)
            rival_left = state.series - sum(1 for t, _ in state.shots if t == rival)
            if goals(state, team) > goals(state, rival) + rival_left:
                return team
        return None
    if (taken - first) % 2 != 0:
        return None
    (team_a, scored_a), (team_b, scored_b) = state.shots[-2], state.shots[-1]
    if scored_a != scored_b:
        return team_a if scored_a else team_b
    return None


def begin(
    position: Position, settings: Settings
) -> tuple[Position, ShootoutState, PenaltyShotState, tuple[Decision, ...]]:
    """XV.16, III.3: start the shoot-out - draw the starter and set up its first shot."""
    state = ShootoutState(draw_starter(position), settings.shootout_series)
    shot, shot_state, decisions = _next_shot(position, state, settings)
    return shot, state, shot_state, decisions


def _next_shot(
    position: Position, state: ShootoutState, settings: Settings
) -> tuple[Position, PenaltyShotState, tuple[Decision, ...]]:
    """The next single shot (XV.16, XV.11), announced as a ``PENALTY_SHOT`` of the shooting team."""
    team = next_shooter(state)
    shot, shot_state, more = penalty_shot.setup_shot(position, team, in_shootout=True)
    return shot, shot_state, (Decision.of("PENALTY_SHOT", team=team), *more)


def after_shot(
    position: Position, state: ShootoutState, shot: PenaltyShotState, scored: bool, settings: Settings
) -> tuple[Position, ShootoutState, PenaltyShotState | None, tuple[Decision, ...]]:
    """XV.16: record the shot just ended; end the match when decided (``MATCH_ENDED``, reason ``SHOOTOUT``),
    else set up the next shot. Shoot-out goals do not change the match score."""
    state = replace(state, shots=(*state.shots, (shot.team, scored)))
    decided = winner(state)
    if decided is not None:
        ended = replace(position, result=Result(decided, "SHOOTOUT"))
        return ended, state, None, (Decision.of("MATCH_ENDED", winner=decided, reason="SHOOTOUT"),)
    following, shot_state, decisions = _next_shot(position, state, settings)
    return following, state, shot_state, decisions

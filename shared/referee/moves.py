"""What follows a judged move: power-play bookkeeping, sudden death, the restart, an awarded shot, the clock;
and the moves of a penalty shot.

Why a module of its own: a flick and a goalie hand reset (XII.2, a move without physics) are judged by the
same adjudication (``adjudicate.judge_move``) and then go through the same sequence before the next action,
which ``shared.match`` and ``shared.referee.team_actions`` both need. A penalty shot's move is judged by
``penalty_shot`` instead (Appendix A.2) and is here as well, so every move that reaches the board passes
through this one module.
"""

from __future__ import annotations

import math
from dataclasses import replace

from shared import physics
from shared.model import Flick, Position, Team, is_team
from shared.outcome import ActionResult, Decision, RuleError
from shared.referee import clock, exclusions, overtime, penalty_shot, power_play, setup, shots, turns
from shared.referee.adjudicate import Ruling, intervention_decisions
from shared.referee.decision_order import in_contract_order, in_moments
from shared.referee.penalty_shot import PenaltyVerdict
from shared.rulesets import Settings


def speed_problem(flick: Flick, settings: Settings) -> RuleError | None:
    """D3: a flick's speed must be finite and within ``flick_speed_min`` .. ``flick_speed_max``."""
    speed = math.hypot(flick.vx, flick.vy)
    if not math.isfinite(speed) or not settings.flick_speed_min <= speed <= settings.flick_speed_max:
        return RuleError("SPEED_OUT_OF_RANGE", f"a flick must be {settings.flick_speed_min:g} to "
                         f"{settings.flick_speed_max:g} mm/s fast, not {speed!r}")
    return None


def _track_power_play(position: Position, mover: Team, restarted: bool, settings: Settings) -> Position:
    """XIII.4, A49: after a move at rest each team in power play updates its swap-back candidates; a restart
    rebuilds the board, so nothing has waited in the crease any more."""
    if not position.power_play:
        return position
    if restarted:
        states = tuple(replace(pp, candidates=(), waited=False) for pp in position.power_play)
    else:
        states = tuple(power_play.after_move(position, pp, mover, settings) for pp in position.power_play)
    return replace(position, power_play=states)


def _scorer(decisions: tuple[Decision, ...]) -> Team | None:
    """The team credited with a goal that counts in this move (XIV, D10), if any."""
    for decision in decisions:
        if decision.code == "GOAL":
            team = decision.get("team")
            return team if is_team(team) else None
    return None


def conclude(
    mover: Team, ruling: Ruling, duration_ms: int, settings: Settings
) -> tuple[Position, tuple[Decision, ...]]:
    """After Appendix A: power play (XIII.4), sudden death (XVI.1), the restart (V.3, V.4, V.9, XIV.7), a shot
    awarded by the move set up at once (XV.11), then the clock (XIV.4, D14, IX.8).

    The restart is made only if the part goes on after the move: when the move ends the part (``clock.ends_part``)
    the next part's restart (V.2) is the one that happens. A move that ends the match in sudden death still
    takes its time off the clock.
    """
    after, decisions = ruling.position, list(ruling.decisions)
    after = _track_power_play(after, mover, ruling.restart_by is not None, settings)
    scorer = _scorer(ruling.decisions)
    if scorer is not None:
        after, ended = overtime.sudden_death(after, scorer)  # XVI.1: a counted goal ends overtime
        decisions.extend(ended)
        if after.result is not None:
            timed, _ = clock.after_move(after, duration_ms, settings)  # the move's time ran all the same (D14)
            return timed, in_contract_order(decisions)
    if ruling.restart_by is not None and not clock.ends_part(after, duration_ms):
        after = setup.restart(after, ruling.restart_by, privilege=after.privilege, returning=ruling.returning)
        after = turns.with_snapshot(after, settings)
        decisions.append(Decision.of("RESTART", team=ruling.restart_by))
        choice = after.exclusion_choice
        if choice is not None:  # the board was rebuilt: the options are the stones of the new setup
            rebuilt = exclusions.choice_after(after, after, choice.team, choice.stone, True)
            after = replace(after, exclusion_choice=rebuilt)
    if after.penalty_shot is not None and after.penalty is None:  # XV.1, XV.11: the shot is set up at once
        after, more = shots.award(after, after.penalty_shot, settings)
        decisions.extend(more)
    after, clock_decisions = clock.after_move(after, duration_ms, settings)
    return after, (*in_contract_order(decisions), *clock_decisions)  # the clock's moments come after the move's


def shot_move(position: Position, flick: Flick, settings: Settings) -> ActionResult:
    """XV.11-XV.13, XV.18, Appendix A.2: one flick of a penalty shot (in a match or a shoot-out).

    Only the shooter moves (``screen_flick``); the first flick closes the coaches' A33 choices. The move is
    simulated and judged by ``penalty_shot.judge_move`` (a backward flick fails without physics when
    ``penalty_backward`` is ``fail``); a shoot-out shot also runs its 15 s timer. An ended shot is finished by
    ``shots.finish`` (goal, restart or the next shoot-out shot); in a match the part clock runs (A34).
    """
    state = position.penalty
    assert state is not None
    screened = penalty_shot.screen_flick(position, state, flick, settings)
    if isinstance(screened, RuleError):
        return ActionResult.refused(position, screened.code, screened.message)
    fast = speed_problem(flick, settings)
    if fast is not None:
        return ActionResult.refused(position, fast.code, fast.message)
    state = replace(state, goalie_set=True, shooter_set=True)  # A33: the first flick ends the choices
    decisions: list[Decision] = []
    record = None
    if isinstance(screened, PenaltyVerdict):  # XV.13h: failed without physics
        verdict = screened
        rest = replace(position, move_number=position.move_number + 1, last_mover=flick.team)
    else:
        record = physics.simulate(position, flick, settings)
        rest = replace(physics.rested_position(position, record), last_mover=flick.team)
        decisions.extend(intervention_decisions(record))
        verdict = penalty_shot.judge_move(position, record, rest, state, settings)
    duration = record.duration_ms if record is not None else 0
    if not verdict.ended and verdict.state.in_shootout:  # XV.18: the shot's time runs during its moves too
        timed = penalty_shot.elapse_shot(verdict.state, duration)
        verdict = penalty_shot.expire(timed, settings) or replace(verdict, state=timed)
    decisions.extend(verdict.decisions)
    rest = replace(rest, penalty=verdict.state)
    following: tuple[Decision, ...] = ()
    if verdict.ended:
        done = shots.finish(rest, verdict, settings)
        after, following = done.position, done.following
        decisions.extend(done.decisions)
    else:
        after = replace(rest, to_move=state.team)
    after, clock_decisions = clock.after_move(after, duration, settings)
    return ActionResult(True, after, (*in_moments(decisions, following), *clock_decisions), None, record)

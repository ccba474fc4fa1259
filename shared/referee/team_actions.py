"""The coach actions beyond the flick as engine handlers: goalie reset, power-play swaps, counting, taking the shot,
and a setup during a penalty shot.

Why a module of its own: each of these actions is checked and applied by its chapter module (``goalie_reset``,
``power_play``, ``activity``, ``advantage``, ``penalty_shot``); what the engine adds is the same for all of
them - the refusal as an ``ActionResult`` with the chapter's error, the turn and shot conditions every action
shares, and what follows (a reset is a move, judged like a flick; taking the shot sets it up). Keeping these
handlers here leaves ``shared.match`` a small table of entry points.

Every handler has the ``shared.match.Handler`` shape ``(position, action, settings) -> ActionResult``.
"""

from __future__ import annotations

from dataclasses import replace

from shared.model import (
    TEAMS,
    Action,
    Count,
    GoalieReset,
    Position,
    PowerPlayState,
    PowerPlaySwapIn,
    PowerPlaySwapOut,
    Setup,
    TakePenalty,
)
from shared.outcome import ActionResult, RuleError
from shared.referee import activity, advantage, goalie_reset, penalty_shot, power_play, shots
from shared.referee.adjudicate import judge_move, reset_record
from shared.referee.decision_order import in_contract_order
from shared.referee.goalie import own_goalie
from shared.referee.moves import conclude
from shared.rulesets import Settings


def _refused(position: Position, error: RuleError) -> ActionResult:
    """A refusal carrying the chapter module's error."""
    return ActionResult.refused(position, error.code, error.message)


def _no_shot(position: Position, what: str) -> RuleError | None:
    """XV.11: while a penalty shot is set up or taken only its setup and the shooter's flicks are allowed."""
    if position.penalty is not None or position.penalty_shot is not None:
        return RuleError("ACTION_NOT_ALLOWED", f"no {what} during a penalty shot (XV.11)")
    return None


def _sorted_power_play(states: tuple[PowerPlayState, ...]) -> tuple[PowerPlayState, ...]:
    """``Position.power_play`` is kept home first."""
    return tuple(sorted(states, key=lambda s: TEAMS.index(s.team)))


def goalie_reset_handler(position: Position, action: Action, settings: Settings) -> ActionResult:
    """XII.2-XII.5, D3: the goalie back on its basic spot by hand - a move without physics, judged like a flick.

    Only on the team's own turn and not as the first move after a restart (V.7: the centre forward starts).
    The move counts for the privilege, the advantage (IX.3), the activity count (A24, XI) and power play.
    """
    assert isinstance(action, GoalieReset)
    team = action.team
    problem = _no_shot(position, "goalie reset")
    if problem is None and position.to_move != team:
        problem = RuleError("NOT_YOUR_TURN", f"{team} cannot reset its goalie: it is {position.to_move}'s turn")
    if problem is None and position.restart:
        problem = RuleError("ACTION_NOT_ALLOWED", "the first move after a restart is the centre forward's flick "
                            "(V.7), not a goalie reset")
    problem = problem or goalie_reset.check_reset(position, team, settings)
    if problem is not None:
        return _refused(position, problem)
    placed = goalie_reset.reset(position, team)
    goalie = own_goalie(placed, team)
    assert goalie is not None  # check_reset: the goalie is on the board
    ruling = judge_move(position, team, goalie.id, reset_record(placed), settings)
    after, decisions = conclude(team, ruling, 0, settings)
    return ActionResult(True, after, decisions)


def swap_out_handler(position: Position, action: Action, settings: Settings) -> ActionResult:
    """XIII.2, A48: the goalie out of its crease is replaced by a reserve (not a move); at a restart, XIII.3:
    the team sets up without its goalie, the sixth stone placed like a defender."""
    assert isinstance(action, PowerPlaySwapOut)
    team = action.team
    problem = _no_shot(position, "power-play swap")
    if problem is not None:
        return _refused(position, problem)
    if position.restart:
        problem = power_play.check_restart_in_power_play(position, team)
        if problem is not None:
            return _refused(position, problem)
        after, state, decisions = power_play.restart_in_power_play(position, team)
    else:
        problem = power_play.check_swap_out(position, action, settings)  # A48: also right after its own move
        if problem is not None:
            return _refused(position, problem)
        after, state, decisions = power_play.swap_out(position, action)
    after = replace(after, power_play=_sorted_power_play((*after.power_play, state)))
    return ActionResult(True, after, decisions)


def swap_in_handler(position: Position, action: Action, settings: Settings) -> ActionResult:
    """XIII.4, A49: a stone that waited touching the crease is replaced by the goalie (not a move); at a
    restart, XIII.5: the goalie takes its basic spot instead of the sixth stone."""
    assert isinstance(action, PowerPlaySwapIn)
    team = action.team
    problem = _no_shot(position, "power-play swap")
    if problem is not None:
        return _refused(position, problem)
    state = position.power_play_of(team)
    if position.restart and state is not None:
        after, decisions = power_play.restart_with_goalie(position, state)
    else:
        problem = power_play.check_swap_in(position, state, action, settings)
        if problem is not None:
            return _refused(position, problem)
        assert state is not None
        after, decisions = power_play.swap_in(position, state, action)
    after = replace(after, power_play=tuple(pp for pp in after.power_play if pp.team != team))
    return ActionResult(True, after, decisions)


def count_handler(position: Position, action: Action, settings: Settings) -> ActionResult:
    """XI.1-XI.3, A23: the counting team declares counting, counts the obliged team's last move (also the first,
    right after it), or (auto variant) stops. Not a move."""
    assert isinstance(action, Count)
    problem = _no_shot(position, "counting")
    if problem is not None:
        return _refused(position, problem)
    counted = activity.count_action(position, position.activity, action, settings)
    if isinstance(counted, RuleError):
        return _refused(position, counted)
    state, decisions = counted
    return ActionResult(True, replace(position, activity=state, activity_offer=None), decisions)


def take_penalty_handler(position: Position, action: Action, settings: Settings) -> ActionResult:
    """IX.3, A44: the team playing an advantage stops and takes its penalty shot now (set up at once)."""
    assert isinstance(action, TakePenalty)
    problem = advantage.check_take_penalty(position, action)
    if problem is not None:
        return _refused(position, problem)
    shot, decisions = advantage.take_penalty(position, action)
    after, more = shots.award(shot, action.team, settings)
    return ActionResult(True, after, in_contract_order((*decisions, *more)))


def shot_setup_handler(position: Position, action: Setup, settings: Settings) -> ActionResult:
    """XV.11, A33: before the shot's first flick the defending coach places the goalie on its goal line and
    the shooting coach the shooter on its own half of the centre circle - once each."""
    state = position.penalty
    assert state is not None
    placed = state.goalie_set if action.team == state.against else state.shooter_set
    if placed and state.moves == 0:
        return ActionResult.refused(position, "INVALID_SETUP", f"{action.team} has already placed its stone for "
                                    "this penalty shot (XV.11)")
    problem = penalty_shot.check_setup(position, state, action, settings)
    if problem is not None:
        return _refused(position, problem)
    after, state = penalty_shot.apply_setup(position, state, action)
    if action.team == state.against:
        state = replace(state, goalie_set=True)
    else:
        state = replace(state, shooter_set=True)
    return ActionResult(True, replace(after, penalty=state))

"""The engine's entry points: apply an action to a position, list the pending choices, time a coach out.

Why a module of its own: the server, the ``sprtec scenario`` command and the client all drive a match
through these few functions and nothing else, so they stay small, stable and documented here, while
the rulings live in ``shared.referee`` (one module per chapter) and the physics in ``shared.physics``.

* ``apply_action(position, action) -> ActionResult`` - validates, then runs the action's handler from
  ``HANDLERS`` (a table by action type: a new action is a new handler). A refused action
  changes nothing and names a SCENARIOS.md error code with a message a person understands.
* ``prompts(position)`` - the choices a coach is asked for now, each with the action the server applies
  when the coach does not answer in time (the setting its ``deadline`` names); ``offers=True`` adds the
  optional actions available now (``shared.referee.choices``).
* ``timeout(position, team)`` - the move clock (A35 house rule) ran out: the turn passes; a privilege
  move is forfeited the same way; a penalty shot fails. ``timeout(position, team, kind)`` applies the
  default of ``team``'s prompt of that kind instead. Either is told as the decision ``TIMEOUT`` first.
* ``legal_stones(position, team)`` - the stones the client lets the coach flick (D3, V.7).
* ``technical_goal(position, team)`` - an admin ruling (VII.2, IX.7, XII.5, A52); no coach action reaches it.
* ``forfeit(position, team, reason)`` - product decision 5: a coach stayed away past the disconnect grace or
  resigned; his team loses (``shared.referee.forfeit``).
* ``apply_event(position, event)`` - an action or a clock event (``Elapse``, ``Timeout``, ``Forfeit`` of
  ``shared.model``): the one path by which a logged match, and the scenario exported from it, is replayed.

The goalie-foul exclusion (VIII.1a, XII.7, A47) is applied at once with the documented default
(``goalie_exclusion_default``), so every position is complete and a scenario needs no choice; until
the next move begins the fouling coach may send ``choose_exclusion`` to name another field stone,
which swaps the two. ``prompts`` shows that choice with "keep the default" as its timeout action.

The handlers of the other actions are in ``shared.referee.team_actions``; penalty shots
(and the shoot-out) run through ``shared.referee.moves.shot_move`` and ``shared.referee.shots``; before any
action of the counting team but ``count`` the activity count may lapse (XI.3).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from shared import physics
from shared.model import (
    STONE_IDS,
    Action,
    ChooseExclusion,
    ClockEvent,
    Elapse,
    Flick,
    Forfeit,
    Position,
    Setup,
    Team,
    Timeout,
    other,
)
from shared.outcome import ActionResult, Decision, ErrorCode, RuleError
from shared.referee import (
    activity,
    advantage,
    choices,
    clock,
    exclusions,
    overtime,
    setup,
    shots,
    team_actions,
    turns,
)
from shared.referee.adjudicate import judge
from shared.referee.choices import Prompt
from shared.referee.decision_order import in_contract_order
from shared.referee.forfeit import forfeit
from shared.referee.goals import add_goal
from shared.referee.moves import conclude, shot_move, speed_problem
from shared.rulesets import Settings, make_settings

__all__ = ["HANDLERS", "Prompt", "apply_action", "apply_event", "forfeit", "legal_stones", "prompts", "settings_of",
           "technical_goal", "timeout"]

Handler = Callable[[Position, Action, Settings], ActionResult]


def settings_of(position: Position) -> Settings:
    """The settings the position is played with: its ruleset plus its overrides (made once per distinct pair)."""
    try:
        return _settings(position.ruleset, position.settings)
    except TypeError:  # an override that cannot be hashed (a list): made afresh
        return make_settings(position.ruleset, position.setting_overrides())


@functools.lru_cache(maxsize=256)
def _settings(ruleset: str, overrides: tuple[tuple[str, Any], ...]) -> Settings:
    """``make_settings`` of a position's ruleset and overrides; Settings is frozen, so one value serves every
    position of a match (it was made again, and checked for sense, at every move)."""
    return make_settings(ruleset, dict(overrides))


# --------------------------------------------------------------------------- flick


def _flick_error(position: Position, action: Flick, settings: Settings) -> RuleError | None:
    """D3, V.7, VI.1, IX.7: why this flick may not be played now, or None."""
    team = action.team
    if position.penalty_shot is not None:  # XV.1: the awarded shot comes first
        return RuleError("ACTION_NOT_ALLOWED", f"{position.penalty_shot} has a penalty shot to take first (XV.11)")
    if position.to_move != team:
        mover = position.to_move
        if turns.has_privilege(position, mover):
            return RuleError("NOT_YOUR_TURN", f"{team} cannot move: {mover} has a privilege")  # IX.7 by construction
        return RuleError("NOT_YOUR_TURN", f"{team} cannot move: it is {mover}'s turn")  # VI.1
    if action.stone not in STONE_IDS[team]:
        return RuleError("NOT_YOUR_STONE", f"{action.stone} is not a stone of {team}")
    if position.stone(action.stone) is None:
        return RuleError("STONE_NOT_ON_BOARD", f"{action.stone} is not on the board")
    if action.stone not in turns.legal_stones(position, team, settings):
        return RuleError("STONE_NOT_SELECTABLE", "only the centre forward may make the first move after a restart "
                         f"(V.7), not {action.stone}")
    return speed_problem(action, settings)


def _flick(position: Position, action: Action, settings: Settings) -> ActionResult:
    """D3-D4, Appendix A: simulate the flick, judge it, then what follows (``moves.conclude``: sudden death,
    restart, an awarded shot, the clock). A flick in a penalty shot is the shot's (``moves.shot_move``)."""
    assert isinstance(action, Flick)
    if position.penalty is not None:
        return shot_move(position, action, settings)
    error = _flick_error(position, action, settings)
    if error is not None:
        return ActionResult.refused(position, error.code, error.message)
    record = physics.simulate(position, action, settings)
    ruling = judge(position, action, record, settings)
    after, decisions = conclude(action.team, ruling, record.duration_ms, settings)
    return ActionResult(True, after, decisions, None, record)


# --------------------------------------------------------------------------- other actions


def _choose_exclusion(position: Position, action: Action, settings: Settings) -> ActionResult:
    """VIII.1a, XII.7 (A47): the fouling coach names the field stone excluded instead of the default."""
    assert isinstance(action, ChooseExclusion)
    choice = position.exclusion_choice
    if choice is None or choice.team != action.team:
        return ActionResult.refused(position, "ACTION_NOT_ALLOWED", f"{action.team} has no exclusion to choose now")
    if action.stone == choice.stone:
        return ActionResult(True, replace(position, exclusion_choice=None))  # the default confirmed
    if action.stone not in choice.options:
        options = ", ".join(choice.options)
        return ActionResult.refused(position, "ACTION_NOT_ALLOWED", f"{action.stone} cannot be excluded; choose one of "
                                    f"{options}")
    try:
        swapped = exclusions.swap_exclusion(position, choice, action.stone, settings)
    except ValueError as problem:
        return ActionResult.refused(position, "ACTION_NOT_ALLOWED", str(problem))
    return ActionResult(True, swapped)


def _setup(position: Position, action: Action, settings: Settings) -> ActionResult:
    """IV.1-IV.5, D13: a coach places his defenders before the restart's first move (``shared.referee.setup``);
    during a penalty shot, XV.11 (A33): the goalie or the shooter (``team_actions.shot_setup_handler``)."""
    assert isinstance(action, Setup)
    if position.penalty is not None:
        return team_actions.shot_setup_handler(position, action, settings)
    placed = setup.apply_setup(position, action, settings)
    if isinstance(placed, Position):
        return ActionResult(True, placed)
    return ActionResult.refused(position, placed.code, placed.message)


HANDLERS: dict[str, Handler] = {
    "flick": _flick,
    "choose_exclusion": _choose_exclusion,
    "setup": _setup,
    "goalie_reset": team_actions.goalie_reset_handler,
    "pp_swap_out": team_actions.swap_out_handler,
    "pp_swap_in": team_actions.swap_in_handler,
    "count": team_actions.count_handler,
    "take_penalty": team_actions.take_penalty_handler,
}


def apply_action(position: Position, action: Action) -> ActionResult:
    """Apply one coach action to ``position``: the ruling and the next position, or a refusal that changes nothing.

    Every action but a setup needs the match running (``clock.can_move``: not over, not in a break, the
    siren not yet sounded). A flick that starts a move clears a pending exclusion choice (it is then final).
    XI.3: any accepted action of the counting team but ``count`` while it owes a count ends the count first
    (``ACTIVITY_ENDED`` reason ``NOT_COUNTED``, reported with that action, before its own decisions); such an
    action also gives up counting the obliged team's last move right after it (``Position.activity_offer``).
    """
    settings = settings_of(position)
    handler = HANDLERS.get(action.action)
    if handler is None:
        return ActionResult.refused(position, "ACTION_NOT_ALLOWED", f"unknown action {action.action!r}")
    if position.result is not None or action.action != "setup":
        problem = clock.can_move(position)
        if problem is not None:
            return ActionResult.refused(position, problem.code, problem.message)
    lapsed: tuple[Decision, ...] = ()
    current = position
    if action.action != "count" and position.activity is not None:
        verdict = activity.before_action(position.activity, action.team, settings)  # XI.3
        if verdict.decisions:
            current, lapsed = replace(position, activity=verdict.state), verdict.decisions
    result = handler(current, action, settings)
    if not result.accepted:
        return ActionResult.refused(position, *_error(result))
    late = result.position.activity_offer
    if late is not None and late.counting == action.team and action.action != "count":  # XI.3: count right away
        result = replace(result, position=replace(result.position, activity_offer=None))
    if lapsed:  # the count lapsed before the action was taken: a moment of its own, told first
        result = replace(result, decisions=(*in_contract_order(lapsed), *result.decisions))
    return result


def _error(result: ActionResult) -> tuple[ErrorCode, str]:
    """(code, message) of a refusal."""
    assert result.error is not None
    return result.error.code, result.error.message


# --------------------------------------------------------------------------- prompts, timeouts, stones


def prompts(position: Position, offers: bool = False) -> tuple[Prompt, ...]:
    """The choices awaited from a coach now, each with the default action applied when its ``deadline``
    setting runs out (A33, A47, XI.3); ``offers`` adds the optional actions available (``choices``)."""
    return choices.prompts(position, settings_of(position), offers)


def timeout(position: Position, team: Team, kind: str | None = None) -> ActionResult:
    """A35 house rule: ``team``'s move clock ran out - the turn passes (a privilege move is forfeited).

    Not a move: the move number stays. A pending exclusion choice becomes final. At a restart the other
    team then starts with its centre forward (V.7 still applies). The last move of an advantage forfeited
    this way leaves the advantage played out without goal or infringement: the shot follows (IX.3). In a
    penalty shot the turn cannot pass: the shot fails (reason ``TIME``, as XV.18); a shot owed after the siren
    then ends the part (XV.10).

    With ``kind``, a choice timed out instead: the default action of ``team``'s prompt of that kind is
    applied (``prompts``).

    Running out of time is a ruling the players see: an accepted timeout is told first as ``TIMEOUT`` with the
    team and the kind (None for the move clock), then what it brings (docs/SCENARIOS-EXTENSIONS.md).
    """
    result = _timed_out(position, team, kind)
    if not result.accepted:
        return result
    told = Decision.of("TIMEOUT", team=team, kind=kind)
    return replace(result, decisions=(told, *result.decisions))


def _timed_out(position: Position, team: Team, kind: str | None) -> ActionResult:
    """What ``timeout`` does, before its ``TIMEOUT`` is told: the choice's default, or the turn passing."""
    if kind is not None:
        for prompt in prompts(position):
            if prompt.kind == kind and prompt.team == team and prompt.default is not None:
                return apply_action(position, prompt.default)
        return ActionResult.refused(position, "ACTION_NOT_ALLOWED", f"{team} has no {kind} choice to time out")
    if position.result is not None or position.to_move != team:
        return ActionResult.refused(position, "NOT_YOUR_TURN" if position.result is None else "MATCH_OVER",
                                    f"{team} is not the team to move")
    settings = settings_of(position)
    if position.penalty is not None:
        after, decisions = shots.fail_on_timeout(position, settings)
        after, ended = clock.after_move(after, 0, settings)  # XV.10: a shot owed after the siren ends the part
        return ActionResult(True, after, (*decisions, *ended))
    last_of_advantage = (
        position.advantage == team and turns.has_privilege(position, team)
        and position.privilege is not None and position.privilege.remaining == 1
    )
    passed = turns.pass_turn(replace(position, exclusion_choice=None, last_mover=None, activity_offer=None), team,
                             settings)
    if not last_of_advantage:
        return ActionResult(True, passed)
    played = advantage.after_advantage_move(team, position.privilege, False, False)  # IX.3: the shot follows
    after, more = shots.award(replace(passed, penalty_shot=played.penalty_to), team, settings)
    return ActionResult(True, after, in_contract_order((*played.decisions, *more)))


def legal_stones(position: Position, team: Team) -> tuple[str, ...]:
    """D3, V.7: the stones ``team`` may flick now (for the client's selection)."""
    return turns.legal_stones(position, team, settings_of(position))


def technical_goal(position: Position, team: Team) -> ActionResult:
    """VII.2b-d, IX.7, XII.5 (A52): an admin ruling awards ``team`` a goal without play.

    Not reachable by a coach's action. The goal counts (X.3 returns follow, A15) and the conceding team
    restarts from the basic setup (XIV.7, V.3).
    """
    scored = replace(
        position, score=add_goal(position.score, team), exclusion_choice=None, advantage=None, penalty_shot=None,
        penalty=None,
    )
    decisions = [Decision.of("GOAL", team=team, own_goal=False)]
    if scored.activity is not None:  # XI: a goal ends the count
        decisions.extend(activity.end(scored.activity, "GOAL"))
        scored = replace(scored, activity=None)
    scored, returned = exclusions.returns_after_goal(scored)
    decisions.extend(returned)
    scored, ended = overtime.sudden_death(scored, team)  # XVI.1: a technical goal counts like any other
    decisions.extend(ended)
    if scored.result is not None:
        return ActionResult(True, scored, in_contract_order(decisions))
    returning = tuple(d.get("stone") for d in returned)
    after = setup.restart(scored, other(team), returning=returning)
    decisions.append(Decision.of("RESTART", team=other(team)))
    return ActionResult(True, after, in_contract_order(decisions))


# --------------------------------------------------------------------------- clock and house-rule events


def apply_event(position: Position, event: Action | ClockEvent) -> ActionResult:
    """Apply a coach's action or a clock event - the fold a logged match (and its exported scenario) is.

    * ``Elapse(ms)``: A34, product decision 5 - ``ms`` of running clock pass with no move (``clock.elapse``:
      parts and breaks may end, several in one event). Time cannot be refused: after the match it changes
      nothing and is still accepted; a negative ``ms`` is refused.
    * ``Timeout(team, kind)``: ``timeout`` - the move clock ran out (the turn passes), or a choice did.
    * ``Forfeit(team, reason)``: product decision 5 - ``team`` loses the match (``shared.referee.forfeit``).
    * any ``Action``: ``apply_action``.

    Every result has the shape of an action's (accepted with decisions and the next position, or refused
    changing nothing), so the server, ``sprtec scenario`` and tests treat all entries alike.
    """
    if isinstance(event, Elapse):
        if event.ms < 0:
            return ActionResult.refused(position, "ACTION_NOT_ALLOWED", f"time cannot run backwards ({event.ms} ms)")
        after, decisions = clock.elapse(position, event.ms, settings_of(position))
        return ActionResult(True, after, tuple(decisions))
    if isinstance(event, Timeout):
        return timeout(position, event.team, event.kind)
    if isinstance(event, Forfeit):
        return forfeit(position, event.team, event.reason)
    return apply_action(position, event)

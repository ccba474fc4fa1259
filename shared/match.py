"""The engine's entry points: apply an action to a position, list the pending choices, time a coach out.

Why a module of its own: the server, the ``sprtec scenario`` command and the client all drive a match
through these few functions and nothing else, so they stay small, stable and documented here, while
the rulings live in ``shared.referee`` (one module per chapter) and the physics in ``shared.physics``.

* ``apply_action(position, action) -> ActionResult`` - validates, then runs the action's handler from
  ``HANDLERS`` (a table by action type: part 2 adds its actions by adding handlers). A refused action
  changes nothing and names a SCENARIOS.md error code with a message a person understands.
* ``prompts(position)`` - the choices a coach is asked for now, each with the action the server applies
  when the coach does not answer in time (``choice_timeout_ms``).
* ``timeout(position, team)`` - the move clock (A35 house rule) ran out: the turn passes; a privilege
  move is forfeited the same way.
* ``legal_stones(position, team)`` - the stones the client lets the coach flick (D3, V.7).
* ``technical_goal(position, team)`` - an admin ruling (VII.2, IX.7, XII.5, A52); no coach action reaches it.

The goalie-foul exclusion (VIII.1a, XII.7, A47) is applied at once with the documented default
(``goalie_exclusion_default``), so every position is complete and a scenario needs no choice; until
the next move begins the fouling coach may send ``choose_exclusion`` to name another field stone,
which swaps the two. ``prompts`` shows that choice with "keep the default" as its timeout action.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from shared import physics
from shared.model import (
    STONE_IDS,
    Action,
    ChooseExclusion,
    Flick,
    Position,
    Team,
    other,
)
from shared.outcome import ActionResult, Decision
from shared.referee import clock, exclusions, setup, turns
from shared.referee.adjudicate import in_contract_order, judge
from shared.rulesets import Settings, make_settings


@dataclass(frozen=True, slots=True)
class Prompt:
    """A choice awaited from ``team``'s coach: ``kind`` (the action name), the allowed ``options`` and the
    ``default`` action the server applies when the coach does not answer in time."""

    kind: str
    team: Team
    options: tuple[str, ...]
    default: Action


Handler = Callable[[Position, Action, Settings], ActionResult]


def settings_of(position: Position) -> Settings:
    """The settings the position is played with: its ruleset plus its overrides."""
    return make_settings(position.ruleset, position.setting_overrides())


# --------------------------------------------------------------------------- flick


def _flick_error(position: Position, action: Flick, settings: Settings) -> tuple[str, str] | None:
    """D3, V.7, VI.1, IX.7: why this flick may not be played now, as (error code, message), or None."""
    team = action.team
    if position.penalty_shot is not None:  # XV.1: the awarded shot comes first (executed in part 2)
        return ("ACTION_NOT_ALLOWED", f"{position.penalty_shot} has a penalty shot to take first (XV.11)")
    if position.to_move != team:
        mover = position.to_move
        if turns.has_privilege(position, mover):
            return ("NOT_YOUR_TURN", f"{team} cannot move: {mover} has a privilege")  # IX.7 by construction
        return ("NOT_YOUR_TURN", f"{team} cannot move: it is {mover}'s turn")  # VI.1
    if action.stone not in STONE_IDS[team]:
        return ("NOT_YOUR_STONE", f"{action.stone} is not a stone of {team}")
    if position.stone(action.stone) is None:
        return ("STONE_NOT_ON_BOARD", f"{action.stone} is not on the board")
    if action.stone not in turns.legal_stones(position, team, settings):
        return ("STONE_NOT_SELECTABLE", f"only the centre forward may make the first move after a restart (V.7), "
                f"not {action.stone}")
    speed = math.hypot(action.vx, action.vy)
    if not math.isfinite(speed) or not settings.flick_speed_min <= speed <= settings.flick_speed_max:
        return ("SPEED_OUT_OF_RANGE", f"a flick must be {settings.flick_speed_min:g} to {settings.flick_speed_max:g} "
                f"mm/s fast, not {speed:g}")
    return None


def _flick(position: Position, action: Action, settings: Settings) -> ActionResult:
    """D3-D4, Appendix A: simulate the flick, judge it, restart if a goal was scored, then run the clock."""
    assert isinstance(action, Flick)
    error = _flick_error(position, action, settings)
    if error is not None:
        return ActionResult.refused(position, *error)  # type: ignore[arg-type]
    record = physics.simulate(position, action, settings)
    ruling = judge(position, action, record, settings)
    after, decisions = ruling.position, list(ruling.decisions)
    if ruling.restart_by is not None:  # V.3, V.4, V.9, XIV.7
        after = setup.restart(
            after, ruling.restart_by, settings, privilege=after.privilege, returning=ruling.returning
        )
        after = turns.with_snapshot(after, settings)
        decisions.append(Decision.of("RESTART", team=ruling.restart_by))
        choice = after.exclusion_choice
        if choice is not None:  # the board was rebuilt: the options are the stones of the new setup
            rebuilt = exclusions.choice_after(after, after, choice.team, choice.stone, True)
            after = replace(after, exclusion_choice=rebuilt)
    after, clock_decisions = clock.after_move(after, record.duration_ms, settings)  # XIV.4, D14, IX.8
    decisions.extend(clock_decisions)
    return ActionResult(True, after, in_contract_order(decisions), None, record)


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
    """IV.1-IV.5, D13: a coach places his defenders before the restart's first move (``shared.referee.setup``)."""
    placed = setup.apply_setup(position, action, settings)  # type: ignore[arg-type]
    if isinstance(placed, Position):
        return ActionResult(True, placed)
    return ActionResult.refused(position, placed.code, placed.message)


def _not_yet(rule: str) -> Handler:
    """A handler for an action of part 2 (issue #4): refused with a clear message until it is implemented."""

    def handler(position: Position, action: Action, settings: Settings) -> ActionResult:
        """Refuse the action, naming the rule it belongs to."""
        return ActionResult.refused(
            position, "ACTION_NOT_ALLOWED", f"{action.action} ({rule}) is not available in this version of the engine"
        )

    return handler


HANDLERS: dict[str, Handler] = {
    "flick": _flick,
    "choose_exclusion": _choose_exclusion,
    "setup": _setup,
    "goalie_reset": _not_yet("XII.2"),
    "pp_swap_out": _not_yet("XIII.2"),
    "pp_swap_in": _not_yet("XIII.4"),
    "count": _not_yet("XI.3"),
    "take_penalty": _not_yet("IX.3"),
}


def apply_action(position: Position, action: Action) -> ActionResult:
    """Apply one coach action to ``position``: the ruling and the next position, or a refusal that changes nothing.

    Every action but a setup needs the match running (``clock.can_move``: not over, not in a break, the
    siren not yet sounded). A flick that starts a move clears a pending exclusion choice (it is then final).
    """
    settings = settings_of(position)
    handler = HANDLERS.get(action.action)
    if handler is None:
        return ActionResult.refused(position, "ACTION_NOT_ALLOWED", f"unknown action {action.action!r}")
    if position.result is not None or action.action != "setup":
        problem = clock.can_move(position)
        if problem is not None:
            return ActionResult.refused(position, problem.code, problem.message)
    return handler(position, action, settings)


# --------------------------------------------------------------------------- prompts, timeouts, stones


def prompts(position: Position) -> tuple[Prompt, ...]:
    """The choices awaited from a coach now, each with the default action applied on timeout (A47)."""
    found: list[Prompt] = []
    choice = position.exclusion_choice
    if choice is not None:
        found.append(Prompt("choose_exclusion", choice.team, (choice.stone, *choice.options),
                            ChooseExclusion(choice.team, choice.stone)))
    return tuple(found)


def timeout(position: Position, team: Team) -> ActionResult:
    """A35 house rule: ``team``'s move clock ran out - the turn passes (a privilege move is forfeited).

    Not a move: the move number stays. A pending exclusion choice becomes final. At a restart the other
    team then starts with its centre forward (V.7 still applies).
    """
    if position.result is not None or position.to_move != team:
        return ActionResult.refused(position, "NOT_YOUR_TURN" if position.result is None else "MATCH_OVER",
                                    f"{team} is not the team to move")
    settings = settings_of(position)
    passed = turns.pass_turn(replace(position, exclusion_choice=None), team, settings)
    return ActionResult(True, passed)


def legal_stones(position: Position, team: Team) -> tuple[str, ...]:
    """D3, V.7: the stones ``team`` may flick now (for the client's selection)."""
    return turns.legal_stones(position, team, settings_of(position))


def technical_goal(position: Position, team: Team) -> ActionResult:
    """VII.2b-d, IX.7, XII.5 (A52): an admin ruling awards ``team`` a goal without play.

    Not reachable by a coach's action. The goal counts (X.3 returns follow, A15) and the conceding team
    restarts from the basic setup (XIV.7, V.3).
    """
    settings = settings_of(position)
    score = (position.score[0] + 1, position.score[1]) if team == "home" else (position.score[0], position.score[1] + 1)
    scored = replace(position, score=score, exclusion_choice=None, advantage=None, penalty_shot=None)
    scored, returned = exclusions.returns_after_goal(scored)
    returning = tuple(d.get("stone") for d in returned)
    after = setup.restart(scored, other(team), settings, returning=returning)
    decisions = [Decision.of("GOAL", team=team, own_goal=False), *returned, Decision.of("RESTART", team=other(team))]
    return ActionResult(True, after, in_contract_order(decisions))

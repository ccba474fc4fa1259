"""Every choice point a coach has, with the documented default the server applies when the coach is silent.

Why a module of its own: the server times the choices, the client draws them as buttons and the settings
table documents them, so they are listed once, here, from the position alone (``shared.match.prompts``).

Two sorts of choice:

* **Prompts** - the match waits for them: the goalie-foul and activity exclusion (VIII.1a, XII.7, XI.9, A25,
  A47), the goalie's and the shooter's places for a penalty shot (XV.11, A33) and counting the obliged team's
  last move (XI.3). Each has a real default action that resolves it; the server applies it after
  ``choice_timeout_ms`` (the ``deadline`` setting).
* **Offers** (``offers=True``) - optional actions available now; the default is not to take them
  (``default`` None) and they lapse with the coach's turn, timed by the move clock (``move_clock_ms``):
  taking the penalty shot during an advantage (IX.3, A44), declaring counting or counting the obliged team's
  first move right after it (XI.1, XI.3), the power-play swaps (XIII.2-XIII.5, A48, A49) and the goalie hand
  reset (XII.2). Asking the server to apply "nothing" would be meaningless, so offers stay out of the default
  list the server times.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.model import (
    TEAMS,
    Action,
    ChooseExclusion,
    Count,
    Placement,
    Position,
    PowerPlaySwapIn,
    PowerPlaySwapOut,
    Setup,
    Team,
    other,
)
from shared.referee import activity, goalie_reset, penalty_shot, power_play
from shared.referee.goalie import own_goalie
from shared.rulesets import Settings


@dataclass(frozen=True, slots=True)
class Prompt:
    """A choice awaited from ``team``'s coach: ``kind`` (the action name), the allowed ``options`` and the
    ``default`` action applied when the coach does not answer within the setting named by ``deadline``
    (None for an offer: the default is not to act)."""

    kind: str
    team: Team
    options: tuple[str, ...]
    default: Action | None
    deadline: str = "choice_timeout_ms"


# The documentation of every choice point (docs/settings.md): kind, who, rule, default on timeout.
CHOICE_DOCS: tuple[tuple[str, str, str, str], ...] = (
    ("choose_exclusion", "the fouling (or failing) team", "VIII.1a, XII.7, XI.9, A25, A47",
     "the field stone named by `goalie_exclusion_default` stays excluded"),
    ("setup (penalty shot, goalie)", "the defending team", "XV.11, A33",
     "the goalie stays centred on its goal line"),
    ("setup (penalty shot, shooter)", "the shooting team", "XV.11, A33",
     "the team's first field stone on the board, on the axis point of its own half of the centre circle"),
    ("count (a counted move)", "the counting team", "XI.3",
     "the obliged team's last move is counted"),
    ("count (declare counting, or count the obliged team's first move right after it)", "the counting team",
     "XI.1, XI.3", "offer: no counting"),
    ("take_penalty", "the team playing an advantage", "IX.3, A44", "offer: the advantage is played on"),
    ("pp_swap_out / pp_swap_in", "a team", "XIII.2-XIII.5, A48, A49", "offer: no swap"),
    ("goalie_reset", "the team to move", "XII.2", "offer: no reset (the goalie may still be flicked)"),
    ("setup (restart)", "both teams", "IV.1, D13", "the default formation stands (no prompt: nothing to apply)"),
)


def _exclusion(position: Position) -> list[Prompt]:
    """VIII.1a, XII.7, XI.9 (A25, A47): the default exclusion the coach may change before the next move."""
    choice = position.exclusion_choice
    if choice is None:
        return []
    return [Prompt("choose_exclusion", choice.team, (choice.stone, *choice.options),
                   ChooseExclusion(choice.team, choice.stone))]


def _shot_setups(position: Position) -> list[Prompt]:
    """XV.11, A33: the goalie's and the shooter's places, each confirmed as they stand by default."""
    state = position.penalty
    if state is None or state.moves > 0:
        return []
    found: list[Prompt] = []
    goalie = position.stone(state.goalie)
    if not state.goalie_set and goalie is not None:
        found.append(Prompt("setup", state.against, (state.goalie,),
                            Setup(state.against, (Placement(goalie.id, goalie.x, goalie.y),))))
    shooter = position.stone(state.shooter)
    if not state.shooter_set and shooter is not None:
        team_goalie = penalty_shot.goalie_id(position, state.team)
        options = penalty_shot.shooter_candidates(position, state.team, team_goalie)
        found.append(Prompt("setup", state.team, options,
                            Setup(state.team, (Placement(shooter.id, shooter.x, shooter.y),))))
    return found


def _count(position: Position, settings: Settings) -> list[Prompt]:
    """XI.3: the counting team counts each move of the obliged team (not in the auto-count variant)."""
    state = position.activity
    if state is None or settings.activity_auto_count or state.confirmed >= state.count:
        return []
    return [Prompt("count", state.counting, (), Count(state.counting))]


def _offers(position: Position, settings: Settings) -> list[Prompt]:
    """The optional actions available now (default: not taken, lapsing with the turn)."""
    if position.result is not None or position.penalty is not None or position.penalty_shot is not None:
        return []
    found: list[Prompt] = []
    mover = position.to_move
    if position.advantage == mover:
        found.append(Prompt("take_penalty", mover, (), None, "move_clock_ms"))
    late = position.activity_offer if position.activity is None else None
    if late is not None:  # XI.3: count the last move right after it (the count starts at 1)
        found.append(Prompt("count", late.counting, (), None, "move_clock_ms"))
    counting = other(mover)
    if (position.activity is None and (late is None or late.counting != counting)
            and activity.precondition(position, counting, settings) is None):
        found.append(Prompt("count", counting, (), None, "move_clock_ms"))
    for team in TEAMS:
        found.extend(_swaps(position, team, settings))
    if not position.restart and goalie_reset.check_reset(position, mover, settings) is None:
        found.append(Prompt("goalie_reset", mover, (), None, "move_clock_ms"))
    return found


def _swaps(position: Position, team: Team, settings: Settings) -> list[Prompt]:
    """XIII.2-XIII.5: the power-play swaps ``team`` may make now."""
    state = position.power_play_of(team)
    if position.restart:
        if state is not None:
            return [Prompt("pp_swap_in", team, (state.goalie,), None, "move_clock_ms")]
        if power_play.check_restart_in_power_play(position, team) is None:
            return [Prompt("pp_swap_out", team, power_play.reserves(position, team), None, "move_clock_ms")]
        return []
    if state is not None:
        ins = tuple(s for s in state.candidates
                    if power_play.check_swap_in(position, state, PowerPlaySwapIn(team, s), settings) is None)
        return [Prompt("pp_swap_in", team, ins, None, "move_clock_ms")] if ins else []
    goalie = own_goalie(position, team)
    if goalie is None or power_play.check_swap_out(position, PowerPlaySwapOut(team, goalie.id), settings) is not None:
        return []
    return [Prompt("pp_swap_out", team, power_play.reserves(position, team), None, "move_clock_ms")]


def prompts(position: Position, settings: Settings, offers: bool = False) -> tuple[Prompt, ...]:
    """The choices awaited now (and with ``offers`` the optional actions available), home's first in each kind."""
    if position.result is not None:
        return ()
    found = [*_exclusion(position), *_shot_setups(position), *_count(position, settings)]
    if offers:
        found.extend(_offers(position, settings))
    return tuple(found)

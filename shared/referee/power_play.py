"""XIII (power play): swapping the goalie for a sixth field stone and back, and its restart variants.

Why a module of its own: the swaps are not moves (D3) but team actions with their own timing (A48,
A49), and power play changes which stones can earn a penalty shot (XIII.1). The state is one
``PowerPlayState`` per team in power play; every function is pure.

Engine calls: ``check_swap_out`` / ``swap_out`` and ``check_swap_in`` / ``swap_in`` for the actions;
``after_move`` after every move at rest (both teams', to track the XIII.4 return candidates);
``check_restart_in_power_play`` / ``restart_in_power_play`` / ``restart_with_goalie`` for a restart's
setup (XIII.3, XIII.5);
``penalty_eligible`` from the penalty-shot trigger (XIII.1). A19: power play is allowed in overtime too,
so nothing here looks at the part.
"""

from __future__ import annotations

from dataclasses import replace

from shared import geometry
from shared.formation import slot_spot
from shared.model import STONE_IDS, Position, PowerPlayState, PowerPlaySwapIn, PowerPlaySwapOut, Stone, Team, other
from shared.outcome import Decision, RuleError
from shared.referee.goalie import own_goalie
from shared.referee.penalty import penalty_positions
from shared.rulesets import Settings


def _refuse(message: str) -> RuleError:
    """An ``ACTION_NOT_ALLOWED`` refusal."""
    return RuleError("ACTION_NOT_ALLOWED", message)


def reserves(position: Position, team: Team) -> tuple[str, ...]:
    """II.1: ``team``'s stones neither on the board nor excluded - the reserve(s), highest id first."""
    excluded = position.excluded_of(team)
    return tuple(i for i in reversed(STONE_IDS[team]) if position.stone(i) is None and i not in excluded)


def _timing(position: Position, team: Team, just_moved: bool) -> RuleError | None:
    """XIII.2, A48: on the team's own turn, or right after its own move came to rest (``just_moved``),
    never during the opponent's turn or privilege."""
    privilege = position.privilege
    if privilege is not None and privilege.team != team and privilege.remaining > 0:
        return _refuse(f"{team} cannot swap during {privilege.team}'s privilege (XIII.2, A48)")
    if position.to_move != team and not just_moved:
        return _refuse(f"{team} cannot swap during {other(team)}'s turn (XIII.2, A48)")
    return None


def check_swap_out(
    position: Position, action: PowerPlaySwapOut, settings: Settings, just_moved: bool | None = None
) -> RuleError | None:
    """XIII.2, A48: the goalie is on the board and wholly out of its crease, a reserve is available.

    ``action.stone`` names either the goalie (the highest free reserve comes on) or the reserve to bring on.
    ``just_moved`` (A48: the team's own move is the last that came to rest) is read from the position's
    ``last_mover`` unless given.
    """
    team = action.team
    if just_moved is None:
        just_moved = position.last_mover == team and position.to_move != team
    late = _timing(position, team, just_moved)
    if late is not None:
        return late
    goalie = own_goalie(position, team)
    if goalie is None:
        return _refuse(f"{team} has no goalie on the board to swap out (XIII.2)")
    if geometry.in_crease(goalie.x, goalie.y, settings.stone_radius, position.own_end(team)):
        return _refuse(f"the goalie {goalie.id} must have left its crease with its whole circumference (XIII.2)")
    free = reserves(position, team)
    if not free:
        return _refuse(f"{team} has no reserve stone to bring on (XIII.2)")
    if action.stone != goalie.id and action.stone not in free:
        return _refuse(f"{action.stone} is neither {team}'s goalie nor a free reserve (XIII.2)")
    return None


def swap_out(
    position: Position, action: PowerPlaySwapOut
) -> tuple[Position, PowerPlayState, tuple[Decision, ...]]:
    """XIII.1-XIII.2: the goalie leaves; the reserve stands exactly where it was, as a field stone. Not a move."""
    team = action.team
    goalie = own_goalie(position, team)
    assert goalie is not None
    substitute = action.stone if action.stone != goalie.id else reserves(position, team)[0]
    stones = tuple(Stone(substitute, team, "field", s.x, s.y) if s.id == goalie.id else s for s in position.stones)
    state = PowerPlayState(team, goalie.id, substitute)
    return replace(position, stones=stones), state, (Decision.of("POWER_PLAY", team=team, on=True),)


def after_move(rest: Position, state: PowerPlayState, mover: Team, settings: Settings) -> PowerPlayState:
    """XIII.4, A49: after a move at rest - the team's own move marks the stones touching its crease as
    candidates; the opponent's move lets them have waited (XIII.4: "wait in that position for one move")."""
    if mover == state.team:
        end = rest.own_end(state.team)
        candidates = tuple(
            s.id for s in rest.team_stones(state.team) if geometry.in_crease(s.x, s.y, settings.stone_radius, end)
        )
        return replace(state, candidates=candidates, waited=False)
    return replace(state, waited=bool(state.candidates))


def check_swap_in(
    position: Position, state: PowerPlayState | None, action: PowerPlaySwapIn, settings: Settings
) -> RuleError | None:
    """XIII.4, A49: at the start of its own turn the team swaps a stone that touched its crease at the rest
    of its last move, has waited through the opponent's move, and touches the crease still."""
    team = action.team
    if state is None or state.team != team:
        return _refuse(f"{team} is not playing without its goalie (XIII.4)")
    late = _timing(position, team, False)
    if late is not None:
        return late
    if action.stone not in state.candidates:
        return _refuse(f"{action.stone} did not touch {team}'s crease at the end of {team}'s last move (XIII.4, A49)")
    if not state.waited:
        return _refuse(f"{action.stone} must wait one opponent move in the crease before the swap (XIII.4, A49)")
    stone = position.stone(action.stone)
    if stone is None or not geometry.in_crease(stone.x, stone.y, settings.stone_radius, position.own_end(team)):
        return _refuse(f"{action.stone} no longer touches {team}'s crease (XIII.4)")
    return None


def swap_in(
    position: Position, state: PowerPlayState, action: PowerPlaySwapIn
) -> tuple[Position, tuple[Decision, ...]]:
    """XIII.4: the goalie takes the waiting stone's place (A49); it goes back to its spot only by XII.2."""
    stones = tuple(
        Stone(state.goalie, s.team, "goalie", s.x, s.y) if s.id == action.stone else s for s in position.stones
    )
    return replace(position, stones=stones), (Decision.of("POWER_PLAY", team=action.team, on=False),)


def check_restart_in_power_play(position: Position, team: Team) -> RuleError | None:
    """XIII.3: a restart in power play needs the goalie set up (to take off) and a free reserve."""
    if own_goalie(position, team) is None:
        return _refuse(f"{team} is already without its goalie (XIII.3)")
    if not reserves(position, team):
        return _refuse(f"{team} has no reserve stone for a sixth field stone (XIII.3)")
    return None


def restart_in_power_play(position: Position, team: Team) -> tuple[Position, PowerPlayState, tuple[Decision, ...]]:
    """XIII.3: at a restart the team starts without its goalie; the sixth stone stands like a defender
    (the formation's ``sixth`` spot, movable by the team's setup). ``check_restart_in_power_play`` first."""
    goalie = own_goalie(position, team)
    assert goalie is not None
    x, y = slot_spot("sixth", position.own_end(team))
    substitute = reserves(position, team)[0]
    kept = tuple(s for s in position.stones if s.id != goalie.id)
    stones = (*kept, Stone(substitute, team, "field", x, y))
    state = PowerPlayState(team, goalie.id, substitute)
    return replace(position, stones=stones), state, (Decision.of("POWER_PLAY", team=team, on=True),)


def restart_with_goalie(position: Position, state: PowerPlayState) -> tuple[Position, tuple[Decision, ...]]:
    """XIII.5: before a restart the team puts its goalie on its basic spot instead of the sixth stone."""
    x, y = geometry.goalie_spot(position.own_end(state.team))
    kept = tuple(s for s in position.stones if s.id != state.substitute)
    stones = (*kept, Stone(state.goalie, state.team, "goalie", x, y))
    return replace(position, stones=stones), (Decision.of("POWER_PLAY", team=state.team, on=False),)


def penalty_eligible(position: Position, team: Team, settings: Settings) -> tuple[str, ...]:
    """XIII.1, D8 PenaltyPosition: ``team``'s stones that earn a penalty shot when hit in its crease.

    In power play the sixth stone is a field stone, so every stone of the team in its crease is eligible;
    with the goalie on the board the goalie never is.
    """
    return penalty_positions(position, team, settings.stone_radius)

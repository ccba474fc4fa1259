"""XV.10-XV.14: taking a penalty shot - the setup, the coaches' choices, and the judge of each move.

Why a module of its own: once a penalty shot is awarded (the trigger, XV.1-XV.9, is part 1's
``shared.referee.penalty``) the match enters a sub-state with its own rules (RULES.md Appendix A.2):
only the shooter moves, at most ``penalty_moves`` times, and the shot ends with a goal or one of the
failures a-i of XV.13. Everything here is a pure function of positions, the physics record of a move
and a ``PenaltyShotState``.

Entry points, in the order the engine calls them:

* ``setup_shot`` when a penalty shot is to be taken (XV.11, A32, A33 defaults);
* ``check_setup`` / ``apply_setup`` for a coach's ``setup`` action before the first flick (A33 choices);
* ``screen_flick`` before simulating a flick (turn, selectable stone, XV.13h backward flicks, XV.18);
* ``judge_move`` after the simulated flick came to rest (XV.12-XV.13, the decisions and whether it ended);
* ``restart_team`` after the shot (XV.14) and ``moves_allowed_after_siren`` for the clock (XV.10).

XV.13f (an illegal move by hand) cannot happen online: a move is one flick (D3), there is no drag or
double touch to judge. XV.13e (the shooter ahead of the puck) has no physics event: it is computed from
the record's keyframes (every ``frame_steps`` steps) and the position at rest, so a pass lasting less
than one keyframe interval can be missed (documented deviation from A28's "every step").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from shared import geometry
from shared.events import Contact, MoveRecord, RegionChange
from shared.model import (
    PUCK_ID,
    STONE_IDS,
    Flick,
    PenaltyShotState,
    Placement,
    Position,
    PowerPlayState,
    Puck,
    Setup,
    Stone,
    Team,
    other,
)
from shared.outcome import Decision, RuleError
from shared.referee.fouls import foul_records
from shared.referee.goalie import own_goalie
from shared.referee.goals import first_goal_event
from shared.rulesets import Settings

LINE_TOLERANCE = geometry.GOAL_LINE_HALF_WIDTH  # XV.11: "the line through its centre" - within the 1 mm line


@dataclass(frozen=True, slots=True)
class PenaltyVerdict:
    """The outcome of one penalty-shot move: the new state, the decisions, and whether the shot ended.

    ``scored`` is a valid goal for ``state.team`` that the engine must count (score, X.3 returns,
    XVI.1 sudden death). ``restart_by`` is the team that restarts after an in-game shot (XV.14); None
    while the shot goes on and after a shoot-out shot (the shoot-out module decides what follows).
    """

    state: PenaltyShotState
    decisions: tuple[Decision, ...]
    ended: bool
    scored: bool
    restart_by: Team | None


# --------------------------------------------------------------------------- setup (XV.11)


def goalie_id(position: Position, team: Team, power_play: PowerPlayState | None = None) -> str:
    """The goalie of ``team``: the stone with the goalie role on the board, else the one power play took
    off (A32), else the conventional id (``h1``/``a1``, II.1)."""
    goalie = own_goalie(position, team)
    if goalie is not None:
        return goalie.id
    if power_play is not None and power_play.team == team:
        return power_play.goalie
    return STONE_IDS[team][0]


def shooter_candidates(position: Position, team: Team, goalie: str) -> tuple[str, ...]:
    """XV.11: the stones that may take the shot - any of the team's stones but its goalie and the excluded."""
    excluded = position.excluded_of(team)
    return tuple(i for i in STONE_IDS[team] if i != goalie and i not in excluded)


def default_shooter(position: Position, team: Team, goalie: str) -> str:
    """A33 default shooter: the team's first field stone on the board (the centre forward by convention)."""
    on_board = tuple(s.id for s in position.team_stones(team) if s.role == "field")
    candidates = shooter_candidates(position, team, goalie)
    for stone_id in candidates:
        if stone_id in on_board:
            return stone_id
    return candidates[0]


def shooter_default_spot(position: Position, team: Team) -> tuple[float, float]:
    """A33: the shooter's default spot, the point of the centre circle on the long axis in its own half."""
    return (geometry.CENTRE_CIRCLE_RADIUS * position.own_end(team), 0.0)


def setup_shot(
    position: Position,
    team: Team,
    power_play: PowerPlayState | None = None,
    in_shootout: bool = False,
) -> tuple[Position, PenaltyShotState, tuple[Decision, ...]]:
    """XV.11: the position of a penalty shot for ``team``, with the A33 defaults for both choices.

    The defending goalie stands centred on its goal line, the shooter on the axis point of its own half
    of the circle, the puck on the centre spot; every other stone is taken off (online always, XV.11).
    A32: a defending team in power play gets its goalie back for the shot, which ends its power play
    (``POWER_PLAY`` on false). The shooting team is to move; privileges are void during the shot.
    The restart after the shot rebuilds both teams from the basic setup (XV.14).
    """
    against = other(team)
    goalie = goalie_id(position, against, power_play)
    shooter = default_shooter(position, team, goalie_id(position, team))
    gx, gy = geometry.goalie_spot(position.own_end(against))
    sx, sy = shooter_default_spot(position, team)
    stones = (
        Stone(goalie, against, "goalie", gx, gy),
        Stone(shooter, team, "field", sx, sy),
    )
    shot = replace(position, stones=stones, puck=Puck(0.0, 0.0), to_move=team, privilege=None, restart=False)
    state = PenaltyShotState(team=team, against=against, shooter=shooter, goalie=goalie, in_shootout=in_shootout)
    decisions: tuple[Decision, ...] = ()
    if power_play is not None and power_play.team == against:
        decisions = (Decision.of("POWER_PLAY", team=against, on=False),)  # A32: the goalie is back
    return shot, state, decisions


def _invalid(message: str) -> RuleError:
    """An ``INVALID_SETUP`` refusal."""
    return RuleError("INVALID_SETUP", message)


def _check_goalie(position: Position, state: PenaltyShotState, spot: Placement, settings: Settings) -> RuleError | None:
    """XV.11, A33: the goalie's centre on its goal line, the whole disc between the posts."""
    end = position.own_end(state.against)
    if spot.id != state.goalie:
        return _invalid(f"{state.against} places only its goalie {state.goalie} for the penalty shot (XV.11)")
    if abs(spot.x * end - geometry.GOAL_LINE_X) > LINE_TOLERANCE:
        return _invalid(f"the goalie must stand on the goal line, x = {geometry.GOAL_LINE_X * end:g} (XV.11)")
    if abs(spot.y) + settings.stone_radius > geometry.GOAL_MOUTH_HALF_WIDTH:
        limit = geometry.GOAL_MOUTH_HALF_WIDTH - settings.stone_radius
        return _invalid(f"the goalie must stand within the goal mouth, |y| <= {limit:g} (XV.11)")
    return None


def _check_shooter(
    position: Position, state: PenaltyShotState, spot: Placement, settings: Settings
) -> RuleError | None:
    """XV.11, A33: a field stone of the team, touching the circle's line, in its own half, clear of the puck."""
    team = state.team
    if spot.id not in shooter_candidates(position, team, goalie_id(position, team)):
        return _invalid(f"{spot.id} cannot take {team}'s penalty shot: only a field stone that is not excluded (XV.11)")
    r = settings.stone_radius
    if not geometry.touches_centre_circle_line(spot.x, spot.y, r):
        return _invalid("the shooter must lie at least partly on the line of the centre circle (XV.11)")
    if spot.x * position.own_end(team) < 0:
        return _invalid(f"the shooter must lie on {team}'s own half of the centre circle (XV.11)")
    if geometry.discs_overlap(spot.x, spot.y, r, 0.0, 0.0, settings.puck_radius, geometry.OVERLAP_TOLERANCE):
        return _invalid("the shooter may not overlap the puck on the centre spot (XV.11)")
    return None


def check_setup(position: Position, state: PenaltyShotState, action: Setup, settings: Settings) -> RuleError | None:
    """XV.11, A33: is this ``setup`` a valid choice? The defending coach places the goalie, the shooting
    coach the shooter; one stone each, and only before the shot's first flick."""
    if state.moves > 0:
        return _invalid("the penalty shot has begun: no more setup (XV.11)")
    if len(action.stones) != 1:
        return _invalid("a penalty-shot setup places exactly one stone: the goalie or the shooter (XV.11)")
    spot = action.stones[0]
    if action.team == state.against:
        return _check_goalie(position, state, spot, settings)
    return _check_shooter(position, state, spot, settings)


def apply_setup(
    position: Position, state: PenaltyShotState, action: Setup
) -> tuple[Position, PenaltyShotState]:
    """Apply a ``setup`` that ``check_setup`` accepted: the goalie moves along its line (snapped onto it),
    or the named shooter takes the place of the default one."""
    spot = action.stones[0]
    if action.team == state.against:
        x = geometry.GOAL_LINE_X * position.own_end(state.against)
        stones = tuple(s.at(x, spot.y) if s.id == state.goalie else s for s in position.stones)
        return replace(position, stones=stones), state
    shooter = Stone(spot.id, state.team, "field", spot.x, spot.y)
    stones = tuple(shooter if s.id == state.shooter else s for s in position.stones)
    return replace(position, stones=stones), replace(state, shooter=spot.id)


# --------------------------------------------------------------------------- execution (XV.12-XV.13)


def is_backward(position: Position, team: Team, vx: float) -> bool:
    """XV.12, XV.13h, A27: the flick points towards the shooter's own end (angle to the attack > 90°).

    The attack direction is the long axis towards the opponent's goal, so the angle exceeds 90° exactly
    when the x-component points the other way; a flick exactly across the board (90°) is allowed.
    """
    return vx * position.attack_end(team) < 0


def time_is_up(state: PenaltyShotState, settings: Settings) -> bool:
    """XV.18, A42: in a shoot-out, more than ``shootout_shot_ms`` have passed since the shot's first flick."""
    return state.in_shootout and state.moves > 0 and state.shot_ms > settings.shootout_shot_ms


def _ended(state: PenaltyShotState, reason: str, scored: bool = False) -> Decision:
    """XV.13: the ``PENALTY_SHOT_ENDED`` decision."""
    return Decision.of("PENALTY_SHOT_ENDED", team=state.team, scored=scored, reason=reason)


def _finish(state: PenaltyShotState, decisions: tuple[Decision, ...], scored: bool) -> PenaltyVerdict:
    """A verdict that ends the shot; XV.14 names who restarts an in-game shot."""
    return PenaltyVerdict(state, decisions, True, scored, None if state.in_shootout else restart_team(state))


def screen_flick(
    position: Position, state: PenaltyShotState, flick: Flick, settings: Settings
) -> RuleError | PenaltyVerdict | None:
    """XV.12, XV.13h, XV.18: may this flick be simulated?

    A refusal (``RuleError``) changes nothing; a ``PenaltyVerdict`` means the flick is taken but the shot
    fails at once without physics (a backward flick with ``penalty_backward`` = ``"fail"``, A27); None
    means simulate it and call ``judge_move``.
    """
    if flick.team != state.team:
        return RuleError("NOT_YOUR_TURN", f"{flick.team} makes no move during {state.team}'s penalty shot (XV.12)")
    if flick.stone != state.shooter:
        return RuleError("STONE_NOT_SELECTABLE", f"only the shooter {state.shooter} moves in a penalty shot (XV.11)")
    if state.moves >= settings.penalty_moves:
        return RuleError("ACTION_NOT_ALLOWED", f"the penalty shot has used its {settings.penalty_moves} moves (XV.12)")
    if time_is_up(state, settings):
        return RuleError("ACTION_NOT_ALLOWED", f"the {settings.shootout_shot_ms} ms of this shot are over (XV.18)")
    if is_backward(position, state.team, flick.vx):
        if settings.penalty_backward == "reject":
            return RuleError("ACTION_NOT_ALLOWED", "no move of a penalty shot may go backwards (XV.12, A27)")
        failed = replace(state, moves=state.moves + 1)
        return _finish(failed, (_ended(failed, "h"),), False)  # XV.13h
    return None


def expire(state: PenaltyShotState, settings: Settings) -> PenaltyVerdict | None:
    """XV.18, A42: the shoot-out shot's time ran out before it ended - it fails (a goal would have ended it).

    The engine calls this whenever time passes during a shoot-out shot; a flick asked for after the limit
    is then refused by ``screen_flick`` as well. The reason ``TIME`` extends XV.13's list (XV.18).
    """
    if not time_is_up(state, settings):
        return None
    return _finish(state, (_ended(state, "TIME"),), False)


def elapse_shot(state: PenaltyShotState, ms: int) -> PenaltyShotState:
    """XV.18: run the shot's timer by ``ms`` (aiming or a move's duration); it starts at the first flick."""
    if not state.in_shootout or state.moves == 0:
        return state
    return replace(state, shot_ms=state.shot_ms + ms)


def _body_track(record: MoveRecord, body: str) -> list[tuple[int, float, float]]:
    """(step, x, y) of ``body`` at every keyframe where it is on the board, then at rest (``final``)."""
    if body not in record.bodies:
        return []
    index = record.bodies.index(body)
    track = []
    for k, frame in enumerate(record.keyframes):
        x, y, _angle, where = frame[4 * index : 4 * index + 4]
        if where == 0:
            track.append((k * record.frame_steps, x / 100.0, y / 100.0))
    for body_state in record.final:
        if body_state.id == body:
            track.append((record.steps, body_state.x, body_state.y))
    return track


def shooter_ahead_step(record: MoveRecord, shooter: str, end: int) -> int | None:
    """XV.13e, A28: the first keyframe step at which the shooter's centre is nearer the goal-mouth centre
    than the puck's (Euclidean distances); computed from keyframes, the physics emits no such event."""
    gx, gy = geometry.goal_mouth_centre(end)
    puck = {step: (x, y) for step, x, y in _body_track(record, PUCK_ID)}
    for step, x, y in _body_track(record, shooter):
        if step in puck:
            px, py = puck[step]
            if math.hypot(x - gx, y - gy) < math.hypot(px - gx, py - gy):
                return step
    return None


def shooter_crossed_step(record: MoveRecord, shooter: str, end: int) -> int | None:
    """A29 (by analogy with XV.13d): the first step the shooter touches the goal line beside the goal, or
    its centre passes beyond the goal line (into the goal, or behind the line anywhere)."""
    steps = [
        e.step
        for e in record.events
        if isinstance(e, RegionChange) and e.body == shooter and e.inside and e.region == f"goal_line_outside:{end}"
    ]
    steps += [step for step, x, _y in _body_track(record, shooter) if x * end > geometry.GOAL_LINE_X]
    return min(steps) if steps else None


def _failures(record: MoveRecord, state: PenaltyShotState, end: int, settings: Settings) -> list[tuple[int, str]]:
    """XV.13d, e, g and A29: the failures that happen during a move, as (step, reason)."""
    found: list[tuple[int, str]] = []
    for event in record.events:
        if (
            isinstance(event, RegionChange)
            and event.body == PUCK_ID
            and event.inside
            and event.region == f"goal_line_outside:{end}"
        ):
            found.append((event.step, "d"))  # XV.13d: the puck touches the goal line beside the goal
    ahead = shooter_ahead_step(record, state.shooter, end)
    if ahead is not None:
        found.append((ahead, "e"))  # XV.13e, A28
    for foul in foul_records(state.team, state.shooter, record.events, settings.simultaneous_steps):
        if foul.victim == state.goalie:
            found.append((foul.step, "g"))  # XV.13g, D7: the shooter hit the goalie without neutral contact
            break
    crossed = shooter_crossed_step(record, state.shooter, end)
    if crossed is not None:
        found.append((crossed, "d"))  # A29: the shooter crossing the goal line fails like the puck (d)
    return found


def puck_touched_goalie(record: MoveRecord, goalie: str) -> bool:
    """XV.13c: the puck collided with the goalie during the move."""
    return any(isinstance(e, Contact) and e.involves(PUCK_ID) and e.involves(goalie) for e in record.events)


def judge_move(
    start: Position, record: MoveRecord, rest: Position, state: PenaltyShotState, settings: Settings
) -> PenaltyVerdict:
    """XV.12-XV.13: judge the shooter's move from ``start`` (the record's physics) to ``rest``.

    Events during the move decide in time order - the first of a goal and a failure (d, e, g, A29)
    wins, and a failure in the same step as a goal wins (the goal must be legal, D11). A goal into the
    attacked goal scores from the second move on (b: void on the first); any goal into the shooting
    team's goal fails (i). At rest: a (the puck still touches the centre circle after move 1), then c
    (the puck touched the goalie and no goal), then ``NO_GOAL_IN_3`` after the last move.
    """
    state = replace(state, moves=state.moves + 1)
    end = start.attack_end(state.team)
    goal = first_goal_event(start, record.events, settings.stone_radius)
    failures = _failures(record, state, end, settings)
    incidents: list[tuple[int, int, str]] = [(step, 0, reason) for step, reason in failures]
    if goal is not None:
        incidents.append((goal.step, 1, "GOAL"))
    if incidents:
        _step, _order, what = min(incidents)
        if what != "GOAL":
            return _finish(state, (_ended(state, what),), False)
        assert goal is not None
        if goal.against == state.team:  # XV.12, XV.13i, XIV.6: an own goal in a penalty shot is void
            void = Decision.of("GOAL_DISALLOWED", team=state.against, reason="OWN_GOAL_IN_PENALTY_SHOT")
            return _finish(state, (void, _ended(state, "i")), False)
        if state.moves == 1:  # XV.12, XV.13b: a goal with the first move is void
            void = Decision.of("GOAL_DISALLOWED", team=state.team, reason="PENALTY_SHOT_FIRST_MOVE")
            return _finish(state, (void, _ended(state, "b")), False)
        scored = Decision.of("GOAL", team=state.team, own_goal=False)
        return _finish(state, (scored, _ended(state, "SCORED", True)), True)
    if state.moves == 1 and geometry.touches_centre_circle(rest.puck.x, rest.puck.y, settings.puck_radius):
        return _finish(state, (_ended(state, "a"),), False)  # XV.13a, A30
    if puck_touched_goalie(record, state.goalie):
        return _finish(state, (_ended(state, "c"),), False)  # XV.13c
    if state.moves >= settings.penalty_moves:
        return _finish(state, (_ended(state, "NO_GOAL_IN_3"),), False)  # XV.12: three moves without a goal
    return PenaltyVerdict(state, (), False, False, None)


# --------------------------------------------------------------------------- after the shot, the clock


def restart_team(state: PenaltyShotState) -> Team:
    """XV.14, V.5: after a penalty shot the team against which it was awarded restarts from the basic setup."""
    return state.against


def at_siren(state: PenaltyShotState) -> PenaltyShotState:
    """XV.10: the siren sounded during the shot (or it was awarded at the siren, XV.8): it is still completed."""
    return replace(state, after_siren=True)


def moves_allowed_after_siren(state: PenaltyShotState | None) -> bool:
    """XV.10, D14: a shot in progress keeps its moves after the siren; the clock must let them begin."""
    return state is not None

"""Appendix A: the adjudication order at the end of a flick - infringements, goal, penalty trigger,
sanctions, returns and the next mover.

Why a module of its own: each chapter module answers one question from the events; the order in
which the answers combine (a foul voids a goal, A13; a void goal still restarts, V.4; an own goal
keeps the foul penalties, A14; the cap of VIII.7; the privilege interactions of IX.1-IX.2) is the
referee's real judgement and lives here, once. ``judge`` is a pure function of the position at move
start, the flick and the physics record; restarts and the clock are applied afterwards by
``shared.match`` (they belong to ``shared.referee.setup`` and ``shared.referee.clock``).

Hooks for part 2 (issue #4): ``activity_infringement`` (XI.9-XI.10, VIII.6) returns no infringement
yet; the penalty shot is only awarded here (``Position.penalty_shot``), its execution is XV.11-XV.14.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from shared.events import MoveRecord
from shared.model import ExclusionChoice, Flick, Position, Stone, Team, other
from shared.outcome import Decision
from shared.referee import exclusions, turns
from shared.referee.fouls import FoulRecord, counted_foul
from shared.referee.goalie import goalie_outside_third, is_goalie_move
from shared.referee.goals import GoalEvent, first_goal_event, last_stone_touch_before
from shared.referee.penalty import PenaltyTrigger, penalty_trigger
from shared.rulesets import Settings

# SCENARIOS.md: decisions are listed in the order the referee takes them.
DECISION_ORDER: tuple[str, ...] = (
    "GOAL", "GOAL_DISALLOWED", "FOUL", "GOALIE_OUTSIDE_THIRD", "ACTIVITY_FAILED", "EXCLUSION", "RETURN",
    "PRIVILEGE", "PRIVILEGE_CANCELLED", "PENALTY_SHOT", "ADVANTAGE", "PENALTY_SHOT_ENDED", "ACTIVITY_COUNT",
    "ACTIVITY_ENDED", "POWER_PLAY", "RESPOT", "FLIP", "RESTART", "PART_ENDED", "MATCH_ENDED",
)


def in_contract_order(decisions: list[Decision] | tuple[Decision, ...]) -> tuple[Decision, ...]:
    """SCENARIOS.md: decisions sorted by the code table's order; one code keeps its own order (stable)."""
    return tuple(sorted(decisions, key=lambda d: DECISION_ORDER.index(d.code)))


@dataclass(frozen=True, slots=True)
class Ruling:
    """The referee's judgement of one flick: decisions, the next position before any restart, who
    restarts from the basic setup (None when play goes on from the position at rest) and the stones
    that return with that restart after a valid goal (X.3)."""

    decisions: tuple[Decision, ...]
    position: Position
    restart_by: Team | None
    returning: tuple[str, ...] = ()


def at_rest(start: Position, record: MoveRecord) -> Position:
    """VI.3-VI.5, D4: the position at rest after the referee's 2.5-D interventions (``record.final``).

    A flipped stone has been turned back in place by the referee (VI.4), so no stone stays flipped.
    """
    final = {b.id: b for b in record.final}
    stones: list[Stone] = []
    for stone in start.stones:
        body = final.get(stone.id)
        stones.append(replace(stone, x=body.x, y=body.y, flipped=False) if body else replace(stone, flipped=False))
    puck = final.get("puck")
    moved = replace(start, stones=tuple(stones))
    if puck is not None:
        moved = replace(moved, puck=replace(start.puck, x=puck.x, y=puck.y))
    return moved


def intervention_decisions(record: MoveRecord) -> list[Decision]:
    """VI.3-VI.5: the referee's re-spots and flips of the 2.5-D model, as decisions (not moves, D3)."""
    decisions: list[Decision] = []
    for item in record.interventions:
        if item.code == "FLIP":
            decisions.append(Decision.of("FLIP", stone=item.body))  # VI.4
        else:
            decisions.append(Decision.of("RESPOT", body=item.body, x=item.x, y=item.y, reason=item.reason))
    return decisions


def activity_infringement(start: Position, mover: Team, rest: Position) -> list[int]:
    """XI.9-XI.10, VIII.6 hook (part 2): the privilege moves the activity rule adds; none until it exists."""
    return []


def judge(start: Position, flick: Flick, record: MoveRecord, settings: Settings) -> Ruling:
    """Appendix A steps 1-7 and 9 for one flick by ``flick.team`` from ``start``.

    The returned position has the move counted, the score, exclusions, returns, privilege, advantage,
    pending penalty shot and next mover set; ``restart_by`` names the team that restarts (V.3, V.4, V.9).
    """
    mover, opponent = flick.team, other(flick.team)
    events = record.events
    rest = replace(at_rest(start, record), move_number=start.move_number + 1, restart=False, exclusion_choice=None)
    goalie_move = is_goalie_move(start, flick.stone)
    decisions: list[Decision] = intervention_decisions(record)

    # 1. infringements by the mover (D11): foul (VIII.1, one per move VIII.7), goalie outside its third (XII.8)
    foul: FoulRecord | None = counted_foul(
        start, mover, flick.stone, events, settings.simultaneous_steps, settings.stone_radius
    )
    outside_third = goalie_outside_third(start, mover, flick.stone, events, settings.puck_radius)
    moves: list[int] = []  # the privilege moves each infringement gives the opponent (VIII.7)
    if foul is not None:
        victim = foul.victim
        decisions.append(Decision.of("FOUL", team=mover, kind=foul.kind, stone=foul.origin, victim=victim))
        moves.append(settings.privilege_moves)  # VIII.1a-b
    if outside_third:
        decisions.append(Decision.of("GOALIE_OUTSIDE_THIRD", team=mover))
        moves.append(2)  # XII.8: the opponent gets 2 consecutive moves
    moves.extend(activity_infringement(start, mover, rest))
    legal = not moves  # D11, VII.1: no infringement anywhere in the move (A13)

    # 2. the first goal event (XIV.5); 3. the penalty trigger (XV.1-XV.3, XII.11), voided by XV.6 (A36)
    goal: GoalEvent | None = first_goal_event(start, events, settings.stone_radius)
    trigger: PenaltyTrigger | None = penalty_trigger(
        start, mover, goalie_move, events, settings.stone_radius, settings.puck_radius
    )
    if not legal:
        trigger = None

    # 4. goals
    restart_by: Team | None = None
    valid_goal = False
    penalty_to: Team | None = None
    keep_sanctions = True
    if goal is not None and goal.against == opponent:  # the mover scores
        reason = None
        if start.restart:
            reason = "FIRST_MOVE_AFTER_RESTART"  # V.9, A46: no privilege for this, the same team restarts
        elif goalie_move:
            reason = "GOALIE_MOVE"  # XII.9
            moves.append(2)  # XII.9: +2; with XII.8 the cap gives XII.10's 3 moves
        elif not legal:
            reason = "ILLEGAL_MOVE"  # XIV.1, D11, A13
        if reason is None:
            valid_goal = True
            rest = replace(rest, score=_add_goal(rest.score, mover))
            decisions.append(Decision.of("GOAL", team=mover, own_goal=False))
            restart_by = opponent  # V.3
            trigger = None  # XV.5 first sentence, A31: the goal counts, no penalty shot
        else:
            decisions.append(Decision.of("GOAL_DISALLOWED", team=mover, reason=reason))
            restart_by = mover  # V.4, V.9, XII.9
    elif goal is not None:  # own goal (D10)
        if (
            trigger is not None
            and trigger.step <= goal.step
            and last_stone_touch_before(events, goal.step) == trigger.stone
            and not goalie_move
        ):
            # IX.4, XIV.6 third exception, XV.5: off a penalty-position stone into the own goal - void, penalty
            decisions.append(Decision.of("GOAL_DISALLOWED", team=opponent, reason="REBOUND_FROM_PENALTY_POSITION"))
            penalty_to = mover
        else:
            valid_goal = True  # XIV.6: an own goal is always valid (V.9 exception, A12)
            rest = replace(rest, score=_add_goal(rest.score, opponent))
            decisions.append(Decision.of("GOAL", team=opponent, own_goal=True))
            restart_by = mover  # V.3: the conceding team starts
            trigger = None
            keep_sanctions = not settings.own_goal_cancels_fouls  # product decision 3, A14

    # 5. penalty shot or advantage (IX.3)
    privileged = turns.has_privilege(start, mover)
    remaining = start.privilege.remaining if privileged and start.privilege is not None else 0
    if trigger is not None and penalty_to is None:
        if privileged and remaining > 1 and start.advantage is None:
            decisions.append(Decision.of("ADVANTAGE", team=mover))  # IX.3: may play on, or take the shot
            rest = replace(rest, advantage=mover)
        elif start.advantage is None:
            penalty_to = mover  # XV.1
    if start.advantage == mover and privileged:
        if moves or valid_goal:
            rest = replace(rest, advantage=None)  # IX.3: a goal or an infringement ends the advantage, no shot
        elif remaining == 1:
            penalty_to = mover  # IX.3: the advantage played out without goal or infringement: the shot

    # 6. sanctions (VIII.7 cap, IX.1-IX.2, X.1-X.2), after 7. the X.3 returns of a valid goal (A14)
    returning: tuple[str, ...] = ()
    if valid_goal:
        rest, returned = exclusions.returns_after_goal(rest)
        decisions.extend(returned)
        returning = tuple(d.get("stone") for d in returned)
    if not keep_sanctions:
        moves, foul = [], None
    granted = turns.cap_moves(moves, settings)
    cancelled = bool(granted) and privileged and remaining > 1  # IX.1
    if foul is not None:
        rest, excluded, choice = _exclude_for_foul(rest, mover, foul, settings, restarted=restart_by is not None)
        decisions.extend(excluded)
        rest = replace(rest, exclusion_choice=choice)
    if penalty_to is not None:
        decisions.append(Decision.of("PENALTY_SHOT", team=penalty_to))
        rest = replace(rest, penalty_shot=penalty_to, advantage=None)
        restart_by = None  # XV.14: the restart follows the shot (V.5), not this move

    # 9. the next mover
    if cancelled:
        decisions.append(Decision.of("PRIVILEGE_CANCELLED", team=mover))  # IX.1: one move each from now on
        rest = replace(rest, privilege=None, advantage=None)
        granted = 0
    if restart_by is not None:
        held = rest.privilege if rest.privilege is not None and rest.privilege.team == opponent else None
        rest = replace(rest, privilege=held, advantage=None)  # a restart ends the mover's running privilege
        if granted:
            rest = turns.grant_privilege(rest, opponent, granted, settings)  # A14: after the restart move
            decisions.append(Decision.of("PRIVILEGE", team=opponent, moves=rest.privilege.total))  # type: ignore[union-attr]
        rest = replace(rest, to_move=restart_by)
    elif granted:
        rest = replace(turns.grant_privilege(rest, opponent, granted, settings), to_move=opponent, advantage=None)
        decisions.append(Decision.of("PRIVILEGE", team=opponent, moves=rest.privilege.total))  # type: ignore[union-attr]
        rest = turns.with_snapshot(rest, settings)
    elif cancelled:
        rest = replace(rest, to_move=opponent)
    else:
        rest = turns.pass_turn(rest, mover, settings)
    return Ruling(in_contract_order(decisions), rest, restart_by, returning if restart_by is not None else ())


def _add_goal(score: tuple[int, int], team: Team) -> tuple[int, int]:
    """One more goal for ``team``."""
    return (score[0] + 1, score[1]) if team == "home" else (score[0], score[1] + 1)


def _exclude_for_foul(
    rest: Position, mover: Team, foul: FoulRecord, settings: Settings, restarted: bool
) -> tuple[Position, list[Decision], ExclusionChoice | None]:
    """VIII.1a-b, X.1: exclude the chain origin (A7); a goalie fouler is replaced by the documented default
    field stone (A47), which the coach may change before the next move (``ExclusionChoice``)."""
    origin = rest.stone(foul.origin)
    if origin is not None and origin.role == "goalie":
        stone = exclusions.default_exclusion(rest, mover, settings.goalie_exclusion_default)  # XII.7, A47
        after, decisions = exclusions.exclude(rest, mover, stone, settings)
        return after, decisions, exclusions.choice_after(rest, after, mover, stone, restarted)
    after, decisions = exclusions.exclude(rest, mover, foul.origin, settings)
    return after, decisions, None

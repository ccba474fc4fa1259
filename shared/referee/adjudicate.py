"""Appendix A: the adjudication order at the end of a flick - infringements, goal, penalty trigger,
sanctions, returns and the next mover.

Why a module of its own: each chapter module answers one question from the events; the order in
which the answers combine (a foul voids a goal, A13; a void goal still restarts, V.4; an own goal
keeps the foul penalties, A14; the cap of VIII.7; the privilege interactions of IX.1-IX.2) is the
referee's real judgement and lives here, once. ``judge`` is a pure function of the position at move
start, the flick and the physics record; restarts and the clock are applied afterwards by
``shared.match`` (they belong to ``shared.referee.setup`` and ``shared.referee.clock``).

The later chapters join in at their steps: the activity rule (XI) is judged at step 1 - a failure to clear is
an infringement like a foul (XI.9-XI.10, VIII.6, capped by VIII.7) - through ``activity_step``; the
advantage (IX.3-IX.6) at step 5 through ``shared.referee.advantage``. A penalty shot is only awarded here
(``Position.penalty_shot``); the engine sets it up (``shared.referee.shots``). A goalie hand reset (XII.2) is
judged here too, as a move whose record has no events (``reset_record``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from shared.events import AtRest, BodyState, MoveRecord
from shared.model import ActivityCount, ExclusionChoice, Flick, Position, Team, other
from shared.outcome import Decision
from shared.physics import rested_position
from shared.referee import activity, advantage, exclusions, turns
from shared.referee.activity import ActivityFailure
from shared.referee.decision_order import in_contract_order
from shared.referee.fouls import FoulRecord, counted_foul
from shared.referee.goalie import goalie_outside_third, is_goalie_move
from shared.referee.goals import GoalEvent, add_goal, first_goal_event
from shared.referee.penalty import PenaltyTrigger, penalty_trigger
from shared.rulesets import Settings


@dataclass(frozen=True, slots=True)
class Ruling:
    """The referee's judgement of one flick: decisions, the next position before any restart, who
    restarts from the basic setup (None when play goes on from the position at rest) and the stones
    that return with that restart after a valid goal (X.3)."""

    decisions: tuple[Decision, ...]
    position: Position
    restart_by: Team | None
    returning: tuple[str, ...] = ()


def intervention_decisions(record: MoveRecord) -> list[Decision]:
    """VI.3-VI.5: the referee's re-spots and flips of the 2.5-D model, as decisions (not moves, D3)."""
    decisions: list[Decision] = []
    for item in record.interventions:
        if item.code == "FLIP":
            decisions.append(Decision.of("FLIP", stone=item.body))  # VI.4
        else:
            decisions.append(Decision.of("RESPOT", body=item.body, x=item.x, y=item.y, reason=item.reason))
    return decisions


@dataclass(frozen=True, slots=True)
class ActivityStep:
    """Step 1 for the activity rule: the count after the move (None when it ended), its decisions, a failure of
    the obliged team (an infringement, XI.9-XI.10), and the count the opponent may start right after this move
    by counting it (XI.3, ``Position.activity_offer``)."""

    state: ActivityCount | None
    decisions: tuple[Decision, ...]
    failure: ActivityFailure | None
    offer: ActivityCount | None = None


def activity_step(
    start: Position, mover: Team, stone: str, record: MoveRecord, rest: Position, goalie_move: bool, fouled: bool,
    goal: bool, settings: Settings,
) -> ActivityStep:
    """XI.1-XI.10: the activity count after ``mover``'s move with ``stone``.

    A goal in the move ends the count (reason ``GOAL``) before any failure is judged: the obliged team's move
    did not end without a goal (an own goal counts, A14). Otherwise the obliged team's move is counted (and
    may fail, XI.9) and the counting team's move may end the count (XI.5-XI.8). With no count running, a move that
    began with the XI.1 precondition for the opponent (and scored no goal) may be counted right after it (XI.3).
    """
    state = start.activity
    if state is None:
        offer = None if goal else activity.count_after_move(
            start, record, rest, mover, stone, goalie_move, fouled, settings
        )
        return ActivityStep(None, (), None, offer)
    if goal:
        return ActivityStep(None, activity.end(state, "GOAL"), None)
    if mover == state.obliged:
        verdict = activity.after_obliged_move(start, record, rest, state, stone, goalie_move, fouled, settings)
    else:
        verdict = activity.after_counting_move(record, rest, state, fouled, settings)
    return ActivityStep(verdict.state, verdict.decisions, verdict.failure)


def reset_record(start: Position, after: Position) -> MoveRecord:
    """XII.2, D3: the record of a goalie hand reset - a move without physics: no events, no time, every body
    at rest where ``after`` has it."""
    final = (*(BodyState(s.id, s.x, s.y) for s in after.stones), BodyState("puck", after.puck.x, after.puck.y))
    return MoveRecord(
        bodies=tuple(b.id for b in final), events=(AtRest(0),), steps=0, step_hz=480, frame_steps=8,
        keyframes=(), final=final, interventions=(),
    )


def judge(start: Position, flick: Flick, record: MoveRecord, settings: Settings) -> Ruling:
    """Appendix A steps 1-7 and 9 for one flick by ``flick.team`` from ``start`` (see ``judge_move``)."""
    return judge_move(start, flick.team, flick.stone, record, settings)


def judge_move(start: Position, mover: Team, stone: str, record: MoveRecord, settings: Settings) -> Ruling:
    """Appendix A steps 1-7 and 9 for one move by ``mover`` with ``stone`` from ``start``.

    The returned position has the move counted, the score, exclusions, returns, privilege, advantage,
    activity count, pending penalty shot and next mover set; ``restart_by`` names the team that restarts
    (V.3, V.4, V.9).
    """
    opponent = other(mover)
    events = record.events
    rest = replace(rested_position(start, record), restart=False, exclusion_choice=None, last_mover=mover)
    goalie_move = is_goalie_move(start, stone)
    decisions: list[Decision] = intervention_decisions(record)

    # 1. infringements by the mover (D11): foul (VIII.1, one per move VIII.7), goalie outside its third (XII.8)
    foul: FoulRecord | None = counted_foul(
        start, mover, stone, events, settings.simultaneous_steps, settings.stone_radius
    )
    outside_third = goalie_outside_third(start, mover, stone, events, settings.puck_radius)
    moves: list[int] = []  # the privilege moves each infringement gives the opponent (VIII.7)
    if foul is not None:
        victim = foul.victim
        decisions.append(Decision.of("FOUL", team=mover, kind=foul.kind, stone=foul.origin, victim=victim))
        moves.append(settings.privilege_moves)  # VIII.1a-b
    if outside_third:
        decisions.append(Decision.of("GOALIE_OUTSIDE_THIRD", team=mover))
        moves.append(2)  # XII.8: the opponent gets 2 consecutive moves
    goal: GoalEvent | None = first_goal_event(start, events, settings.stone_radius)
    counted = activity_step(
        start, mover, stone, record, rest, goalie_move, foul is not None, goal is not None, settings
    )  # XI.9-XI.10: a failure to clear is an infringement of this move (VIII.6)
    rest = replace(rest, activity=counted.state, activity_offer=counted.offer)
    decisions.extend(counted.decisions)
    if counted.failure is not None:
        moves.append(counted.failure.moves)
    legal = not moves  # D11, VII.1: no infringement anywhere in the move (A13)

    # 2. the first goal event (XIV.5); 3. the penalty trigger (XV.1-XV.3, XII.11), voided by XV.6 (A36)
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
            rest = replace(rest, score=add_goal(rest.score, mover))
            decisions.append(Decision.of("GOAL", team=mover, own_goal=False))
            restart_by = opponent  # V.3
            trigger = None  # XV.5 first sentence, A31: the goal counts, no penalty shot
        else:
            decisions.append(Decision.of("GOAL_DISALLOWED", team=mover, reason=reason))
            restart_by = mover  # V.4, V.9, XII.9
    elif goal is not None:  # own goal (D10)
        if legal and advantage.rebound_penalty(start, mover, goalie_move, events, settings) is not None:
            # IX.4, XIV.6 third exception, XV.5: off a penalty-position stone into the own goal - void, penalty
            decisions.append(Decision.of("GOAL_DISALLOWED", team=opponent, reason="REBOUND_FROM_PENALTY_POSITION"))
            penalty_to = mover
        else:
            valid_goal = True  # XIV.6: an own goal is always valid (V.9 exception, A12)
            rest = replace(rest, score=add_goal(rest.score, opponent))
            decisions.append(Decision.of("GOAL", team=opponent, own_goal=True))
            restart_by = mover  # V.3: the conceding team starts
            trigger = None
            keep_sanctions = not settings.own_goal_cancels_fouls  # product decision 3, A14

    # 5. penalty shot or advantage (IX.3, shared.referee.advantage)
    privileged = turns.has_privilege(start, mover)
    remaining = start.privilege.remaining if privileged and start.privilege is not None else 0
    in_force = start.privilege if privileged else None
    if start.advantage == mover and privileged:  # IX.3: a move of the advantage
        played = advantage.after_advantage_move(mover, in_force, valid_goal, bool(moves))
        rest = replace(rest, advantage=played.advantage)
        penalty_to = played.penalty_to or penalty_to
    elif trigger is not None and penalty_to is None and start.advantage is None:
        earned = advantage.on_trigger(in_force, mover)  # IX.3: play on with the advantage, or the shot (XV.1)
        decisions.extend(d for d in earned.decisions if d.code == "ADVANTAGE")
        rest = replace(rest, advantage=earned.advantage)
        penalty_to = earned.penalty_to

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
        rest, excluded, choice = _exclude_offender(rest, mover, foul.origin, settings, restart_by is not None)
        decisions.extend(excluded)
        rest = replace(rest, exclusion_choice=choice)
    failure = counted.failure if keep_sanctions else None
    if failure is not None and failure.exclude is not None:  # XI.9 (A25: a goalie's move - the coach may choose)
        rest, excluded, choice = _exclude_offender(
            rest, failure.team, failure.exclude, settings, restart_by is not None, choose=failure.choose
        )
        decisions.extend(excluded)
        rest = replace(rest, exclusion_choice=choice or rest.exclusion_choice)
    if restart_by is not None and rest.activity is not None:  # a restart ends the count (XI)
        decisions.extend(activity.end(rest.activity, "RESTART"))
        rest = replace(rest, activity=None)
    if restart_by is not None or penalty_to is not None:  # XI: nothing left to count after a restart or a shot
        rest = replace(rest, activity_offer=None)
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


def _exclude_offender(
    rest: Position, team: Team, offender: str, settings: Settings, restarted: bool, choose: bool = False
) -> tuple[Position, list[Decision], ExclusionChoice | None]:
    """VIII.1a-b, X.1, XI.9: exclude ``offender`` of ``team`` - the foul's chain origin (A7) or the stone of the
    obliged team's last counted move. When that is the goalie (or ``choose``, A25: a goalie reset) the documented
    default field stone goes instead (XII.7, A47) and the coach may name another before the next move
    (``ExclusionChoice``)."""
    stone = rest.stone(offender)
    if choose or (stone is not None and stone.role == "goalie"):
        default = exclusions.default_exclusion(rest, team, settings.goalie_exclusion_default)
        after, decisions = exclusions.exclude(rest, team, default, settings)
        return after, decisions, exclusions.choice_after(rest, after, team, default, restarted)
    after, decisions = exclusions.exclude(rest, team, offender, settings)
    return after, decisions, None

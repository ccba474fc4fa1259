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

from dataclasses import dataclass, field, replace

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


def reset_record(after: Position) -> MoveRecord:
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
    (V.3, V.4, V.9). Each step is a function below that reads and extends the ``_Verdict`` so far.
    """
    rest = replace(rested_position(start, record), restart=False, exclusion_choice=None, last_mover=mover)
    goalie_move = is_goalie_move(start, stone)
    verdict = _Verdict(rest=rest, decisions=intervention_decisions(record))

    # 1. infringements by the mover (D11): foul (VIII.1, one per move VIII.7), goalie outside its third (XII.8)
    _judge_infringements(verdict, start, mover, stone, record, settings)
    goal: GoalEvent | None = first_goal_event(start, record.events, settings.stone_radius)
    counted = activity_step(
        start, mover, stone, record, verdict.rest, goalie_move, verdict.foul is not None, goal is not None, settings
    )  # XI.9-XI.10: a failure to clear is an infringement of this move (VIII.6)
    verdict.rest = replace(verdict.rest, activity=counted.state, activity_offer=counted.offer)
    verdict.decisions.extend(counted.decisions)
    if counted.failure is not None:
        verdict.moves.append(counted.failure.moves)
    legal = not verdict.moves  # D11, VII.1: no infringement anywhere in the move (A13)

    # 2. the first goal event (XIV.5); 3. the penalty trigger (XV.1-XV.3, XII.11), voided by XV.6 (A36)
    trigger = penalty_trigger(start, mover, goalie_move, record.events, settings.stone_radius, settings.puck_radius)
    verdict.trigger = trigger if legal else None

    # 4. goals
    if goal is not None and goal.against == other(mover):
        _judge_goal_by_mover(verdict, start, mover, goalie_move, legal)
    elif goal is not None:  # own goal (D10)
        _judge_own_goal(verdict, start, mover, goalie_move, legal, record, settings)

    # 5. penalty shot or advantage (IX.3, shared.referee.advantage)
    privileged = turns.has_privilege(start, mover)
    remaining = start.privilege.remaining if privileged and start.privilege is not None else 0
    _judge_shot_or_advantage(verdict, start, mover, privileged)

    # 6. sanctions (VIII.7 cap, IX.1-IX.2, X.1-X.2), after 7. the X.3 returns of a valid goal (A14)
    returning = _return_after_goal(verdict)
    if not verdict.keep_sanctions:
        verdict.moves, verdict.foul = [], None
    granted = turns.cap_moves(verdict.moves, settings)
    cancelled = bool(granted) and privileged and remaining > 1  # IX.1
    _exclude_offenders(verdict, mover, counted.failure if verdict.keep_sanctions else None, settings)
    _end_count_and_award_shot(verdict)

    # 9. the next mover
    _choose_next_mover(verdict, mover, granted, cancelled, settings)
    restart_by = verdict.restart_by
    return Ruling(in_contract_order(verdict.decisions), verdict.rest, restart_by,
                  returning if restart_by is not None else ())


@dataclass(slots=True, kw_only=True)
class _Verdict:
    """One move's judgement while ``judge_move`` builds it, step by step in Appendix A's order (a value local to
    one call: each step reads what the earlier ones decided and adds its own)."""

    rest: Position  # the position at rest, changed by each step's rulings
    decisions: list[Decision]
    moves: list[int] = field(default_factory=list)  # the privilege moves each infringement gives the opponent
    foul: FoulRecord | None = None  # VIII.1, VIII.7: the one foul the move counts
    trigger: PenaltyTrigger | None = None  # XV.1-XV.3: what earned a penalty shot, unless voided
    restart_by: Team | None = None  # V.3, V.4, V.9: the team restarting from the basic setup
    valid_goal: bool = False
    penalty_to: Team | None = None  # XV.1, IX.3-IX.4: the team awarded a penalty shot
    keep_sanctions: bool = True  # product decision 3, A14: an own goal may cancel the mover's fouls


def _judge_infringements(
    verdict: _Verdict, start: Position, mover: Team, stone: str, record: MoveRecord, settings: Settings
) -> None:
    """Step 1 (D11): the mover's foul (VIII.1a-b, one per move VIII.7) and its goalie outside the third (XII.8)."""
    foul: FoulRecord | None = counted_foul(
        start, mover, stone, record.events, settings.simultaneous_steps, settings.stone_radius
    )
    outside_third = goalie_outside_third(start, mover, stone, record.events, settings.puck_radius)
    if foul is not None:
        verdict.decisions.append(
            Decision.of("FOUL", team=mover, kind=foul.kind, stone=foul.origin, victim=foul.victim)
        )
        verdict.moves.append(settings.privilege_moves)  # VIII.1a-b
    if outside_third:
        verdict.decisions.append(Decision.of("GOALIE_OUTSIDE_THIRD", team=mover))
        verdict.moves.append(2)  # XII.8: the opponent gets 2 consecutive moves
    verdict.foul = foul


def _judge_goal_by_mover(verdict: _Verdict, start: Position, mover: Team, goalie_move: bool, legal: bool) -> None:
    """Step 4 when the mover scores: valid (V.3), or disallowed after a restart (V.9), by the goalie (XII.9) or
    from an illegal move (XIV.1) - then the mover restarts (V.4)."""
    reason = None
    if start.restart:
        reason = "FIRST_MOVE_AFTER_RESTART"  # V.9, A46: no privilege for this, the same team restarts
    elif goalie_move:
        reason = "GOALIE_MOVE"  # XII.9
        verdict.moves.append(2)  # XII.9: +2; with XII.8 the cap gives XII.10's 3 moves
    elif not legal:
        reason = "ILLEGAL_MOVE"  # XIV.1, D11, A13
    if reason is None:
        verdict.valid_goal = True
        verdict.rest = replace(verdict.rest, score=add_goal(verdict.rest.score, mover))
        verdict.decisions.append(Decision.of("GOAL", team=mover, own_goal=False))
        verdict.restart_by = other(mover)  # V.3
        verdict.trigger = None  # XV.5 first sentence, A31: the goal counts, no penalty shot
    else:
        verdict.decisions.append(Decision.of("GOAL_DISALLOWED", team=mover, reason=reason))
        verdict.restart_by = mover  # V.4, V.9, XII.9


def _judge_own_goal(
    verdict: _Verdict, start: Position, mover: Team, goalie_move: bool, legal: bool, record: MoveRecord,
    settings: Settings,
) -> None:
    """Step 4 for an own goal (D10): valid (XIV.6), unless it rebounded off a penalty-position stone (IX.4)."""
    if legal and advantage.rebound_penalty(start, mover, goalie_move, record.events, settings) is not None:
        # IX.4, XIV.6 third exception, XV.5: off a penalty-position stone into the own goal - void, penalty
        verdict.decisions.append(
            Decision.of("GOAL_DISALLOWED", team=other(mover), reason="REBOUND_FROM_PENALTY_POSITION")
        )
        verdict.penalty_to = mover
        return
    verdict.valid_goal = True  # XIV.6: an own goal is always valid (V.9 exception, A12)
    verdict.rest = replace(verdict.rest, score=add_goal(verdict.rest.score, other(mover)))
    verdict.decisions.append(Decision.of("GOAL", team=other(mover), own_goal=True))
    verdict.restart_by = mover  # V.3: the conceding team starts
    verdict.trigger = None
    verdict.keep_sanctions = not settings.own_goal_cancels_fouls  # product decision 3, A14


def _judge_shot_or_advantage(verdict: _Verdict, start: Position, mover: Team, privileged: bool) -> None:
    """Step 5 (IX.3): a move of a running advantage, or a trigger that starts one or earns the shot (XV.1)."""
    in_force = start.privilege if privileged else None
    if start.advantage == mover and privileged:  # IX.3: a move of the advantage
        played = advantage.after_advantage_move(mover, in_force, verdict.valid_goal, bool(verdict.moves))
        verdict.rest = replace(verdict.rest, advantage=played.advantage)
        verdict.penalty_to = played.penalty_to or verdict.penalty_to
    elif verdict.trigger is not None and verdict.penalty_to is None and start.advantage is None:
        earned = advantage.on_trigger(in_force, mover)  # IX.3: play on with the advantage, or the shot (XV.1)
        verdict.decisions.extend(d for d in earned.decisions if d.code == "ADVANTAGE")
        verdict.rest = replace(verdict.rest, advantage=earned.advantage)
        verdict.penalty_to = earned.penalty_to


def _return_after_goal(verdict: _Verdict) -> tuple[str, ...]:
    """Step 7 (X.3): after a valid goal an excluded stone of each team returns; the ids of those returning."""
    if not verdict.valid_goal:
        return ()
    verdict.rest, returned = exclusions.returns_after_goal(verdict.rest)
    verdict.decisions.extend(returned)
    return tuple(d.get("stone") for d in returned)


def _exclude_offenders(
    verdict: _Verdict, mover: Team, failure: ActivityFailure | None, settings: Settings
) -> None:
    """Step 6 (X.1): exclude the fouler's chain origin, and the stone of a failed activity count (XI.9)."""
    restarted = verdict.restart_by is not None
    if verdict.foul is not None:
        verdict.rest, excluded, choice = _exclude_offender(verdict.rest, mover, verdict.foul.origin, settings,
                                                           restarted)
        verdict.decisions.extend(excluded)
        verdict.rest = replace(verdict.rest, exclusion_choice=choice)
    if failure is not None and failure.exclude is not None:  # XI.9 (A25: a goalie's move - the coach may choose)
        verdict.rest, excluded, choice = _exclude_offender(
            verdict.rest, failure.team, failure.exclude, settings, restarted, choose=failure.choose
        )
        verdict.decisions.extend(excluded)
        verdict.rest = replace(verdict.rest, exclusion_choice=choice or verdict.rest.exclusion_choice)


def _end_count_and_award_shot(verdict: _Verdict) -> None:
    """A restart ends the activity count (XI); an awarded penalty shot (XV.1) is set pending and its restart
    comes after the shot (XV.14, V.5), not after this move."""
    if verdict.restart_by is not None and verdict.rest.activity is not None:  # a restart ends the count (XI)
        verdict.decisions.extend(activity.end(verdict.rest.activity, "RESTART"))
        verdict.rest = replace(verdict.rest, activity=None)
    if verdict.restart_by is not None or verdict.penalty_to is not None:  # XI: nothing left to count
        verdict.rest = replace(verdict.rest, activity_offer=None)
    if verdict.penalty_to is not None:
        verdict.decisions.append(Decision.of("PENALTY_SHOT", team=verdict.penalty_to))
        verdict.rest = replace(verdict.rest, penalty_shot=verdict.penalty_to, advantage=None)
        verdict.restart_by = None  # XV.14: the restart follows the shot (V.5), not this move


def _choose_next_mover(verdict: _Verdict, mover: Team, granted: int, cancelled: bool, settings: Settings) -> None:
    """Step 9: a cancelled privilege (IX.1), the restarting team (with the opponent's privilege after the restart
    move, A14), the opponent with its privilege (VIII.1, IX.2), or the ordinary turn (VI.1)."""
    opponent = other(mover)
    if cancelled:
        verdict.decisions.append(Decision.of("PRIVILEGE_CANCELLED", team=mover))  # IX.1: one move each from now on
        verdict.rest = replace(verdict.rest, privilege=None, advantage=None)
        granted = 0
    if verdict.restart_by is not None:
        rest = verdict.rest
        held = rest.privilege if rest.privilege is not None and rest.privilege.team == opponent else None
        rest = replace(rest, privilege=held, advantage=None)  # a restart ends the mover's running privilege
        if granted:
            privilege = turns.privilege_granted(rest, opponent, granted)  # A14: after the restart move
            rest = replace(rest, privilege=privilege)
            verdict.decisions.append(Decision.of("PRIVILEGE", team=opponent, moves=privilege.total))
        verdict.rest = replace(rest, to_move=verdict.restart_by)
    elif granted:
        privilege = turns.privilege_granted(verdict.rest, opponent, granted)
        verdict.rest = replace(verdict.rest, privilege=privilege, to_move=opponent, advantage=None)
        verdict.decisions.append(Decision.of("PRIVILEGE", team=opponent, moves=privilege.total))
        verdict.rest = turns.with_snapshot(verdict.rest, settings)
    elif cancelled:
        verdict.rest = replace(verdict.rest, to_move=opponent)
    else:
        verdict.rest = turns.pass_turn(verdict.rest, mover, settings)


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

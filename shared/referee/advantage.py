"""IX.3-IX.6, A43, A44: the advantage - a privileged team that earned a penalty shot may play on.

Why a module of its own: an advantage is a ruling that spans several moves (the moves left of a
privilege), so it is state (``Position.advantage``: the team playing it) plus a few transitions: it
starts when the trigger comes with a privilege move still to play, it ends in a goal (no shot), an
infringement (no shot, the infringement is penalised) or the last privileged move (the shot), and the
coach may cut it short with ``take_penalty`` (A44). The predicates of IX.4-IX.6 over the privilege
snapshot are here too, built on part 1's trigger and goal detection.

Engine calls: ``on_trigger`` at Appendix A step 5 when a (legal) trigger is found; ``after_advantage_move``
after every move of the team playing an advantage; ``check_take_penalty`` / ``take_penalty`` for the
action; ``at_siren`` at the siren (IX.8 with A43).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from shared.events import Event
from shared.model import Position, Privilege, TakePenalty, Team
from shared.outcome import Decision, RuleError
from shared.referee.goals import empty_goal_stones, first_goal_event, last_stone_touch_before
from shared.referee.penalty import penalty_trigger
from shared.rulesets import Settings


@dataclass(frozen=True, slots=True)
class AdvantageOutcome:
    """What an advantage move leads to: the advantage still running (``advantage``), or a shot for
    ``penalty_to``, with the decisions to announce."""

    advantage: Team | None
    penalty_to: Team | None
    decisions: tuple[Decision, ...]


def advantage_applies(privilege: Privilege | None, mover: Team) -> bool:
    """IX.3: the trigger came in a privileged move that is not the last (first of 2, first or second of 3).

    ``privilege`` is the one in force when the move began, so ``remaining`` still counts this move.
    """
    return privilege is not None and privilege.team == mover and privilege.remaining > 1


def on_trigger(privilege: Privilege | None, mover: Team) -> AdvantageOutcome:
    """IX.3, XV.1: a legal penalty trigger by ``mover`` - an advantage if privilege moves remain, else the shot."""
    if advantage_applies(privilege, mover):
        return AdvantageOutcome(mover, None, (Decision.of("ADVANTAGE", team=mover),))
    return AdvantageOutcome(None, mover, (Decision.of("PENALTY_SHOT", team=mover),))


def after_advantage_move(
    advantage: Team, privilege: Privilege | None, goal_counted: bool, infringed: bool
) -> AdvantageOutcome:
    """IX.3: the team playing the advantage made a move (``privilege`` as it was when the move began).

    A goal that counts (own goals included) ends it with no shot; a foul or other infringement ends it
    with no shot (the engine penalises the infringement as usual); after the last privileged move the
    shot is taken; otherwise the advantage goes on.
    """
    if goal_counted or infringed:
        return AdvantageOutcome(None, None, ())
    if privilege is None or privilege.team != advantage or privilege.remaining <= 1:
        return AdvantageOutcome(None, advantage, (Decision.of("PENALTY_SHOT", team=advantage),))
    return AdvantageOutcome(advantage, None, ())


def check_take_penalty(position: Position, action: TakePenalty) -> RuleError | None:
    """IX.3, A44: ``take_penalty`` is allowed to the team playing an advantage, on its turn."""
    if position.advantage is None:
        return RuleError("ACTION_NOT_ALLOWED", "there is no advantage to cut short (IX.3)")
    if position.advantage != action.team:
        return RuleError("ACTION_NOT_ALLOWED", f"the advantage is {position.advantage}'s, not {action.team}'s (IX.3)")
    if position.to_move != action.team:
        return RuleError("NOT_YOUR_TURN", f"{action.team} may take the penalty shot only on its own turn (IX.3)")
    return None


def take_penalty(position: Position, action: TakePenalty) -> tuple[Position, tuple[Decision, ...]]:
    """IX.3, A44: the team stops playing the advantage; the rest of its privilege lapses and the shot follows."""
    shot = replace(position, privilege=None, advantage=None, penalty_shot=action.team)
    return shot, (Decision.of("PENALTY_SHOT", team=action.team),)


def at_siren(advantage: Team | None) -> AdvantageOutcome:
    """IX.8 with A43: an advantage pending at the siren becomes a penalty shot that is taken (XV.8, XV.10)."""
    if advantage is None:
        return AdvantageOutcome(None, None, ())
    return AdvantageOutcome(None, advantage, (Decision.of("PENALTY_SHOT", team=advantage),))


def rebound_penalty(
    start: Position, mover: Team, goalie_move: bool, events: tuple[Event, ...], settings: Settings
) -> str | None:
    """IX.4, XIV.6, XV.5: the eligible stone the puck rebounded off into the mover's own goal, or None.

    The own goal is then void and a penalty shot is awarded to the mover - unless the move was made with
    the goalie (A45), after which the own goal counts. During a privilege only stones of the snapshot taken
    when it began are eligible, so a stone pushed into the crease during it gives a valid own goal (IX.5).
    """
    if goalie_move:
        return None
    goal = first_goal_event(start, events, settings.stone_radius)
    if goal is None or goal.against != mover:
        return None
    trigger = penalty_trigger(start, mover, goalie_move, events, settings.stone_radius, settings.puck_radius)
    if trigger is None or trigger.step > goal.step:
        return None
    if last_stone_touch_before(events, goal.step) != trigger.stone:
        return None
    return trigger.stone


def empty_goal(start: Position, team: Team, settings: Settings) -> tuple[str, ...]:
    """IX.6, XII.12-XII.13: ``team``'s stones whose touch by the puck is a goal against ``team`` in the next
    move - those lying behind ``team``'s goal line in a non-defending position at the move's start (also
    when the opponent's privileged move pushed them there), or behind an auxiliary line."""
    end = start.own_end(team)
    found = empty_goal_stones(start, settings.stone_radius)
    return tuple(sorted(stone for stone, at in found.items() if at == end))


def snapshot_eligible(privilege: Privilege | None, mover: Team, stone: str) -> bool:
    """IX.3-IX.5: during ``mover``'s privilege only stones of the snapshot can earn a penalty shot.

    Outside a privilege of the mover every stone in a penalty position is eligible (XV.1); once the
    privilege is over, a stone pushed in during it is eligible like any other (IX.5 last sentence).
    """
    if privilege is None or privilege.team != mover:
        return True
    return stone in privilege.snapshot


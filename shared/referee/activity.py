"""XI (the activity rule, anti-stalling): counting the obliged team's moves, clearing, blocking, failing.

Why a module of its own: the count is a small state machine that runs across moves of both teams
(``ActivityCount``): the counting team C declares and counts (the ``count`` action, XI.3), the obliged
team O must clear the puck within ``limit`` moves (XI.1-XI.2), C may block only before O's last counted
move (XI.5-XI.6), stones O pushes forward must come back (XI.8), and a failure costs O an exclusion and
two moves (XI.9-XI.10). Every transition is a pure function returning the new state (None when the
count ended) and the SCENARIOS.md decisions.

Engine calls (``state`` is ``Position.activity``):

* ``count_action`` for C's ``count`` action (declaration, counting each move, or stop in the auto variant);
  counting may also start right after O's move when the XI.1 precondition held at that move's start - the
  count then starts at 1 (``count_after_move`` computes it at the move's end, ``Position.activity_offer``
  keeps it until C's count or C's next other action);
* ``before_action`` before any other action of C: the XI.3 lapse when C did not count O's last move;
* ``after_obliged_move`` after each move of O that did not end in a goal, restart or penalty shot (a goalie
  hand reset included, A24) - it reports a failure (``ActivityVerdict.failure``) for Appendix A step 1;
* ``after_counting_move`` after each move of C;
* ``end`` when a goal, a restart, a penalty shot or the end of the part stops the count.

Reasons of ``ACTIVITY_ENDED``: CLEARED (XI.4), NOT_COUNTED (XI.3 lapse), STOPPED (auto variant), PUCK_TOUCHED
(XI.5, A61), EARLY_ENTRY (XI.6), FOUL (XI.7), NOT_RETURNED (XI.8), and the engine's GOAL, RESTART,
PENALTY_SHOT, PART_ENDED.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from shared import geometry
from shared.events import Contact, MoveRecord, body_end
from shared.model import PUCK_ID, ActivityCount, Count, Position, Stone, Team, other
from shared.outcome import Decision, RuleError
from shared.referee.exclusions import field_count
from shared.referee.goalie import puck_played
from shared.rulesets import Settings


@dataclass(frozen=True, slots=True)
class ActivityFailure:
    """XI.9-XI.10: O failed to clear. ``exclude`` is the stone to exclude (None: the "only three field
    stones" clause of XI.9, or XI.10 where the foul's own exclusion applies); ``choose`` is A25 (the last
    counted move was a goalie move: the coach names a field stone, ``exclude`` is then the goalie's id).
    ``moves`` are the privilege moves for C; with a foul in the same move the VIII.7 cap makes 2 + 2
    the 3 of XI.10 / VIII.6."""

    team: Team
    stone: str
    exclude: str | None
    choose: bool
    moves: int


@dataclass(frozen=True, slots=True)
class ActivityVerdict:
    """The count after a move (None when it ended), the decisions, and a failure if O failed to clear."""

    state: ActivityCount | None
    decisions: tuple[Decision, ...]
    failure: ActivityFailure | None = None


# --------------------------------------------------------------------------- predicates (D8, XI.1, XI.4)


def retreated(stone: Stone, position: Position, radius: float) -> bool:
    """D8 Retreated, XI.1, A22: the stone touches its own half or the centre line, or the centre circle."""
    end = position.own_end(stone.team)
    return geometry.in_own_half_or_centre_line(stone.x, stone.y, radius, end) or geometry.touches_centre_circle(
        stone.x, stone.y, radius
    )


def puck_cleared_zone(position: Position, obliged: Team, radius: float) -> bool:
    """D8 Cleared, XI.4: the puck touches the opponent's half, the centre line or the centre circle."""
    x, y = position.puck.x, position.puck.y
    counting_end = position.own_end(other(obliged))
    return geometry.in_own_half_or_centre_line(x, y, radius, counting_end) or geometry.touches_centre_circle(
        x, y, radius
    )


def not_retreated(position: Position, team: Team, radius: float) -> tuple[str, ...]:
    """``team``'s stones in the opponent's half (not Retreated), in position order."""
    return tuple(s.id for s in position.team_stones(team) if not retreated(s, position, radius))


def precondition(position: Position, counting: Team, settings: Settings) -> str | None:
    """XI.1: why counting cannot start now, or None when every C stone has retreated and the puck is in O's half."""
    away = not_retreated(position, counting, settings.stone_radius)
    if away:
        return f"{', '.join(away)} of {counting} still in the opponent's half (XI.1)"
    if puck_cleared_zone(position, other(counting), settings.puck_radius):
        return f"the puck is not in {other(counting)}'s half (XI.1)"
    return None


def limit_for(position: Position, counting: Team, settings: Settings) -> int:
    """XI.1-XI.2, A20: 5 moves, or 4 when the counting team is losing when counting starts (frozen then)."""
    if position.score_of(counting) < position.score_of(other(counting)):
        return settings.activity_limit_losing
    return settings.activity_limit


def rebound_clears(start: Position, record: MoveRecord, counting: Team) -> bool:
    """XI.4, A21: the puck rebounded off the board beyond C's goal line (end board or corners), C's goal
    frame or net, or C's goalie during the move."""
    end = start.own_end(counting)
    goalies = {s.id for s in start.team_stones(counting) if s.role == "goalie"}
    for event in record.events:
        if not (isinstance(event, Contact) and event.involves(PUCK_ID)):
            continue
        body = event.other(PUCK_ID)
        if body in goalies or body_end(body) == end:  # body_end: C's frame, net, end board or corners only
            return True
    return False


def cleared(
    start: Position, record: MoveRecord | None, rest: Position, state: ActivityCount, settings: Settings
) -> bool:
    """XI.4: O's move cleared the puck - at rest in the cleared zone, or by a rebound of A21."""
    if puck_cleared_zone(rest, state.obliged, settings.puck_radius):
        return True
    return record is not None and rebound_clears(start, record, state.counting)


# --------------------------------------------------------------------------- transitions


def end(state: ActivityCount, reason: str) -> tuple[Decision, ...]:
    """The count stops: ``ACTIVITY_ENDED`` with the counting team and why."""
    return (Decision.of("ACTIVITY_ENDED", team=state.counting, reason=reason),)


def _counted(state: ActivityCount, count: int) -> Decision:
    """``ACTIVITY_COUNT``: C counted ``count`` of ``limit`` (0 at the declaration)."""
    return Decision.of("ACTIVITY_COUNT", team=state.counting, count=count, limit=state.limit)


def count_after_move(
    start: Position, record: MoveRecord | None, rest: Position, mover: Team, stone: str, goalie_move: bool,
    fouled: bool, settings: Settings,
) -> ActivityCount | None:
    """XI.1, XI.3 (SCENARIOS.md ``count``): the count the opponent of ``mover`` starts by counting this move right
    after it - the count as it stands after the move had it been declared before it - or None.

    Only when no count runs, the XI.1 precondition held for the opponent at the move's start, and the move, as a
    counted move, neither cleared the puck nor failed (a limit of 1): there is then one move to count (count 1,
    not yet counted aloud). The limit is frozen at the move's start (A20).
    """
    counting = other(mover)
    if start.activity is not None or precondition(start, counting, settings) is not None:
        return None
    declared = ActivityCount(counting=counting, obliged=mover, limit=limit_for(start, counting, settings))
    verdict = after_obliged_move(start, record, rest, declared, stone, goalie_move, fouled, settings)
    if verdict.state is None or verdict.failure is not None:
        return None
    return replace(verdict.state, confirmed=0)


def count_action(
    position: Position, state: ActivityCount | None, action: Count, settings: Settings
) -> RuleError | tuple[ActivityCount | None, tuple[Decision, ...]]:
    """XI.1-XI.3, A23, A57: C's ``count`` - declare counting, count O's last move aloud, or (auto) stop.

    The declaration needs the XI.1 precondition and O about to move; it freezes the limit (A20) and
    counts 0. Counting may also start right after O's move when the precondition held at its start
    (``Position.activity_offer``): that count counts the move, 1. In the faithful variant each later
    ``count`` counts one O move made since the last count. In the auto-count variant the declaration is
    the only count and another ``count`` stops counting.
    """
    team = action.team
    if state is None:
        offer = position.activity_offer
        if offer is not None and offer.counting == team:  # XI.3: counting O's move right after it
            started = replace(offer, confirmed=offer.count)
            return started, (_counted(started, started.count),)
        if position.to_move == team:
            message = (f"{team} may start counting only when {other(team)} is to move, or right after a move of "
                       f"{other(team)} that began with the XI.1 precondition met (XI.3)")
            return RuleError("ACTION_NOT_ALLOWED", message)
        reason = precondition(position, team, settings)
        if reason is not None:
            return RuleError("ACTION_NOT_ALLOWED", f"{team} cannot start counting: {reason}")
        started = ActivityCount(counting=team, obliged=other(team), limit=limit_for(position, team, settings))
        return started, (_counted(started, 0),)
    if state.counting != team:
        return RuleError("ACTION_NOT_ALLOWED", f"{team} is the obliged team; only {state.counting} counts (XI.3)")
    if settings.activity_auto_count:
        return None, end(state, "STOPPED")
    if state.confirmed >= state.count:
        return RuleError("ACTION_NOT_ALLOWED", f"{other(team)} has made no move since the last count (XI.3)")
    confirmed = replace(state, confirmed=state.confirmed + 1)
    return confirmed, (_counted(confirmed, confirmed.confirmed),)


def before_action(state: ActivityCount | None, team: Team, settings: Settings) -> ActivityVerdict:
    """XI.3: C acts (anything but ``count``) without having counted O's last move - counting lapses."""
    if state is None or settings.activity_auto_count or team != state.counting or state.confirmed >= state.count:
        return ActivityVerdict(state, ())
    return ActivityVerdict(None, end(state, "NOT_COUNTED"))


def after_obliged_move(
    start: Position,
    record: MoveRecord | None,
    rest: Position,
    state: ActivityCount,
    stone: str,
    goalie_move: bool,
    fouled: bool,
    settings: Settings,
) -> ActivityVerdict:
    """XI.1-XI.4, XI.8-XI.10, A24: O made a counted move with ``stone`` (``record`` None for a goalie reset).

    Cleared: the count ends. Not cleared on the limit-th move: ``ACTIVITY_FAILED`` and the failure's
    sanction (XI.9; XI.10 with a foul in the same move). Otherwise C stones O pushed into O's half are
    remembered (XI.8), and in the auto variant the move is counted for C.
    """
    state = replace(state, count=state.count + 1, last_stone=stone, last_goalie=goalie_move)
    if cleared(start, record, rest, state, settings):
        return ActivityVerdict(None, end(state, "CLEARED"))
    if state.count >= state.limit:
        only_minimum = field_count(rest, state.obliged) <= settings.min_field_stones  # XI.9: no exclusion
        exclude = None if fouled or only_minimum else stone  # XI.10: the foul's exclusion applies instead
        failure = ActivityFailure(state.obliged, stone, exclude, goalie_move and exclude is not None, 2)
        return ActivityVerdict(None, (Decision.of("ACTIVITY_FAILED", team=state.obliged, stone=stone),), failure)
    pushed = tuple(dict.fromkeys((*state.pushed, *not_retreated(rest, state.counting, settings.stone_radius))))
    state = replace(state, pushed=pushed)  # XI.8
    if settings.activity_auto_count:
        state = replace(state, confirmed=state.count)
        return ActivityVerdict(state, (_counted(state, state.count),))
    return ActivityVerdict(state, ())


def puck_moved(record: MoveRecord | None) -> bool:
    """XI.5: the puck was touched during the move, directly or through any stone (it collided with something)."""
    return record is not None and puck_played(record.events)


def after_counting_move(
    record: MoveRecord | None, rest: Position, state: ActivityCount, fouled: bool, settings: Settings
) -> ActivityVerdict:
    """XI.5-XI.8, A61: C made a move (``record`` None for a goalie reset).

    It ends the count when C fouled (XI.7), moved the puck (XI.5, A61), left a stone pushed by O out of
    its retreat zone (XI.8), or has a stone in O's half outside the blocking window - the move between O's
    (limit-1)-th and limit-th counted moves (XI.5, XI.6).
    """
    if fouled:
        return ActivityVerdict(None, end(state, "FOUL"))
    if puck_moved(record):
        return ActivityVerdict(None, end(state, "PUCK_TOUCHED"))
    away = not_retreated(rest, state.counting, settings.stone_radius)
    if any(stone in away for stone in state.pushed):
        return ActivityVerdict(None, end(state, "NOT_RETURNED"))
    if away and state.count != state.limit - 1:
        return ActivityVerdict(None, end(state, "EARLY_ENTRY"))
    return ActivityVerdict(replace(state, pushed=()), ())

"""XI.3 (SCENARIOS.md ``count``): counting may start with a declaration before the obliged team's first move
(count 0), or with the count of that move, sent right after it, when the XI.1 precondition held at its start
(count 1)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from shared import notation
from shared.match import apply_action, prompts
from shared.model import ActivityCount, Count, Flick, Position
from shared.referee import activity
from tests.referee.builders import SETTINGS, position, stone
from tests.referee.engine_positions import aimed


def stalling(**fields: Any) -> Position:
    """Away (C) has withdrawn into its half, the puck lies in home's half, home (O) is to move."""
    start = position(stone("h2", -300, 100), stone("h3", -200, -150), stone("a2", 100, 200), puck=(-250, 0))
    return replace(start, **fields) if fields else start


def _first_move(start: Position) -> Position:
    """Home's h3 moves up its own half without touching the puck: an obliged move that does not clear."""
    moved = apply_action(start, Flick("home", "h3", 0, 200))
    assert moved.accepted and moved.position.to_move == "away"
    return moved.position


def test_XI_3_a_count_right_after_the_obliged_teams_first_move_starts_the_count_at_1() -> None:
    """XI.1, XI.3: the precondition held when home began its move, so away's count sent right after it counts that
    move - ACTIVITY_COUNT 1 of 5 - and the count goes on from there."""
    counted = apply_action(_first_move(stalling()), Count("away"))
    assert counted.accepted
    assert [d.to_json() for d in counted.decisions] == [{"code": "ACTIVITY_COUNT", "team": "away", "count": 1,
                                                         "limit": 5}]
    state = counted.position.activity
    assert state is not None and (state.counting, state.obliged, state.count, state.confirmed) == ("away", "home", 1, 1)
    assert counted.position.activity_offer is None
    away = apply_action(counted.position, Flick("away", "a2", 0, -100))
    again = apply_action(away.position, Flick("home", "h2", 0, -60))
    assert again.position.activity is not None and again.position.activity.count == 2


def test_XI_3_the_declaration_before_the_first_move_stays_valid() -> None:
    """XI.3: the other form - away declares while home is to move (count 0), then counts the move (count 1)."""
    declared = apply_action(stalling(), Count("away"))
    assert [d.get("count") for d in declared.decisions] == [0]
    counted = apply_action(_first_move(declared.position), Count("away"))
    assert [d.get("count") for d in counted.decisions] == [1]


def test_XI_3_no_count_after_a_move_that_began_without_the_precondition() -> None:
    """XI.1: an away stone was still in home's half when home moved, so there is no move to count afterwards."""
    start = stalling(stones=(*stalling().stones, stone("a3", -100, -250)))
    refused = apply_action(_first_move(start), Count("away"))
    assert refused.error is not None and refused.error.code == "ACTION_NOT_ALLOWED"


def test_XI_3_the_count_after_the_move_lapses_with_the_counting_teams_next_action() -> None:
    """XI.3: the count must come right after the move - once away has done something else, a count can only be a
    declaration (count 0) before home's next move."""
    after = _first_move(stalling())
    own = apply_action(after, Flick("away", "a2", 0, -100))  # a2 stays in away's half
    assert own.accepted and own.position.activity_offer is None and own.position.to_move == "home"
    declared = apply_action(own.position, Count("away"))
    assert [d.get("count") for d in declared.decisions] == [0]


def test_XI_4_a_first_move_that_clears_leaves_nothing_to_count() -> None:
    """XI.4: home's first move drives the puck onto the centre circle - the move cleared it, no count can start on
    it."""
    cleared = apply_action(stalling(), aimed(stalling(), "h2", (300, -100), 3000))
    assert cleared.accepted and activity.puck_cleared_zone(cleared.position, "home", SETTINGS.puck_radius)
    assert cleared.position.activity_offer is None
    assert apply_action(cleared.position, Count("away")).error is not None


def test_XI_3_the_count_after_the_move_is_offered_and_round_trips_in_the_position() -> None:
    """XI.3: the count away may start now is among the offers (no default: not counting), and the position keeps
    it through its JSON form, so a scenario may start right after home's move."""
    after = _first_move(stalling())
    offered = [(p.kind, p.team, p.default) for p in prompts(after, offers=True)]
    assert ("count", "away", None) in offered
    assert after.activity_offer == ActivityCount(counting="away", obliged="home", limit=5, count=1, confirmed=0,
                                                 pushed=(), last_stone="h3", last_goalie=False)
    read = notation.position_from_json(notation.position_to_json(after))
    assert read.activity_offer == after.activity_offer
    assert [d.get("count") for d in apply_action(read, Count("away")).decisions] == [1]

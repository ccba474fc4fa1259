"""A35, A33, A47, XI.3 (product decision 4): running out of time is a ruling players see - ``TIMEOUT`` with the
team whose clock ran out and, for a choice, its kind, followed by what the timeout brings."""

from __future__ import annotations

from shared.match import apply_action, apply_event, prompts, timeout
from shared.model import Count, Flick, Privilege, Timeout
from shared.outcome import Decision
from tests.referee.builders import codes, position, stone
from tests.referee.engine_positions import shot_position
from tests.referee.test_count_after_the_first_move import stalling


def test_A35_a_move_clock_timeout_is_ruled_TIMEOUT_for_the_team_with_no_kind() -> None:
    """A35: home's move clock runs out - TIMEOUT home (kind null) is the ruling, and the turn passes to away."""
    start = position(stone("h2", -100, 0), stone("a2", 100, 0))
    result = apply_event(start, Timeout("home"))
    assert [d.to_json() for d in result.decisions] == [{"code": "TIMEOUT", "team": "home", "kind": None}]
    assert result.position.to_move == "away" and result.position.move_number == 0
    assert timeout(start, "home").decisions == result.decisions


def test_A35_a_timed_out_privilege_move_is_ruled_like_any_other() -> None:
    """A35, product decision 4: a privilege move lost to the clock is told TIMEOUT; the privileged team keeps the
    turn for its remaining move."""
    start = position(stone("h2", -100, 0), stone("a2", 100, 0), privilege=Privilege("home", 2, 2))
    result = timeout(start, "home")
    assert result.decisions == (Decision.of("TIMEOUT", team="home", kind=None),)
    assert result.position.to_move == "home"


def test_A35_XV_18_a_timeout_in_a_penalty_shot_is_told_before_the_shot_fails() -> None:
    """A35 with XV.18: TIMEOUT comes first, then the shot's end (TIME) and what follows it."""
    result = timeout(shot_position(), "home")
    assert codes(result.decisions)[:2] == ["TIMEOUT", "PENALTY_SHOT_ENDED"]
    assert result.decisions[0].to_json() == {"code": "TIMEOUT", "team": "home", "kind": None}


def test_XI_3_a_timed_out_count_is_ruled_TIMEOUT_with_its_kind_then_the_count() -> None:
    """XI.3, A33: away does not count home's move in time - TIMEOUT away "count", then the default's own ruling
    (the move is counted, 1 of 5)."""
    declared = apply_action(stalling(), Count("away")).position
    moved = apply_action(declared, Flick("home", "h3", 0, 200)).position
    assert [p.kind for p in prompts(moved)] == ["count"]
    result = apply_event(moved, Timeout("away", "count"))
    assert [d.to_json() for d in result.decisions] == [
        {"code": "TIMEOUT", "team": "away", "kind": "count"},
        {"code": "ACTIVITY_COUNT", "team": "away", "count": 1, "limit": 5},
    ]


def test_A33_a_timed_out_penalty_shot_setup_is_ruled_TIMEOUT_with_its_kind() -> None:
    """XV.11, A33: the defending coach does not place the goalie in time - TIMEOUT away "setup"; the default
    (the goalie stays centred) has no ruling of its own."""
    result = timeout(shot_position(), "away", "setup")
    assert [d.to_json() for d in result.decisions] == [{"code": "TIMEOUT", "team": "away", "kind": "setup"}]
    assert result.position.penalty is not None and result.position.penalty.goalie_set


def test_A35_a_refused_timeout_rules_nothing() -> None:
    """A35: a timeout of the team not to move, or of a choice nobody is asked for, is refused and tells nothing."""
    start = position(stone("h2", -100, 0), stone("a2", 100, 0))
    for refused in (timeout(start, "away"), timeout(start, "home", "count")):
        assert not refused.accepted and refused.decisions == () and refused.position is start

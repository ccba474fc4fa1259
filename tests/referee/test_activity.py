"""XI (the activity rule): declaring and counting, clearing, blocking, pushed stones and failures."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from shared.events import Event, MoveRecord
from shared.model import ActivityCount, Count, Position
from shared.outcome import RuleError
from shared.referee import activity
from shared.referee.turns import cap_moves
from tests.referee.builders import SETTINGS, contact, position, record, stone

# away (C) defends x > 0 and has withdrawn; home (O) has the puck in its own half (x < 0).


def stalling(**fields: Any) -> Position:
    """All away stones retreated, the puck deep in home's half, home to move."""
    base = position(
        stone("h2", -300.0, 0.0), stone("h3", -200.0, 100.0), stone("h4", -200.0, -100.0), stone("h5", -400.0, 50.0),
        stone("a2", 100.0, 0.0), stone("a3", 300.0, 60.0), stone("a4", -10.0, 120.0),
        puck=(-330.0, 0.0), to_move="home",
    )
    return replace(base, **fields) if fields else base


def counting(count: int = 0, confirmed: int | None = None, limit: int = 5) -> ActivityCount:
    """A running count of home's moves by away."""
    return ActivityCount(counting="away", obliged="home", limit=limit, count=count,
                         confirmed=count if confirmed is None else confirmed)


def moved(start: Position, *events: Event, **where: tuple[float, float]) -> tuple[MoveRecord, Position]:
    """The record of a move and the position at rest it leads to."""
    rec = record(start, *events, moved=dict(where))
    final = {b.id: b for b in rec.final}
    stones = tuple(s.at(final[s.id].x, final[s.id].y) for s in start.stones)
    rest = replace(start, stones=stones, puck=replace(start.puck, x=final["puck"].x, y=final["puck"].y))
    return rec, rest


def codes(verdict: activity.ActivityVerdict) -> list[dict[str, object]]:
    """The decisions as JSON."""
    return [d.to_json() for d in verdict.decisions]


def test_XI_1_counting_starts_when_all_stones_retreated_and_puck_in_obliged_half():
    """XI.1, A22: a4 touching the centre circle in home's half counts as retreated; the count starts at 0."""
    result = activity.count_action(stalling(), None, Count("away"), SETTINGS)
    assert not isinstance(result, RuleError)
    state, decisions = result
    assert state == ActivityCount(counting="away", obliged="home", limit=5)
    assert [d.to_json() for d in decisions] == [{"code": "ACTIVITY_COUNT", "team": "away", "count": 0, "limit": 5}]


def test_XI_1_not_while_a_stone_is_in_the_opponents_half():
    """XI.1: a counting-team stone still in the obliged team's half blocks the declaration."""
    start = replace(stalling(), stones=(*stalling().stones, stone("a5", -300.0, 200.0)))
    refused = activity.count_action(start, None, Count("away"), SETTINGS)
    assert isinstance(refused, RuleError) and "a5" in refused.message


def test_XI_1_not_when_the_puck_is_already_out_of_the_obliged_half():
    """XI.1: the puck touching the centre line is already cleared; nothing to count."""
    refused = activity.count_action(stalling(puck=replace(stalling().puck, x=-12.0)), None, Count("away"), SETTINGS)
    assert isinstance(refused, RuleError) and "puck" in refused.message


def test_XI_2_limit_four_when_the_counting_team_is_losing():
    """XI.2, A20: away behind 0:1 when counting starts gets limit 4, frozen in the state."""
    result = activity.count_action(stalling(score=(1, 0)), None, Count("away"), SETTINGS)
    assert not isinstance(result, RuleError) and result[0] is not None and result[0].limit == 4


def test_XI_3_each_move_must_be_counted_before_the_counting_teams_next_action():
    """XI.3: away counts home's move (count 1 of 5); acting without counting lapses the count."""
    start = stalling()
    rec, rest = moved(start, contact(10, "h2", "puck"), h2=(-280.0, 0.0), puck=(-250.0, 30.0))
    after = activity.after_obliged_move(start, rec, rest, counting(), "h2", False, False, SETTINGS)
    assert after.state is not None and (after.state.count, after.state.confirmed) == (1, 0) and after.decisions == ()
    result = activity.count_action(rest, after.state, Count("away"), SETTINGS)
    assert not isinstance(result, RuleError)
    assert [d.to_json() for d in result[1]] == [{"code": "ACTIVITY_COUNT", "team": "away", "count": 1, "limit": 5}]
    lapsed = activity.before_action(after.state, "away", SETTINGS)
    assert lapsed.state is None
    assert codes(lapsed) == [{"code": "ACTIVITY_ENDED", "team": "away", "reason": "NOT_COUNTED"}]
    again = activity.count_action(rest, result[0], Count("away"), SETTINGS)
    assert isinstance(again, RuleError)


def test_XI_3_auto_count_variant_counts_for_the_team_and_count_stops_it():
    """XI.3, A23: with activity_auto_count the server counts each move; another count stops counting."""
    auto = replace(SETTINGS, activity_auto_count=True)
    start = stalling()
    rec, rest = moved(start, h2=(-280.0, 0.0))
    after = activity.after_obliged_move(start, rec, rest, counting(), "h2", False, False, auto)
    assert codes(after) == [{"code": "ACTIVITY_COUNT", "team": "away", "count": 1, "limit": 5}]
    stopped = activity.count_action(rest, after.state, Count("away"), auto)
    assert not isinstance(stopped, RuleError) and stopped[0] is None
    assert activity.before_action(after.state, "away", auto).state == after.state


def test_XI_4_puck_at_rest_in_the_counting_half_is_cleared():
    """XI.4: the puck comes to rest in the opponent's half."""
    start = stalling()
    rec, rest = moved(start, contact(10, "h2", "puck"), puck=(150.0, -200.0))
    verdict = activity.after_obliged_move(start, rec, rest, counting(2), "h2", False, False, SETTINGS)
    assert verdict.state is None and codes(verdict) == [{"code": "ACTIVITY_ENDED", "team": "away", "reason": "CLEARED"}]


def test_XI_4_rebound_off_the_board_behind_the_opponents_goal_clears():
    """XI.4, A21: a rebound off the corner beyond away's goal line clears though the puck rests in home's half."""
    start = stalling()
    rec, rest = moved(start, contact(10, "h2", "puck"), contact(90, "board:corner:1:-1", "puck"), puck=(-150.0, 0.0))
    assert activity.after_obliged_move(start, rec, rest, counting(2), "h2", False, False, SETTINGS).state is None
    rec, rest = moved(start, contact(10, "h2", "puck"), contact(90, "a1", "puck"), puck=(-150.0, 0.0))
    assert activity.after_obliged_move(start, rec, rest, counting(2), "h2", False, False, SETTINGS).state is None


def test_XI_4_rebound_off_a_counting_field_stone_does_not_clear():
    """XI.4: off a C field stone back into O's half is not cleared."""
    start = stalling()
    rec, rest = moved(start, contact(10, "h2", "puck"), contact(90, "a2", "puck"), puck=(-150.0, 0.0))
    verdict = activity.after_obliged_move(start, rec, rest, counting(2), "h2", False, False, SETTINGS)
    assert verdict.state is not None and verdict.state.count == 3


def test_XI_5_blocking_allowed_only_before_the_last_counted_move():
    """XI.5: between O's 4th and 5th counted moves a C stone may enter O's half."""
    start = stalling()
    rec, rest = moved(start, a2=(-120.0, 150.0))
    verdict = activity.after_counting_move(rec, rest, counting(4), False, SETTINGS)
    assert verdict.state is not None and verdict.decisions == ()


def test_XI_5_blocker_touching_the_puck_ends_the_obligation():
    """XI.5, A61: a C move that moves the puck ends the count."""
    start = stalling()
    rec, rest = moved(start, contact(30, "a2", "puck"), a2=(-300.0, 40.0), puck=(-330.0, -20.0))
    verdict = activity.after_counting_move(rec, rest, counting(4), False, SETTINGS)
    assert codes(verdict) == [{"code": "ACTIVITY_ENDED", "team": "away", "reason": "PUCK_TOUCHED"}]


def test_XI_6_entering_the_opponents_half_too_early_ends_the_count():
    """XI.6: a C stone in O's half before the last counted move's window ends the count."""
    start = stalling()
    rec, rest = moved(start, a2=(-120.0, 150.0))
    verdict = activity.after_counting_move(rec, rest, counting(2), False, SETTINGS)
    assert codes(verdict) == [{"code": "ACTIVITY_ENDED", "team": "away", "reason": "EARLY_ENTRY"}]


def test_XI_7_a_foul_by_the_counting_team_ends_the_count():
    """XI.7: counting stops when C fouls."""
    start = stalling()
    rec, rest = moved(start, a3=(250.0, 60.0))
    verdict = activity.after_counting_move(rec, rest, counting(2), True, SETTINGS)
    assert codes(verdict) == [{"code": "ACTIVITY_ENDED", "team": "away", "reason": "FOUL"}]


def test_XI_8_pushed_stones_must_come_back_with_the_next_move():
    """XI.8, A26: O pushes a4 into its half; C's next move must bring it back or the count ends."""
    start = stalling()
    rec, rest = moved(start, contact(10, "h3", "a4"), a4=(-130.0, 150.0), h3=(-140.0, 110.0))
    after = activity.after_obliged_move(start, rec, rest, counting(1), "h3", False, False, SETTINGS)
    assert after.state is not None and after.state.pushed == ("a4",)
    kept = activity.after_counting_move(*moved(rest, a3=(280.0, 60.0)), after.state, False, SETTINGS)
    assert codes(kept) == [{"code": "ACTIVITY_ENDED", "team": "away", "reason": "NOT_RETURNED"}]
    back = activity.after_counting_move(*moved(rest, a4=(20.0, 150.0)), after.state, False, SETTINGS)
    assert back.state is not None and back.state.pushed == ()


def test_XI_9_failure_excludes_the_last_counted_stone_and_gives_two_moves():
    """XI.9: not cleared on the 5th counted move - ACTIVITY_FAILED, that stone excluded, 2 moves for C."""
    start = stalling()
    rec, rest = moved(start, contact(10, "h2", "puck"), h2=(-290.0, 0.0), puck=(-260.0, 0.0))
    verdict = activity.after_obliged_move(start, rec, rest, counting(4), "h2", False, False, SETTINGS)
    assert codes(verdict) == [{"code": "ACTIVITY_FAILED", "team": "home", "stone": "h2"}]
    assert verdict.failure == activity.ActivityFailure("home", "h2", "h2", False, 2) and verdict.state is None


def test_XI_9_only_three_field_stones_no_exclusion():
    """XI.9: with only three field stones plus goalie nothing is excluded, C still gets 2 moves."""
    start = replace(stalling(), stones=tuple(s for s in stalling().stones if s.id != "h5"))
    rec, rest = moved(start, h2=(-290.0, 0.0))
    verdict = activity.after_obliged_move(start, rec, rest, counting(4), "h2", False, False, SETTINGS)
    assert verdict.failure is not None and verdict.failure.exclude is None and verdict.failure.moves == 2


def test_XI_9_A25_goalie_move_last_the_coach_names_the_stone():
    """A25: the last counted move was a goalie move (or reset): the coach names a field stone."""
    start = stalling()
    verdict = activity.after_obliged_move(start, None, start, counting(4), "h1", True, False, SETTINGS)
    assert verdict.failure is not None and verdict.failure.choose and verdict.failure.stone == "h1"


def test_XI_10_foul_and_failure_in_the_last_move_give_exclusion_and_three_moves():
    """XI.10, VIII.6: the foul's exclusion stands (no second one) and 2 + 2 is capped at 3 moves."""
    start = stalling()
    rec, rest = moved(start, h2=(-290.0, 0.0))
    verdict = activity.after_obliged_move(start, rec, rest, counting(4), "h2", False, True, SETTINGS)
    assert verdict.failure is not None and verdict.failure.exclude is None
    assert cap_moves([SETTINGS.privilege_moves, verdict.failure.moves], SETTINGS) == 3

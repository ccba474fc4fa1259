"""IX.1, IX.2, IX.7, IX.8, VI.1 and X (privileges, exclusions, returns), judged from hand-made events."""

from __future__ import annotations

from shared.model import ChooseExclusion, Flick, Part, Privilege
from shared.outcome import Decision
from shared.referee import clock, exclusions
from shared.referee.adjudicate import judge
from tests.referee.builders import SETTINGS, codes, contact, flick, position, record, region, stone


def five_a_side() -> tuple:
    """Five field stones a side, home's h2 in front of away's a2."""
    return (stone("h2", -100, 0), stone("h3", -300, 150), stone("h4", -300, -150), stone("h5", -200, 0),
            stone("h6", -350, 0), stone("a2", 0, 60), stone("a3", 300, 150), stone("a4", 300, -150),
            stone("a5", 200, 0), stone("a6", 350, 0))


def test_VI_1_teams_alternate_single_moves() -> None:
    """VI.1: after a clean move the other team moves."""
    start = position(*five_a_side())
    ruling = judge(start, flick("h2", 0, 300), record(start, moved={"h2": (-100, 40)}), SETTINGS)
    assert ruling.position.to_move == "away" and ruling.position.move_number == 1


def test_VI_1_a_privileged_team_keeps_the_turn_until_its_moves_are_played() -> None:
    """VI.1, D12: the privileged team plays its moves in a row, then the turn alternates again."""
    start = position(*five_a_side(), privilege=Privilege("home", 2, 2))
    first = judge(start, flick("h2", 0, 300), record(start), SETTINGS).position
    assert first.to_move == "home" and first.privilege == Privilege("home", 1, 2)
    second = judge(first, flick("h2", 0, 300), record(first), SETTINGS).position
    assert second.to_move == "away" and second.privilege is None


def test_IX_1_a_foul_in_a_non_last_privileged_move_cancels_the_privilege_for_both() -> None:
    """IX.1: the fouling stone is excluded, no privilege for the opponent, one move each from now on."""
    start = position(*five_a_side(), privilege=Privilege("home", 2, 2))
    ruling = judge(start, flick("h2"), record(start, contact(5, "h2", "a2")), SETTINGS)
    assert codes(ruling.decisions) == ["FOUL", "EXCLUSION", "PRIVILEGE_CANCELLED"]
    assert ruling.decisions[-1] == Decision.of("PRIVILEGE_CANCELLED", team="home")
    assert ruling.position.privilege is None and ruling.position.to_move == "away"


def test_IX_1_any_other_infringement_also_cancels_the_privilege() -> None:
    """IX.1: an infringement with a 2-move penalty (XII.8) cancels the privilege too, without exclusion."""
    start = position(*five_a_side(), privilege=Privilege("home", 3, 3), puck=(-100, 100))
    ruling = judge(start, flick("h1"), record(start, contact(5, "h1", "puck")), SETTINGS)
    assert codes(ruling.decisions) == ["GOALIE_OUTSIDE_THIRD", "PRIVILEGE_CANCELLED"]
    assert ruling.position.to_move == "away" and ruling.position.privilege is None


def test_IX_2_a_foul_in_the_last_privileged_move_gives_the_opponent_two_moves() -> None:
    """IX.2: in the last privileged move a foul is sanctioned normally: exclusion and 2 moves."""
    start = position(*five_a_side(), privilege=Privilege("home", 1, 2))
    ruling = judge(start, flick("h2"), record(start, contact(5, "h2", "a2")), SETTINGS)
    assert codes(ruling.decisions) == ["FOUL", "EXCLUSION", "PRIVILEGE"]
    assert ruling.position.privilege is not None and ruling.position.privilege.team == "away"
    assert ruling.position.to_move == "away"


def test_IX_7_the_opponent_cannot_play_during_a_privilege() -> None:
    """IX.7: prevented by construction - the non-privileged coach's flick is refused."""
    from shared.match import apply_action

    start = position(*five_a_side(), privilege=Privilege("home", 2, 2))
    result = apply_action(start, Flick("away", "a2", 500, 0))
    assert not result.accepted and result.error is not None
    assert result.error.code == "NOT_YOUR_TURN"
    assert result.error.message == "away cannot move: home has a privilege"
    assert result.position is start


def test_IX_7_technical_goal_is_an_admin_ruling() -> None:
    """IX.7, A52: the engine's technical goal scores for the named team and the conceder restarts."""
    from shared.match import technical_goal

    start = position(*five_a_side(), privilege=Privilege("home", 2, 2))
    result = technical_goal(start, "home")
    assert result.position.score == (1, 0)
    assert codes(result.decisions) == ["GOAL", "RESTART"]
    assert result.position.to_move == "away" and result.position.restart


def test_IX_8_the_siren_clears_a_privilege_not_yet_played() -> None:
    """IX.8: when the part ends before or during a privilege, the privilege is not played."""
    start = position(*five_a_side(), privilege=Privilege("away", 2, 2), to_move="away",
                     part=Part("period", 1, 500))
    ended, decisions = clock.after_move(start, 800, SETTINGS)
    assert ended.privilege is None
    assert "PART_ENDED" in codes(decisions)


def test_IX_8_a_privilege_the_siren_interrupts_is_announced_cancelled() -> None:
    """IX.8, SCENARIOS.md: the privileged team's move that runs the clock out cuts its privilege short - the move
    says so with PRIVILEGE_CANCELLED for that team before the siren's PART_ENDED."""
    from shared.match import apply_action

    start = position(*five_a_side(), privilege=Privilege("home", 2, 2), part=Part("period", 1, 100))
    result = apply_action(start, Flick("home", "h6", -200.0, 0.0))  # h6 drifts towards its own boards alone
    assert result.accepted and result.duration_ms > 100
    assert [d.to_json() for d in result.decisions] == [
        {"code": "PRIVILEGE_CANCELLED", "team": "home"},
        {"code": "PART_ENDED", "part": {"kind": "period", "number": 1}},
    ]
    assert result.position.privilege is None


def test_IX_8_a_privilege_the_siren_leaves_unplayed_is_announced_cancelled() -> None:
    """IX.8: time running out before a privilege is played (the team is still aiming its first privileged move)
    cancels it, announced with the privileged team; without a privilege the siren announces none."""
    start = position(*five_a_side(), privilege=Privilege("away", 2, 2), to_move="away",
                     part=Part("period", 1, 500))
    _ended, decisions = clock.elapse(start, 500, SETTINGS)
    assert codes(decisions)[:2] == ["PRIVILEGE_CANCELLED", "PART_ENDED"]
    assert decisions[0] == Decision.of("PRIVILEGE_CANCELLED", team="away")
    _ended, plain = clock.elapse(position(*five_a_side(), part=Part("period", 1, 500)), 500, SETTINGS)
    assert "PRIVILEGE_CANCELLED" not in codes(plain)


def test_IX_1_privilege_snapshot_is_taken_when_the_privilege_starts() -> None:
    """D12, IX.3-IX.5: the new privilege records the opponent's stones in a penalty position at its start."""
    start = position(*five_a_side(), stone("h7", -460, 0))
    ruling = judge(start, flick("h2"), record(start, contact(5, "h2", "a2")), SETTINGS)
    assert ruling.position.privilege is not None and ruling.position.privilege.snapshot == ("h7",)


def test_X_1_an_excluded_stone_leaves_the_board_into_a_fifo_queue() -> None:
    """X.1: every exclusion appends to the team's queue, oldest first."""
    start = position(*five_a_side())
    once, _ = exclusions.exclude(start, "home", "h3", SETTINGS)
    twice, _ = exclusions.exclude(once, "home", "h4", SETTINGS)
    assert twice.excluded == (("h3", "h4"), ())
    assert twice.stone("h3") is None and twice.stone("h4") is None


def test_X_2_at_three_field_stones_the_penalty_is_deferred_and_the_first_excluded_returns() -> None:
    """X.2: never fewer than 3 field stones - the offender leaves, the first excluded stone returns (half-circle)."""
    start = position(stone("h2", -100, 0), stone("h3", -300, 150), stone("h4", -300, -150), stone("a2", 0, 60),
                     excluded=(("h5", "h6"), ()))
    ruling = judge(start, flick("h2"), record(start, contact(5, "h2", "a2")), SETTINGS)
    assert ruling.decisions[:3] == (
        Decision.of("FOUL", team="home", kind="direct", stone="h2", victim="a2"),
        Decision.of("EXCLUSION", team="home", stone="h2", deferred=True),
        Decision.of("RETURN", team="home", stone="h5"),
    )
    after = ruling.position
    assert after.excluded == (("h6", "h2"), ()) and after.deferred == (1, 0)
    returned = after.stone("h5")
    assert returned is not None and returned.x < 0 and returned.y < -250  # own-half quarter of the half-circle
    assert exclusions.field_count(after, "home") == 3


def test_X_2_with_an_empty_queue_the_offender_is_laid_back_in_the_half_circle() -> None:
    """X.2, A16: at the minimum with nobody excluded before, the offender returns at once; deferred + 1."""
    start = position(stone("h2", -100, 0), stone("h3", -300, 150), stone("h4", -300, -150), stone("a2", 0, 60))
    ruling = judge(start, flick("h2"), record(start, contact(5, "h2", "a2")), SETTINGS)
    assert Decision.of("EXCLUSION", team="home", stone="h2", deferred=True) in ruling.decisions
    after = ruling.position
    assert after.deferred == (1, 0) and after.excluded == ((), ())
    moved = after.stone("h2")
    assert moved is not None and (moved.x, moved.y) != (-100, 0) and moved.y < -250


def test_X_2_a_returning_stone_avoids_an_occupied_return_spot() -> None:
    """X.2, A5: if the return spot is taken, the nearest free spot is used."""
    start = position(stone("h2", -100, 0), stone("h3", -21, -277), stone("h4", -300, -150), stone("a2", 0, 60))
    laid = exclusions.lay_returning(start, "h5", "home", SETTINGS)
    h3, h5 = laid.stone("h3"), laid.stone("h5")
    assert h3 is not None and h5 is not None
    assert ((h3.x - h5.x) ** 2 + (h3.y - h5.y) ** 2) ** 0.5 >= 32


def test_X_3_a_valid_goal_returns_one_excluded_stone_of_each_team() -> None:
    """X.3, A15: a valid goal brings back the first excluded stone of each team without deferred penalties."""
    start = position(*five_a_side(), puck=(400, 0), excluded=(("h7",), ("a7",)))
    ruling = judge(start, flick("h2"), record(start, region(40, "puck", "aux:1")), SETTINGS)
    assert codes(ruling.decisions) == ["GOAL", "RETURN", "RETURN"]
    assert ruling.position.excluded == ((), ())
    assert ruling.returning == ("h7", "a7")


def test_X_3_a_deferred_penalty_is_worked_off_before_any_return() -> None:
    """X.3, A15: a goal first cancels one deferred penalty of a team; that team's stone does not return."""
    start = position(*five_a_side(), puck=(400, 0), excluded=(("h7",), ()), deferred=(1, 0))
    ruling = judge(start, flick("h2"), record(start, region(40, "puck", "aux:1")), SETTINGS)
    assert "RETURN" not in codes(ruling.decisions)
    assert ruling.position.deferred == (0, 0) and ruling.position.excluded == (("h7",), ())


def test_X_3_this_moves_exclusion_comes_after_the_return_of_its_own_goal() -> None:
    """X.3, A14: with an own goal and a foul, the return of the goal comes first, then the new exclusion."""
    start = position(*five_a_side(), puck=(-150, 0), excluded=(("h7",), ()))
    events = (contact(2, "h2", "a2"), contact(5, "h2", "puck"), region(40, "puck", "aux:-1"))
    ruling = judge(start, flick("h2", -1000), record(start, *events), SETTINGS)
    assert ruling.position.excluded == (("h2",), ())
    assert ruling.returning == ("h7",)


def test_X_4_penalties_are_cleared_at_a_part_start() -> None:
    """X.4 (with the clock): the siren starts a break, and the next part starts with complete teams."""
    start = position(*five_a_side(), part=Part("period", 1, 100), excluded=(("h7",), ()), deferred=(1, 0))
    ended, _ = clock.after_move(start, 200, SETTINGS)
    following, _ = clock.wait_out_break(ended, SETTINGS)
    assert following.excluded == ((), ()) and following.deferred == (0, 0)


def test_VIII_1a_goalie_foul_choice_swaps_the_excluded_stone() -> None:
    """VIII.1a, XII.7, A47: the coach names another field stone; the default one comes back where it lay."""
    from shared.match import apply_action, prompts

    start = position(*five_a_side(), stone("a7", -380, 60))
    ruling = judge(start, flick("h1", 0, 300), record(start, contact(6, "a7", "h1")), SETTINGS)
    after = ruling.position
    (prompt,) = prompts(after)
    assert prompt.kind == "choose_exclusion" and prompt.team == "home"
    assert prompt.default == ChooseExclusion("home", "h6")
    swapped = apply_action(after, ChooseExclusion("home", "h3"))
    assert swapped.accepted, swapped.error
    assert swapped.position.stone("h3") is None
    h6 = swapped.position.stone("h6")
    assert h6 is not None and (h6.x, h6.y) == (-350, 0)
    assert swapped.position.excluded == (("h3",), ())
    assert prompts(swapped.position) == ()


def test_VIII_1a_goalie_foul_choice_refuses_a_stone_not_offered() -> None:
    """VIII.1a: only the team's field stones may be named; the goalie cannot be."""
    from shared.match import apply_action

    start = position(*five_a_side(), stone("a7", -380, 60))
    after = judge(start, flick("h1", 0, 300), record(start, contact(6, "a7", "h1")), SETTINGS).position
    refused = apply_action(after, ChooseExclusion("home", "h1"))
    assert not refused.accepted and refused.error is not None and refused.error.code == "ACTION_NOT_ALLOWED"
    assert refused.position is after


def test_X_2_property_exclusions_never_take_a_team_below_the_minimum() -> None:
    """X.2: excluding repeatedly never leaves fewer than min_field_stones field stones on the board."""
    pos = position(*five_a_side())
    for stone_id in ("h2", "h3", "h4", "h5", "h6", "h3", "h2"):
        if pos.stone(stone_id) is None:
            continue
        pos, _ = exclusions.exclude(pos, "home", stone_id, SETTINGS)
        assert exclusions.field_count(pos, "home") >= SETTINGS.min_field_stones
    assert pos.deferred[0] >= 1

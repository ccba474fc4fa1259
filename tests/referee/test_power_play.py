"""XIII (power play) and XII.2-XII.5 (goalie reset): swaps, candidates, restarts, eligibility, reset conditions."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from shared.model import Part, Position, PowerPlayState, PowerPlaySwapIn, PowerPlaySwapOut, Privilege, Stone
from shared.referee import goalie_reset, power_play
from tests.referee.builders import SETTINGS, on_board, position, stone


def out_of_crease(**fields: Any) -> Position:
    """Home's goalie h1 has left its crease (home defends x < 0); home to move."""
    base = position(stone("h2", -200.0, 50.0), stone("a2", 200.0, 50.0), to_move="home")
    stones = tuple(s.at(-380.0, 100.0) if s.id == "h1" else s for s in base.stones)
    return replace(base, stones=stones, **fields)


def in_power_play() -> tuple[Position, PowerPlayState]:
    """Home in power play: h7 replaced the goalie at (-380, 100)."""
    start, state, _ = power_play.swap_out(out_of_crease(), PowerPlaySwapOut("home", "h1"))
    return start, state


def test_XIII_1_every_stone_of_a_power_play_team_in_its_crease_is_eligible():
    """XIII.1: the sixth stone is a field stone; the goalie never is eligible."""
    start, _ = in_power_play()
    moved = replace(start, stones=tuple(s.at(-470.0, 30.0) if s.id == "h7" else s for s in start.stones))
    assert on_board(moved, "h7").role == "field"
    assert power_play.penalty_eligible(moved, "home", SETTINGS) == ("h7",)
    assert power_play.penalty_eligible(position(), "home", SETTINGS) == ()


def test_XIII_2_swap_out_puts_the_reserve_exactly_where_the_goalie_was():
    """XIII.2: the goalie wholly out of its crease is replaced in place by the reserve; POWER_PLAY on."""
    start = out_of_crease()
    assert power_play.check_swap_out(start, PowerPlaySwapOut("home", "h1"), SETTINGS) is None
    swapped, state, decisions = power_play.swap_out(start, PowerPlaySwapOut("home", "h1"))
    h7 = swapped.stone("h7")
    assert h7 is not None and (h7.x, h7.y, h7.role) == (-380.0, 100.0, "field") and swapped.stone("h1") is None
    assert state == PowerPlayState("home", "h1", "h7") and swapped.to_move == "home"
    assert [d.to_json() for d in decisions] == [{"code": "POWER_PLAY", "team": "home", "on": True}]


def test_XIII_2_no_swap_with_the_goalie_touching_its_crease():
    """XIII.2: the goalie must have left the crease with its whole circumference."""
    refused = power_play.check_swap_out(position(), PowerPlaySwapOut("home", "h1"), SETTINGS)
    assert refused is not None and "crease" in refused.message


def test_XIII_2_A48_not_during_the_opponents_turn_or_privilege():
    """A48: never during the opponent's turn or privilege; right after the own move is allowed."""
    theirs = out_of_crease(to_move="away")
    assert power_play.check_swap_out(theirs, PowerPlaySwapOut("home", "h1"), SETTINGS) is not None
    assert power_play.check_swap_out(theirs, PowerPlaySwapOut("home", "h1"), SETTINGS, just_moved=True) is None
    privileged = out_of_crease(privilege=Privilege("away", 2, 2))
    refused = power_play.check_swap_out(privileged, PowerPlaySwapOut("home", "h1"), SETTINGS, just_moved=True)
    assert refused is not None and "privilege" in refused.message


def test_XIII_3_restart_in_power_play_places_the_sixth_stone_like_a_defender():
    """XIII.3: at a restart the goalie stays off and the sixth stone stands on the defenders' sixth spot."""
    start = position(stone("h2", -100.0, 0.0))
    assert power_play.check_restart_in_power_play(start, "home") is None
    restarted, state, _ = power_play.restart_in_power_play(start, "home")
    sixth = restarted.stone(state.substitute)
    assert restarted.stone("h1") is None and sixth is not None and (sixth.x, sixth.y) == (-360.0, 0.0)


def test_XIII_4_swap_back_after_waiting_one_opponent_move_in_the_crease():
    """XIII.4, A49: marked at the rest of own move N, waited through the opponent's move, still touching."""
    start, state = in_power_play()
    rest = replace(start, stones=tuple(s.at(-450.0, 0.0) if s.id == "h2" else s for s in start.stones), to_move="away")
    state = power_play.after_move(rest, state, "home", SETTINGS)
    assert state.candidates == ("h2",) and not state.waited
    early = power_play.check_swap_in(replace(rest, to_move="home"), state, PowerPlaySwapIn("home", "h2"), SETTINGS)
    assert early is not None and "wait" in early.message
    state = power_play.after_move(rest, state, "away", SETTINGS)
    turn = replace(rest, to_move="home")
    assert power_play.check_swap_in(turn, state, PowerPlaySwapIn("home", "h2"), SETTINGS) is None
    back, decisions = power_play.swap_in(turn, state, PowerPlaySwapIn("home", "h2"))
    h1 = back.stone("h1")
    assert h1 is not None and (h1.x, h1.y, h1.role) == (-450.0, 0.0, "goalie") and back.stone("h2") is None
    assert [d.to_json() for d in decisions] == [{"code": "POWER_PLAY", "team": "home", "on": False}]


def test_XIII_4_a_stone_pushed_out_of_the_crease_cannot_be_swapped():
    """XIII.4: the candidate must still touch the crease at the start of the team's next turn."""
    start, state = in_power_play()
    state = replace(state, candidates=("h2",), waited=True)
    refused = power_play.check_swap_in(start, state, PowerPlaySwapIn("home", "h2"), SETTINGS)
    assert refused is not None and "no longer" in refused.message


def test_XIII_5_restart_with_the_goalie_instead_of_the_sixth_stone():
    """XIII.5: before a restart the goalie goes to its basic spot in place of the sixth stone."""
    start, state = in_power_play()
    back, decisions = power_play.restart_with_goalie(start, state)
    h1 = back.stone("h1")
    assert h1 is not None and (h1.x, h1.y) == (-498.0, 0.0) and back.stone("h7") is None
    assert decisions[0].get("on") is False


def test_XIII_6_swaps_are_announced_to_both_coaches():
    """XIII.6: every swap produces a POWER_PLAY decision (the clear signal)."""
    start, state = in_power_play()
    _, _, on = power_play.swap_out(out_of_crease(), PowerPlaySwapOut("home", "h7"))
    _, off = power_play.restart_with_goalie(start, state)
    assert [d.code for d in (*on, *off)] == ["POWER_PLAY", "POWER_PLAY"]


def test_XVI_2_A19_power_play_allowed_in_overtime():
    """A19: power play stays allowed in overtime (three field stones plus the goalie to start)."""
    start = out_of_crease(part=Part("overtime", 1, 180_000))
    assert power_play.check_swap_out(start, PowerPlaySwapOut("home", "h1"), SETTINGS) is None


# --------------------------------------------------------------------------- XII.2-XII.5


def goalie_at(x: float, y: float, puck: tuple[float, float] = (0.0, 0.0), *others: Stone) -> Position:
    """Home's goalie h1 at (x, y), plus other stones."""
    base = position(*others, puck=puck)
    return replace(base, stones=tuple(s.at(x, y) if s.id == "h1" else s for s in base.stones))


def test_XII_2_reset_puts_the_goalie_on_its_basic_spot():
    """XII.2: a goalie in its crease but off the spot is put back on (-498, 0)."""
    start = goalie_at(-470.0, 30.0)
    assert goalie_reset.check_reset(start, "home", SETTINGS) is None
    h1 = goalie_reset.reset(start, "home").stone("h1")
    assert h1 is not None and (h1.x, h1.y) == (-498.0, 0.0)


def test_XII_2_reset_refused_outside_the_crease_or_on_the_spot():
    """XII.2: outside the crease the goalie may only be flicked; on its spot there is nothing to reset."""
    outside = goalie_reset.check_reset(goalie_at(-300.0, 0.0), "home", SETTINGS)
    on_spot = goalie_reset.check_reset(position(), "home", SETTINGS)
    assert outside is not None and "outside its crease" in outside.message
    assert on_spot is not None and "already" in on_spot.message


def test_XII_3_XII_4_the_server_places_the_goalie_exactly():
    """XII.3-XII.4: no wrong placement is possible online: the reset lands exactly on the spot."""
    h1 = goalie_reset.reset(goalie_at(-455.0, -50.0), "home").stone("h1")
    assert h1 is not None and (h1.x, h1.y) == (-498.0, 0.0)


def test_XII_5_no_reset_while_the_puck_touches_the_crease():
    """XII.5: the puck touching the crease disables the reset."""
    refused = goalie_reset.check_reset(goalie_at(-470.0, 30.0, (-432.0, -40.0)), "home", SETTINGS)
    assert refused is not None and "XII.5" in refused.message


def test_XII_2_A41_no_reset_onto_an_occupied_spot():
    """A41: a stone covering the basic spot disables the reset."""
    crowded = goalie_at(-450.0, 40.0, (0.0, 0.0), stone("a2", -490.0, -10.0))
    refused = goalie_reset.check_reset(crowded, "home", SETTINGS)
    assert refused is not None and "a2" in refused.message

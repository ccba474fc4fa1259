"""shared.match end to end: validation (D3, V.7, VI.1, VII.1), golden moves through the real physics, the move
clock (A35), prompts, the invariants of random legal play (property test), and every chapter's engine state -
penalty shots, the shoot-out, counting, goalie reset, power play, sudden death, the prompts with their defaults -
each through apply_action / timeout / clock with the real physics."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from shared.formation import basic_setup
from shared.match import apply_action, legal_stones, prompts, settings_of, technical_goal, timeout
from shared.model import (
    ChooseExclusion,
    Count,
    Flick,
    GoalieReset,
    Part,
    Placement,
    Position,
    PowerPlaySwapIn,
    PowerPlaySwapOut,
    Privilege,
    Result,
    Setup,
    Stone,
    TakePenalty,
    Team,
)
from shared.outcome import Decision
from shared.referee import clock, shots
from tests.referee.builders import codes, on_board, position, refusal, stone
from tests.referee.engine_positions import advantage_position, scoring_shot, shootout_start, shot_position


def restart_position(to_move: Team = "home") -> Position:
    """The basic setup with ``to_move`` starting (V.7)."""
    return Position(settings=(("effects_2_5d", False),), stones=basic_setup(), to_move=to_move, restart=True)


def open_goal(puck: tuple[float, float] = (420.0, 0.0)) -> Position:
    """Home's h2 behind the puck in front of away's goal, away's goalie far to the side."""
    stones = (stone("h1", -498, 0, "goalie"), stone("a1", 300, 250, "goalie"), stone("h2", 360, 0),
              stone("h3", -300, 150), stone("h4", -300, -150), stone("a2", 100, 200), stone("a3", 0, -250))
    return replace(position(puck=puck), stones=stones)


def test_VII_1_a_flick_is_a_move_that_ends_at_rest() -> None:
    """VII.1, D3-D4: an accepted flick moves the stone, ends at rest and counts one move."""
    start = position(stone("h2", -100, 0), stone("a2", 200, 200))
    result = apply_action(start, Flick("home", "h2", 0, 400))
    assert result.accepted and result.record is not None and result.duration_ms > 0
    moved = result.position.stone("h2")
    assert moved is not None and moved.y > 10
    assert result.position.move_number == 1 and result.position.to_move == "away"


def test_VIII_1a_golden_flick_straight_at_an_opponent_60_mm_away() -> None:
    """VIII.1a golden: h2 flicked straight at a2 60 mm away is a direct foul, h2 excluded, away 2 moves."""
    start = position(stone("h2", -100, 0), stone("h3", -300, 100), stone("h4", -300, -100), stone("h5", -250, 0),
                     stone("a2", -40, 0))
    result = apply_action(start, Flick("home", "h2", 1500, 0))
    assert result.decisions == (
        Decision.of("FOUL", team="home", kind="direct", stone="h2", victim="a2"),
        Decision.of("EXCLUSION", team="home", stone="h2", deferred=False),
        Decision.of("PRIVILEGE", team="away", moves=2),
    )
    assert result.position.excluded == (("h2",), ())


def test_XIV_1_golden_shot_into_an_empty_goal_scores_and_away_restarts() -> None:
    """XIV.1, V.3 golden: the puck driven into the away goal scores; away restarts from the basic setup."""
    result = apply_action(open_goal(), Flick("home", "h2", 1500, 0))
    assert result.accepted
    assert codes(result.decisions) == ["GOAL", "RESTART"]
    assert result.decisions[0] == Decision.of("GOAL", team="home", own_goal=False)
    after = result.position
    assert after.score == (1, 0) and after.restart and after.to_move == "away"
    assert (after.puck.x, after.puck.y) == (0.0, 0.0)


def test_V_7_the_centre_forward_is_the_stone_on_the_spot_not_an_id() -> None:
    """V.7: whichever stone covers the centre-forward spot starts; the others are not selectable."""
    start = restart_position()
    kept = tuple(s.at(-300, 0) if s.id == "h2" else s for s in start.stones)
    start = replace(start, stones=(*kept, Stone("h7", "home", "field", -100, 0)))
    assert legal_stones(start, "home") == ("h7",)
    refused = apply_action(start, Flick("home", "h2", 1500, 0))
    assert refused.error is not None and refused.error.code == "STONE_NOT_SELECTABLE"


def test_V_7_only_the_centre_forward_may_start() -> None:
    """V.7: at a restart the starting team may flick only the stone on its centre-forward spot."""
    start = restart_position()
    assert legal_stones(start, "home") == ("h2",)
    assert legal_stones(start, "away") == ()
    refused = apply_action(start, Flick("home", "h3", 500, 0))
    assert not refused.accepted and refused.error is not None and refused.error.code == "STONE_NOT_SELECTABLE"
    assert refused.position is start
    assert apply_action(start, Flick("home", "h2", 300, 0)).accepted


def test_VI_2_the_only_move_by_hand_is_the_goalie_reset() -> None:
    """VI.2, D3, XII.2: besides a flick only the goalie reset moves a stone, and it says why when it cannot."""
    start = position(stone("h2", -100, 0))
    refused = apply_action(start, GoalieReset("home"))
    assert not refused.accepted and refused.error is not None and refused.error.code == "ACTION_NOT_ALLOWED"
    assert "already on its basic spot" in refused.error.message and refused.position is start
    moved_goalie = replace(start, stones=tuple(s.at(-480, 20) if s.id == "h1" else s for s in start.stones))
    reset = apply_action(moved_goalie, GoalieReset("home"))
    assert reset.accepted and reset.record is None and reset.position.move_number == 1
    goalie = reset.position.stone("h1")
    assert goalie is not None and (goalie.x, goalie.y) == (-498.0, 0.0) and reset.position.to_move == "away"


def test_VI_1_the_wrong_team_cannot_move() -> None:
    """VI.1: the team not to move is refused with NOT_YOUR_TURN and nothing changes."""
    start = position(stone("h2", -100, 0), stone("a2", 100, 0))
    result = apply_action(start, Flick("away", "a2", 500, 0))
    assert result.error is not None and result.error.code == "NOT_YOUR_TURN"
    assert result.error.message == "away cannot move: it is home's turn"


def test_D3_flick_validation_errors() -> None:
    """D3: another team's stone, a stone off the board and a speed out of range are refused with their codes."""
    start = position(stone("h2", -100, 0), stone("a2", 100, 0))
    cases = {
        "NOT_YOUR_STONE": Flick("home", "a2", 500, 0),
        "STONE_NOT_ON_BOARD": Flick("home", "h6", 500, 0),
        "SPEED_OUT_OF_RANGE": Flick("home", "h2", 5000, 0),
    }
    for code, action in cases.items():
        result = apply_action(start, action)
        assert result.error is not None and result.error.code == code, code
    slow = apply_action(start, Flick("home", "h2", 1, 0))
    assert slow.error is not None and slow.error.code == "SPEED_OUT_OF_RANGE"


def test_III_1_no_move_after_the_match_is_over() -> None:
    """III.1, XVI: once the match has a result every action is refused with MATCH_OVER."""
    start = replace(position(stone("h2", -100, 0)), result=Result("home", "REGULAR_TIME"))
    result = apply_action(start, Flick("home", "h2", 500, 0))
    assert result.error is not None and result.error.code == "MATCH_OVER"


def test_A35_move_clock_timeout_passes_the_turn() -> None:
    """A35 house rule: when the move clock runs out the turn passes without a move."""
    start = position(stone("h2", -100, 0), stone("a2", 100, 0))
    result = timeout(start, "home")
    assert result.accepted and result.position.to_move == "away" and result.position.move_number == 0
    assert not timeout(start, "away").accepted


def test_A35_timeout_forfeits_a_privilege_move() -> None:
    """A35, product decision 4: a privilege move is forfeited the same way (one of the moves is lost)."""
    start = position(stone("h2", -100, 0), stone("a2", 100, 0), privilege=Privilege("home", 2, 2))
    once = timeout(start, "home").position
    assert once.to_move == "home" and once.privilege == Privilege("home", 1, 2)
    twice = timeout(once, "home").position
    assert twice.to_move == "away" and twice.privilege is None


def test_XV_1_a_pending_penalty_shot_blocks_ordinary_flicks_until_it_is_taken() -> None:
    """XV.1: after an awarded penalty shot the engine refuses ordinary flicks until the shot is taken."""
    start = replace(position(stone("h2", -100, 0)), penalty_shot="home")
    result = apply_action(start, Flick("home", "h2", 500, 0))
    assert result.error is not None and result.error.code == "ACTION_NOT_ALLOWED"


def test_XII_7_golden_choice_defaults_and_the_prompt_disappears_after_a_move() -> None:
    """XII.7, A47: a goalie foul leaves a choice prompt; the next move makes the default final."""
    start = position(stone("h2", -100, 0), stone("h3", -200, 100), stone("h4", -200, -100), stone("h5", -250, 0),
                     stone("a2", -440, 120))
    result = apply_action(start, Flick("home", "h1", 580, 1200))
    if "FOUL" not in codes(result.decisions):  # the physics must make this robust; fail loudly if not
        raise AssertionError(f"expected a goalie foul, got {codes(result.decisions)}")
    (prompt,) = prompts(result.position)
    assert isinstance(prompt.default, ChooseExclusion) and prompt.default.team == "home"
    moved = apply_action(result.position, Flick("away", "a2", 0, 300))
    assert moved.accepted and prompts(moved.position) == ()


# --------------------------------------------------------------------------- property test


def _field_counts(pos: Position) -> dict[str, int]:
    """Field stones on the board per team."""
    return {team: sum(1 for s in pos.team_stones(team) if s.role == "field") for team in ("home", "away")}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(moves=[(0, 0.0, 2129.0), (0, 0.0, 200.0), (0, 0.0, 200.0), (0, 0.0, 200.0), (1, 0.0, 730.0)])  # a shot
@given(st.lists(st.tuples(st.integers(0, 6), st.floats(-3.14159, 3.14159), st.floats(200, 2800)), min_size=1,
                max_size=6))
def test_X_2_property_random_legal_play_keeps_the_invariants(moves: list[tuple[int, float, float]]) -> None:
    """X.2, VI.1, XIV: random legal flicks never leave < 3 field stones in play (a penalty shot's board has the
    shooter alone, XV.11), never lower a score, exclude only on fouls."""
    import math

    pos = Position(settings=(("effects_2_5d", False),), stones=basic_setup(), to_move="home", restart=True)
    for index, angle, speed in moves:
        team = pos.to_move
        choices = legal_stones(pos, team)
        if not choices:
            break
        stone_id = choices[index % len(choices)]
        result = apply_action(pos, Flick(team, stone_id, speed * math.cos(angle), speed * math.sin(angle)))
        assert result.accepted, result.error
        after = result.position
        assert after.to_move in ("home", "away")
        assert after.score[0] >= pos.score[0] and after.score[1] >= pos.score[1]
        counts = _field_counts(after)
        if after.penalty is None:
            assert all(count >= 3 for count in counts.values())  # X.2
        else:  # XV.11: online the other stones leave the board; the shooter and the defending goalie stay
            assert counts == {after.penalty.team: 1, after.penalty.against: 0}
        newly = sum(len(q) for q in after.excluded) > sum(len(q) for q in pos.excluded)
        if newly and not any(d.code == "RETURN" for d in result.decisions):
            assert "FOUL" in codes(result.decisions)
        assert all(isinstance(s, Stone) for s in after.stones)
        pos = after


def test_D3_a_refused_speed_is_printed_exactly() -> None:
    """D3: a flick a hair over the cap is refused with its real speed, not one rounded back to the cap."""
    over = math.nextafter(3000.0, math.inf)
    result = apply_action(position(stone("h2", -100, 0)), Flick("home", "h2", over, 0))
    assert result.error is not None and result.error.code == "SPEED_OUT_OF_RANGE"
    assert result.error.message.endswith(f"not {over!r}") and "not 3000 " not in result.error.message + " "


# --------------------------------------------------------------------------- the chapters' state through the engine


# --------------------------------------------------------------------------- penalty shots (IX.3, XV)


def test_IX_3_take_penalty_sets_the_shot_up_at_once() -> None:
    """IX.3, A44: the team playing an advantage may take the shot now; it is set up with the A33 defaults."""
    result = apply_action(advantage_position(), TakePenalty("home"))
    assert result.accepted and codes(result.decisions) == ["PENALTY_SHOT"]
    shot = result.position
    assert shot.penalty is not None and shot.penalty.shooter == "h2" and shot.privilege is None
    assert sorted(s.id for s in shot.stones) == ["a1", "h2"] and legal_stones(shot, "home") == ("h2",)
    refused = apply_action(advantage_position(advantage=None), TakePenalty("home"))
    assert not refused.accepted and refused.error is not None and "no advantage" in refused.error.message


def test_XV_11_only_the_shooter_moves_in_a_penalty_shot() -> None:
    """XV.11-XV.12: the defending team and any other stone are refused during the shot."""
    shot = shot_position()
    assert refusal(apply_action(shot, Flick("away", "a1", 0, 300))).code == "NOT_YOUR_TURN"
    assert refusal(apply_action(shot, GoalieReset("away"))).code == "ACTION_NOT_ALLOWED"
    assert refusal(apply_action(shot, Count("away"))).code == "ACTION_NOT_ALLOWED"


def test_XV_12_a_shot_goal_counts_and_the_penalised_team_restarts() -> None:
    """XV.12, XV.14, V.5: a goal with the second move counts; the team it was awarded against restarts with
    the teams as they were before the shot."""
    first, second = scoring_shot(shot_position())
    assert codes(first.decisions) == []
    assert codes(second.decisions) == ["GOAL", "PENALTY_SHOT_ENDED", "RESTART"]
    after = second.position
    assert after.score == (1, 0) and after.penalty is None and after.penalty_shot is None
    assert after.to_move == "away" and after.restart
    assert sorted(s.id for s in after.stones) == ["a1", "a2", "h1", "h2"]


def test_XV_13a_a_first_move_that_leaves_the_puck_in_the_circle_fails() -> None:
    """XV.13a, A30: after the first move the puck must have left the centre circle."""
    result = apply_action(shot_position(), Flick("home", "h2", 600, 0))
    assert next((d.code, d.get("reason")) for d in result.decisions) == ("PENALTY_SHOT_ENDED", "a")
    assert result.position.penalty is None and result.position.to_move == "away"


def test_XV_13h_a_backward_flick_fails_without_physics() -> None:
    """XV.13h, A27: with penalty_backward = fail a backward flick ends the shot without a simulation."""
    result = apply_action(shot_position(), Flick("home", "h2", -500, 0))
    assert result.accepted and result.record is None
    assert next((d.code, d.get("reason")) for d in result.decisions) == ("PENALTY_SHOT_ENDED", "h")
    rejecting = shot_position(settings=(("effects_2_5d", False), ("penalty_backward", "reject")))
    assert refusal(apply_action(rejecting, Flick("home", "h2", -500, 0))).code == "ACTION_NOT_ALLOWED"


def test_XV_10_a_shot_awarded_at_the_siren_is_completed_before_the_part_ends() -> None:
    """XV.10, A43: an advantage pending at the siren becomes a shot; its moves are made after the siren, and the
    part ends (PART_ENDED, then the break) once it is over."""
    start = advantage_position(part=Part("period", 1, 100))
    held, decisions = clock.elapse(start, 100, settings_of(start))
    assert [d.code for d in decisions] == ["PRIVILEGE_CANCELLED", "PENALTY_SHOT"]
    assert held.siren and held.penalty is not None and held.penalty.after_siren
    assert clock.can_move(held) is None
    _first, second = scoring_shot(held)
    assert codes(second.decisions)[-1] == "PART_ENDED" and second.position.part.kind == "break"
    assert second.position.score == (1, 0)


def test_XV_11_the_coaches_place_goalie_and_shooter_or_the_defaults_stand() -> None:
    """XV.11, A33: the goalie's place along its line and the shooter's spot are prompts whose defaults keep
    the default set-up; each coach places once, and the first flick ends both choices."""
    shot = shot_position()
    asked = {(p.team, p.kind) for p in prompts(shot)}
    assert asked == {("away", "setup"), ("home", "setup")}
    moved = apply_action(shot, Setup("away", (Placement("a1", 498, 20),)))
    assert moved.accepted and on_board(moved.position, "a1").y == 20
    assert [p.team for p in prompts(moved.position)] == ["home"]
    again = apply_action(moved.position, Setup("away", (Placement("a1", 498, -20),)))
    assert again.error is not None and again.error.code == "INVALID_SETUP"
    off_line = apply_action(shot, Setup("away", (Placement("a1", 450, 0),)))
    assert off_line.error is not None and "goal line" in off_line.error.message
    defaulted = timeout(moved.position, "home", "setup")
    assert defaulted.accepted and prompts(defaulted.position) == ()
    flicked = apply_action(shot, Flick("home", "h2", 900, 0))
    assert prompts(flicked.position) == ()


def test_A35_a_move_clock_timeout_in_a_penalty_shot_fails_it() -> None:
    """A35 with XV.18: the turn cannot pass inside a shot - the shooter's timeout ends it as failed (TIME)."""
    result = timeout(shot_position(), "home")
    ended = [(d.code, d.get("reason")) for d in result.decisions if d.code == "PENALTY_SHOT_ENDED"]
    assert result.accepted and ended == [("PENALTY_SHOT_ENDED", "TIME")]
    assert result.position.penalty is None and result.position.to_move == "away"


def test_IX_3_the_forfeited_last_move_of_an_advantage_gives_the_shot() -> None:
    """IX.3, A35: an advantage played out without goal or infringement - also by a timed-out move - gives
    the penalty shot."""
    start = advantage_position(privilege=Privilege("home", 1, 2))
    result = timeout(start, "home")
    assert result.accepted and codes(result.decisions) == ["TIMEOUT", "PENALTY_SHOT"]
    assert result.position.penalty is not None


# --------------------------------------------------------------------------- shoot-out (III.3, XV.16, XV.18)


def test_XV_16_the_shootout_starts_with_the_lot_and_alternates_shots() -> None:
    """XV.16, III.3: the lot names the first shooter; a missed shot sets up the other team's shot."""
    started = shootout_start()
    assert started.part.kind == "shootout" and started.shootout is not None and started.penalty is not None
    first = started.penalty.team
    assert first == started.shootout.starter
    shooter = started.penalty.shooter
    missed = apply_action(started, Flick(first, shooter, 300 * started.own_end(first) * -1, 0))
    assert [(d.code, d.get("reason")) for d in missed.decisions] == [("PENALTY_SHOT_ENDED", "a"),
                                                                      ("PENALTY_SHOT", None)]
    after = missed.position
    assert after.penalty is not None and after.penalty.team != first and after.score == started.score
    assert after.shootout is not None and after.shootout.shots == ((first, False),)


def test_XV_18_a_shootout_shot_fails_after_15_seconds() -> None:
    """XV.18, A42: time passing during a shoot-out shot, counted from its first flick, fails it (TIME)."""
    started = shootout_start()
    assert started.penalty is not None
    team, shooter = started.penalty.team, started.penalty.shooter
    waited, none = clock.elapse(started, 60_000, settings_of(started))
    assert none == () and waited.penalty == started.penalty  # the timer starts with the first flick
    moved = apply_action(started, Flick(team, shooter, 900 * -started.own_end(team), 0))
    assert moved.position.penalty is not None and moved.position.penalty.team == team
    expired, decisions = clock.elapse(moved.position, 15_000, settings_of(started))
    assert ("PENALTY_SHOT_ENDED", "TIME") in [(d.code, d.get("reason")) for d in decisions]
    assert expired.shootout is not None and expired.shootout.shots == ((team, False),)


def test_XV_16_a_decided_shootout_ends_the_match_without_changing_the_score() -> None:
    """XV.16, III.3: once one team cannot be caught the match ends (reason SHOOTOUT); the score stays."""
    current = shootout_start()
    assert current.penalty is not None
    score, starter = current.score, current.penalty.team
    for _ in range(6):
        state = current.penalty
        assert state is not None
        if state.team == starter:  # the starter scores every shot, the other team misses every one
            current = scoring_shot(current)[1].position
        else:
            current = apply_action(current, Flick(state.team, state.shooter, 300 * -current.own_end(state.team),
                                                  0)).position
        if current.result is not None:
            break
    assert current.result is not None and current.result.reason == "SHOOTOUT" and current.score == score
    assert current.result.winner == starter and current.shootout is not None and len(current.shootout.shots) == 4


# --------------------------------------------------------------------------- activity (XI)


def counting_position(**fields: Any) -> Position:
    """Away may count: its stones are home in its half, the puck in home's half, home to move."""
    start = position(stone("h2", -300, 100), stone("h3", -200, -150), stone("a2", 100, 200), puck=(-250, 0))
    return replace(start, **fields) if fields else start


def test_XI_3_count_declares_then_counts_each_move() -> None:
    """XI.1-XI.3: the declaration shows 0 of 5, each obliged move is counted aloud (a prompt defaulting to
    counting), and the count is in the position."""
    declared = apply_action(counting_position(), Count("away"))
    assert declared.accepted and [d.to_json() for d in declared.decisions] == [
        {"code": "ACTIVITY_COUNT", "team": "away", "count": 0, "limit": 5}]
    moved = apply_action(declared.position, Flick("home", "h3", 0, 200))
    assert moved.accepted and moved.position.activity is not None and moved.position.activity.count == 1
    (prompt,) = prompts(moved.position)
    assert prompt.kind == "count" and prompt.default == Count("away")
    counted = timeout(moved.position, "away", "count")
    assert counted.accepted and [d.get("count") for d in counted.decisions if d.code == "ACTIVITY_COUNT"] == [1]


def test_XI_3_acting_without_counting_ends_the_count() -> None:
    """XI.3: the counting team acts before counting the obliged move - the count lapses (NOT_COUNTED)."""
    declared = apply_action(counting_position(), Count("away")).position
    moved = apply_action(declared, Flick("home", "h3", 0, 200)).position
    result = apply_action(moved, Flick("away", "a2", 0, -200))
    assert result.accepted and ("ACTIVITY_ENDED", "NOT_COUNTED") in [(d.code, d.get("reason"))
                                                                       for d in result.decisions]
    assert result.position.activity is None


def test_XI_9_failing_to_clear_excludes_and_gives_two_moves() -> None:
    """XI.9: the obliged team's limit-th move without clearing - ACTIVITY_FAILED, that stone excluded, two
    moves for the counting team."""
    start = counting_position(settings=(("effects_2_5d", False), ("activity_limit", 1)),
                              stones=(*counting_position().stones, stone("h4", -300, -250), stone("h5", -400, 250)))
    declared = apply_action(start, Count("away")).position
    failed = apply_action(declared, Flick("home", "h3", 0, 200))
    assert codes(failed.decisions) == ["ACTIVITY_FAILED", "EXCLUSION", "PRIVILEGE"]
    assert failed.position.stone("h3") is None and failed.position.privilege == Privilege("away", 2, 2, ())


def test_XI_1_counting_needs_every_stone_retreated() -> None:
    """XI.1: a stone of the counting team in the opponent's half forbids the declaration, and says which."""
    start = counting_position(stones=(*counting_position().stones, stone("a3", -250, 220)))
    refused = apply_action(start, Count("away"))
    assert refused.error is not None and "a3" in refused.error.message


# --------------------------------------------------------------------------- goalie reset (XII.2-XII.5)


def test_XII_5_no_goalie_reset_while_the_puck_touches_the_crease() -> None:
    """XII.5, XV.9: the reset is refused with the failing condition while the puck touches the crease."""
    start = position(stone("h2", -100, 0), puck=(-470, 30))
    start = replace(start, stones=tuple(s.at(-480, -20) if s.id == "h1" else s for s in start.stones))
    refused = apply_action(start, GoalieReset("home"))
    assert refused.error is not None and "XII.5" in refused.error.message


def test_XII_2_a_goalie_reset_uses_a_privilege_move() -> None:
    """XII.2, D3: the reset counts as a move - it uses one move of a running privilege."""
    start = position(stone("h2", -100, 0), privilege=Privilege("home", 2, 2))
    start = replace(start, stones=tuple(s.at(-480, 20) if s.id == "h1" else s for s in start.stones))
    result = apply_action(start, GoalieReset("home"))
    assert result.accepted and result.position.privilege == Privilege("home", 1, 2, ())
    assert result.position.to_move == "home"


# --------------------------------------------------------------------------- power play (XIII)


def test_XIII_2_swap_out_and_back_in_through_the_engine() -> None:
    """XIII.2, XIII.4: the goalie out of its crease swaps for the reserve; a stone that waited a move in the
    crease swaps back."""
    start = position(stone("h2", -100, 0), stone("a2", 200, 200))
    start = replace(start, stones=tuple(s.at(-380, 150) if s.id == "h1" else s for s in start.stones))
    out = apply_action(start, PowerPlaySwapOut("home", "h1"))
    assert out.accepted and codes(out.decisions) == ["POWER_PLAY"] and out.position.stone("h7") is not None
    assert out.position.power_play_of("home") is not None
    candidate = replace(out.position, stones=tuple(s.at(-470, 30) if s.id == "h2" else s
                                                   for s in out.position.stones))
    moved = apply_action(candidate, Flick("home", "h3" if candidate.stone("h3") else "h7", 0, 100))
    power_play = moved.position.power_play_of("home")
    assert moved.accepted and power_play is not None and power_play.candidates == ("h2",)
    waited = apply_action(moved.position, Flick("away", "a2", 0, -100))
    back = apply_action(waited.position, PowerPlaySwapIn("home", "h2"))
    assert back.accepted and back.position.stone("h1") is not None and back.position.power_play == ()


def test_XIII_3_a_restart_in_power_play_and_XIII_5_back_with_the_goalie() -> None:
    """XIII.3: at a restart a team may set up without its goalie (sixth stone like a defender); XIII.5: and
    put the goalie back on its spot instead before the first move."""
    from shared.formation import basic_setup

    start = Position(settings=(("effects_2_5d", False),), stones=basic_setup(), restart=True)
    out = apply_action(start, PowerPlaySwapOut("home", "h1"))
    assert out.accepted and out.position.stone("h1") is None and out.position.stone("h7") is not None
    back = apply_action(out.position, PowerPlaySwapIn("home", "h1"))
    assert back.accepted and back.position.stone("h1") is not None and back.position.stone("h7") is None


# --------------------------------------------------------------------------- overtime (XVI.1)


def test_XVI_1_a_technical_goal_in_overtime_ends_the_match() -> None:
    """XVI.1: the first goal that counts in overtime - a technical goal too - ends the match at once."""
    start = replace(position(stone("h2", -100, 0)), ruleset="ko", part=Part("overtime", 1, 100_000))
    result = technical_goal(start, "away")
    assert codes(result.decisions) == ["GOAL", "MATCH_ENDED"] and result.position.result is not None
    assert result.position.result.winner == "away" and result.position.result.reason == "SUDDEN_DEATH"


def test_XVI_1_a_penalty_shot_goal_in_overtime_ends_the_match() -> None:
    """XVI.1: a penalty-shot goal in overtime counts and ends the match (no restart)."""
    start = shot_position(ruleset="ko", part=Part("overtime", 1, 100_000))
    _first, second = scoring_shot(start)
    assert codes(second.decisions) == ["GOAL", "PENALTY_SHOT_ENDED", "MATCH_ENDED"]
    assert second.position.result is not None and second.position.result.reason == "SUDDEN_DEATH"


# --------------------------------------------------------------------------- prompts and offers


def test_A47_choose_exclusion_prompt_defaults_to_the_documented_stone() -> None:
    """A47: the exclusion prompt's default keeps the engine's choice, applied through timeout(kind)."""
    start = position(stone("h2", -100, 0))
    assert timeout(start, "home", "choose_exclusion").error is not None
    assert ChooseExclusion("home", "h2").action == "choose_exclusion"


def test_A44_offers_list_the_optional_actions_with_no_default() -> None:
    """A44, XII.2, XIII.2: offers name take_penalty, the goalie reset and the swap with no default action,
    timed by the move clock; the server's default list leaves them out."""
    start = advantage_position()
    start = replace(start, stones=tuple(s.at(-380, 150) if s.id == "h1" else s for s in start.stones))
    offered = {(p.kind, p.team): p for p in prompts(start, offers=True)}
    assert ("take_penalty", "home") in offered and ("pp_swap_out", "home") in offered
    assert all(p.default is None and p.deadline == "move_clock_ms" for p in offered.values())
    assert prompts(start) == ()
    near = replace(start, stones=tuple(s.at(-470, 20) if s.id == "h1" else s for s in start.stones))
    assert ("goalie_reset", "home") in {(p.kind, p.team) for p in prompts(near, offers=True)}


def test_XV_8_the_shot_setup_helper_keeps_the_lineups() -> None:
    """XV.8, XV.14, A32: awarding a shot stores each team's lineup; a defending team in power play gets its
    goalie back for the shot and in the lineup."""
    from shared.model import PowerPlayState

    start = replace(position(stone("h2", -100, 0), stone("a2", 200, 0), stone("a7", 300, 50)),
                    stones=(position().stones[0], stone("h2", -100, 0), stone("a2", 200, 0), stone("a7", 300, 50)),
                    power_play=(PowerPlayState("away", "a1", "a7"),))
    shot, decisions = shots.award(start, "home", settings_of(start))
    assert [d.to_json() for d in decisions] == [{"code": "POWER_PLAY", "team": "away", "on": False}]
    assert shot.penalty is not None and shot.penalty.lineups == (("h1", "h2"), ("a1", "a2"))
    assert shot.power_play == () and shot.stone("a1") is not None

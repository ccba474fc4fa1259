"""XV.10-XV.14 (penalty shots): setup, choices, and the judge of each move, from hand-made records and physics."""

from __future__ import annotations

from dataclasses import replace

from shared.events import AtRest, BodyState, Event, MoveRecord
from shared.model import Flick, PenaltyShotState, Placement, Position, PowerPlayState, Setup, Team
from shared.referee import penalty_shot as ps
from tests.referee.builders import SETTINGS, contact, on_board, position, region, stone


def shot(team: Team = "home") -> tuple[Position, PenaltyShotState]:
    """A penalty shot for ``team`` set up with the defaults (home defends x < 0, so home attacks x > 0)."""
    start = position(stone("h2", -200.0, 50.0), stone("a2", 200.0, 50.0), stone("a3", 450.0, 0.0), to_move="away")
    shot_position, state, _ = ps.setup_shot(start, team)
    return shot_position, state


def track(
    start: Position, frames: dict[str, list[tuple[float, float]]], *events: Event, steps: int = 400
) -> MoveRecord:
    """A record whose keyframes follow ``frames`` (mm per keyframe, every 8 steps) for each body, rest at the last."""
    bodies = (*(s.id for s in start.stones), "puck")
    origin = {s.id: (s.x, s.y) for s in start.stones} | {"puck": (start.puck.x, start.puck.y)}
    count = max(len(v) for v in frames.values())
    keyframes = []
    for k in range(count):
        flat: list[int] = []
        for body in bodies:
            path = frames.get(body, [origin[body]])
            x, y = path[min(k, len(path) - 1)]
            flat += [round(x * 100), round(y * 100), 0, 0]
        keyframes.append(tuple(flat))
    final = tuple(BodyState(b, *frames.get(b, [origin[b]])[-1]) for b in bodies)
    return MoveRecord(bodies=bodies, events=(*events, AtRest(steps)), steps=steps, step_hz=480, frame_steps=8,
                      keyframes=tuple(keyframes), final=final, interventions=())


def at_rest(start: Position, record: MoveRecord) -> Position:
    """``start`` with bodies where the record leaves them."""
    final = {b.id: b for b in record.final}
    stones = tuple(s.at(final[s.id].x, final[s.id].y) for s in start.stones)
    return replace(start, stones=stones, puck=replace(start.puck, x=final["puck"].x, y=final["puck"].y))


def judge(start: Position, state: PenaltyShotState, record: MoveRecord) -> ps.PenaltyVerdict:
    """Judge one move of the shot."""
    return ps.judge_move(start, record, at_rest(start, record), state, SETTINGS)


def reasons(verdict: ps.PenaltyVerdict) -> list[tuple[str, object]]:
    """(code, reason) of every decision."""
    return [(d.code, d.get("reason")) for d in verdict.decisions]


def forward(start: Position, puck_to: tuple[float, float] = (250.0, 0.0), shooter_to=(-20.0, 0.0)) -> MoveRecord:
    """The shooter h2 pushes the puck forward along the axis; both stop where told."""
    return track(start, {"h2": [(-100.0, 0.0), shooter_to], "puck": [(0.0, 0.0), puck_to]}, contact(20, "h2", "puck"))


# --------------------------------------------------------------------------- XV.11 setup


def test_XV_11_setup_places_goalie_shooter_and_puck_and_removes_the_rest():
    """XV.11, A33: goalie centred on its line, shooter on the own-half axis point, puck on the spot, nothing else."""
    start, state = shot()
    assert {(s.id, s.x, s.y) for s in start.stones} == {("a1", 498.0, 0.0), ("h2", -100.0, 0.0)}
    assert (start.puck.x, start.puck.y) == (0.0, 0.0)
    assert (state.team, state.against, state.shooter, state.goalie) == ("home", "away", "h2", "a1")
    assert start.to_move == "home"


def test_XV_11_A32_goalie_returns_for_a_team_in_power_play():
    """A32: the defending team in power play gets its goalie back, which ends its power play."""
    start = position(stone("h2", -200.0, 50.0), stone("a7", 300.0, 0.0), to_move="home")
    start = replace(start, stones=tuple(s for s in start.stones if s.id != "a1"))
    pp = PowerPlayState("away", "a1", "a7")
    shot_position, state, decisions = ps.setup_shot(start, "home", pp)
    assert state.goalie == "a1" and shot_position.stone("a1") is not None
    assert on_board(shot_position, "a1").role == "goalie"
    assert [d.to_json() for d in decisions] == [{"code": "POWER_PLAY", "team": "away", "on": False}]


def test_XV_11_goalie_choice_must_be_on_the_goal_line_within_the_mouth():
    """XV.11, A33: the defending coach may move the goalie along the line, but not off it or beside the mouth."""
    start, state = shot()
    ok = Setup("away", (Placement("a1", 498.2, -20.0),))
    assert ps.check_setup(start, state, ok, SETTINGS) is None
    moved, _ = ps.apply_setup(start, state, ok)
    a1 = on_board(moved, "a1")
    assert (a1.x, a1.y) == (498.0, -20.0)
    off_line = ps.check_setup(start, state, Setup("away", (Placement("a1", 480.0, 0.0),)), SETTINGS)
    beside = ps.check_setup(start, state, Setup("away", (Placement("a1", 498.0, 30.0),)), SETTINGS)
    assert off_line is not None and off_line.code == "INVALID_SETUP" and "goal line" in off_line.message
    assert beside is not None and beside.code == "INVALID_SETUP" and "mouth" in beside.message


def test_XV_11_shooter_choice_must_touch_the_circle_line_in_its_own_half():
    """XV.11, A33: the shooting coach picks a field stone and a spot on its own half of the circle's line."""
    start, state = shot()
    choice = Setup("home", (Placement("h3", -60.0, 80.0),))
    assert ps.check_setup(start, state, choice, SETTINGS) is None
    moved, new_state = ps.apply_setup(start, state, choice)
    assert new_state.shooter == "h3" and moved.stone("h2") is None and moved.stone("h3") is not None
    wrong_half = ps.check_setup(start, state, Setup("home", (Placement("h2", 100.0, 0.0),)), SETTINGS)
    off_line = ps.check_setup(start, state, Setup("home", (Placement("h2", -150.0, 0.0),)), SETTINGS)
    goalie = ps.check_setup(start, state, Setup("home", (Placement("h1", -100.0, 0.0),)), SETTINGS)
    assert wrong_half is not None and "own half" in wrong_half.message
    assert off_line is not None and "line of the centre circle" in off_line.message
    assert goalie is not None and goalie.code == "INVALID_SETUP"


def test_XV_11_no_setup_once_the_shot_has_begun():
    """XV.11: the choices are made before the first flick."""
    start, state = shot()
    refused = ps.check_setup(start, replace(state, moves=1), Setup("away", (Placement("a1", 498.0, 5.0),)), SETTINGS)
    assert refused is not None and refused.code == "INVALID_SETUP"


# --------------------------------------------------------------------------- XV.12 execution


def test_XV_12_only_the_shooter_moves():
    """XV.12: the defending team makes no move; the shooting team moves only its shooter."""
    start, state = shot()
    defender = ps.screen_flick(start, state, Flick("away", "a1", -500.0, 0.0), SETTINGS)
    other_stone = ps.screen_flick(start, state, Flick("home", "h3", 500.0, 0.0), SETTINGS)
    assert defender is not None and defender.code == "NOT_YOUR_TURN"
    assert other_stone is not None and other_stone.code == "STONE_NOT_SELECTABLE"


def test_XV_12_goal_with_the_second_move_scores():
    """XV.12: a goal from the second move counts and ends the shot."""
    start, state = shot()
    record = forward(start, puck_to=(520.0, 0.0), shooter_to=(300.0, 0.0))
    record = replace(record, events=(region(90, "puck", "aux:1"), *record.events))
    verdict = judge(start, replace(state, moves=1), record)
    assert reasons(verdict) == [("GOAL", None), ("PENALTY_SHOT_ENDED", "SCORED")]
    assert verdict.ended and verdict.scored and verdict.restart_by == "away"


def test_XV_12_three_moves_without_a_goal_fail():
    """XV.12: after the third move without a goal the shot has failed (NO_GOAL_IN_3)."""
    start, state = shot()
    verdict = judge(start, replace(state, moves=2), forward(start))
    assert reasons(verdict) == [("PENALTY_SHOT_ENDED", "NO_GOAL_IN_3")] and not verdict.scored


def test_XV_12_a_clean_first_move_goes_on():
    """XV.12: a first move that takes the puck out of the circle, no failure: the shot continues."""
    start, state = shot()
    verdict = judge(start, state, forward(start))
    assert not verdict.ended and verdict.decisions == () and verdict.state.moves == 1


def test_XV_12_fourth_move_refused():
    """XV.12: the shooter has only penalty_moves moves."""
    start, state = shot()
    refused = ps.screen_flick(start, replace(state, moves=3), Flick("home", "h2", 500.0, 0.0), SETTINGS)
    assert refused is not None and refused.code == "ACTION_NOT_ALLOWED"


# --------------------------------------------------------------------------- XV.13 failures


def test_XV_13a_puck_still_touching_the_circle_after_the_first_move_fails():
    """XV.13a, A30: at rest after move 1 the puck disc still overlaps the circle's line."""
    start, state = shot()
    verdict = judge(start, state, forward(start, puck_to=(108.0, 0.0), shooter_to=(-30.0, 0.0)))
    assert reasons(verdict) == [("PENALTY_SHOT_ENDED", "a")] and verdict.restart_by == "away"


def test_XV_13b_goal_with_the_first_move_is_void():
    """XV.13b: a goal with the first move is disallowed and the shot fails."""
    start, state = shot()
    record = forward(start, puck_to=(520.0, 0.0), shooter_to=(300.0, 0.0))
    record = replace(record, events=(region(90, "puck", "aux:1"), *record.events))
    verdict = judge(start, state, record)
    assert reasons(verdict) == [("GOAL_DISALLOWED", "PENALTY_SHOT_FIRST_MOVE"), ("PENALTY_SHOT_ENDED", "b")]
    assert verdict.decisions[0].get("team") == "home" and not verdict.scored


def test_XV_13c_puck_touching_the_goalie_without_a_goal_fails():
    """XV.13c: the puck touches the goalie and no goal follows in that move."""
    start, state = shot()
    record = forward(start, puck_to=(400.0, 0.0), shooter_to=(200.0, 0.0))
    record = replace(record, events=(contact(80, "a1", "puck"), *record.events))
    assert reasons(judge(start, replace(state, moves=1), record)) == [("PENALTY_SHOT_ENDED", "c")]


def test_XV_13c_puck_off_the_goalie_into_the_goal_scores():
    """XV.13c: touching the goalie is no failure when the puck goes in in the same move."""
    start, state = shot()
    record = forward(start, puck_to=(520.0, 0.0), shooter_to=(300.0, 0.0))
    record = replace(record, events=(contact(80, "a1", "puck"), region(95, "puck", "aux:1"), *record.events))
    assert judge(start, replace(state, moves=1), record).scored


def test_XV_13d_puck_touching_goal_line_beside_goal_fails():
    """XV.13d: the puck touches the goal line beside the goal."""
    start, state = shot()
    record = forward(start, puck_to=(470.0, 120.0), shooter_to=(200.0, 0.0))
    record = replace(record, events=(region(70, "puck", "goal_line_outside:1"), *record.events))
    assert reasons(judge(start, replace(state, moves=1), record)) == [("PENALTY_SHOT_ENDED", "d")]


def test_XV_13e_shooter_ahead_of_the_puck_fails():
    """XV.13e, A28: a keyframe where the shooter's centre is nearer the goal-mouth centre than the puck's."""
    start, state = shot()
    frames = {
        "h2": [(-100.0, 0.0), (-20.0, 0.0), (150.0, 0.0), (160.0, 0.0)],
        "puck": [(0.0, 0.0), (40.0, 60.0), (120.0, 150.0)],
    }
    record = track(start, frames, contact(20, "h2", "puck"))
    verdict = judge(start, replace(state, moves=1), record)
    assert reasons(verdict) == [("PENALTY_SHOT_ENDED", "e")]
    assert ps.shooter_ahead_step(record, "h2", 1) == 16


def test_XV_13e_shooter_behind_the_puck_is_fine():
    """XV.13e: following the puck without overtaking it is no failure."""
    start, _ = shot()
    assert ps.shooter_ahead_step(forward(start), "h2", 1) is None


def test_XV_13f_the_only_move_is_a_flick_of_the_shooter():
    """XV.13f: online a move is one flick (D3), so an illegal stroke cannot happen; a forward flick is simulated."""
    start, state = shot()
    assert ps.screen_flick(start, state, Flick("home", "h2", 900.0, 10.0), SETTINGS) is None


def test_XV_13g_shooter_hitting_the_goalie_without_neutral_contact_fails():
    """XV.13g, D7: the shooter collides with the goalie before any neutral contact."""
    start, state = shot()
    shooter_path = [(-100.0 + 30.0 * k, 0.0) for k in range(20)]  # keyframe 19 (step 152) is after the hit
    record = track(start, {"h2": shooter_path, "puck": [(0.0, 0.0), (470.0, 200.0)]}, contact(90, "a1", "h2"))
    assert reasons(judge(start, replace(state, moves=1), record)) == [("PENALTY_SHOT_ENDED", "g")]


def test_XV_13g_shooter_hitting_the_goalie_after_the_puck_is_no_failure():
    """XV.13g, D7: after a neutral contact (the puck) the shooter may touch the goalie."""
    start, state = shot()
    record = forward(start, puck_to=(485.0, -45.0), shooter_to=(465.0, 40.0))
    record = replace(record, events=(contact(90, "a1", "h2"), *record.events))
    assert judge(start, replace(state, moves=1), record).ended is False


def test_XV_13h_backward_flick_fails_or_is_rejected():
    """XV.13h, A27: angle > 90° to the attack fails (default) or is refused; exactly lateral is allowed."""
    start, state = shot()
    failed = ps.screen_flick(start, state, Flick("home", "h2", -100.0, 500.0), SETTINGS)
    assert isinstance(failed, ps.PenaltyVerdict) and reasons(failed) == [("PENALTY_SHOT_ENDED", "h")]
    rejecting = replace(SETTINGS, penalty_backward="reject")
    refused = ps.screen_flick(start, state, Flick("home", "h2", -100.0, 500.0), rejecting)
    assert refused is not None and refused.code == "ACTION_NOT_ALLOWED"
    assert ps.screen_flick(start, state, Flick("home", "h2", 0.0, 500.0), SETTINGS) is None


def test_XV_13i_own_goal_in_a_penalty_shot_fails():
    """XV.13i, XIV.6: the puck into the shooting team's own goal is void and ends the shot."""
    start, state = shot()
    record = track(start, {"puck": [(0.0, 0.0), (-50.0, 0.0)], "h2": [(-100.0, 0.0), (-100.0, 30.0)]})
    record = replace(record, events=(region(200, "puck", "aux:-1"), *record.events))
    verdict = judge(start, replace(state, moves=1), record)
    assert reasons(verdict) == [("GOAL_DISALLOWED", "OWN_GOAL_IN_PENALTY_SHOT"), ("PENALTY_SHOT_ENDED", "i")]
    assert verdict.decisions[0].get("team") == "away"


def test_XV_13_A29_shooter_crossing_the_goal_line_fails():
    """A29: the shooter touching the goal line beside the goal fails like the puck (d)."""
    start, state = shot()
    record = forward(start, puck_to=(300.0, 0.0), shooter_to=(480.0, 200.0))
    record = replace(record, events=(region(120, "h2", "goal_line_outside:1"), *record.events))
    frames_ok = replace(record, keyframes=())
    assert reasons(judge(start, replace(state, moves=1), frames_ok)) == [("PENALTY_SHOT_ENDED", "d")]


def test_XV_13_failure_before_the_goal_voids_it():
    """XV.13: the shot ends at the first failure, so a later goal in the same move does not count."""
    start, state = shot()
    record = forward(start, puck_to=(520.0, 0.0), shooter_to=(300.0, 0.0))
    early = (region(50, "puck", "goal_line_outside:1"), region(90, "puck", "aux:1"))
    record = replace(record, events=(*early, *record.events))
    verdict = judge(start, replace(state, moves=1), record)
    assert reasons(verdict) == [("PENALTY_SHOT_ENDED", "d")] and not verdict.scored


# --------------------------------------------------------------------------- XV.10, XV.14


def test_XV_10_shot_is_completed_after_the_siren():
    """XV.10: a shot in progress keeps its moves after the siren; the flag is kept in the state."""
    _, state = shot()
    assert ps.moves_allowed_after_siren(ps.at_siren(state)) and ps.at_siren(state).after_siren
    assert not ps.moves_allowed_after_siren(None)


def test_XV_14_team_penalised_restarts():
    """XV.14: after an in-game shot the team it was awarded against restarts; a shoot-out shot names none."""
    start, state = shot("away")
    assert ps.restart_team(state) == "home"
    verdict = judge(start, replace(state, moves=2, in_shootout=True), forward(start))
    assert verdict.ended and verdict.restart_by is None


def test_XV_12_real_physics_flick_down_the_axis():
    """XV.12-XV.13 with real physics: a firm flick straight down the axis takes the puck out of the circle."""
    from shared.physics import rested_position, simulate

    start, state = shot()
    flick = Flick("home", "h2", 900.0, 0.0)
    assert ps.screen_flick(start, state, flick, SETTINGS) is None
    record = simulate(start, flick, SETTINGS)
    verdict = ps.judge_move(start, record, rested_position(start, record), state, SETTINGS)
    assert ("PENALTY_SHOT_ENDED", "a") not in reasons(verdict)
    assert ("PENALTY_SHOT_ENDED", "e") not in reasons(verdict)

"""III.2-III.4, XV.15-XV.18, XVI (overtime and the shoot-out): deciding parts, sudden death, shot order, 15 s."""

from __future__ import annotations

from dataclasses import replace

from shared.model import Flick, Part, ShootoutState
from shared.referee import overtime, penalty_shot, shootout
from shared.rulesets import make_settings
from tests.referee.builders import SETTINGS, position, stone


def test_III_2_ko_has_one_three_minute_overtime_then_a_shootout():
    """III.2-III.3: ko plays 3 minutes of sudden-death overtime, then penalty shots."""
    parts = overtime.deciding_parts(make_settings("ko"))
    assert [(p.kind, p.clock_ms) for p in parts] == [("overtime", 180_000), ("shootout", 0)]


def test_III_3_standard_has_no_deciding_parts():
    """III.2: only knock-out matches go to overtime; a standard draw stands."""
    assert overtime.deciding_parts(make_settings("standard")) == ()


def test_III_4_final_has_three_plus_six_minutes_then_a_series_of_five():
    """III.4: the final plays 3 then 6 minutes of overtime, then a shoot-out whose first series is 5."""
    final = make_settings("final")
    assert [(p.kind, p.number, p.clock_ms) for p in overtime.deciding_parts(final)] == [
        ("overtime", 1, 180_000), ("overtime", 2, 360_000), ("shootout", 1, 0),
    ]
    _, state, _, _ = shootout.begin(position(stone("h2", -100.0, 0.0), stone("a2", 100.0, 0.0)), final)
    assert state.series == 5


def test_XVI_1_first_goal_in_overtime_ends_the_match():
    """XVI.1: sudden death - any goal that counts in overtime ends the match; not in a period."""
    in_overtime = position(part=Part("overtime", 1, 100_000))
    ended, decisions = overtime.sudden_death(in_overtime, "away")
    assert ended.result is not None and ended.result.winner == "away"
    assert [d.to_json() for d in decisions] == [{"code": "MATCH_ENDED", "winner": "away", "reason": "SUDDEN_DEATH"}]
    assert overtime.sudden_death(position(), "away") == (position(), ())


def test_XVI_2_overtime_starts_with_three_field_stones():
    """XVI.2: three field stones plus the goalie in overtime, five in a period."""
    assert overtime.field_stones(Part("overtime", 1, 180_000), SETTINGS) == 3
    assert overtime.field_stones(Part("period", 2, 360_000), SETTINGS) == 5


def test_XV_16_lot_decides_who_starts_and_shots_alternate():
    """XV.16: the seeded lot picks the starter (same seed, same starter); teams alternate single shots."""
    start = position(stone("h2", -100.0, 0.0), stone("a2", 100.0, 0.0), seed=11)
    shot, state, shot_state, decisions = shootout.begin(start, make_settings("ko"))
    assert state.starter == shootout.draw_starter(start) == shootout.draw_starter(replace(start, move_number=9))
    assert decisions[0].to_json() == {"code": "PENALTY_SHOT", "team": state.starter}
    assert shot_state.team == state.starter and shot_state.in_shootout and shot.to_move == state.starter
    seeds = {shootout.draw_starter(replace(start, seed=s)) for s in range(20)}
    assert seeds == {"home", "away"}
    _, state, next_shot, _ = shootout.after_shot(shot, state, shot_state, False, make_settings("ko"))
    assert next_shot is not None and next_shot.team != shot_state.team
    assert shootout.next_shooter(state) == next_shot.team


def test_XV_16_first_series_stops_as_soon_as_decided():
    """XV.16: 2:0 after four shots of a series of 3 cannot be caught up - the remaining shots are not taken."""
    state = ShootoutState("home", 3, (("home", True), ("away", False), ("home", True)))
    assert shootout.winner(state) is None
    assert shootout.winner(replace(state, shots=(*state.shots, ("away", False)))) == "home"


def test_XV_16_level_series_goes_to_one_shot_series():
    """XV.16: after a level first series, the only team to score in a series of one shot each wins."""
    level = (("home", True), ("away", True), ("home", False), ("away", False), ("home", False), ("away", False))
    state = ShootoutState("home", 3, level)
    assert shootout.winner(state) is None
    assert shootout.winner(replace(state, shots=(*level, ("home", True)))) is None
    assert shootout.winner(replace(state, shots=(*level, ("home", True), ("away", True)))) is None
    assert shootout.winner(replace(state, shots=(*level, ("home", False), ("away", True)))) == "away"


def test_XV_16_decided_shootout_ends_the_match():
    """XV.16: the deciding shot ends the match with MATCH_ENDED reason SHOOTOUT."""
    start = position(stone("h2", -100.0, 0.0), stone("a2", 100.0, 0.0))
    state = ShootoutState("home", 3, (("home", True), ("away", False), ("home", True)))
    _, shot_state, _ = penalty_shot.setup_shot(start, "away", in_shootout=True)
    ended, _, following, decisions = shootout.after_shot(start, state, shot_state, False, SETTINGS)
    assert following is None and ended.result is not None and ended.result.winner == "home"
    assert decisions[0].to_json() == {"code": "MATCH_ENDED", "winner": "home", "reason": "SHOOTOUT"}


def test_XV_15_XV_17_only_the_shooter_may_move_so_no_trial_moves():
    """XV.15, XV.17: no practice flick exists; any other stone's flick during a shot is refused."""
    start = position(stone("h2", -100.0, 0.0), stone("h3", -300.0, 0.0), stone("a2", 100.0, 0.0))
    shot, state, _ = penalty_shot.setup_shot(start, "home", in_shootout=True)
    refused = penalty_shot.screen_flick(shot, state, Flick("home", "h3", 300.0, 0.0), SETTINGS)
    assert refused is not None and refused.code == "STONE_NOT_SELECTABLE"


def test_XV_18_fifteen_seconds_from_the_first_flick():
    """XV.18, A42: the timer starts at the first flick; past 15 s a flick is refused and the shot fails."""
    start = position(stone("h2", -100.0, 0.0), stone("a2", 100.0, 0.0))
    shot, state, _ = penalty_shot.setup_shot(start, "home", in_shootout=True)
    assert penalty_shot.elapse_shot(state, 20_000).shot_ms == 0  # aiming before the first flick is free
    running = penalty_shot.elapse_shot(replace(state, moves=1), 15_000)
    assert penalty_shot.expire(running, SETTINGS) is None
    late = penalty_shot.elapse_shot(running, 1)
    refused = penalty_shot.screen_flick(shot, late, Flick("home", "h2", 500.0, 0.0), SETTINGS)
    assert refused is not None and refused.code == "ACTION_NOT_ALLOWED"
    verdict = penalty_shot.expire(late, SETTINGS)
    assert verdict is not None and verdict.ended and not verdict.scored and verdict.restart_by is None
    assert penalty_shot.expire(replace(late, in_shootout=False), SETTINGS) is None

"""The pure 2.5-D decision model and the placement helpers of shared.effects (VI.3, VI.4, VI.5)."""

from __future__ import annotations

import math
from dataclasses import replace

from shared import effects
from shared import geometry as g
from shared.rulesets import Settings

S = Settings()


def test_impact_angle_is_90_head_on_and_0_grazing():
    """The impact angle is measured from the contact surface: head-on 90°, grazing 0°, 45° in between."""
    assert effects.impact_angle_deg(100.0, 100.0) == 90.0
    assert effects.impact_angle_deg(0.0, 100.0) == 0.0
    assert math.isclose(effects.impact_angle_deg(100.0, 100.0 * math.sqrt(2)), 45.0)
    assert effects.impact_angle_deg(5.0, 0.0) == 0.0


def test_puck_flies_over_only_fast_steep_and_lucky():
    """VI.5: speed above the threshold, angle above the minimum and a draw under the chance are all needed."""
    fast = S.exit_speed_puck + 1
    assert effects.puck_flies_over(S, fast, 60.0, S.exit_chance_puck - 1e-9)
    assert not effects.puck_flies_over(S, S.exit_speed_puck, 60.0, 0.0)
    assert not effects.puck_flies_over(S, fast, S.exit_min_angle_deg - 0.1, 0.0)
    assert not effects.puck_flies_over(S, fast, 60.0, S.exit_chance_puck)
    assert not effects.puck_flies_over(replace(S, effects_2_5d=False), fast, 60.0, 0.0)


def test_stone_flips_only_on_steep_hard_impacts():
    """VI.4: a near head-on impact above flip_speed flips with the chance; an oblique one never."""
    fast = S.flip_speed + 1
    assert effects.stone_flips(S, fast, 89.0, 0.0)
    assert not effects.stone_flips(S, fast, S.flip_min_angle_deg - 1, 0.0)
    assert not effects.stone_flips(S, S.flip_speed - 1, 90.0, 0.0)
    assert not effects.stone_flips(S, fast, 90.0, S.flip_chance)
    assert not effects.stone_flips(replace(S, effects_2_5d=False), fast, 90.0, 0.0)


def test_puck_lands_on_goal_above_threshold_with_chance():
    """VI.3: a hard hit on a frame lands the puck on the goal with the drawn chance; off disables it."""
    fast = S.on_goal_speed + 1
    assert effects.puck_lands_on_goal(S, fast, 0.0)
    assert not effects.puck_lands_on_goal(S, S.on_goal_speed - 1, 0.0)
    assert not effects.puck_lands_on_goal(S, fast, S.on_goal_chance)
    assert not effects.puck_lands_on_goal(replace(S, effects_2_5d=False), fast, 0.0)


def test_struck_body_is_the_slower_approacher():
    """The resting stone hit by a moving one is the struck one, whichever name sorts first."""
    assert effects.struck_body("a2", "h2", 0.0, 2000.0) == "a2"
    assert effects.struck_body("a2", "h2", 2000.0, 0.0) == "h2"


def test_nearest_free_spot_keeps_a_free_spot_and_moves_off_an_occupied_one():
    """A free spot is returned as is; an occupied one gives the nearest spot clear of every body."""
    assert effects.nearest_free_spot([], 10.0, 20.0, 16.0) == (10.0, 20.0)
    bodies = [(0.0, 0.0, 16.0), (40.0, 0.0, 16.0)]
    x, y = effects.nearest_free_spot(bodies, 0.0, 0.0, 8.5)
    assert effects.spot_is_free(bodies, x, y, 8.5)
    assert math.hypot(x, y) < 16.0 + 8.5 + 1.0  # right beside the stone, not far away
    assert (x, y) == (round(x, 2), round(y, 2))


def test_nearest_free_spot_stays_on_the_board_and_out_of_goals():
    """A spot asked for outside the board or inside a goal frame comes back on the board, clear of the goal."""
    x, y = effects.nearest_free_spot([], 700.0, 0.0, 8.5)
    assert g.disc_inside_board(x, y, 8.5) and effects.disc_allowed(x, y, 8.5)
    x, y = effects.nearest_free_spot([], 552.0, 0.0, 8.5)
    assert effects.disc_allowed(x, y, 8.5)


def test_respots_touch_the_board_and_the_goal_back():
    """VI.5 puts a body touching the board inside where it left; VI.3 puts the puck against the goal's back."""
    x, y = effects.respot_left_board(100.0, g.HALF_WIDTH, 8.5)
    assert (x, round(y, 6)) == (100.0, round(g.HALF_WIDTH - 8.51, 6))
    assert effects.respot_on_goal(1, 12.0, 8.5) == (g.GOAL_OUTER_BACK_X + 8.51, 12.0)
    assert effects.respot_on_goal(-1, -3.0, 8.5) == (-(g.GOAL_OUTER_BACK_X + 8.51), -3.0)
    assert effects.on_goal_point(1, 600.0, 80.0) == (g.GOAL_OUTER_BACK_X, 44.0)


def test_settle_separates_overlaps_and_pulls_discs_onto_the_board():
    """Overlapping discs end apart, a disc through the board ends inside it, all on the 0.01 mm grid."""
    discs = [(0.0, 0.0, 16.0), (31.9, 0.0, 16.0), (100.0, g.HALF_WIDTH - 15.9, 16.0), (0.0, 0.0, 8.5)]
    out = effects.settle(discs)
    for i, (x, y) in enumerate(out):
        r = discs[i][2]
        assert effects.disc_allowed(x, y, r)
        assert (x, y) == (round(x, 2), round(y, 2))
        for j in range(i + 1, len(out)):
            assert math.hypot(out[j][0] - x, out[j][1] - y) >= r + discs[j][2]


def test_settle_leaves_a_clean_position_alone():
    """Discs that neither overlap nor leave the board are only quantised."""
    assert effects.settle([(1.234, 5.678, 16.0), (100.0, 0.0, 8.5)]) == [(1.23, 5.68), (100.0, 0.0)]

"""Aiming: the slingshot convention, the speed cap, the dead zone, picking stones and the refusal reasons."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from client.match.aiming import DEAD_ZONE_MM, FULL_POWER_MM, Aim, flick_of, refusal, shot_of, stone_at
from shared.model import Privilege
from shared.referee.moves import speed_problem
from shared.rulesets import RULESETS, make_settings
from tests.client.helpers import basic_position

PULLS = st.floats(min_value=0.0, max_value=4 * FULL_POWER_MM, allow_nan=False)
ANGLES = st.floats(min_value=0.0, max_value=2 * math.pi, allow_nan=False)


def test_pulling_back_flicks_forward():
    """Pulling the pointer towards -x sends the stone towards +x."""
    shot = shot_of(Aim("h2", 0.0, 0.0, -50.0, 0.0), 20.0, 3000.0)
    assert shot is not None and shot.vx > 0 and shot.vy == 0


def test_speed_is_capped_at_the_maximum():
    """A pull far beyond full power gives exactly flick_speed_max."""
    shot = shot_of(Aim("h2", 0.0, 0.0, 0.0, -10 * FULL_POWER_MM), 20.0, 3000.0)
    assert shot is not None and shot.speed == pytest.approx(3000.0) and shot.power == 1.0


def test_dead_zone_cancels():
    """A click or tiny drag is not a move."""
    assert shot_of(Aim("h2", 0.0, 0.0, DEAD_ZONE_MM / 2, 0.0), 20.0, 3000.0) is None


def test_power_grows_with_the_pull_from_the_minimum_speed():
    """Just past the dead zone the speed is the minimum; halfway it is in between."""
    low = shot_of(Aim("h2", 0.0, 0.0, DEAD_ZONE_MM + 1e-9, 0.0), 20.0, 3000.0)
    mid = shot_of(Aim("h2", 0.0, 0.0, (DEAD_ZONE_MM + FULL_POWER_MM) / 2, 0.0), 20.0, 3000.0)
    assert low is not None and low.speed == pytest.approx(20.0)
    assert mid is not None and 20.0 < mid.speed < 3000.0


def test_flick_action_names_team_and_stone():
    """The drag becomes the Flick the server expects."""
    flick = flick_of(Aim("a3", 100.0, 0.0, 180.0, 0.0), "away", make_settings("standard"))
    assert flick is not None and (flick.team, flick.stone) == ("away", "a3") and flick.vx < 0


def test_stone_at_picks_the_stone_under_the_pointer():
    """A press on the centre forward's spot picks it; a press on empty wood picks nothing."""
    position = basic_position()
    assert stone_at(position, -100.0 + 10.0, 0.0, 16.0).id == "h2"
    assert stone_at(position, -300.0, 250.0, 16.0) is None


def test_only_the_centre_forward_may_start():
    """After a restart any other stone is refused with V.7."""
    position = basic_position(restart=True)
    assert refusal(position, "home", position.stone("h3"), {"h2"}) == "Only the centre forward may start (V.7)"
    assert refusal(position, "home", position.stone("h2"), {"h2"}) is None


def test_refusals_for_turn_ownership_and_spectators():
    """Wrong turn, an opponent's stone and a spectator each get their reason."""
    position = basic_position(to_move="away")
    assert "VI.1" in refusal(position, "home", position.stone("h2"), set())
    assert "IX" in refusal(replace(position, privilege=Privilege("away", 1, 2)), "home", position.stone("h2"), set())
    assert refusal(position, "away", position.stone("h2"), {"a2"}) == "h2 is not your stone"
    assert refusal(position, None, position.stone("a2"), {"a2"}).startswith("Spectators")


@given(pull=PULLS, angle=ANGLES, ruleset=st.sampled_from(RULESETS), x=st.floats(-500, 500), y=st.floats(-250, 250))
def test_D3_every_sent_flick_lies_in_the_rulesets_speed_range(pull, angle, ruleset, x, y):
    """Any pull in any direction, from anywhere, gives a flick the referee's D3 speed check accepts (or none)."""
    settings = make_settings(ruleset)
    flick = flick_of(Aim("h2", x, y, x + pull * math.cos(angle), y + pull * math.sin(angle)), "home", settings)
    assert flick is None or speed_problem(flick, settings) is None


@given(angle=ANGLES, over=st.floats(min_value=1.0, max_value=5.0))
def test_D3_a_full_pull_in_any_direction_is_accepted_at_full_speed(angle, over):
    """A pull at or past full power is never refused and keeps (within 0.02 mm/s) the ruleset's top speed."""
    settings = make_settings("standard", {"flick_speed_max": 2500.0, "flick_speed_min": 40.0})
    pull = FULL_POWER_MM * over
    flick = flick_of(Aim("h2", 0.0, 0.0, pull * math.cos(angle), pull * math.sin(angle)), "home", settings)
    assert flick is not None and speed_problem(flick, settings) is None
    assert math.hypot(flick.vx, flick.vy) == pytest.approx(2500.0, abs=0.02)

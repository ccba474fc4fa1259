"""Setting overrides are checked for sense: every setting has a range, and contradictions are refused by name."""

from __future__ import annotations

import pytest

from shared.rulesets import RULESETS, SETTING_NAMES, SETTING_RANGES, Settings, SettingsError, check_sense, make_settings

SWITCHES = {name for name in SETTING_NAMES if isinstance(getattr(Settings(), name), bool)}


def test_every_setting_but_the_switches_has_a_range():
    """A setting added without a range would accept anything from the network."""
    assert set(SETTING_NAMES) - SWITCHES == set(SETTING_RANGES)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_ruleset_makes_sense_as_it_is(ruleset: str):
    """The defaults of every ruleset lie within the ranges."""
    check_sense(make_settings(ruleset))


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"break_ms": -1}, "break_ms"),
        ({"period_ms": 0}, "period_ms"),
        ({"period_ms": 10**12}, "period_ms"),
        ({"disconnect_grace_ms": 0}, "disconnect_grace_ms"),
        ({"move_clock_ms": 50}, "move_clock_ms"),
        ({"step_hz": 0}, "step_hz"),
        ({"flick_speed_max": 6000, "step_hz": 240}, "max_step_travel"),
        ({"flick_speed_min": 3000}, "flick_speed_min"),
        ({"restitution_board": 1.5}, "restitution_board"),
        ({"penalty_backward": "maybe"}, "penalty_backward"),
        ({"overtime_ms": [60000] * 5}, "overtime_ms"),
        ({"overtime_ms": [0]}, "overtime_ms"),
        ({"min_field_stones": 4, "overtime_field_stones": 3}, "min_field_stones"),
    ],
)
def test_a_setting_without_sense_is_refused_naming_it(overrides: dict[str, object], named: str):
    """Negative or zero durations, a period that never ends, tunnelling speeds and unknown choices are refused."""
    with pytest.raises(SettingsError, match=named):
        make_settings("standard", overrides)


def test_short_test_clocks_are_still_allowed():
    """Clocks of a few hundred ms (the server's tests, quick demos) are within the ranges."""
    make_settings("quick", {"period_ms": 300, "move_clock_ms": 1500, "choice_timeout_ms": 500,
                            "disconnect_grace_ms": 300})

"""Chapters I.5 and II: the stick replaced by one flick input, and the teams' stones."""

from __future__ import annotations

from shared import formation
from shared.match import apply_action
from shared.model import STONE_IDS, TEAMS, Flick, Position, Team
from shared.rulesets import make_settings


def _basic(to_move: Team) -> Position:
    return Position(stones=formation.basic_setup(), to_move=to_move, settings=(("effects_2_5d", False),))


def test_I_5_both_coaches_get_the_same_flick_limits():
    """I.5 (digital): the stick is a flick input with the same speed limits for both teams."""
    settings = make_settings()
    for team, stone in zip(TEAMS, ("h3", "a3"), strict=True):
        too_fast = apply_action(_basic(team), Flick(team, stone, settings.flick_speed_max + 1.0, 0.0))
        too_slow = apply_action(_basic(team), Flick(team, stone, settings.flick_speed_min / 2, 0.0))
        at_limit = apply_action(_basic(team), Flick(team, stone, 0.0, settings.flick_speed_max))
        assert too_fast.error is not None and too_fast.error.code == "SPEED_OUT_OF_RANGE"
        assert too_slow.error is not None and too_slow.error.code == "SPEED_OUT_OF_RANGE"
        assert at_limit.accepted


def test_II_1_seven_stones_per_team_with_the_reserve_off_the_board():
    """II.1: each team has 7 stones (goalie, 5 field players, a reserve); the basic setup fields 6 of them."""
    stones = formation.basic_setup()
    for team in ("home", "away"):
        assert len(STONE_IDS[team]) == 7
        on_board = [s for s in stones if s.team == team]
        assert len(on_board) == 6
        assert [s.role for s in on_board].count("goalie") == 1
        assert STONE_IDS[team][-1] not in {s.id for s in on_board}  # the reserve waits for power play (XIII)

"""The basic setup and its validation (RULES.md §1.3, IV.1-IV.4, XIII.3, XVI.2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared import formation, geometry
from shared.model import Stone

R = geometry.STONE_RADIUS


def _by_id(stones: tuple[Stone, ...]) -> dict[str, Stone]:
    return {s.id: s for s in stones}


def _moved(stones: tuple[Stone, ...], stone_id: str, x: float, y: float) -> tuple[Stone, ...]:
    return tuple(s.at(x, y) if s.id == stone_id else s for s in stones)


def test_IV_1_basic_setup_spots_for_the_left_team():
    """Goalie on (-498, 0), centre forward on (-100, 0), wings on (-50, ∓86.6), defenders at the default."""
    stones = _by_id(formation.team_setup("home", -1))
    assert (stones["h1"].x, stones["h1"].y, stones["h1"].role) == (-498.0, 0.0, "goalie")
    assert (stones["h2"].x, stones["h2"].y) == (-100.0, 0.0)
    assert (stones["h3"].x, stones["h3"].y) == (-50.0, -86.6)
    assert (stones["h4"].x, stones["h4"].y) == (-50.0, 86.6)
    assert (stones["h5"].x, stones["h5"].y) == (-formation.DEFENDER_X, -formation.DEFENDER_Y)
    assert (stones["h6"].x, stones["h6"].y) == (-formation.DEFENDER_X, formation.DEFENDER_Y)
    assert all(s.role == "field" for s in stones.values() if s.id != "h1")


def test_IV_2_right_team_is_the_mirror_image():
    """The team at end +1 stands on the mirrored spots with its own ids."""
    left = formation.team_setup("home", -1)
    right = formation.team_setup("away", 1)
    assert [(s.id[1:], -s.x, s.y) for s in left] == [(s.id[1:], s.x, s.y) for s in right]
    assert all(s.team == "away" and s.id.startswith("a") for s in right)


def test_IV_1_default_defenders_are_legal_and_clear_of_the_crease():
    """The default defender spots satisfy legal_defender_spot, also for the power-play sixth stone."""
    for end in (-1, 1):
        for slot in ("defender_1", "defender_2", "sixth"):
            x, y = formation.slot_spot(slot, end)
            assert geometry.legal_defender_spot(x, y, R, end)
            assert not geometry.in_crease(x, y, R, end)


def test_basic_setup_both_teams_is_legal_for_either_starter():
    """The full basic setup passes setup_problems for both teams, whoever starts."""
    for home_end in (-1, 1):
        stones = formation.basic_setup(home_end)
        assert [s.id for s in stones] == ["h1", "h2", "h3", "h4", "h5", "h6", "a1", "a2", "a3", "a4", "a5", "a6"]
        for team, end in (("home", home_end), ("away", -home_end)):
            assert formation.setup_problems(stones, team, end, R, starts=True) == ()


def test_IV_4_drop_order_keeps_the_centre_forward():
    """With fewer field stones the second defender goes first, then the second wing, never the centre forward."""
    assert formation.kept_slots(5) == ("centre_forward", "wing_1", "defender_1", "wing_2", "defender_2")
    assert formation.kept_slots(4) == ("centre_forward", "wing_1", "defender_1", "wing_2")
    assert formation.kept_slots(3) == ("centre_forward", "wing_1", "defender_1")
    assert formation.kept_slots(1) == ("centre_forward",)
    with pytest.raises(ValueError):
        formation.kept_slots(7)


def test_XVI_2_overtime_setup_has_three_field_stones():
    """Overtime (3 + goalie): h1, h2 on the centre-forward spot, h3 on a wing, h5 as defender."""
    stones = _by_id(formation.team_setup("home", -1, 3))
    assert sorted(stones) == ["h1", "h2", "h3", "h5"]
    assert (stones["h2"].x, stones["h2"].y) == formation.slot_spot("centre_forward", -1)


def test_team_setup_with_given_ids_fills_slots_in_keep_order():
    """field_ids (e.g. after exclusions) fill the kept slots in KEEP_ORDER."""
    stones = _by_id(formation.team_setup("away", 1, 3, field_ids=["a6", "a4", "a3"]))
    assert (stones["a6"].x, stones["a6"].y) == formation.slot_spot("centre_forward", 1)
    assert (stones["a4"].x, stones["a4"].y) == formation.slot_spot("wing_1", 1)
    assert (stones["a3"].x, stones["a3"].y) == formation.slot_spot("defender_1", 1)
    with pytest.raises(ValueError):
        formation.team_setup("away", 1, 3, field_ids=["a2"])


def test_XIII_3_power_play_setup_places_the_sixth_like_a_defender():
    """Without the goalie, six field stones stand legally; the sixth is a third defender."""
    stones = formation.team_setup("home", -1, 6, goalie=False)
    assert [s.id for s in stones] == ["h2", "h3", "h5", "h4", "h6", "h7"]
    assert formation.setup_problems(stones, "home", -1, R, starts=True) == ()
    with_goalie = formation.team_setup("home", -1, 6)
    assert any("defenders" in p for p in formation.setup_problems(with_goalie, "home", -1, R, starts=True))


def test_IV_1_goalie_off_its_spot_is_reported():
    """A goalie one millimetre off its spot is illegal; within one notation quantum it is accepted."""
    base = formation.team_setup("home", -1)
    stones = _moved(base, "h1", -497.0, 0.0)
    assert any(p.startswith("h1") for p in formation.setup_problems(stones, "home", -1, R, starts=False))
    stones = _moved(base, "h1", -498.0 + formation.SPOT_TOLERANCE / 2, 0.0)
    assert formation.setup_problems(stones, "home", -1, R, starts=False) == ()


def test_IV_1_defender_touching_the_crease_is_reported():
    """A defender touching the crease line is illegal; one touching the blue line is legal (A56)."""
    base = formation.team_setup("home", -1)
    crease_front = geometry.CREASE_FRONT_X - geometry.GOAL_LINE_HALF_WIDTH
    stones = _moved(base, "h5", -(crease_front - R), -50.0)  # exactly touching the crease line
    assert any(p.startswith("h5") for p in formation.setup_problems(stones, "home", -1, R, starts=False))
    stones = _moved(base, "h5", -(geometry.BLUE_LINE_INNER_X - R), -100.0)  # exactly touching the blue line
    assert formation.setup_problems(stones, "home", -1, R, starts=False) == ()


def test_IV_1_field_stone_in_the_neutral_zone_is_reported():
    """A field stone neither on a face-off spot nor in the own third is illegal."""
    stones = _moved(formation.team_setup("home", -1), "h6", -150.0, 200.0)
    problems = formation.setup_problems(stones, "home", -1, R, starts=False)
    assert len(problems) == 1 and problems[0].startswith("h6")


def test_IV_4_starting_team_must_fill_the_centre_forward_spot():
    """Leaving the centre-forward spot empty is legal only for the team that does not start."""
    stones = [s for s in formation.team_setup("home", -1) if s.id != "h2"]
    assert any("centre-forward" in p for p in formation.setup_problems(stones, "home", -1, R, starts=True))
    assert formation.setup_problems(stones, "home", -1, R, starts=False) == ()


def test_IV_1_overlapping_defenders_are_reported_once():
    """Two defenders pressed into each other make one overlap problem; touching exactly is fine."""
    base = formation.team_setup("home", -1)
    h5 = _by_id(base)["h5"]
    stones = _moved(base, "h6", h5.x, h5.y + 2 * R - 1.0)
    problems = formation.setup_problems(stones, "home", -1, R, starts=False)
    assert problems == ("h5 overlaps h6 (IV.1)",)
    stones = _moved(base, "h6", h5.x, h5.y + 2 * R)
    assert formation.setup_problems(stones, "home", -1, R, starts=False) == ()


def test_IV_1_overlap_with_opponent_or_puck_is_reported():
    """A defender on an opponent stone or on the puck is illegal; the other team's own overlaps are not judged."""
    stones = list(formation.basic_setup())
    a5 = next(s for s in stones if s.id == "a5")
    stones = [replace(s, x=a5.x - 10.0, y=a5.y) if s.id == "h5" else s for s in stones]
    problems = formation.setup_problems(stones, "home", -1, R, starts=False)
    assert any("h5" in p for p in problems)
    clean = formation.basic_setup()
    assert formation.setup_problems(clean, "home", -1, R, starts=False, puck=(-360.0, -100.0)) == (
        "h5 overlaps the puck (IV.1)",
    )
    assert formation.setup_problems(clean, "away", 1, R, starts=False, puck=(-360.0, -100.0)) == ()


def test_forward_slot_recognises_spots_only_on_the_own_half():
    """forward_slot names the spot under a centre on the own half and None on the other half."""
    assert formation.forward_slot(-100.0, 0.0, -1) == "centre_forward"
    assert formation.forward_slot(-50.0, 86.6, -1) == "wing_2"
    assert formation.forward_slot(100.0, 0.0, -1) is None
    assert formation.setup_problems(formation.team_setup("away", 1), "away", 1, R, starts=True) == ()

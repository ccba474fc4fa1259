"""Restarts, who starts and the setup action (IV.1-IV.5, V.1-V.6, D13), one or more tests per rule id."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared import formation, geometry, notation
from shared.model import Placement, Position, Privilege, Puck, Setup, Team
from shared.outcome import RuleError
from shared.referee import clock
from shared.referee.setup import (
    apply_setup,
    begin_part,
    first_period_starter,
    part_starter,
    restart,
    start_match,
    starter_after_disallowed_goal,
    starter_after_goal,
    starter_after_penalty_shot,
    starter_by_lot,
)
from shared.rulesets import make_settings
from tests.referee.builders import on_board

SETTINGS = make_settings("standard")


def _started(seed: int = 7) -> Position:
    """A match just started: period 1 from the basic setup."""
    return start_match(Position(seed=seed), SETTINGS)[0]


def _scattered(position: Position) -> Position:
    """The same position with every stone moved off its spot and the puck off the centre, as after play."""
    stones = tuple(s.at(s.x * 0.5 + 3.0, s.y * 0.5 - 7.0) for s in position.stones)
    return replace(position, stones=stones, puck=Puck(120.0, -40.0), restart=False)


def _spots(position: Position) -> dict[str, tuple[float, float]]:
    """Each stone's centre by id."""
    return {s.id: (s.x, s.y) for s in position.stones}


# --------------------------------------------------------------------------- V: who starts


def test_V_2_first_period_starter_drawn_by_lot() -> None:
    """V.2: the 1st-period starter is drawn from the seed: the same seed the same team, and both teams occur."""
    drawn = {seed: first_period_starter(Position(seed=seed)) for seed in range(40)}
    assert set(drawn.values()) == {"home", "away"}
    assert all(first_period_starter(Position(seed=seed)) == team for seed, team in drawn.items())


def test_V_2_start_match_records_starter_and_announces_restart() -> None:
    """V.2: start_match stores the drawn starter, gives it the move and announces RESTART for it."""
    position, decisions = start_match(Position(seed=11), SETTINGS)
    expected = first_period_starter(Position(seed=11))
    assert position.first_starter == expected
    assert position.to_move == expected
    assert [d.to_json() for d in decisions] == [{"code": "RESTART", "team": expected}]
    assert position.part.kind == "period" and position.part.number == 1
    assert position.part.clock_ms == SETTINGS.period_ms


def test_V_2_a_stored_first_starter_is_kept() -> None:
    """V.2: once drawn, the first starter is not drawn again (a position that has one keeps it)."""
    drawn = first_period_starter(Position(seed=5))
    forced: Team = "away" if drawn == "home" else "home"
    assert first_period_starter(Position(seed=5, first_starter=forced)) == forced


def test_V_2_later_parts_alternate() -> None:
    """V.2: the teams start the parts alternately, counted across every part."""
    position = Position(seed=3, first_starter="away")
    assert [part_starter(position, i) for i in range(5)] == ["away", "home", "away", "home", "away"]


def _opening(seed: int, to_move: str) -> Position:
    """An opening face-off read from SCENARIOS.md JSON without ``first_starter``: period 1 of 1 s, no break."""
    return notation.position_from_json({"seed": seed, "to_move": to_move, "restart": True,
                                        "settings": {"period_ms": 1000, "break_ms": 0}})


def test_V_2_the_team_to_move_at_the_opening_face_off_started_period_1_so_the_other_starts_period_2() -> None:
    """V.2: at the opening face-off (period 1, restart, move 0) the team to move started the match, so period 2
    is the other team's, whichever team the seed's lot would have named."""
    lots = {first_period_starter(Position(seed=seed)) for seed in range(12)}
    assert lots == {"home", "away"}  # the seeds below draw both ways
    for seed in range(12):
        for to_move, other in (("home", "away"), ("away", "home")):
            opening = _opening(seed, to_move)
            after, decisions = clock.elapse(opening, 1000, make_settings("standard", {"period_ms": 1000,
                                                                                      "break_ms": 0}))
            assert after.part.number == 2 and after.to_move == other
            assert [d.to_json() for d in decisions][-1] == {"code": "RESTART", "team": other}
            assert opening.first_starter == after.first_starter == to_move


def test_V_2_a_position_after_the_opening_takes_the_first_starter_from_the_lot() -> None:
    """V.2: a position that is not an opening face-off (moves played, or no restart) names no first starter by
    itself: read without one, it takes the seed's lot, as the match drew it."""
    for seed in range(6):
        lot = first_period_starter(Position(seed=seed))
        assert notation.position_from_json({"seed": seed, "move_number": 4}).first_starter == lot
        assert notation.position_from_json({"seed": seed, "to_move": "away"}).first_starter == lot


def test_V_2_an_opening_position_built_without_first_starter_resolves_it_the_same_way() -> None:
    """V.2: a position made in code without ``first_starter`` follows the rule of the notation (the team to move
    at the opening face-off, else the lot), so both paths agree."""
    for seed in range(6):
        built = Position(seed=seed, to_move="away", restart=True)
        assert first_period_starter(built) == "away" == _opening(seed, "away").first_starter


def test_V_3_conceding_team_starts_after_goal() -> None:
    """V.3: after a goal the team that conceded it starts."""
    assert starter_after_goal("home") == "away"
    assert starter_after_goal("away") == "home"


def test_V_4_scorer_starts_after_disallowed_goal() -> None:
    """V.4: after a disallowed goal the team that would have scored starts."""
    assert starter_after_disallowed_goal("home") == "home"
    assert starter_after_disallowed_goal("away") == "away"


def test_V_5_penalised_team_starts_after_penalty_shot() -> None:
    """V.5: after a penalty shot the team it was awarded against starts."""
    assert starter_after_penalty_shot("away") == "away"
    assert starter_after_penalty_shot("home") == "home"


def test_V_6_special_case_starter_by_seeded_lot() -> None:
    """V.6: a special-case lot depends on seed, purpose and move number, and repeats exactly."""
    draws = {starter_by_lot(Position(seed=9, move_number=n), "admin") for n in range(30)}
    assert draws == {"home", "away"}
    again = Position(seed=9, move_number=4)
    assert starter_by_lot(again, "admin") == starter_by_lot(again, "admin")


# --------------------------------------------------------------------------- D13 / V.1 / IV: the restart


def test_V_1_restart_from_basic_setup_after_play() -> None:
    """V.1, D13: a restart puts every stone back on its basic spot and gives the move to the starting team."""
    basic = _started()
    played = _scattered(basic)
    again = restart(played, "away")
    assert _spots(again) == _spots(basic)
    assert again.restart is True
    assert again.to_move == "away"


def test_IV_1_goalie_and_forwards_on_their_spots() -> None:
    """IV.1: goalies on the goal line centre, forwards exactly on the face-off spots of their half."""
    position = restart(_scattered(_started()), "home")
    for team in ("home", "away"):
        end = position.own_end(team)
        goalie = next(s for s in position.team_stones(team) if s.role == "goalie")
        assert (goalie.x, goalie.y) == formation.slot_spot("goalie", end)
        forwards = {formation.forward_slot(s.x, s.y, end) for s in position.team_stones(team)} - {None}
        assert forwards == {"centre_forward", "wing_1", "wing_2"}


def test_IV_1_default_defenders_are_legal() -> None:
    """IV.1: the default defenders stand in the own defensive third without touching the crease."""
    position = _started()
    for team in ("home", "away"):
        end = position.own_end(team)
        defenders = [s for s in position.team_stones(team) if s.role == "field" and not formation.forward_slot(
            s.x, s.y, end)]
        assert len(defenders) == 2
        assert all(geometry.legal_defender_spot(s.x, s.y, SETTINGS.stone_radius, end) for s in defenders)


def test_IV_2_each_team_on_its_own_half() -> None:
    """IV.2: every stone of a team stands on the half it defends, and swapping ends mirrors the setup."""
    position = _started()
    for home_end in (-1, 1):
        swapped = restart(replace(position, home_end=home_end), "home")
        for stone in swapped.stones:
            assert stone.x * swapped.own_end(stone.team) > 0


def test_IV_3_puck_on_centre_spot() -> None:
    """IV.3: the restart puts the puck on the centre point."""
    position = restart(_scattered(_started()), "home")
    assert (position.puck.x, position.puck.y) == (0.0, 0.0)


def test_IV_4_excluded_stones_stay_off_and_centre_forward_is_kept() -> None:
    """IV.4: excluded stones stay off; the missing positions are left out, never the centre-forward spot."""
    played = _scattered(_started())
    played = replace(
        played,
        stones=tuple(s for s in played.stones if s.id not in ("h2", "h5")),
        excluded=(("h2", "h5"), ()),
    )
    position = restart(played, "home")
    home = position.team_stones("home")
    assert {s.id for s in home} == {"h1", "h3", "h4", "h6"}
    assert any(formation.forward_slot(s.x, s.y, position.own_end("home")) == "centre_forward" for s in home)
    assert position.excluded == (("h2", "h5"), ())
    assert not formation.setup_problems(position.stones, "home", position.own_end("home"), 16.0, starts=True)


def test_IV_4_fewer_stones_each_keep_own_slot_when_possible() -> None:
    """IV.4: with a defender excluded, the other stones keep their usual slots and one defender slot is empty."""
    played = _scattered(_started())
    played = replace(played, stones=tuple(s for s in played.stones if s.id != "a6"), excluded=((), ("a6",)))
    position = restart(played, "away")
    basic = _spots(_started())
    assert all(_spots(position)[i] == basic[i] for i in ("a1", "a2", "a3", "a4", "a5"))
    assert position.stone("a6") is None


def test_X_3_returning_stone_takes_part_in_restart() -> None:
    """X.3: a stone returning with the restart leaves the exclusion queue and stands in the basic setup."""
    played = _scattered(_started())
    played = replace(played, stones=tuple(s for s in played.stones if s.id != "h4"), excluded=(("h4",), ()))
    position = restart(played, "away", returning=("h4",))
    assert position.excluded == ((), ())
    assert _spots(position) == _spots(_started())


def test_D13_privilege_cleared_unless_awarded_with_the_restart() -> None:
    """D13: a running privilege ends at a restart, but one awarded by the restart's move (XII.9) survives."""
    played = replace(_scattered(_started()), privilege=Privilege("home", 1, 2))
    assert restart(played, "home").privilege is None
    awarded = Privilege("away", 2, 2)
    assert restart(played, "home", privilege=awarded).privilege == awarded


def test_D13_restart_rights_flipped_stones() -> None:
    """D13: a stone lying upside down stands normally again after the restart."""
    played = _scattered(_started())
    played = replace(played, stones=tuple(replace(s, flipped=s.id == "a3") for s in played.stones))
    assert not any(s.flipped for s in restart(played, "home").stones)


def test_XIII_3_lineup_without_goalie_sets_up_in_power_play() -> None:
    """XIII.3: a lineup without the goalie sets up six field stones, the sixth like a defender."""
    played = _scattered(_started())
    lineups: dict[Team, tuple[str, ...]] = {"home": ("h2", "h3", "h4", "h5", "h6", "h7"),
                                           "away": ("a1", "a2", "a3", "a4", "a5", "a6")}
    position = restart(played, "home", lineups=lineups)
    assert position.stone("h1") is None
    sixth = position.stone("h7")
    assert sixth is not None and sixth.role == "field"
    assert geometry.legal_defender_spot(sixth.x, sixth.y, 16.0, position.own_end("home"))


def test_X_4_part_start_completes_teams_and_cancels_penalties() -> None:
    """X.4: a part starts with complete teams, no exclusions, no deferred penalties and no privilege."""
    played = replace(
        _scattered(_started()),
        stones=tuple(s for s in _scattered(_started()).stones if s.id not in ("h2", "a3")),
        excluded=(("h2",), ("a3",)),
        deferred=(1, 0),
        privilege=Privilege("away", 1, 3),
        advantage="away",
    )
    position, decisions = begin_part(played, replace(played.part, number=2), "away", SETTINGS)
    assert position.excluded == ((), ()) and position.deferred == (0, 0)
    assert position.privilege is None and position.advantage is None
    assert len(position.team_stones("home")) == len(position.team_stones("away")) == 1 + SETTINGS.field_stones
    assert [d.to_json() for d in decisions] == [{"code": "RESTART", "team": "away"}]


def test_XVI_2_overtime_part_starts_with_three_field_stones() -> None:
    """XVI.2: an overtime part starts with the goalie and three field stones, the centre forward among them."""
    settings = make_settings("ko")
    position, _ = begin_part(_started(), replace(_started().part, kind="overtime", number=1), "home", settings)
    for team in ("home", "away"):
        stones = position.team_stones(team)
        assert len([s for s in stones if s.role == "field"]) == 3
        assert not formation.setup_problems(position.stones, team, position.own_end(team), 16.0, starts=True)


# --------------------------------------------------------------------------- the setup action (IV.1, IV.2, IV.5)


def _setup(team: Team, *placements: tuple[str, float, float]) -> Setup:
    """A setup action placing the given stones."""
    return Setup(team, tuple(Placement(i, x, y) for i, x, y in placements))


def test_IV_5_legal_defender_placement_accepted() -> None:
    """IV.1, IV.5: the coach moves his defenders anywhere legal in his third, touching the blue line allowed."""
    position = _started()
    end = position.own_end("home")
    blue = (geometry.BLUE_LINE_INNER_X + 16.0) * end  # touching the blue line's inner edge (A56)
    result = apply_setup(position, _setup("home", ("h5", blue, -200.0), ("h6", 420.0 * end, 150.0)), SETTINGS)
    assert not isinstance(result, RuleError)
    h5, h6 = on_board(result, "h5"), on_board(result, "h6")
    assert (h5.x, h5.y) == (blue, -200.0)
    assert (h6.x, h6.y) == (420.0 * end, 150.0)


def test_IV_5_defender_touching_crease_refused() -> None:
    """IV.1, IV.5: a defender touching the crease is refused with INVALID_SETUP naming it and the crease."""
    position = _started()
    end = position.own_end("home")
    touching = (geometry.CREASE_FRONT_X - 16.0) * end  # its edge on the crease line
    result = apply_setup(position, _setup("home", ("h5", touching, 0.0)), SETTINGS)
    assert isinstance(result, RuleError) and result.code == "INVALID_SETUP"
    assert "h5" in result.message and "crease" in result.message


def test_IV_5_defender_outside_third_refused() -> None:
    """IV.1, IV.5: a defender outside the defensive third is refused, the message says so."""
    position = _started()
    end = position.own_end("away")
    result = apply_setup(position, _setup("away", ("a6", 150.0 * end, 150.0)), SETTINGS)
    assert isinstance(result, RuleError) and result.code == "INVALID_SETUP"
    assert "a6" in result.message and "third" in result.message


def test_IV_5_overlap_with_other_stone_refused() -> None:
    """IV.1, IV.5: a defender placed on top of another stone is refused naming both stones."""
    position = _started()
    h6 = position.stone("h6")
    assert h6 is not None
    result = apply_setup(position, _setup("home", ("h5", h6.x, h6.y - 20.0)), SETTINGS)
    assert isinstance(result, RuleError) and result.code == "INVALID_SETUP"
    assert "h5" in result.message and "h6" in result.message


def test_IV_5_goalie_must_stay_on_spot() -> None:
    """IV.1: the goalie cannot be moved off its spot by a setup."""
    position = _started()
    end = position.own_end("home")
    result = apply_setup(position, _setup("home", ("h1", 430.0 * end, -100.0)), SETTINGS)
    assert isinstance(result, RuleError) and result.code == "INVALID_SETUP" and "h1" in result.message


def test_IV_5_third_defender_refused() -> None:
    """IV.1 (A56): a full team may not move a forward back as a third defender."""
    position = _started()
    end = position.own_end("home")
    result = apply_setup(position, _setup("home", ("h4", 300.0 * end, 0.0)), SETTINGS)
    assert isinstance(result, RuleError) and result.code == "INVALID_SETUP" and "defenders" in result.message


def test_IV_5_opponent_stone_and_off_board_refused() -> None:
    """IV.5: a coach cannot place the opponent's stones, nor stones that are not on the board."""
    position = _started()
    assert isinstance(apply_setup(position, _setup("home", ("a5", -400.0, 0.0)), SETTINGS), RuleError)
    assert isinstance(apply_setup(position, _setup("home", ("h7", -400.0, 0.0)), SETTINGS), RuleError)


def test_IV_5_non_finite_coordinates_refused() -> None:
    """IV.5: a placement that is not a number on the board is refused, never raised."""
    result = apply_setup(_started(), _setup("home", ("h5", float("nan"), 0.0)), SETTINGS)
    assert isinstance(result, RuleError) and result.code == "INVALID_SETUP"


def test_IV_4_starting_team_cannot_empty_centre_forward_spot() -> None:
    """IV.4: a starting team short of stones may leave out positions, but not the centre forward's."""
    played = replace(_scattered(_started()), stones=tuple(s for s in _scattered(_started()).stones if s.id != "h6"),
                     excluded=(("h6",), ()))
    position = restart(played, "home")
    end = position.own_end("home")
    moved_out = apply_setup(position, _setup("home", ("h2", 360.0 * end, 110.0)), SETTINGS)
    assert isinstance(moved_out, RuleError) and "centre-forward" in moved_out.message
    other = restart(played, "away")
    assert not isinstance(apply_setup(other, _setup("home", ("h2", 360.0 * end, 110.0)), SETTINGS), RuleError)


def test_D13_setup_only_before_first_move_after_restart() -> None:
    """D13: once the restart's first move is made (restart false), setups are refused."""
    position = replace(_started(), restart=False)
    end = position.own_end("home")
    result = apply_setup(position, _setup("home", ("h5", 400.0 * end, -150.0)), SETTINGS)
    assert isinstance(result, RuleError) and result.code == "ACTION_NOT_ALLOWED"


def test_D13_default_formation_stands_without_setup() -> None:
    """D13: the timeout default - a setup naming nothing leaves the default formation unchanged."""
    position = _started()
    result = apply_setup(position, _setup("away"), SETTINGS)
    assert result == position


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_IV_1_basic_setup_is_legal_for_both_teams(seed: int) -> None:
    """IV.1: the restart's own formation passes the setup validation for both teams."""
    position = _started(seed)
    for team in ("home", "away"):
        assert not formation.setup_problems(
            position.stones, team, position.own_end(team), 16.0, starts=position.to_move == team
        )

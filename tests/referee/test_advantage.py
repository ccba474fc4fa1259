"""IX.3-IX.6 and A43 (the advantage): playing on after earning a shot, rebounds, pushed and empty-goal stones."""

from __future__ import annotations

from dataclasses import replace

from shared.model import Position, Privilege, TakePenalty
from shared.referee import advantage
from tests.referee.builders import SETTINGS, contact, position, region, stone


def privileged(snapshot: tuple[str, ...] = ("a3",), remaining: int = 2) -> Position:
    """Home plays a privilege; away's a3 stands in its crease (away defends x > 0)."""
    return position(
        stone("h2", 150.0, 0.0), stone("a3", 455.0, 0.0),
        puck=(200.0, 0.0), to_move="home", privilege=Privilege("home", remaining, 2, snapshot),
    )


REBOUND = (contact(10, "h2", "puck"), contact(50, "a3", "puck"), region(300, "puck", "aux:-1"))


def test_IX_3_trigger_with_a_move_left_is_an_advantage():
    """IX.3: a trigger in the first of two privileged moves gives ADVANTAGE; in the last, the shot."""
    first = advantage.on_trigger(Privilege("home", 2, 2), "home")
    last = advantage.on_trigger(Privilege("home", 1, 2), "home")
    assert (first.advantage, first.penalty_to, first.decisions[0].code) == ("home", None, "ADVANTAGE")
    assert (last.advantage, last.penalty_to, last.decisions[0].code) == (None, "home", "PENALTY_SHOT")


def test_IX_3_advantage_outcomes():
    """IX.3: a goal or an infringement ends it with no shot; after the last privileged move the shot is taken."""
    last = Privilege("home", 1, 2)
    assert advantage.after_advantage_move("home", last, True, False) == advantage.AdvantageOutcome(None, None, ())
    assert advantage.after_advantage_move("home", last, False, True) == advantage.AdvantageOutcome(None, None, ())
    shot = advantage.after_advantage_move("home", last, False, False)
    assert shot.penalty_to == "home" and shot.decisions[0].to_json() == {"code": "PENALTY_SHOT", "team": "home"}
    assert advantage.after_advantage_move("home", Privilege("home", 2, 3), False, False).advantage == "home"


def test_IX_3_A44_take_penalty_now():
    """A44: the team playing the advantage may take the shot at once; nobody else may."""
    start = replace(privileged(), advantage="home")
    assert advantage.check_take_penalty(start, TakePenalty("home")) is None
    assert advantage.check_take_penalty(start, TakePenalty("away")) is not None
    assert advantage.check_take_penalty(privileged(), TakePenalty("home")) is not None
    shot, decisions = advantage.take_penalty(start, TakePenalty("home"))
    assert (shot.penalty_shot, shot.advantage, shot.privilege) == ("home", None, None)
    assert [d.code for d in decisions] == ["PENALTY_SHOT"]


def test_IX_4_rebound_off_a_snapshot_stone_into_own_goal_is_a_penalty():
    """IX.4: off a stone of the snapshot into the privileged team's own goal - void, penalty shot."""
    assert advantage.rebound_penalty(privileged(), "home", False, REBOUND, SETTINGS) == "a3"


def test_IX_4_goalie_move_own_goal_counts():
    """IX.4, A45: after a goalie move the own goal counts and there is no penalty shot."""
    assert advantage.rebound_penalty(privileged(), "home", True, REBOUND, SETTINGS) is None


def test_IX_5_stone_pushed_in_during_the_privilege_is_not_eligible():
    """IX.5: a stone not in the privilege-start snapshot gives no shot; the own goal off it counts."""
    assert advantage.rebound_penalty(privileged(snapshot=()), "home", False, REBOUND, SETTINGS) is None
    assert not advantage.snapshot_eligible(Privilege("home", 1, 2, ()), "home", "a3")
    assert advantage.snapshot_eligible(None, "home", "a3")


def test_IX_6_stone_pushed_behind_the_goal_line_makes_the_goal_empty():
    """IX.6, XII.12: away's goalie lying behind its goal line in the mouth corridor makes the goal empty."""
    start = privileged()
    start = replace(start, stones=tuple(s.at(530.0, 0.0) if s.id == "a1" else s for s in start.stones))
    assert advantage.empty_goal(start, "away", SETTINGS) == ("a1",)
    assert advantage.empty_goal(privileged(), "away", SETTINGS) == ()


def test_IX_8_A43_pending_advantage_at_the_siren_becomes_a_shot():
    """IX.8, A43: the siren converts a pending advantage into a penalty shot that is taken."""
    outcome = advantage.at_siren("home")
    assert (outcome.advantage, outcome.penalty_to) == (None, "home")
    assert advantage.at_siren(None) == advantage.AdvantageOutcome(None, None, ())


# --------------------------------------------------------------------------- XV.1-XV.9 as seen by the rebound rule


def test_XV_1_only_field_stones_in_their_crease_count():
    """XV.1: away's goalie in its crease is never a penalty position, so a rebound off it is a valid own goal."""
    start = replace(privileged(), stones=tuple(s.at(470.0, 60.0) if s.id == "a3" else s for s in privileged().stones))
    off_goalie = (contact(10, "h2", "puck"), contact(50, "a1", "puck"), region(300, "puck", "aux:-1"))
    assert advantage.rebound_penalty(start, "home", False, off_goalie, SETTINGS) is None


def test_XV_2_stone_out_of_the_crease_before_the_hit_is_not_eligible():
    """XV.2: a3 leaves its crease before the puck reaches it: no penalty, the own goal counts."""
    left = (contact(10, "h2", "puck"), region(30, "a3", "crease:1", False), *REBOUND[1:])
    assert advantage.rebound_penalty(privileged(), "home", False, left, SETTINGS) is None


def test_XV_3_XV_4_puck_starting_in_a_crease_earns_nothing():
    """XV.3-XV.4: a puck starting in a crease (however far it then travels) earns no penalty shot."""
    start = replace(privileged(), puck=replace(privileged().puck, x=-440.0))
    assert advantage.rebound_penalty(start, "home", False, REBOUND, SETTINGS) is None


def test_XV_5_rebound_into_the_movers_goal_is_void_and_a_penalty():
    """XV.5: off the penalty-position stone into the moving team's goal - void, penalty shot (not a goalie move)."""
    plain = replace(privileged(), privilege=None)
    assert advantage.rebound_penalty(plain, "home", False, REBOUND, SETTINGS) == "a3"
    assert advantage.rebound_penalty(plain, "home", True, REBOUND, SETTINGS) is None


def test_XV_6_XV_7_snapshot_rules_during_a_privilege():
    """XV.7 (= IX.5): during the privilege only snapshot stones count; XV.6's legality is the engine's (A36)."""
    assert advantage.snapshot_eligible(Privilege("home", 1, 2, ("a3",)), "home", "a3")
    assert not advantage.snapshot_eligible(Privilege("home", 1, 2, ("a4",)), "home", "a3")


def test_XV_8_XV_10_shot_awarded_at_the_siren_is_taken():
    """XV.8, XV.10: a shot earned by a move begun before the siren (or a pending advantage, A43) is taken."""
    from shared.referee import penalty_shot

    shot, state, _ = penalty_shot.setup_shot(privileged(), "home")
    assert penalty_shot.at_siren(state).after_siren and shot.to_move == "home"


def test_XV_9_goalie_reset_with_puck_in_crease_is_impossible():
    """XV.9, XII.5: the reset is disabled while the puck touches the crease, so this penalty never arises."""
    from shared.referee import goalie_reset

    start = replace(privileged(), puck=replace(privileged().puck, x=450.0, y=40.0))
    start = replace(start, stones=tuple(s.at(480.0, -40.0) if s.id == "a1" else s for s in start.stones))
    refused = goalie_reset.check_reset(start, "away", SETTINGS)
    assert refused is not None and "XII.5" in refused.message

"""XIV (goals), V.9, XII.9-XII.13, XV.1-XV.6 triggers: goal rulings judged from hand-made events."""

from __future__ import annotations

from dataclasses import replace

from shared.geometry import goalie_spot
from shared.model import Privilege
from shared.outcome import Decision
from shared.referee.adjudicate import judge
from shared.referee.goals import first_goal_event
from tests.referee.builders import SETTINGS, codes, contact, flick, position, record, region, stone

# away defends the goal at x > 0 (end 1), home the goal at x < 0 (end -1)
AWAY_AUX = "aux:1"
HOME_AUX = "aux:-1"


def field() -> tuple:
    """Home and away field stones well away from the action."""
    return (stone("h2", -100, 0), stone("h3", -300, 150), stone("h4", -300, -150), stone("h5", -200, 0),
            stone("a2", 100, 200), stone("a3", 300, 150), stone("a4", 300, -150), stone("a5", 200, -200))


def test_XIV_1_puck_touching_the_auxiliary_line_after_a_legal_move_is_a_goal() -> None:
    """XIV.1: the puck touching the auxiliary line after a legal move scores; the conceding team restarts (V.3)."""
    start = position(*field(), puck=(400, 0))
    ruling = judge(start, flick("h2"), record(start, contact(3, "h2", "puck"), region(40, "puck", AWAY_AUX)), SETTINGS)
    assert ruling.decisions == (Decision.of("GOAL", team="home", own_goal=False),)
    assert ruling.position.score == (1, 0)
    assert ruling.restart_by == "away"


def test_XIV_1_a_puck_short_of_the_auxiliary_line_is_no_goal() -> None:
    """XIV.1: crossing the goal line is not enough; only the auxiliary-line touch scores."""
    start = position(*field(), puck=(400, 0))
    ruling = judge(start, flick("h2"), record(start, region(30, "puck", "goal_line:1")), SETTINGS)
    assert ruling.restart_by is None and ruling.position.score == (0, 0)


def test_XIV_3_puck_touching_a_stone_behind_the_auxiliary_line_at_move_start_is_a_goal() -> None:
    """XIV.3 (A39, A40): a stone lying wholly behind the auxiliary line at move start makes a touch a goal."""
    start = position(*field(), stone("h6", 530, 0), puck=(400, 0))
    ruling = judge(start, flick("h2"), record(start, contact(3, "h2", "puck"), contact(50, "h6", "puck")), SETTINGS)
    assert ruling.decisions[0] == Decision.of("GOAL", team="home", own_goal=False)


def test_XIV_3_a_stone_pushed_behind_the_auxiliary_line_in_the_same_move_makes_no_goal() -> None:
    """XIV.3, A40: only stones already behind the line at move start count."""
    start = position(*field(), stone("h6", 480, 0), puck=(400, 0))
    assert first_goal_event(start, (contact(50, "h6", "puck"),), SETTINGS.stone_radius) is None


def test_XII_12_puck_touching_a_non_defending_goalie_is_a_goal() -> None:
    """XII.12 (A38): a goalie lying entirely behind its goal line in the mouth corridor leaves the goal empty."""
    start = position(*field(), puck=(400, 0))
    start = replace(start, stones=tuple(s.at(520, 0) if s.id == "a1" else s for s in start.stones))
    ruling = judge(start, flick("h2"), record(start, contact(3, "h2", "puck"), contact(40, "a1", "puck")), SETTINGS)
    assert ruling.decisions[0] == Decision.of("GOAL", team="home", own_goal=False)


def test_XII_12_an_own_non_defending_stone_touched_gives_an_own_goal() -> None:
    """XII.12: the rule holds for the mover's own stones too, which is an own goal."""
    start = position(*field(), stone("h6", -520, 0), puck=(-400, 0))
    ruling = judge(start, flick("h2", -1000), record(start, contact(3, "h2", "puck"), contact(40, "h6", "puck")),
                   SETTINGS)
    assert ruling.decisions[0] == Decision.of("GOAL", team="away", own_goal=True)
    assert ruling.restart_by == "home"


def test_XII_13_a_goalie_pushed_behind_the_goal_line_during_the_move_makes_no_goal() -> None:
    """XII.13: non-defending is judged at move start; a goalie pushed there in this move gives no goal."""
    start = position(*field(), puck=(400, 0))
    events = (contact(3, "h2", "puck"), contact(20, "a1", "puck"), contact(40, "a1", "puck"))
    assert first_goal_event(start, events, SETTINGS.stone_radius) is None


def test_XIV_5_only_the_first_goal_of_a_move_counts() -> None:
    """XIV.5: the puck entering both goals - the first one is recognised."""
    start = position(*field(), puck=(0, 0))
    events = (contact(3, "h2", "puck"), region(40, "puck", HOME_AUX), region(90, "puck", AWAY_AUX))
    ruling = judge(start, flick("h2"), record(start, *events), SETTINGS)
    assert ruling.decisions == (Decision.of("GOAL", team="away", own_goal=True),)
    assert ruling.position.score == (0, 1)


def test_XIV_6_own_goal_is_valid_even_after_a_foul_and_keeps_the_foul_penalties() -> None:
    """XIV.6, A14 (product decision 3): an own goal counts; the foul still excludes and gives 2 moves."""
    start = position(*field(), stone("a6", -80, 40), puck=(-150, 0))
    events = (contact(2, "h2", "a6"), contact(5, "h2", "puck"), region(40, "puck", HOME_AUX))
    ruling = judge(start, flick("h2", -1000), record(start, *events), SETTINGS)
    assert codes(ruling.decisions) == ["GOAL", "FOUL", "EXCLUSION", "PRIVILEGE"]
    assert ruling.decisions[0] == Decision.of("GOAL", team="away", own_goal=True)
    assert ruling.restart_by == "home"
    assert ruling.position.privilege == Privilege("away", 2, 2)
    assert ruling.position.to_move == "home"  # the privilege starts after home's restart move (A14)


def test_XIV_6_own_goal_cancels_fouls_when_the_setting_says_so() -> None:
    """XIV.6, A14 alternative: ``own_goal_cancels_fouls`` drops the foul penalties."""
    start = position(*field(), stone("a6", -80, 40), puck=(-150, 0))
    events = (contact(2, "h2", "a6"), contact(5, "h2", "puck"), region(40, "puck", HOME_AUX))
    ruling = judge(start, flick("h2", -1000), record(start, *events), replace(SETTINGS, own_goal_cancels_fouls=True))
    assert codes(ruling.decisions) == ["GOAL", "FOUL"]
    assert ruling.position.privilege is None


def test_XIV_6_own_goal_off_a_penalty_position_stone_is_void_and_gives_a_penalty_shot() -> None:
    """XIV.6 third exception, IX.4, XV.5: the puck rebounds off an opponent in its crease into the own goal."""
    start = position(*field(), stone("a6", 450, 0), puck=(300, 0))
    events = (contact(3, "h2", "puck"), contact(30, "a6", "puck"), region(90, "puck", HOME_AUX))
    ruling = judge(start, flick("h2"), record(start, *events), SETTINGS)
    assert ruling.decisions == (
        Decision.of("GOAL_DISALLOWED", team="away", reason="REBOUND_FROM_PENALTY_POSITION"),
        Decision.of("PENALTY_SHOT", team="home"),
    )
    assert ruling.position.penalty_shot == "home" and ruling.position.score == (0, 0)


def test_XIV_1_goal_voided_by_a_foul_anywhere_in_the_move() -> None:
    """XIV.1, D11, A13: a foul after the goal event still voids it; the scoring team restarts (V.4)."""
    start = position(*field(), stone("a6", 350, 100), puck=(400, 0))
    events = (contact(2, "h2", "h5"), contact(3, "h2", "puck"), region(30, "puck", AWAY_AUX), contact(60, "h5", "a6"))
    ruling = judge(start, flick("h2"), record(start, *events), SETTINGS)
    assert codes(ruling.decisions) == ["GOAL_DISALLOWED", "FOUL", "EXCLUSION", "PRIVILEGE"]
    assert ruling.decisions[0] == Decision.of("GOAL_DISALLOWED", team="home", reason="ILLEGAL_MOVE")
    assert ruling.restart_by == "home" and ruling.position.score == (0, 0)


def test_V_9_goal_from_the_first_move_after_a_restart_is_disallowed_without_privilege() -> None:
    """V.9, A46: a goal by the first move from the start is void and the same team restarts, no privilege."""
    start = position(*field(), restart=True)
    ruling = judge(start, flick("h2"), record(start, contact(3, "h2", "puck"), region(80, "puck", AWAY_AUX)), SETTINGS)
    assert ruling.decisions == (Decision.of("GOAL_DISALLOWED", team="home", reason="FIRST_MOVE_AFTER_RESTART"),)
    assert ruling.restart_by == "home" and ruling.position.privilege is None


def test_V_9_an_own_goal_from_the_first_move_counts() -> None:
    """V.9 exception: an own goal from the first move after a restart is valid (the same team restarts, V.3)."""
    start = position(*field(), restart=True)
    ruling = judge(start, flick("h2", -1000), record(start, contact(3, "h2", "puck"), region(80, "puck", HOME_AUX)),
                   SETTINGS)
    assert ruling.decisions == (Decision.of("GOAL", team="away", own_goal=True),)
    assert ruling.restart_by == "home"


def test_V_8_the_start_is_valid_even_if_the_centre_forward_misses_the_puck() -> None:
    """V.8: a first move that does not touch the puck is legal and play goes on, the restart flag is spent."""
    start = position(*field(), restart=True)
    ruling = judge(start, flick("h2", 0, 300), record(start, moved={"h2": (-100, 60)}), SETTINGS)
    assert ruling.decisions == () and ruling.restart_by is None
    assert ruling.position.restart is False and ruling.position.to_move == "away"


def test_XII_9_a_goalie_move_cannot_score() -> None:
    """XII.9: a goal by a goalie move is void, the scorer restarts and the opponent gets 2 moves."""
    start = position(*field(), puck=(-300, 0))
    events = (contact(3, "h1", "puck"), region(200, "puck", AWAY_AUX))
    ruling = judge(start, flick("h1"), record(start, *events), SETTINGS)
    assert ruling.decisions == (
        Decision.of("GOAL_DISALLOWED", team="home", reason="GOALIE_MOVE"),
        Decision.of("PRIVILEGE", team="away", moves=2),
    )
    assert ruling.restart_by == "home"


def test_XII_9_an_own_goal_by_a_goalie_move_counts() -> None:
    """XII.9, A12: goalie moves cannot score against the opponent, but own goals stay valid."""
    start = position(*field(), puck=(-470, 30))
    events = (contact(3, "h1", "puck"), region(20, "puck", HOME_AUX))
    ruling = judge(start, flick("h1", -300, 100), record(start, *events), SETTINGS)
    assert ruling.decisions == (Decision.of("GOAL", team="away", own_goal=True),)


def test_XII_10_goalie_goal_from_a_puck_outside_its_third_gives_three_moves() -> None:
    """XII.10: a goalie scoring with a puck outside its defensive third: void, scorer restarts, opponent 3 moves."""
    start = position(*field(), puck=(-100, 60))
    events = (contact(3, "h1", "h3"), contact(9, "h3", "puck"), region(200, "puck", AWAY_AUX))
    ruling = judge(start, flick("h1"), record(start, *events), SETTINGS)
    assert ruling.decisions == (
        Decision.of("GOAL_DISALLOWED", team="home", reason="GOALIE_MOVE"),
        Decision.of("GOALIE_OUTSIDE_THIRD", team="home"),
        Decision.of("PRIVILEGE", team="away", moves=3),
    )


def test_XII_8_goalie_playing_a_puck_outside_its_third_gives_two_moves() -> None:
    """XII.8 (A11): the goalie may only play a puck touching its defensive third at move start."""
    start = position(*field(), puck=(-150, 60))
    ruling = judge(start, flick("h1"), record(start, contact(10, "h1", "puck")), SETTINGS)
    assert ruling.decisions == (
        Decision.of("GOALIE_OUTSIDE_THIRD", team="home"),
        Decision.of("PRIVILEGE", team="away", moves=2),
    )
    assert ruling.position.to_move == "away"


def test_XII_8_touching_the_blue_line_counts_as_inside_the_third() -> None:
    """XII.8: a puck touching the blue line is in the third, so the goalie may play it."""
    start = position(*field(), puck=(-190, 100))
    ruling = judge(start, flick("h1"), record(start, contact(10, "h1", "puck")), SETTINGS)
    assert ruling.decisions == ()


def test_XII_11_a_goalie_move_never_earns_a_penalty_shot() -> None:
    """XII.11: the puck hitting an opponent in its crease after a goalie move gives no penalty shot."""
    start = position(*field(), stone("a6", 450, 0), puck=(-300, 0))
    events = (contact(3, "h1", "puck"), contact(60, "a6", "puck"))
    ruling = judge(start, flick("h1"), record(start, *events), SETTINGS)
    assert "PENALTY_SHOT" not in codes(ruling.decisions)


def test_XV_1_puck_hitting_an_opponent_field_stone_in_its_crease_gives_a_penalty_shot() -> None:
    """XV.1: the trigger of Appendix A step 3 - a field-stone move, the puck hits a stone in a penalty position."""
    start = position(*field(), stone("a6", 450, 0), puck=(300, 0))
    ruling = judge(start, flick("h2"), record(start, contact(3, "h2", "puck"), contact(30, "a6", "puck")), SETTINGS)
    assert ruling.decisions == (Decision.of("PENALTY_SHOT", team="home"),)
    assert ruling.position.penalty_shot == "home"


def test_XV_2_a_stone_that_left_its_crease_before_the_hit_earns_nothing() -> None:
    """XV.2: once out of the crease during the move, the stone no longer earns a penalty shot."""
    start = position(*field(), stone("a6", 450, 0), puck=(300, 0))
    events = (contact(3, "h2", "puck"), region(10, "a6", "crease:1", False), region(20, "a6", "crease:1"),
              contact(30, "a6", "puck"))
    ruling = judge(start, flick("h2"), record(start, *events), SETTINGS)
    assert "PENALTY_SHOT" not in codes(ruling.decisions)


def test_XV_3_a_puck_starting_in_a_crease_earns_nothing() -> None:
    """XV.3: the puck's starting point in a crease (or behind a goal line) excludes the penalty shot."""
    start = position(*field(), stone("a6", 450, 50), puck=(460, -20))
    ruling = judge(start, flick("h2"), record(start, contact(3, "h2", "puck"), contact(30, "a6", "puck")), SETTINGS)
    assert "PENALTY_SHOT" not in codes(ruling.decisions)


def test_XV_6_an_illegal_move_earns_no_penalty_shot() -> None:
    """XV.6, A36: a foul anywhere in the move voids the penalty-shot trigger; the foul is punished."""
    start = position(*field(), stone("a6", 450, 0), stone("a7", 200, 100), puck=(300, 0))
    events = (contact(2, "h2", "h5"), contact(3, "h2", "puck"), contact(30, "a6", "puck"), contact(50, "h5", "a7"))
    ruling = judge(start, flick("h2"), record(start, *events), SETTINGS)
    assert codes(ruling.decisions) == ["FOUL", "EXCLUSION", "PRIVILEGE"]


def test_XIV_7_every_goal_valid_or_not_restarts_from_the_basic_setup() -> None:
    """XIV.7: valid and void goals both name a restarting team."""
    start = position(*field(), puck=(400, 0))
    valid = judge(start, flick("h2"), record(start, region(40, "puck", AWAY_AUX)), SETTINGS)
    void = judge(start, flick("h1"), record(start, contact(2, "h1", "puck"), region(40, "puck", AWAY_AUX)), SETTINGS)
    assert (valid.restart_by, void.restart_by) == ("away", "home")


def test_XIV_2_tilted_puck_is_dormant_in_two_dimensions() -> None:
    """XIV.2 is dormant (product decision 1): only the auxiliary-line touch or a stone touch is a goal event."""
    start = position(*field(), puck=(495, 0))
    assert first_goal_event(start, (region(5, "puck", "goal_line:1"),), SETTINGS.stone_radius) is None


def test_IX_4_own_goal_off_a_penalty_stone_counts_for_a_goalie_move() -> None:
    """IX.4, A45: "in the case of the goalie" - after a goalie move the rebound own goal counts, no penalty shot."""
    start = position(*field(), stone("a6", 450, 0), puck=(-300, 60))
    start = replace(start, stones=tuple(s.at(-400, 60) if s.id == "h1" else s for s in start.stones))
    events = (contact(3, "h1", "puck"), contact(30, "a6", "puck"), region(90, "puck", HOME_AUX))
    ruling = judge(start, flick("h1"), record(start, *events), SETTINGS)
    assert ruling.decisions == (Decision.of("GOAL", team="away", own_goal=True),)
    assert "PENALTY_SHOT" not in codes(ruling.decisions)


def test_IX_5_a_stone_pushed_into_the_crease_during_the_privilege_earns_no_penalty_shot() -> None:
    """IX.5, XV.7: during a privilege only stones in the snapshot taken at its start are penalty-eligible."""
    privilege = Privilege("home", 1, 2, snapshot=())
    start = position(*field(), stone("a6", 450, 0), puck=(300, 0), privilege=privilege)
    ruling = judge(start, flick("h2"), record(start, contact(3, "h2", "puck"), contact(30, "a6", "puck")), SETTINGS)
    assert "PENALTY_SHOT" not in codes(ruling.decisions)
    snap = replace(start, privilege=Privilege("home", 1, 2, snapshot=("a6",)))
    ruling = judge(snap, flick("h2"), record(snap, contact(3, "h2", "puck"), contact(30, "a6", "puck")), SETTINGS)
    assert codes(ruling.decisions) == ["PENALTY_SHOT"]


def test_IX_6_a_goalie_pushed_behind_its_goal_line_earlier_in_the_privilege_leaves_the_goal_empty() -> None:
    """IX.6: non-defending is judged at each move start, so a later privileged move touching it scores."""
    start = position(*field(), puck=(400, 0), privilege=Privilege("home", 1, 2))
    start = replace(start, stones=tuple(s.at(520, 0) if s.id == "a1" else s for s in start.stones))
    ruling = judge(start, flick("h2"), record(start, contact(3, "h2", "puck"), contact(40, "a1", "puck")), SETTINGS)
    assert ruling.decisions[0] == Decision.of("GOAL", team="home", own_goal=False)
    assert ruling.restart_by == "away"


def test_XII_1_the_goalie_stands_on_its_basic_spot_after_a_restart() -> None:
    """XII.1: the goalie's basic position is centred on the goal line, equidistant from the posts (±498, 0)."""
    from shared.match import technical_goal

    start = position(*field(), puck=(400, 0))
    after = technical_goal(start, "home").position
    for goalie, end in (("h1", after.own_end("home")), ("a1", after.own_end("away"))):
        placed = after.stone(goalie)
        assert placed is not None and (placed.x, placed.y) == goalie_spot(end)

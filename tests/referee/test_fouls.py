"""VIII (fouls), D5-D7, and the goalie's foul exceptions XII.6-XII.7, judged from hand-made events."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared.outcome import Decision
from shared.referee.adjudicate import judge
from shared.referee.fouls import foul_records
from tests.referee.builders import SETTINGS, codes, contact, flick, position, record, stone


def test_VIII_1a_direct_foul_excludes_the_flicked_stone_and_gives_two_moves() -> None:
    """A flicked stone hitting an opponent with no neutral contact is a direct foul: exclusion + 2 moves."""
    start = position(stone("h2", -100, 0), stone("h3", -300, 100), stone("h4", -300, -100), stone("h5", -200, 0),
                     stone("a2", 0, 60))
    ruling = judge(start, flick("h2"), record(start, contact(5, "h2", "a2")), SETTINGS)
    assert ruling.decisions == (
        Decision.of("FOUL", team="home", kind="direct", stone="h2", victim="a2"),
        Decision.of("EXCLUSION", team="home", stone="h2", deferred=False),
        Decision.of("PRIVILEGE", team="away", moves=2),
    )
    assert ruling.position.stone("h2") is None
    assert ruling.position.excluded == (("h2",), ())
    assert ruling.position.to_move == "away"
    assert ruling.position.privilege is not None and ruling.position.privilege.remaining == 2


@pytest.mark.parametrize("neutral", ["board:side:1", "puck", "frame:1", "net:-1", "board:corner:1:-1"])
def test_VIII_2_each_neutral_object_touched_first_makes_the_hit_legal(neutral: str) -> None:
    """Boards, the puck, frames and nets are neutral: touching one before the opponent is no foul."""
    start = position(stone("h2", -100, 0), stone("a2", 0, 60))
    ruling = judge(start, flick("h2"), record(start, contact(3, "h2", neutral), contact(9, "h2", "a2")), SETTINGS)
    assert "FOUL" not in codes(ruling.decisions)


def test_VIII_1a_simultaneous_neutral_contact_in_the_same_step_is_no_foul() -> None:
    """D6, A8: a board contact in the same physics step as the opponent contact counts as simultaneous."""
    events = (contact(7, "a2", "h2"), contact(7, "board:side:1", "h2"))
    assert foul_records("home", "h2", events) == []


def test_VIII_1a_neutral_contact_one_step_later_is_a_foul_unless_the_window_is_wider() -> None:
    """D6: ``simultaneous_steps`` is the window; one step later is a foul at 1 step, simultaneous at 2."""
    events = (contact(7, "a2", "h2"), contact(8, "board:side:1", "h2"))
    assert len(foul_records("home", "h2", events, simultaneous_steps=1)) == 1
    assert foul_records("home", "h2", events, simultaneous_steps=2) == []


def test_VIII_1b_foul_through_a_teammate_excludes_the_chain_origin() -> None:
    """VIII.1b, A7: the flicked stone sets a teammate moving, which hits an opponent: the origin is excluded."""
    start = position(stone("h2", -100, 0), stone("h3", -50, 0), stone("h4", -300, 100), stone("h5", -300, -100),
                     stone("a2", 40, 0))
    ruling = judge(start, flick("h2"), record(start, contact(3, "h2", "h3"), contact(9, "h3", "a2")), SETTINGS)
    assert ruling.decisions[0] == Decision.of("FOUL", team="home", kind="through_teammate", stone="h2", victim="a2")
    assert ruling.decisions[1] == Decision.of("EXCLUSION", team="home", stone="h2", deferred=False)
    assert ruling.position.stone("h3") is not None


def test_VIII_1b_longer_chains_of_teammates_carry_the_taint() -> None:
    """VIII.1b: the same holds for longer chains of teammates hitting each other."""
    events = (contact(2, "h2", "h3"), contact(5, "h3", "h4"), contact(9, "h4", "a3"))
    (found,) = foul_records("home", "h2", events)
    assert (found.origin, found.via, found.victim, found.kind) == ("h2", "h4", "a3", "through_teammate")


def test_VIII_1b_a_teammate_that_touched_a_neutral_object_first_is_not_tainted() -> None:
    """D7: a teammate that already collided with a neutral object is clean when the chain reaches it."""
    events = (contact(1, "h3", "puck"), contact(4, "h2", "h3"), contact(9, "h3", "a2"))
    assert foul_records("home", "h2", events) == []


def test_VIII_1b_the_taint_never_passes_through_the_puck() -> None:
    """D7: the puck is neutral, so a teammate set moving by the puck cannot foul."""
    events = (contact(2, "h2", "puck"), contact(5, "h3", "puck"), contact(8, "h3", "a2"))
    assert foul_records("home", "h2", events) == []


def test_VIII_1b_the_taint_never_passes_through_opponent_stones() -> None:
    """D7, XII.7 last sentence: an opponent hit legally does not carry a taint to its teammates or ours."""
    events = (contact(2, "h2", "board:end:1"), contact(4, "h2", "a2"), contact(6, "a2", "h3"), contact(8, "h3", "a3"))
    assert foul_records("home", "h2", events) == []


def test_VIII_5_a_resting_contact_that_transmits_an_impulse_is_a_collision() -> None:
    """VIII.5, D5: pushing into an opponent stone already touching the flicked stone is a foul."""
    start = position(stone("h2", -100, 0), stone("a2", -68, 0))
    events = (contact(1, "h2", "a2", pre_existing=True), contact(2, "h2", "a2", pre_existing=True))
    ruling = judge(start, flick("h2"), record(start, *events), SETTINGS)
    assert ruling.decisions[0] == Decision.of("FOUL", team="home", kind="direct", stone="h2", victim="a2")


def test_VIII_7_several_foul_records_are_one_foul_with_one_exclusion() -> None:
    """VIII.7: several fouls in one move give one exclusion and one privilege."""
    start = position(stone("h2", -100, 0), stone("h3", -50, 0), stone("h4", -300, 90), stone("h5", -300, -90),
                     stone("a2", 40, 0), stone("a3", 40, 80))
    events = (contact(2, "h2", "a2"), contact(3, "h2", "h3"), contact(6, "h3", "a3"))
    ruling = judge(start, flick("h2"), record(start, *events), SETTINGS)
    assert codes(ruling.decisions) == ["FOUL", "EXCLUSION", "PRIVILEGE"]


def test_VIII_7_a_foul_and_a_second_infringement_give_exclusion_plus_three_moves() -> None:
    """VIII.7: a foul plus another 2-move infringement (XII.8) is capped at exclusion + 3 moves."""
    start = position(stone("h2", -300, 100), stone("h3", -300, -100), stone("h4", -250, 0), stone("h5", -100, 0),
                     stone("a2", -440, 120))
    events = (contact(4, "a2", "h1"), contact(9, "a2", "puck"))
    ruling = judge(start, flick("h1"), record(start, *events), SETTINGS)
    assert codes(ruling.decisions) == ["FOUL", "GOALIE_OUTSIDE_THIRD", "EXCLUSION", "PRIVILEGE"]
    assert ruling.decisions[-1] == Decision.of("PRIVILEGE", team="away", moves=3)


def test_VIII_6_a_foul_without_an_activity_count_gives_the_ordinary_two_moves() -> None:
    """VIII.6: without an activity count a foul gives the ordinary 2 moves (the count's sanction adds nothing)."""
    start = position(stone("h2", -100, 0), stone("a2", 0, 60))
    ruling = judge(start, flick("h2"), record(start, contact(5, "h2", "a2")), SETTINGS)
    assert ruling.decisions[-1] == Decision.of("PRIVILEGE", team="away", moves=2)


def test_XII_6_goalie_may_foul_an_opponent_in_its_crease() -> None:
    """XII.6 (A10): a goalie move hitting an opponent that touched the goalie's crease at move start is no foul."""
    start = position(stone("a2", -460, 70))
    ruling = judge(start, flick("h1", 300, 300), record(start, contact(6, "a2", "h1")), SETTINGS)
    assert "FOUL" not in codes(ruling.decisions)
    assert ruling.position.to_move == "away"


def test_XII_6_also_indirectly_through_a_teammate() -> None:
    """XII.6: the goalie setting its own stone moving into an opponent in its crease is no foul either."""
    start = position(stone("h2", -420, 0), stone("a2", -450, 60))
    events = (contact(3, "h1", "h2"), contact(7, "a2", "h2"))
    ruling = judge(start, flick("h1", 500, 0), record(start, *events), SETTINGS)
    assert "FOUL" not in codes(ruling.decisions)


def test_XII_7_goalie_foul_outside_its_crease_excludes_a_field_stone_by_default() -> None:
    """XII.7, A47: a goalie foul on a stone outside its crease excludes a field stone (default: farthest from puck)."""
    start = position(stone("h2", -100, 0), stone("h3", -200, 100), stone("h4", -200, -100), stone("h5", -380, 0),
                     stone("a2", -380, 60), puck=(0, 0))
    ruling = judge(start, flick("h1", -1, 300), record(start, contact(6, "a2", "h1")), SETTINGS)
    assert ruling.decisions[0] == Decision.of("FOUL", team="home", kind="direct", stone="h1", victim="a2")
    assert ruling.decisions[1] == Decision.of("EXCLUSION", team="home", stone="h5", deferred=False)
    assert ruling.position.stone("h1") is not None and ruling.position.stone("h5") is None
    choice = ruling.position.exclusion_choice
    assert choice is not None and choice.stone == "h5" and choice.options == ("h2", "h3", "h4")


def test_XII_7_goalie_moving_an_opponent_in_its_crease_into_its_teammate_is_no_foul() -> None:
    """XII.7 last sentence: the opponent stone set moving does not carry a taint to its own teammate."""
    start = position(stone("a2", -450, 60), stone("a3", -400, 60))
    events = (contact(3, "a2", "h1"), contact(8, "a2", "a3"))
    ruling = judge(start, flick("h1", 0, 300), record(start, *events), SETTINGS)
    assert "FOUL" not in codes(ruling.decisions)


def test_VIII_1a_the_victim_and_fouler_stay_listed_once_for_a_contact_reported_each_step() -> None:
    """VIII.7, D5: a pre-existing contact reported on several steps is one foul record."""
    events = tuple(contact(step, "h2", "a2", pre_existing=True) for step in (1, 2, 3))
    assert len(foul_records("home", "h2", events)) == 1


def test_VIII_1a_foul_record_order_follows_the_steps() -> None:
    """VIII.7: the counted foul is the earliest record of the move."""
    events = (contact(9, "h2", "a3"), contact(4, "h2", "a2"))
    records = foul_records("home", "h2", tuple(sorted(events, key=lambda e: e.step)))
    assert [r.victim for r in records] == ["a2", "a3"]


def test_VIII_1a_away_fouls_the_same_way() -> None:
    """VIII.1a: the rule is symmetric: an away foul excludes the away stone and gives home 2 moves."""
    start = replace(position(stone("h2", -100, 0), stone("a2", 100, 0), stone("a3", 200, 50), stone("a4", 200, -50),
                             stone("a5", 300, 0)), to_move="away")
    ruling = judge(start, flick("a2", -1000), record(start, contact(5, "h2", "a2")), SETTINGS)
    assert ruling.decisions[0] == Decision.of("FOUL", team="away", kind="direct", stone="a2", victim="h2")
    assert ruling.position.to_move == "home"

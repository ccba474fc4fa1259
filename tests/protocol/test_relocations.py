"""Interventions list every body the referee moved at rest, so the frames plus the interventions end on the
position the MovePlayed carries."""

from __future__ import annotations

from dataclasses import replace

from shared.events import Intervention
from shared.formation import basic_setup
from shared.model import Position, Puck
from shared.outcome import Decision
from shared.protocol.trajectory import Trajectory, with_relocations

START = Position(seed=1, stones=basic_setup(), puck=Puck(0.0, 0.0))


def _resting(position: Position) -> Trajectory:
    """A one-frame trajectory whose last frame is ``position`` (every body still)."""
    bodies = (*(s.id for s in position.stones), "puck")
    frame: list[int] = []
    for s in position.stones:
        frame += [round(s.x * 100), round(s.y * 100), 0, 0]
    frame += [round(position.puck.x * 100), round(position.puck.y * 100), 0, 0]
    return Trajectory(bodies, 60, 0, (tuple(frame),))


def _ended_on(trajectory: Trajectory, start: Position) -> dict[str, tuple[float, float] | None]:
    """Where every body is after playing the last frame and then the interventions in order."""
    where: dict[str, tuple[float, float] | None] = {s.id: (s.x, s.y) for s in start.stones}
    where["puck"] = (start.puck.x, start.puck.y)
    for i in trajectory.interventions:
        where[i.body] = None if i.code == "REMOVE" else (i.x, i.y)
    return where


def test_X_1_an_excluded_stone_is_listed_as_removed():
    """A stone the referee excludes after the move leaves the board as REMOVE/EXCLUDED."""
    after = replace(START, stones=tuple(s for s in START.stones if s.id != "h3"))
    moved = with_relocations(_resting(START), after, (Decision.of("EXCLUSION", team="home", stone="h3"),))
    assert [(i.code, i.body, i.reason) for i in moved.interventions] == [("REMOVE", "h3", "EXCLUDED")]


def test_X_3_a_returned_stone_is_placed_where_the_position_has_it():
    """A stone returned by the referee (not in the frames) is PLACE/RETURNED at its spot in the position."""
    before = replace(START, stones=tuple(s for s in START.stones if s.id != "a4"))
    moved = with_relocations(_resting(before), START, (Decision.of("RETURN", team="away", stone="a4"),))
    a4 = START.stone("a4")
    assert a4 is not None
    assert [(i.code, i.body, i.x, i.y, i.reason) for i in moved.interventions] == [
        ("PLACE", "a4", a4.x, a4.y, "RETURNED")
    ]


def test_V_a_restart_places_the_moved_bodies_on_the_basic_setup():
    """After a goal every body off its setup spot is PLACE/SETUP; the result is the position exactly."""
    scattered = replace(START, stones=tuple(replace(s, x=s.x + 37.5) for s in START.stones), puck=Puck(600.0, 10.0))
    moved = with_relocations(_resting(scattered), START, (Decision.of("GOAL", team="home", own_goal=False),
                                                          Decision.of("RESTART", team="away")))
    assert {i.reason for i in moved.interventions} == {"SETUP"}
    ended = _ended_on(moved, scattered)
    assert ended == {**{s.id: (s.x, s.y) for s in START.stones}, "puck": (0.0, 0.0)}


def test_bodies_the_physics_already_respotted_are_not_listed_twice():
    """A RESPOT of the 2.5-D model that ends where the position has the puck needs no PLACE."""
    resting = _resting(replace(START, puck=Puck(700.0, 0.0)))
    respotted = replace(resting, interventions=(Intervention("RESPOT", "puck", 0.0, 0.0, "LEFT_BOARD"),))
    assert with_relocations(respotted, START, ()) is respotted

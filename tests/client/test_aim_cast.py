"""The aiming guide's cast against the real physics: for straight shots the first body the guide names is the
first body the simulation's flicked stone touches, and a stone that meets nothing stops where the guide says."""

from __future__ import annotations

import math
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from client.match import samples
from shared.aim_cast import body_kind, cast, stopping_distance
from shared.events import Contact
from shared.match import settings_of
from shared.model import Flick, Position
from shared.physics import rested_position, simulate
from tests.client.helpers import basic_position


@cache
def positions() -> tuple[Position, ...]:
    """Real positions of one sample match: the opening and the next fifteen moves' rest positions."""
    found = [samples.new_match()]
    for _ in range(15):
        found.append(samples.play(found[-1], 1))
    return tuple(found)


def _first_touched(position: Position, stone: str, vx: float, vy: float) -> set[str | None]:
    """The bodies the simulated stone touches in the first step it touches anything (a seam of two board
    segments is touched by both in one step, D6); {None} when it touches nothing."""
    flicked = position.stone(stone)
    assert flicked is not None
    record = simulate(position, Flick(flicked.team, stone, vx, vy), settings_of(position))
    contacts = [e for e in record.events if isinstance(e, Contact) and e.involves(stone)]
    if not contacts:
        return {None}
    step = contacts[0].step
    return {e.other(stone) for e in contacts if e.step == step}


@settings(max_examples=120, deadline=None)
@given(which=st.integers(0, 15), pick=st.integers(0, 13), angle=st.floats(0.0, 2 * math.pi),
       speed=st.floats(60.0, 3000.0))
def test_the_guide_names_the_first_body_the_simulation_touches(which, pick, angle, speed):
    """Any stone of a real position, any direction and speed: the guide's body is the physics' first contact."""
    position = positions()[which]
    stone = position.stones[pick % len(position.stones)]
    vx, vy = speed * math.cos(angle), speed * math.sin(angle)
    guide = cast(position, stone.id, vx, vy, settings_of(position))
    assert guide is not None and guide.body in _first_touched(position, stone.id, vx, vy)


def test_a_stone_aimed_at_the_puck_meets_the_puck_at_contact_distance():
    """Straight at the puck: the guide meets it where the two discs touch, and pushes it along the line."""
    position = basic_position()
    h2 = position.stone("h2")
    s = settings_of(position)
    dx, dy = position.puck.x - h2.x, position.puck.y - h2.y
    guide = cast(position, "h2", dx * 10, dy * 10, s)
    assert guide.body == "puck" and body_kind(guide.body) == "puck"
    centre = math.hypot(position.puck.x - guide.x, position.puck.y - guide.y)
    assert math.isclose(centre, s.stone_radius + s.puck_radius, abs_tol=1e-6)
    assert math.isclose(guide.push[0], 1.0 if dx > 0 else -1.0, abs_tol=1e-6)
    assert _first_touched(position, "h2", dx * 10, dy * 10) == {"puck"}


def test_a_soft_flick_in_open_space_stops_where_the_guide_says():
    """Nothing in the way: the guide's end is the simulated rest point within a millimetre."""
    position = basic_position()
    s = settings_of(position)
    guide = cast(position, "h6", 0.0, 400.0, s)
    assert guide.body is None and math.isclose(guide.distance, stopping_distance(400.0, s))
    record = simulate(position, Flick("home", "h6", 0.0, 400.0), s)
    rested = rested_position(position, record).stone("h6")
    assert math.hypot(rested.x - guide.x, rested.y - guide.y) < 1.0

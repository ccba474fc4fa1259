"""[DIGITAL] rules that cannot happen online, pinned by the construction that prevents them: VI.3, VI.4, VII.3a-c,
VII.4 (a flick is one instantaneous impulse to one own stone, judged only at rest; the referee's 2.5-D
interventions are applied by the engine, never by a coach)."""

from __future__ import annotations

from dataclasses import fields

from shared import physics
from shared.events import AtRest, Contact, Intervention
from shared.match import HANDLERS, apply_action, settings_of
from shared.model import ACTION_TYPES, Flick, Stone
from shared.referee.adjudicate import intervention_decisions
from tests.referee.builders import position, record, stone


def test_VI_3_a_puck_on_the_goal_is_respotted_by_the_referee_and_no_body_stands_on_edge() -> None:
    """VI.3: the 2.5-D model's ON_GOAL puck is put back by the engine (RESPOT); a stone has no on-edge state."""
    start = position(stone("h2", -100, 0))
    moved = record(start, moved={"puck": (520.0, 0.0)},
                   interventions=(Intervention("RESPOT", "puck", 520.0, 0.0, "ON_GOAL"),))
    (decision,) = intervention_decisions(moved)
    assert decision.to_json() == {"code": "RESPOT", "body": "puck", "x": 520.0, "y": 0.0, "reason": "ON_GOAL"}
    assert {f.name for f in fields(Stone)} == {"id", "team", "role", "x", "y", "flipped"}


def test_VI_4_a_flipped_stone_is_turned_over_in_place_and_no_coach_action_flips() -> None:
    """VI.4: a stone the model flips is turned back in place at rest (FLIP); no action lets a coach turn it."""
    start = position(stone("h2", -100, 0))
    flip = Intervention("FLIP", "h2", -60.0, 5.0, "FLIPPED")
    moved = record(start, moved={"h2": (-60.0, 5.0)}, interventions=(flip,))
    rest = physics.rested_position(start, moved)
    assert [d.code for d in intervention_decisions(moved)] == ["FLIP"]
    h2 = rest.stone("h2")
    assert h2 is not None and (h2.x, h2.y, h2.flipped) == (-60.0, 5.0, False)
    assert not any("flip" in name for name in ACTION_TYPES) and set(HANDLERS) == set(ACTION_TYPES)


def test_VII_3a_the_puck_cannot_be_flicked() -> None:
    """VII.3a: only own stones can be selected - a flick of the puck is refused and changes nothing."""
    start = position(stone("h2", -100, 0))
    refused = apply_action(start, Flick("home", "puck", 300, 0))
    assert not refused.accepted and refused.error is not None and refused.error.code == "NOT_YOUR_STONE"
    assert refused.position is start


def test_VII_3b_a_move_is_judged_only_at_rest_so_no_move_can_be_premature() -> None:
    """VII.3b, D4: the engine returns a move only when every body is at rest; the next action starts from there."""
    start = position(stone("h2", -100, 0), stone("a2", 200, 200))
    settings = settings_of(start)
    simulated = physics.simulate(start, Flick("home", "h2", 800, 0), settings)
    assert isinstance(simulated.events[-1], AtRest) and not simulated.events[-1].capped
    result = apply_action(start, Flick("home", "h2", 800, 0))
    h2 = result.position.stone("h2")
    final = {b.id: b for b in simulated.final}
    assert h2 is not None and (h2.x, h2.y) == (final["h2"].x, final["h2"].y)


def test_VII_3c_a_flick_is_an_instant_velocity_through_the_centre_so_no_drag() -> None:
    """VII.3c: a flick carries only a velocity for the stone's centre - no contact time or path to guide it."""
    assert [f.name for f in fields(Flick)] == ["team", "stone", "vx", "vy", "action"]
    start = position(stone("h2", -100, 0))
    simulated = physics.simulate(start, Flick("home", "h2", 0, 600), settings_of(start))
    index = simulated.bodies.index("h2")
    xs = [frame[4 * index] for frame in simulated.keyframes]
    assert len(set(xs)) == 1  # it never leaves the line of the flick: nothing steered it


def test_VII_4_a_flick_moves_exactly_one_own_stone() -> None:
    """VII.4: one impulse to one stone - until a contact, no other body moves (no double move)."""
    start = position(stone("h2", -100, 0), stone("h3", -100, 200), stone("a2", 200, -200))
    simulated = physics.simulate(start, Flick("home", "h2", 0, -300), settings_of(start))
    assert not any(isinstance(e, Contact) for e in simulated.events)
    first = simulated.keyframes[0]
    moved = {body for k, body in enumerate(simulated.bodies)
             if any(frame[4 * k: 4 * k + 2] != first[4 * k: 4 * k + 2] for frame in simulated.keyframes)}
    assert moved == {"h2"}

"""Hypothesis strategies for every protocol message, derived from the messages' own wire specs.

Why derived: a new message or field is covered by the round-trip and fuzz tests without anyone
writing a strategy for it; only the values another module owns (positions, actions, decisions,
trajectories) need a hand-made strategy here.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from shared.events import Intervention
from shared.formation import basic_setup
from shared.model import TEAMS as TEAM_NAMES
from shared.model import (
    ChooseExclusion,
    Count,
    Flick,
    GoalieReset,
    Placement,
    Position,
    PowerPlaySwapIn,
    PowerPlaySwapOut,
    Setup,
    TakePenalty,
    Team,
)
from shared.outcome import Decision
from shared.protocol import messages as m
from shared.protocol.specs import Bool, Convert, Float, Int, Json, ListOf, MapOf, Opt, Spec, Str, Struct, wire_fields
from shared.protocol.trajectory import Trajectory

TEAMS: st.SearchStrategy[Team] = st.sampled_from(TEAM_NAMES)
STONES = st.sampled_from(("h1", "h2", "h5", "a1", "a3", "a7"))
SPEEDS = st.floats(-3000, 3000, allow_nan=False)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Valid positions in canonical form (what position_from_json gives back), so they round-trip exactly."""
    from shared.notation import position_from_json, position_to_json

    home_end = draw(st.sampled_from((-1, 1)))
    position = Position(
        seed=draw(st.integers(0, 2**31)),
        move_number=draw(st.integers(0, 500)),
        home_end=home_end,
        to_move=draw(TEAMS),
        score=(draw(st.integers(0, 9)), draw(st.integers(0, 9))),
        stones=basic_setup(home_end),
    )
    return position_from_json(position_to_json(position))


def actions() -> st.SearchStrategy[Any]:
    """Every kind of action with plausible values."""
    return st.one_of(
        st.builds(Flick, TEAMS, STONES, SPEEDS, SPEEDS),
        st.builds(GoalieReset, TEAMS),
        st.builds(PowerPlaySwapOut, TEAMS, STONES),
        st.builds(PowerPlaySwapIn, TEAMS, STONES),
        st.builds(Count, TEAMS),
        st.builds(TakePenalty, TEAMS),
        st.builds(ChooseExclusion, TEAMS, STONES),
        st.builds(
            Setup,
            TEAMS,
            st.lists(st.builds(Placement, STONES, st.floats(-600, 600), st.floats(-290, 290)), max_size=7).map(tuple),
        ),
    )


def decisions() -> st.SearchStrategy[Decision]:
    """Decision objects with scalar fields, as the referee makes them."""
    scalar = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.floats(-600, 600), TEAMS)
    names = st.sampled_from(("team", "stone", "victim", "kind", "moves", "x", "y", "reason", "own_goal"))
    return st.builds(
        lambda code, fields: Decision(code, tuple(fields.items())),
        st.sampled_from(("GOAL", "FOUL", "EXCLUSION", "PRIVILEGE", "RESPOT", "MATCH_ENDED")),
        st.dictionaries(names, scalar, max_size=4),
    )


@st.composite
def trajectories(draw: st.DrawFn, max_frames: int = 40) -> Trajectory:
    """Random walks of up to 15 bodies, some still, with state changes and interventions."""
    count = draw(st.integers(1, 15))
    n = draw(st.integers(1, max_frames))
    moving = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    step = st.integers(-6000, 6000)
    columns = []
    for body in range(count):
        for component in range(4):
            start = draw(st.integers(0, 3)) if component == 3 else draw(st.integers(-60_000, 60_000))
            column = [start]
            for _ in range(n - 1):
                if not moving[body]:
                    column.append(column[-1])
                elif component == 3:
                    column.append(draw(st.integers(0, 3)) if draw(st.integers(0, 9)) == 0 else column[-1])
                else:
                    column.append(column[-1] + draw(step))
            columns.append(column)
    frames = tuple(tuple(column[k] for column in columns) for k in range(n))
    interventions = draw(
        st.lists(
            st.builds(
                Intervention,
                st.sampled_from(("RESPOT", "FLIP")),
                st.sampled_from(("puck", "h2", "a3")),
                st.integers(-60_000, 60_000).map(lambda v: v / 100),
                st.integers(-30_000, 30_000).map(lambda v: v / 100),
                st.sampled_from(("LEFT_BOARD", "ON_GOAL", "FLIPPED")),
            ),
            max_size=2,
        ).map(tuple)
    )
    bodies = tuple(f"b{i}" for i in range(count))
    return Trajectory(bodies, draw(st.sampled_from((30, 60))), draw(st.integers(0, 30_000)), frames, interventions)


def json_values(depth: int) -> st.SearchStrategy[Any]:
    """JSON values nested at most ``depth`` containers deep (arrays as lists, as decoding gives them)."""
    scalar = st.one_of(
        st.none(), st.booleans(), st.integers(-(2**53) + 1, 2**53 - 1), st.floats(allow_nan=False, allow_infinity=False)
    )
    scalar = st.one_of(scalar, st.text(max_size=8))
    if depth <= 0:
        return scalar
    inner = json_values(depth - 1)
    return st.one_of(scalar, st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3))


_CONVERTED = {"position": positions, "action": actions, "decision": decisions, "trajectory": trajectories}


def for_spec(spec: Spec) -> st.SearchStrategy[Any]:
    """Values that satisfy ``spec``."""
    if isinstance(spec, Int):
        return st.integers(spec.lo, spec.hi)
    if isinstance(spec, Float):
        return st.floats(spec.lo, spec.hi, allow_nan=False, allow_infinity=False)
    if isinstance(spec, Bool):
        return st.booleans()
    if isinstance(spec, Str):
        if spec.choices:
            return st.sampled_from(spec.choices)
        return st.text(min_size=spec.min_len, max_size=min(spec.max_len, 12))
    if isinstance(spec, Opt):
        return st.none() | for_spec(spec.inner)
    if isinstance(spec, ListOf):
        return st.lists(for_spec(spec.item), max_size=min(spec.max_len, 3)).map(tuple)
    if isinstance(spec, MapOf):
        return st.dictionaries(for_spec(spec.key), for_spec(spec.value), max_size=min(spec.max_len, 3))
    if isinstance(spec, Json):
        return json_values(min(spec.depth, 2))
    if isinstance(spec, Struct):
        return records(spec.cls)
    if isinstance(spec, Convert):
        return _CONVERTED[spec.name]()
    raise TypeError(f"no strategy for {spec!r}")


def records(cls: type) -> st.SearchStrategy[Any]:
    """Instances of a message or nested record with every field drawn from its spec."""
    return st.builds(cls, **{name: for_spec(spec) for name, spec, _ in wire_fields(cls)})


def messages() -> st.SearchStrategy[Any]:
    """Any protocol message."""
    return st.one_of(*(records(cls) for cls in m.MESSAGE_TYPES.values()))


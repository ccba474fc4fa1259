"""The compact form of a kept position: read back equal to what was packed, whatever the referee's state, bit for
bit in its floats; what is not one is refused; a position packed before a field was added reads with its default."""

from __future__ import annotations

import dataclasses
import math
import typing

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared import model, notation
from shared.formation import basic_setup
from shared.model import (
    ActivityCount,
    ExclusionChoice,
    PenaltyShotState,
    Position,
    PowerPlayState,
    Puck,
    ShootoutState,
)
from shared.protocol import packed_position
from shared.protocol.packed_position import PackedPositionError
from tests.shared.test_notation import positions


def _referee_state(base: Position) -> Position:
    """Every optional part of the referee's state set at once."""
    return dataclasses.replace(
        base,
        exclusion_choice=ExclusionChoice(team="home", stone="h3", options=("h3", "h4"), spot=(-0.0, 12.5)),
        advantage="away",
        siren=True,
        penalty=PenaltyShotState(team="away", against="home", shooter="a4", goalie="h1", moves=2, after_siren=True,
                                 in_shootout=False, shot_ms=3500, goalie_set=True, shooter_set=False,
                                 lineups=(("h2", "h3"), ("a2",))),
        activity=ActivityCount(counting="home", obliged="away", limit=5, count=3, confirmed=2, pushed=("a1",),
                               last_stone=None, last_goalie=True),
        power_play=(PowerPlayState(team="home", goalie="h1", substitute="h5", candidates=("h5", "h6"),
                                   waited=False),),
        shootout=ShootoutState(starter="away", series=2, shots=(("away", True), ("home", False))),
        last_mover="home",
    )


@settings(max_examples=150, deadline=None)
@given(positions(), st.booleans())
def test_a_packed_position_reads_back_equal(position: Position, referee: bool):
    if referee:
        position = _referee_state(position)
    assert packed_position.unpack(packed_position.pack(position)) == position


def test_floats_come_back_bit_for_bit_and_the_form_is_a_third_of_the_json():
    position = Position(seed=2**62, stones=basic_setup(), puck=Puck(-0.0, 1e-300))
    again = packed_position.unpack(packed_position.pack(position))
    assert math.copysign(1.0, again.puck.x) == -1.0 and again.puck.y == 1e-300 and again == position
    assert len(packed_position.pack(position)) < len(notation.dumps(notation.position_to_json(position))) / 2


def test_a_position_packed_before_a_field_was_added_reads_with_that_fields_default():
    position = Position(stones=basic_setup(), last_mover="away")
    values = msgpack.unpackb(packed_position.pack(position))
    assert values.pop() == "away"  # last_mover, the position's last field
    older = packed_position.unpack(msgpack.packb(values))
    assert older == dataclasses.replace(position, last_mover=None)


@pytest.mark.parametrize("data", [
    b"", b"\xc1", msgpack.packb({"ruleset": "standard"}), msgpack.packb(list(range(40))),
    msgpack.packb(["standard", [], 0, 0, -1, "home", [0, 0], "not a part"]),
    msgpack.packb(["standard", [], 0, 0, -1, "home", [0, 0, 0]]),
])
def test_what_is_not_a_packed_position_is_refused(data: bytes):
    with pytest.raises(PackedPositionError):
        packed_position.unpack(data)


# The layout the kept positions of every database were packed with: each dataclass's fields, in order. A field may
# be added at the end (with a default: older rows then read with it); one moved, renamed or removed would read older
# rows into the wrong fields - that needs a new format byte in server.store.position_blob and a reader of this one.
PACKED_LAYOUT = {
    "Position": ("ruleset", "settings", "seed", "move_number", "home_end", "to_move", "score", "part", "restart",
                 "privilege", "stones", "puck", "excluded", "deferred", "first_starter", "result", "exclusion_choice",
                 "penalty_shot", "advantage", "siren", "penalty", "activity", "activity_offer", "power_play",
                 "shootout", "last_mover"),
    "Part": ("kind", "number", "clock_ms"),
    "Privilege": ("team", "remaining", "total", "snapshot"),
    "Stone": ("id", "team", "role", "x", "y", "flipped"),
    "Puck": ("x", "y"),
    "Result": ("winner", "reason"),
    "ExclusionChoice": ("team", "stone", "options", "spot"),
    "PenaltyShotState": ("team", "against", "shooter", "goalie", "moves", "after_siren", "in_shootout", "shot_ms",
                         "goalie_set", "shooter_set", "lineups"),
    "ActivityCount": ("counting", "obliged", "limit", "count", "confirmed", "pushed", "last_stone", "last_goalie"),
    "PowerPlayState": ("team", "goalie", "substitute", "candidates", "waited"),
    "ShootoutState": ("starter", "series", "shots"),
}


def _layout(cls: type, found: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Every dataclass a position holds, with its fields in order."""
    if cls.__name__ not in found:
        found[cls.__name__] = tuple(f.name for f in dataclasses.fields(cls))
        hints = typing.get_type_hints(cls)
        for name in found[cls.__name__]:
            stack = [hints[name]]
            while stack:
                hint = stack.pop()
                if dataclasses.is_dataclass(hint) and isinstance(hint, type):
                    _layout(hint, found)
                stack += list(typing.get_args(hint))
    return found


def test_the_packed_layout_only_ever_grows_at_the_end_of_each_dataclass():
    now = _layout(Position, {})
    for name, fields in PACKED_LAYOUT.items():
        assert now[name][:len(fields)] == fields, f"{name}: fields moved, renamed or removed ({now[name]})"
        added = [f for f in dataclasses.fields(getattr(model, name)) if f.name not in fields]
        assert all(f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
                   for f in added), f"{name}: a field added without a default cannot read older rows"

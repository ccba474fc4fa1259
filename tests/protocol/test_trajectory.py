"""The trajectory wire form: exact frames back, compact for a real move, hostile input refused."""

from __future__ import annotations

import math

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings

from shared.events import MoveRecord
from shared.formation import basic_setup
from shared.model import Flick, Position
from shared.physics import simulate
from shared.protocol import ProtocolError, Trajectory, decode_trajectory, encode_trajectory
from shared.rulesets import make_settings
from tests.protocol.strategies import trajectories


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trajectories())
def test_frames_round_trip_exactly(traj: Trajectory) -> None:
    """Any trajectory comes back with the same ints in every frame, through msgpack too."""
    wire = msgpack.unpackb(msgpack.packb(encode_trajectory(traj)))
    assert decode_trajectory(wire) == traj


def _two_second_move() -> tuple[MoveRecord, bytes]:
    """The longest of a few real flicks on a slick board (over 2 s) and its msgpack trajectory."""
    position = Position(stones=basic_setup(), seed=7)
    slick = make_settings(overrides={"table_friction": 0.05})
    records = []
    for stone_id, degrees in (("h2", 10), ("h2", -10), ("h3", -30), ("h4", 30)):
        stone = position.stone(stone_id)
        assert stone is not None
        angle = math.atan2(-stone.y, -stone.x) + math.radians(degrees)
        flick = Flick("home", stone_id, 3000 * math.cos(angle), 3000 * math.sin(angle))
        records.append(simulate(position, flick, slick))
    record = max(records, key=lambda r: (r.duration_ms, len(r.bodies)))
    return record, msgpack.packb(encode_trajectory(record))


def test_a_real_two_second_move_is_under_4_kb_and_exact() -> None:
    """The wire budget: a 2 s move with several moving bodies costs well under 4 KB and decodes exactly."""
    record, data = _two_second_move()
    assert record.duration_ms >= 2000
    assert len(data) < 4096, len(data)
    back = decode_trajectory(msgpack.unpackb(data))
    assert back.frames == tuple(record.keyframes)
    assert back.bodies == record.bodies
    raw_ints = sum(len(f) for f in record.keyframes)
    assert len(data) < raw_ints  # less than one byte per keyframe int


def test_still_bodies_cost_nothing_per_frame() -> None:
    """Bodies that never move have no track: only their start values travel."""
    record, _ = _two_second_move()
    wire = encode_trajectory(record)
    assert 0 < len(wire["tracks"]) < len(wire["bodies"])
    assert len(wire["start"]) == 4 * len(wire["bodies"])


def _valid() -> dict:
    """A small valid wire trajectory: two bodies, one moving for two frames, one state change."""
    frames = ((0, 0, 0, 0, 100, 100, 0, 0), (10, 0, 5, 0, 100, 100, 0, 0), (15, 0, 5, 0, 100, 100, 0, 1))
    return encode_trajectory(Trajectory(("puck", "h2"), 60, 50, frames))


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("hz", 0),
        ("n", 0),
        ("n", 10**6),
        ("bodies", ["puck", "puck"]),
        ("start", [0, 0, 0]),
        ("start", [0, 0, 0, 9, 0, 0, 0, 0]),
        ("tracks", [[0, 0, 1, 1, 1]]),
        ("tracks", [[0, 1, 1, 1]]),
        ("tracks", [[5, 1, 1, 1, 1]]),
        ("tracks", [[0, 1, 1, 1, 1], [0, 1, 1, 1, 1]]),
        ("tracks", [[0, 1] + [1, 1, 1] * 3]),
        ("tracks", [[0, 1, 10**7, 0, 0, 10**7, 0, 0]]),
        ("states", [[0, 1, 1]]),
        ("states", [[2, 1, 7]]),
        ("states", [[2, 1, 1], [1, 1, 0]]),
        ("states", [[1, 1]]),
        ("interventions", [{"code": "RESPOT", "body": "puck", "x": 0, "y": 0}]),
        ("interventions", None),
    ],
)
def test_hostile_wire_values_raise_protocol_error(key: str, value: object) -> None:
    """Out-of-range, inconsistent or malformed parts raise ProtocolError, never IndexError or worse."""
    wire = _valid()
    wire[key] = value
    with pytest.raises(ProtocolError):
        decode_trajectory(wire)


def test_missing_or_extra_keys_are_refused() -> None:
    """The trajectory map has exactly its documented keys."""
    wire = _valid()
    del wire["interventions"]
    with pytest.raises(ProtocolError):
        decode_trajectory(wire)
    with pytest.raises(ProtocolError):
        decode_trajectory({**_valid(), "extra": 1})
    with pytest.raises(ProtocolError):
        decode_trajectory([1, 2])

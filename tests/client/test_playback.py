"""Playback of a move from keyframes: decoding, interpolation, angle wrap-around, state changes, interventions."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from client.common.playback import (
    HOLD_SECONDS,
    INTERVENTION_SECONDS,
    OFF_BOARD,
    ON_BOARD,
    Playback,
    frame_poses,
    interpolated_poses,
    poses_from_position,
)
from shared.events import Intervention
from tests.client.helpers import basic_position, record

BODIES = ("h2", "puck")


def test_frame_poses_decode_wire_units():
    """Keyframe ints are 0.01 mm and mrad: 12345 is 123.45 mm, 1500 mrad is 1.5 rad."""
    rec = record(BODIES, [[(12345, -200, 1500, 0), (0, 0, 0, 0)]])
    poses = frame_poses(rec, 0)
    assert (poses["h2"].x, poses["h2"].y, poses["h2"].angle) == (123.45, -2.0, 1.5)


def test_interpolation_halfway_between_frames():
    """Half a frame after frame 0 a body is halfway to frame 1."""
    rec = record(BODIES, [[(0, 0, 0, 0), (0, 0, 0, 0)], [(1000, 2000, 0, 0), (0, 0, 0, 0)]])
    pose = interpolated_poses(rec, 0.5)["h2"]
    assert (pose.x, pose.y) == (5.0, 10.0)


def test_angle_interpolates_the_short_way_round():
    """From 6.2 rad to 0.1 rad the stone turns forward through 2π, not back through π."""
    rec = record(BODIES, [[(0, 0, 6200, 0), (0, 0, 0, 0)], [(0, 0, 100, 0), (0, 0, 0, 0)]])
    angle = interpolated_poses(rec, 0.5)["h2"].angle
    expected = (6200 + (100 + 2000 * math.pi - 6200) / 2) / 1000
    assert angle == pytest.approx(expected)


def test_state_change_snaps_instead_of_sliding():
    """A puck that flies off between two frames is not drawn sliding halfway between board and outside."""
    rec = record(BODIES, [[(0, 0, 0, 0), (50000, 0, 0, 0)], [(0, 0, 0, 0), (60800, 0, 0, OFF_BOARD)]])
    assert interpolated_poses(rec, 0.3)["puck"].x == 500.0
    assert interpolated_poses(rec, 0.7)["puck"].state == OFF_BOARD


def test_playback_timeline_runs_at_sixty_frames_per_second():
    """61 keyframes last exactly one second; then the hold; then the playback is done."""
    frames = [[(i * 100, 0, 0, 0), (0, 0, 0, 0)] for i in range(61)]
    playback = Playback(record(BODIES, frames))
    assert playback.move_seconds == pytest.approx(1.0)
    assert playback.poses(0.5)["h2"].x == pytest.approx(30.0)
    assert playback.moving(0.99) and not playback.moving(1.01)
    assert not playback.done(1.0 + HOLD_SECONDS / 2) and playback.done(1.0 + HOLD_SECONDS + 0.01)


def test_intervention_is_shown_then_applied():
    """The puck off the board stays at its exit point while the referee's hand is shown, then lies at its spot."""
    respot = Intervention("RESPOT", "puck", 599.5, 10.0, "LEFT_BOARD")
    frames = [[(0, 0, 0, 0), (60800, 1000, 0, OFF_BOARD)]] * 2
    playback = Playback(record(BODIES, frames, (respot,)))
    during = playback.move_seconds + INTERVENTION_SECONDS / 2
    assert playback.intervention_at(during) == respot
    assert playback.poses(during)["puck"].state == OFF_BOARD
    after = playback.move_seconds + INTERVENTION_SECONDS + 0.01
    puck = playback.poses(after)["puck"]
    assert (puck.x, puck.y, puck.state) == (599.5, 10.0, ON_BOARD)
    assert playback.intervention_at(after) is None


def test_faster_playback_for_replays():
    """At speed 2 the move is over in half the wall time."""
    frames = [[(i * 100, 0, 0, 0), (0, 0, 0, 0)] for i in range(61)]
    playback = Playback(record(BODIES, frames), speed=2.0)
    assert playback.poses(0.5)["h2"].x == pytest.approx(60.0)


def test_poses_from_position_mark_flipped_stones_and_keep_angles():
    """A flipped stone of the position is drawn upside down; remembered angles are kept."""
    position = basic_position()
    flipped = position.stones[1]
    position = replace(position, stones=(replace(flipped, flipped=True), *position.stones[2:]))
    poses = poses_from_position(position, {flipped.id: 1.25})
    assert poses[flipped.id].state == 1 and poses[flipped.id].angle == 1.25
    assert poses["puck"].x == 0.0

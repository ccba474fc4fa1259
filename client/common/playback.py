"""Playback of one resolved move from its keyframes, then the referee's interventions (pure, no arcade).

Why: the client never simulates (docs/ARCHITECTURE.md "The client never simulates"); it shows what the server computed.
Keyframes come at 60 per second while the screen may draw at any rate, so positions are interpolated between
frames (angles the short way round). After the bodies stop, each intervention of the 2.5-D referee is
shown where it happens (the puck put back at the board, a stone turned over) before the position at
rest takes over. Time is passed in, so tests drive it without a clock.

The input is the wire's ``Trajectory`` (``Trajectory.from_record`` turns a locally computed MoveRecord into
one, for replays); it carries only the bodies that moved, so the others are drawn from ``base``, the
position the move started from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shared.events import Intervention
from shared.model import PUCK_ID, Position
from shared.protocol.trajectory import Trajectory

# Keyframe body states (shared.events.MoveRecord).
ON_BOARD = 0
UPSIDE_DOWN = 1
OFF_BOARD = 2
ON_GOAL = 3

INTERVENTION_SECONDS = 0.9  # how long each referee intervention is shown before it is applied
HOLD_SECONDS = 0.3  # a short rest at the end so the eye catches the final position
_MRAD_TURN = 2000.0 * math.pi


@dataclass(frozen=True, slots=True)
class Pose:
    """Where one body is drawn: centre in mm, angle in radians, and its keyframe state."""

    body: str
    x: float
    y: float
    angle: float = 0.0
    state: int = ON_BOARD


def poses_from_position(position: Position, angles: dict[str, float] | None = None) -> dict[str, Pose]:
    """The bodies of a position at rest as poses; ``angles`` keeps the stones turned as the last move left them."""
    angles = angles or {}
    poses = {
        s.id: Pose(s.id, s.x, s.y, angles.get(s.id, 0.0), UPSIDE_DOWN if s.flipped else ON_BOARD)
        for s in position.stones
    }
    poses[PUCK_ID] = Pose(PUCK_ID, position.puck.x, position.puck.y, angles.get(PUCK_ID, 0.0), ON_BOARD)
    return poses


def frame_poses(record: Trajectory, index: int) -> dict[str, Pose]:
    """The poses of keyframe ``index`` (clamped to the recorded frames), decoded from 0.01 mm and mrad."""
    index = max(0, min(index, len(record.frames) - 1))
    frame = record.frames[index]
    return {
        body: Pose(body, frame[4 * i] / 100.0, frame[4 * i + 1] / 100.0, frame[4 * i + 2] / 1000.0, frame[4 * i + 3])
        for i, body in enumerate(record.bodies)
    }


def _lerp_angle_mrad(a: int, b: int, t: float) -> float:
    """Interpolate two angles in mrad the short way round (so 6.2 rad → 0.1 rad turns forward, not back)."""
    delta = (b - a + _MRAD_TURN / 2) % _MRAD_TURN - _MRAD_TURN / 2
    return (a + delta * t) / 1000.0


def interpolated_poses(record: Trajectory, frame_time: float) -> dict[str, Pose]:
    """The poses at a fractional keyframe index: linear between frames, snapped where a body changes state."""
    last = len(record.frames) - 1
    if frame_time <= 0 or last <= 0:
        return frame_poses(record, 0 if frame_time <= 0 else last)
    if frame_time >= last:
        return frame_poses(record, last)
    k = int(frame_time)
    t = frame_time - k
    a, b = record.frames[k], record.frames[k + 1]
    poses = {}
    for i, body in enumerate(record.bodies):
        j = 4 * i
        if a[j + 3] != b[j + 3]:  # flew off, landed on a goal or turned over: no sliding between two worlds
            src = a if t < 0.5 else b
            poses[body] = Pose(body, src[j] / 100.0, src[j + 1] / 100.0, src[j + 2] / 1000.0, src[j + 3])
            continue
        poses[body] = Pose(
            body,
            (a[j] + (b[j] - a[j]) * t) / 100.0,
            (a[j + 1] + (b[j + 1] - a[j + 1]) * t) / 100.0,
            _lerp_angle_mrad(a[j + 2], b[j + 2], t),
            a[j + 3],
        )
    return poses


def apply_intervention(poses: dict[str, Pose], intervention: Intervention) -> dict[str, Pose]:
    """The poses after the referee's intervention: a re-spotted body lies at its spot, a flipped stone is turned."""
    before = poses.get(intervention.body)
    angle = before.angle if before is not None else 0.0
    out = dict(poses)
    out[intervention.body] = Pose(intervention.body, intervention.x, intervention.y, angle, ON_BOARD)
    return out


class Playback:
    """One move on a timeline: the bodies moving, then each intervention in turn, then a short hold."""

    def __init__(self, record: Trajectory, speed: float = 1.0, base: dict[str, Pose] | None = None) -> None:
        """Prepare the timeline of ``record``; ``speed`` > 1 plays faster (replays); ``base`` holds the bodies
        that do not move (the trajectory leaves them out)."""
        if speed <= 0:
            raise ValueError("playback speed must be positive")
        self.record = record
        self.speed = speed
        self.base = dict(base or {})
        self.frame_rate = float(record.hz)
        self.move_seconds = max(0, len(record.frames) - 1) / self.frame_rate
        self.total_seconds = self.move_seconds + INTERVENTION_SECONDS * len(record.interventions) + HOLD_SECONDS

    def _scaled(self, t: float) -> float:
        """Wall seconds since the start to timeline seconds."""
        return max(0.0, t * self.speed)

    def poses(self, t: float) -> dict[str, Pose]:
        """Where every body is ``t`` seconds after the playback began."""
        s = self._scaled(t)
        poses = dict(self.base)
        if s <= self.move_seconds:
            poses.update(interpolated_poses(self.record, s * self.frame_rate))
            return poses
        poses.update(frame_poses(self.record, len(self.record.frames) - 1))
        applied = int((s - self.move_seconds) // INTERVENTION_SECONDS)
        for intervention in self.record.interventions[:applied]:
            poses = apply_intervention(poses, intervention)
        return poses

    def intervention_at(self, t: float) -> Intervention | None:
        """The intervention being shown at ``t`` (the referee's hand is on that body), if any."""
        s = self._scaled(t) - self.move_seconds
        if s < 0:
            return None
        index = int(s // INTERVENTION_SECONDS)
        return self.record.interventions[index] if index < len(self.record.interventions) else None

    def moving(self, t: float) -> bool:
        """True while the bodies are still sliding (before the interventions)."""
        return self._scaled(t) < self.move_seconds

    def done(self, t: float) -> bool:
        """True once the whole move, interventions and hold included, has been shown."""
        return self._scaled(t) >= self.total_seconds

    def final_angles(self) -> dict[str, float]:
        """The bodies' angles at rest, so the position drawn afterwards keeps the stones turned the same way."""
        return {body: pose.angle for body, pose in frame_poses(self.record, len(self.record.frames) - 1).items()}

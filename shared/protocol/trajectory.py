"""A move's keyframes on the wire: quantised ints, delta-coded per body, only the bodies that move.

Why: a flick is sent once, as a whole trajectory the clients play back (docs/ARCHITECTURE.md "The path of a flick"); the
project's wire measurements (docs/ARCHITECTURE.md "Physics facts") found that quantised ints with per-body deltas and
only moving bodies cut a 3 s move from 66 kB (float64) to 2.6 kB. Here each moving body is one *track*: the frames
between its first and last change, as second differences of (x, y, angle) — a sliding body
decelerates evenly, so its second differences are small numbers that msgpack writes in one or two
bytes. State changes (flipped, off the board, on a goal) are rare and travel as a short list.
Decoding rebuilds the frames exactly (ints in, the same ints out) and checks every number, so a
hostile trajectory raises ``ProtocolError`` and nothing else.

Wire form (a msgpack map; units as in ``MoveRecord``: 0.01 mm, milliradians)::

    {"hz": 60, "ms": 1840, "n": 111, "bodies": ["h1", ...],
     "start": [x, y, angle, state, ...],         # frame 0, 4 ints per body in ``bodies`` order
     "tracks": [[body, first, ex, ey, ea, ...]],  # second differences for frames first..first+k-1
     "states": [[frame, body, state], ...],       # state changes, in frame order
     "interventions": [{"code", "body", "x", "y", "reason"}]}  # x, y in 0.01 mm
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import compress, pairwise
from operator import ne
from typing import Annotated, Any, Literal

from shared.events import Intervention, MoveRecord
from shared.model import Position
from shared.outcome import Decision
from shared.protocol.errors import ProtocolError
from shared.protocol.specs import Int, ListOf, Str, bad, load_fields

MAX_BODIES = 32
MAX_FRAMES = 4096  # 68 s at 60 Hz; the physics caps a move at 30 s (move_cap_ms)
COORD_LIMIT = 10_000_000  # |x|, |y|, |angle| in wire units: 100 m, 10,000 rad — far beyond any real value
STATES = (0, 1, 2, 3)  # on the board, upside down, off the board, on top of a goal
INTERVENTION_CODES = ("RESPOT", "FLIP", "REMOVE", "PLACE")
INTERVENTION_REASONS = ("LEFT_BOARD", "ON_GOAL", "FLIPPED", "EXCLUDED", "RETURNED", "SETUP", "SETTLED")
_TRACK_INT = Int(-4 * COORD_LIMIT, 4 * COORD_LIMIT)


@dataclass(frozen=True, slots=True)
class Trajectory:
    """A move as clients play it back: ``frames[k]`` is the board ``k / hz`` seconds after the flick.

    ``frames`` has the layout of ``MoveRecord.keyframes``: one flat tuple of (x, y, angle, state)
    ints per body in ``bodies`` order. ``interventions`` are what the referee did at rest, in order: the 2.5-D
    re-spots and flips, then every removal and placement that leads to the final position (``with_relocations``).
    """

    bodies: tuple[str, ...]
    hz: int
    duration_ms: int
    frames: tuple[tuple[int, ...], ...]
    interventions: tuple[Intervention, ...] = ()

    @classmethod
    def from_record(cls, record: MoveRecord) -> Trajectory:
        """The playback part of a simulated move."""
        return cls(
            bodies=tuple(record.bodies),
            hz=record.step_hz // record.frame_steps,
            duration_ms=record.duration_ms,
            frames=tuple(tuple(frame) for frame in record.keyframes),
            interventions=tuple(record.interventions),
        )


def with_relocations(trajectory: Trajectory, after: Position, decisions: tuple[Decision, ...]) -> Trajectory:
    """``trajectory`` with every body the referee moved after the physics listed, so that playing the frames and
    then the interventions ends exactly on ``after`` (the position the MovePlayed carries).

    The physics lists its own re-spots and flips; the referee then removes excluded stones (X.1), places returned
    ones (X.3) and sets up a restart (V), and a body may be settled off its last frame. A client that shows the
    interventions in order therefore never sees a stone jump without a reason.
    """
    last = trajectory.frames[-1] if trajectory.frames else ()
    placed = {i.body: (i.x, i.y) for i in trajectory.interventions if i.code == "RESPOT"}
    expected = {
        body: placed.get(body, (last[4 * k] / 100, last[4 * k + 1] / 100)) for k, body in enumerate(trajectory.bodies)
    }
    actual = {s.id: (s.x, s.y) for s in after.stones}
    actual["puck"] = (after.puck.x, after.puck.y)
    returned = {d.get("stone") for d in decisions if d.code == "RETURN"}
    restart = any(d.code == "RESTART" for d in decisions)
    moves: list[Intervention] = []
    for body in (*trajectory.bodies, *(b for b in actual if b not in trajectory.bodies)):
        was, now = expected.get(body), actual.get(body)
        if now is None:
            if was is not None:
                moves.append(Intervention("REMOVE", body, was[0], was[1], "EXCLUDED"))
            continue
        if was is not None and _same_spot(was, now):
            continue
        reason: Literal["RETURNED", "SETUP", "SETTLED"] = (
            "RETURNED" if body in returned else "SETUP" if restart else "SETTLED")
        moves.append(Intervention("PLACE", body, now[0], now[1], reason))
    if not moves:
        return trajectory
    return replace(trajectory, interventions=(*trajectory.interventions, *moves))


def _same_spot(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Two places equal on the wire's 0.01 mm grid."""
    return round(a[0] * 100) == round(b[0] * 100) and round(a[1] * 100) == round(b[1] * 100)


@dataclass(frozen=True, slots=True)
class _WireIntervention:
    """The checked wire form of one intervention (x, y in 0.01 mm)."""

    code: Annotated[str, Str(8, choices=INTERVENTION_CODES, open=True)]
    body: Annotated[str, Str(32, min_len=1)]
    x: Annotated[int, Int(-COORD_LIMIT, COORD_LIMIT, "0.01 mm")]
    y: Annotated[int, Int(-COORD_LIMIT, COORD_LIMIT, "0.01 mm")]
    reason: Annotated[str, Str(16, choices=INTERVENTION_REASONS, open=True)]


@dataclass(frozen=True, slots=True, kw_only=True)
class _WireTrajectory:
    """The checked top level of a wire trajectory (tracks, states and interventions are checked after)."""

    hz: Annotated[int, Int(1, 1000, "frames per second")]
    ms: Annotated[int, Int(0, 10_000_000, "ms")]
    n: Annotated[int, Int(1, MAX_FRAMES, "frames")]
    bodies: Annotated[tuple[str, ...], ListOf(Str(32, min_len=1), MAX_BODIES)]
    start: Annotated[tuple[int, ...], ListOf(Int(-COORD_LIMIT, COORD_LIMIT), 4 * MAX_BODIES)]
    tracks: Annotated[tuple[tuple[int, ...], ...], ListOf(ListOf(_TRACK_INT, 2 + 3 * MAX_FRAMES), MAX_BODIES)]
    states: Annotated[tuple[tuple[int, ...], ...], ListOf(ListOf(Int(0, MAX_FRAMES), 3), 4 * MAX_FRAMES)]


def encode_trajectory(record: MoveRecord | Trajectory) -> dict[str, Any]:
    """The wire map of a move's keyframes (see the module docstring); ``decode_trajectory`` inverts it.

    The frames are turned into columns (each int of a frame through the move) in one call, and a column that never
    changes is told apart in C (``tuple.count``): most bodies lie still through a move, so only the few that move
    are walked in Python."""
    traj = record if isinstance(record, Trajectory) else Trajectory.from_record(record)
    frames = traj.frames
    count = len(traj.bodies)
    if not frames or any(len(f) != 4 * count for f in frames):
        raise ProtocolError("BAD_MESSAGE", "trajectory: every frame needs 4 ints per body")
    n, later = len(frames), range(1, len(frames))
    columns = list(zip(*frames, strict=True))
    tracks: list[list[int]] = []
    states: list[list[int]] = []
    for body in range(count):
        x, y, angle, state = columns[4 * body:4 * body + 4]
        if x.count(x[0]) != n or y.count(y[0]) != n or angle.count(angle[0]) != n:
            tracks.append(_encode_track(body, list(zip(x, y, angle, strict=True)), later))
        if state.count(state[0]) != n:
            states.extend([k, body, state[k]] for k in compress(later, map(ne, state[1:], state)))
    states.sort()
    return {
        "hz": traj.hz,
        "ms": traj.duration_ms,
        "n": n,
        "bodies": list(traj.bodies),
        "start": list(frames[0]),
        "tracks": tracks,
        "states": states,
        "interventions": [
            {"code": i.code, "body": i.body, "x": round(i.x * 100), "y": round(i.y * 100), "reason": i.reason}
            for i in traj.interventions
        ],
    }


def _encode_track(body: int, series: list[tuple[int, int, int]], later: range) -> list[int]:
    """The track of a body that moves: [body, first, second differences of (x, y, angle)…] from its first change to
    its last (``series``: its (x, y, angle) in every frame; ``later``: the indices of the frames after the first)."""
    changed = list(compress(later, map(ne, series[1:], series)))
    first, last = changed[0], changed[-1]
    out = [body, first]
    px = py = pa = 0  # the previous frame's first differences
    span = series[first - 1:last + 1]
    for (x0, y0, a0), (x1, y1, a1) in pairwise(span):
        dx, dy, da = x1 - x0, y1 - y0, a1 - a0
        out += (dx - px, dy - py, da - pa)
        px, py, pa = dx, dy, da
    return out


def decode_trajectory(obj: Any) -> Trajectory:
    """The trajectory a wire map describes, every number checked; raises only ``ProtocolError``."""
    where = "trajectory"
    top = _WireTrajectory(**load_fields(_WireTrajectory, obj, where, skip=("interventions",)))
    if "interventions" not in obj:
        raise bad(where, "missing field 'interventions'")
    interventions = _load_interventions(obj["interventions"], f"{where}.interventions")
    count, n = len(top.bodies), top.n
    if len(set(top.bodies)) != count:
        raise bad(where, "duplicate body")
    if len(top.start) != 4 * count:
        raise bad(f"{where}.start", f"expected {4 * count} ints, got {len(top.start)}")
    columns = [[value] * n for value in top.start]  # one list per (body, component), all frames
    seen: set[int] = set()
    for index, track in enumerate(top.tracks):
        _decode_track(track, columns, seen, n, f"{where}.tracks[{index}]")
    last_frame = 0
    for index, change in enumerate(top.states):
        at = f"{where}.states[{index}]"
        if len(change) != 3:
            raise bad(at, "expected [frame, body, state]")
        frame, body, state = change
        if not (last_frame <= frame < n and 1 <= frame and body < count and state in STATES):
            raise bad(at, "frame, body or state out of range or out of order")
        last_frame = frame
        column = columns[4 * body + 3]
        column[frame:] = [state] * (n - frame)
    for column in columns[3::4]:
        if column[0] not in STATES:
            raise bad(f"{where}.start", f"unknown body state {column[0]}")
    frames = tuple(tuple(column[k] for column in columns) for k in range(n))
    return Trajectory(top.bodies, top.hz, top.ms, frames, interventions)


def _load_interventions(raw: Any, where: str) -> tuple[Intervention, ...]:
    """The referee's interventions, from maps with positions in 0.01 mm."""
    if type(raw) is not list or len(raw) > 4 * MAX_BODIES:
        raise bad(where, f"expected an array of at most {4 * MAX_BODIES} interventions")
    out = []
    for index, item in enumerate(raw):
        checked = _WireIntervention(**load_fields(_WireIntervention, item, f"{where}[{index}]"))
        out.append(Intervention(checked.code, checked.body, checked.x / 100, checked.y / 100, checked.reason))
    return tuple(out)


def _decode_track(track: tuple[int, ...], columns: list[list[int]], seen: set[int], n: int, where: str) -> None:
    """Rebuild one body's x, y and angle columns in place from its second differences."""
    if len(track) < 5 or (len(track) - 2) % 3:
        raise bad(where, "expected [body, first, ex, ey, ea, ...]")
    body, first = track[0], track[1]
    steps = (len(track) - 2) // 3
    if not (0 <= body < len(columns) // 4) or body in seen:
        raise bad(where, "unknown or repeated body index")
    if not (1 <= first and first + steps <= n):
        raise bad(where, "frames out of range")
    seen.add(body)
    for c in range(3):
        column = columns[4 * body + c]
        value, delta = column[first - 1], 0
        for k in range(steps):
            delta += track[2 + 3 * k + c]
            value += delta
            if not -COORD_LIMIT <= value <= COORD_LIMIT:
                raise bad(where, "coordinate out of range")
            column[first + k] = value
        column[first + steps :] = [value] * (n - first - steps)

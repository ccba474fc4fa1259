"""The knocks of a move — the flick, stone on stone, stone or puck on the board — found in its keyframes, each with
the impulse that makes it loud or soft (pure: no arcade).

Why from the keyframes: the client has the move's trajectory (``MovePlayed.trajectory``), not the physics' contact
events; but a contact is exactly where a body's velocity jumps by more than table friction can explain, and the
jump times the body's mass is the contact's impulse (g·mm/s), as the physics measures it. Two bodies that jump
in the same frame and touch are one knock between them; a body that jumps alone next to the board or a goal has
hit it. The loudness of each knock follows its impulse, so a kiss is soft and a slap is loud.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shared import geometry
from shared.model import PUCK_ID
from shared.protocol.trajectory import Trajectory
from shared.rulesets import Settings

FULL_IMPULSE = 18_000.0  # g·mm/s: a 6 g stone stopped from 3 m/s — the loudest knock
SLACK_MM = 3.0  # two bodies this much further apart than touching may still have hit each other between frames
WALL_MM = 6.0  # a body this near the board or a goal part may have hit it


@dataclass(frozen=True, slots=True)
class Knock:
    """One sound of a move: when (seconds after the flick, at 1x), what (``flick``, ``stone``, ``puck``,
    ``board``) and how hard (its impulse in g·mm/s; ``loudness`` 0..1)."""

    time: float
    kind: str
    impulse: float
    bodies: tuple[str, ...] = ()

    @property
    def loudness(self) -> float:
        """The knock's loudness, 0..1, from its impulse."""
        return max(0.05, min(1.0, self.impulse / FULL_IMPULSE))


def _velocities(record: Trajectory) -> list[list[tuple[float, float]]]:
    """Per frame, per body: the velocity (mm/s) over the frame before it (the first frame: from the second)."""
    hz = record.hz
    out: list[list[tuple[float, float]]] = []
    for k in range(len(record.frames)):
        a = record.frames[max(0, k - 1)]
        b = record.frames[k] if k > 0 else record.frames[min(1, len(record.frames) - 1)]
        out.append([((b[4 * i] - a[4 * i]) / 100.0 * hz, (b[4 * i + 1] - a[4 * i + 1]) / 100.0 * hz)
                    for i in range(len(record.bodies))])
    return out


def _near_wall(x: float, y: float, r: float) -> bool:
    """True when a disc at (x, y) is within WALL_MM of the board or a goal's solid parts."""
    if not geometry.disc_inside_board(x, y, r + WALL_MM):
        return True
    for end in (-1, 1):
        for x0, x1, y0, y1 in geometry.GOAL_SOLIDS:
            if geometry.disc_touches_rect(x * end, y, r + WALL_MM, x0, x1, y0, y1):
                return True
        if geometry.disc_touches_rect(x * end, y, r + WALL_MM, geometry.GOAL_INNER_BACK_X, geometry.GOAL_OUTER_BACK_X,
                                      -geometry.GOAL_MOUTH_HALF_WIDTH, geometry.GOAL_MOUTH_HALF_WIDTH):
            return True
    return False


def knocks(record: Trajectory, settings: Settings, flicked: str | None = None) -> list[Knock]:
    """Every knock of the move, in time order: the flick first, then each contact the keyframes show."""
    if len(record.frames) < 2:
        return []
    found: list[Knock] = []
    velocities = _velocities(record)
    hz = record.hz
    if flicked in record.bodies:
        i = record.bodies.index(flicked)
        vx, vy = velocities[1][i]
        found.append(Knock(0.0, "flick", settings.stone_mass * math.hypot(vx, vy), (flicked,)))
    friction = settings.table_friction * settings.gravity / hz  # the most friction takes off in one frame
    threshold = 3 * friction + 30.0
    for k in range(2, len(record.frames)):
        jumps: dict[int, float] = {}
        for i, body in enumerate(record.bodies):
            if record.frames[k][4 * i + 3] != 0 or record.frames[k - 1][4 * i + 3] != 0:
                continue  # flew off, on a goal or upside down: the 2.5-D effects, no knock of their own
            (ax, ay), (bx, by) = velocities[k - 1][i], velocities[k][i]
            change = math.hypot(bx - ax, by - ay)
            if change > threshold:
                mass = settings.puck_mass if body == PUCK_ID else settings.stone_mass
                jumps[i] = mass * change
        heard: set[int] = set()
        for i, impulse in sorted(jumps.items()):
            if i in heard:
                continue
            x, y = record.frames[k - 1][4 * i] / 100.0, record.frames[k - 1][4 * i + 1] / 100.0
            r_i = settings.puck_radius if record.bodies[i] == PUCK_ID else settings.stone_radius
            partner = None
            for j in jumps:
                if j == i or j in heard:
                    continue
                xj, yj = record.frames[k - 1][4 * j] / 100.0, record.frames[k - 1][4 * j + 1] / 100.0
                r_j = settings.puck_radius if record.bodies[j] == PUCK_ID else settings.stone_radius
                if math.hypot(x - xj, y - yj) <= r_i + r_j + SLACK_MM + math.hypot(*velocities[k - 1][i]) / hz:
                    partner = j
                    break
            time = (k - 1) / hz
            if partner is not None:
                heard |= {i, partner}
                puck = PUCK_ID in (record.bodies[i], record.bodies[partner])
                pair = tuple(sorted((record.bodies[i], record.bodies[partner])))
                found.append(Knock(time, "puck" if puck else "stone", max(impulse, jumps[partner]), pair))
            elif _near_wall(x, y, r_i):
                heard.add(i)
                found.append(Knock(time, "board", impulse, (record.bodies[i],)))
    return _merged(found, 2.5 / hz)


def _merged(found: list[Knock], within: float) -> list[Knock]:
    """One knock for a contact the keyframes split over neighbouring frames (same bodies, close in time)."""
    out: list[Knock] = []
    for knock in found:
        last = next((k for k in reversed(out) if k.bodies == knock.bodies and k.kind == knock.kind), None)
        if last is not None and knock.kind != "flick" and knock.time - last.time <= within:
            out[out.index(last)] = Knock(last.time, last.kind, max(last.impulse, knock.impulse), last.bodies)
        else:
            out.append(knock)
    return out

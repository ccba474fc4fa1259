"""The aiming guide's geometry: where a flicked stone, sliding straight, first meets another body — a board, a goal
frame or net, a stone or the puck — cast from the position itself (pure and deterministic; no simulation).

Why a cast and not a second physics: the guide must never disagree with the move the server will simulate, so it
uses the very shapes the physics builds (``shared.physics.walls``, made from ``shared.geometry``: boards outside
the surface, goal tubes and nets as thick segments), the position's discs with the settings' radii, the flick
speed cap the physics applies (``max_flick_speed``) and the stopping distance of table friction (a sliding body
decelerates by μ·g: the friction joints' max force is μ·m·g). The stone's disc is swept along
its straight path; the first shape it touches is the first body the simulation reports it meets. What happens
after that contact is not guessed beyond the push's direction (along the line of centres for two discs).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shared.model import Position
from shared.physics import max_flick_speed, walls
from shared.rulesets import Settings

EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class AimCast:
    """The guide for one flick: the stone's path, the first body it meets and where.

    ``body`` is a body name as the physics' events use it (a stone id, ``"puck"``, ``"board:side:1"``,
    ``"frame:-1"``, ``"net:1"``) or None when the stone stops first; ``x``, ``y`` are the stone's centre when
    it touches (or where it stops); ``touch_x``, ``touch_y`` the point of contact; ``push`` the unit direction a
    disc it meets is pushed along (None for walls and when nothing is met)."""

    stone: str
    start_x: float
    start_y: float
    body: str | None
    x: float
    y: float
    touch_x: float
    touch_y: float
    distance: float
    push: tuple[float, float] | None = None


def stopping_distance(speed: float, settings: Settings) -> float:
    """How far a body sliding at ``speed`` goes before table friction stops it: v² / (2·μ·g), plus the half step
    the fixed-step integration slides before friction first acts (v / (2·step_hz): up to 3 mm at full speed)."""
    deceleration = settings.table_friction * settings.gravity
    if deceleration <= 0:
        return math.inf
    return speed * speed / (2 * deceleration) + speed / (2 * settings.step_hz)


def _disc_hit(px: float, py: float, dx: float, dy: float, cx: float, cy: float, reach: float) -> float | None:
    """The distance along the unit direction (dx, dy) from (px, py) at which a point first comes within ``reach``
    of (cx, cy); 0 when it is within already and moving closer; None when it never does (or moves away)."""
    ox, oy = cx - px, cy - py
    along = ox * dx + oy * dy
    gap = ox * ox + oy * oy - reach * reach
    if gap <= 0:
        return 0.0 if along > 0 else None
    if along <= 0:
        return None
    disc = along * along - gap
    if disc < 0:
        return None
    return along - math.sqrt(disc)


def _segment_hit(px: float, py: float, dx: float, dy: float, a: tuple[float, float], b: tuple[float, float],
                 reach: float) -> float | None:
    """The distance along (dx, dy) at which a point first comes within ``reach`` of the segment a-b (a capsule)."""
    ax, ay = a
    ex, ey = b[0] - ax, b[1] - ay
    length = math.hypot(ex, ey)
    best: float | None = None
    if length > EPSILON:
        ux, uy = ex / length, ey / length
        nx, ny = -uy, ux
        rel_x, rel_y = px - ax, py - ay
        side = rel_x * nx + rel_y * ny  # signed distance of the start from the segment's line
        speed_n = dx * nx + dy * ny
        if abs(side) <= reach:
            along = rel_x * ux + rel_y * uy
            if 0 <= along <= length and side * speed_n < 0:
                return 0.0  # touching the segment's side already and moving into it
        elif abs(speed_n) > EPSILON and side * speed_n < 0:
            t = (abs(side) - reach) / abs(speed_n)
            hx, hy = px + dx * t - ax, py + dy * t - ay
            if 0 <= hx * ux + hy * uy <= length:
                best = t
    for cx, cy in (a, b):
        cap = _disc_hit(px, py, dx, dy, cx, cy, reach)
        if cap is not None and (best is None or cap < best):
            best = cap
    return best


def cast(position: Position, stone_id: str, vx: float, vy: float, settings: Settings) -> AimCast | None:
    """The guide for flicking ``stone_id`` at (vx, vy) mm/s from ``position``; None when there is no such stone on
    the board or no speed."""
    stone = position.stone(stone_id)
    speed = math.hypot(vx, vy)
    if stone is None or speed <= EPSILON:
        return None
    dx, dy = vx / speed, vy / speed
    reach_limit = stopping_distance(min(speed, max_flick_speed(settings)), settings)
    radius = settings.stone_radius
    best: tuple[float, str, float, float, float] | None = None  # distance, body, touch point, target radius
    for wall in walls():
        t = _segment_hit(stone.x, stone.y, dx, dy, wall.a, wall.b, radius + wall.radius)
        if t is not None and t <= reach_limit and (best is None or t < best[0]):
            best = (t, wall.name, math.nan, math.nan, wall.radius)
    discs = [(s.id, s.x, s.y, settings.stone_radius) for s in position.stones if s.id != stone_id]
    discs.append(("puck", position.puck.x, position.puck.y, settings.puck_radius))
    for body, cx, cy, r in discs:
        t = _disc_hit(stone.x, stone.y, dx, dy, cx, cy, radius + r)
        if t is not None and t <= reach_limit and (best is None or t < best[0]):
            best = (t, body, cx, cy, r)
    if best is None:
        sx, sy = stone.x + dx * reach_limit, stone.y + dy * reach_limit
        return AimCast(stone_id, stone.x, stone.y, None, sx, sy, sx, sy, reach_limit)
    t, body, cx, cy, _r = best
    hx, hy = stone.x + dx * t, stone.y + dy * t
    if math.isnan(cx):  # a wall: the touch point lies one stone radius from the centre, towards the wall
        wall = next(w for w in walls() if w.name == body and _segment_hit(stone.x, stone.y, dx, dy, w.a, w.b,
                                                                          radius + w.radius) == t)
        qx, qy = _nearest_on_segment(hx, hy, wall.a, wall.b)
        norm = math.hypot(qx - hx, qy - hy) or 1.0
        touch = (hx + (qx - hx) / norm * radius, hy + (qy - hy) / norm * radius)
        return AimCast(stone_id, stone.x, stone.y, body, hx, hy, touch[0], touch[1], t)
    nx, ny = cx - hx, cy - hy
    norm = math.hypot(nx, ny) or 1.0
    push = (nx / norm, ny / norm)
    touch = (hx + push[0] * radius, hy + push[1] * radius)
    return AimCast(stone_id, stone.x, stone.y, body, hx, hy, touch[0], touch[1], t, push)


def _nearest_on_segment(x: float, y: float, a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """The point of the segment a-b nearest (x, y)."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    length2 = ex * ex + ey * ey
    u = 0.0 if length2 <= EPSILON else max(0.0, min(1.0, ((x - a[0]) * ex + (y - a[1]) * ey) / length2))
    return (a[0] + ex * u, a[1] + ey * u)


def body_kind(body: str | None) -> str:
    """What the guide met, as a kind: ``stone``, ``puck``, ``board``, ``frame``, ``net`` or ``nothing``."""
    if body is None:
        return "nothing"
    if body == "puck":
        return "puck"
    head = body.split(":", 1)[0]
    return head if head in ("board", "frame", "net") else "stone"

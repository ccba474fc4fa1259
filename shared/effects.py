"""The deterministic 2.5-D referee model (product decision 1; VI.3, VI.4, VI.5) and where bodies go at rest.

Why a module of its own: plain 2-D rigid bodies never fly over a board, turn upside down or land on
a goal, yet the rules need a referee for exactly those cases. The decisions are pure functions of
the impact data (speeds, angle) and a hashed draw (``shared.draws.draw``), so every move stays
replayable bit for bit and the model can be unit-tested without pymunk. The placement helpers
(``nearest_free_spot``, ``settle``) are pure too: the physics uses them to return removed bodies at
rest, and the referee uses ``nearest_free_spot`` to lay returning stones (X.2).

Angles are measured between the relative velocity and the contact surface: 90° is head-on, 0° a
graze. Speeds are mm/s; positions mm (``shared.geometry``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shared import geometry as g
from shared.rulesets import Settings

# Positions at rest are quantised to this grid (events.BodyState).
QUANTUM = 0.01
# The gap ``settle`` leaves between bodies it had to push apart, so that they still do not overlap
# after quantisation (rounding moves a centre by at most QUANTUM / 2 per axis).
SETTLE_GAP = 2 * QUANTUM

Disc = tuple[float, float, float]  # (x, y, radius)


# --------------------------------------------------------------------------- impact decisions


def impact_angle_deg(normal_speed: float, speed: float) -> float:
    """The angle (degrees) between a relative velocity of magnitude ``speed`` and the contact surface,
    given its component ``normal_speed`` along the contact normal: 90 head-on, 0 grazing."""
    if speed <= 0.0:
        return 0.0
    return math.degrees(math.asin(min(1.0, abs(normal_speed) / speed)))


def puck_flies_over(settings: Settings, normal_speed: float, angle_deg: float, u: float) -> bool:
    """VI.5: a puck hitting a board at ``normal_speed`` and ``angle_deg`` flies over it when the draw
    ``u`` in [0, 1) falls under the chance; grazing or slow hits never lift it."""
    return (
        settings.effects_2_5d
        and normal_speed > settings.exit_speed_puck
        and angle_deg >= settings.exit_min_angle_deg
        and u < settings.exit_chance_puck
    )


def stone_flips(settings: Settings, normal_speed: float, angle_deg: float, u: float) -> bool:
    """VI.4: a near head-on stone-stone impact above ``flip_speed`` turns the struck stone over when
    the draw ``u`` falls under the chance."""
    return (
        settings.effects_2_5d
        and normal_speed > settings.flip_speed
        and angle_deg >= settings.flip_min_angle_deg
        and u < settings.flip_chance
    )


def puck_lands_on_goal(settings: Settings, normal_speed: float, u: float) -> bool:
    """VI.3: a puck hitting a goal frame above ``on_goal_speed`` lands on top of the goal when the draw
    ``u`` falls under the chance."""
    return settings.effects_2_5d and normal_speed > settings.on_goal_speed and u < settings.on_goal_chance


def struck_body(a: str, b: str, approach_a: float, approach_b: float) -> str:
    """The body that was hit in an impact: the one that approached the other more slowly along the
    line of impact (a resting stone hit by a moving one). ``approach_*`` is each body's velocity
    component towards the other; a tie goes to ``b`` so the choice is deterministic."""
    return a if approach_a < approach_b else b


# --------------------------------------------------------------------------- where bodies may lie

def _goal_solid_push(x: float, y: float, r: float) -> tuple[float, float] | None:
    """The shortest displacement that takes the disc out of every goal solid it overlaps, or None."""
    if abs(x) + r <= g.GOAL_LINE_X or abs(y) - r >= g.GOAL_MOUTH_HALF_WIDTH + g.GOAL_FRAME_TUBE:
        return None  # far from both goals: the common case, kept cheap (settle runs after every move)
    for end in (-1, 1):
        for x0, x1, y0, y1 in g.GOAL_SOLIDS:
            lo, hi = (x0, x1) if end == 1 else (-x1, -x0)
            cx, cy = g.clamp(x, lo, hi), g.clamp(y, y0, y1)
            dx, dy = x - cx, y - cy
            dist = math.hypot(dx, dy)
            if dist >= r:
                continue
            if dist > 0.0:
                depth = r - dist + QUANTUM
                return (dx / dist * depth, dy / dist * depth)
            # The centre lies inside the solid: leave through the nearest face.
            exits = ((lo - r - QUANTUM - x, 0.0), (hi + r + QUANTUM - x, 0.0), (0.0, y0 - r - QUANTUM - y),
                     (0.0, y1 + r + QUANTUM - y))
            return min(exits, key=lambda d: (abs(d[0]) + abs(d[1])))
    return None


def disc_allowed(x: float, y: float, r: float) -> bool:
    """True when a disc may lie at (x, y): wholly on the board and clear of both goals' frames and nets."""
    if abs(x) + r <= g.GOAL_LINE_X and abs(y) + r <= g.HALF_WIDTH:
        return True  # between the goal lines, clear of the corners and the goals (the common case, kept cheap)
    return g.disc_inside_board(x, y, r) and _goal_solid_push(x, y, r) is None


def spot_is_free(bodies: Sequence[Disc], x: float, y: float, r: float, gap: float = SETTLE_GAP) -> bool:
    """True when the disc at (x, y) is allowed and keeps ``gap`` mm from every disc of ``bodies``."""
    if not disc_allowed(x, y, r):
        return False
    return all(math.hypot(x - bx, y - by) >= r + br + gap for bx, by, br in bodies)


def nearest_free_spot(
    bodies: Sequence[Disc], x: float, y: float, r: float, *, gap: float = SETTLE_GAP, step: float = 0.5,
    max_distance: float = 1400.0,
) -> tuple[float, float]:
    """The free spot for a disc of radius ``r`` nearest to (x, y), quantised to 0.01 mm (VI.3, VI.5, X.2).

    ``bodies`` are the discs (x, y, radius) already lying on the board. Candidates lie on rings of
    growing radius (``step`` mm apart) around (x, y), sampled about every ``step`` mm along each ring
    starting from the direction of the board centre, so the search is deterministic and the first
    free candidate is within ``step`` mm of the truly nearest one. Raises ValueError when nothing is
    free within ``max_distance`` (cannot happen with 15 bodies on this board).
    """
    qx, qy = quantise(x), quantise(y)
    if spot_is_free(bodies, qx, qy, r, gap):
        return (qx, qy)
    start = math.atan2(-y, -x) if (x or y) else 0.0
    ring = step
    while ring <= max_distance:
        count = max(8, math.ceil(2 * math.pi * ring / step))
        best: tuple[float, float] | None = None
        best_d = math.inf
        for k in range(count):
            # Alternate sides around the start direction: 0, +1, -1, +2, -2, …
            turn = (k + 1) // 2 * (1 if k % 2 else -1)
            angle = start + 2 * math.pi * turn / count
            cx, cy = quantise(x + ring * math.cos(angle)), quantise(y + ring * math.sin(angle))
            d = math.hypot(cx - x, cy - y)
            if d < best_d and spot_is_free(bodies, cx, cy, r, gap):
                best, best_d = (cx, cy), d
        if best is not None:
            return best
        ring += step
    raise ValueError(f"no free spot for a disc of radius {r} near ({x}, {y})")


def quantise(value: float) -> float:
    """``value`` on the 0.01 mm grid of positions at rest (events.BodyState)."""
    return round(value * 100) / 100


def respot_left_board(exit_x: float, exit_y: float, r: float) -> tuple[float, float]:
    """VI.5: where a body that flew over the board at the board point (exit_x, exit_y) is put back,
    touching the board from the inside (before checking that the spot is free)."""
    nx, ny = g.inward_normal_at(exit_x, exit_y)
    return (exit_x + nx * (r + QUANTUM), exit_y + ny * (r + QUANTUM))


def on_goal_point(end: int, x: float, y: float) -> tuple[float, float]:
    """VI.3: the point on top of goal ``end`` where a puck that hit it at (x, y) lies."""
    lo, hi = g.GOAL_LINE_X, g.GOAL_OUTER_BACK_X
    top = g.GOAL_MOUTH_HALF_WIDTH + g.GOAL_FRAME_TUBE
    return (end * g.clamp(x * end, lo, hi), g.clamp(y, -top, top))


def respot_on_goal(end: int, y: float, r: float) -> tuple[float, float]:
    """VI.3: a puck lying on top of goal ``end`` goes behind it, on the line perpendicular to the end board
    through its position on the goal, its edge touching the goal's back (before the free-spot check)."""
    return (end * (g.GOAL_OUTER_BACK_X + r + QUANTUM), y)


def settle(discs: Sequence[Disc], gap: float = SETTLE_GAP, rounds: int = 200) -> list[tuple[float, float]]:
    """Quantised centres for ``discs`` with no overlap, every disc on the board and clear of the goals.

    Why: the solver leaves resting contacts pressed together by up to its slop and quantisation
    moves centres by up to 0.005 mm; a position that starts the next move overlapped would make the
    solver push the bodies apart (a spurious impulse, D5). Overlapping pairs are pushed apart
    symmetrically to ``gap`` and discs pushed back on the board, in a fixed order, until nothing
    overlaps; a disc that still cannot be placed after ``rounds`` goes to its nearest free spot.
    """
    pos = [[x, y] for x, y, _ in discs]
    radii = [r for _, _, r in discs]
    n = len(pos)
    inner_x, inner_y = g.GOAL_LINE_X, g.HALF_WIDTH
    for _ in range(rounds):
        moved = False
        for i in range(n):
            x, y = p = pos[i]
            r = radii[i]
            if abs(x) + r <= inner_x and abs(y) + r <= inner_y:
                continue  # ``_inside``'s common case, inlined: between the goal lines, nothing to do
            x, y = _inside(x, y, r)
            if (x, y) != (p[0], p[1]):
                pos[i] = [x, y]
                moved = True
        nearest = _nearest_gap(pos, radii, _QUANTISED_SHIFT)
        for i in range(n if nearest < 0.0 else 0):  # the sweep is cheap; pushes keep index order
            for j in range(i + 1, n):
                dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
                need = radii[i] + radii[j]
                d = math.hypot(dx, dy)
                if d >= need:
                    continue
                if d == 0.0:
                    dx, dy, d = 1.0, 0.0, 1.0  # coincident centres: separate along +x, deterministically
                push = (need + gap - d) / 2
                ux, uy = dx / d * push, dy / d * push
                pos[i] = [pos[i][0] - ux, pos[i][1] - uy]
                pos[j] = [pos[j][0] + ux, pos[j][1] + uy]
                moved = True
        pos = [[round(x * 100) / 100, round(y * 100) / 100] for x, y in pos]  # quantise(), inlined
        # Nothing moved and no two discs came within what quantising can close: the quantised ones cannot
        # overlap either, so only whether each is allowed where it lies needs asking again.
        if not moved and (_all_allowed(pos, radii) if nearest >= _QUANTISED_SHIFT else _all_clear(pos, radii)):
            return [(x, y) for x, y in pos]
    placed: list[Disc] = []
    out: list[tuple[float, float]] = []
    for (x, y), r in zip(pos, radii, strict=True):
        spot = (x, y) if spot_is_free(placed, x, y, r, 0.0) else nearest_free_spot(placed, x, y, r, gap=gap)
        placed.append((spot[0], spot[1], r))
        out.append(spot)
    return out


def _inside(x: float, y: float, r: float) -> tuple[float, float]:
    """The disc's centre moved the least distance that puts it wholly on the board and out of the goals."""
    if abs(x) + r <= g.GOAL_LINE_X and abs(y) + r <= g.HALF_WIDTH:
        return (x, y)  # as ``disc_allowed``: nothing to do, the common case
    for _ in range(4):
        if g.disc_inside_board(x, y, r):
            push = _goal_solid_push(x, y, r)
            if push is None:
                return (x, y)
            x, y = x + push[0], y + push[1]
            continue
        bx, by = g.board_contact_point(x, y)
        nx, ny = g.inward_normal_at(x, y)
        # Put the centre r (+ a quantum) inside the board point nearest to it.
        x, y = bx + nx * (r + QUANTUM), by + ny * (r + QUANTUM)
    return (x, y)


# How much nearer two centres can come when both are quantised (each moves at most half a 0.01 mm step in x and
# in y, so at most 0.00707 mm), with room to spare for the rounding of the arithmetic.
_QUANTISED_SHIFT = 0.02


def _all_allowed(pos: Sequence[Sequence[float]], radii: Sequence[float]) -> bool:
    """True when every disc is allowed where it lies (``disc_allowed``)."""
    inner_x, inner_y = g.GOAL_LINE_X, g.HALF_WIDTH
    for (x, y), r in zip(pos, radii, strict=True):
        if not (abs(x) + r <= inner_x and abs(y) + r <= inner_y) and not disc_allowed(x, y, r):  # its fast path first
            return False
    return True


def _all_clear(pos: Sequence[Sequence[float]], radii: Sequence[float]) -> bool:
    """True when no two discs overlap and every disc is allowed where it lies."""
    return _all_allowed(pos, radii) and _nearest_gap(pos, radii, 0.0) >= 0.0


def _nearest_gap(pos: Sequence[Sequence[float]], radii: Sequence[float], within: float) -> float:
    """The smallest distance between two discs' edges (negative when they overlap: centres closer than the sum of
    their radii, as a float difference is negative exactly when the first is the smaller), looked for among the
    pairs nearer than ``within``; ``within`` itself when there is none.

    A sweep along x (``settle`` runs after every move): once two centres are ``2 * max(radii) + within`` apart in x
    no later pair can be that near, and hypot >= |dx| means the pairs skipped would fail the test anyway."""
    nearest = within
    if len(pos) < 2:
        return nearest
    reach = 2 * max(radii) + within
    discs = sorted([(p[0], p[1], r) for p, r in zip(pos, radii, strict=True)])  # by x (ties in any order)
    for a, (xi, yi, ri) in enumerate(discs):
        for xj, yj, rj in discs[a + 1:]:
            dx = xj - xi
            if dx >= reach:
                break
            need = ri + rj
            near = need + within
            dy = yj - yi
            if dx < near and -near < dy < near:
                edge = math.hypot(dx, dy) - need
                if edge < nearest:
                    nearest = edge
    return nearest

"""The board of RULES.md §1: every constant and region, as numbers and small pure predicates.

Why one module: the physics builds its walls and sensors from these numbers, the referee judges
regions with these predicates, and the client draws the board from them, so all three agree by
construction. Units are millimetres; the origin is the centre spot, x along the long axis, y along
the short axis (RULES.md §1.1). Goals are named by their end: ``-1`` is the goal at x < 0, ``+1``
the goal at x > 0.

Every region is *closed*: touching a line counts as being in the region (RULES.md §1.1, D8). For a
disc of radius ``r`` centred at ``(x, y)`` "touches or is in region R" means ``distance(p, R) <= r``.
The predicates below all take a disc (centre and radius) and follow that semantics.
"""

from __future__ import annotations

import math
from typing import Final

# G1 (I.1): the inner playing surface, 1216 x 596.
LENGTH: Final = 1216.0
WIDTH: Final = 596.0
HALF_LENGTH: Final = LENGTH / 2  # 608
HALF_WIDTH: Final = WIDTH / 2  # 298

# G2-G5 (I.2): boards (26 mm high: the physics is flat, so only their width and corners count).
BOARD_WIDTH: Final = 20.0
CORNER_RADIUS: Final = 105.0
CORNER_CENTRE_X: Final = HALF_LENGTH - CORNER_RADIUS  # 503
CORNER_CENTRE_Y: Final = HALF_WIDTH - CORNER_RADIUS  # 193

# G6 (I.3a): the red centre line, 10 mm thick.
CENTRE_LINE_HALF_WIDTH: Final = 5.0

# G7 (I.3b, A1): blue lines split the length into thirds; 10 mm thick.
BLUE_LINE_X: Final = LENGTH / 6  # 202.666...
BLUE_LINE_HALF_WIDTH: Final = 5.0
BLUE_LINE_INNER_X: Final = BLUE_LINE_X - BLUE_LINE_HALF_WIDTH  # 197.67: G18 starts here

# G8 (I.3c, A3): goal lines at 110 mm from the end board (line centre), 1 mm thick, full width.
GOAL_LINE_X: Final = HALF_LENGTH - 110.0  # 498
GOAL_LINE_HALF_WIDTH: Final = 0.5

# G9 (I.3d, A3): auxiliary goal lines 8.5 mm behind the goal line, 1 mm thick, inside the goal only.
AUX_LINE_X: Final = GOAL_LINE_X + 8.5  # 506.5
AUX_LINE_HALF_WIDTH: Final = 0.5

# G14-G17 (I.4, A4): goals.
GOAL_MOUTH_HALF_WIDTH: Final = 40.0  # posts' inner faces at y = +-40
GOAL_INNER_BACK_X: Final = 546.0  # the net; inner depth 48
GOAL_OUTER_BACK_X: Final = 558.0  # 50 mm from the end board
GOAL_FRAME_TUBE: Final = 4.0  # side frames y in +-[40, 44]; the goal is 50 mm high (the 2.5-D model needs no height)

# G16-G17 (I.4): the solid parts of a goal - the two side tubes and the back block (net support and back
# bar) - as rectangles (x0, x1, y0, y1) for the goal at x > 0, mirrored for the other end. A body may touch
# them but never lie in them (the notation's validation and the placement helpers of ``shared.effects``).
GOAL_SOLIDS: Final[tuple[tuple[float, float, float, float], ...]] = (
    (GOAL_LINE_X, GOAL_OUTER_BACK_X, GOAL_MOUTH_HALF_WIDTH, GOAL_MOUTH_HALF_WIDTH + GOAL_FRAME_TUBE),
    (GOAL_LINE_X, GOAL_OUTER_BACK_X, -GOAL_MOUTH_HALF_WIDTH - GOAL_FRAME_TUBE, -GOAL_MOUTH_HALF_WIDTH),
    (
        GOAL_INNER_BACK_X, GOAL_OUTER_BACK_X, -GOAL_MOUTH_HALF_WIDTH - GOAL_FRAME_TUBE,
        GOAL_MOUTH_HALF_WIDTH + GOAL_FRAME_TUBE,
    ),
)

# G10 (I.3e): the crease, 60 long x 120 wide in front of the goal, plus the goal interior.
CREASE_DEPTH: Final = 60.0
CREASE_HALF_WIDTH: Final = 60.0
CREASE_FRONT_X: Final = GOAL_LINE_X - CREASE_DEPTH  # 438

# G11-G12 (I.3f, A2): centre circle and its six face-off spots (a regular hexagon).
CENTRE_CIRCLE_RADIUS: Final = 100.0
CIRCLE_LINE_HALF_WIDTH: Final = 0.5

# G13 (I.3g, A5): the half-circle where excluded stones return, on the y = -298 side board.
HALF_CIRCLE_CENTRE: Final = (0.0, -HALF_WIDTH)
HALF_CIRCLE_RADIUS: Final = 50.0

# Discs that interpenetrate by no more than this are touching, not overlapping: the solver leaves
# resting contacts pressed together by up to its collision slop (0.1 mm), and positions are
# quantised to 0.01 mm. The physics guarantees positions at rest within it; validation allows it.
OVERLAP_TOLERANCE: Final = 0.25

# Equipment defaults (RULES.md §2). The physics takes the live values from the settings; these
# are the defaults the settings start from and what setups are computed with.
STONE_RADIUS: Final = 16.0
PUCK_RADIUS: Final = 8.5


# --------------------------------------------------------------------------- basic shapes


def clamp(value: float, low: float, high: float) -> float:
    """Return ``value`` limited to ``[low, high]``."""
    return low if value < low else high if value > high else value


def disc_touches_rect(x: float, y: float, r: float, x0: float, x1: float, y0: float, y1: float) -> bool:
    """True when the disc touches or overlaps the closed rectangle [x0, x1] x [y0, y1]."""
    dx = x - clamp(x, x0, x1)
    dy = y - clamp(y, y0, y1)
    return dx * dx + dy * dy <= r * r


def disc_inside_rect(x: float, y: float, r: float, x0: float, x1: float, y0: float, y1: float) -> bool:
    """True when the whole disc lies inside the closed rectangle."""
    return x - r >= x0 and x + r <= x1 and y - r >= y0 and y + r <= y1


def disc_touches_circle_area(x: float, y: float, r: float, cx: float, cy: float, radius: float) -> bool:
    """True when the disc touches or overlaps the closed disc of ``radius`` around (cx, cy)."""
    return math.hypot(x - cx, y - cy) <= r + radius


def discs_overlap(x1: float, y1: float, r1: float, x2: float, y2: float, r2: float, tol: float = 0.0) -> bool:
    """True when two discs overlap by more than ``tol`` mm (touching is not overlapping)."""
    return math.hypot(x1 - x2, y1 - y2) < r1 + r2 - tol


# --------------------------------------------------------------------------- the boards


def _corner_centre(x: float, y: float) -> tuple[float, float] | None:
    """The centre of the corner arc whose quadrant holds (x, y), or None away from the corners."""
    if abs(x) <= CORNER_CENTRE_X or abs(y) <= CORNER_CENTRE_Y:
        return None
    return (math.copysign(CORNER_CENTRE_X, x), math.copysign(CORNER_CENTRE_Y, y))


def disc_inside_board(x: float, y: float, r: float, tol: float = 0.0) -> bool:
    """True when the whole disc lies on the playing surface, rounded corners included (G1, G5).

    ``tol`` lets a disc press into a board by that many mm (the solver's slop) and still count.
    """
    if abs(x) + r > HALF_LENGTH + tol or abs(y) + r > HALF_WIDTH + tol:
        return False
    corner = _corner_centre(x, y)
    if corner is None:
        return True
    return math.hypot(x - corner[0], y - corner[1]) + r <= CORNER_RADIUS + tol


def board_contact_point(x: float, y: float) -> tuple[float, float]:
    """The point of the board nearest to (x, y): where a body leaving there touched the board."""
    corner = _corner_centre(x, y)
    if corner is not None:
        angle = math.atan2(y - corner[1], x - corner[0])
        return (corner[0] + CORNER_RADIUS * math.cos(angle), corner[1] + CORNER_RADIUS * math.sin(angle))
    gap_x = HALF_LENGTH - abs(x)
    gap_y = HALF_WIDTH - abs(y)
    if gap_x < gap_y:
        return (math.copysign(HALF_LENGTH, x), clamp(y, -CORNER_CENTRE_Y, CORNER_CENTRE_Y))
    return (clamp(x, -CORNER_CENTRE_X, CORNER_CENTRE_X), math.copysign(HALF_WIDTH, y))


def inward_normal_at(x: float, y: float) -> tuple[float, float]:
    """The unit vector pointing from the board towards the surface at the board point nearest (x, y)."""
    bx, by = board_contact_point(x, y)
    corner = _corner_centre(x, y)
    if corner is not None:
        nx, ny = corner[0] - bx, corner[1] - by
    elif abs(bx) == HALF_LENGTH:
        nx, ny = -math.copysign(1.0, bx), 0.0
    else:
        nx, ny = 0.0, -math.copysign(1.0, by)
    norm = math.hypot(nx, ny)
    return (nx / norm, ny / norm)


# --------------------------------------------------------------------------- lines and regions
# ``end`` is -1 (the goal at x < 0) or +1 (the goal at x > 0) throughout.


def touches_centre_line(x: float, y: float, r: float) -> bool:
    """G6: the disc touches the red centre line strip |x| <= 5."""
    return abs(x) - r <= CENTRE_LINE_HALF_WIDTH


def in_half(x: float, y: float, r: float, end: int) -> bool:
    """G19: the disc overlaps the half of the board on the side of ``end`` (centre line excluded)."""
    return x * end + r > 0


def in_own_half_or_centre_line(x: float, y: float, r: float, end: int) -> bool:
    """The disc overlaps the half at ``end`` or the centre-line strip (D8 Retreated, XI.4 Cleared)."""
    return x * end + r >= -CENTRE_LINE_HALF_WIDTH


def touches_centre_circle(x: float, y: float, r: float) -> bool:
    """G11: the disc overlaps the centre circle, area or line (XI.1, XI.4, XV.13a)."""
    return math.hypot(x, y) <= r + CENTRE_CIRCLE_RADIUS + CIRCLE_LINE_HALF_WIDTH


def touches_centre_circle_line(x: float, y: float, r: float) -> bool:
    """The disc overlaps the circle's painted line (XV.11: the shooter lies on the circumference)."""
    d = math.hypot(x, y)
    return abs(d - CENTRE_CIRCLE_RADIUS) <= r + CIRCLE_LINE_HALF_WIDTH


def in_defensive_third(x: float, y: float, r: float, end: int) -> bool:
    """G18 (XII.8): the disc overlaps the third at ``end``, touching its blue line counts."""
    return x * end + r >= BLUE_LINE_INNER_X


def touches_goal_line(x: float, y: float, r: float, end: int) -> bool:
    """G8: the disc touches the goal-line strip at ``end`` (full width of the board)."""
    return abs(x * end - GOAL_LINE_X) <= r + GOAL_LINE_HALF_WIDTH


def touches_goal_line_outside_mouth(x: float, y: float, r: float, end: int) -> bool:
    """XV.13d: the disc touches the goal line at ``end`` beside the goal (|y| > 40)."""
    return disc_touches_rect(
        x * end, y, r, GOAL_LINE_X - GOAL_LINE_HALF_WIDTH, GOAL_LINE_X + GOAL_LINE_HALF_WIDTH, -HALF_WIDTH,
        -GOAL_MOUTH_HALF_WIDTH - 1e-9,
    ) or disc_touches_rect(
        x * end, y, r, GOAL_LINE_X - GOAL_LINE_HALF_WIDTH, GOAL_LINE_X + GOAL_LINE_HALF_WIDTH,
        GOAL_MOUTH_HALF_WIDTH + 1e-9, HALF_WIDTH,
    )


def beyond_goal_line(x: float, y: float, r: float, end: int) -> bool:
    """XV.3 / XV.13d: the disc touches the goal line at ``end`` or lies behind it."""
    return x * end + r >= GOAL_LINE_X - GOAL_LINE_HALF_WIDTH


def touches_aux_line(x: float, y: float, r: float, end: int) -> bool:
    """G9 (XIV.1, D9): the disc touches the auxiliary goal line strip inside goal ``end``: a goal."""
    return disc_touches_rect(
        x * end, y, r, AUX_LINE_X - AUX_LINE_HALF_WIDTH, AUX_LINE_X + AUX_LINE_HALF_WIDTH,
        -GOAL_MOUTH_HALF_WIDTH, GOAL_MOUTH_HALF_WIDTH,
    )


def in_goal_interior(x: float, y: float, r: float, end: int) -> bool:
    """G14-G15: the disc overlaps the inside of goal ``end`` (behind the goal line, between the posts)."""
    return disc_touches_rect(
        x * end, y, r, GOAL_LINE_X, GOAL_INNER_BACK_X, -GOAL_MOUTH_HALF_WIDTH, GOAL_MOUTH_HALF_WIDTH
    )


def in_crease(x: float, y: float, r: float, end: int) -> bool:
    """G10, D8 InCrease: the disc overlaps the crease at ``end`` (its line included) or the goal interior."""
    return disc_touches_rect(
        x * end, y, r, CREASE_FRONT_X - GOAL_LINE_HALF_WIDTH, GOAL_LINE_X, -CREASE_HALF_WIDTH - GOAL_LINE_HALF_WIDTH,
        CREASE_HALF_WIDTH + GOAL_LINE_HALF_WIDTH,
    ) or in_goal_interior(x, y, r, end)


def behind_aux_line(x: float, y: float, r: float, end: int) -> bool:
    """D8 BehindAux (XIV.3, A39): the whole disc lies beyond the auxiliary line, inside goal ``end``."""
    return x * end - r > AUX_LINE_X + AUX_LINE_HALF_WIDTH and abs(y) < GOAL_MOUTH_HALF_WIDTH


def non_defending(x: float, y: float, r: float, end: int) -> bool:
    """D8 NonDefending (XII.12, A38): the disc does not cover the goal line at ``end`` (lies entirely
    behind it) and overlaps the goal-mouth corridor |y| < 40."""
    return x * end - r > GOAL_LINE_X + GOAL_LINE_HALF_WIDTH and abs(y) - r < GOAL_MOUTH_HALF_WIDTH


def puck_start_excluded(x: float, y: float, r: float) -> bool:
    """D8 PuckStartExcluded (XV.3): the puck touches or lies behind either goal line, or touches either
    crease (goal interiors included)."""
    return any(beyond_goal_line(x, y, r, end) or in_crease(x, y, r, end) for end in (-1, 1))


def in_half_circle(x: float, y: float, r: float) -> bool:
    """G13: the disc overlaps the half-circle where excluded stones return."""
    return disc_touches_circle_area(x, y, r, *HALF_CIRCLE_CENTRE, HALF_CIRCLE_RADIUS)


def goal_mouth_centre(end: int) -> tuple[float, float]:
    """The centre of the goal mouth at ``end``, on the goal line (XV.13e, A28)."""
    return (GOAL_LINE_X * end, 0.0)


# --------------------------------------------------------------------------- spots (§1.3)


def goalie_spot(end: int) -> tuple[float, float]:
    """XII.1: the goalie's basic position, centred on the goal line at ``end``."""
    return (GOAL_LINE_X * end, 0.0)


def faceoff_spots(end: int) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
    """G12 (IV.1): the centre-forward spot then the two wing spots on the half at ``end``."""
    wing_x = CENTRE_CIRCLE_RADIUS * math.cos(math.radians(60))
    wing_y = CENTRE_CIRCLE_RADIUS * math.sin(math.radians(60))
    return ((CENTRE_CIRCLE_RADIUS * end, 0.0), (wing_x * end, -wing_y), (wing_x * end, wing_y))


def return_spot(end: int) -> tuple[float, float]:
    """§1.3 PROPOSAL: where a returning excluded stone is laid, in the own-half quarter of the half-circle."""
    offset = HALF_CIRCLE_RADIUS / (1 + math.sqrt(2))  # inscribed circle of a quarter-disc: 20.7
    return (offset * end, -HALF_WIDTH + offset)


def legal_defender_spot(x: float, y: float, r: float, end: int) -> bool:
    """IV.1: a defender lies wholly on the board, touches its defensive third and not its crease."""
    return (
        disc_inside_board(x, y, r)
        and in_defensive_third(x, y, r, end)  # touching the blue line is allowed (A56)
        and not in_crease(x, y, r, end)
    )

"""Every predicate of shared.geometry with its "touching counts" edges (RULES.md §1, D8).

Each edge case puts a disc exactly on the boundary (in) and a hair further (out). The coordinates are chosen
so the boundary arithmetic is exact in binary floating point where possible.
"""

from __future__ import annotations

import math

import pytest

from shared import geometry as g

R = g.STONE_RADIUS  # 16
P = g.PUCK_RADIUS  # 8.5
HAIR = 1e-6
ENDS = (-1, 1)


# --------------------------------------------------------------------------- basic shapes


def test_disc_touches_rect_closed():
    """A disc touching a rectangle's edge or corner touches it; a hair away it does not."""
    assert g.disc_touches_rect(15.0, 0.0, 5.0, 0.0, 10.0, -1.0, 1.0)
    assert not g.disc_touches_rect(15.0 + HAIR, 0.0, 5.0, 0.0, 10.0, -1.0, 1.0)
    assert g.disc_touches_rect(13.0, 5.0, 5.0, 0.0, 10.0, -1.0, 1.0)  # 3-4-5 to the corner (10, 1)
    assert not g.disc_touches_rect(13.0 + HAIR, 5.0, 5.0, 0.0, 10.0, -1.0, 1.0)


def test_disc_inside_rect_closed():
    """A disc touching the rectangle's border from inside is inside; a hair further it is not."""
    assert g.disc_inside_rect(5.0, 0.0, 5.0, 0.0, 10.0, -5.0, 5.0)
    assert not g.disc_inside_rect(5.0 + HAIR, 0.0, 5.0, 0.0, 10.0, -5.0, 5.0)


def test_disc_touches_circle_area_closed():
    """Two discs exactly touching count as touching; a hair apart they do not."""
    assert g.disc_touches_circle_area(3.0, 4.0, 2.0, 0.0, 0.0, 3.0)
    assert not g.disc_touches_circle_area(3.0, 4.0 + HAIR, 2.0, 0.0, 0.0, 3.0)


def test_discs_overlap_touching_is_not_overlapping():
    """Touching discs do not overlap; pressing in by the tolerance still does not; beyond it they do."""
    assert not g.discs_overlap(0.0, 0.0, R, 2 * R, 0.0, R)
    assert g.discs_overlap(0.0, 0.0, R, 2 * R - HAIR, 0.0, R)
    assert not g.discs_overlap(0.0, 0.0, R, 2 * R - 0.2, 0.0, R, g.OVERLAP_TOLERANCE)
    assert g.discs_overlap(0.0, 0.0, R, 2 * R - 0.3, 0.0, R, g.OVERLAP_TOLERANCE)


def test_clamp():
    """clamp limits a value to the closed interval."""
    assert (g.clamp(-2.0, -1.0, 1.0), g.clamp(0.5, -1.0, 1.0), g.clamp(3.0, -1.0, 1.0)) == (-1.0, 0.5, 1.0)


# --------------------------------------------------------------------------- the boards (G1, G5)


@pytest.mark.parametrize("sx", (-1, 1))
@pytest.mark.parametrize("sy", (-1, 1))
def test_disc_inside_board_straight_boards(sx: int, sy: int):
    """A disc touching an end or side board is inside the board; a hair further it is not."""
    assert g.disc_inside_board(sx * (g.HALF_LENGTH - R), 0.0, R)
    assert not g.disc_inside_board(sx * (g.HALF_LENGTH - R + HAIR), 0.0, R)
    assert g.disc_inside_board(0.0, sy * (g.HALF_WIDTH - R), R)
    assert not g.disc_inside_board(0.0, sy * (g.HALF_WIDTH - R + HAIR), R)


@pytest.mark.parametrize("sx", (-1, 1))
@pytest.mark.parametrize("sy", (-1, 1))
def test_disc_inside_board_rounded_corners(sx: int, sy: int):
    """In a corner the arc of radius 105 is the limit: a disc touching it is in, one in the square corner is out."""
    d = (g.CORNER_RADIUS - R) / math.sqrt(2)  # on the diagonal, touching the arc
    assert g.disc_inside_board(sx * (g.CORNER_CENTRE_X + d - HAIR), sy * (g.CORNER_CENTRE_Y + d - HAIR), R)
    assert not g.disc_inside_board(sx * (g.CORNER_CENTRE_X + d + 0.01), sy * (g.CORNER_CENTRE_Y + d + 0.01), R)
    # touches both straight boards, so fits the square corner, but not the rounded one
    assert not g.disc_inside_board(sx * (g.HALF_LENGTH - R), sy * (g.HALF_WIDTH - R), R)


def test_disc_inside_board_tolerance_lets_a_disc_press_into_a_board():
    """With tol a disc may press into the board by that much and no more."""
    x = g.HALF_LENGTH - R + 0.2
    assert not g.disc_inside_board(x, 0.0, R)
    assert g.disc_inside_board(x, 0.0, R, tol=g.OVERLAP_TOLERANCE)
    assert not g.disc_inside_board(x + 0.1, 0.0, R, tol=g.OVERLAP_TOLERANCE)


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        ((550.0, 100.0), (608.0, 100.0)),  # end board
        ((-550.0, -100.0), (-608.0, -100.0)),
        ((400.0, 250.0), (400.0, 298.0)),  # side board
        ((-100.0, -280.0), (-100.0, -298.0)),
        ((0.0, 0.0), (0.0, 298.0)),  # the side is nearer than the end
        ((620.0, 0.0), (608.0, 0.0)),  # a body that has left the board
    ],
)
def test_board_contact_point_on_straight_boards(point: tuple[float, float], expected: tuple[float, float]):
    """The nearest board point on a straight board is the perpendicular foot."""
    assert g.board_contact_point(*point) == pytest.approx(expected)


@pytest.mark.parametrize("sx", (-1, 1))
@pytest.mark.parametrize("sy", (-1, 1))
def test_board_contact_point_and_normal_in_corners(sx: int, sy: int):
    """In a corner the contact point is on the arc and the inward normal points to the arc centre."""
    x, y = sx * (g.CORNER_CENTRE_X + 30.0), sy * (g.CORNER_CENTRE_Y + 40.0)  # 3-4-5 from the arc centre
    bx, by = g.board_contact_point(x, y)
    assert (bx, by) == pytest.approx((sx * (g.CORNER_CENTRE_X + 63.0), sy * (g.CORNER_CENTRE_Y + 84.0)))
    assert g.inward_normal_at(x, y) == pytest.approx((-sx * 0.6, -sy * 0.8))


@pytest.mark.parametrize(
    ("point", "normal"),
    [
        ((550.0, 0.0), (-1.0, 0.0)),
        ((-550.0, 0.0), (1.0, 0.0)),
        ((0.0, 250.0), (0.0, -1.0)),
        ((0.0, -250.0), (0.0, 1.0)),
    ],
)
def test_inward_normal_on_straight_boards(point: tuple[float, float], normal: tuple[float, float]):
    """The inward normal of a straight board points back onto the surface."""
    assert g.inward_normal_at(*point) == pytest.approx(normal)


# --------------------------------------------------------------------------- halves and the centre line (G6, G19)


def test_touches_centre_line_closed():
    """A disc touching the 10 mm red strip touches the centre line; a hair further it does not."""
    for s in (-1, 1):
        assert g.touches_centre_line(s * (g.CENTRE_LINE_HALF_WIDTH + R), 50.0, R)
        assert not g.touches_centre_line(s * (g.CENTRE_LINE_HALF_WIDTH + R + HAIR), 50.0, R)


@pytest.mark.parametrize("end", ENDS)
def test_in_half_overlaps_the_side_of_end(end: int):
    """in_half: any part of the disc beyond x = 0 on the side of end; a disc just touching x = 0 is not in."""
    assert g.in_half(end * (-R + HAIR), 0.0, R, end)
    assert not g.in_half(end * -R, 0.0, R, end)
    assert g.in_half(end * 300.0, 0.0, R, end)
    assert not g.in_half(-end * 300.0, 0.0, R, end)


@pytest.mark.parametrize("end", ENDS)
def test_in_own_half_or_centre_line_closed(end: int):
    """D8 Retreated / XI.4 Cleared: touching the far edge of the centre strip counts, a hair beyond does not."""
    edge = -end * (g.CENTRE_LINE_HALF_WIDTH + R)
    assert g.in_own_half_or_centre_line(edge, 0.0, R, end)
    assert not g.in_own_half_or_centre_line(edge - end * HAIR, 0.0, R, end)


# --------------------------------------------------------------------------- centre circle (G11)


def test_touches_centre_circle_area_and_line():
    """A disc touching the outer edge of the circle's line touches the circle; a hair outside does not."""
    outer = g.CENTRE_CIRCLE_RADIUS + g.CIRCLE_LINE_HALF_WIDTH + R
    assert g.touches_centre_circle(outer, 0.0, R)
    assert not g.touches_centre_circle(outer + HAIR, 0.0, R)
    assert g.touches_centre_circle(0.0, 0.0, R)  # inside the area
    assert g.touches_centre_circle(0.0, -outer, R)


def test_touches_centre_circle_line_only_the_line():
    """XV.11: the circle's line is touched from outside and from inside; a disc inside away from it is not."""
    outer = g.CENTRE_CIRCLE_RADIUS + g.CIRCLE_LINE_HALF_WIDTH + R
    inner = g.CENTRE_CIRCLE_RADIUS - g.CIRCLE_LINE_HALF_WIDTH - R
    assert g.touches_centre_circle_line(outer, 0.0, R)
    assert not g.touches_centre_circle_line(outer + HAIR, 0.0, R)
    assert g.touches_centre_circle_line(0.0, inner, R)
    assert not g.touches_centre_circle_line(0.0, inner - HAIR, R)
    assert not g.touches_centre_circle_line(0.0, 0.0, R)


# --------------------------------------------------------------------------- thirds and the blue line (G7, G18)


@pytest.mark.parametrize("end", ENDS)
def test_in_defensive_third_includes_the_blue_line(end: int):
    """XII.8: touching the own blue line counts as being in the defensive third; a hair before it does not."""
    x = end * (g.BLUE_LINE_INNER_X - R)
    assert g.in_defensive_third(x, 0.0, R, end)
    assert not g.in_defensive_third(x - end * 1e-4, 0.0, R, end)
    assert g.in_defensive_third(end * 500.0, 0.0, R, end)
    assert not g.in_defensive_third(-end * 500.0, 0.0, R, end)


def test_blue_lines_split_the_length_into_thirds():
    """G7: the blue line centres at ±1216/6 and their inner edges 5 mm nearer the centre."""
    assert g.BLUE_LINE_X == pytest.approx(202.6667, abs=1e-4)
    assert g.BLUE_LINE_INNER_X == pytest.approx(197.6667, abs=1e-4)


# --------------------------------------------------------------------------- goal lines (G8, G9)


@pytest.mark.parametrize("end", ENDS)
def test_touches_goal_line_full_width(end: int):
    """G8: the goal line runs the full width: touched from either side, also far beside the goal."""
    near = g.GOAL_LINE_X - g.GOAL_LINE_HALF_WIDTH - R
    far = g.GOAL_LINE_X + g.GOAL_LINE_HALF_WIDTH + R
    for y in (0.0, 250.0):
        assert g.touches_goal_line(end * near, y, R, end)
        assert not g.touches_goal_line(end * (near - 1e-4), y, R, end)
        assert g.touches_goal_line(end * far, y, R, end)
        assert not g.touches_goal_line(end * (far + 1e-4), y, R, end)
    assert not g.touches_goal_line(-end * g.GOAL_LINE_X, 0.0, R, end)


@pytest.mark.parametrize("end", ENDS)
def test_touches_goal_line_outside_mouth_only_beside_the_goal(end: int):
    """XV.13d: the goal line beside the goal (|y| > 40) counts; in the mouth it does not."""
    x = end * g.GOAL_LINE_X
    assert g.touches_goal_line_outside_mouth(x, 100.0, P, end)
    assert g.touches_goal_line_outside_mouth(x, -100.0, P, end)
    assert not g.touches_goal_line_outside_mouth(x, 0.0, P, end)
    assert g.touches_goal_line_outside_mouth(x, g.GOAL_MOUTH_HALF_WIDTH - P + 0.01, P, end)
    assert not g.touches_goal_line_outside_mouth(x, g.GOAL_MOUTH_HALF_WIDTH - P - 0.01, P, end)
    assert not g.touches_goal_line_outside_mouth(-x, 100.0, P, end)


@pytest.mark.parametrize("end", ENDS)
def test_beyond_goal_line_closed(end: int):
    """XV.3: touching the goal line counts as beyond it; a hair in front does not."""
    x = end * (g.GOAL_LINE_X - g.GOAL_LINE_HALF_WIDTH - P)
    assert g.beyond_goal_line(x, 150.0, P, end)
    assert not g.beyond_goal_line(x - end * 1e-4, 150.0, P, end)
    assert g.beyond_goal_line(end * 590.0, 0.0, P, end)


@pytest.mark.parametrize("end", ENDS)
def test_touches_aux_line_only_inside_the_goal(end: int):
    """G9, XIV.1: the puck touching the auxiliary line inside the goal is a goal; beside the goal there is no line."""
    x = end * (g.AUX_LINE_X - g.AUX_LINE_HALF_WIDTH - P)
    assert g.touches_aux_line(x, 0.0, P, end)
    assert not g.touches_aux_line(x - end * 1e-4, 0.0, P, end)
    assert g.touches_aux_line(end * g.AUX_LINE_X, g.GOAL_MOUTH_HALF_WIDTH + P, P, end)  # touches its end
    assert not g.touches_aux_line(end * g.AUX_LINE_X, g.GOAL_MOUTH_HALF_WIDTH + P + HAIR, P, end)
    assert not g.touches_aux_line(end * g.AUX_LINE_X, 150.0, P, end)


def test_XIV_1_puck_radius_matches_the_aux_line():
    """§2: a puck touching the aux line has its centre about on the goal line plus its radius minus 8.5 mm."""
    centre = g.AUX_LINE_X - g.AUX_LINE_HALF_WIDTH - P
    assert abs(centre - g.GOAL_LINE_X) < 1.0


# --------------------------------------------------------------------------- crease and goal (G10, G14-G15)


@pytest.mark.parametrize("end", ENDS)
def test_in_crease_front_and_sides_closed(end: int):
    """G10: touching the crease line in front or at the side is in the crease; a hair away is not."""
    front = g.CREASE_FRONT_X - g.GOAL_LINE_HALF_WIDTH - R
    assert g.in_crease(end * front, 0.0, R, end)
    assert not g.in_crease(end * (front - 1e-4), 0.0, R, end)
    side = g.CREASE_HALF_WIDTH + g.GOAL_LINE_HALF_WIDTH + R
    assert g.in_crease(end * 470.0, side, R, end)
    assert not g.in_crease(end * 470.0, -(side + HAIR), R, end)
    assert not g.in_crease(-end * 470.0, 0.0, R, end)


@pytest.mark.parametrize("end", ENDS)
def test_in_crease_includes_the_goal_interior(end: int):
    """G10: the inside of the goal belongs to the crease, also behind the goal line."""
    assert g.in_crease(end * 530.0, 0.0, P, end)
    assert g.in_goal_interior(end * 530.0, 0.0, P, end)
    # beside the goal, behind the goal line, is neither crease nor goal
    assert not g.in_crease(end * 540.0, 120.0, R, end)


@pytest.mark.parametrize("end", ENDS)
def test_in_goal_interior_closed(end: int):
    """G14-G15: a disc touching the goal mouth (x = 498, |y| <= 40) overlaps the goal interior; in front it does not."""
    x = end * (g.GOAL_LINE_X - P)
    assert g.in_goal_interior(x, 0.0, P, end)
    assert not g.in_goal_interior(x - end * 1e-4, 0.0, P, end)
    assert not g.in_goal_interior(end * 530.0, g.GOAL_MOUTH_HALF_WIDTH + P + HAIR, P, end)


@pytest.mark.parametrize("end", ENDS)
def test_behind_aux_line_whole_disc_inside_the_goal(end: int):
    """D8 BehindAux (A39): the whole disc beyond the aux line's far edge and inside the goal; touching it is not."""
    edge = g.AUX_LINE_X + g.AUX_LINE_HALF_WIDTH + R
    assert g.behind_aux_line(end * (edge + 1e-4), 0.0, R, end)
    assert not g.behind_aux_line(end * edge, 0.0, R, end)
    assert not g.behind_aux_line(end * (edge + 5.0), g.GOAL_MOUTH_HALF_WIDTH, R, end)  # beside the goal
    assert not g.behind_aux_line(-end * (edge + 5.0), 0.0, R, end)


@pytest.mark.parametrize("end", ENDS)
def test_non_defending_behind_the_goal_line_in_the_mouth_corridor(end: int):
    """D8 NonDefending (XII.12, A38): entirely behind the goal line and overlapping |y| < 40."""
    edge = g.GOAL_LINE_X + g.GOAL_LINE_HALF_WIDTH + R
    assert g.non_defending(end * (edge + 1e-4), 0.0, R, end)
    assert not g.non_defending(end * edge, 0.0, R, end)  # still covers the goal line
    assert g.non_defending(end * 520.0, g.GOAL_MOUTH_HALF_WIDTH + R - 0.01, R, end)
    assert not g.non_defending(end * 520.0, g.GOAL_MOUTH_HALF_WIDTH + R, R, end)  # only touches y = 40


def test_puck_start_excluded_near_either_goal():
    """XV.3: the puck touching a goal line (anywhere along it) or a crease cannot start a penalty shot."""
    x = g.GOAL_LINE_X - g.GOAL_LINE_HALF_WIDTH - P
    for end in ENDS:
        assert g.puck_start_excluded(end * x, 200.0, P)
        assert not g.puck_start_excluded(end * (x - 1e-4), 200.0, P)
        assert g.puck_start_excluded(end * (g.CREASE_FRONT_X - 5.0), 0.0, P)
    assert not g.puck_start_excluded(0.0, 0.0, P)


# --------------------------------------------------------------------------- half-circle and spots (G12, G13, §1.3)


def test_in_half_circle_closed():
    """G13: a disc touching the half-circle of radius 50 on the y = -298 board is in; a hair further is out."""
    y = -g.HALF_WIDTH + g.HALF_CIRCLE_RADIUS + R
    assert g.in_half_circle(0.0, y, R)
    assert not g.in_half_circle(0.0, y + HAIR, R)
    assert not g.in_half_circle(0.0, g.HALF_WIDTH - R, R)  # the other side board has none


def test_goal_mouth_centre_and_goalie_spot():
    """XII.1, XV.13e: both are the point on the goal line between the posts."""
    for end in ENDS:
        assert g.goal_mouth_centre(end) == (end * 498.0, 0.0)
        assert g.goalie_spot(end) == (end * 498.0, 0.0)


def test_goalie_spot_leaves_a_puck_between_goalie_and_post():
    """IV.1: a puck fits between the goalie on its spot and either post."""
    assert g.GOAL_MOUTH_HALF_WIDTH - R >= 2 * P


@pytest.mark.parametrize("end", ENDS)
def test_faceoff_spots_form_a_hexagon_on_the_circle(end: int):
    """G12: centre forward on the axis, wings at 60 degrees, all on the circle, on the half of end."""
    cf, w1, w2 = g.faceoff_spots(end)
    assert cf == (end * 100.0, 0.0)
    assert w1 == pytest.approx((end * 50.0, -86.6025), abs=1e-4)
    assert w2 == pytest.approx((end * 50.0, 86.6025), abs=1e-4)
    for x, y in (cf, w1, w2):
        assert math.hypot(x, y) == pytest.approx(g.CENTRE_CIRCLE_RADIUS)
        assert x * end > 0
    assert math.dist(cf, w1) == pytest.approx(g.CENTRE_CIRCLE_RADIUS)  # hexagon side = radius


@pytest.mark.parametrize("end", ENDS)
def test_return_spot_inside_the_own_quarter_of_the_half_circle(end: int):
    """§1.3 PROPOSAL: a stone on the return spot lies wholly in the half-circle's quarter on its own half."""
    x, y = g.return_spot(end)
    assert x * end > 0
    assert x == pytest.approx(end * 20.71, abs=0.01) and y == pytest.approx(-298.0 + 20.71, abs=0.01)
    assert math.hypot(x - g.HALF_CIRCLE_CENTRE[0], y - g.HALF_CIRCLE_CENTRE[1]) + R <= g.HALF_CIRCLE_RADIUS
    assert abs(x) - R >= 0 and g.disc_inside_board(x, y, R)


@pytest.mark.parametrize("end", ENDS)
def test_legal_defender_spot(end: int):
    """IV.1 (A56): in the own third (blue line counts), not touching the crease, wholly on the board."""
    assert g.legal_defender_spot(end * (g.BLUE_LINE_INNER_X - R), 0.0, R, end)
    assert not g.legal_defender_spot(end * (g.BLUE_LINE_INNER_X - R - 1e-4), 0.0, R, end)
    front = g.CREASE_FRONT_X - g.GOAL_LINE_HALF_WIDTH - R
    assert not g.legal_defender_spot(end * front, 0.0, R, end)
    assert g.legal_defender_spot(end * (front - 1e-4), 0.0, R, end)
    assert not g.legal_defender_spot(end * 400.0, g.HALF_WIDTH - R + HAIR, R, end)  # off the board
    assert g.legal_defender_spot(end * 560.0, 150.0, R, end)  # beside the goal, behind the goal line
    assert not g.legal_defender_spot(-end * 400.0, 0.0, R, end)

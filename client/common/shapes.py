"""Outlines of the board's curved shapes as point lists in millimetres (pure, no arcade).

Why: arcade draws polygons, the board has rounded corners (G5) and a half-circle (G13); building the
points here keeps the drawing code short and lets tests check the outline against the geometry.
"""

from __future__ import annotations

import math

from shared import geometry


def rounded_rect(half_x: float, half_y: float, radius: float, segments: int = 16) -> list[tuple[float, float]]:
    """A rectangle centred on the origin with rounded corners, counter-clockwise, ``segments`` per corner."""
    centres = ((half_x - radius, half_y - radius, 0.0), (-(half_x - radius), half_y - radius, 90.0),
               (-(half_x - radius), -(half_y - radius), 180.0), (half_x - radius, -(half_y - radius), 270.0))
    points: list[tuple[float, float]] = []
    for cx, cy, start in centres:
        for i in range(segments + 1):
            angle = math.radians(start + 90.0 * i / segments)
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def surface_outline(segments: int = 16) -> list[tuple[float, float]]:
    """The edge of the playing surface (G1, G5): 1216 x 596 with corners of radius 105."""
    return rounded_rect(geometry.HALF_LENGTH, geometry.HALF_WIDTH, geometry.CORNER_RADIUS, segments)


def boards_outline(segments: int = 16) -> list[tuple[float, float]]:
    """The outer edge of the boards (G3): the surface grown by the board width."""
    grow = geometry.BOARD_WIDTH
    return rounded_rect(
        geometry.HALF_LENGTH + grow, geometry.HALF_WIDTH + grow, geometry.CORNER_RADIUS + grow, segments
    )


def surface_half_height_at(x: float) -> float:
    """How far the surface reaches in y at ``x`` (less than 298 only inside a corner): lines stop there."""
    dx = abs(x) - geometry.CORNER_CENTRE_X
    if dx <= 0:
        return geometry.HALF_WIDTH
    if dx > geometry.CORNER_RADIUS:
        return 0.0
    return geometry.CORNER_CENTRE_Y + math.sqrt(geometry.CORNER_RADIUS**2 - dx * dx)


def off_board_spot(x: float, y: float, radius: float) -> tuple[float, float]:
    """Where to draw a body that flew over the board at (x, y): just outside the boards, beside its exit point."""
    bx, by = geometry.board_contact_point(x, y)
    nx, ny = geometry.inward_normal_at(x, y)
    out = geometry.BOARD_WIDTH + radius + 2.0
    return (bx - nx * out, by - ny * out)

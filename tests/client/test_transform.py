"""The world↔screen transform keeps the aspect ratio and round-trips for any window size."""

from __future__ import annotations

import pytest

from client.common.shapes import off_board_spot, surface_half_height_at
from client.common.transform import WORLD_HALF_X, WORLD_HALF_Y, Transform
from shared import geometry


@pytest.mark.parametrize("size", [(1280, 720), (800, 800), (2560, 1080), (640, 1000)])
def test_fit_keeps_aspect_and_shows_the_whole_board(size):
    """One scale for x and y; the world rectangle fits inside the area and touches two of its sides."""
    width, height = size
    tf = Transform.fit(0, 0, width, height)
    left, bottom = tf.to_screen(-WORLD_HALF_X, -WORLD_HALF_Y)
    right, top = tf.to_screen(WORLD_HALF_X, WORLD_HALF_Y)
    assert left >= -1e-9 and bottom >= -1e-9 and right <= width + 1e-9 and top <= height + 1e-9
    assert right - left == pytest.approx(width) or top - bottom == pytest.approx(height)
    assert (right - left) / (top - bottom) == pytest.approx(WORLD_HALF_X / WORLD_HALF_Y)


def test_round_trip_and_centre():
    """The centre spot is the middle of the area, and to_world inverts to_screen."""
    tf = Transform.fit(10, 20, 1000, 600)
    assert tf.to_screen(0, 0) == (510, 320)
    assert tf.to_world(*tf.to_screen(123.4, -56.7)) == pytest.approx((123.4, -56.7))


def test_empty_area_is_refused():
    """A zero-sized window is a caller bug, not a silent division by zero."""
    with pytest.raises(ValueError):
        Transform.fit(0, 0, 0, 100)


def test_lines_stop_at_the_rounded_corner():
    """Straight sections reach the side board; at the end board the corner leaves nothing."""
    assert surface_half_height_at(0) == geometry.HALF_WIDTH
    assert surface_half_height_at(geometry.HALF_LENGTH) == pytest.approx(geometry.CORNER_CENTRE_Y)


def test_off_board_spot_lies_beyond_the_boards():
    """A puck that flew over the side board is drawn outside the board frame, next to where it left."""
    x, y = off_board_spot(100.0, 297.0, geometry.PUCK_RADIUS)
    assert x == pytest.approx(100.0) and y > geometry.HALF_WIDTH + geometry.BOARD_WIDTH


def test_a_turned_board_puts_the_far_goal_on_the_left_and_round_trips():
    """Turned half round, x > 0 is drawn left of the centre and y > 0 below it; to_world undoes the turn."""
    from client.common.transform import turned_for

    tf = Transform.fit(0, 0, 1000, 600, turned=True)
    gx, gy = tf.to_screen(geometry.GOAL_LINE_X, 100.0)
    assert gx < 500 and gy < 300
    assert tf.to_world(*tf.to_screen(123.4, -56.7)) == pytest.approx((123.4, -56.7))
    left, right, bottom, top = tf.rect(0.0, 100.0, 0.0, 50.0)
    assert left < right and bottom < top and right == pytest.approx(500)
    assert turned_for(1) and not turned_for(-1) and not turned_for(None)

"""Painting where stones may be placed while a coach arranges them (a VIEW module: it imports arcade).

Why: dragging is only pleasant when the legal ground is visible before the drop — the own defensive third
shaded green with the crease struck out in red, the face-off spots ringed — and the stone a refusal names
is marked. The shapes come from ``shared.geometry`` and ``shared.formation``; the verdict from the engine
(``client.match.placement.Arrangement.problem``). A penalty-shot setup (an engine prompt) has no zones of its own
here: the engine's verdict is shown instead.
"""

from __future__ import annotations

import arcade

from client.common import palette
from client.common.transform import Transform
from client.common.widgets import Texts
from client.match.placement import Arrangement, setup_prompt_stones
from shared import formation
from shared import geometry as g
from shared.match import settings_of

LEGAL = (60, 190, 80, 70)
CREASE_NO = (230, 50, 40, 90)


def _box(tf: Transform, xa: float, xb: float, half_width: float, color: palette.Colour) -> None:
    """A filled rectangle between xa and xb (mm, any order) across ±half_width."""
    arcade.draw_lrbt_rectangle_filled(*tf.rect(xa, xb, -half_width, half_width), color)


def draw_zones(tf: Transform, arrangement: Arrangement, texts: Texts) -> None:
    """Shade the legal ground of a restart setup, ring the face-off spots, mark the stone being carried."""
    start = arrangement.start
    radius = settings_of(start).stone_radius
    end = start.own_end(arrangement.team)
    if setup_prompt_stones(start, arrangement.team) is None:
        near = g.BLUE_LINE_INNER_X - radius
        for x0, x1, half in ((near, g.CORNER_CENTRE_X, g.HALF_WIDTH), (g.CORNER_CENTRE_X, g.HALF_LENGTH,
                                                                         g.CORNER_CENTRE_Y)):
            _box(tf, end * x0, end * x1, half, LEGAL)  # the rounded corners are left out
        cx0, cx1 = sorted((end * (g.CREASE_FRONT_X - radius), end * g.GOAL_LINE_X))
        c_left, c_bottom = tf.to_screen(cx0, -g.CREASE_HALF_WIDTH - radius)
        c_right, c_top = tf.to_screen(cx1, g.CREASE_HALF_WIDTH + radius)
        arcade.draw_lrbt_rectangle_filled(min(c_left, c_right), max(c_left, c_right), min(c_bottom, c_top),
                                          max(c_bottom, c_top), CREASE_NO)
        for slot in ("centre_forward", "wing_1", "wing_2"):
            sx, sy = tf.to_screen(*formation.slot_spot(slot, end))
            arcade.draw_circle_outline(sx, sy, tf.px(radius) + 3, palette.SELECT, 2)
    preview = arrangement.preview()
    ok = arrangement.problem() is None or not arrangement.moved
    for stone_id in arrangement.stones:
        stone = preview.stone(stone_id)
        if stone is None:
            continue
        sx, sy = tf.to_screen(stone.x, stone.y)
        carried = stone_id == arrangement.dragging
        color = palette.SELECT if ok or stone_id not in arrangement.moved else palette.POWER_HIGH
        arcade.draw_circle_outline(sx, sy, tf.px(radius) + (7 if carried else 4), color, 3 if carried else 2)

"""Drawing the board to scale and the bodies on it (a VIEW module: it imports arcade).

Why one module: the match, watch and replay views all show the same board, built only from the
numbers of ``shared.geometry`` (RULES.md §1), so what a player sees is exactly what the referee judges.
Stones wear their team's kit with the number on top and turn with the physics' angle; the goalie wears
a mask ring; a stone lying upside down shows its plain wooden underside (VI.4); a puck that flew over
the board is drawn faded outside it (VI.5) and a puck on top of a goal is drawn raised over the goal (VI.3).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping

import arcade
import pyglet

from client.common import palette, shapes, stone_art
from client.common.playback import OFF_BOARD, ON_GOAL, UPSIDE_DOWN, Pose
from client.common.transform import Transform
from shared import geometry as g
from shared.model import PUCK_ID, Role, team_of_id

PUCK_HALO = (255, 255, 255, 150)


class Pen:
    """Draws the board's shapes at once (arcade's immediate calls); ``ShapePen`` records the same shapes instead."""

    def rect(self, left: float, right: float, bottom: float, top: float, color: palette.Colour) -> None:
        """A filled screen rectangle."""
        arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, color)

    def line(self, x1: float, y1: float, x2: float, y2: float, color: palette.Colour, width: float) -> None:
        """A line ``width`` pixels wide."""
        arcade.draw_line(x1, y1, x2, y2, color, width)

    def polygon(self, points: list[tuple[float, float]], color: palette.Colour) -> None:
        """A filled polygon."""
        arcade.draw_polygon_filled(points, color)

    def disc(self, x: float, y: float, radius: float, color: palette.Colour) -> None:
        """A filled circle."""
        arcade.draw_circle_filled(x, y, radius, color)

    def ring(self, x: float, y: float, radius: float, color: palette.Colour, width: float, segments: int = 64) -> None:
        """A circle's outline."""
        arcade.draw_circle_outline(x, y, radius, color, width, num_segments=segments)

    def polyline(self, points: list[tuple[float, float]], color: palette.Colour, width: float) -> None:
        """Connected line segments."""
        arcade.draw_line_strip(points, color, width)


def rgba(color: palette.Colour) -> tuple[int, int, int, int]:
    """A colour with its alpha (opaque when it has none)."""
    return (color[0], color[1], color[2], color[3] if len(color) == 4 else 255)


class ShapePen(Pen):
    """Records the board's shapes into one ``ShapeElementList``, drawn with a single call each frame.

    Why: the board never changes while the window keeps its size, but drawing it shape by shape (and
    triangulating its rounded outline in Python) cost about 40 ms a frame under software rendering."""

    def __init__(self) -> None:
        """An empty list of shapes."""
        from arcade import shape_list

        self._shapes = shape_list
        self.shapes: shape_list.ShapeElementList[shape_list.Shape] = shape_list.ShapeElementList()

    def rect(self, left: float, right: float, bottom: float, top: float, color: palette.Colour) -> None:
        """A filled screen rectangle."""
        self.shapes.append(self._shapes.create_rectangle_filled((left + right) / 2, (bottom + top) / 2, right - left,
                                                                top - bottom, rgba(color)))

    def line(self, x1: float, y1: float, x2: float, y2: float, color: palette.Colour, width: float) -> None:
        """A line ``width`` pixels wide."""
        self.shapes.append(self._shapes.create_line(x1, y1, x2, y2, rgba(color), width))

    def polygon(self, points: list[tuple[float, float]], color: palette.Colour) -> None:
        """A filled polygon (triangulated once, here)."""
        self.shapes.append(self._shapes.create_polygon(points, rgba(color)))

    def disc(self, x: float, y: float, radius: float, color: palette.Colour) -> None:
        """A filled circle."""
        self.shapes.append(self._shapes.create_ellipse_filled(x, y, 2 * radius, 2 * radius, rgba(color),
                                                              num_segments=48))

    def ring(self, x: float, y: float, radius: float, color: palette.Colour, width: float, segments: int = 64) -> None:
        """A circle's outline."""
        self.shapes.append(self._shapes.create_ellipse_outline(x, y, 2 * radius, 2 * radius, rgba(color), width,
                                                               num_segments=segments))

    def polyline(self, points: list[tuple[float, float]], color: palette.Colour, width: float) -> None:
        """Connected line segments."""
        self.shapes.append(self._shapes.create_line_strip(points, rgba(color), width))


def _rect(pen: Pen, tf: Transform, x0: float, x1: float, y0: float, y1: float, color: palette.Colour) -> None:
    """Fill the world rectangle [x0, x1] x [y0, y1]."""
    pen.rect(*tf.rect(x0, x1, y0, y1), color)


def _line_px(tf: Transform, millimetres: float) -> float:
    """A painted line's width in pixels, never thinner than 1.5 px so thin lines stay visible."""
    return max(1.5, tf.px(millimetres))


def _polygon(pen: Pen, tf: Transform, points: Iterable[tuple[float, float]], color: palette.Colour) -> None:
    """Fill a world polygon."""
    pen.polygon([tf.to_screen(x, y) for x, y in points], color)


def _wline(pen: Pen, tf: Transform, a: tuple[float, float], b: tuple[float, float], color: palette.Colour,
           width: float) -> None:
    """A line between two world points."""
    pen.line(*tf.to_screen(*a), *tf.to_screen(*b), color, width)


def draw_surface(tf: Transform, pen: Pen | None = None) -> None:
    """The boards (G2-G5) and the wooden playing surface inside them.

    Each pixel is painted once: the frame's edge and the boards as bands around the surface, the surface as
    rectangles and four corner fans - not three rounded polygons stacked, whose long slivers (a rounded outline
    triangulated) made software rendering paint the board in about 16 ms a frame instead of 4."""
    pen = pen or Pen()
    grow = g.BOARD_WIDTH
    edge = shapes.rounded_rect(g.HALF_LENGTH + grow + 3, g.HALF_WIDTH + grow + 3, g.CORNER_RADIUS + grow + 3)
    boards, surface = shapes.boards_outline(), shapes.surface_outline()
    _band(pen, tf, edge, boards, palette.BOARD_FRAME_EDGE)
    _band(pen, tf, boards, surface, palette.BOARD_FRAME)
    _rounded_fill(pen, tf, g.HALF_LENGTH, g.HALF_WIDTH, g.CORNER_RADIUS, palette.WOOD)


def _band(pen: Pen, tf: Transform, outer: list[tuple[float, float]], inner: list[tuple[float, float]],
          color: palette.Colour) -> None:
    """The band between two outlines of as many points (``shapes.rounded_rect``'s), as quads side by side."""
    count = len(outer)
    for i in range(count):
        j = (i + 1) % count
        _polygon(pen, tf, (outer[i], outer[j], inner[j], inner[i]), color)


def _rounded_fill(pen: Pen, tf: Transform, half_x: float, half_y: float, radius: float,
                  color: palette.Colour, segments: int = 16) -> None:
    """A filled rectangle with rounded corners: a cross of two rectangles and a fan in each corner."""
    _rect(pen, tf, -half_x, half_x, -(half_y - radius), half_y - radius, color)
    for sign in (-1, 1):
        inner_y = sign * (half_y - radius)
        _rect(pen, tf, -(half_x - radius), half_x - radius, min(inner_y, sign * half_y), max(inner_y, sign * half_y),
              color)
    inner_x, inner_y = half_x - radius, half_y - radius
    for cx, cy, start in ((inner_x, inner_y, 0.0), (-inner_x, inner_y, 90.0), (-inner_x, -inner_y, 180.0),
                          (inner_x, -inner_y, 270.0)):
        arc = [(cx + radius * math.cos(math.radians(start + 90.0 * k / segments)),
                cy + radius * math.sin(math.radians(start + 90.0 * k / segments))) for k in range(segments + 1)]
        _polygon(pen, tf, [(cx, cy), *arc], color)


def draw_lines(tf: Transform, pen: Pen | None = None) -> None:
    """Every painted line of I.3: centre line and spot, blue lines, goal and aux lines, creases, circle, half-circle."""
    pen = pen or Pen()
    for end in (-1, 1):
        # Creases (G10): painted solid as the Czech rules allow, with the goal interior, red border.
        x_front, x_goal = end * g.CREASE_FRONT_X, end * g.GOAL_LINE_X
        _rect(pen, tf, x_front, x_goal, -g.CREASE_HALF_WIDTH, g.CREASE_HALF_WIDTH, palette.CREASE_FILL)
        _rect(pen, tf, x_goal, end * g.GOAL_INNER_BACK_X, -g.GOAL_MOUTH_HALF_WIDTH, g.GOAL_MOUTH_HALF_WIDTH,
              palette.CREASE_FILL)
        w = _line_px(tf, 2 * g.GOAL_LINE_HALF_WIDTH)
        for y in (-g.CREASE_HALF_WIDTH, g.CREASE_HALF_WIDTH):
            _wline(pen, tf, (x_front, y), (x_goal, y), palette.RED_LINE, w)
        _wline(pen, tf, (x_front, -g.CREASE_HALF_WIDTH), (x_front, g.CREASE_HALF_WIDTH), palette.RED_LINE, w)
        # Goal line (G8), full width up to the rounded corner.
        reach = shapes.surface_half_height_at(g.GOAL_LINE_X)
        _wline(pen, tf, (x_goal, -reach), (x_goal, reach), palette.RED_LINE, w)
        # Auxiliary goal line (G9), inside the goal only.
        x_aux = end * g.AUX_LINE_X
        _wline(pen, tf, (x_aux, -g.GOAL_MOUTH_HALF_WIDTH), (x_aux, g.GOAL_MOUTH_HALF_WIDTH), palette.RED_LINE,
               _line_px(tf, 2 * g.AUX_LINE_HALF_WIDTH))
        # Blue line (G7).
        _rect(pen, tf, end * (g.BLUE_LINE_X - g.BLUE_LINE_HALF_WIDTH), end * (g.BLUE_LINE_X + g.BLUE_LINE_HALF_WIDTH),
              -g.HALF_WIDTH, g.HALF_WIDTH, palette.BLUE_LINE)
    # Centre line (G6) and the centre spot.
    _rect(pen, tf, -g.CENTRE_LINE_HALF_WIDTH, g.CENTRE_LINE_HALF_WIDTH, -g.HALF_WIDTH, g.HALF_WIDTH, palette.RED_LINE)
    cx, cy = tf.to_screen(0.0, 0.0)
    pen.disc(cx, cy, tf.px(7.0), palette.RED_LINE)
    pen.ring(cx, cy, tf.px(7.0), palette.BOARD_FRAME_EDGE, 1.2, 32)
    # Centre circle (G11) and its six face-off spots (G12).
    pen.ring(cx, cy, tf.px(g.CENTRE_CIRCLE_RADIUS), palette.RED_LINE, _line_px(tf, 2 * g.CIRCLE_LINE_HALF_WIDTH), 96)
    for end in (-1, 1):
        for sx, sy in g.faceoff_spots(end):
            pen.disc(*tf.to_screen(sx, sy), max(2.0, tf.px(4.0)), palette.RED_LINE)
    # Half-circle for returning stones (G13), on the y = -298 side board, opening towards the surface.
    hx, hy = g.HALF_CIRCLE_CENTRE
    arc = [tf.to_screen(hx + g.HALF_CIRCLE_RADIUS * math.cos(math.pi * k / 48),
                        hy + g.HALF_CIRCLE_RADIUS * math.sin(math.pi * k / 48)) for k in range(49)]
    pen.polyline(arc, palette.RED_LINE, _line_px(tf, 1.0) * 2)


def draw_goals(tf: Transform, pen: Pen | None = None) -> None:
    """The goals (G14-G17): metal side frames and back, the net hanging over the goal interior."""
    pen = pen or Pen()
    for end in (-1, 1):
        x_goal, x_net, x_back = end * g.GOAL_LINE_X, end * g.GOAL_INNER_BACK_X, end * g.GOAL_OUTER_BACK_X
        # the net: a hatch over the interior, then the net's back support
        steps = 8
        for i in range(steps + 1):
            y = -g.GOAL_MOUTH_HALF_WIDTH + 2 * g.GOAL_MOUTH_HALF_WIDTH * i / steps
            _wline(pen, tf, (x_goal, y), (x_net, y), palette.NET, 1.0)
        for i in range(1, 6):
            x = x_goal + (x_net - x_goal) * i / 6
            _wline(pen, tf, (x, -g.GOAL_MOUTH_HALF_WIDTH), (x, g.GOAL_MOUTH_HALF_WIDTH), palette.NET, 1.0)
        _rect(pen, tf, x_net, x_back, -g.GOAL_MOUTH_HALF_WIDTH - g.GOAL_FRAME_TUBE,
              g.GOAL_MOUTH_HALF_WIDTH + g.GOAL_FRAME_TUBE, palette.NET)
        for sign in (-1, 1):
            y_in, y_out = sign * g.GOAL_MOUTH_HALF_WIDTH, sign * (g.GOAL_MOUTH_HALF_WIDTH + g.GOAL_FRAME_TUBE)
            _rect(pen, tf, x_goal, x_back, y_in, y_out, palette.GOAL_FRAME)
        _rect(pen, tf, x_back - end * g.GOAL_FRAME_TUBE, x_back, -g.GOAL_MOUTH_HALF_WIDTH - g.GOAL_FRAME_TUBE,
              g.GOAL_MOUTH_HALF_WIDTH + g.GOAL_FRAME_TUBE, palette.GOAL_FRAME)


_BOARDS: dict[Transform, tuple[object, object]] = {}  # transform: (its GL context, the recorded board)


def draw_board(tf: Transform) -> None:
    """The whole empty board: surface, lines, goals — recorded once per transform (and GL context), then one draw
    call a frame."""
    context = arcade.get_window().ctx
    known = _BOARDS.get(tf)
    if known is None or known[0] is not context:
        pen = ShapePen()
        draw_surface(tf, pen)
        draw_lines(tf, pen)
        draw_goals(tf, pen)
        if len(_BOARDS) > 8:  # windows resized many times: forget the oldest
            _BOARDS.pop(next(iter(_BOARDS)))
        known = _BOARDS[tf] = (context, pen.shapes)
    known[1].draw()  # type: ignore[attr-defined]


def stone_number(stone_id: str) -> str:
    """The jersey number printed on a stone: the digits of its id (``h6`` → ``6``)."""
    return stone_id[1:]


class BodyPainter:
    """Draws stones and the puck from poses; keeps one text label per stone so numbers are cheap to redraw."""

    def __init__(self, batched: bool = False) -> None:
        """Start with no labels; they are made on first use (``batched``: drawn together by ``flush``)."""
        self._labels: dict[str, arcade.Text] = {}
        self.batch = pyglet.graphics.Batch() if batched else None
        self._shown: set[str] = set()
        self.sprite_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._sprites: dict[str, arcade.Sprite] = {}
        self._textures: dict[str, arcade.Texture] = {}
        self._used: set[str] = set()

    def _label(self, stone_id: str, size: float, color: palette.Colour) -> arcade.Text:
        """The cached number label of a stone, resized and recoloured as needed."""
        label = self._labels.get(stone_id)
        if label is None:
            label = arcade.Text(stone_number(stone_id), 0, 0, color, size, anchor_x="center", anchor_y="center",
                                bold=True, batch=self.batch)
            self._labels[stone_id] = label
        if label.font_size != size:
            label.font_size = size
        if tuple(label.color) != tuple(color):
            label.color = color
        return label

    def _sprite(self, key: str, picture: str, make: Callable[[], object]) -> arcade.Sprite:
        """The sprite in slot ``key`` showing ``picture`` (its texture made by ``make`` once)."""
        texture = self._textures.get(picture)
        if texture is None:
            texture = self._textures[picture] = arcade.Texture(make(), hash=f"sprtec-{picture}")  # type: ignore
        sprite = self._sprites.get(key)
        if sprite is None:
            sprite = self._sprites[key] = arcade.Sprite(texture)
            self.sprite_list.append(sprite)
        elif sprite.texture is not texture:
            sprite.texture = texture
        self._used.add(key)
        return sprite

    def _place(self, sprite: arcade.Sprite, sx: float, sy: float, r: float, alpha: int, angle: float = 0.0) -> None:
        """Put a body's sprite at (sx, sy) with radius ``r`` pixels."""
        scale = r / stone_art.RADIUS
        if sprite.position != (sx, sy):
            sprite.position = (sx, sy)
        if sprite.scale_x != scale:
            sprite.scale = scale
        if sprite.alpha != alpha:
            sprite.alpha = alpha
        if sprite.angle != angle:
            sprite.angle = angle

    def _draw_stone_sprite(self, tf: Transform, pose: Pose, role: Role, radius: float, alpha: int) -> None:
        """One stone as two sprites (its picture, and its mark turned with it) and its number in the batch."""
        sx, sy = tf.to_screen(pose.x, pose.y)
        r = tf.px(radius)
        team = team_of_id(pose.body)
        flipped = pose.state == UPSIDE_DOWN
        picture = f"stone-{team}-{role == 'goalie'}-{flipped}"
        body = self._sprite(pose.body, picture, lambda: stone_art.stone(team, role == "goalie", flipped))
        self._place(body, sx, sy, r, alpha)
        if flipped:
            return
        notch = self._sprite(pose.body + ".mark", f"mark-{team}", lambda: stone_art.mark(team))
        self._place(notch, sx, sy, r, alpha, -math.degrees(tf.angle(pose.angle)))
        ink = palette.kit(team)[1]
        label = self._label(pose.body, max(6.0, r * 0.85), (*ink, alpha))
        if label.x != sx or label.y != sy:
            label.x, label.y = sx, sy
        self._shown.add(pose.body)

    def draw_stone(self, tf: Transform, pose: Pose, role: Role, radius: float, alpha: int = 255) -> None:
        """One stone: jersey, rim, number and a notch that shows how it turned; the goalie's mask ring."""
        if self.batch is not None:
            self._draw_stone_sprite(tf, pose, role, radius, alpha)
            return
        sx, sy = tf.to_screen(pose.x, pose.y)
        r = tf.px(radius)
        arcade.draw_circle_filled(sx + r * 0.12, sy - r * 0.16, r, (0, 0, 0, min(alpha, 70)))  # shadow
        if pose.state == UPSIDE_DOWN:
            arcade.draw_circle_filled(sx, sy, r, (*palette.STONE_UNDERSIDE, alpha))
            arcade.draw_circle_outline(sx, sy, r * 0.62, (*palette.STONE_UNDERSIDE_RIM, alpha), max(1.0, r * 0.08))
            arcade.draw_circle_outline(sx, sy, r * 0.3, (*palette.STONE_UNDERSIDE_RIM, alpha), max(1.0, r * 0.06))
            arcade.draw_circle_outline(sx, sy, r, (*palette.STONE_UNDERSIDE_RIM, alpha), max(1.0, r * 0.12))
            return
        jersey, ink = palette.kit(team_of_id(pose.body))
        arcade.draw_circle_filled(sx, sy, r, (*jersey, alpha))
        rim = palette.mix(jersey, (0, 0, 0), 0.45)
        arcade.draw_circle_outline(sx, sy, r, (*rim, alpha), max(1.0, r * 0.14))
        if role == "goalie":
            arcade.draw_circle_outline(sx, sy, r * 0.72, (*palette.GOALIE_MASK, alpha), max(1.5, r * 0.2))
        # a mark on the rim shows how the stone turns (explained in the help and the stone's tooltip); the number
        # stays upright, so it can always be read
        angle = tf.angle(pose.angle)
        nx, ny = math.cos(angle), math.sin(angle)
        arcade.draw_line(sx + nx * r * 0.78, sy + ny * r * 0.78, sx + nx * r, sy + ny * r, (*ink, alpha),
                         max(1.0, r * 0.12))
        label = self._label(pose.body, max(6.0, r * 0.85), (*ink, alpha))
        if label.x != sx or label.y != sy:
            label.x, label.y = sx, sy
        if self.batch is None:
            label.draw()
        else:
            self._shown.add(pose.body)

    def flush(self) -> None:
        """Batched: draw the bodies drawn since the last flush — their sprites in one call, their numbers in
        another."""
        if self.batch is None:
            return
        for key, sprite in self._sprites.items():
            visible = key in self._used
            if sprite.visible != visible:
                sprite.visible = visible
        self._used.clear()
        self.sprite_list.draw()
        for body, label in self._labels.items():
            visible = body in self._shown
            if label.label.visible != visible:
                label.label.visible = visible
        self._shown.clear()
        self.batch.draw()

    def draw_puck(self, tf: Transform, pose: Pose, radius: float) -> None:
        """The puck: faded outside the boards when it flew over them, raised with a shadow when on a goal."""
        if pose.state == OFF_BOARD:
            x, y = shapes.off_board_spot(pose.x, pose.y, radius)
            sx, sy = tf.to_screen(x, y)
            arcade.draw_circle_filled(sx, sy, tf.px(radius), (*palette.PUCK, 110))
            arcade.draw_circle_outline(sx, sy, tf.px(radius) + 2, (*palette.WARNING, 200), 1.5)
            return
        sx, sy = tf.to_screen(pose.x, pose.y)
        r = tf.px(radius)
        if self.batch is not None and pose.state != ON_GOAL:
            self._place(self._sprite(PUCK_ID, "puck", stone_art.puck), sx, sy, r, 255)
            return
        if pose.state == ON_GOAL:
            arcade.draw_circle_filled(sx + r * 0.5, sy - r * 0.7, r, (0, 0, 0, 90))
            r *= 1.2
            sy += tf.px(3.0)
        arcade.draw_circle_outline(sx, sy, r + 4, PUCK_HALO, 3)  # a light halo: the small black puck stands out
        arcade.draw_circle_filled(sx, sy, r, palette.PUCK)
        arcade.draw_circle_outline(sx, sy, r, palette.PUCK_RIM, max(1.0, r * 0.18))

    def draw(self, tf: Transform, poses: Mapping[str, Pose], roles: Mapping[str, Role], stone_radius: float,
             puck_radius: float, faded: Iterable[str] = ()) -> None:
        """Every body; stones first so the puck is always visible; ``faded`` stones are drawn half transparent."""
        faded = set(faded)
        for body, pose in poses.items():
            if body == PUCK_ID or pose.state == OFF_BOARD:
                continue
            self.draw_stone(tf, pose, roles.get(body, "field"), stone_radius, 110 if body in faded else 255)
        puck = poses.get(PUCK_ID)
        if puck is not None:
            self.draw_puck(tf, puck, puck_radius)

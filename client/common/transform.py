"""The world↔screen transform: millimetres on the board to pixels in the window, aspect kept.

Why a pure module: every view (match, replay, watch) draws the board to scale and every input
(pressing a stone, dragging an aim) maps a pixel back to millimetres. Keeping the mapping free of
arcade lets tests check it exactly for any window size.

The board from your side: a coach whose own goal lies at x > 0 sees the board turned half round (``turned``),
so his goal is on his side of the screen, as across a real table. Only the picture turns: positions, actions
and everything on the wire keep the board's coordinates, and ``to_world`` undoes the turn for input.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shared import geometry

# The world rectangle a view must show: the playing surface, the boards around it, and a margin
# for a puck drawn where it flew over the board (keyframe state 2).
WORLD_HALF_X: float = geometry.HALF_LENGTH + geometry.BOARD_WIDTH + 26.0
WORLD_HALF_Y: float = geometry.HALF_WIDTH + geometry.BOARD_WIDTH + 26.0


@dataclass(frozen=True, slots=True)
class Transform:
    """A uniform scale plus offset: ``screen = centre + world * scale`` (screen y points up as in arcade)."""

    scale: float  # pixels per millimetre
    centre_x: float  # screen x of the world origin (the centre spot)
    centre_y: float
    turned: bool = False  # the board turned half round (a coach whose own goal is at x > 0)

    @classmethod
    def fit(cls, left: float, bottom: float, width: float, height: float, turned: bool = False) -> Transform:
        """The largest transform that shows the whole world rectangle inside the given screen area, centred."""
        if width <= 0 or height <= 0:
            raise ValueError(f"the board area must have a positive size, not {width} x {height}")
        scale = min(width / (2 * WORLD_HALF_X), height / (2 * WORLD_HALF_Y))
        return cls(scale, left + width / 2, bottom + height / 2, turned)

    @property
    def _sign(self) -> float:
        """-1 when the board is turned half round, else 1."""
        return -1.0 if self.turned else 1.0

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """The pixel of the world point (x, y) mm."""
        s = self.scale * self._sign
        return (self.centre_x + x * s, self.centre_y + y * s)

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        """The world point (mm) under the pixel (sx, sy); the inverse of ``to_screen``."""
        s = self.scale * self._sign
        return ((sx - self.centre_x) / s, (sy - self.centre_y) / s)

    def angle(self, radians: float) -> float:
        """A world angle as drawn on the screen (half a turn more when the board is turned)."""
        return radians + math.pi if self.turned else radians

    def rect(self, x0: float, x1: float, y0: float, y1: float) -> tuple[float, float, float, float]:
        """The screen rectangle (left, right, bottom, top) of the world rectangle [x0, x1] x [y0, y1]."""
        ax, ay = self.to_screen(x0, y0)
        bx, by = self.to_screen(x1, y1)
        return (min(ax, bx), max(ax, bx), min(ay, by), max(ay, by))

    def px(self, millimetres: float) -> float:
        """A length in pixels."""
        return millimetres * self.scale


def turned_for(own_end: int | None) -> bool:
    """The board is turned for a coach whose own goal is at x > 0 (``own_end`` +1); spectators see it as it is."""
    return own_end == 1

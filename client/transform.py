"""The world↔screen transform: millimetres on the board to pixels in the window, aspect kept.

Why a pure module: every view (match, replay, watch) draws the board to scale and every input
(pressing a stone, dragging an aim) maps a pixel back to millimetres. Keeping the mapping free of
arcade lets tests check it exactly for any window size.
"""

from __future__ import annotations

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

    @classmethod
    def fit(cls, left: float, bottom: float, width: float, height: float) -> Transform:
        """The largest transform that shows the whole world rectangle inside the given screen area, centred."""
        if width <= 0 or height <= 0:
            raise ValueError(f"the board area must have a positive size, not {width} x {height}")
        scale = min(width / (2 * WORLD_HALF_X), height / (2 * WORLD_HALF_Y))
        return cls(scale, left + width / 2, bottom + height / 2)

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """The pixel of the world point (x, y) mm."""
        return (self.centre_x + x * self.scale, self.centre_y + y * self.scale)

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        """The world point (mm) under the pixel (sx, sy); the inverse of ``to_screen``."""
        return ((sx - self.centre_x) / self.scale, (sy - self.centre_y) / self.scale)

    def px(self, millimetres: float) -> float:
        """A length in pixels."""
        return millimetres * self.scale

"""The client's colours, in one place, as plain RGB(A) tuples (no arcade import, so tests can use them).

Why: the board's paint follows the real board (RULES.md I.3: red centre line, blue lines, red goal
lines, creases and circle on light wood), team kits must stay distinguishable (II.2), and the
headless tests check pixels against exactly these values.
"""

from __future__ import annotations

from typing import Final

from shared.model import Team

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Colour = RGB | RGBA

BACKGROUND: Final[RGB] = (28, 34, 40)
WOOD: Final[RGB] = (222, 190, 140)  # the varnished playing surface
BOARD_FRAME: Final[RGB] = (120, 72, 38)  # the boards around it (darker wood)
BOARD_FRAME_EDGE: Final[RGB] = (78, 44, 20)
RED_LINE: Final[RGB] = (200, 30, 36)
BLUE_LINE: Final[RGB] = (30, 80, 200)
CREASE_FILL: Final[RGBA] = (120, 170, 230, 150)  # the Czech rules allow a painted crease [S2]
GOAL_FRAME: Final[RGB] = (205, 205, 210)  # metal tubes
NET: Final[RGBA] = (250, 250, 250, 170)
PUCK: Final[RGB] = (20, 20, 20)
PUCK_RIM: Final[RGB] = (90, 90, 90)
STONE_UNDERSIDE: Final[RGB] = (160, 128, 88)  # raw wood of a stone lying upside down (VI.4)
STONE_UNDERSIDE_RIM: Final[RGB] = (96, 70, 40)
GOALIE_MASK: Final[RGB] = (250, 210, 40)
SELECT: Final[RGB] = (255, 255, 255)
AIM_LINE: Final[RGB] = (255, 255, 255)
POWER_LOW: Final[RGB] = (60, 190, 80)
POWER_HIGH: Final[RGB] = (230, 50, 40)
TEXT: Final[RGB] = (240, 240, 240)
TEXT_DIM: Final[RGB] = (170, 175, 185)
HUD_BG: Final[RGBA] = (16, 20, 26, 230)
PANEL: Final[RGBA] = (36, 44, 54, 240)
WARNING: Final[RGB] = (255, 190, 60)

# Team kits: a jersey colour and its number colour. Home wears red-white, away blue-yellow, far enough
# apart for colour-blind players too (dark vs light kit).
KITS: Final[dict[Team, tuple[RGB, RGB]]] = {
    "home": ((190, 25, 35), (255, 255, 255)),
    "away": ((250, 215, 50), (20, 40, 120)),
}


def kit(team: Team) -> tuple[RGB, RGB]:
    """The (jersey, number) colours of ``team``."""
    return KITS[team]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b`` (0 gives a, 1 gives b)."""
    t = 0.0 if t < 0 else 1.0 if t > 1 else t
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))

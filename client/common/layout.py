"""Where each part of the match screen goes for a window of any size — top bar, board, move list, bottom bar —
as rectangles (pure: no arcade).

Why pure: "nothing overlaps down to the minimum window size" is a property of numbers, so tests check it for
every size without drawing. The board keeps its aspect inside its rectangle (``client.common.transform``); the move
list stands beside the board when the window is wide enough and otherwise opens over the board's right side
on demand (``L``), so a small window still shows the whole board.
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_WIDTH, MIN_HEIGHT = 800, 500  # the smallest window the client allows (the window refuses to shrink further)
TOP_BAR = 78.0  # the HUD above the board
BOTTOM_BAR = 96.0  # the log and the choices below the board
BANNER_STRIP = 44.0  # above the board: the referee's call, which never covers the play area
MARGIN = 8.0
SIDE_MIN_WINDOW = 1100  # from this width on, the move list stands beside the board
SIDE_WIDTH = (240.0, 300.0)  # the move list's width: a quarter of the window within these bounds


@dataclass(frozen=True, slots=True)
class Rect:
    """A screen rectangle in pixels (arcade's y points up)."""

    left: float
    bottom: float
    width: float
    height: float

    @property
    def right(self) -> float:
        """The right edge."""
        return self.left + self.width

    @property
    def top(self) -> float:
        """The top edge."""
        return self.bottom + self.height

    def contains(self, x: float, y: float) -> bool:
        """True when the pixel (x, y) lies inside."""
        return self.left <= x <= self.right and self.bottom <= y <= self.top

    def overlaps(self, other: Rect) -> bool:
        """True when the two rectangles share more than an edge."""
        return self.left < other.right and other.left < self.right and self.bottom < other.top \
            and other.bottom < self.top


@dataclass(frozen=True, slots=True)
class MatchLayout:
    """The match screen's parts; ``side`` is the move list's place (None while it is hidden)."""

    width: float
    height: float
    top_bar: Rect
    board: Rect
    bottom_bar: Rect
    side: Rect | None
    side_docked: bool  # True: beside the board; False: over the board's right side (a small window)
    banner: Rect = Rect(0.0, 0.0, 0.0, 0.0)  # the strip above the board the referee's call is shown in


def side_width(width: float) -> float:
    """The move list's width in a window ``width`` wide."""
    return max(SIDE_WIDTH[0], min(SIDE_WIDTH[1], width * 0.22))


def match_layout(width: float, height: float, list_open: bool = False, list_wanted: bool = True) -> MatchLayout:
    """The parts of the match screen for a ``width`` x ``height`` window (never smaller than the minimum is
    assumed: below it the parts are laid out for the minimum and clipped). ``list_open`` shows the move list over
    the board in a narrow window; ``list_wanted`` False hides it in a wide one."""
    width, height = max(width, MIN_WIDTH), max(height, MIN_HEIGHT)
    top_bar = Rect(0.0, height - TOP_BAR, width, TOP_BAR)
    bottom_bar = Rect(0.0, 0.0, width, BOTTOM_BAR - 4)
    middle_bottom, middle_height = BOTTOM_BAR, height - TOP_BAR - BOTTOM_BAR
    board_height = middle_height - BANNER_STRIP
    docked = width >= SIDE_MIN_WINDOW and list_wanted
    side: Rect | None
    if docked:
        side_w = side_width(width)
        side = Rect(width - MARGIN - side_w, middle_bottom, side_w, middle_height)
        board = Rect(MARGIN, middle_bottom, side.left - 2 * MARGIN, board_height)
    else:
        board = Rect(MARGIN, middle_bottom, width - 2 * MARGIN, board_height)
        side_w = side_width(width)
        side = Rect(width - MARGIN - side_w, middle_bottom, side_w, middle_height) if list_open else None
    banner = Rect(board.left, board.bottom + board.height, board.width, BANNER_STRIP)
    return MatchLayout(width, height, top_bar, board, bottom_bar, side, docked, banner)

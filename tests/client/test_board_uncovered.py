"""Nothing covers the play area: the referee's call is shown in the strip above the board at every window size,
never over the board."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common.layout import match_layout  # noqa: E402
from client.match import samples  # noqa: E402
from client.match.match_view import MatchView  # noqa: E402
from shared.model import Position  # noqa: E402


@pytest.mark.parametrize("size", [(1280, 760), (1024, 640), (1920, 1080), (800, 600)])
def test_the_ruling_banner_stands_above_the_board(size: tuple[int, int]) -> None:
    """The banner's box and its words lie in the strip between the board and the HUD."""
    width, height = size
    laid = match_layout(width, height)
    assert laid.banner.bottom >= laid.board.top and laid.banner.top <= laid.top_bar.bottom
    window = arcade.Window(width, height, "banner", visible=False)
    try:
        state = samples.match_state(moves=2)
        state.banner, state.banner_until = "Foul (VIII.1a): h3 of Jana hit a2 directly — exclusion (X.1)", 1e9
        view = MatchView(state, clock=lambda: 5.0)
        window.show_view(view)
        view.on_draw()
        label = view.texts.peek("banner")
        assert label is not None and label.visible
        drawn = view.layout()
        assert label.y - label.content_height / 2 >= drawn.board.top - 1
    finally:
        window.close()


def _box(label: object) -> tuple[float, float, float, float]:
    """A centred label's box (left, bottom, right, top)."""
    x, y = label.x, label.y  # type: ignore[attr-defined]
    half = label.content_width / 2  # type: ignore[attr-defined]
    return (x - half, y, x + half, y + label.content_height)  # type: ignore[attr-defined]


@contextlib.contextmanager
def _aiming_view() -> Iterator[tuple[MatchView, Position]]:
    """A home coach's match view at the first position, in a hidden window of the client's default size."""
    window = arcade.Window(1280, 760, "aim", visible=False)
    try:
        state = samples.match_state(moves=0)
        view = MatchView(state, clock=lambda: 5.0)
        window.show_view(view)
        assert state.position is not None
        yield view, state.position
    finally:
        window.close()


def test_the_aiming_guides_word_never_covers_the_speed_it_is_shot_at() -> None:
    """Whichever way and however far a stone is pulled, the guide's word (what the stone will touch) and the speed
    beside the pointer do not overlap: the word moves under the stone's ghost when it would meet the speed."""
    import math

    from client.match.aiming import Aim

    with _aiming_view() as (view, position):
        aimed = 0
        for stone in (s for s in position.stones if s.id.startswith("h")):
            for degrees in range(0, 360, 20):
                for pull in (40.0, 90.0, 160.0):
                    angle = math.radians(degrees)
                    view.aim = Aim(stone.id, stone.x, stone.y, stone.x + pull * math.cos(angle),
                                   stone.y + pull * math.sin(angle))
                    view.on_draw()
                    guide, speed = view.texts.peek("guide"), view.speed_box
                    if guide is None or not guide.text or speed is None:
                        continue
                    left, bottom, right, top = _box(guide)
                    assert right <= speed[0] or left >= speed[2] or top <= speed[1] or bottom >= speed[3], \
                        (stone.id, degrees, pull, guide.text)
                    aimed += 1
        assert aimed > 100  # the guide spoke for most of the pulls


def test_the_words_drawn_on_the_board_sit_on_a_dark_plate_over_the_wood() -> None:
    """The aimed speed and the guide's word are drawn on the wood: behind each the pixels are dark (a plate), so the
    white words keep their contrast - on the light wood most of the box would be light."""
    from client.match.aiming import Aim

    with _aiming_view() as (view, position):
        stone = next(s for s in position.stones if s.id == "h3")
        view.aim = Aim(stone.id, stone.x, stone.y, stone.x - 120.0, stone.y - 30.0)
        view.clear()
        view.on_draw()
        guide = view.texts.peek("guide")
        assert guide is not None and guide.text and view.speed_box is not None
        left, bottom, right, top = _box(guide)
        for box in ((left, bottom, right, top), view.speed_box):
            image = arcade.get_image(int(box[0]), int(box[1]), int(box[2] - box[0]), int(box[3] - box[1]))
            pixels = list(image.convert("L").getdata())
            dark = sum(1 for p in pixels if p < 90) / len(pixels)
            assert dark > 0.5, (box, dark)  # the plate, with the word's light strokes on it

"""Nothing covers the play area: the referee's call is shown in the strip above the board at every window size,
never over the board."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common.layout import match_layout  # noqa: E402
from client.match import samples  # noqa: E402
from client.match.match_view import MatchView  # noqa: E402


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

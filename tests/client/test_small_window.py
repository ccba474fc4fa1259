"""Headless renders in a small 800x500 window: menus and the match view keep their text apart and on screen."""

from __future__ import annotations

import os
from itertools import pairwise

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import palette  # noqa: E402
from client.common.menu_view import LobbyView  # noqa: E402
from client.match import samples  # noqa: E402
from client.match.match_view import MatchView  # noqa: E402
from client.player.lobby_model import LobbyModel  # noqa: E402
from shared.protocol import Welcome  # noqa: E402

WIDTH, HEIGHT = 800, 500


@pytest.fixture(scope="module")
def window():
    """One small hidden window for this module."""
    win = arcade.Window(WIDTH, HEIGHT, "small", visible=False)
    yield win
    win.close()


def _draw(window, view, path) -> None:
    """Draw ``view`` once and save the picture (to look at it)."""
    window.show_view(view)
    view.clear(color=palette.BACKGROUND)
    view.draw_at(0.0)
    arcade.get_image(0, 0, WIDTH, HEIGHT).save(path)


def test_create_screen_fits_below_the_title_and_above_the_key_help(window, tmp_path):
    """Every item of the longest lobby screen lies inside the window, below the subtitle, above the bottom line."""
    model = LobbyModel()
    model.apply(Welcome(1, "sprtec", "Jana", "tok"))
    model.activate("screen:create")
    view = LobbyView(model, lambda request: None)
    _draw(window, view, tmp_path / "lobby-small.png")
    subtitle = view.texts.peek("subtitle")
    for _, b in view.layout():
        assert b.left >= 0 and b.left + b.width <= WIDTH
        assert b.bottom > 60 and b.bottom + b.height < subtitle.y - 10


def test_match_hud_names_and_scores_do_not_overlap(window, tmp_path):
    """At 800 px the team names, the scores and the part clock keep apart; the log stays left of the prompt."""
    state = samples.match_state(moves=0, seat="home")
    view = MatchView(state, clock=lambda: 0.0)
    _draw(window, view, tmp_path / "match-small.png")

    def box(key: str) -> tuple[float, float]:
        label = view.texts.peek(key)
        width = label.content_width
        left = label.x - {"left": 0, "center": width / 2, "right": width}[label.anchor_x]
        return left, left + width

    spans = sorted([box("home.name"), box("home.score"), box("part_clock"), box("away.score"), box("away.name")])
    for (_, right), (left, _) in pairwise(spans):
        assert right <= left, spans
    assert view.prompt_buttons and view.prompt_buttons[0].left >= 0

"""Any window size: the window refuses to shrink below the minimum, and down to it the top bar's texts, the board,
the move list, the choice panel and its buttons keep apart and on screen (pure layouts and headless renders)."""

from __future__ import annotations

import os
from itertools import pairwise

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import palette  # noqa: E402
from client.common.layout import MIN_HEIGHT, MIN_WIDTH, match_layout  # noqa: E402
from client.match import samples  # noqa: E402
from client.match.match_view import MatchView  # noqa: E402
from tests.client.test_net import _joined, _prompted  # noqa: E402

SIZES = [(MIN_WIDTH, MIN_HEIGHT), (1024, 600), (1100, 700), (1280, 760), (1920, 1080)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("list_open", [False, True])
def test_the_parts_of_the_match_screen_never_overlap(size, list_open):
    """Top bar, board, move list (beside the board, or over it only when opened) and bottom bar keep apart."""
    laid = match_layout(*size, list_open=list_open)
    assert not laid.top_bar.overlaps(laid.board) and not laid.bottom_bar.overlaps(laid.board)
    if laid.side is not None and laid.side_docked:
        assert not laid.side.overlaps(laid.board)
    for part in (laid.top_bar, laid.board, laid.bottom_bar, laid.side):
        if part is not None:
            assert part.left >= 0 and part.right <= size[0] and part.bottom >= 0 and part.top <= size[1]


def _spans(view, keys):
    """The horizontal extent of each label as last drawn."""
    spans = []
    for key in keys:
        label = view.texts.peek(key)
        if label is None or not label.text:
            continue
        width = label.content_width
        left = label.x - {"left": 0, "center": width / 2, "right": width}[label.anchor_x]
        spans.append((left, left + width, key))
    return sorted(spans)


@pytest.fixture(scope="module")
def window():
    """A hidden window of the minimum size (the one the client allows)."""
    win = arcade.Window(MIN_WIDTH, MIN_HEIGHT, "minimum", visible=False)
    yield win
    win.close()


def test_the_window_has_a_minimum_size():
    """The client's window cannot be made smaller than the minimum at which nothing overlaps."""
    from client.common import window as app

    win = app.open_window("min", screenshot=__import__("pathlib").Path("x.png"), size=(400, 300))
    try:
        assert (win.width, win.height) == (MIN_WIDTH, MIN_HEIGHT)
    finally:
        win.close()


def test_at_the_minimum_the_hud_texts_keep_apart(window, tmp_path):
    """Long names, both scores, the part clock, the notes and the status line of a real position do not overlap."""
    snapshot = _prompted(7000)
    _client, state, _link = _joined(snapshot, now=0.0)
    state.names = {"home": "Jana Nováková-Dvořáková", "away": "Piotr Kowalski-Wiśniewski"}
    view = MatchView(state, clock=lambda: 1.0, on_leave=lambda: None)
    window.show_view(view)
    view.clear(color=palette.BACKGROUND)
    view.draw_at(1.0)
    arcade.get_image(0, 0, MIN_WIDTH, MIN_HEIGHT).save(tmp_path / "hud-minimum.png")
    for row in (("home.name", "home.score", "part_clock", "away.score", "away.name"),
                ("home.notes", "status", "away.notes"), ("home.clock", "part_clock", "away.clock")):
        spans = _spans(view, row)
        for (_, right, a), (left, _, b) in pairwise(spans):
            assert right <= left + 1, (a, b, spans)
        assert all(0 <= left and right <= MIN_WIDTH for left, right, _ in spans)
    panel_left = view._panel_left
    assert view.prompt_buttons and all(panel_left <= b.left and b.left + b.width <= MIN_WIDTH
                                       for b in view.prompt_buttons)
    title = view.texts.peek("prompt.title")
    assert title.x + title.content_width <= MIN_WIDTH - 14
    board = view.layout().board
    assert all(board.left <= b.left and b.left + b.width <= board.right for b in view.corner_buttons)


def test_at_the_minimum_the_move_list_opens_over_the_board_and_fits(window, tmp_path):
    """L opens the move list in a small window: inside the window, its lines within its width."""
    state = samples.match_state(moves=12)
    view = MatchView(state, clock=lambda: 0.0)
    window.show_view(view)
    view.on_key_press(arcade.key.L, 0)
    view.clear(color=palette.BACKGROUND)
    view.draw_at(0.0)
    arcade.get_image(0, 0, MIN_WIDTH, MIN_HEIGHT).save(tmp_path / "moves-minimum.png")
    side = view.layout().side
    assert side is not None and side.right <= MIN_WIDTH
    rows = [view.moves_panel.texts.peek(f"row{i}") for i in range(40)]
    drawn = [r for r in rows if r is not None and r.text]
    assert drawn and all(r.x + r.content_width <= side.right for r in drawn)

"""The board from your side: the away coach (own goal at x > 0) sees the board turned, his goal and his team's
panel on the left; input maps back to the board's coordinates; stone numbers stay upright."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common.board_view import BodyPainter  # noqa: E402
from client.common.playback import Pose  # noqa: E402
from client.match import (  # noqa: E402
    aiming,
    samples,
)
from client.match.match_view import MatchView  # noqa: E402
from shared.match import settings_of  # noqa: E402


@pytest.fixture(scope="module")
def window():
    """One hidden window for this module."""
    win = arcade.Window(1280, 760, "side", visible=False)
    yield win
    win.close()


def test_the_away_coach_sees_his_own_goal_on_his_side(window):
    """For away (own end +1 at the start) the board is turned: his goalie is drawn left of the centre, and the
    top bar's left panel is his; home's coach sees the board as it is."""
    for seat, turned in (("away", True), ("home", False)):
        state = samples.match_state(moves=0, seat=seat)
        view = MatchView(state, clock=lambda: 0.0)
        window.show_view(view)
        goalie = next(s for s in state.position.stones if s.team == seat and s.role == "goalie")
        x, _ = view.transform().to_screen(goalie.x, goalie.y)
        assert view.turned() is turned and x < view.layout().board.left + view.layout().board.width / 2
        assert view.left_team() == seat


def test_a_press_on_a_turned_board_picks_the_stone_under_the_pointer(window):
    """The turn is only in the picture: a press where a stone is drawn picks that stone in board coordinates."""
    state = samples.match_state(moves=0, seat="away")
    view = MatchView(state, clock=lambda: 0.0)
    window.show_view(view)
    stone = next(s for s in state.position.stones if s.team == "away" and s.role != "goalie")
    sx, sy = view.transform().to_screen(stone.x, stone.y)
    wx, wy = view.transform().to_world(sx, sy)
    picked = aiming.stone_at(state.position, wx, wy, settings_of(state.position).stone_radius)
    assert picked is not None and picked.id == stone.id


def test_stone_numbers_stay_upright_while_the_stone_turns(window):
    """A stone drawn at any angle keeps its number's label unrotated."""
    state = samples.match_state(moves=0)
    view = MatchView(state, clock=lambda: 0.0)
    window.show_view(view)
    painter = BodyPainter()
    painter.draw_stone(view.transform(), Pose("h3", 0.0, 0.0, 2.1), "field", 16.0)
    assert painter._labels["h3"].rotation == 0


def test_the_results_board_is_turned_for_the_coach_it_was_turned_for_in_his_match(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The away coach saw his goal on his side all match: the results' board behind the scores shows it so too."""
    import os

    os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade

    from client.common import board_view
    from client.common.transform import Transform, turned_for
    from client.match import samples
    from client.player import results_view
    from shared.protocol import MatchEnded, Score

    state = samples.match_state(moves=2, seat="away")
    assert state.position is not None and turned_for(state.position.own_end("away"))
    seen: list[bool] = []

    def drawn(tf: Transform) -> None:
        """Note how the board is turned, and draw it."""
        seen.append(tf.turned)
        board_view.draw_board(tf)

    monkeypatch.setattr(results_view, "draw_board", drawn)
    window = arcade.Window(800, 600, "results", visible=False)
    try:
        view = results_view.ResultsView(state, MatchEnded("KL7R", "m1", Score(1, 2), "away", "TIME"),
                                        lambda command: None)
        window.show_view(view)
        view.on_draw()
    finally:
        window.close()
    assert seen and seen[0]


def test_the_results_score_line_reads_both_long_names_whole() -> None:
    """Two coaches' names of the longest a seat has (32 characters) on the smallest window: the results' score
    line shrinks to show both names and the score whole, and the ratings' lines keep their numbers."""
    from client.match import samples
    from client.player import results_view
    from shared.protocol import MatchEnded, Score

    state = samples.match_state(moves=2)
    state.names = {"home": "Maximilián Kristián Dvořák-Novák", "away": "Magdaléna Wiśniewska-Kowalczyk"}
    window = arcade.Window(800, 600, "results", visible=False)
    try:
        ratings = ("Maximilián Kristián Dvořák-Novák 1512 → 1527 (+15)",
                   "Magdaléna Wiśniewska-Kowalczyk 1530 → 1515 (−15)")
        view = results_view.ResultsView(state, MatchEnded("KL7R", "m1", Score(1, 2), "away", "TIME"),
                                        lambda command: None, ratings=lambda: ratings)
        window.show_view(view)
        view.on_draw()
        score = view.texts.peek("score")
        assert score is not None and "…" not in score.text
        assert state.names["home"] in score.text and state.names["away"] in score.text
        for i, line in enumerate(ratings):
            drawn = view.texts.peek(f"ratings{i}")
            assert drawn is not None and drawn.text == line
    finally:
        window.close()

"""Headless renders of the client's views, checked by pixels (one hidden window for the whole module)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import palette  # noqa: E402
from client.match.match_view import MatchView  # noqa: E402
from client.match.replay_model import ReplayCursor, build  # noqa: E402
from client.match.replay_view import ReplayView  # noqa: E402
from client.match.state import MatchState  # noqa: E402
from shared.model import Flick, Puck  # noqa: E402
from tests.client.helpers import basic_position, record  # noqa: E402

WIDTH, HEIGHT = 1280, 760
NOW = 1000.0


@pytest.fixture(scope="module")
def window():
    """One hidden window shared by every render of this module."""
    win = arcade.Window(WIDTH, HEIGHT, "test", visible=False)
    yield win
    win.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    """Where the renders are saved, to look at them after a run."""
    return tmp_path_factory.mktemp("client-shots")


def render(window, view, path: Path):
    """Draw ``view`` at NOW and return the picture (saved at ``path``)."""
    window.show_view(view)
    view.clear(color=palette.BACKGROUND)
    view.draw_at(NOW)
    image = arcade.get_image(0, 0, WIDTH, HEIGHT).convert("RGB")
    image.save(path)
    return image


def pixel(image, view, x: float, y: float):
    """The RGB of the world point (x, y) mm in a render (PIL's y runs downwards)."""
    sx, sy = view.transform().to_screen(x, y)
    return image.getpixel((round(sx), HEIGHT - 1 - round(sy)))


def near(rgb, target, tol: int = 30) -> bool:
    """Colours equal within ``tol`` per channel."""
    return all(abs(a - b) <= tol for a, b in zip(rgb, target, strict=False))


def _view(position, seat="home", **kw) -> MatchView:
    """A still match view of ``position``."""
    state = MatchState(seat=seat, **kw)
    state.load(position, 1)
    return MatchView(state, clock=lambda: NOW)


def test_board_lines_have_their_colours(window, shots):
    """The centre line is red, a blue line is blue, open wood is wood, the crease is painted."""
    view = _view(replace(basic_position(), stones=(), puck=Puck(300.0, 200.0)))
    image = render(window, view, shots / "board.png")
    assert near(pixel(image, view, 0.0, 200.0), palette.RED_LINE)
    assert near(pixel(image, view, 202.67, -150.0), palette.BLUE_LINE)
    assert near(pixel(image, view, -300.0, 100.0), palette.WOOD)
    assert not near(pixel(image, view, 470.0, 30.0), palette.WOOD)  # the crease is filled
    assert near(pixel(image, view, 300.0, 200.0), palette.PUCK, 40)


def test_stones_wear_kits_and_a_flipped_stone_shows_its_underside(window, shots):
    """A home stone shows the home jersey at its spot; the same stone flipped shows plain wood instead."""
    position = basic_position()
    stone = position.stone("h5")
    spot = (stone.x + 8.0, stone.y + 5.0)  # on the jersey, beside the number
    upright = render(window, _view(position), shots / "upright.png")
    assert near(pixel(upright, _view(position), *spot), palette.kit("home")[0])
    assert near(pixel(upright, _view(position), position.stone("a5").x + 8.0, position.stone("a5").y + 5.0),
                palette.kit("away")[0])
    flipped = replace(position, stones=tuple(replace(s, flipped=True) if s.id == "h5" else s for s in position.stones))
    view = _view(flipped)
    turned = render(window, view, shots / "flipped.png")
    assert near(pixel(turned, view, *spot), palette.STONE_UNDERSIDE)


def test_hud_shows_the_score(window, shots):
    """Changing the score changes the score area of the HUD and nothing is drawn there on an empty bar."""
    a = render(window, _view(basic_position()), shots / "score-0-0.png")
    b = render(window, _view(replace(basic_position(), score=(3, 0))), shots / "score-3-0.png")
    box = (WIDTH // 2 - 200, 0, WIDTH // 2 - 60, 70)
    assert a.crop(box).tobytes() != b.crop(box).tobytes()
    assert len(set(a.crop(box).getdata())) > 2  # the digit is there, not an empty bar


def test_puck_off_the_board_is_drawn_outside_it(window, shots):
    """During playback a puck in state 2 appears beyond the boards, not on the surface."""
    position = basic_position()
    state = MatchState(seat="home")
    state.load(position, 1)
    traj = record(("puck",), [[(0, 0, 0, 0)], [(20000, 29800, 0, 2)]])
    state.add_move(traj, [], position, 2, now=NOW - 0.05)
    view = MatchView(state, clock=lambda: NOW)
    image = render(window, view, shots / "puck-off.png")
    assert not near(pixel(image, view, 200.0, 290.0), palette.PUCK, 40)
    sx, sy = view.transform().to_screen(200.0, 298.0 + 20.0 + 8.5 + 2.0)
    rgb = image.getpixel((round(sx), HEIGHT - 1 - round(sy)))
    assert rgb != pixel(image, view, 100.0, 298.0 + 30.5)  # something is drawn there


def test_replay_view_renders_a_real_match(window, shots):
    """A scenario re-run through the engine shows its first move's position and the scrub bar."""
    start = basic_position(restart=True)
    replay = build(start, (Flick("home", "h2", 1500.0, 80.0),))
    state = MatchState()
    cursor = ReplayCursor(replay)
    cursor.jump(state, 1, NOW)
    view = ReplayView(cursor, state, clock=lambda: NOW)
    image = render(window, view, shots / "replay.png")
    after = replay.position_at(1).stone("h2")
    assert near(pixel(image, view, after.x + 10.0, after.y + 6.0), palette.kit("home")[0])
    left, bottom, width, height = view.scrub_rect()
    assert near(image.getpixel((round(left + width * 0.5), HEIGHT - 1 - round(bottom + height / 2))),
                palette.BLUE_LINE)

"""Headless pictures of the screens a player meets, each checked for what it must show (and kept to look at: set
``SPRTEC_SHOTS=DIR`` to keep them there): the aiming guide touching a stone, the away coach's view, the move list
after a dozen moves with rulings, a replay playing with the coaches' names, My replays, a tooltip, help,
settings, and the HUD at the minimum window size."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import palette  # noqa: E402
from client.common.help_view import HelpView  # noqa: E402
from client.common.layout import MIN_HEIGHT, MIN_WIDTH  # noqa: E402
from client.common.menu_view import LobbyView  # noqa: E402
from client.match import (  # noqa: E402
    aiming,
    samples,
)
from client.match.match_view import MatchView  # noqa: E402
from client.match.replay_model import ReplayCursor, load  # noqa: E402
from client.match.replay_saver import ReplaySaver  # noqa: E402
from client.match.replay_view import ReplayView  # noqa: E402
from client.match.state import MatchState  # noqa: E402
from client.player.lobby_model import LobbyModel  # noqa: E402
from shared import aim_cast  # noqa: E402
from shared.match import settings_of  # noqa: E402
from shared.protocol import Replay, Welcome  # noqa: E402
from tests.client.test_replays import _scenario_text  # noqa: E402

WIDTH, HEIGHT = 1280, 760


@pytest.fixture(scope="module")
def window():
    """One hidden window of the default size."""
    win = arcade.Window(WIDTH, HEIGHT, "screens", visible=False)
    yield win
    win.close()


def _render(window, view, path: Path, now: float = 0.0):
    """Draw ``view`` as it is at ``now`` and save the picture."""
    window.show_view(view)
    view.clear(color=palette.BACKGROUND)
    view.draw_at(now)
    image = arcade.get_image(0, 0, window.width, window.height).convert("RGB")
    image.save(path)
    return image


def test_the_aiming_guide_touching_a_stone(window, shots):
    """A pull whose path meets an opponent's stone: the guide names it and warns of the foul."""
    state = samples.match_state(moves=0)
    position = state.position
    h2 = position.stone("h2")
    target = position.stone("a4")
    dx, dy = target.x - h2.x, target.y - h2.y
    norm = math.hypot(dx, dy)
    view = MatchView(state, clock=lambda: 0.0)
    view.aim = aiming.Aim("h2", h2.x, h2.y, h2.x - dx / norm * 100, h2.y - dy / norm * 100)
    _render(window, view, shots / "guide-touching-a-stone.png")
    shot = aiming.shot_of(view.aim, 20.0, 3000.0)
    guide = aim_cast.cast(position, "h2", shot.vx, shot.vy, settings_of(position))
    assert guide.body == "a4" and "a4" in view.texts.peek("guide").text and "VIII.1a" in view.texts.peek("guide").text


def test_the_away_coachs_view(window, shots):
    """The away coach's board is turned: his goal on the left, his name in the left panel."""
    state = samples.match_state(moves=4, seat="away")
    view = MatchView(state, clock=lambda: 0.0)
    _render(window, view, shots / "away-coach.png")
    assert view.turned() and view.texts.peek("away.name").x < WIDTH / 2 < view.texts.peek("home.name").x


def test_the_move_list_after_a_dozen_moves_with_rulings(window, shots):
    """Twelve moves and their rulings (a foul among them) fill the list beside the board."""
    state = samples.match_state(moves=12)
    view = MatchView(state, clock=lambda: 0.0)
    _render(window, view, shots / "move-list.png")
    rows = [view.moves_panel.texts.peek(f"row{i}") for i in range(60)]
    text = " ".join(r.text for r in rows if r is not None)
    assert "12." in text and "Foul (VIII.1a)" in text


def _saved_replays(folder: Path) -> Path:
    """Two saved replays with their coaches' names, as Save replay leaves them."""
    saver = ReplaySaver(lambda message: True, home=folder / "home", here=folder / "here", report=lambda line: None)
    (folder / "here").mkdir(parents=True, exist_ok=True)
    for match, names in (("a1b2c3", {"home": "Jana Nováková", "away": "Piotr Kowalski"}),
                         ("ffee01", {"home": "HC Kladno", "away": "Sokol Kraków"})):
        saver.ask(match, names)
        saver.take(Replay(match, _scenario_text(12)))
    return folder


def test_a_replay_playing_with_the_coaches_names(window, shots, tmp_path):
    """Autoplay has reached the middle of the match; the names from the file head the panels."""
    folder = _saved_replays(tmp_path)
    now = [0.0]
    state = MatchState()
    cursor = ReplayCursor(load(folder / "home" / "sprtec-replays" / "a1b2c3.json"))
    view = ReplayView(cursor, state, clock=lambda: now[0], autoplay=True)
    window.show_view(view)
    while cursor.index < 6 and now[0] < 120:
        now[0] += 0.05
        view.on_update(0.05)
    _render(window, view, shots / "replay-autoplay.png", now[0])
    assert view.playing and cursor.index >= 6
    assert view.texts.peek("home.name").text == "Jana Nováková"
    assert view.texts.peek("away.name").text == "Piotr Kowalski"


def test_my_replays(window, shots, tmp_path):
    """The lobby lists both saved matches by their coaches."""
    folder = _saved_replays(tmp_path)
    model = LobbyModel()
    model.apply(Welcome(1, "sprtec", "Jana", "t"))
    model.replay_folders = (folder / "home", folder / "here")
    model.activate("screen:replays")
    view = LobbyView(model, lambda request: None)
    _render(window, view, shots / "my-replays.png")
    labels = [view.texts.peek(f"item{i}").text for i in range(2)]
    assert any("Jana Nováková" in label for label in labels) and any("HC Kladno" in label for label in labels)


def test_a_tooltip(window, shots):
    """The pointer on a choice's button shows its rule in words."""
    state = samples.match_state(moves=0)
    view = MatchView(state, clock=lambda: 0.0)
    _render(window, view, shots / "tooltip-before.png")
    button = next(b for b in view.prompt_buttons if b.command.startswith("pp_swap_out"))
    view.hover = (button.left + 8, button.bottom + 8)
    _render(window, view, shots / "tooltip.png")
    assert view.overlay.peek("tooltip").text.startswith("Power play (XIII)")


def test_help(window, shots):
    """How to play names its rules; the keys page lists the keys."""
    view = HelpView(None, "play")
    _render(window, view, shots / "help-how-to-play.png")
    lines = " ".join(view.texts.peek(f"l{i}").text for i in range(12))
    assert "VIII.1a" in lines and "XIV.1" in lines
    view.page = "keys"
    _render(window, view, shots / "help-keys.png")
    assert "F11" in view.texts.peek("l0").text


def test_settings(window, shots):
    """The settings screen shows every choice with its value."""
    model = LobbyModel()
    model.apply(Welcome(1, "sprtec", "Jana", "t"))
    model.activate("screen:settings")
    view = LobbyView(model, lambda request: None)
    _render(window, view, shots / "settings.png")
    labels = [item.label for item in model.items()]
    assert [label.split(":")[0] for label in labels[:7]] == ["Name", "Volume", "Effects", "Sound", "Full screen",
                                                              "Aiming guide", "Language"]


def test_the_hud_at_the_minimum_window_size(shots):
    """At the smallest window the client allows, the HUD's texts stay inside and apart (see test_window_sizes)."""
    win = arcade.Window(MIN_WIDTH, MIN_HEIGHT, "minimum", visible=False)
    try:
        state = samples.match_state(moves=8)
        view = MatchView(state, clock=lambda: 0.0)
        _render(win, view, shots / "hud-minimum.png")
        for key in ("home.name", "away.name", "part_clock", "status"):
            label = view.texts.peek(key)
            width = label.content_width
            left = label.x - {"left": 0, "center": width / 2, "right": width}[label.anchor_x]
            assert 0 <= left and left + width <= MIN_WIDTH
    finally:
        win.close()

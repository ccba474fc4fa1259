"""Idle costs nothing: the client's window draws a view only when its frame key changes (and every frame while
something moves), so a menu nobody touches is not redrawn 60 times a second."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from benchmarks.client_frames import _playback_state  # noqa: E402
from client.common import window as app  # noqa: E402
from client.common.menu_view import LobbyView  # noqa: E402
from client.match import samples  # noqa: E402
from client.match.match_view import MatchView  # noqa: E402
from client.player.lobby_model import LobbyModel  # noqa: E402


@pytest.fixture(scope="module")
def window():
    """The client's own window class, hidden."""
    win = app.open_window("idle", screenshot=__import__("pathlib").Path("x.png"))
    yield win
    win.close()


def test_an_untouched_menu_is_drawn_twice_then_left_alone(window):
    """Both buffers get the picture, then no frame is drawn until something changes (the pointer moves)."""
    view = LobbyView(LobbyModel(practice=True), lambda request: None)
    window.show_view(view)
    drawn = window.drawn
    for _ in range(20):
        window.draw(1 / 60)
    assert window.drawn - drawn == 3 and window.skipped >= 17
    view.on_mouse_motion(10, 10, 1, 1)
    window.draw(1 / 60)
    assert window.drawn - drawn == 4


def test_a_playing_move_is_drawn_every_frame(window):
    """While a move plays back the match view has no frame key: every frame is drawn."""
    now = [1000.0]
    state = _playback_state(now[0])
    view = MatchView(state, clock=lambda: now[0])
    window.show_view(view)
    drawn = window.drawn
    for _ in range(10):
        now[0] += 1 / 60
        view.on_update(1 / 60)
        window.draw(1 / 60)
    assert state.busy and window.drawn - drawn == 10


def test_a_match_at_rest_redraws_when_its_clock_text_changes(window):
    """At rest, the part clock's next second is a new frame; the same second is not."""
    now = [0.0]
    state = samples.match_state(moves=2)
    view = MatchView(state, clock=lambda: now[0])
    window.show_view(view)
    for _ in range(3):
        window.draw(1 / 60)
    drawn = window.drawn
    now[0] += 0.01
    window.draw(1 / 60)
    assert window.drawn == drawn
    now[0] += 1.0
    window.draw(1 / 60)
    assert window.drawn == drawn + 1


def test_a_still_menu_ticks_slowly_until_input_or_news_wakes_it(window):
    """The same picture for IDLE_AFTER_FRAMES frames: the loop ticks at the menu's idle rate (no 60 Hz timer while
    nothing changes); a key, or the network's news (posted from its thread), brings the full rate back."""
    view = LobbyView(LobbyModel(practice=True), lambda request: None)
    window.show_view(view)
    assert not window.idle
    for _ in range(app.IDLE_AFTER_FRAMES + 2):
        window.draw(1 / 60)
    assert window.idle and window.idle_every == round(view.idle_rate / app.FRAME_S) > 1
    window.dispatch_event("on_key_press", arcade.key.DOWN, 0)
    assert not window.idle
    for _ in range(app.IDLE_AFTER_FRAMES + 2):
        window.draw(1 / 60)
    assert window.idle
    window.on_wake()  # what wake_soon posts to the event loop
    assert not window.idle


def test_a_match_view_idles_only_at_the_default_rate(window):
    """A match at rest (its clocks' text changing each second) ticks at 10 Hz at most once still."""
    state = samples.match_state(moves=2)
    view = MatchView(state, clock=lambda: 5.0)
    window.show_view(view)
    for _ in range(app.IDLE_AFTER_FRAMES + 2):
        window.draw(1 / 60)
    assert window.idle and window.idle_every == round(app.IDLE_RATE_S / app.FRAME_S)
    window.wake()


def test_a_screen_with_a_field_to_type_into_never_ticks_slowly(window):
    """The name entry: its letters are read as they come, so the loop keeps its full rate however still it is."""
    from client.player.name_entry import NameEntry

    view = LobbyView(NameEntry("ws://club:8765/"), lambda request: None)
    window.show_view(view)
    for _ in range(app.IDLE_AFTER_FRAMES + 2):
        window.draw(1 / 60)
    assert not window.idle and view.idle_rate == app.FRAME_S

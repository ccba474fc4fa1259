"""Save replay on the results screen of a live match: the S key writes a file that replays to the final position."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")
if TYPE_CHECKING:
    from arcade import Window

from client.common import window as app  # noqa: E402
from client.common.sound import Sounds  # noqa: E402
from client.match import replay_model  # noqa: E402
from client.match.net import NetClient, NetLink  # noqa: E402
from client.match.state import MatchState  # noqa: E402
from client.player.lobby_model import LobbyModel  # noqa: E402
from client.player.navigator import Navigator  # noqa: E402
from client.player.results_view import ResultsView  # noqa: E402
from shared.protocol import CreateRoom, JoinRoom  # noqa: E402
from tests.client.helpers import served  # noqa: E402

# One 2-second period in which nobody flicks: the move clocks run out and the period ends, a real logged match.
SETTINGS = {"period_ms": 2000, "move_clock_ms": 400}
DEADLINE_S = 20.0


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    """``sprtec serve`` on a free port with its data in tmp (physics in-line)."""
    with served(tmp_path / "data", workers=0) as line:
        yield line


@pytest.fixture
def window() -> Iterator[Window]:
    """A hidden window the navigator shows its views in."""
    win = arcade.Window(1280, 760, "save replay", visible=False)
    yield win
    win.close()


def _until(nav: Navigator, done: Callable[[], bool], also: Callable[[], object] = lambda: None) -> None:
    """Run the shown view's frames until ``done()`` or the deadline."""
    deadline = time.monotonic() + DEADLINE_S
    while not done() and time.monotonic() < deadline:
        view = nav.window.current_view
        assert view is not None
        view.on_update(0.05)
        also()
        time.sleep(0.02)
    assert done(), [line.text for line in nav.state.log[-5:]]


def test_save_replay_writes_a_file_that_replays_to_the_final_position(url, window, tmp_path, monkeypatch, capsys):
    """A finished live match; S on the results screen writes ~/sprtec-replays/<id>.json, whose end is the match's."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    client, opponent = NetClient(url, "ann"), NetClient(url, "bob")
    nav = Navigator(window, NetLink(client), LobbyModel(origin=f"Server {url}"), Sounds(muted=True))
    other, other_state = NetLink(opponent), MatchState()
    client.start()
    opponent.start()
    try:
        nav.show_lobby()
        _until(nav, lambda: nav.lobby.connected and other.player is not None,
               lambda: other.poll(other_state, time.monotonic()))
        assert nav.link.request(CreateRoom("quick", SETTINGS, True))
        _until(nav, lambda: nav.state.room is not None)
        room = nav.state.room
        assert room is not None
        assert other.request(JoinRoom(room))
        _until(nav, lambda: nav.screen == "results", lambda: other.poll(other_state, time.monotonic()))
        view = window.current_view
        assert isinstance(view, ResultsView) and nav.link.ended is not None
        final, match_id = nav.state.position, nav.link.ended.match_id
        view.on_key_press(arcade.key.S, 0)
        _until(nav, lambda: nav.saver.status.startswith(("Saved", "Replay not saved")))
        path = home / "sprtec-replays" / f"{match_id}.json"
        short = f"~/sprtec-replays/{match_id}.json"
        assert view.results().saved == f"Saved to {short} — replay: sprtec replay {short}"
        assert f"Saved to {path} — replay: sprtec replay {path}" in capsys.readouterr().out
        replay = replay_model.load(path)
        assert replay.moves and not replay.refused
        assert replay.position_at(len(replay.moves)) == final
        app.save_view(window, view, tmp_path / "results.png")
    finally:
        client.close()
        opponent.close()

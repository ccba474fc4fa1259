"""Replays: "My replays" lists the saved matches of ~/sprtec-replays and the current directory with the coaches'
names, opens one in the window; the replay view plays itself at the chosen speed and Escape closes it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.match import (  # noqa: E402
    replay_library,
    samples,
)
from client.match.replay_model import ReplayCursor, load  # noqa: E402
from client.match.replay_saver import ReplaySaver  # noqa: E402
from client.match.replay_view import ReplayView  # noqa: E402
from client.match.state import MatchState  # noqa: E402
from client.player.lobby_model import LobbyModel, OpenReplay  # noqa: E402
from shared.notation import Scenario, scenario_to_json  # noqa: E402
from shared.protocol import Replay  # noqa: E402
from tests.client.test_move_list import _actions  # noqa: E402


def _scenario_text(moves: int = 6) -> str:
    """A real match's scenario JSON: a new match and the sample player's flicks."""
    start = samples.new_match()
    return json.dumps(scenario_to_json(Scenario(start, tuple(_actions(start, moves)))))


@pytest.fixture(scope="module")
def window():
    """One hidden window for this module."""
    win = arcade.Window(1280, 760, "replays", visible=False)
    yield win
    win.close()


def test_saving_keeps_the_names_and_my_replays_lists_them(tmp_path: Path):
    """Save replay writes the scenario and its names; My replays lists it (named) and ignores other JSON."""
    home, here = tmp_path / "home", tmp_path / "here"
    here.mkdir()
    (here / "package.json").write_text("{}")
    saver = ReplaySaver(lambda message: True, home=home, here=here, report=lambda line: None)
    saver.ask("abc123", {"home": "Jana", "away": "Ola"})
    assert saver.take(Replay("abc123", _scenario_text()))
    model = LobbyModel()
    model.replay_folders = (home, here)
    model.activate("screen:replays")
    items = model.items()
    assert len(model.replays) == 1 and "Jana v Ola" in items[0].label
    request = model.activate(items[0].command)
    assert isinstance(request, OpenReplay) and request.path == home / "sprtec-replays" / "abc123.json"
    assert load(request.path).names == {"home": "Jana", "away": "Ola"}


def test_a_replay_file_with_a_players_object_shows_those_names(tmp_path: Path):
    """A scenario that carries "players" reads with them (the object is set aside before parsing) and My replays
    lists it by them; the object wins over a names file beside it, which still names a file without one."""
    raw = json.loads(_scenario_text(2))
    raw["players"] = {"home": "Novák", "away": "Kowalski"}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(raw))
    replay_library.write_names(path, {"home": "old", "away": "names"})
    assert load(path).names == {"home": "Novák", "away": "Kowalski"}
    listed = replay_library.find(tmp_path / "nohome", tmp_path)
    assert listed[0].path == path and "Novák v Kowalski" in listed[0].label()
    path.write_text(_scenario_text(2))
    assert replay_library.find(tmp_path / "nohome", tmp_path)[0].names == {"home": "old", "away": "names"}


def test_autoplay_plays_every_move_at_the_chosen_speed(window, tmp_path: Path):
    """Space starts the replay; at 4x it reaches the end by itself, the move list holds every move."""
    path = tmp_path / "m.json"
    path.write_text(_scenario_text(4))
    replay = load(path)
    now = [0.0]
    state = MatchState()
    cursor = ReplayCursor(replay)
    view = ReplayView(cursor, state, clock=lambda: now[0])
    window.show_view(view)
    view.on_key_press(arcade.key.SPACE, 0)
    view.on_key_press(arcade.key.UP, 0)
    view.on_key_press(arcade.key.UP, 0)
    assert view.playing and view.speed == 4.0
    for _ in range(2000):
        now[0] += 0.05
        view.on_update(0.05)
        if not view.playing:
            break
    assert cursor.index == cursor.total == len(replay.moves) and len(state.moves) == cursor.total


def test_escape_closes_the_replay(window, tmp_path: Path):
    """Escape runs the view's way back (to the lobby when opened from My replays)."""
    path = tmp_path / "m.json"
    path.write_text(_scenario_text(1))
    closed = []
    view = ReplayView(ReplayCursor(load(path)), MatchState(), close_to=lambda: closed.append(True))
    window.show_view(view)
    view.on_key_press(arcade.key.ESCAPE, 0)
    assert closed == [True]


def test_a_replays_move_list_keeps_a_coachs_choice_without_a_flick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A goalie put back (no flick, no ruling) is a move of the replay's record; quiet time is not."""
    from dataclasses import dataclass

    from client.match import replay_model
    from client.match.samples import new_match
    from shared.model import Elapse

    @dataclass
    class Quiet:
        """What the engine answers a step that moved nothing."""

        accepted: bool = True
        record: object = None
        decisions: tuple[object, ...] = ()
        error: object = None
        position: object = None

    start = new_match()
    reset = type("GoalieReset", (), {"action": "goalie_reset", "team": "home"})()
    monkeypatch.setattr(replay_model, "apply_event", lambda position, action: Quiet(position=position))
    built = replay_model.build(start, (reset, Elapse(ms=500)))
    assert [move.action for move in built.moves] == [reset]

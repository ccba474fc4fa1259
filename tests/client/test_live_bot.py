"""A whole quick match against the real bot on a real server, played through the client's own views as a person
would: the lobby's "Play the bot", mouse flicks on the MatchView, prompt buttons, the results, a spectator, and
a rematch against a new bot."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import window as app  # noqa: E402
from client.common.sound import Sounds  # noqa: E402
from client.match import (  # noqa: E402
    prompts,
    samples,
)
from client.match.match_view import MatchView  # noqa: E402
from client.match.net import NetClient, NetLink  # noqa: E402
from client.match.state import MatchState  # noqa: E402
from client.player.bot_process import BotProcess  # noqa: E402
from client.player.lobby_model import LobbyModel, PlayBot  # noqa: E402
from client.player.navigator import Navigator  # noqa: E402
from client.player.results_view import ResultsView  # noqa: E402
from shared.match import prompts as engine_prompts  # noqa: E402
from shared.protocol import CreateRoom, Watch  # noqa: E402
from tests.client.helpers import served  # noqa: E402

SETTINGS = {"period_ms": 8000, "move_clock_ms": 2000}
MATCH_S = 40.0
PULL_MM = 110.0  # a firm slingshot pull: about two thirds of full power


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    """``sprtec serve`` as ``make run`` starts it (default workers), on a free port with its data in tmp."""
    with served(tmp_path / "data", workers=None) as line:
        yield line


@pytest.fixture
def window():
    """A hidden window the navigator shows its views in."""
    win = arcade.Window(1280, 760, "live bot", visible=False)
    yield win
    win.close()


def _flick_by_mouse(view: MatchView) -> None:
    """Press the legal stone nearest the puck, pull back away from the puck, let go (the slingshot)."""
    state = view.state
    assert state.position is not None and state.seat is not None
    aimed = samples.toward_puck(state.position, state.seat)
    assert aimed is not None, "no legal stone on our move"
    stone = state.position.stone(aimed.stone)
    assert stone is not None
    speed = math.hypot(aimed.vx, aimed.vy)
    tf = view.transform()
    sx, sy = tf.to_screen(stone.x, stone.y)
    px, py = tf.to_screen(stone.x - aimed.vx / speed * PULL_MM, stone.y - aimed.vy / speed * PULL_MM)
    view.on_mouse_press(round(sx), round(sy), arcade.MOUSE_BUTTON_LEFT, 0)
    assert view.aim is not None, [line.text for line in state.log[-3:]]
    view.on_mouse_drag(round(px), round(py), 0, 0, arcade.MOUSE_BUTTON_LEFT, 0)
    view.on_mouse_release(round(px), round(py), arcade.MOUSE_BUTTON_LEFT, 0)


def _answer(view: MatchView, nav: Navigator, choice: prompts.Choice) -> None:
    """Click the awaited choice's default button; a choice without one gets the engine's default action."""
    view.on_draw()  # lays the prompt buttons out
    default = next((b for b in view.prompt_buttons if b.label.endswith("(default)")), None)
    if default is not None:
        view.on_mouse_press(round(default.left + default.width / 2), round(default.bottom + default.height / 2),
                            arcade.MOUSE_BUTTON_LEFT, 0)
        return
    position = view.state.position
    assert position is not None
    engine = next(p for p in engine_prompts(position) if p.kind == choice.kind and p.team == view.state.seat)
    assert engine.default is not None
    nav.send(engine.default)


@pytest.mark.slow
def test_a_quick_match_against_the_bot_plays_to_the_results(url, window, tmp_path):
    """Play the bot, flick by mouse after each playback, answer prompts; results match MatchEnded; rematch, leave."""
    client = NetClient(url, "Tester")
    bot = BotProcess()
    nav = Navigator(window, NetLink(client), LobbyModel(origin=f"Server {url}"), Sounds(muted=True), bot)
    watcher = NetClient(url, "Watcher")
    watching, watched = NetLink(watcher), MatchState()
    client.start()
    watcher.start()
    flicks, answers, acted_on = 0, 0, (-1, -1)
    rendered = False
    try:
        nav.show_lobby()
        deadline = time.monotonic() + MATCH_S
        while not nav.lobby.connected and time.monotonic() < deadline:
            window.current_view.on_update(0.05)
            time.sleep(0.02)
        nav.lobby_request(PlayBot(CreateRoom("quick", SETTINGS, True)))
        while nav.screen != "results" and time.monotonic() < deadline:
            view = window.current_view
            view.on_update(0.05)
            now = time.monotonic()
            watching.poll(watched, now)
            watched.update(now)
            if watched.room is None and nav.state.room is not None and watching.player is not None:
                watching.request(Watch(nav.state.room))
                watched.room = nav.state.room
            state = nav.state
            if not isinstance(view, MatchView) or state.busy or state.position is None \
                    or state.position.result is not None or state.waiting_for_opponent():
                time.sleep(0.02)
                continue
            key = (state.version, len(state.log))
            awaited = [c for c in view.choices(now) if c.deadline is not None]
            if awaited and key != acted_on:
                _answer(view, nav, awaited[0])
                answers, acted_on = answers + 1, key
            elif state.my_turn(now) and state.version != acted_on[0]:
                _flick_by_mouse(view)
                flicks, acted_on = flicks + 1, (state.version, len(state.log))
                if not rendered and flicks >= 3:
                    app.save_view(window, view, tmp_path / "match.png")
                    rendered = True
            time.sleep(0.02)
        assert nav.screen == "results", f"no result within {MATCH_S:g} s: {[line.text for line in nav.state.log]}"
        view = window.current_view
        assert isinstance(view, ResultsView)
        ended, final = nav.link.ended, nav.state.position
        assert ended is not None and final is not None and final.result is not None
        assert (ended.score.home, ended.score.away) == final.score and ended.winner == final.result.winner
        shown = view.results()
        assert f"{ended.score.home} : {ended.score.away}" in shown.score
        assert shown.headline == ("A draw" if ended.winner is None else
                                  "You win!" if ended.winner == nav.state.seat else "You lose")
        assert shown.saved == "" and ("Save replay", "save") in shown.options
        assert bot.process is not None and bot.process.poll() is not None, "the bot is stopped at the end"
        assert flicks >= 1, "we never flicked"
        app.save_view(window, view, tmp_path / "results.png")
        while watching.ended is None and time.monotonic() < deadline + 5:
            watching.poll(watched, time.monotonic())
            time.sleep(0.02)
        assert watching.ended == ended, "the spectator saw another ending"
        first_room = nav.state.room
        view.on_key_press(arcade.key.R, 0)  # a rematch against the bot: a new private room with a new bot
        while not (nav.screen == "match" and nav.state.room not in (None, first_room) and not nav.state.free_seats) \
                and time.monotonic() < deadline + 15:
            window.current_view.on_update(0.05)
            time.sleep(0.02)
        assert nav.state.room != first_room and not nav.state.free_seats, "the rematch bot did not sit down"
        assert bot.plays(nav.state.room) and bot.process is not None and bot.process.poll() is None
        nav.leave()
        assert bot.process.poll() is not None, "leaving stops the bot"
    finally:
        bot.stop()
        client.close()
        watcher.close()
        if bot.log_path is not None:
            bot.log_path.unlink(missing_ok=True)

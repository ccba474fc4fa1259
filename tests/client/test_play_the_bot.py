"""Playing the bot and the local server without a screen: the lobby's entry, the bot's command line, the local
server's probe."""

from __future__ import annotations

import socket
import sys

import pytest

from client.common.local_server import answers
from client.match import hud_model, samples
from client.match.state import MatchState
from client.player.bot_process import BotProcess, bot_command
from client.player.lobby_model import LobbyModel, PlayBot
from shared.protocol import CreateRoom, RoomList, Welcome


def _online(practice: bool = False) -> LobbyModel:
    """A lobby that has been welcomed by the server."""
    model = LobbyModel(practice)
    model.apply(Welcome(1, "sprtec", "Jana", "tok"))
    return model


def test_play_the_bot_is_on_every_menu_and_asks_for_a_private_room_with_the_bot():
    """Server and practice menus offer "Play the bot"; its screen ends in PlayBot of a private room."""
    for practice in (False, True):
        model = _online(practice)
        assert "Play the bot" in [item.label for item in model.items()]
        assert model.activate("screen:bot") is None and model.title() == "Play the bot"
        assert "cycle:private" not in [item.command for item in model.items()]
        model.activate("cycle:period")  # from quick's own 5 minutes to the next longer, 6
        request = model.activate("bot")
        assert request == PlayBot(CreateRoom("quick", {"period_ms": 360_000}, True), "medium")


def test_play_the_bot_offers_the_quick_ruleset_unless_the_player_chose_one():
    """A fresh lobby's standard ruleset becomes quick for the bot; a ruleset the player cycled to is kept."""
    model = _online()
    model.activate("screen:bot")
    assert model.ruleset == "quick"
    model.activate("back")
    model.activate("screen:create")
    model.activate("cycle:ruleset")
    chosen = model.ruleset
    model.activate("back")
    model.activate("screen:bot")
    assert model.ruleset == chosen


def test_status_line_names_the_server_and_the_connection():
    """The origin (which server) and the connection's state share the bottom line."""
    model = LobbyModel(origin="Connected to the local server")
    model.apply(Welcome(1, "sprtec", "Jana", "tok"))
    assert model.status_line() == "Connected to the local server  ·  Connected as Jana"


def test_the_bot_joins_the_room_with_its_ruleset_and_settings():
    """The bot's command line names server, room, ruleset and each setting (sorted, k=v)."""
    command = bot_command("py", "ws://h:1/", "AB12", "quick", {"period_ms": 8000, "move_clock_ms": 2000})
    assert command == ["py", "-m", "sprtec", "bot", "--server", "ws://h:1/", "--room", "AB12", "--name", "bot AB12",
                       "--ruleset", "quick", "--setting", "move_clock_ms=2000", "--setting", "period_ms=8000"]


@pytest.mark.slow
def test_a_bot_that_fails_says_so_and_points_to_its_log():
    """A bot that cannot reach its server exits non-zero: failed() names the status and the log file."""
    bot = BotProcess(sys.executable)
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    bot.start(f"ws://127.0.0.1:{port}/", "AB12")
    try:
        assert bot.process is not None and bot.process.wait(30) != 0
        problem = bot.failed()
        assert problem is not None and str(bot.log_path) in problem and bot.plays("AB12")
        bot.stop()
        assert bot.log_path is not None and bot.log_path.read_text().strip()
    finally:
        bot.stop()
        if bot.log_path is not None:
            bot.log_path.unlink(missing_ok=True)


def test_the_probe_gives_up_quickly_where_no_server_listens():
    """Nothing listening on the port: answers() is False."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    assert not answers(f"ws://127.0.0.1:{port}/")


def test_the_hud_waits_for_the_bot_not_for_a_friend_with_the_code():
    """A created room with a free seat: a friend needs the code, the bot only needs to be waited for."""
    state = MatchState(seat="home", room="AB12", free_seats=("away",))
    state.load(samples.new_match(), 1)
    assert "room code AB12" in hud_model.status_text(state, 0.0)
    state.against_bot = True
    assert hud_model.status_text(state, 0.0) == "Waiting for the bot to join…"


def test_an_empty_room_list_is_not_a_button_and_the_focus_skips_it():
    """With no public rooms the placeholder line is disabled and the keyboard lands on Refresh."""
    model = _online()
    model.activate("screen:rooms")
    model.apply(RoomList(()))
    assert not model.items()[0].enabled and model.focused().command == "refresh"

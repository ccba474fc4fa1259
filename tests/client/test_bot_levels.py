"""The bot's strength for "Play the bot": easy, medium and hard, each deterministic, the easier ones straying from
the flick they chose; ``sprtec bot --level`` takes them; a bot we stopped is no failure."""

from __future__ import annotations

import argparse
import math
import sys

from client.match import samples
from client.player.bot_process import BotProcess, bot_command
from shared.ai import LEVELS, choose_action_at, choose_flick, stray
from shared.match import settings_of
from shared.referee.moves import speed_problem
from sprtec.commands import bot


def test_each_level_is_deterministic():
    """The same position gives the same action at each level, run after run."""
    position = samples.play(samples.new_match(), 3)
    for level in LEVELS.values():
        assert choose_action_at(position, position.to_move, level) == choose_action_at(position, position.to_move,
                                                                                         level)


def test_easier_levels_stray_from_the_chosen_flick_within_their_bounds():
    """Hard plays its choice as chosen; easy and medium turn it by at most their error and stay in the range."""
    position = samples.play(samples.new_match(), 2)
    chosen = choose_flick(position, position.to_move, 4)
    settings = settings_of(position)
    assert stray(chosen, position, LEVELS["hard"]) == chosen
    for name in ("easy", "medium"):
        level = LEVELS[name]
        played = stray(chosen, position, level)
        turn = abs(math.remainder(math.atan2(played.vy, played.vx) - math.atan2(chosen.vy, chosen.vx), math.tau))
        assert turn <= math.radians(level.aim_error_deg) + 1e-3 and speed_problem(played, settings) is None
    assert LEVELS["easy"].budget < LEVELS["medium"].budget < LEVELS["hard"].budget


def test_sprtec_bot_takes_a_level():
    """`sprtec bot --level easy` parses; the client's bot command passes the level and names the bot by it and its
    room (a name is its player's for good, so the next bot of the server needs another)."""
    parser = argparse.ArgumentParser()
    bot.add_arguments(parser)
    args = parser.parse_args(["--server", "ws://h/", "--room", "AB", "--level", "easy"])
    assert args.level == "easy"
    command = bot_command("py", "ws://h/", "AB", level="easy")
    assert command[-4:] == ["--level", "easy", "--name", "bot (easy) AB"]
    assert bot_command("py", "ws://h/", "CD", level="easy")[-1] == "bot (easy) CD"


def test_a_bot_we_stopped_is_not_reported_as_a_failure():
    """Stopping the bot (the match ended, or we left) ends it with SIGTERM; that is no 'exit status -15'."""
    process = BotProcess(python=sys.executable)
    process.start("ws://127.0.0.1:9/", "NOPE")
    process.stop()
    assert process.process is not None and process.process.returncode not in (None, 0)
    assert process.failed() is None

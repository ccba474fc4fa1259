"""The bot as an opponent for this client: ``sprtec bot --room CODE`` run as a child process, its output in a log
file, stopped by its own pid (no arcade).

Why a child process and not a thread: the bot a player meets here is the very bot of ``sprtec bot`` — the same
protocol, the same search — so playing it teaches nothing online play contradicts, and its search cannot stall
the window. One implementation serves both ways of playing it: practice on a private server and "Play the bot"
in the lobby of any server. Its output goes to a temporary log file, never into the player's terminal; the
file stays after the bot stops so a failure can be read.

Each bot is a new player of its server, and a name is its holder's for good (docs/PROTOCOL.md "Players"), so a bot
is named after its room ("bot (medium) K7QZP3"): a second bot on the same server is never refused NAME_TAKEN.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

STOP_SECONDS = 5.0


def stop_child(process: subprocess.Popen[Any] | None, seconds: float = STOP_SECONDS) -> None:
    """Terminate one child by its pid, then kill it if it does not stop within ``seconds``."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(STOP_SECONDS)


def bot_command(python: str, url: str, room: str, ruleset: str | None = None,
                settings: Mapping[str, Any] | None = None, level: str | None = None) -> list[str]:
    """The command line of a bot that joins ``room`` on ``url`` (ruleset and settings as the room was created), at
    ``level`` (easy, medium, hard; None: the bot's own default), named after its level and its room."""
    command = [python, "-m", "sprtec", "bot", "--server", url, "--room", room]
    if level is not None:
        command += ["--level", level]
    command += ["--name", bot_name(room, level)]
    if ruleset is not None:
        command += ["--ruleset", ruleset]
    for name, value in sorted((settings or {}).items()):
        command += ["--setting", f"{name}={value}"]
    return command


def bot_name(room: str, level: str | None = None) -> str:
    """The bot's display name: its level and the room it was started for, so no two bots of a server share one."""
    return f"bot ({level}) {room}" if level is not None else f"bot {room}"


class BotProcess:
    """At most one bot coach at a time, playing the room this client created for it."""

    def __init__(self, python: str = sys.executable) -> None:
        """Nothing runs until ``start``."""
        self.python = python
        self.process: subprocess.Popen[bytes] | None = None
        self.room: str | None = None
        self.log_path: Path | None = None
        self._log: IO[bytes] | None = None
        self._stopped = False  # we stopped it: its ending is no failure

    def start(self, url: str, room: str, ruleset: str | None = None,
              settings: Mapping[str, Any] | None = None, level: str | None = None) -> None:
        """Start the bot for ``room`` at ``level`` (a bot still playing an earlier room is stopped first)."""
        self.stop()
        self._stopped = False
        log = tempfile.NamedTemporaryFile(prefix="sprtec-bot-", suffix=".log", delete=False)
        self._log, self.log_path, self.room = log, Path(log.name), room
        self.process = subprocess.Popen(bot_command(self.python, url, room, ruleset, settings, level),
                                        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)

    def plays(self, room: str | None) -> bool:
        """True when the bot was started for ``room`` (running or finished)."""
        return room is not None and self.room == room

    def failed(self) -> str | None:
        """Why the bot stopped early, if it exited with an error (a bot that finished its match exits 0; one we
        stopped ourselves, at the end of its match or when we left, is no failure either)."""
        if self._stopped or self.process is None or self.process.poll() in (None, 0):
            return None
        return f"The bot stopped (exit status {self.process.returncode}) — see {self.log_path}"

    def stop(self) -> None:
        """Stop the bot by its pid (terminate, then kill) and close its log."""
        self._stopped = self.process is not None
        stop_child(self.process)
        if self._log is not None:
            self._log.close()
            self._log = None

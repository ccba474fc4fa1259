"""Practice against the bot without any server to hand: start ``sprtec serve`` and ``sprtec bot`` as child
processes and stop them again (no arcade).

Why child processes: the practice match is a real match — the same server, the same referee, the same
bot a club would meet online — so practice teaches nothing that online play contradicts. The server
listens on a free port (``--port 0``) and prints its URL on its first line; its data goes to a temporary
directory removed at the end. Both processes are stopped by their own pid, never by name.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

STOP_SECONDS = 5.0


class Practice:
    """A private server (and later a bot) run for one practice session."""

    def __init__(self, python: str = sys.executable) -> None:
        """Prepare; nothing starts until ``start``."""
        self.python = python
        self.data = Path(tempfile.mkdtemp(prefix="sprtec-practice-"))
        self.server: subprocess.Popen[str] | None = None
        self.bot: subprocess.Popen[str] | None = None
        self.url: str | None = None
        self.error: str | None = None
        self.ready = threading.Event()

    def start(self) -> None:
        """Start the server on a free port; its URL arrives on a helper thread (``ready`` is set then)."""
        self.server = subprocess.Popen(
            [self.python, "-m", "sprtec", "serve", "--port", "0", "--data", str(self.data), "--workers", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        threading.Thread(target=self._read_url, name="sprtec-practice", daemon=True).start()

    def _read_url(self) -> None:
        """Read the server's first line (its URL), or note why there is none."""
        assert self.server is not None and self.server.stdout is not None
        line = self.server.stdout.readline().strip()
        if line.startswith("ws://"):
            self.url = line
        else:
            self.error = f"the practice server did not start (exit status {self.server.poll()})"
        self.ready.set()

    def wait(self, seconds: float) -> str | None:
        """The server's URL once it listens (None after ``seconds`` or on failure)."""
        self.ready.wait(seconds)
        return self.url

    def start_bot(self, room: str, ruleset: str | None = None) -> None:
        """Start the bot coach for ``room`` (a bot still playing an earlier practice room is stopped first)."""
        if self.url is None:
            return
        self._stop(self.bot)
        command = [self.python, "-m", "sprtec", "bot", "--server", self.url, "--room", room]
        self.bot = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)

    def bot_failed(self) -> str | None:
        """Why the bot stopped, if it did (it runs for the whole session otherwise)."""
        if self.bot is None or self.bot.poll() is None:
            return None
        return f"the bot stopped (exit status {self.bot.returncode})"

    @staticmethod
    def _stop(process: subprocess.Popen[str] | None) -> None:
        """Terminate one child by its pid, then kill it if it does not stop in time."""
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(STOP_SECONDS)

    def stop(self) -> None:
        """Stop the bot and the server by their pids (terminate, then kill) and remove the data directory."""
        for process in (self.bot, self.server):
            self._stop(process)
        if self.server is not None and self.server.stdout is not None:
            self.server.stdout.close()
        shutil.rmtree(self.data, ignore_errors=True)

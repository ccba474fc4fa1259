"""A private server for practice when no server is running: ``sprtec serve --port 0`` as a child process, stopped
again by its pid (no arcade).

Why a real server: the practice match is a real match — the same server, the same referee, the same bot
(``client.bot_process``) a club would meet online. The server listens on a free port and prints its URL on its
first line; its data goes to a temporary directory removed at the end.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from client.bot_process import stop_child


class PrivateServer:
    """A server run for one practice session."""

    def __init__(self, python: str = sys.executable) -> None:
        """Prepare; nothing starts until ``start``."""
        self.python = python
        self.data = Path(tempfile.mkdtemp(prefix="sprtec-practice-"))
        self.server: subprocess.Popen[str] | None = None
        self.url: str | None = None
        self.error: str | None = None
        self.ready = threading.Event()

    def start(self) -> None:
        """Start the server on a free port; its URL arrives on a helper thread (``ready`` is set then)."""
        self.server = subprocess.Popen(
            [self.python, "-m", "sprtec", "serve", "--port", "0", "--data", str(self.data), "--workers", "0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
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

    def stop(self) -> None:
        """Stop the server by its pid (terminate, then kill) and remove the data directory."""
        stop_child(self.server)
        if self.server is not None and self.server.stdout is not None:
            self.server.stdout.close()
        shutil.rmtree(self.data, ignore_errors=True)

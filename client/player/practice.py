"""``sprtec serve --port 0`` as a child process, its URL read from its first line and stopped again by its pid, and
the private practice server built on it (no arcade).

Why one class: the practice mode, ``sprtec bench server`` and the tests that need a real server process all
start the same command and read where it listens from its first line (``sprtec.commands.serve``).

Why a real server for practice: the practice match is a real match — the same server, the same referee, the
same bot (``client.player.bot_process``) a club would meet online. Its data goes to a temporary directory removed at
the end.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import IO

from client.player.bot_process import STOP_SECONDS, stop_child


class ServerProcess:
    """One ``sprtec serve`` child on a free port with its data in ``data``."""

    WHAT = "server"  # what the error message calls it

    def __init__(self, data: Path, workers: int | None = 0, log: Path | None = None, log_level: str | None = None,
                 python: str = sys.executable, options: tuple[str, ...] = ()) -> None:
        """Prepare; nothing starts until ``start``. ``workers`` None: one per core (the serve default); ``log``
        receives the server's stderr (else it is discarded); ``options``: more of ``sprtec serve``'s options."""
        self.python = python
        self.options = options
        self.data = data
        self.workers = workers
        self.log = log
        self.log_level = log_level
        self.process: subprocess.Popen[str] | None = None
        self.url: str | None = None
        self.error: str | None = None
        self.ready = threading.Event()
        self._log: IO[str] | None = None

    def command(self) -> list[str]:
        """The command line of the server."""
        command = [self.python, "-m", "sprtec", "serve", "--port", "0", "--data", str(self.data)]
        if self.workers is not None:
            command += ["--workers", str(self.workers)]
        if self.log_level is not None:
            command += ["--log-level", self.log_level]
        return command + list(self.options)

    def start(self) -> None:
        """Start the server; its URL arrives on a helper thread (``ready`` is set then)."""
        self._log = open(self.log, "w") if self.log is not None else None  # open while the server runs
        self.process = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=self._log or subprocess.DEVNULL, text=True)
        threading.Thread(target=self._read_url, name="sprtec-server-url", daemon=True).start()

    def _read_url(self) -> None:
        """Read the server's first line (its URL), or note why there is none."""
        assert self.process is not None and self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        if line.startswith("ws://"):
            self.url = line
        else:
            self.error = f"the {self.WHAT} did not start (exit status {self.process.poll()})"
        self.ready.set()

    def wait(self, seconds: float) -> str | None:
        """The server's URL once it listens (None after ``seconds`` or on failure)."""
        self.ready.wait(seconds)
        return self.url

    def stop(self, seconds: float = STOP_SECONDS) -> None:
        """Stop the server by its pid (terminate, then kill after ``seconds``) and close its pipes."""
        stop_child(self.process, seconds)
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()
        if self._log is not None:
            self._log.close()
            self._log = None


class PrivateServer(ServerProcess):
    """A server run for one practice session: physics in-line, data in a temporary directory."""

    WHAT = "practice server"

    def __init__(self, python: str = sys.executable) -> None:
        """Prepare; nothing starts until ``start``."""
        super().__init__(Path(tempfile.mkdtemp(prefix="sprtec-practice-")), workers=0, python=python)

    def stop(self, seconds: float = STOP_SECONDS) -> None:
        """Stop the server and remove the data directory."""
        super().stop(seconds)
        shutil.rmtree(self.data, ignore_errors=True)

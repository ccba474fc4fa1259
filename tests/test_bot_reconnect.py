"""`sprtec bot` survives its server: two bot processes finish their match across a graceful restart and a kill -9."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    """A TCP port nothing listens on now (the server must come back on the same one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(data: Path, port: int) -> subprocess.Popen[str]:
    """``sprtec serve`` on ``port``, once it prints its URL."""
    command = [sys.executable, "-m", "sprtec", "serve", "--port", str(port), "--data", str(data), "--workers", "1"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    assert process.stdout.readline().startswith("ws://")
    return process


def _logged(data: Path) -> int:
    """How many log entries the server has committed (read-only, from another process)."""
    try:
        with sqlite3.connect(f"file:{data / 'sprtec.sqlite3'}?mode=ro", uri=True) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM match_log").fetchone()[0])
    except sqlite3.Error:
        return 0


def _finished(data: Path) -> bool:
    """Whether the server has committed the match's end (read-only, from another process)."""
    with sqlite3.connect(f"file:{data / 'sprtec.sqlite3'}?mode=ro", uri=True) as conn:
        return bool(conn.execute("SELECT COUNT(*) FROM matches WHERE finished != 0").fetchone()[0])


def _wait_for_entries(data: Path, more_than: int, timeout_s: float = 60) -> int:
    """Wait until more than ``more_than`` entries are logged; returns the count."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        count = _logged(data)
        if count > more_than:
            return count
        time.sleep(0.2)
    raise AssertionError(f"no more than {more_than} log entries after {timeout_s} s")


@pytest.mark.slow(seconds=25)
def test_two_bots_finish_their_match_across_a_graceful_restart_and_a_kill_9(tmp_path: Path):
    """Mid-match the server is stopped with SIGTERM and restarted, later killed with -9 and restarted: both bots
    reconnect with their tokens, take their seats back and finish; nobody forfeits, both report one result."""
    data, port = tmp_path / "data", _free_port()
    url = f"ws://127.0.0.1:{port}/"
    server = _serve(data, port)
    command = [sys.executable, "-m", "sprtec", "bot", "--server", url, "--quick-match", "--ruleset", "quick",
               "--setting", "period_ms=20000", "--random", "--json"]
    bots = [subprocess.Popen([*command, "--name", name], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for name in ("ann", "bob")]
    try:
        seen = _wait_for_entries(data, 2)
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
        server = _serve(data, port)
        seen = _wait_for_entries(data, seen)  # the bots came back and play on
        assert not _finished(data), "the match ended before the kill -9: a longer period is needed"
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        server = _serve(data, port)
        outputs = [bot.communicate(timeout=150) for bot in bots]
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    assert [bot.returncode for bot in bots] == [0, 0], [err[-800:] for _, err in outputs]
    first, second = (json.loads(out) for out, _ in outputs)
    assert first["match"] == second["match"] and {first["seat"], second["seat"]} == {"home", "away"}
    assert first["reason"] not in ("FORFEIT_DISCONNECTED", "RESIGNED") and first["score"] == second["score"]
    assert all("reconnecting" in err or "retrying" in err for _, err in outputs)

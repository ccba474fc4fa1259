"""``sprtec play`` as a process: a client killed by a signal stops the private server it started."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _children(pid: int) -> list[int]:
    """The child pids of ``pid`` (Linux /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text().split()
        found.extend(int(child) for child in text)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except FileNotFoundError:
        return False
    return state != "Z"


def _can_isolate() -> bool:
    """A network namespace of its own can be made (root with util-linux' unshare and iproute2's ip, as CI is)."""
    return os.geteuid() == 0 and shutil.which("unshare") is not None and shutil.which("ip") is not None


def _alone(argv: list[str]) -> list[str]:
    """``argv`` on a network of its own, loopback only, where possible: the client then finds no server on this
    machine's port or on the LAN (another test's ``sprtec organise`` announces one there) and practises. The shell
    execs the program, so its pid stays the client's."""
    if not _can_isolate():
        return argv
    return ["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *argv]


def _local_port_busy() -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", 8765)) == 0


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.skipif(not _can_isolate() and _local_port_busy(),
                    reason="a server on the default port would be joined instead of practice")
def test_sigterm_stops_the_private_practice_server(tmp_path: Path):
    """SIGTERM to a practising client still runs its clean-up: the private server child is gone afterwards."""
    env = dict(os.environ, ARCADE_HEADLESS="1", HOME=str(tmp_path))
    play = subprocess.Popen(_alone([sys.executable, "-m", "sprtec", "play", "--mute"]), cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert play.stderr is not None
        for line in play.stderr:  # the client says when the private server answered
            if line.startswith("No server running"):
                break
            if line.startswith("Connected to"):  # another sprtec here or on the LAN answered first (it would hang)
                pytest.skip(f"a running server was joined instead of practice: {line.strip()}")
        servers = _children(play.pid)
        assert servers, "the practice server should be a child of the client"
        time.sleep(0.5)
        play.send_signal(signal.SIGTERM)
        play.wait(timeout=30)
        deadline = time.monotonic() + 15
        while any(_alive(pid) for pid in servers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in servers)
    finally:
        if play.poll() is None:
            play.kill()
            play.wait()

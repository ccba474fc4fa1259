"""`sprtec serve` nodes of a test cluster: real subprocesses on loopback ports, sharing one Redis and one PostgreSQL.

Why subprocesses: a node's death is a process's death (kill -9), and a node's leases, heartbeats and takeovers run
on its own event loop and clock, as in production.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from benchmarks import local_services as servers

ROOT = Path(__file__).resolve().parents[2]
SHORT = {"period_ms": 4000, "move_clock_ms": 2000, "choice_timeout_ms": 500, "break_ms": 0,
         "disconnect_grace_ms": 30000}  # a short match whose coaches may be away long enough for a takeover


@dataclass
class Node:
    """A running node: its id, URL, process and log file."""

    node_id: str
    url: str
    process: subprocess.Popen[str]
    log: Path

    def kill(self) -> None:
        """kill -9: no goodbye, no released lease."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """SIGTERM (a graceful drain), then SIGKILL of whatever is left."""
        servers.end_process(self.process, signal.SIGTERM)  # type: ignore[arg-type]

    def tail(self, lines: int = 30) -> str:
        """The log's last lines, for a failure message."""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def start_node(node_id: str, redis_url: str, postgres_url: str, logs: Path, *options: str) -> Node:
    """``sprtec serve --port 0`` as node ``node_id`` of the cluster (with more ``options``), once it prints its URL."""
    log = logs / f"{node_id}.log"
    command = [sys.executable, "-m", "sprtec", "serve", "--port", "0", "--workers", "0", "--redis", redis_url,
               "--postgres", postgres_url, "--node-id", node_id, "--log-level", "INFO", *options]
    with log.open("w") as err:
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=err, text=True,
                                   start_new_session=True)
    assert process.stdout is not None
    url = process.stdout.readline().strip()
    assert url.startswith("ws://"), log.read_text()
    return Node(node_id, url, process, log)

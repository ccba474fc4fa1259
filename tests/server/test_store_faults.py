"""The store's disk failing under a running server: a real small file system filled up, the database file deleted
and replaced, and a data directory that cannot be used at start (damaged, missing, on a read-only file system).

Why real file systems: the failures that froze the whole server came from the kernel (ENOSPC, EROFS) through
SQLite, so the tests make them for real - a 3 MiB tmpfs the test mounts (root is needed; the test skips otherwise,
saying so) - and play through a real server over websockets on port 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from client.player.practice import ServerProcess
from server.app import Server, ServerConfig
from server.store.sqlite.sqlite_store import DATABASE, SqliteStore
from shared.model import Flick
from shared.protocol import Act, CloseCode, CreateRoom, Error, Hello, JoinRoom, MovePlayed, Notice, RoomJoined, Snapshot
from tests.server.players import WireClient, two_coaches

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = {"period_ms": 600_000, "move_clock_ms": 120_000, "disconnect_grace_ms": 120_000}


@contextlib.contextmanager
def small_disk(where: Path, size: str = "3m") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` for the test (skips without the right to mount)."""
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs ({done.stderr.decode().strip() or 'not root'}): run the tests as root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(disk: Path) -> Path:
    """Fill the file system up to its last byte with one file; returns it (delete it to free the disk)."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as out:
        chunk = b"\0" * 65536
        with contextlib.suppress(OSError):
            while True:
                out.write(chunk)
        with contextlib.suppress(OSError):
            while True:
                out.write(b"\0")
    return filler


@pytest.fixture
async def disk_server(tmp_path: Path) -> AsyncIterator[tuple[Server, Path]]:
    """A server (physics in-line) whose data directory is on a small tmpfs."""
    with small_disk(tmp_path / "disk") as disk:
        server = Server(ServerConfig(port=0, data_dir=disk / "data", workers=0))
        await server.start()
        try:
            yield server, disk
        finally:
            await server.shutdown()


async def _match(server: Server) -> tuple[WireClient, WireClient]:
    """Ann and Bob in a private room whose match has started."""
    return await two_coaches(server.url, "standard", SETTINGS)


def _mover(ann: WireClient, bob: WireClient) -> WireClient:
    """The coach whose team is to move."""
    return ann if ann.my_turn() else bob


async def test_a_full_disk_pauses_play_refuses_actions_and_resumes_with_nothing_lost(
    disk_server: tuple[Server, Path],
):
    """With the disk full a move waits and everyone is told PLAY_PAUSED; other actions get STORE_UNAVAILABLE and
    new players 1013; once the disk is freed the waiting move is broadcast, PLAY_RESUMED, and the log has it."""
    server, disk = disk_server
    ann, bob = await _match(server)
    filler = fill(disk)
    mover = _mover(ann, bob)
    await mover.send(mover.flick())  # the move whose commit meets the full disk
    paused = await ann.until(Notice)
    assert paused.code == "PLAY_PAUSED" and "full" in paused.message
    other = bob if mover is ann else ann
    assert other.position is not None and other.team is not None
    stone = next(s.id for s in other.position.stones if s.team == other.team)
    await other.send(Act(Flick(other.team, stone, 1500.0, 0.0), other.version))
    refused = await other.until(Error)
    assert refused.code == "STORE_UNAVAILABLE" and refused.ref == "Act"
    room = server.lobby.find(ann.code)
    assert room.clocks().paused and not server.store.health.ok
    with pytest.raises(ConnectionClosed) as closed:  # a new player cannot be stored: try again later
        await WireClient.connect(server.url, "cy")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.TRY_AGAIN_LATER
    await asyncio.sleep(0.3)
    assert server.store.log(room.match.id) == []  # nothing was acknowledged while the disk was full ...
    assert not [m for m in ann.received if isinstance(m, MovePlayed)]  # ... nor shown to anyone
    filler.unlink()
    seen: list[object] = []
    while not (any(isinstance(m, MovePlayed) for m in seen) and any(isinstance(m, Notice) for m in seen)):
        seen.append(await ann.recv())
    resumed = next(m for m in seen if isinstance(m, Notice))
    played = next(m for m in seen if isinstance(m, MovePlayed))
    assert resumed.code == "PLAY_RESUMED"
    assert played.team == mover.team and played.version == ann.version  # the waiting move, committed and sent
    assert not room.clocks().paused and server.store.health.ok
    assert [e.index for e in server.store.log(room.match.id)] == [0]


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_database_deleted_or_replaced_under_the_server_stops_play_loudly(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture
):
    """The file's identity changes: nothing is written into it, everyone is told to wait for a restart, actions
    are refused, and the log says so at CRITICAL."""
    data = tmp_path / "data"
    server = Server(ServerConfig(port=0, data_dir=data, workers=0))
    await server.start()
    try:
        ann, bob = await _match(server)
        database = data / DATABASE
        if how == "deleted":
            database.unlink()
        else:
            other = tmp_path / "other.sqlite3"
            sqlite3.connect(other).close()
            os.replace(other, database)
        mover = _mover(ann, bob)
        await mover.send(mover.flick())
        notice = await ann.until(Notice)
        assert notice.code == "PLAY_PAUSED" and "restart" in notice.message
        refused = await mover.until(Error)
        assert refused.code == "STORE_UNAVAILABLE"
        assert server.store.health.lost
        assert any(r.levelname == "CRITICAL" and "deleted or replaced" in r.getMessage() for r in caplog.records)
    finally:
        await server.shutdown()


def _serve(data: Path) -> subprocess.CompletedProcess[str]:
    """``sprtec serve --data DIR --port 0`` that is expected to refuse to start (killed after 20 s otherwise)."""
    command = [sys.executable, "-m", "sprtec", "serve", "--port", "0", "--data", str(data), "--workers", "0"]
    return subprocess.run(command, capture_output=True, text=True, timeout=20, cwd=ROOT)


def test_a_corrupt_database_gives_one_clear_line_and_a_non_zero_exit(tmp_path: Path):
    """Garbage where the database should be: exit 1, one line naming the file and what to do, no traceback."""
    data = tmp_path / "data"
    data.mkdir()
    (data / DATABASE).write_bytes(b"this is not a database" * 100)
    done = _serve(data)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and str(data / DATABASE) in line and "backup" in line


def test_a_data_directory_that_held_matches_never_starts_empty(tmp_path: Path):
    """The database deleted while the server was down: start refused (its marker says a database was there)."""
    data = tmp_path / "data"
    SqliteStore(data).close()
    (data / DATABASE).unlink()
    done = _serve(data)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "missing" in done.stderr and "backup" in done.stderr
    assert not (data / DATABASE).exists()


def test_a_read_only_data_directory_gives_one_clear_line(tmp_path: Path):
    """A data directory on a read-only file system: exit 1 with a line that says it is read-only."""
    with small_disk(tmp_path / "disk") as disk:
        SqliteStore(disk / "data").close()
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        done = _serve(disk / "data")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "read-only" in done.stderr, done.stderr


@pytest.mark.slow
async def test_sigterm_exits_within_seconds_while_the_disk_is_full(tmp_path: Path):
    """A server whose writes wait for a full disk still stops on SIGTERM within a few seconds."""
    with small_disk(tmp_path / "disk") as disk:
        server = ServerProcess(disk / "data", workers=0)
        server.start()
        url = await asyncio.to_thread(server.wait, 30)
        assert server.process is not None and url is not None, server.error
        try:
            ann = await WireClient.connect(url, "ann")
            await ann.send(CreateRoom("standard", SETTINGS, True))
            await ann.until(RoomJoined)
            bob = await WireClient.connect(url, "bob")
            await bob.send(JoinRoom(ann.code))
            await bob.until(RoomJoined)
            for coach in (ann, bob):
                await coach.until(Snapshot)
            fill(disk)
            mover = _mover(ann, bob)
            await mover.send(mover.flick())
            assert (await ann.until(Notice)).code == "PLAY_PAUSED"
            started = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            code = await asyncio.to_thread(server.process.wait, 30)
            assert time.monotonic() - started < 10 and code == 0
        finally:
            if server.process.poll() is None:
                server.process.kill()


async def test_hello_before_anything_else_is_still_required_while_the_disk_is_full(
    disk_server: tuple[Server, Path],
):
    """A returning player (a token) is welcomed while the disk is full: only new players wait for it."""
    server, disk = disk_server
    ann = await WireClient.connect(server.url, "ann")
    fill(disk)
    again = await WireClient.connect(server.url, token=ann.token)
    assert again.welcome.player == "ann"
    await again.send(Hello(1, "tests"))  # a second Hello is still a protocol violation
    with pytest.raises(ConnectionClosed):
        await again.recv()
    assert again.ws.close_code == CloseCode.PROTOCOL_ERROR

"""Recovery takes each match's position from its last log row without any physics; a log written before entries
kept their positions is still folded from its latest checkpoint, to the same match; rows that kept them in the older
compressed JSON still read, and a row that cannot be read is folded instead."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from server.app import Server, ServerConfig
from shared import match_log, notation
from shared.match_log import LogEntry
from shared.model import Position
from shared.protocol import Snapshot
from tests.server.players import WireClient, play_until_end, two_coaches

SETTINGS = {"period_ms": 600_000, "move_clock_ms": 60_000, "disconnect_grace_ms": 60_000}


async def _started(data: Path, postgres: str | None = None) -> tuple[Server, WireClient, WireClient]:
    """A server on ``data`` with a match just started between Ann (home) and Bob."""
    first = Server(ServerConfig(port=0, data_dir=data, workers=0, postgres=postgres))
    await first.start()
    ann, bob = await two_coaches(first.url, "standard", SETTINGS, started=False)
    return first, ann, bob


async def _played(data: Path, postgres: str | None = None) -> tuple[str, Position, int, int]:
    """A match of at least five entries, then the server stopped: its room code, position, log length, move clock."""
    first, ann, bob = await _started(data, postgres)
    await asyncio.wait_for(asyncio.gather(play_until_end(ann, 5), play_until_end(bob, 5)), 60)
    room = first.lobby.find(ann.code)
    await first.shutdown()  # waits for an entry in flight; the room then holds exactly what was committed
    assert room.match.log_len >= 5
    return ann.code, room.match.position, room.match.log_len, room.match.turn_used


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the entries every replay through the fold is given."""
    replayed: list[int] = []
    real_replay = match_log.replay

    def counting_replay(initial: Position, entries: list[LogEntry], turn_used: int = 0) -> tuple[Position, int]:
        replayed.append(len(entries))
        return real_replay(initial, entries, turn_used)

    monkeypatch.setattr(match_log, "replay", counting_replay)
    return replayed


async def _recovered(data: Path, code: str, postgres: str | None = None) -> tuple[Position, int, int]:
    """Start a server on the data, and the recovered match's position, log length and move clock."""
    second = Server(ServerConfig(port=0, data_dir=data, workers=0, postgres=postgres))
    try:
        await second.start()
        await second.ready.wait()
        again = second.lobby.find(code)
        return again.match.position, again.match.log_len, again.match.turn_used
    finally:
        await second.shutdown()


async def test_a_restart_reads_the_last_position_and_replays_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store_url: str | None
):
    """Every entry kept its position: the restarted server is at the same position with no replay at all (SQLite or
    PostgreSQL)."""
    data = tmp_path / "data"
    code, before, logged, turn_used = await _played(data, store_url)
    replayed = _counting(monkeypatch)
    position, count, used = await _recovered(data, code, store_url)
    assert replayed == []
    assert notation.position_to_json(position) == notation.position_to_json(before)
    assert (count, used) == (logged, turn_used)


async def test_a_match_that_has_no_entry_yet_restarts_at_its_start_without_reading_a_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store_url: str | None
):
    """A match started but not yet moved in (a quick match just paired): the restarted server has it at its first
    position and version, reads no checkpoint and no log for it and replays nothing (SQLite or PostgreSQL)."""
    from server.store.store_base import StoreBase

    data = tmp_path / "data"
    first, ann, _ = await _started(data, store_url)
    await ann.until(Snapshot)  # the match's first Snapshot goes out once the match is stored
    room = first.lobby.find(ann.code)
    start, version = room.match.position, room.core.version
    await first.shutdown()
    replayed = _counting(monkeypatch)
    read_logs: list[str] = []
    real_log = StoreBase.log

    def counting_log(self: StoreBase, match_id: str, since: int = 0) -> list[LogEntry]:
        read_logs.append(match_id)
        return real_log(self, match_id, since)

    monkeypatch.setattr(StoreBase, "log", counting_log)
    second = Server(ServerConfig(port=0, data_dir=data, workers=0, postgres=store_url))
    try:
        await second.start()
        await second.ready.wait()
        again = second.lobby.find(ann.code)
        assert (again.match.log_len, again.core.version, again.status) == (0, version, "playing")
        assert notation.position_to_json(again.match.position) == notation.position_to_json(start)
    finally:
        await second.shutdown()
    assert replayed == [] and read_logs == []


async def test_a_log_without_kept_positions_replays_from_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A log of an older server (no positions in its rows, a checkpoint after its second entry): only the entries
    after the checkpoint are replayed, and the match is the same as a replay of the whole log."""
    import json

    from server.store.sqlite.sqlite_store import SqliteStore

    data = tmp_path / "data"
    code, before, logged, turn_used = await _played(data)
    store = SqliteStore(data)
    try:
        (match_id,) = [str(r[0]) for r in store.read("SELECT id FROM matches")]
        stored = store.match(match_id)
        assert stored is not None
        at, used_at = match_log.replay(notation.position_from_json(stored.initial_position), store.log(match_id)[:2])
    finally:
        store.close()
    with sqlite3.connect(data / "sprtec.sqlite3") as conn:
        conn.execute("UPDATE match_log SET position = NULL, turn_used = NULL")
        conn.execute("INSERT INTO checkpoints (match_id, idx, position, turn_used) VALUES (?, 2, ?, ?)",
                     (match_id, json.dumps(notation.position_to_json(at)), used_at))
    replayed = _counting(monkeypatch)
    position, count, used = await _recovered(data, code)
    assert replayed == [logged - 2]
    assert notation.position_to_json(position) == notation.position_to_json(before)
    assert (count, used) == (logged, turn_used)


async def test_rows_kept_by_an_older_server_as_compressed_json_are_read_and_verified(tmp_path: Path,
                                                                                     monkeypatch: pytest.MonkeyPatch):
    """A database whose rows kept their positions as SCENARIOS.md JSON compressed with zlib (the older form) opens:
    the restart takes the last row's position without a replay, and `sprtec verify` proves every row."""
    import json
    import zlib

    from server.replays.verification import verify_match
    from server.store.position_blob import PACKED, unpack
    from server.store.sqlite.sqlite_store import SqliteStore

    data = tmp_path / "data"
    code, before, logged, turn_used = await _played(data)
    with sqlite3.connect(data / "sprtec.sqlite3") as conn:
        rows = conn.execute("SELECT rowid, position FROM match_log").fetchall()
        assert rows and all(bytes(blob)[:1] == PACKED for _, blob in rows)
        for rowid, blob in rows:
            text = json.dumps(notation.position_json(unpack(bytes(blob))), separators=(",", ":"), sort_keys=True)
            conn.execute("UPDATE match_log SET position = ? WHERE rowid = ?", (zlib.compress(text.encode()), rowid))
    store = SqliteStore(data)
    try:
        (match_id,) = [str(r[0]) for r in store.read("SELECT id FROM matches")]
        verdict = verify_match(store, match_id)
        assert verdict.problem is None and verdict.compared == logged
    finally:
        store.close()
    replayed = _counting(monkeypatch)
    position, count, used = await _recovered(data, code)
    assert replayed == [] and position == before and (count, used) == (logged, turn_used)


async def test_a_last_row_whose_position_cannot_be_read_is_folded_from_the_log(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch):
    """A damaged kept position does not stop the restart: that match's log is folded, to the same match."""
    data = tmp_path / "data"
    code, before, logged, turn_used = await _played(data)
    with sqlite3.connect(data / "sprtec.sqlite3") as conn:
        conn.execute("UPDATE match_log SET position = ? WHERE idx = (SELECT MAX(idx) FROM match_log)", (b"\x01\xc1",))
    replayed = _counting(monkeypatch)
    position, count, used = await _recovered(data, code)
    assert replayed == [logged] and position == before and (count, used) == (logged, turn_used)


def test_sprtec_verify_proves_the_kept_positions_and_finds_a_forged_one(tmp_path: Path):
    """`sprtec verify` agrees with a played match; after one kept position is replaced by another one, or damaged, it
    names that entry and exits 1."""
    import subprocess
    import sys

    from server.store import position_blob

    data = tmp_path / "data"
    asyncio.run(_played(data))
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "sprtec", "verify", "--data", str(data)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=root)
    assert done.returncode == 0 and "all agree" in done.stdout, done.stdout + done.stderr
    with sqlite3.connect(data / "sprtec.sqlite3") as conn:
        (blob,) = conn.execute("SELECT position FROM match_log WHERE idx = 0").fetchone()
        forged = position_blob.pack(position_blob.unpack(blob).__class__(seed=1))
        conn.execute("UPDATE match_log SET position = ? WHERE idx = 2", (forged,))
    done = subprocess.run(command, capture_output=True, text=True, cwd=root)
    assert done.returncode == 1 and "entry 2" in done.stdout, done.stdout + done.stderr
    with sqlite3.connect(data / "sprtec.sqlite3") as conn:
        conn.execute("UPDATE match_log SET position = ? WHERE idx = 1", (b"\x01\xc1",))  # damaged: not msgpack
    done = subprocess.run(command, capture_output=True, text=True, cwd=root)
    assert done.returncode == 1 and "entry 1: the kept position cannot be read" in done.stdout, done.stdout


def _completed_connections(port: int, count: int, wait_s: float) -> int:
    """Open ``count`` TCP connections to ``port`` at once without anyone accepting them (the caller holds the event
    loop), and count those the kernel completed within ``wait_s``: the listening socket's queue holds them."""
    import select
    import socket
    import time

    sockets = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", port))
            sockets.append(s)
        done: set[int] = set()
        deadline = time.monotonic() + wait_s
        while len(done) < count and time.monotonic() < deadline:
            waiting = [s for s in sockets if s.fileno() not in done]
            _, writable, _ = select.select([], waiting[:1000], [], 0.05)
            done.update(s.fileno() for s in writable if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0)
        return len(done)
    finally:
        for s in sockets:
            s.close()


async def test_every_coach_of_a_restart_coming_back_at_once_is_queued_by_the_kernel_not_dropped(tmp_path: Path) -> None:
    """After a restart the coaches of every live match come back at the same moment: while the loop is busy (here:
    held), their connections wait complete in the listening socket's queue - none loses its SYN and waits a second
    for TCP to send it again (asyncio's default queue held 100)."""
    server = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0))
    await server.start()
    try:
        assert _completed_connections(server.port, 500, 0.5) == 500  # within the default descriptor limit of 1024
    finally:
        await server.shutdown()

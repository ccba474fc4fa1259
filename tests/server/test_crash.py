"""The server as a subprocess: killed with SIGKILL mid-match, restarted on the same data, the match resumes; its
physics workers die with it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from client.player.practice import ServerProcess
from server.constants import CLOSE_REASON_SHUTDOWN
from shared import notation
from shared.protocol import CloseCode, CreateRoom, JoinRoom, RoomJoined
from tests.server.players import WireClient, play_until_end

CRASH_SETTINGS = {"period_ms": 6000, "move_clock_ms": 4000, "disconnect_grace_ms": 20000}


async def _start(data: Path) -> tuple[subprocess.Popen[str], str]:
    """``python -m sprtec serve --port 0 --data DIR``; returns the process and the URL from its first line."""
    server = ServerProcess(data, workers=1)
    server.start()
    url = await asyncio.to_thread(server.wait, 30)
    assert server.process is not None and url is not None, server.error
    return server.process, url


@pytest.mark.slow
async def test_sigkill_mid_match_then_restart_resumes_the_same_position_and_finishes(tmp_path: Path):
    """After kill -9 the restarted server has the last acknowledged position; the coaches come back and finish."""
    data = tmp_path / "data"
    proc, url = await _start(data)
    try:
        ann = await WireClient.connect(url, "ann")
        await ann.send(CreateRoom("quick", CRASH_SETTINGS, True))
        await ann.until(RoomJoined)
        bob = await WireClient.connect(url, "bob")
        await bob.send(JoinRoom(ann.code))
        await bob.until(RoomJoined)
        await asyncio.wait_for(asyncio.gather(play_until_end(ann, 2), play_until_end(bob, 2)), 30)
        while bob.version < ann.version:
            await bob.recv()
        while ann.version < bob.version:
            await ann.recv()
        assert ann.position is not None
        before = notation.position_to_json(ann.position)
        version = ann.version
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    proc, url = await _start(data)
    try:
        again = {}
        for old in (ann, bob):
            client = await WireClient.connect(url, token=old.token)
            await client.send(JoinRoom(old.code))
            joined = await client.until(RoomJoined)
            assert joined.seat == old.team
            assert notation.position_to_json(joined.snapshot.position) == before
            assert joined.snapshot.version == version
            again[old.team] = client
        await asyncio.wait_for(asyncio.gather(*(play_until_end(c) for c in again.values())), 40)
        home, away = again["home"], again["away"]
        assert home.ended is not None and home.ended == away.ended
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(proc.wait, 20) == 0
        for client in (home, away):
            await asyncio.wait_for(client.ws.wait_closed(), 10)
            assert client.ws.close_code == CloseCode.GOING_AWAY
            assert client.ws.close_reason == CLOSE_REASON_SHUTDOWN
    finally:
        if proc.poll() is None:
            proc.kill()


LONG_LOG = 400  # entries of a match a physics worker folds for over a second (~3 ms each)
LEGACY_SETTINGS: dict[str, object] = {"period_ms": 3_600_000, "move_clock_ms": 0}


async def _legacy_match(data: Path) -> int:
    """A data directory with one unfinished match of LONG_LOG entries that kept no positions and no checkpoint (an
    older server's log): a server started on it folds the whole log in a physics worker. Returns the entries."""
    from server.store import match_statements
    from server.store.match_records import MatchStart, RoomRow
    from server.store.player_records import PlayerRecords
    from server.store.sqlite.sqlite_store import SqliteStore
    from server.tokens import bare_hash
    from shared import match_log
    from shared.ai import random_policy
    from shared.match_log import LogEntry

    initial = position = match_log.new_match("standard", LEGACY_SETTINGS, 5)
    entries: list[LogEntry] = []
    while len(entries) < LONG_LOG and position.result is None:
        action = next(a for a in (random_policy(position, "home"), random_policy(position, "away")) if a is not None)
        entry = LogEntry(index=len(entries), elapsed_ms=100, input=action)
        position = match_log.apply_entry(position, entry).position
        entries.append(entry)
    store = SqliteStore(data)
    try:
        home, away = store.new_player_id(), store.new_player_id()
        await store.write(PlayerRecords.add_player(home, "ann", "ann", bare_hash("ann")))
        await store.write(PlayerRecords.add_player(away, "bob", "bob", bare_hash("bob")))
        start = MatchStart(match_id="legacy000001", room_code="LEGACY", seed=5, ruleset="standard",
                           overrides=LEGACY_SETTINGS, initial=initial, home_player=home, away_player=away,
                           version_base=1)
        room = RoomRow(code="LEGACY", ruleset="standard", overrides=LEGACY_SETTINGS, private=True, home_player=home,
                       away_player=away, match_id=start.match_id)
        await store.write(match_statements.statements((start, room))
                          + [match_statements.append_log(start.match_id, e) for e in entries])
    finally:
        store.close()
    return len(entries)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process tree from /proc")
async def test_physics_workers_die_with_a_server_killed_mid_job(tmp_path: Path):
    """`sprtec serve --workers 1` starts folding a long log in its worker and is killed with -9 in the middle: the
    worker does not finish the job first - it is gone within 0.5 s of its server."""
    data = tmp_path / "data"
    assert await _legacy_match(data) == LONG_LOG
    command = [sys.executable, "-m", "sprtec", "serve", "--port", "0", "--data", str(data), "--workers", "1"]
    process = subprocess.Popen(command, cwd=Path(__file__).resolve().parents[2], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        assert process.stdout is not None and process.stdout.readline().startswith("ws://")
        workers: list[int] = []
        for _ in range(300):  # the fork server starts, then forks the worker, which takes the fold at once
            workers = [w for forkserver in _children(process.pid) for w in _children(forkserver)]
            if workers:
                break
            await asyncio.sleep(0.02)
        assert workers, "no physics worker started"
        await asyncio.sleep(0.4)  # the worker is folding the log now (it takes over a second)
        assert all(_running(worker) for worker in workers)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        killed = time.monotonic()
        while any(_running(worker) for worker in workers) and time.monotonic() - killed < 10:
            await asyncio.sleep(0.01)
        lasted = time.monotonic() - killed
        assert lasted < 0.5, f"the physics workers lived {lasted:.2f} s after their server"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()

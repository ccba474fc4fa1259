"""The server as a subprocess: killed with SIGKILL mid-match, restarted on the same data, the match resumes."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from pathlib import Path

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

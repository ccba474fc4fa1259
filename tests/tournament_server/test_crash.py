"""kill -9 in the middle of a round: on restart on the same data the tournament resumes, its running match goes on in
its recovered room, the table that had not started is opened again, the round completes, and nothing recorded is
lost."""

from __future__ import annotations

import asyncio
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

from server.store.sqlite.data_reader import ReadOnlyData
from server.tournaments import tournament_records as records
from server.tournaments.log import RefereesAssigned, ResultSet, RoundStarted, Row, TableOpened
from shared.protocol import (
    CheckIn,
    EnterResult,
    JoinRoom,
    JoinTournament,
    RoomJoined,
    Score,
    StartRound,
    TableAssigned,
    TournamentDone,
    TournamentJoined,
    TournamentUpdate,
    WatchTournament,
)
from sprtec.commands.tournament_actions import create
from sprtec.commands.tournament_client import Connection
from sprtec.commands.tournament_coach import CoachOptions, coach
from tests.server.players import WireClient, play_until_end
from tests.tournament_server.helpers import expect, file_of

ROOT = Path(__file__).resolve().parents[2]
LONG = {"periods": 1, "period_ms": 12_000, "break_ms": 0, "move_clock_ms": 3000}


def _free_port() -> int:
    """A TCP port nothing listens on now (the server must come back on the same one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(data: Path, port: int) -> subprocess.Popen[str]:
    """``sprtec serve`` on ``port``, once it prints its URL."""
    command = [sys.executable, "-m", "sprtec", "serve", "--port", str(port), "--data", str(data), "--workers", "0",
               "--log-level", "WARNING"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    assert process.stdout.readline().startswith("ws://")
    return process


def _log(data: Path, tid: str) -> list[Row]:
    """The tournament's log as committed, read from another process."""
    reader = ReadOnlyData(data)
    try:
        return records.log(reader, tid)
    finally:
        reader.close()


def _moves(data: Path, match_id: str) -> int:
    """Entries committed in a match's log."""
    with sqlite3.connect(f"file:{data / 'sprtec.sqlite3'}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM match_log WHERE match_id = ?", (match_id,)).fetchone()[0])


async def _wait(check: object, timeout: float = 60) -> object:
    """Poll ``check()`` until it returns something true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()  # type: ignore[operator]
        if found:
            return found
        await asyncio.sleep(0.2)
    raise AssertionError(f"nothing after {timeout} s")


@pytest.mark.slow
async def test_a_round_survives_a_kill_9_of_its_server(tmp_path: Path) -> None:
    """Table 1's coaches are bots playing when the server is killed; table 2 waits for a coach who is offline.
    After the restart the bots come back to their recovered match, table 2 gets a new room (TableAssigned to the
    returning coach after his Welcome), both results come in, and the log before the crash is the start of the log
    after it."""
    data, port = tmp_path / "data", _free_port()
    url = f"ws://127.0.0.1:{port}/"
    server = _serve(data, port)
    bots: list[asyncio.Task[object]] = []
    try:
        organiser = await Connection.open(url, "organiser")
        file = file_of(4, stages=[{"system": "swiss", "rounds": 1, "ruleset": "standard", "settings": LONG}])
        created, codes = await create(organiser, json.loads(file), no_show_ms=60_000)
        tid = created.tournament
        late = await WireClient.connect(url, "late")
        await late.send(JoinTournament(tid, codes[3].code))
        late_entry = (await expect(late, TournamentJoined)).entry
        await late.send(CheckIn(tid))
        await expect(late, TournamentDone)
        token = late.token
        await late.close()
        bots = [asyncio.create_task(coach(url, tid, CoachOptions(name=f"bot-{c.entry}", code=c.code, level=None)))
                for c in codes[:3]]
        ready = await organiser.ask(WatchTournament(tid), TournamentUpdate)
        while sum(e.checked_in for e in ready.entries) < 4:
            message = await organiser.receive()
            ready = message if isinstance(message, TournamentUpdate) else ready
        await organiser.ask(StartRound(tid, created.secret), TournamentDone)
        opened = {e.event.table: e.event for e in _log(data, tid) if isinstance(e.event, TableOpened)}
        (started,) = [r.event for r in _log(data, tid) if isinstance(r.event, RoundStarted)]
        pairing = started.pairing
        waiting_table = next(m.table for m in pairing.matches if late_entry in (m.home, m.away))
        playing_table = 3 - waiting_table
        playing = opened[playing_table]
        await _wait(lambda: _moves(data, playing.match_id) >= 2)
        before = _log(data, tid)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        server = _serve(data, port)
        returning = await WireClient.connect(url, token=token)
        table = await expect(returning, TableAssigned)
        assert table.table == waiting_table and table.room is not None and table.room != opened[waiting_table].room
        if returning.code != table.room:
            await returning.send(JoinRoom(table.room))
            await expect(returning, RoomJoined)
        await asyncio.wait_for(play_until_end(returning), 90)
        spectator = await Connection.open(url, "after")
        update = await spectator.ask(WatchTournament(tid), TournamentUpdate)
        while update.status != "finished":
            message = await spectator.receive(timeout=90)
            update = message if isinstance(message, TournamentUpdate) else update
        await asyncio.wait_for(asyncio.gather(*bots), 60)
    finally:
        for task in bots:
            task.cancel()
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    after = _log(data, tid)
    assert after[: len(before)] == before
    results = {r.event.table: r.event for r in after if isinstance(r.event, ResultSet)}
    assert results[playing_table].match_id == playing.match_id  # the recovered match, not a new one
    assert results[playing_table].source in ("match", "forfeit")
    reopened = [r.event for r in after if isinstance(r.event, TableOpened) and r.event.table == waiting_table]
    assert len(reopened) == 2 and results[waiting_table].match_id == reopened[1].match_id
    assert update.complete and all(t.status in ("ended", "walkover") for t in update.tables)


@pytest.mark.slow
async def test_a_round_on_boards_survives_a_kill_9_with_its_entries_and_referees(tmp_path: Path) -> None:
    """A round on boards: board 1 entered by the organiser, board 2 by one coach only, then kill -9. After the
    restart the returning coach is told his board again, the other coach's entry is still waiting and his
    confirmation makes it stand, and the referees are the ones drawn before the crash."""
    data, port = tmp_path / "data", _free_port()
    url = f"ws://127.0.0.1:{port}/"
    server = _serve(data, port)
    try:
        organiser = await Connection.open(url, "organiser")
        created, codes = await create(organiser, json.loads(file_of(4)), on_boards=True)
        tid = created.tournament
        coaches: dict[str, WireClient] = {}
        for c in codes:
            coaches[c.entry] = await WireClient.connect(url, f"coach-{c.entry}")
            await coaches[c.entry].send(JoinTournament(tid, c.code))
            await expect(coaches[c.entry], TournamentJoined)
            await coaches[c.entry].send(CheckIn(tid))
            await expect(coaches[c.entry], TournamentDone)
        await organiser.ask(StartRound(tid, created.secret), TournamentDone)
        (started,) = [r.event for r in _log(data, tid) if isinstance(r.event, RoundStarted)]
        _, board2 = started.pairing.matches
        await organiser.ask(EnterResult(tournament=tid, secret=created.secret, table=1, score=Score(3, 1)),
                            TournamentDone)
        first = coaches[board2.home]
        await first.send(EnterResult(tournament=tid, table=2, score=Score(0, 2)))
        await expect(first, TournamentDone)
        referees = [r.event for r in _log(data, tid) if isinstance(r.event, RefereesAssigned)]
        assert len(referees) == 1 and len(referees[0].boards) == 2
        token = coaches[board2.away].token
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        server = _serve(data, port)
        returning = await WireClient.connect(url, token=token)
        told = await expect(returning, TableAssigned)
        assert (told.table, told.on_board, told.room) == (2, True, None)
        await returning.send(EnterResult(tournament=tid, table=2, score=Score(0, 2)))
        await expect(returning, TournamentDone)
        after = _log(data, tid)
        results = [r.event for r in after if isinstance(r.event, ResultSet)]
        assert [(e.table, e.outcome.score, e.source) for e in results] == [(1, (3, 1), "board"), (2, (0, 2), "board")]
        assert [r.event for r in after if isinstance(r.event, RefereesAssigned)] == referees
    finally:
        server.kill()
        server.wait(10)

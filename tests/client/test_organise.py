"""``sprtec organise`` for real: a child process on a temporary data directory with a tournament file starts the LAN
server, creates the tournament with its secret kept as the CLI keeps it, reopens it on a second start, and stops
the server cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import json
import os
import select
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from client.common.local_server import answers
from shared.protocol import ListTournaments, TournamentList, TournamentUpdate, WatchTournament
from sprtec.commands.tournament_client import Connection, secrets_path

ROOT = Path(__file__).resolve().parents[2]
START_S = 60.0
PLAYERS = [("jnovak", "Jan Novák"), ("psvoboda", "Petr Svoboda"), ("tdvorak", "Tomáš Dvořák"),
           ("mcerny", "Martin Černý")]


def tournament_file(folder: Path) -> Path:
    """A four-player Swiss tournament file."""
    path = folder / "cup.json"
    path.write_text(json.dumps({"format": "sprtec-tournament/1", "name": "Pohár organizátora", "seed": 3,
                                "players": [{"id": i, "name": n} for i, n in PLAYERS],
                                "stages": [{"system": "swiss", "rounds": 3}]}, ensure_ascii=False),
                    encoding="utf-8")
    return path


def organise(file: Path, data: Path) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    """``sprtec organise FILE --data DATA --port 0 --no-window`` and the JSON line it prints once ready."""
    child = subprocess.Popen([sys.executable, "-m", "sprtec.cli", "organise", str(file), "--data", str(data),
                              "--port", "0", "--no-window"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    ready, _w, _x = select.select([child.stdout], [], [], START_S)
    if not ready:
        child.kill()
        raise AssertionError("sprtec organise printed nothing")
    return child, json.loads(child.stdout.readline())


def stop(child: subprocess.Popen[str]) -> tuple[int, str]:
    """SIGTERM, as a closed terminal or a service manager sends it; the exit status and standard error."""
    child.send_signal(signal.SIGTERM)
    _out, err = child.communicate(timeout=START_S)
    return child.returncode, err


async def watched(url: str, tournament: str) -> tuple[TournamentUpdate, TournamentList]:
    """The tournament's first update and the server's list of tournaments."""
    connection = await Connection.open(url)
    try:
        update = await connection.ask(WatchTournament(tournament), TournamentUpdate)
        return update, await connection.ask(ListTournaments(), TournamentList)
    finally:
        await connection.close()


@pytest.mark.slow
def test_organise_starts_the_server_creates_the_tournament_and_stops_cleanly(tmp_path: Path) -> None:
    """The server answers, the file's tournament is there with its players, ``sprtec tournament`` acts with the
    kept secret, and SIGTERM stops the server (exit 0, the port closed)."""
    data = tmp_path / "data"
    child, ready = organise(tournament_file(tmp_path), data)
    try:
        url, tid = ready["server"], ready["tournament"]
        assert isinstance(tid, str) and ready["data"] == str(data)
        update, _listing = asyncio.run(watched(url, tid))
        assert update.name == "Pohár organizátora" and sorted(e.entry for e in update.entries) == sorted(
            i for i, _n in PLAYERS)
        assert stat.S_IMODE(os.stat(secrets_path()).st_mode) == 0o600
        checkin = subprocess.run([sys.executable, "-m", "sprtec.cli", "tournament", "checkin", tid, "--server", url,
                                  "jnovak"], cwd=ROOT, capture_output=True, text=True, timeout=START_S)
        assert checkin.returncode == 0, checkin.stderr
    finally:
        status, err = stop(child)
    assert status == 0, err
    assert "server stopped (exit status 0)" in err
    assert not answers(url, 1.0)


def test_organise_again_on_the_same_data_reopens_the_running_tournament(tmp_path: Path) -> None:
    """A second start on the same data directory reopens the tournament it created: no second one."""
    data, file = tmp_path / "data", tournament_file(tmp_path)
    child, first = organise(file, data)
    stop(child)
    child, second = organise(file, data)
    try:
        assert second["tournament"] == first["tournament"]
        update, listing = asyncio.run(watched(second["server"], second["tournament"]))
        assert [t.tournament for t in listing.tournaments] == [first["tournament"]]
        assert update.name == "Pohár organizátora"
    finally:
        status, err = stop(child)
    assert status == 0, err

"""``sprtec bench recovery --matches N``: how long a restarted server takes until every coach of N live matches has
his seat back, and the same data without kept positions (the old way: replaying logs) in the same run.

What is measured: a data directory as a crashed server leaves it - N rooms with unfinished matches of a few moves
each, their players and tokens - is built once (the moves are real: one match is played through the engine, its
log and kept positions are copied for every room under fresh ids), then ``sprtec serve`` is started on it as a child
and 2N coaches connect at once with their tokens (retrying while the port is not open yet); the time from the
start of the child until the last coach's ``RoomJoined`` is the figure. Then the positions are stripped from the log
rows (as an older server wrote them) and the same is measured again: the ratio says what keeping positions buys.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from server.constants import HISTORY_SIZE
from server.player_records import PlayerRecords
from server.position_blob import pack
from server.records import MatchStart, RoomRow
from server.resolve import Stamp, resolve
from server.store import Store
from server.tokens import hash_token, new_secret, player_token
from shared import match as rules
from shared import match_log
from shared.match_log import LogEntry
from shared.model import Flick
from shared.protocol import PROTOCOL_VERSION, SERVER_MESSAGES, Hello, RoomJoined, decode, encode
from shared.rulesets import make_settings

HELP = "time until every coach of N live matches has his seat back after a restart (kept positions vs replays)"
MOVES = 6  # entries of each live match
SETTINGS = {"period_ms": 360_000, "move_clock_ms": 120_000, "disconnect_grace_ms": 120_000}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--matches, --repeat."""
    parser.add_argument("--matches", type=int, default=1000, help="live matches in the data directory (default 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="restarts measured per variant; medians (default 3)")


def _one_match() -> list[tuple[LogEntry, bytes, int]]:
    """A real match of MOVES entries: flicks at the puck through the engine, with each entry's kept position."""
    position = match_log.new_match("standard", dict(SETTINGS), 7)
    settings = make_settings("standard", dict(SETTINGS))
    out, turn_used = [], 0
    for index in range(MOVES):
        team = position.to_move
        stone = position.stone(rules.legal_stones(position, team)[0])
        assert stone is not None
        flick = Flick(team, stone.id, 1500.0 if team == "home" else -1500.0, 40.0 * (index % 3 - 1))
        entry = LogEntry(index=index, elapsed_ms=2000, input=flick)
        stamp = Stamp(code="BENCH", match_id="m", version=index + 2, team=team, turn_used=turn_used, absent=False,
                      settings=settings)
        resolved = resolve(position, entry, stamp)
        assert resolved.entry is not None
        position, turn_used = resolved.position, resolved.turn_used
        out.append((resolved.entry, pack(position), turn_used))
    return out


def build(data: Path, matches: int) -> list[str]:
    """The data directory of a crashed server with ``matches`` live matches; returns every coach's token."""
    store = Store(data)
    tokens: list[str] = []
    log = _one_match()
    initial = match_log.new_match("standard", dict(SETTINGS), 7)
    try:
        for i in range(matches):
            players = []
            for side in ("h", "a"):
                secret = new_secret()
                (pid, _) = store.write_sync(PlayerRecords.add_player(f"{side}{i}", f"{side}{i}", hash_token(secret)))
                players.append(pid)
                tokens.append(player_token(pid, secret))
            code, match_id = f"B{i:05d}", f"{i:012x}"
            statements = [
                Store.save_room(RoomRow(code=code, ruleset="standard", overrides=SETTINGS, private=True,
                                        home_player=players[0], away_player=players[1], match_id=match_id)),
                Store.add_match(MatchStart(match_id=match_id, room_code=code, seed=7, ruleset="standard",
                                           overrides=SETTINGS, initial=initial, home_player=players[0],
                                           away_player=players[1], version_base=1)),
                *(Store.append_log(match_id, entry, blob, used) for entry, blob, used in log),
            ]
            store.write_sync(statements)
    finally:
        store.close()
    return tokens


async def _coach(url: str, token: str) -> None:
    """Connect (again and again while the port is closed) with a token until the RoomJoined arrives."""
    import websockets

    while True:
        try:
            async with websockets.connect(url, compression=None, max_size=2**20, open_timeout=30) as ws:
                await ws.send(encode(Hello(PROTOCOL_VERSION, "bench", token)))
                while True:
                    if isinstance(decode(await ws.recv(), SERVER_MESSAGES, lenient=True), RoomJoined):
                        return
        except OSError:
            await asyncio.sleep(0.02)


def restart(data: Path, tokens: list[str]) -> float:
    """Start ``sprtec serve`` on the data and time it until every coach has his RoomJoined."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"ws://127.0.0.1:{port}/"
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "sprtec", "serve", "--port", str(port), "--data", str(data),
                              "--log-level", "WARNING"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        async def everyone() -> None:
            await asyncio.gather(*(_coach(url, t) for t in tokens))

        asyncio.run(everyone())
        return time.perf_counter() - started
    finally:
        child.terminate()
        child.wait(60)


def run(args: argparse.Namespace) -> int:
    """Build the data once, measure both variants ``--repeat`` times, print medians and the ratio."""
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    work = Path(tempfile.mkdtemp(prefix="sprtec-bench-recovery-"))
    try:
        print(f"building {args.matches} live matches of {MOVES} entries ({2 * args.matches} coaches)...", flush=True)
        tokens = build(work / "data", args.matches)
        shutil.copytree(work / "data", work / "pristine")
        kept = []
        for _ in range(args.repeat):
            shutil.rmtree(work / "data")
            shutil.copytree(work / "pristine", work / "data")
            kept.append(restart(work / "data", tokens))
        with sqlite3.connect(work / "pristine" / "sprtec.sqlite3") as conn:
            conn.execute("UPDATE match_log SET position = NULL, turn_used = NULL")
        replayed = []
        for _ in range(args.repeat):
            shutil.rmtree(work / "data")
            shutil.copytree(work / "pristine", work / "data")
            replayed.append(restart(work / "data", tokens))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    k, r = statistics.median(kept), statistics.median(replayed)
    print(f"restart until every coach has his seat, {args.matches} matches (median of {args.repeat}):")
    print(f"  kept positions (now):      {k:6.2f} s   runs {', '.join(f'{x:.2f}' for x in kept)}")
    print(f"  replaying logs (older):    {r:6.2f} s   runs {', '.join(f'{x:.2f}' for x in replayed)}")
    print(f"  ratio replaying / kept:    {r / k:6.2f}x   (target: kept ≤ 2 s; history kept: {HISTORY_SIZE} versions)")
    return 0

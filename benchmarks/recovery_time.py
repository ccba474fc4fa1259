"""``sprtec bench recovery --matches N``: how long a restarted server takes until every coach of N live matches has
his seat back, and the same data without kept positions (the old way: replaying logs) in the same run.

What is measured: a data directory as a crashed server leaves it - N rooms with unfinished matches of a few moves
each, their players and tokens - is built once (the moves are real: one match is played through the engine, its
log and kept positions are copied for every room under fresh ids), then ``sprtec serve`` is started on it as a child
and 2N coaches connect at once with their tokens as soon as the port is open (one probe retrying every 10 ms says
when); the time from the start of the child until the last coach's ``RoomJoined`` is the figure, and the time
until the port opened is printed beside it. Then the positions are stripped from the log
rows (as an older server wrote them) and the same is measured again: the ratio says what keeping positions buys.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import contextlib
import gc
import resource
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from server.constants import HISTORY_SIZE
from server.rooms.resolve import Stamp, resolve
from server.store import match_statements
from server.store.match_records import MatchStart, RoomRow
from server.store.player_records import PlayerRecords
from server.store.position_blob import pack
from server.store.sqlite.sqlite_store import SqliteStore
from server.tokens import new_secret, player_token
from shared import match as rules
from shared import match_log
from shared.match_log import LogEntry
from shared.model import Flick
from shared.protocol import PROTOCOL_VERSION, Hello, RoomJoined, encode, peek
from shared.rulesets import make_settings

HELP = "time until every coach of N live matches has his seat back after a restart (kept positions vs replays)"
MOVES = 6  # entries of each live match
CPU_TARGET_S = 1.0  # the server's CPU from its start until every coach of 1,000 matches is back
SETTINGS = {"period_ms": 360_000, "move_clock_ms": 120_000, "disconnect_grace_ms": 120_000}
ROOM_JOINED = RoomJoined.__name__  # a frame's "t"


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
    store = SqliteStore(data)
    tokens: list[str] = []
    log = _one_match()
    initial = match_log.new_match("standard", dict(SETTINGS), 7)
    try:
        for i in range(matches):
            players = []
            for side in ("h", "a"):
                secret = new_secret()
                pid = store.new_player_id()
                store.write_sync(PlayerRecords.add_player(pid, f"{side}{i}", f"{side}{i}", store.hasher.hash(secret)))
                players.append(pid)
                tokens.append(player_token(pid, secret))
            code, match_id = f"B{i:05d}", f"{i:012x}"
            statements = [
                match_statements.save_room(RoomRow(code=code, ruleset="standard", overrides=SETTINGS, private=True,
                                        home_player=players[0], away_player=players[1], match_id=match_id)),
                match_statements.add_match(MatchStart(match_id=match_id, room_code=code, seed=7, ruleset="standard",
                                           overrides=SETTINGS, initial=initial, home_player=players[0],
                                           away_player=players[1], version_base=1)),
                *(match_statements.append_log(match_id, entry, blob, used) for entry, blob, used in log),
            ]
            store.write_sync(statements)
    finally:
        store.close()
    return tokens


async def _port_open(port: int) -> None:
    """Return once the port accepts connections (one probe every 10 ms)."""
    while True:
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.01)
            continue
        writer.close()
        return


async def _coach(url: str, token: str, open_port: asyncio.Future[None], stack: contextlib.AsyncExitStack) -> None:
    """Once the port is open, connect with a token (again if refused) until the RoomJoined arrives; the connection
    stays open (in ``stack``) until every coach is back, as a coach's client would keep it."""
    import websockets

    await open_port
    while True:
        try:
            ws = await stack.enter_async_context(
                websockets.connect(url, compression=None, max_size=2**20, open_timeout=30))
            await ws.send(encode(Hello(PROTOCOL_VERSION, "bench", token)))
            while True:  # only the frame's type is read: the coaches' CPU shares the cores with the server's
                frame = await ws.recv()
                if isinstance(frame, bytes) and peek(frame)["t"] == ROOM_JOINED:
                    return
        except OSError:
            await asyncio.sleep(0.05)


@dataclass(frozen=True)
class Restart:
    """One measured restart: until every coach had his seat, until the port opened, and the CPU both sides spent
    until then."""

    seconds: float
    port_open_s: float
    server_cpu_s: float  # the server process and its descendants (the fork server, physics workers), to the last join
    bench_cpu_s: float  # this process: the 2N coaches' connections


def restart(data: Path, tokens: list[str]) -> Restart:
    """Start ``sprtec serve`` on the data and time it until every coach has his RoomJoined; the CPU of the server's
    process tree is read from /proc at that moment (not at its exit: the coaches leaving is no part of a restart)."""
    from benchmarks.server_load import self_cpu, tree_cpu

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"ws://127.0.0.1:{port}/"
    self0 = self_cpu()
    started = time.perf_counter()
    opened_at = [0.0]
    child = subprocess.Popen([sys.executable, "-m", "sprtec", "serve", "--port", str(port), "--data", str(data),
                              "--log-level", "WARNING"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        async def everyone() -> tuple[float, float, float]:
            """Every coach comes back as soon as the port is open (a probe says when: 2N connections retrying
            every few ms while the server starts would take the CPU it starts with). Read at the last RoomJoined,
            before the coaches' connections close (closing 2N of them is no part of a restart): the seconds since
            the start, the server's CPU and the coaches' CPU."""
            open_port = asyncio.ensure_future(_port_open(port))
            open_port.add_done_callback(lambda _: opened_at.__setitem__(0, time.perf_counter() - started))
            async with contextlib.AsyncExitStack() as stack:
                await asyncio.gather(*(_coach(url, t, open_port, stack) for t in tokens))
                return time.perf_counter() - started, tree_cpu(child.pid), self_cpu() - self0

        gc.disable()  # 2N connections made at once: the coaches' full passes over them were a third of their CPU
        try:
            seconds, server_cpu, bench_cpu = asyncio.run(everyone())
        finally:
            gc.enable()
    finally:
        child.terminate()
        child.wait(60)
    return Restart(seconds=seconds, port_open_s=opened_at[0], server_cpu_s=server_cpu, bench_cpu_s=bench_cpu)


def _line(label: str, runs: list[Restart]) -> str:
    """One variant's medians and runs."""
    def median(get: Callable[[Restart], float]) -> float:
        """The median of one figure over the runs."""
        return statistics.median(get(r) for r in runs)

    seconds, port = median(lambda r: r.seconds), median(lambda r: r.port_open_s)
    server, bench = median(lambda r: r.server_cpu_s), median(lambda r: r.bench_cpu_s)
    return (f"  {label:<26}{seconds:6.2f} s   runs {', '.join(f'{r.seconds:.2f}' for r in runs)}; port open after "
            f"{port:.2f} s; CPU until then: server {server:.2f} s (its process tree), the coaches' clients "
            f"{bench:.2f} s")


def compiled_like_an_installation() -> None:
    """The server's modules compiled to bytecode, as an installed package has them: where PYTHONDONTWRITEBYTECODE is
    set, every ``sprtec serve`` would compile its ~350 modules from source first (a few tenths of a second of the
    restart's CPU that a real server never spends)."""
    if sys.dont_write_bytecode:
        for package in ("server", "shared", "sprtec"):
            compileall.compile_dir(Path(__file__).resolve().parents[1] / package, quiet=1)


def run(args: argparse.Namespace) -> int:
    """Build the data once, measure both variants ``--repeat`` times, print medians and the ratio."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    compiled_like_an_installation()
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
    k, r = statistics.median(x.seconds for x in kept), statistics.median(x.seconds for x in replayed)
    print(f"restart until every coach has his seat, {args.matches} matches (median of {args.repeat}):")
    print(_line("kept positions (now):", kept))
    print(_line("replaying logs (older):", replayed))
    cpu = statistics.median(x.server_cpu_s for x in kept)
    print(f"  ratio replaying / kept:    {r / k:6.2f}x   (target: kept ≤ 2 s and ≤ {CPU_TARGET_S:.0f} s of server CPU "
          f"for 1,000 matches: {cpu:.2f} s here for {args.matches}; history kept: {HISTORY_SIZE} versions)")
    return 0

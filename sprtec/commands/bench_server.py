"""``sprtec bench server --matches N``: many concurrent matches of random-flick clients against one server.

Why a benchmark and not a test: it measures what the server costs (flick-to-MovePlayed latency p50/p99,
moves per second, the server process's CPU from /proc) on the machine at hand, against the target of
1000 concurrent matches with a move every ~6 s and p99 under 100 ms. The server runs as a subprocess
(``sprtec serve --port 0``) so its CPU is measured apart from the clients, which all live in this process.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELP = "N concurrent matches of random-flick clients against one server subprocess"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--matches, --duration, --move-every."""
    parser.add_argument("--matches", type=int, default=10, help="concurrent matches (two clients each)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of measurement")
    parser.add_argument("--move-every", type=float, default=6.0, help="seconds between moves in one match")


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its reaped children (the physics workers count too)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(v) for v in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


def _tree_cpu(pid: int) -> float:
    """CPU of the server and all its live descendants (the forkserver and its physics workers)."""
    try:
        total = _cpu_seconds(pid)
        for child in Path(f"/proc/{pid}/task").glob("*/children"):
            for cpid in child.read_text().split():
                total += _tree_cpu(int(cpid))
    except FileNotFoundError:
        return 0.0
    return total


def run(args: argparse.Namespace) -> int:
    """Start the server, run the matches, print the figures."""
    return asyncio.run(_bench(args))


async def _bench(args: argparse.Namespace) -> int:
    """The benchmark proper."""
    import websockets

    from shared import match as rules
    from shared.model import Flick
    from shared.protocol import (
        PROTOCOL_VERSION,
        SERVER_MESSAGES,
        Act,
        CreateRoom,
        Error,
        Hello,
        JoinRoom,
        MovePlayed,
        RoomJoined,
        Snapshot,
        decode,
        encode,
    )

    data = tempfile.mkdtemp(prefix="sprtec-bench-")
    proc = subprocess.Popen(
        [sys.executable, "-m", "sprtec", "serve", "--port", "0", "--data", data],
        stdout=subprocess.PIPE,
        stderr=open(Path(data) / "server.log", "w"),  # lives as long as the server
        text=True,
    )
    assert proc.stdout is not None
    url = (await asyncio.to_thread(proc.stdout.readline)).strip()
    latencies: list[float] = []
    moves = [0]
    errors: dict[str, int] = {}
    settings = {"period_ms": 3_600_000, "move_clock_ms": 60_000}

    async def client(name: str) -> tuple[object, dict]:
        ws = await websockets.connect(url, compression=None, max_size=2**20, open_timeout=60)
        await ws.send(encode(Hello(PROTOCOL_VERSION, "bench", None, name)))
        decode(await ws.recv(), SERVER_MESSAGES)
        return ws, {}

    async def play(ws, state: dict, rng: random.Random, stop: float) -> None:  # type: ignore[no-untyped-def]
        sent_at: dict[int, float] = {}
        async def reader() -> None:
            async for frame in ws:
                msg = decode(frame, SERVER_MESSAGES)
                if isinstance(msg, Error):
                    errors[msg.code] = errors.get(msg.code, 0) + 1
                if isinstance(msg, RoomJoined):
                    state["team"] = msg.seat
                    msg = msg.snapshot
                if isinstance(msg, Snapshot | MovePlayed):
                    state["version"], state["position"] = msg.version, msg.position
                    if isinstance(msg, MovePlayed) and msg.team == state.get("team") and msg.version - 1 in sent_at:
                        latencies.append(time.perf_counter() - sent_at.pop(msg.version - 1))
                        moves[0] += 1
        task = asyncio.create_task(reader())
        await asyncio.sleep(rng.uniform(0, args.move_every))
        while time.monotonic() < stop:
            p = state.get("position")
            team = state.get("team")
            if p is not None and p.result is None and p.to_move == team and p.part.kind == "period":
                stone = rng.choice(rules.legal_stones(p, team))
                vx, vy = rng.uniform(-1500, 1500), rng.uniform(-1500, 1500)
                sent_at[state["version"]] = time.perf_counter()
                await ws.send(encode(Act(Flick(team, stone, vx, vy), state["version"])))
            await asyncio.sleep(args.move_every / 2)
        task.cancel()
        await ws.close()

    rng = random.Random(1)
    pairs = []
    for i in range(args.matches):
        (a, sa), (b, sb) = await client(f"a{i}"), await client(f"b{i}")
        await a.send(encode(CreateRoom("standard", settings, True)))
        joined = decode(await a.recv(), SERVER_MESSAGES)
        while not isinstance(joined, RoomJoined):
            joined = decode(await a.recv(), SERVER_MESSAGES)
        sa.update(team=joined.seat, version=joined.snapshot.version, position=joined.snapshot.position)
        await b.send(encode(JoinRoom(joined.code)))
        pairs.append(((a, sa), (b, sb)))
    cpu0, t0 = _tree_cpu(proc.pid), time.monotonic()
    stop = t0 + args.duration
    await asyncio.gather(*(play(ws, st, random.Random(rng.random()), stop) for pair in pairs for ws, st in pair))
    cpu1, t1 = _tree_cpu(proc.pid), time.monotonic()
    proc.terminate()
    proc.wait(30)
    wall = t1 - t0
    if latencies:
        ordered = sorted(latencies)
        p50 = statistics.median(ordered) * 1000
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    else:
        p50 = p99 = float("nan")
    print(f"matches={args.matches} clients={2 * args.matches} duration={wall:.1f}s move_every={args.move_every}s")
    print(f"moves={moves[0]} moves/s={moves[0] / wall:.1f} latency p50={p50:.1f} ms p99={p99:.1f} ms")
    print(f"refused: {errors}; server log in {data}/server.log")
    print(f"server CPU={100 * (cpu1 - cpu0) / wall:.0f}% of one core (server + physics workers)")
    return 0

"""``sprtec bench web``: the read API under a hall's load - the standings of a 200-player Swiss asked 200 times a
second (target: p99 under 20 ms from connecting to the last byte), each request a connection of its own as a
phone's or a club site's is.

Why this shape: a hall of phones and a few club sites poll the standings of the running tournament; every answer
is the same bytes until the next result, so the server makes them once per version (``server.web.body_cache``)
and the cost that remains is the HTTP exchange on the game's port. The server runs in a child process with the
tournament in it (a 200-player Swiss after six rounds of seeded results, ``benchmarks.tournament_pairing``), and
this process paces the requests on an open loop (request i starts at i / rate s, whether or not the ones before
have finished), spread over many loopback addresses so the per-address limit (``server.connections.address_budgets``) is
not what is measured. A floor is measured in the same run: the same requests to /healthz, the cheapest answer on
the port.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELP = ("The read API's standings of a 200-player Swiss at 200 requests/s, one connection each: p50/p99 latency "
        "(target p99 under 20 ms), against /healthz on the same port.")
TARGET_P99_MS = 20.0
TOURNAMENT = "BENCH1"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--rate, --seconds, --players, --played, --addresses."""
    parser.add_argument("--rate", type=float, default=200.0, help="requests a second (default 200)")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each phase asks (default 10)")
    parser.add_argument("--players", type=int, default=200, help="players in the Swiss (default 200)")
    parser.add_argument("--played", type=int, default=6, help="rounds played (default 6)")
    parser.add_argument("--addresses", type=int, default=64, help="loopback addresses the requests come from")
    parser.add_argument("--serve", default=None, metavar="DIR", help=argparse.SUPPRESS)  # the child: serve from DIR


def run(args: argparse.Namespace) -> int:
    """Start the child server, ask it, report."""
    if args.serve is not None:
        asyncio.run(_serve(args))
        return 0
    with tempfile.TemporaryDirectory(prefix="sprtec-bench-web-") as data:
        child = subprocess.Popen([sys.executable, "-m", "sprtec.cli", "bench", "web", "--serve", data, "--players",
                                  str(args.players), "--played", str(args.played)], stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None
            port = int(child.stdout.readline())
            return asyncio.run(_measure(args, port))
        finally:
            child.terminate()
            child.wait(30)


async def _serve(args: argparse.Namespace) -> None:
    """The child: a server with the tournament adopted, its port on stdout, until terminated."""
    from benchmarks.tournament_pairing import simulated_swiss
    from server.app import Server, ServerConfig
    from server.tournaments.log import Created, Row
    from server.tournaments.service import Running
    from server.tournaments.state import fold
    from server.tournaments.tournament_core import TournamentCore
    from shared.tournament.writing import to_json

    t = simulated_swiss(args.players, args.played, 2026)
    state = fold(TOURNAMENT, [Row(index=0, at_ms=0, actor="organiser",
                                  event=Created(file=to_json(t), no_show_ms=300_000))])
    server = Server(ServerConfig(port=0, data_dir=Path(args.serve), workers=0))
    port = await server.start()
    server.tournaments.adopt(Running(core=TournamentCore(state), secret_hash="-"))
    print(port, flush=True)
    await asyncio.Event().wait()


async def _one(port: int, path: str, source: str) -> tuple[float, int, int]:
    """One GET on a connection of its own: seconds from connecting to the last byte, the status, the body's bytes."""
    began = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    data = await reader.read()
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return time.perf_counter() - began, int(head.split(b" ", 2)[1]), len(body)


async def _phase(args: argparse.Namespace, port: int, path: str) -> list[tuple[float, int, int]]:
    """``rate`` requests a second for ``seconds``, on an open loop."""
    count = int(args.rate * args.seconds)
    start = time.perf_counter()
    tasks = []
    for i in range(count):
        delay = start + i / args.rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(_one(port, path, f"127.0.0.{2 + i % args.addresses}")))
    return await asyncio.gather(*tasks)


def _report(name: str, found: list[tuple[float, int, int]]) -> float:
    """Print one phase's figures; its p99 in ms."""
    times = sorted(t * 1000 for t, _, _ in found)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    statuses = sorted({s for _, s, _ in found})
    print(f"{name}: {len(found)} requests, status {statuses}, {found[0][2]} bytes each; "
          f"p50 {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, max {times[-1]:.1f} ms")
    return p99


async def _measure(args: argparse.Namespace, port: int) -> int:
    """The floor, then the standings; the verdict."""
    path = f"/api/v1/tournaments/{TOURNAMENT}/standings"
    warm = await _one(port, path, "127.0.0.2")
    print(f"{args.players}-player Swiss after {args.played} rounds; standings {warm[2]} bytes "
          f"(first answer {warm[0] * 1000:.1f} ms: ranked and written once); {args.rate:g} requests/s for "
          f"{args.seconds:g} s, one connection each, from {args.addresses} addresses")
    floor = _report("/healthz (floor)", await _phase(args, port, "/healthz"))
    found = await _phase(args, port, path)
    p99 = _report("standings", found)
    ok = all(status == 200 for _, status, _ in found) and p99 < TARGET_P99_MS
    print(json.dumps({"rate": args.rate, "p99_ms": round(p99, 2), "floor_p99_ms": round(floor, 2),
                      "target_p99_ms": TARGET_P99_MS}))
    print(f"{'within' if ok else 'ABOVE'} the {TARGET_P99_MS:g} ms p99 target")
    return 0 if ok else 1

"""``sprtec bench server --cluster``: the clustered mode against the embedded one in the same run, and the time a
killed node's matches take to accept moves elsewhere.

Why both in one run: CPU figures on a shared machine move with its load, so the two modes are measured one after
the other by the same clients at the same offered load (``sprtec bench server``'s ``Bench``): the embedded server
(SQLite) first, then one cluster node (Redis registry, PostgreSQL store). The node's CPU per flick is its process
tree's, as for the embedded server; Redis' and PostgreSQL's CPU over the clustered run is reported beside it,
since in the clustered mode the store's work happens there (the ratio is given both ways; target <= 1.3x).

The takeover: node A runs ``--takeover-matches`` matches whose coaches are connected, node B idles; A is killed with
-9, and every home coach reconnects to B with his token, again and again, until B answers with his seat
(``RoomJoined`` of his running match: the room is rebuilt, owned by B and accepting moves). The time from the kill
to the last such answer is the takeover time (target <= 5 s; the lease is 3 s of it).

Redis and PostgreSQL: ``--redis URL --postgres URL``, or throwaway servers started from the test extra's
wheels (``benchmarks/local_services.py``); every table of the PostgreSQL database given is used as the cluster's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks import server_load as bench_server
from client.player.practice import ServerProcess

TAKEOVER_TARGET_S, RATIO_TARGET = 5.0, 1.3
RECONNECT_PAUSE_S = 0.05  # between a coach's attempts to find his seat on the surviving node


class NodeProcess(ServerProcess):
    """``sprtec serve`` as a node of the bench's cluster."""

    WHAT = "cluster node"

    def __init__(self, node_id: str, redis: str, postgres: str, data: Path, workers: int | None) -> None:
        super().__init__(data, workers, data / f"{node_id}.log", "INFO")  # INFO: its takeovers, timed
        self.node_id, self.redis, self.postgres = node_id, redis, postgres

    def command(self) -> list[str]:
        """The server's command line with the cluster's options."""
        return [*super().command(), "--redis", self.redis, "--postgres", self.postgres, "--node-id", self.node_id]


@contextlib.contextmanager
def _services(args: argparse.Namespace) -> Iterator[tuple[str, str, list[int]]]:
    """Redis' and PostgreSQL's URLs, and their pids when started here (their CPU is counted)."""
    if args.redis and args.postgres:
        yield args.redis, args.postgres, []
        return
    from benchmarks import local_services as servers

    missing = servers.redis_unavailable() or servers.postgres_unavailable()
    if missing:
        raise SystemExit(f"sprtec bench server --cluster: {missing}")
    with servers.redis_server() as redis, servers.postgres_server() as postgres:
        yield redis.url, postgres.url, [redis.process.pid, postgres.process.pid]


def _fresh_database(postgres: str) -> str:
    """A new empty database on the PostgreSQL server of ``postgres``: its URL (each phase starts clean)."""
    import asyncpg

    name = f"bench_{uuid.uuid4().hex[:12]}"

    async def create() -> None:
        """CREATE DATABASE on the server's maintenance database."""
        conn = await asyncpg.connect(postgres)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    asyncio.run(create())
    return postgres.rsplit("/", 1)[0] + f"/{name}"


def _flush(redis: str) -> None:
    """Empty the cluster's Redis (each phase starts clean)."""
    import redis.asyncio as aioredis

    async def flush() -> None:
        """FLUSHALL."""
        client = aioredis.Redis.from_url(redis)
        try:
            await client.flushall()
        finally:
            await client.aclose()

    asyncio.run(flush())


def _start(node: ServerProcess) -> str:
    """Start a server or node; its URL."""
    node.start()
    url = node.wait(bench_server.SERVER_START_S)
    if url is None:
        node.stop()
        raise SystemExit(f"sprtec bench server --cluster: {node.error or 'a node did not answer'}; see {node.log}")
    return url


def run(args: argparse.Namespace) -> int:
    """The embedded run, the clustered run, the takeover; then the comparison."""
    matches = args.matches[0]
    with _services(args) as (redis, postgres, service_pids):
        print(f"== embedded (SQLite), {matches} matches", flush=True)
        embedded = asyncio.run(_measure(args, matches, None))
        print(f"== clustered (one node on Redis + PostgreSQL), {matches} matches", flush=True)
        _flush(redis)
        node = NodeProcess("bench-a", redis, _fresh_database(postgres), Path(tempfile.mkdtemp(prefix="sprtec-")),
                           args.workers)
        url = _start(node)
        assert node.process is not None
        try:
            before = sum(bench_server.tree_cpu(pid) for pid in service_pids)
            clustered = asyncio.run(_measure(args, matches, (url, node.process.pid)))
            services = sum(bench_server.tree_cpu(pid) for pid in service_pids) - before
        finally:
            node.stop(60)
        print(f"== takeover: {args.takeover_matches} matches on a node killed with -9", flush=True)
        _flush(redis)
        takeover = _takeover(args, redis, _fresh_database(postgres))
    _compare(embedded, clustered, services, takeover)
    return 0


async def _measure(args: argparse.Namespace, matches: int, node: tuple[str, int] | None) -> tuple[float, int]:
    """One ``sprtec bench server`` run (the embedded server, or the node at ``node``): (server CPU s, flicks)."""
    url, pid = node if node is not None else (None, None)
    run_args = argparse.Namespace(**{**vars(args), "matches": matches, "url": url, "server_pid": pid,
                                     "spectators": 0})
    server, found, server_pid = await bench_server._start_server(run_args, tempfile.mkdtemp(prefix="sprtec-bench-"))
    bench = bench_server.Bench(run_args, found)
    try:
        cpu, wall, _setup = await bench.play(server_pid)
        await bench.close()
    finally:
        if server is not None:
            await asyncio.to_thread(server.stop, 60)
    flicks = len(bench.tally.latencies)
    ordered = sorted(bench.tally.latencies)
    p99 = 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else float("nan")
    print(f"  {flicks} flicks in {wall:.1f} s, p99 {p99:.1f} ms, server CPU {1000 * cpu.server / max(1, flicks):.2f} "
          f"ms per flick, refused {bench.tally.errors or 'none'}", flush=True)
    return cpu.server, flicks


def _takeover(args: argparse.Namespace, redis: str, postgres: str) -> tuple[float, int]:
    """Kill a node under ``--takeover-matches`` matches: (seconds until every match accepts moves on the other
    node, matches back)."""
    data = Path(tempfile.mkdtemp(prefix="sprtec-takeover-"))
    a = NodeProcess("bench-a", redis, postgres, data, args.workers)
    b = NodeProcess("bench-b", redis, postgres, data, args.workers)
    url_a, url_b = _start(a), _start(b)
    try:
        return asyncio.run(_kill_and_return(args.takeover_matches, url_a, url_b, a))
    finally:
        a.stop(10)
        b.stop(60)


async def _kill_and_return(count: int, url_a: str, url_b: str, a: NodeProcess) -> tuple[float, int]:
    """Set the matches up on A, kill it, and time every home coach back in his running match through B."""
    import websockets

    from shared.protocol import CreateRoom, JoinRoom, encode, peek

    async def welcomed(url: str, name: str | None, token: str | None) -> tuple[Any, dict[str, Any]]:
        """A connection and its Welcome."""
        from shared.protocol import PROTOCOL_VERSION, Hello

        ws = await websockets.connect(url, compression=None, max_size=2**22, open_timeout=60, ping_interval=None)
        await ws.send(encode(Hello(PROTOCOL_VERSION, "bench", token, name)))
        first = await ws.recv()
        return ws, peek(first if isinstance(first, bytes) else first.encode())

    async def one(i: int) -> tuple[str, list[Any]]:
        """Match ``i`` on A: the home coach's token, and both connections."""
        home, welcome = await welcomed(url_a, f"h{i}", None)
        away, _ = await welcomed(url_a, f"v{i}", None)
        await home.send(encode(CreateRoom("standard", bench_server.SETTINGS, True)))
        joined = peek(await home.recv())
        while joined["t"] != "RoomJoined":
            joined = peek(await home.recv())
        await away.send(encode(JoinRoom(joined["code"])))
        while peek(await away.recv())["t"] != "RoomJoined":
            pass
        return str(welcome["token"]), [home, away]

    set_up: list[tuple[str, list[Any]]] = []
    for first in range(0, count, bench_server.CONNECT_BATCH):
        set_up += await asyncio.gather(*(one(i) for i in range(first, min(count, first + bench_server.CONNECT_BATCH))))
    await asyncio.sleep(1.0)  # every match started and stored
    assert a.process is not None
    killed = time.monotonic()
    a.process.send_signal(signal.SIGKILL)

    async def back(token: str) -> float:
        """Reconnect through B until the coach is seated in his running match again: when that happened."""
        while True:
            try:
                ws, _ = await welcomed(url_b, None, token)
                try:
                    message = peek(await asyncio.wait_for(ws.recv(), 10))
                    if message["t"] == "RoomJoined":
                        return time.monotonic()
                finally:
                    await ws.close()
            except (OSError, websockets.exceptions.WebSocketException, TimeoutError):
                pass
            await asyncio.sleep(RECONNECT_PAUSE_S)

    times = await asyncio.gather(*(back(token) for token, _ in set_up))
    for _, connections in set_up:
        for ws in connections:
            with contextlib.suppress(Exception):
                ws.transport.abort()
    return max(times) - killed, len(times)


def _compare(embedded: tuple[float, int], clustered: tuple[float, int], services: float,
             takeover: tuple[float, int]) -> None:
    """The comparison lines."""
    per_embedded = 1000 * embedded[0] / max(1, embedded[1])
    per_node = 1000 * clustered[0] / max(1, clustered[1])
    per_all = 1000 * (clustered[0] + services) / max(1, clustered[1])
    ratio, ratio_all = per_node / per_embedded, per_all / per_embedded
    verdict = "within" if ratio_all <= RATIO_TARGET else "ABOVE"
    print(f"CPU per flick: embedded {per_embedded:.2f} ms; clustered node {per_node:.2f} ms ({ratio:.2f}x), with "
          f"Redis and PostgreSQL {per_all:.2f} ms ({ratio_all:.2f}x, {verdict} the {RATIO_TARGET}x target)")
    seconds, count = takeover
    verdict = "within" if seconds <= TAKEOVER_TARGET_S else "ABOVE"
    print(f"takeover: {count} matches of a killed node accepting moves on the other within {seconds:.2f} s of the "
          f"kill ({verdict} the {TAKEOVER_TARGET_S:.0f} s target; the lease is 3 s of it)", flush=True)
    sys.stdout.flush()

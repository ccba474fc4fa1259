"""``sprtec bench server --matches N``: N concurrent matches of random-flick clients against one server subprocess.

Why a benchmark and not a test: it measures what the server costs on the machine at hand against the target
of 1000 concurrent matches with a move every ~6 s (≈167 moves/s) and a flick-to-MovePlayed p99 under
100 ms: latency from the moment a flick is sent to the moment its MovePlayed arrives at the mover, the
moves resolved per second against the rate asked for, and the CPU of the server *and its physics
workers* (summed over /proc of the process tree), beside the benchmark's own CPU and the machine's.

Why the clients look like this: on a 2-core box the clients share the cores with the server, so they
must cost little next to it. All 2N connections live in this one process, each with one long-lived
reader; frames are read with ``shared.protocol.peek`` (the raw map, a few µs) instead of the full
decode (~1.3 ms per MovePlayed, which alone cost more than the server's event loop); only the mover parses the position
(``notation``) to pick a legal stone. One scheduler paces every match at one flick per ``--move-every``
seconds from a heap of due times, so the offered load is exactly N / move_every flicks per second.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import heapq
import os
import random
import resource
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HELP = "N concurrent matches of random-flick clients against one server subprocess"
SETTINGS = {"period_ms": 3_600_000, "move_clock_ms": 60_000}  # no part ends during a run
KEEPALIVE_S = 30.0  # an idle client pings the server well inside its 60 s idle timeout
CONNECT_BATCH = 50  # handshakes in flight at once while the matches are set up
SERVER_START_S = 120.0  # the server subprocess prints its URL within this (workers start first)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--matches (one or more), --duration, --move-every, --warmup, --workers, --url, --server-pid."""
    parser.add_argument(
        "--matches",
        type=int,
        nargs="+",
        default=[10],
        help="concurrent matches, two clients each (several values: one run each, then a table)",
    )
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of measurement")
    parser.add_argument("--move-every", type=float, default=6.0, help="seconds between flicks in one match")
    parser.add_argument("--warmup", type=float, default=None, help="seconds before measuring (default: move-every)")
    parser.add_argument("--workers", type=int, default=None, help="the server's physics workers (default: cores)")
    parser.add_argument("--url", default=None, help="use a running server (ws://...) instead of starting one")
    parser.add_argument("--server-pid", type=int, default=None, help="with --url: the server's pid, for its CPU")


# ---------------------------------------------------------------------- CPU accounting
def _cpu_seconds(pid: int) -> float:
    """User + system CPU of one process (its own threads; live children are counted separately)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and all its live descendants (the forkserver and the physics workers)."""
    try:
        total = _cpu_seconds(pid)
        children = [int(c) for task in Path(f"/proc/{pid}/task").glob("*/children") for c in task.read_text().split()]
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return total + sum(tree_cpu(c) for c in children)


def own_cpu(pid: int) -> float:
    """CPU seconds of the server process alone (event loop, SQLite writer and executor threads)."""
    try:
        return _cpu_seconds(pid)
    except (FileNotFoundError, ProcessLookupError):
        return 0.0


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine: how much of it anything used (other engineers too)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def self_cpu() -> float:
    """CPU seconds of this benchmark process (the clients)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# ---------------------------------------------------------------------- the clients
@dataclass(frozen=True)
class Cpu:
    """CPU seconds used during the measurement: the server tree, its process alone, the bench, the machine."""

    server: float
    loop: float
    bench: float
    machine_busy: float
    machine_total: float


@dataclass(eq=False)
class Match:
    """Two connections of one room and what the scheduler needs: the version, who moves, the flick in flight."""

    seats: dict[str, Any] = field(default_factory=dict)  # team -> websocket
    version: int = 0
    raw_position: dict[str, Any] | None = None
    prompts: list[dict[str, Any]] = field(default_factory=list)
    sent_version: int | None = None  # the version an action was sent on, awaiting its MovePlayed
    sent_team: str | None = None  # the seat that sent it (its copy of the MovePlayed stops the watch)
    sent_at: float = 0.0
    last_flick: float = float("inf")  # no flick is scheduled before the run starts
    at_rest: float = 0.0  # monotonic s the last move's playback ends: the server refuses input before (D3)


@dataclass
class Tally:
    """What the readers counted (only inside the measurement window when ``measuring``)."""

    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)


def run(args: argparse.Namespace) -> int:
    """One run per ``--matches`` value (a fresh server each), then the summary table of all runs."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 2N client sockets + 2N server sockets
    rows = [asyncio.run(_bench(argparse.Namespace(**{**vars(args), "matches": n}))) for n in args.matches]
    if len(rows) > 1:
        print("\n| matches | flicks/s (asked) | p50 ms | p99 ms | server CPU | of it loop | bench CPU | machine |")
        print("|---|---|---|---|---|---|---|---|")
        for row in rows:
            print(row)
    return 0


async def _bench(args: argparse.Namespace) -> str:
    """The benchmark proper."""
    import websockets

    from client.practice import ServerProcess
    from shared import match as rules
    from shared import notation
    from shared.model import Flick
    from shared.protocol import PROTOCOL_VERSION, Act, CreateRoom, Hello, JoinRoom, Ping, encode, peek

    data = tempfile.mkdtemp(prefix="sprtec-bench-")
    server: ServerProcess | None = None
    if args.url is None:
        server = ServerProcess(Path(data), args.workers, Path(data) / "server.log", "WARNING")
        server.start()
        found = await asyncio.to_thread(server.wait, SERVER_START_S)
        if found is None:
            server.stop()
            raise SystemExit(f"sprtec bench server: {server.error or 'the server did not answer'}; see {data}")
        assert server.process is not None
        url, server_pid = found, server.process.pid
    else:
        url, server_pid = args.url, args.server_pid
    rng = random.Random(1)
    tally = Tally()
    last_sent: dict[Any, float] = {}
    due: list[tuple[float, int, Match]] = []
    wake = asyncio.Event()

    def schedule(m: Match, when: float) -> None:
        """Put ``m``'s next action on the heap of due times and wake the scheduler."""
        heapq.heappush(due, (when, id(m), m))
        wake.set()

    async def send(ws: Any, frame: bytes) -> None:
        """Send one frame, noting when (an idle connection gets a keepalive ping)."""
        last_sent[ws] = time.monotonic()
        await ws.send(frame)

    def on_frame(m: Match, team: str, frame: bytes) -> None:
        """One frame at ``team``'s connection: the sender's copy times its action, the home copy drives the match."""
        msg = peek(frame)
        kind = msg["t"]
        if kind == "RoomJoined":
            msg, kind = msg["snapshot"], "Snapshot"
        if kind == "Error":
            if tally.measuring:
                tally.errors[msg["code"]] = tally.errors.get(msg["code"], 0) + 1
            if m.sent_team == team and m.sent_version is not None:  # refused: try again at the next slot
                m.sent_version = m.sent_team = None
                schedule(m, max(time.monotonic() + args.move_every, m.at_rest))
            return
        if kind not in ("Snapshot", "MovePlayed"):
            return
        if kind == "MovePlayed" and team == m.sent_team and msg["version"] == (m.sent_version or 0) + 1:
            action = msg["action"]
            if tally.measuring and action is not None and action.get("action") == "flick":
                tally.latencies.append(time.perf_counter() - m.sent_at)
            m.sent_version = m.sent_team = None
        if team != "home" or msg["version"] <= m.version:
            return
        m.version, m.raw_position, m.prompts = msg["version"], msg["position"], msg["prompts"]
        if kind == "MovePlayed" and tally.measuring:
            tally.moves += 1
        if kind == "MovePlayed" and msg["trajectory"] is not None:
            m.at_rest = time.monotonic() + msg["trajectory"]["ms"] / 1000
        if msg["position"].get("result") is None:
            schedule(m, max(time.monotonic(), m.last_flick + args.move_every, m.at_rest))

    async def reader(m: Match, team: str, ws: Any) -> None:
        """The one long-lived reader of a connection: every frame to ``on_frame`` until it closes."""
        try:
            async for frame in ws:
                on_frame(m, team, frame)
        except websockets.ConnectionClosed:
            pass

    async def act(m: Match) -> None:
        """The match's next action: a prompt's default if one waits, else a random legal flick by the mover."""
        raw = m.raw_position
        if raw is None or raw.get("result") is not None or m.sent_version is not None:
            return
        for prompt in m.prompts:
            if prompt.get("default") is not None:
                action = notation.action_from_json(prompt["default"])
                m.sent_version, m.sent_team, m.sent_at = m.version, prompt["team"], time.perf_counter()
                await send(m.seats[prompt["team"]], encode(Act(action, m.version)))
                return
        position = notation.position_from_json(raw)
        if position.part.kind not in ("period", "overtime"):
            return  # a break: the server's clock event will move the match on
        team = position.to_move
        stone = rng.choice(rules.legal_stones(position, team))
        flick = Flick(team, stone, rng.uniform(-1500, 1500), rng.uniform(-1500, 1500))
        m.sent_version, m.sent_team, m.sent_at = m.version, team, time.perf_counter()
        m.last_flick = time.monotonic()
        await send(m.seats[team], encode(Act(flick, m.version)))

    async def scheduler(stop: float) -> None:
        """Act for every match whose time has come and ping idle connections, until ``stop``."""
        ping = encode(Ping(1))
        next_keepalive = time.monotonic() + KEEPALIVE_S / 2
        while time.monotonic() < stop:
            now = time.monotonic()
            while due and due[0][0] <= now:
                _, _, m = heapq.heappop(due)
                await act(m)
            if now >= next_keepalive:
                next_keepalive = now + KEEPALIVE_S / 2
                for ws, at in list(last_sent.items()):
                    if now - at > KEEPALIVE_S:
                        await send(ws, ping)
            wake.clear()
            timeout = min(due[0][0] - now if due else 1.0, 1.0)
            try:
                await asyncio.wait_for(wake.wait(), max(timeout, 0.0))
            except TimeoutError:
                pass

    async def client(name: str) -> Any:
        """A welcomed connection named ``name``."""
        ws = await websockets.connect(url, compression=None, max_size=2**20, open_timeout=120, ping_interval=None)
        await send(ws, encode(Hello(PROTOCOL_VERSION, "bench", None, name)))
        await ws.recv()  # Welcome
        return ws

    async def setup(i: int) -> Match:
        """Match ``i``: two connections, a private room created by one and joined by the other."""
        home, away = await client(f"a{i}"), await client(f"b{i}")
        await send(home, encode(CreateRoom("standard", SETTINGS, True)))
        joined = peek(await home.recv())
        while joined["t"] != "RoomJoined":
            joined = peek(await home.recv())
        await send(away, encode(JoinRoom(joined["code"])))
        snapshot = joined["snapshot"]
        return Match({"home": home, "away": away}, snapshot["version"], snapshot["position"], snapshot["prompts"])

    t_setup = time.monotonic()
    matches: list[Match] = []
    for start in range(0, args.matches, CONNECT_BATCH):
        batch = range(start, min(args.matches, start + CONNECT_BATCH))
        matches += await asyncio.gather(*(setup(i) for i in batch))
    setup_s = time.monotonic() - t_setup
    gc.collect()
    gc.freeze()  # the 2N connections are long-lived: no collection walks them during the run ...
    gc.disable()  # ... and none stalls the clients' loop (full passes held it 20-60 ms and showed in the p99)
    readers = [asyncio.create_task(reader(m, t, ws)) for m in matches for t, ws in m.seats.items()]
    begin = time.monotonic()
    for m in matches:  # spread the first flicks evenly over one interval
        m.last_flick = begin - args.move_every + rng.uniform(0, args.move_every)
        schedule(m, m.last_flick + args.move_every)
    warmup = args.move_every if args.warmup is None else args.warmup
    stop = begin + warmup + args.duration
    pacer = asyncio.create_task(scheduler(stop))
    await asyncio.sleep(warmup)
    tally.measuring = True
    pid = server_pid or 0
    cpu0, own0, mine0, busy0, t0 = tree_cpu(pid), own_cpu(pid), self_cpu(), machine_busy(), time.monotonic()
    await asyncio.sleep(args.duration)
    cpu1, own1, mine1, busy1, t1 = tree_cpu(pid), own_cpu(pid), self_cpu(), machine_busy(), time.monotonic()
    tally.measuring = False
    await pacer
    for task in readers:
        task.cancel()
    await asyncio.gather(*(ws.close() for m in matches for ws in m.seats.values()), return_exceptions=True)
    gc.enable()
    if server is not None:
        await asyncio.to_thread(server.stop, 60)
    cpu = Cpu(cpu1 - cpu0, own1 - own0, mine1 - mine0, busy1[0] - busy0[0], busy1[1] - busy0[1])
    return _report(args, tally, t1 - t0, cpu, setup_s, data)


def _report(args: argparse.Namespace, tally: Tally, wall: float, cpu: Cpu, setup_s: float, data: str) -> str:
    """Print the figures (a summary line, then the details); returns the run's row of the summary table."""
    ordered = sorted(tally.latencies)
    if ordered:
        p50 = statistics.median(ordered) * 1000
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
        worst = ordered[-1] * 1000
    else:
        p50 = p99 = worst = float("nan")
    asked = args.matches / args.move_every
    cores = os.cpu_count() or 1
    machine = 100 * cores * cpu.machine_busy / max(1.0, cpu.machine_total)
    print(
        f"matches={args.matches} flicks/s={len(ordered) / wall:.1f} (asked {asked:.1f}) "
        f"p50={p50:.1f}ms p99={p99:.1f}ms server_cpu={100 * cpu.server / wall:.0f}% "
        f"(loop process {100 * cpu.loop / wall:.0f}%) bench_cpu={100 * cpu.bench / wall:.0f}% "
        f"machine={machine:.0f}%/{100 * cores}%"
    )
    print(f"  {2 * args.matches} clients; {wall:.1f} s measured after the warm-up; setup took {setup_s:.1f} s")
    print(f"  moves (incl. prompts and clock events)={tally.moves / wall:.1f}/s; slowest flick {worst:.0f} ms")
    if ordered:
        per_move, loop_part = 1000 * cpu.server / len(ordered), 1000 * cpu.loop / len(ordered)
        print(f"  server CPU per flick {per_move:.1f} ms, of which the loop process {loop_part:.1f} ms")
    print("  CPU in % of one core: server = server process + physics workers; machine = every process, all cores")
    print(f"  refused: {tally.errors or 'none'}; server log in {data}/server.log", flush=True)
    return (
        f"| {args.matches} | {len(ordered) / wall:.1f} ({asked:.1f}) | {p50:.1f} | {p99:.1f} | "
        f"{100 * cpu.server / wall:.0f}% | {100 * cpu.loop / wall:.0f}% | {100 * cpu.bench / wall:.0f}% | "
        f"{machine:.0f}%/{100 * cores}% |"
    )

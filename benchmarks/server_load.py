"""``sprtec bench server --matches N``: N concurrent matches of random-flick clients against one server subprocess.

Why a benchmark and not a test: it measures what the server costs on the machine at hand against the target
of 1000 concurrent matches with a move every ~6 s (≈167 moves/s) and a flick-to-MovePlayed p99 under
100 ms. It tells the whole story of one run:

* latency p50/p99/max from the moment a flick is sent to the moment its MovePlayed arrives at the mover, and the
  moves served per second against the rate asked for;
* the CPU of the server *and its physics workers* (summed over /proc of the process tree) per flick, next to the
  bare physics of the same moves (``shared.physics.bare_loop``: the same bodies, walls and steps with nothing
  else, as ``sprtec bench physics``), timed in this process after the run on the positions and flicks the clients
  sent; the ratio is what serving a move costs over simulating it (target ≤ 1.6x);
* the benchmark clients' own CPU and the machine's, since all share the cores;
* with ``--spectators N``, N spectators on one watched match: each must receive every MovePlayed of it, and the
  fan-out cost per delivered MovePlayed (the server's extra CPU for the watched match's moves over the same number
  of moves in a match nobody watches, per spectator) is set against ``websockets.broadcast`` of the same frames to
  as many connections of the same clients in a reference server process (target ≤ 1.3x).

Why the clients look like this: on a 2-core box the clients share the cores with the server, so they must cost
little next to it. All connections live in this one process, each with one long-lived reader; frames are read with
``shared.protocol.peek`` (the raw map, a few µs) instead of the full decode (~1.3 ms per MovePlayed, which alone
cost more than the server's event loop); only the mover parses the position (``notation``) to pick a legal stone.
One scheduler paces every match at one flick per ``--move-every`` seconds from a heap of due times, so the offered
load is exactly N / move_every flicks per second.
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
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HELP = "N concurrent matches of random-flick clients against one server subprocess"
SETTINGS = {"period_ms": 3_600_000, "move_clock_ms": 60_000}  # no part ends during a run
KEEPALIVE_S = 30.0  # an idle client pings the server well inside its 60 s idle timeout
CONNECT_BATCH = 50  # handshakes in flight at once while the matches are set up
SERVER_START_S = 120.0  # the server subprocess prints its URL within this (workers start first)
BARE_SAMPLE = 300  # moves of the run whose bare physics is timed (a deterministic sample)
SERVE_TARGET, FANOUT_TARGET = 1.6, 1.3  # server CPU per flick / bare physics; fan-out / websockets.broadcast
ANSWER_S = 30.0  # the longest a phase waits for the answer to one action


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--matches (one or more), --duration, --move-every, --warmup, --workers, --url, --server-pid, --spectators."""
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
    parser.add_argument("--loop", default=None, choices=("uvloop", "asyncio"),
                        help="the server's event loop (default: sprtec serve's, asyncio)")
    parser.add_argument("--inline-physics", type=float, default=None, metavar="SHARE",
                        help="the server's in-line physics share (default: sprtec serve's; 0: every move in a worker)")
    parser.add_argument("--url", default=None, help="use a running server (ws://...) instead of starting one")
    parser.add_argument("--server-pid", type=int, default=None, help="with --url: the server's pid, for its CPU")
    parser.add_argument("--spectators", type=int, default=0, help="spectators on one watched match (default 0)")
    parser.add_argument("--fanout-moves", type=int, default=20, help="moves per fan-out phase (default 20)")
    parser.add_argument("--browsers", action="store_true",
                        help="with --spectators: measure again with as many headless Chromium tabs on /watch/ROOM "
                             "(benchmarks.browser_spectators)")
    cluster = parser.add_argument_group("--cluster: the clustered mode against the embedded one (cluster_bench.py)")
    cluster.add_argument("--cluster", action="store_true", help="embedded vs one cluster node, then a takeover")
    cluster.add_argument("--redis", default=None, metavar="URL", help="the cluster's Redis (default: one started)")
    cluster.add_argument("--postgres", default=None, metavar="URL", help="its PostgreSQL (default: one started)")
    cluster.add_argument("--takeover-matches", type=int, default=50, help="matches on the killed node (default 50)")


# ---------------------------------------------------------------------- CPU accounting
def _cpu_seconds(pid: int) -> float:
    """CPU seconds of one process: its live threads' run time from schedstat (nanoseconds: the fan-out phases
    measure tens of milliseconds, which /proc/<pid>/stat counts in 10 ms ticks), else user + system from stat.
    Live children are counted separately."""
    try:
        return sum(int(task.read_text().split()[0]) for task in Path(f"/proc/{pid}/task").glob("*/schedstat")) / 1e9
    except (OSError, ValueError, IndexError):
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


@dataclass(frozen=True)
class Cpu:
    """CPU seconds used during the measurement: the server tree, its process alone, the bench, the machine."""

    server: float
    loop: float
    bench: float
    machine_busy: float
    machine_total: float


class CpuWindow:
    """CPU of the server tree, its process, this bench and the machine between ``__init__`` and ``stop``."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.start = (tree_cpu(pid), own_cpu(pid), self_cpu(), machine_busy(), time.monotonic())

    def stop(self) -> tuple[Cpu, float]:
        """The CPU used since the start, and the wall seconds."""
        tree0, own0, mine0, busy0, t0 = self.start
        busy1 = machine_busy()
        cpu = Cpu(tree_cpu(self.pid) - tree0, own_cpu(self.pid) - own0, self_cpu() - mine0,
                  busy1[0] - busy0[0], busy1[1] - busy0[1])
        return cpu, time.monotonic() - t0


# The histograms read from the server's /metrics before and after the window, each its name and labels.
COMMITS = ("sprtec_store_commit_seconds", "")  # the store's group commits and their seconds
RESOLVED_IN_WORKERS = ("sprtec_resolve_cpu_seconds", '{where="worker"}')  # entries resolved in a worker, their CPU
RESOLVED_ON_LOOP = ("sprtec_resolve_cpu_seconds", '{where="loop"}')  # entries resolved on the event loop, their CPU
WATCHED = (COMMITS, RESOLVED_IN_WORKERS, RESOLVED_ON_LOOP)
Totals = dict[tuple[str, str], tuple[int, float]]  # a histogram -> (its count, its sum)


def histograms(url: str) -> Totals | None:
    """(count, sum) of each of the ``WATCHED`` histograms so far, from the server's /metrics (served to this machine
    on the game's port: ``server.ops.http_endpoints``); None when it does not answer (a ``--url`` of another
    machine) or lacks one of them."""
    address = url.replace("ws://", "http://", 1).replace("wss://", "https://", 1).rstrip("/") + "/metrics"
    try:
        with urllib.request.urlopen(address, timeout=10) as answer:
            text = answer.read().decode("utf-8")
    except (OSError, ValueError):
        return None
    samples = dict(line.rpartition(" ")[::2] for line in text.splitlines() if not line.startswith("#"))
    try:
        return {(name, labels): (int(float(samples[f"{name}_count{labels}"])), float(samples[f"{name}_sum{labels}"]))
                for name, labels in WATCHED}
    except KeyError:
        return None


def window_totals(before: Totals | None, after: Totals | None) -> Totals | None:
    """What each histogram counted between two readings."""
    if before is None or after is None:
        return None
    return {key: (after[key][0] - before[key][0], after[key][1] - before[key][1]) for key in WATCHED}


# ---------------------------------------------------------------------- the clients
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
    code: str = ""
    played: list[int] = field(default_factory=list)  # versions of the MovePlayed the home seat received
    frames: list[bytes] = field(default_factory=list)  # those frames, while ``keep_frames``
    keep_frames: bool = False
    answered: asyncio.Event = field(default_factory=asyncio.Event)  # the action in flight was answered ...
    refused: bool = False  # ... with an Error


@dataclass
class Tally:
    """What the readers counted (only inside the measurement window when ``measuring``)."""

    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    flicks: list[tuple[Any, Any]] = field(default_factory=list)  # (position, flick) of each flick sent, measuring
    totals: Totals | None = None  # the WATCHED histograms' counts and sums in the window (/metrics)


@dataclass
class Fanout:
    """The fan-out measurement of ``--spectators``: per move, CPU seconds of the server process and of the reference."""

    spectators: int
    watched: list[float] = field(default_factory=list)  # a move of the watched match (broadcast to the spectators)
    unwatched: list[float] = field(default_factory=list)  # a move of a match nobody watches
    reference: list[float] = field(default_factory=list)  # websockets.broadcast of a watched move's frame
    noop: list[float] = field(default_factory=list)  # the reference's control round trip alone
    missing: int = 0  # MovePlayed of the watched match some spectator did not receive (over the whole run)


@dataclass
class BrowserFanout:
    """``--browsers``: the join and the deliveries of desktop spectators against as many browser tabs (server CPU s)."""

    spectators: int
    desktop_join: float = 0.0  # N desktop spectators joining, until each holds the match
    browser_join: float = 0.0  # N tabs loading /watch/ROOM, until each holds the match
    desktop: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))  # (watched, unwatched) moves
    browser: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    missing: int = 0  # watched moves some spectator did not hold within ANSWER_S


@dataclass(frozen=True)
class Physics:
    """The bare physics, simulate() and the whole resolution of a sample of the run's flicks, timed in this process
    after the run (CPU s per move, warm: one move after the other)."""

    moves: int
    bare: float
    simulate: float
    resolve: float  # ``server.rooms.resolve.resolve``: simulate, the referee and the MovePlayed's encoding


def run(args: argparse.Namespace) -> int:
    """One run per ``--matches`` value (a fresh server each), then the summary table of all runs."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 2N client sockets + 2N server sockets
    if args.cluster:
        from benchmarks import cluster_load as cluster_bench

        return cluster_bench.run(args)
    rows = [asyncio.run(_bench(argparse.Namespace(**{**vars(args), "matches": n}))) for n in args.matches]
    if len(rows) > 1:
        print("\n| matches | flicks/s (asked) | p50 ms | p99 ms | max ms | server CPU | of it loop | CPU/flick ms "
              "| bare ms | ratio | bench CPU | machine |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for row in rows:
            print(row)
    return 0


async def _bench(args: argparse.Namespace) -> str:
    """One run: start (or use) a server, play, measure, report; returns the run's summary row."""
    if args.spectators and args.matches < 2:
        raise SystemExit("sprtec bench server: --spectators needs --matches 2 or more (one watched, one not)")
    if args.browsers:
        from benchmarks.browser_spectators import missing

        if missing() is not None:
            raise SystemExit(f"sprtec bench server: --browsers: {missing()}")
    data = tempfile.mkdtemp(prefix="sprtec-bench-")
    server, url, pid = await _start_server(args, data)
    bench = Bench(args, url)
    try:
        cpu, wall, setup_s = await bench.play(pid)
        fanout = await bench.measure_fanout(pid) if args.spectators else None
        browsers = await bench.measure_browsers(pid) if args.spectators and args.browsers else None
        await bench.close()
    finally:
        gc.enable()
        if server is not None:
            await asyncio.to_thread(server.stop, 60)
    physics = time_physics(bench.tally.flicks, random.Random(2))
    return _report(args, bench.tally, wall, cpu, setup_s, data, physics, fanout, browsers)


async def _start_server(args: argparse.Namespace, data: str) -> tuple[Any, str, int]:
    """The server subprocess (or the one ``--url`` names), its URL and pid."""
    from client.player.practice import ServerProcess

    if args.url is not None:
        return None, args.url, args.server_pid or 0
    options = (() if args.loop is None else ("--loop", args.loop)) + (
        () if args.inline_physics is None else ("--inline-physics", str(args.inline_physics)))
    server = ServerProcess(Path(data), args.workers, Path(data) / "server.log", "WARNING", options=options)
    server.start()
    found = await asyncio.to_thread(server.wait, SERVER_START_S)
    if found is None:
        server.stop()
        raise SystemExit(f"sprtec bench server: {server.error or 'the server did not answer'}; see {data}")
    assert server.process is not None
    return server, found, server.process.pid


class Bench:
    """The clients of one run: matches, spectators, the scheduler pacing the flicks, and the readers' tally."""

    def __init__(self, args: argparse.Namespace, url: str) -> None:
        self.args = args
        self.url = url
        self.rng = random.Random(1)
        self.tally = Tally()
        self.last_sent: dict[Any, float] = {}
        self.due: list[tuple[float, int, Match]] = []
        self.wake = asyncio.Event()
        self.matches: list[Match] = []
        self.spectators: list[Any] = []
        self.seen: list[set[int]] = []  # per spectator: the versions of the watched match's MovePlayed it received
        self.audience: list[int] = []  # per spectator: the spectator count of the last Presence it received
        self.readers: list[asyncio.Task[None]] = []
        self.spectator_readers: list[asyncio.Task[None]] = []
        self.paced = True  # the scheduler acts for every match; off during the fan-out phases

    # ------------------------------------------------------------------ sending and receiving
    def schedule(self, m: Match, when: float) -> None:
        """Put ``m``'s next action on the heap of due times and wake the scheduler."""
        heapq.heappush(self.due, (when, id(m), m))
        self.wake.set()

    async def send(self, ws: Any, frame: bytes) -> None:
        """Send one frame, noting when (an idle connection gets a keepalive ping)."""
        self.last_sent[ws] = time.monotonic()
        await ws.send(frame)

    def on_frame(self, m: Match, team: str, frame: bytes) -> None:
        """One frame at ``team``'s connection: the sender's copy times its action, the home copy drives the match."""
        from shared.protocol import peek

        msg = peek(frame)
        kind = msg["t"]
        if kind == "RoomJoined":
            msg, kind = msg["snapshot"], "Snapshot"
        if kind == "Error":
            self._on_error(m, team, msg)
        elif kind == "MovePlayed":
            self._on_move(m, team, msg, frame)
        elif kind == "Snapshot":
            self._on_state(m, team, msg)

    def _on_error(self, m: Match, team: str, msg: dict[str, Any]) -> None:
        """A refusal: counted while measuring; the refused sender tries again at its next slot."""
        if self.tally.measuring:
            self.tally.errors[msg["code"]] = self.tally.errors.get(msg["code"], 0) + 1
        if m.sent_team == team and m.sent_version is not None:
            m.sent_version = m.sent_team = None
            m.refused = True
            m.answered.set()
            if self.paced:
                self.schedule(m, max(time.monotonic() + self.args.move_every, m.at_rest))

    def _on_move(self, m: Match, team: str, msg: dict[str, Any], frame: bytes) -> None:
        """A MovePlayed: the mover's copy stops its latency watch; the home copy advances the match."""
        if team == m.sent_team and msg["version"] == (m.sent_version or 0) + 1:
            action = msg["action"]
            if self.tally.measuring and action is not None and action.get("action") == "flick":
                self.tally.latencies.append(time.perf_counter() - m.sent_at)
            m.sent_version = m.sent_team = None
            m.answered.set()
        if team == "home" and msg["version"] > m.version:
            m.played.append(msg["version"])
            if m.keep_frames:
                m.frames.append(frame)
            if self.tally.measuring:
                self.tally.moves += 1
            if msg["trajectory"] is not None:
                m.at_rest = time.monotonic() + msg["trajectory"]["ms"] / 1000
        self._on_state(m, team, msg)

    def _on_state(self, m: Match, team: str, msg: dict[str, Any]) -> None:
        """The home seat's copy of a newer state: keep it and schedule the match's next action."""
        if team != "home" or msg["version"] <= m.version:
            return
        m.version, m.raw_position, m.prompts = msg["version"], msg["position"], msg["prompts"]
        if msg["position"].get("result") is None and self.paced:
            self.schedule(m, max(time.monotonic(), m.last_flick + self.args.move_every, m.at_rest))

    async def reader(self, m: Match, team: str, ws: Any) -> None:
        """The one long-lived reader of a connection: every frame to ``on_frame`` until it closes."""
        import websockets

        try:
            async for frame in ws:
                self.on_frame(m, team, frame)
        except websockets.ConnectionClosed:
            pass

    async def spectator_reader(self, ws: Any, i: int) -> None:
        """Spectator ``i``'s reader: the version of every MovePlayed it receives, the audience Presence tells."""
        import websockets

        from shared.protocol import peek

        seen = self.seen[i]
        try:
            async for frame in ws:
                msg = peek(frame)
                if msg["t"] == "MovePlayed":
                    seen.add(msg["version"])
                elif msg["t"] == "Presence":
                    self.audience[i] = msg["spectators"]
        except websockets.ConnectionClosed:
            pass

    # ------------------------------------------------------------------ acting
    async def act(self, m: Match, due: float | None = None) -> bool:
        """The match's next action: a prompt's default if one waits, else a random legal flick by the mover.

        The match's next flick is planned ``move_every`` after this one was due, not after it went out: a flick sent
        late (behind others due at the same moment, or a stall) does not move every later flick of its match, so
        the matches stay spread over the interval instead of a stall's flicks coming back together every interval."""
        from shared import match as rules
        from shared import notation
        from shared.model import Flick
        from shared.protocol import Act, encode

        raw = m.raw_position
        if raw is None or raw.get("result") is not None or m.sent_version is not None:
            return False
        m.answered.clear()
        m.refused = False
        for prompt in m.prompts:
            if prompt.get("default") is not None:
                action = notation.action_from_json(prompt["default"])
                m.sent_version, m.sent_team, m.sent_at = m.version, prompt["team"], time.perf_counter()
                await self.send(m.seats[prompt["team"]], encode(Act(action, m.version)))
                return True
        position = notation.position_from_json(raw)
        if position.part.kind not in ("period", "overtime"):
            return False  # a break: the server's clock event will move the match on
        team = position.to_move
        stone = self.rng.choice(rules.legal_stones(position, team))
        flick = Flick(team, stone, self.rng.uniform(-1500, 1500), self.rng.uniform(-1500, 1500))
        m.sent_version, m.sent_team, m.sent_at = m.version, team, time.perf_counter()
        m.last_flick = time.monotonic() if due is None else min(due, time.monotonic())
        if self.tally.measuring:
            self.tally.flicks.append((position, flick))
        await self.send(m.seats[team], encode(Act(flick, m.version)))
        return True

    async def scheduler(self, stop: float) -> None:
        """Act for every match whose time has come and ping idle connections, until ``stop``."""
        from shared.protocol import Ping, encode

        ping = encode(Ping(1))
        next_keepalive = time.monotonic() + KEEPALIVE_S / 2
        while time.monotonic() < stop:
            now = time.monotonic()
            while self.due and self.due[0][0] <= now:
                due, _, m = heapq.heappop(self.due)
                await self.act(m, due)
            if now >= next_keepalive:
                next_keepalive = now + KEEPALIVE_S / 2
                await self.keepalive(ping, now)
            self.wake.clear()
            timeout = min(self.due[0][0] - now if self.due else 1.0, 1.0)
            try:
                await asyncio.wait_for(self.wake.wait(), max(timeout, 0.0))
            except TimeoutError:
                pass

    async def keepalive(self, ping: bytes, now: float) -> None:
        """Ping every connection that sent nothing for ``KEEPALIVE_S``."""
        for ws, at in list(self.last_sent.items()):
            if now - at > KEEPALIVE_S:
                await self.send(ws, ping)

    # ------------------------------------------------------------------ setting up
    async def client(self, name: str) -> Any:
        """A welcomed connection named ``name``."""
        import websockets

        from shared.protocol import PROTOCOL_VERSION, Hello, encode

        ws = await websockets.connect(self.url, compression=None, max_size=2**20, open_timeout=120,
                                      ping_interval=None)
        await self.send(ws, encode(Hello(PROTOCOL_VERSION, "bench", None, name)))
        await ws.recv()  # Welcome
        return ws

    async def setup_match(self, i: int) -> Match:
        """Match ``i``: two connections, a private room created by one and joined by the other."""
        from shared.protocol import CreateRoom, JoinRoom, encode, peek

        home, away = await self.client(f"a{i}"), await self.client(f"b{i}")
        await self.send(home, encode(CreateRoom("standard", SETTINGS, True)))
        joined = peek(await home.recv())
        while joined["t"] != "RoomJoined":
            joined = peek(await home.recv())
        await self.send(away, encode(JoinRoom(joined["code"])))
        snapshot = joined["snapshot"]
        return Match({"home": home, "away": away}, snapshot["version"], snapshot["position"], snapshot["prompts"],
                     code=joined["code"])

    async def setup_spectator(self, i: int, code: str, prefix: str = "s") -> None:
        """Spectator ``i`` of room ``code`` (named ``prefix`` and ``i``: names are unique), with its reader."""
        from shared.protocol import Watch, encode

        ws = await self.client(f"{prefix}{i}")
        await self.send(ws, encode(Watch(code)))
        self.spectators.append(ws)
        self.seen.append(set())
        self.audience.append(0)
        self.spectator_readers.append(asyncio.create_task(self.spectator_reader(ws, len(self.spectators) - 1)))

    async def setup(self) -> float:
        """Every match, then the spectators of the first one, in batches of handshakes; the seconds it took."""
        start = time.monotonic()
        for first in range(0, self.args.matches, CONNECT_BATCH):
            batch = range(first, min(self.args.matches, first + CONNECT_BATCH))
            self.matches += await asyncio.gather(*(self.setup_match(i) for i in batch))
        for first in range(0, self.args.spectators, CONNECT_BATCH):
            batch = range(first, min(self.args.spectators, first + CONNECT_BATCH))
            await asyncio.gather(*(self.setup_spectator(i, self.matches[0].code) for i in batch))
        # each joining spectator's Presence goes to everyone already watching (N²/2 frames): let them all arrive
        # before the run, so the clients' backlog does not show in its latencies
        deadline = time.monotonic() + SERVER_START_S
        while min(self.audience, default=self.args.spectators) < self.args.spectators and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        return time.monotonic() - start

    # ------------------------------------------------------------------ the run
    async def play(self, pid: int) -> tuple[Cpu, float, float]:
        """Set up, warm up, measure ``--duration`` seconds: the CPU used, the wall seconds, the setup's seconds."""
        setup_s = await self.setup()
        gc.collect()
        gc.freeze()  # the connections are long-lived: no collection walks them during the run ...
        gc.disable()  # ... and none stalls the clients' loop (full passes held it 20-60 ms and showed in the p99)
        self.readers += [asyncio.create_task(self.reader(m, t, ws)) for m in self.matches for t, ws in m.seats.items()]
        begin = time.monotonic()
        for m in self.matches:  # spread the first flicks evenly over one interval
            m.last_flick = begin - self.args.move_every + self.rng.uniform(0, self.args.move_every)
            self.schedule(m, m.last_flick + self.args.move_every)
        warmup = self.args.move_every if self.args.warmup is None else self.args.warmup
        pacer = asyncio.create_task(self.scheduler(begin + warmup + self.args.duration))
        await asyncio.sleep(warmup)
        self.tally.measuring = True
        window = CpuWindow(pid)
        before = await asyncio.to_thread(histograms, self.url)
        await asyncio.sleep(self.args.duration)
        cpu, wall = window.stop()
        self.tally.measuring = False
        self.tally.totals = window_totals(before, await asyncio.to_thread(histograms, self.url))
        await pacer
        return cpu, wall, setup_s

    async def close(self) -> None:
        """Stop the readers and close every connection."""
        for task in self.readers + self.spectator_readers:
            task.cancel()
        sockets = [ws for m in self.matches for ws in m.seats.values()] + self.spectators
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)

    # ------------------------------------------------------------------ the fan-out phases
    async def one_move(self, pid: int, m: Match, watchers: list[set[int]],
                       held: Callable[[int], Awaitable[bool]] | None = None) -> float | None:
        """The server process's CPU seconds for one action of ``m``: from just before it is sent until the home seat,
        every one of ``watchers`` and ``held`` (the browser tabs) hold its MovePlayed (the broadcast is written by
        then); None if refused."""
        await asyncio.sleep(max(0.0, m.at_rest - time.monotonic()) + 0.05)  # D3, and the last move's traffic
        before = len(m.played)
        start = own_cpu(pid)
        if not await self.act(m):
            return None
        await asyncio.wait_for(m.answered.wait(), ANSWER_S)
        deadline = time.monotonic() + ANSWER_S
        while not m.refused and time.monotonic() < deadline:
            if len(m.played) > before and all(m.played[-1] in seen for seen in watchers) and \
                    (held is None or await held(m.played[-1])):
                return own_cpu(pid) - start
            await asyncio.sleep(0.001)
        return None

    async def measure_fanout(self, pid: int) -> Fanout:
        """Moves of the watched match and of one nobody watches, alternately, each timed on its own; then the
        watched match's frames broadcast by the reference server to as many connections (module docstring)."""
        self.paced = False
        result = Fanout(self.args.spectators)
        watched, unwatched = self.matches[0], self.matches[-1]
        watched.keep_frames = True
        while len(result.watched) < self.args.fanout_moves:
            cost = await self.one_move(pid, watched, self.seen)
            other = await self.one_move(pid, unwatched, [])
            if cost is not None and other is not None:
                result.watched.append(cost)
                result.unwatched.append(other)
        watched.keep_frames = False
        result.missing = sum(len(set(watched.played) - seen) for seen in self.seen)
        result.reference, result.noop = await reference_broadcast(watched.frames[-len(result.watched):],
                                                                  self.args.spectators)
        return result

    async def drop_spectators(self) -> None:
        """Close every desktop spectator (their readers first) and let the server see them go."""
        for task in self.spectator_readers:
            task.cancel()
        await asyncio.gather(*(ws.close() for ws in self.spectators), return_exceptions=True)
        self.spectators, self.seen, self.audience, self.spectator_readers = [], [], [], []
        await asyncio.sleep(1.0)

    async def measure_browsers(self, pid: int) -> BrowserFanout:
        """``--browsers``: N fresh desktop spectators join (timed) and watch moves, leave; N Chromium tabs open the
        watched match's page (timed) and watch moves (module ``benchmarks.browser_spectators``)."""
        from benchmarks.browser_spectators import Tabs

        count = self.args.spectators
        result = BrowserFanout(count)
        await self.drop_spectators()
        start = own_cpu(pid)
        await asyncio.gather(*(self.setup_spectator(i, self.matches[0].code, "d") for i in range(count)))
        deadline = time.monotonic() + SERVER_START_S
        while min(self.audience, default=count) < count and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        result.desktop_join = own_cpu(pid) - start

        async def desktops_hold(version: int) -> bool:
            return all(version in seen for seen in self.seen)

        result.desktop = await self.settled_moves(pid, desktops_hold, result)
        await self.drop_spectators()
        tabs = Tabs()
        try:
            start = own_cpu(pid)
            await tabs.open(self.url, self.matches[0].code, count)
            while not await tabs.hold(self.matches[0].version) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            result.browser_join = own_cpu(pid) - start
            result.browser = await self.settled_moves(pid, tabs.hold, result)
        finally:
            await tabs.close()
        return result

    async def settled_moves(self, pid: int, hold: Callable[[int], Awaitable[bool]],
                            result: BrowserFanout) -> tuple[list[float], list[float]]:
        """Moves of the watched match and of the unwatched one, alternately, each timed over the same fixed window
        (``SETTLE_S``: a window ending at the last delivery would leave out the server's own work after a move,
        which a slow reader's longer wait takes in); after each watched move, every spectator must hold it."""
        async def settle(version: int) -> bool:
            await asyncio.sleep(SETTLE_S)
            return True

        watched, unwatched = self.matches[0], self.matches[-1]
        costs: tuple[list[float], list[float]] = ([], [])
        while len(costs[0]) < self.args.fanout_moves:
            cost = await self.one_move(pid, watched, [], settle)
            deadline = time.monotonic() + ANSWER_S
            while watched.played and not await hold(watched.played[-1]):
                if time.monotonic() > deadline:
                    result.missing += 1
                    break
                await asyncio.sleep(0.02)
            other = await self.one_move(pid, unwatched, [], settle)
            if cost is not None and other is not None:
                costs[0].append(cost)
                costs[1].append(other)
        return costs


# ---------------------------------------------------------------------- the reference broadcast
NOOP = b"noop"  # a frame the reference server answers without broadcasting it (the control round trip alone)


def serve_reference() -> None:
    """The reference server (a subprocess of the bench): the first connection to send ``control`` gets each frame
    it sends next broadcast to every other connection with ``websockets.broadcast`` (``NOOP`` is not), and the count
    of them back."""
    asyncio.run(_serve_reference())


async def _serve_reference() -> None:
    """``serve_reference``'s loop: prints its port, serves until the control connection closes."""
    import websockets

    listeners: set[Any] = set()
    finished = asyncio.Event()

    async def handle(ws: Any) -> None:
        """A listener waits; the control connection's frames are broadcast."""
        first = await ws.recv()
        if first != "control":
            listeners.add(ws)
            await ws.wait_closed()
            return
        async for frame in ws:
            if frame != NOOP:
                websockets.broadcast(listeners, frame)
            await ws.send(str(len(listeners)))
        finished.set()

    async with websockets.serve(handle, "127.0.0.1", 0, compression=None, max_size=2**20, ping_interval=None) as srv:
        print(next(iter(srv.sockets)).getsockname()[1], flush=True)
        await finished.wait()


async def reference_broadcast(frames: list[bytes], connections: int) -> tuple[list[float], list[float]]:
    """The reference server's CPU seconds for each of ``frames`` broadcast to ``connections`` connections of this
    process (until every one has read it), and for as many control round trips without a broadcast."""
    import websockets

    process = subprocess.Popen([sys.executable, "-c", "from benchmarks.server_load import serve_reference; "
                                "serve_reference()"], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    try:
        port = int(await asyncio.to_thread(process.stdout.readline))
        url = f"ws://127.0.0.1:{port}/"
        received = [0] * connections
        listeners = [await _reference_listener(url) for _ in range(connections)]
        readers = [asyncio.create_task(_count_frames(ws, received, i)) for i, ws in enumerate(listeners)]
        control = await websockets.connect(url, compression=None, max_size=2**20, ping_interval=None)
        await control.send("control")
        costs: list[float] = []
        noops: list[float] = []
        for k, frame in enumerate(frames):
            for sent, out in ((frame, costs), (NOOP, noops)):
                await asyncio.sleep(0.05)
                start = own_cpu(process.pid)
                await control.send(sent)
                await control.recv()
                while sent is frame and min(received) <= k:
                    await asyncio.sleep(0.001)
                out.append(own_cpu(process.pid) - start)
        await control.close()
        for task in readers:
            task.cancel()
        await asyncio.gather(*(ws.close() for ws in listeners), return_exceptions=True)
        return costs, noops
    finally:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def _reference_listener(url: str) -> Any:
    """One listening connection to the reference server."""
    import websockets

    ws = await websockets.connect(url, compression=None, max_size=2**20, ping_interval=None, open_timeout=120)
    await ws.send("listen")
    return ws


async def _count_frames(ws: Any, received: list[int], i: int) -> None:
    """Count the frames connection ``i`` receives."""
    import websockets

    try:
        async for _ in ws:
            received[i] += 1
    except websockets.ConnectionClosed:
        pass


# ---------------------------------------------------------------------- the bare physics of the same moves
def time_physics(flicks: list[tuple[Any, Any]], rng: random.Random) -> Physics | None:
    """The bare loop, simulate() and resolve() of up to ``BARE_SAMPLE`` of the run's flicks (CPU seconds, means per
    move); resolve() as a worker runs it: the flick as the room's first entry of a version, its clocks unused."""
    from server.rooms import resolve
    from shared import match as rules
    from shared.match_log import LogEntry
    from shared.physics import bare_loop, simulate

    if not flicks:
        return None
    sample = rng.sample(flicks, min(BARE_SAMPLE, len(flicks)))
    bare = simulated = resolved = 0.0
    gc.collect()
    gc.disable()
    try:
        for position, flick in sample:
            settings = rules.settings_of(position)
            stamp = resolve.Stamp(code="BENCH", match_id="bench", version=1, team=position.to_move, turn_used=0,
                                  absent=False, settings=settings)
            entry = LogEntry(index=0, elapsed_ms=0, input=flick)
            start = time.process_time()
            steps = simulate(position, flick, settings).steps
            middle = time.process_time()
            bare_loop(position, flick, settings, steps)
            end = time.process_time()
            resolve.resolve(position, entry, stamp)
            last = time.process_time()
            simulated, bare, resolved = simulated + middle - start, bare + end - middle, resolved + last - end
    finally:
        gc.enable()
    return Physics(len(sample), bare / len(sample), simulated / len(sample), resolved / len(sample))


# ---------------------------------------------------------------------- the report
def _report(args: argparse.Namespace, tally: Tally, wall: float, cpu: Cpu, setup_s: float, data: str,
            physics: Physics | None, fanout: Fanout | None, browsers: BrowserFanout | None = None) -> str:
    """Print the figures (a summary line, then the details); returns the run's row of the summary table."""
    ordered = sorted(tally.latencies)
    if ordered:
        p50 = statistics.median(ordered) * 1000
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
        worst = ordered[-1] * 1000
    else:
        p50 = p99 = worst = float("nan")
    asked, served = args.matches / args.move_every, len(ordered) / wall
    cores = os.cpu_count() or 1
    machine = 100 * cores * cpu.machine_busy / max(1.0, cpu.machine_total)
    per_flick = 1000 * cpu.server / len(ordered) if ordered else float("nan")
    bare = 1000 * physics.bare if physics else float("nan")
    print(
        f"matches={args.matches} flicks/s={served:.1f} (asked {asked:.1f}) "
        f"p50={p50:.1f}ms p99={p99:.1f}ms max={worst:.0f}ms server_cpu={100 * cpu.server / wall:.0f}% "
        f"(loop process {100 * cpu.loop / wall:.0f}%) bench_cpu={100 * cpu.bench / wall:.0f}% "
        f"machine={machine:.0f}%/{100 * cores}%"
    )
    print(f"  {2 * args.matches} clients; {wall:.1f} s measured after the warm-up; setup took {setup_s:.1f} s")
    print(f"  moves served (flicks and prompts' defaults)={tally.moves / wall:.1f}/s; flicks {served:.1f}/s of "
          f"{asked:.1f}/s asked ({100 * served / asked:.0f} %)")
    if ordered:
        loop, clients = 1000 * cpu.loop / len(ordered), 1000 * cpu.bench / len(ordered)
        print(f"  server CPU per flick {per_flick:.2f} ms (of which the loop process {loop:.2f} ms); "
              f"the bench's clients {clients:.2f} ms")
    if physics:
        ratio = per_flick / bare
        verdict = "within" if ratio <= SERVE_TARGET else "ABOVE"
        print(f"  bare physics of the same moves ({physics.moves} of them, timed here after the run): "
              f"{bare:.2f} ms (simulate {1000 * physics.simulate:.2f} ms); server CPU per flick / bare = "
              f"{ratio:.2f} ({verdict} the {SERVE_TARGET}x target)")
    if tally.totals is not None and ordered:
        _report_totals(tally, wall, per_flick, physics)
    if fanout:
        _report_fanout(fanout)
    if browsers:
        _report_browsers(browsers)
    print("  CPU in % of one core: server = server process + physics workers; machine = every process, all cores")
    print(f"  refused: {tally.errors or 'none'}; server log in {data}/server.log", flush=True)
    return (
        f"| {args.matches} | {served:.1f} ({asked:.1f}) | {p50:.1f} | {p99:.1f} | {worst:.0f} | "
        f"{100 * cpu.server / wall:.0f}% | {100 * cpu.loop / wall:.0f}% | {per_flick:.2f} | {bare:.2f} | "
        f"{per_flick / bare if physics else float('nan'):.2f} | {100 * cpu.bench / wall:.0f}% | "
        f"{machine:.0f}%/{100 * cores}% |"
    )


def _report_totals(tally: Tally, wall: float, per_flick: float, physics: Physics | None) -> None:
    """The server's own counts of the window: its group commits, and the CPU of resolving the entries where they
    ran (a worker's thread time or the loop's: the physics, the referee and the encoding, not handing them over)."""
    assert tally.totals is not None
    flicks = len(tally.latencies)
    count, seconds = tally.totals[COMMITS]
    if count:
        print(f"  the store: {count / wall:.1f} group commits/s, {tally.moves / count:.2f} "
              f"moves' entries per commit (every room's that arrived together), {1000 * seconds / flicks:.3f} ms "
              "of commit per flick")
    (in_workers, worker_cpu), (on_loop, loop_cpu) = tally.totals[RESOLVED_IN_WORKERS], tally.totals[RESOLVED_ON_LOOP]
    if in_workers + on_loop:
        resolving = 1000 * (worker_cpu + loop_cpu) / flicks
        warm = (f"; the same flicks resolved here after the run, warm: {1000 * physics.resolve:.2f} ms"
                if physics else "")
        print(f"  resolving the entries where they ran (the physics, the referee, the broadcast's encoding; "
              f"{in_workers} in the workers, {on_loop} on the loop): {resolving:.2f} ms of CPU per flick{warm}; the "
              f"rest of the server's CPU per flick (handing entries over, the connections, the store, the loop) "
              f"{per_flick - resolving:.2f} ms")


def _report_fanout(f: Fanout) -> None:
    """The spectators' lines: what they received, the fan-out cost per delivered MovePlayed, the reference's."""
    med = statistics.median
    fan = (med(f.watched) - med(f.unwatched)) / f.spectators
    reference = (med(f.reference) - med(f.noop)) / f.spectators
    received = "every one received every MovePlayed" if not f.missing else f"{f.missing} MovePlayed NOT received"
    print(f"  spectators: {f.spectators} on one match; {received} of the watched match")
    print(f"  fan-out (medians of {len(f.watched)} moves each, server process CPU): a watched move "
          f"{1000 * med(f.watched):.2f} ms, an unwatched one {1000 * med(f.unwatched):.2f} ms: "
          f"{1e6 * fan:.1f} us per delivered MovePlayed")
    ratio = fan / reference if reference > 0 else float("nan")
    verdict = "within" if ratio <= FANOUT_TARGET else "ABOVE" if ratio > FANOUT_TARGET else "too little CPU to judge"
    print(f"  websockets.broadcast of the same frames to {f.spectators} connections (reference server): "
          f"{1e6 * reference:.1f} us per delivery ({1000 * med(f.reference):.2f} ms a broadcast, "
          f"{1000 * med(f.noop):.2f} ms its control round trip); fan-out / broadcast = {ratio:.2f} ({verdict} the "
          f"{FANOUT_TARGET}x target)")


SETTLE_S = 0.5  # --browsers: the window each move's server CPU is measured over
BROWSER_TARGET = 1.1  # a browser spectator / a desktop one, per delivery (1.0 promised; the rest is the run's noise)


def _report_browsers(b: BrowserFanout) -> None:
    """``--browsers``: what a browser spectator costs the server against a desktop one, joining and per delivery."""
    med = statistics.median

    def per_delivery(moves: tuple[list[float], list[float]]) -> float:
        return (med(moves[0]) - med(moves[1])) / b.spectators

    held = "every one held every watched move" if not b.missing else f"{b.missing} watched moves NOT held by all"
    print(f"  browsers: {b.spectators} headless Chromium tabs on /watch/ROOM of the same match, against as many "
          f"desktop spectators; {held}")
    print(f"  joining, server process CPU per spectator: desktop {1000 * b.desktop_join / b.spectators:.2f} ms, "
          f"browser {1000 * b.browser_join / b.spectators:.2f} ms (the page, its scripts and the moves so far too)")
    desktop, browser = per_delivery(b.desktop), per_delivery(b.browser)
    ratio = browser / desktop if desktop > 0 else float("nan")
    verdict = "within" if ratio <= BROWSER_TARGET else "ABOVE" if ratio > BROWSER_TARGET else "too little CPU to judge"
    print(f"  per delivered MovePlayed (medians of {len(b.browser[0])} moves, each over {SETTLE_S:g} s): desktop "
          f"{1e6 * desktop:.1f} us, browser {1e6 * browser:.1f} us; browser / desktop = {ratio:.2f} ({verdict} the "
          f"{BROWSER_TARGET}x bound)")

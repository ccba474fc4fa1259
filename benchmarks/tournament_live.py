"""The live part of ``sprtec bench tournament``: a 64-player tournament's 32 tables all playing at once on one server,
and the latency from a coach's flick to his MovePlayed (target p99 under 100 ms).

Why through the tournament and not plain rooms (``sprtec bench server``): a tournament round adds its own load - 64
coaches entering and checking in, one round paired and 32 tables opened at once, a TableAssigned to each coach,
every move feeding the tournament's live table (``MoveApplied``) and coalesced TournamentUpdates to a watcher - and
that is what an organiser's server must carry. The clients are as cheap as ``bench_server``'s (one process, frames
read with ``shared.protocol.peek``, only the mover parses the position) so the server's cost is what is measured;
each table flicks once every ``--move-every`` seconds, at rest after the last move's playback (D3).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from benchmarks.server_load import machine_busy, own_cpu, self_cpu, tree_cpu
from client.player.practice import ServerProcess
from shared import match as rules
from shared import notation
from shared.model import Flick
from shared.protocol import (
    PROTOCOL_VERSION,
    Act,
    CheckIn,
    CreateTournament,
    EntryForm,
    Hello,
    JoinRoom,
    JoinTournament,
    RegisterEntries,
    StartRound,
    WatchTournament,
    encode,
    peek,
)

TARGET_P99_MS = 100.0
SETTINGS = {"period_ms": 3_600_000, "move_clock_ms": 120_000}  # no part ends and no move clock runs out in a run
SERVER_START_S = 120.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--live-players, --duration, --move-every, --warmup, --workers."""
    parser.add_argument("--live-players", type=int, default=64, help="players of the live tournament (default 64)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of measurement (default 30)")
    parser.add_argument("--move-every", type=float, default=6.0, help="seconds between flicks at a table (default 6)")
    parser.add_argument("--warmup", type=float, default=6.0, help="seconds of play before measuring (default 6)")
    parser.add_argument("--workers", type=int, default=None, help="the server's physics workers (default: cores)")


@dataclass(eq=False)
class Table:
    """One table's two connections and what its pacing needs."""

    room: str
    seats: dict[str, Any] = field(default_factory=dict)  # seat -> websocket
    version: int = -1
    raw_position: dict[str, Any] | None = None
    prompts: list[dict[str, Any]] = field(default_factory=list)
    sent: tuple[int, str, float] | None = None  # (version, seat, perf_counter) of the action awaiting its MovePlayed
    at_rest: float = 0.0


@dataclass
class Tally:
    """Latencies and refusals counted inside the measurement window."""

    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    updates: int = 0


@dataclass
class Figures:
    """What one measured window read off the server, the bench and the machine."""

    server_cpu: float
    server_own: float
    bench_cpu: float
    busy: tuple[float, float]
    wall: float

    @classmethod
    def now(cls, pid: int) -> Figures:
        """The counters at this moment."""
        return cls(tree_cpu(pid), own_cpu(pid), self_cpu(), machine_busy(), time.monotonic())


class LiveBench:
    """The organiser, the coaches and a watcher of one live tournament on a server subprocess."""

    def __init__(self, args: argparse.Namespace, url: str) -> None:
        self.args = args
        self.url = url
        self.rng = random.Random(7)
        self.tally = Tally()
        self.tables: dict[str, Table] = {}
        self.assigned = asyncio.Event()
        self.coaches: list[Any] = []
        self.organiser: Any = None
        self.spectator: Any = None
        self.tournament = ""
        self.secret = ""

    # ------------------------------------------------------------------ connections
    async def connect(self, name: str) -> Any:
        """A welcomed connection."""
        ws = await websockets.connect(self.url, compression=None, max_size=2**20, open_timeout=60,
                                      ping_interval=None)
        await ws.send(encode(Hello(PROTOCOL_VERSION, "bench", None, name)))
        await ws.recv()
        return ws

    @staticmethod
    async def answer(ws: Any) -> dict[str, Any]:
        """The next frame that is not a TournamentUpdate, as a raw map."""
        while True:
            msg = peek(await ws.recv())
            if msg["t"] != "TournamentUpdate":
                return msg

    async def create(self) -> list[str]:
        """The organiser creates the tournament and registers every player; returns their entry codes."""
        self.organiser = await self.connect("organiser")
        await self.organiser.send(encode(CreateTournament(name="bench", system="swiss", rounds=1, ruleset="standard",
                                                          settings=SETTINGS, no_show_ms=600_000)))
        created = await self.answer(self.organiser)
        self.tournament, self.secret = created["tournament"], created["secret"]
        codes: list[str] = []
        players = self.args.live_players
        for start in range(0, players, 64):
            forms = tuple(EntryForm(f"Player {i}") for i in range(start, min(players, start + 64)))
            await self.organiser.send(encode(RegisterEntries(self.tournament, self.secret, forms)))
            codes += [e["code"] for e in (await self.answer(self.organiser))["entries"]]
        return codes

    async def enter(self, codes: list[str]) -> None:
        """Each coach claims his entry and checks in."""
        for index, code in enumerate(codes):
            ws = await self.connect(f"b{index}")
            await ws.send(encode(JoinTournament(self.tournament, code)))
            await self.answer(ws)
            await ws.send(encode(CheckIn(self.tournament)))
            await self.answer(ws)
            self.coaches.append(ws)

    # ------------------------------------------------------------------ frames
    def on_frame(self, ws: Any, frame: bytes) -> Any:
        """One frame at a coach's connection; returns a reply to send, if any."""
        msg = peek(frame)
        kind = msg["t"]
        if kind == "TableAssigned":
            return self.on_assigned(ws, msg)
        if kind == "RoomJoined":
            msg, kind = msg["snapshot"], "Snapshot"
        if kind == "Error":
            if self.tally.measuring:
                self.tally.errors[msg["code"]] = self.tally.errors.get(msg["code"], 0) + 1
            return None
        table = self.tables.get(msg["code"]) if kind in ("Snapshot", "MovePlayed") else None
        if table is not None:
            self.on_position(ws, table, kind, msg)
        return None

    def on_assigned(self, ws: Any, msg: dict[str, Any]) -> JoinRoom:
        """A coach's table: note his seat's connection, and sit down."""
        new = self.tables.setdefault(msg["room"], Table(msg["room"]))
        new.seats[msg["seat"]] = ws
        if len(self.tables) * 2 == len(self.coaches) and all(len(t.seats) == 2 for t in self.tables.values()):
            self.assigned.set()
        return JoinRoom(msg["room"])

    def on_position(self, ws: Any, table: Table, kind: str, msg: dict[str, Any]) -> None:
        """A Snapshot or MovePlayed of a table: time the sender's flick, keep the newest position."""
        tally = self.tally
        if kind == "MovePlayed" and table.sent is not None and msg["version"] == table.sent[0] + 1 and \
                ws is table.seats.get(table.sent[1]):
            action = msg["action"]
            if tally.measuring and action is not None and action.get("action") == "flick":
                tally.latencies.append(time.perf_counter() - table.sent[2])
            table.sent = None
        if msg["version"] > table.version:
            table.version, table.raw_position, table.prompts = msg["version"], msg["position"], msg["prompts"]
            if kind == "MovePlayed":
                tally.moves += tally.measuring
                if msg["trajectory"] is not None:
                    table.at_rest = time.monotonic() + msg["trajectory"]["ms"] / 1000

    async def reader(self, ws: Any) -> None:
        """A coach's one reader."""
        try:
            async for frame in ws:
                reply = self.on_frame(ws, frame)
                if reply is not None:
                    await ws.send(encode(reply))
        except websockets.ConnectionClosed:
            pass

    async def watch_reader(self) -> None:
        """A spectator of the tournament counts its updates."""
        try:
            async for _frame in self.spectator:
                if self.tally.measuring:
                    self.tally.updates += 1
        except websockets.ConnectionClosed:
            pass

    # ------------------------------------------------------------------ pacing
    async def pace(self, table: Table, stop: float) -> None:
        """One flick (or a prompt's default) every move_every seconds, once the board is at rest."""
        next_at = time.monotonic() + self.rng.uniform(0, self.args.move_every)
        while time.monotonic() < stop:
            await asyncio.sleep(max(0.0, max(next_at, table.at_rest) - time.monotonic()))
            raw = table.raw_position
            if raw is None or raw.get("result") is not None or table.sent is not None or len(table.seats) < 2:
                await asyncio.sleep(0.05)
                continue
            next_at = time.monotonic() + self.args.move_every
            await self.act(table, raw)

    async def act(self, table: Table, raw: dict[str, Any]) -> None:
        """The table's next action: a prompt's default, else a random flick of the coach to move."""
        prompt = next((p for p in table.prompts if p.get("default") is not None), None)
        if prompt is not None:
            table.sent = (table.version, prompt["team"], time.perf_counter())
            await table.seats[prompt["team"]].send(encode(Act(notation.action_from_json(prompt["default"]),
                                                              table.version)))
            return
        position = notation.position_from_json(raw)
        if position.part.kind not in ("period", "overtime"):
            return
        team = position.to_move
        rng = self.rng
        flick = Flick(team, rng.choice(rules.legal_stones(position, team)), rng.uniform(-1500, 1500),
                      rng.uniform(-1500, 1500))
        table.sent = (table.version, team, time.perf_counter())
        await table.seats[team].send(encode(Act(flick, table.version)))

    # ------------------------------------------------------------------ the run
    async def start_round(self) -> float:
        """Start the round, wait until every table's match began; returns how long that took."""
        t0 = time.monotonic()
        await self.organiser.send(encode(StartRound(self.tournament, self.secret)))
        await asyncio.wait_for(self.assigned.wait(), 60)
        while any(t.raw_position is None or t.version < 1 for t in self.tables.values()) and \
                time.monotonic() - t0 < 60:
            await asyncio.sleep(0.05)
        return time.monotonic() - t0

    async def run(self, pid: int) -> tuple[float, float, Figures, Figures]:
        """Enter, start, play and measure; returns (entered s, opened s, figures before, figures after)."""
        codes = await self.create()
        t0 = time.monotonic()
        await self.enter(codes)
        entered_s = time.monotonic() - t0
        readers = [asyncio.create_task(self.reader(ws)) for ws in self.coaches]
        self.spectator = await self.connect("spectator")
        await self.spectator.send(encode(WatchTournament(self.tournament)))
        watching = asyncio.create_task(self.watch_reader())
        opened_s = await self.start_round()
        stop = time.monotonic() + self.args.warmup + self.args.duration
        pacers = [asyncio.create_task(self.pace(t, stop)) for t in self.tables.values()]
        await asyncio.sleep(self.args.warmup)
        self.tally.measuring = True
        before = Figures.now(pid)
        await asyncio.sleep(self.args.duration)
        after = Figures.now(pid)
        self.tally.measuring = False
        await asyncio.gather(*pacers)
        for task in [*readers, watching]:
            task.cancel()
        await asyncio.gather(*(ws.close() for ws in [*self.coaches, self.organiser, self.spectator]),
                             return_exceptions=True)
        return entered_s, opened_s, before, after

    def report(self, entered_s: float, opened_s: float, before: Figures, after: Figures, log: Path) -> float:
        """Print the run's figures; returns the p99 in ms."""
        tally, tables = self.tally, self.tables
        wall = after.wall - before.wall
        ordered = sorted(tally.latencies)
        p50 = statistics.median(ordered) * 1000 if ordered else float("nan")
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000 if ordered else float("nan")
        machine = 100 * (after.busy[0] - before.busy[0]) / max(1.0, after.busy[1] - before.busy[1])
        print(f"live: {len(self.coaches)} players, {len(tables)} tables at once; entered and checked in in "
              f"{entered_s:.1f} s, round paired and every match started in {opened_s:.1f} s")
        slowest = ordered[-1] * 1000 if ordered else 0.0
        print(f"live: flick -> MovePlayed p50 {p50:.1f} ms, p99 {p99:.1f} ms, slowest {slowest:.0f} ms over "
              f"{len(ordered)} flicks ({len(ordered) / wall:.1f}/s asked {len(tables) / self.args.move_every:.1f}/s)")
        print(f"live: server CPU {100 * (after.server_cpu - before.server_cpu) / wall:.0f}% (its process "
              f"{100 * (after.server_own - before.server_own) / wall:.0f}%), "
              f"bench {100 * (after.bench_cpu - before.bench_cpu) / wall:.0f}%, machine {machine:.0f}% of all cores; "
              f"{tally.updates} TournamentUpdates to the watcher ({tally.updates / wall:.1f}/s); refused: "
              f"{tally.errors or 'none'}")
        print(f"live: {'within' if p99 < TARGET_P99_MS else 'ABOVE'} the {TARGET_P99_MS:.0f} ms p99 target; "
              f"server log in {log}")
        return p99


async def live(args: argparse.Namespace) -> float:
    """Run the live benchmark against a server subprocess and print its figures; returns the p99 in ms."""
    data = Path(tempfile.mkdtemp(prefix="sprtec-bench-tournament-"))
    server = ServerProcess(data, args.workers, data / "server.log", "WARNING")
    server.start()
    url = await asyncio.to_thread(server.wait, SERVER_START_S)
    if url is None:
        server.stop()
        raise SystemExit(f"sprtec bench tournament: {server.error or 'the server did not answer'}; see {data}")
    assert server.process is not None
    bench = LiveBench(args, url)
    try:
        entered_s, opened_s, before, after = await bench.run(server.process.pid)
    finally:
        await asyncio.to_thread(server.stop, 60)
    return bench.report(entered_s, opened_s, before, after, data / "server.log")

"""The round part of ``sprtec bench tournament``: the server's CPU time from a 200-player round's StartRound until its
100 tables are open and its 200 coaches told where to play (target under 100 ms), against a floor measured in the
same run.

Why in the server's own process: the figure is the server's work - the organiser's request checked, the absentees
and the pairing decided by the tournament's core, the round written to the store, 100 rooms opened through the lobby
(their rows written, their codes registered), 100 TableOpened events written, 200 TableAssigned encoded and sent - so
the bench runs a real ``Server`` (its SQLite store and writer thread, its lobby and registry, its tournament service)
and times ``StartRound`` with ``time.process_time``, which counts every thread of the process. The coaches are
sessions that encode each message as the socket would carry it and drop it: what the network costs is not the
round's. The tournament is set up in the service directly (200 entries claimed and checked in; for a late round, its
file with the rounds before played out by ``tournament_pairing.simulated_swiss``): only its StartRound is timed.

The floor is what no server can skip, timed in the same run: the engine's pairing of that round (``pair_course``, its
CPU time counted inside the very StartRound) and the 100 rooms' matches set up (``RoomCore``: the opening position of
each, timed after each sample). Round 1 is seeded by rating (top half against bottom half, as rated events do), so
its pairing is cheap and the whole start is held to the target; a late Swiss round's matching costs far more than
100 ms on its own (the pairing part has its own 1 s target), so there the server's work over the floor is held to it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.tournament_pairing import simulated_players, simulated_swiss
from server.app import Server, ServerConfig
from server.constants import HISTORY_SIZE
from server.rooms.room_core import RoomCore
from server.tournaments import credentials, tournament_core
from server.tournaments import tournament_records as records
from server.tournaments.handlers import TournamentRequests
from server.tournaments.log import ORGANISER, CheckedIn, Claimed, Created, Event, RoundStarted, Row
from server.tournaments.service import Running
from server.tournaments.state import start
from server.tournaments.state_snapshot import write_snapshot
from server.tournaments.tournament_core import TournamentCore
from server.wire import outgoing
from shared.protocol import ServerMessage, StartRound
from shared.tournament.model import Stage, Tournament
from shared.tournament.pairing import Pairing, pair_course
from shared.tournament.progress import Course
from shared.tournament.writing import to_json

TARGET_MS = 100.0


@dataclass(eq=False)
class Coach:
    """A connected player as the service sees him: messages encoded for the socket, then dropped."""

    player_id: int
    name: str
    ws: Any = None
    sent: list[str] = field(default_factory=list)

    async def send(self, message: ServerMessage) -> None:
        """Encode the message as a session would send it."""
        outgoing(message)
        self.sent.append(type(message).__name__)


@dataclass(frozen=True, kw_only=True, slots=True)
class Sample:
    """One StartRound timed, and its floor timed on the same state."""

    total_ms: float
    pairing_ms: float
    rooms_ms: float
    tables: int
    told: int

    @property
    def floor_ms(self) -> float:
        """What no server can skip: the pairing and the rooms' matches set up."""
        return self.pairing_ms + self.rooms_ms


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--round-repeat (the other options are the pairing part's: --players, --played, --seed)."""
    parser.add_argument("--round-repeat", type=int, default=5, help="StartRounds timed per round; medians (default 5)")


async def round_part(args: argparse.Namespace) -> None:
    """Time round 1 (seeded by rating) and a late round of the same field, and print them against their floors."""
    data = Path(tempfile.mkdtemp(prefix="sprtec-bench-round-"))
    server = Server(ServerConfig(port=0, data_dir=data, workers=0))
    await server.start()
    await server.ready.wait()
    try:
        coaches = {i: Coach(i, f"Player {i}") for i in range(1, args.players + 1)}
        server.sessions.update(coaches)  # type: ignore[arg-type]
        first = Tournament(name="sprtec bench", seed=args.seed, players=simulated_players(args.players, args.seed),
                           stages=(Stage(seeding="rating"),))
        late = simulated_swiss(args.players, args.played, args.seed)
        for label, t in (("round 1 (seeded by rating)", first), (f"round {args.played + 1}", late)):
            samples = [await _sample(server, t, coaches, n) for n in range(args.round_repeat)]
            _report(label, args.players, samples, whole=t is first)
    finally:
        await server.shutdown()


async def _sample(server: Server, t: Tournament, coaches: dict[int, Coach], number: int) -> Sample:
    """A fresh tournament of ``t`` with every entry claimed and checked in; its StartRound timed, then its floor."""
    service = server.tournaments
    tid = f"BENCH{number}{len(service.runs)}"
    secret = credentials.new_organiser_secret()
    row = Row(index=0, at_ms=service.now_ms(), actor=ORGANISER, event=Created(file=to_json(t), no_show_ms=600_000))
    state = start(tid, row)
    stored = records.TournamentRow(id=tid, name=t.name, secret_hash=credentials.hashed(service.store.hasher, secret),
                                   events=1, status="registering", created_at=row.at_ms / 1000)
    await service.store.write([records.add_tournament(stored, write_snapshot(state)), records.append_event(tid, row)])
    run = Running(core=TournamentCore(state), secret_hash=stored.secret_hash)
    service.adopt(run)
    players = t.players
    events: list[Event] = [Claimed(entry=p.id, player_id=i, name=p.name) for i, p in enumerate(players, start=1)]
    events += [CheckedIn(entry=p.id) for p in players]
    async with run.lock:
        await service.commit(run, events, ORGANISER)
    organiser = Coach(0, "organiser")
    for coach in coaches.values():
        coach.sent.clear()
    pairing_s = 0.0

    def timed_pairing(course: Course) -> Pairing:
        """The core's pairing, its CPU time counted (the floor's first part, inside the very StartRound)."""
        nonlocal pairing_s
        started = time.process_time()
        try:
            return pair_course(course)
        finally:
            pairing_s += time.process_time() - started

    gc.collect()
    tournament_core.pair_course = timed_pairing  # type: ignore[attr-defined]
    try:
        started = time.process_time()
        await TournamentRequests(service, server.limits).start_round(organiser, StartRound(tid, secret))
        total = time.process_time() - started
    finally:
        tournament_core.pair_course = pair_course  # type: ignore[attr-defined]
    assert organiser.sent == ["TournamentDone"], organiser.sent
    tables = len(run.state.tables)
    told = sum(c.sent.count("TableAssigned") for c in coaches.values())
    pairing = next(r.event.pairing for r in records.log(service.store, tid) if isinstance(r.event, RoundStarted))
    ruleset = t.stages[0].ruleset
    started = time.process_time()
    for m in pairing.matches:
        RoomCore(code="FLOOR", ruleset=ruleset, overrides={}, private=True, match_id=f"floor-{m.table}", seed=m.table,
                 history_size=HISTORY_SIZE, rated=True, reserved={"home": (1, m.home), "away": (2, m.away)})
    rooms_s = time.process_time() - started
    return Sample(total_ms=total * 1000, pairing_ms=pairing_s * 1000, rooms_ms=rooms_s * 1000, tables=tables,
                  told=told)


def _report(label: str, players: int, samples: list[Sample], *, whole: bool) -> None:
    """A round's median figure, its floor, and the verdict: the whole start for a cheap pairing, the server's work
    over the floor for an expensive one."""
    total = statistics.median(s.total_ms for s in samples)
    floor = statistics.median(s.floor_ms for s in samples)
    pairing = statistics.median(s.pairing_ms for s in samples)
    rooms = statistics.median(s.rooms_ms for s in samples)
    last = samples[-1]
    least, most = min(s.total_ms for s in samples), max(s.total_ms for s in samples)
    print(f"round: {players} players, {label}: StartRound to {last.tables} tables open and {last.told} coaches told "
          f"in a median {total:.0f} ms of server CPU over {len(samples)} runs (min {least:.0f}, max {most:.0f})")
    print(f"round: floor {floor:.0f} ms (the engine's pairing {pairing:.0f} ms + {last.tables} rooms' matches set up "
          f"{rooms:.0f} ms); the server's work over it {total - floor:.0f} ms")
    figure, what = (total, "the whole start") if whole else (total - floor, "the server's work over the floor")
    print(f"round: {what} {figure:.0f} ms: {'within' if figure < TARGET_MS else 'ABOVE'} the {TARGET_MS:.0f} ms target")


def run_round(args: argparse.Namespace) -> None:
    """The round part on its own event loop."""
    asyncio.run(round_part(args))

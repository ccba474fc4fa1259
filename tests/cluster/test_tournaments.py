"""Tournaments on three real nodes sharing a real Redis and PostgreSQL: any node takes a tournament's coaches, organiser
and watchers (their requests forwarded to the node that runs it); kill -9 of that node mid-round and another node
takes the tournament over from the store - its tables, standings and audit intact, its rounds starting by themselves
there; a node paused past the tournament's lease writes nothing the new owner did not see."""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Callable

import pytest

from server.tournaments import tournament_records as records
from server.tournaments.log import SERVER, CheckedIn, ResultSet, RoundStarted, Row, TableOpened
from shared.protocol import CheckIn, StartRound, TournamentDone, TournamentUpdate, WatchTournament, encode
from sprtec.commands.tournament_actions import create
from sprtec.commands.tournament_client import Connection
from sprtec.commands.tournament_coach import CoachOptions, coach
from tests.cluster.leased_objects import committed, moved_away, moves, owner, until, update_until
from tests.cluster.nodes import Node
from tests.tournament_server.helpers import file_of

pytestmark = pytest.mark.slow
QUICK = {"periods": 1, "period_ms": 6000, "break_ms": 0, "move_clock_ms": 2000, "disconnect_grace_ms": 30000}


def _log(postgres_url: str, tournament: str) -> list[Row]:
    """The tournament's log as the shared store committed it."""
    return committed(postgres_url, lambda store: records.log(store, tournament))


@pytest.mark.slow(seconds=25)
async def test_a_tournament_whose_node_is_killed_mid_round_goes_on_on_another(
    cluster: Callable[[str], Node], redis_url: str, postgres_url: str
) -> None:
    """Created on A, its coaches (bots) enter and play through B and C, a watcher follows it through B. A is killed
    with -9 while round 1 is played: another node takes the tournament over, the round's matches finish (their rooms
    taken over too), round 2 starts by itself on the new owner, the watcher on B never reconnects, and the log
    committed before the kill is the start of the log after it."""
    a, b, c = cluster("a"), cluster("b"), cluster("c")
    nodes = (a.url, b.url, c.url)
    organiser = await Connection.open(a.url, "organiser")
    file = file_of(4, stages=[{"system": "swiss", "rounds": 2, "ruleset": "standard", "settings": QUICK}])
    created, codes = await create(organiser, json.loads(file), no_show_ms=60_000, next_round_after_ms=1000)
    tid = created.tournament
    assert await owner(redis_url, f"tournament:{tid}") == "a"
    bots = [asyncio.create_task(coach((b.url, c.url)[i % 2], tid, CoachOptions(name=f"bot-{code.entry}",
                                                                               code=code.code, level=None),
                                      others=nodes))
            for i, code in enumerate(codes)]
    try:
        watcher = await Connection.open(b.url, "watcher")
        update = await watcher.ask(WatchTournament(tid), TournamentUpdate)  # forwarded to A, answered through B
        update = await update_until(watcher, lambda u: sum(e.checked_in for e in u.entries) == 4, update, 60)
        second = await Connection.open(c.url, "organiser-desk")  # the organiser's act through C, forwarded to A
        await second.ask(StartRound(tid, created.secret), TournamentDone)
        opened = await until(lambda: [r.event for r in _log(postgres_url, tid) if isinstance(r.event, TableOpened)])
        assert isinstance(opened, list) and len(opened) == 2
        await until(lambda: all(moves(postgres_url, t.match_id) >= 2 for t in opened), 90)
        before = _log(postgres_url, tid)
        a.kill()
        finished = await update_until(watcher, lambda u: u.status == "finished", update, 240)
        new_owner = await owner(redis_url, f"tournament:{tid}")
        reports = await asyncio.wait_for(asyncio.gather(*bots), 120)
    finally:
        for task in bots:
            task.cancel()
    assert new_owner in ("b", "c"), (new_owner, b.tail(), c.tail())
    after = _log(postgres_url, tid)
    told = "\n".join(f"{r.index} {r.actor} {r.event}" for r in after)[-6000:]
    assert after[: len(before)] == before
    assert [r.index for r in after] == list(range(len(after)))
    rounds = [(r, r.event) for r in after if isinstance(r.event, RoundStarted)]
    assert [e.round for _, e in rounds] == [1, 2] and rounds[1][0].actor == SERVER
    assert rounds[1][0].index >= len(before)  # started by itself on the new owner
    results = [r.event for r in after if isinstance(r.event, ResultSet)]
    assert sorted((e.round, e.table) for e in results) == [(1, 1), (1, 2), (2, 1), (2, 2)], told
    first_round = {t.match_id for t in opened}
    assert {e.match_id for e in results if e.round == 1} == first_round  # the matches taken over, not new ones
    assert finished.complete and finished.version == len(after)
    assert all(len(report.matches) == 2 for report in reports), reports
    assert finished.audit, finished


async def test_a_tournament_node_paused_past_its_lease_writes_nothing_the_new_owner_did_not_see(
    cluster: Callable[[str], Node], redis_url: str, postgres_url: str
) -> None:
    """A runs the tournament and is frozen (SIGSTOP) past its lease: B takes it over and checks p2 in; the check-in
    of p1 that the organiser sent to A meanwhile, read when A wakes, is not written under A's lapsed lease - A's write
    is refused by the store's fence and the request goes on to B, which writes it. Every event of the log is one B
    folded, once."""
    a, b = cluster("a"), cluster("b")
    organiser = await Connection.open(a.url, "organiser")
    created, _codes = await create(organiser, json.loads(file_of(4)), no_show_ms=60_000)
    tid = created.tournament
    assert await owner(redis_url, f"tournament:{tid}") == "a"
    desk = await Connection.open(b.url, "desk")
    a.process.send_signal(signal.SIGSTOP)
    try:
        await until(lambda: f"took over tournament {tid}" in b.log.read_text(), 30)
        await desk.ask(CheckIn(tid, "p2", created.secret), TournamentDone)  # B runs it now
        await organiser.ws.send(encode(CheckIn(tid, "p1", created.secret)))  # read by A when it wakes
    finally:
        a.process.send_signal(signal.SIGCONT)
    done = await organiser.receive(timeout=30)
    assert isinstance(done, TournamentDone), done
    update = await desk.ask(WatchTournament(tid), TournamentUpdate)
    log = _log(postgres_url, tid)
    checked = [r.event.entry for r in log if isinstance(r.event, CheckedIn)]
    assert checked == ["p2", "p1"]  # p1 once, after p2: written by B, never under A's lease
    assert [r.index for r in log] == list(range(len(log))) and update.version == len(log)
    assert {e.entry for e in update.entries if e.checked_in} == {"p1", "p2"}
    assert await owner(redis_url, f"tournament:{tid}") == "b"
    assert "stale lease" in a.log.read_text() or "lost the lease of tournament" in a.log.read_text(), a.tail()


async def test_a_tournament_run_on_one_node_hears_the_results_of_its_tables_played_on_another(
    cluster: Callable[[str], Node], redis_url: str, postgres_url: str
) -> None:
    """Round 1's tables are opened on A; the tournament's lease then passes to B while they are played on A. B records
    both results (told by A, or read from the store), starts round 2 by itself and tells the coaches connected to A
    their tables; they play them on B. Nothing is recorded twice."""
    a, b = cluster("a"), cluster("b")
    organiser = await Connection.open(a.url, "organiser")
    file = file_of(4, stages=[{"system": "swiss", "rounds": 2, "ruleset": "standard", "settings": QUICK}])
    created, codes = await create(organiser, json.loads(file), no_show_ms=60_000, next_round_after_ms=1000)
    tid = created.tournament
    bots = [asyncio.create_task(coach(a.url, tid, CoachOptions(name=f"bot-{code.entry}", code=code.code, level=None),
                                      others=(b.url,)))
            for code in codes]
    try:
        update = await organiser.ask(WatchTournament(tid), TournamentUpdate)
        update = await update_until(organiser, lambda u: sum(e.checked_in for e in u.entries) == 4, update, 60)
        await organiser.ask(StartRound(tid, created.secret), TournamentDone)
        assert await moved_away(redis_url, f"tournament:{tid}", a) == "b", (a.tail(), b.tail())
        finished = await update_until(organiser, lambda u: u.status == "finished", update, 240)
        reports = await asyncio.wait_for(asyncio.gather(*bots), 120)
    finally:
        for task in bots:
            task.cancel()
    log = _log(postgres_url, tid)
    results = [r.event for r in log if isinstance(r.event, ResultSet)]
    assert sorted((e.round, e.table) for e in results) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert all(e.source in ("match", "forfeit") for e in results)
    assert [r.actor for r in log if isinstance(r.event, RoundStarted)][1] == SERVER
    assert finished.complete and finished.version == len(log)
    assert all(len(report.matches) == 2 for report in reports), reports
    assert "took over tournament" in b.log.read_text()

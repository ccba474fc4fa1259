"""Team leagues on real nodes sharing a real Redis and PostgreSQL, as tournaments are (``test_tournaments``): any node
takes a league's players, organiser and watchers (their requests forwarded to the node that runs it); kill -9 of that
node mid-round and another node takes the league over from the store - its open games, the matches being played at
them and its table - and the day goes on there; the results of games played on another node reach it; a node paused
past the league's lease writes nothing the new owner did not see."""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Callable
from typing import Any

import pytest

from server.leagues import league_records as records
from server.leagues.log import DayOpened, GameResult, GameTableOpened, LineupGiven, Row
from shared.protocol import (
    LeagueDone,
    LeagueList,
    LeagueUpdate,
    ListLeagues,
    OpenMatchDay,
    StartLeagueRound,
    SubmitLineup,
    WatchLeague,
    encode,
)
from sprtec.commands.league_actions import create
from sprtec.commands.league_coach import league_player
from sprtec.commands.tournament_client import Connection, Refused
from sprtec.commands.tournament_coach import CoachOptions
from tests.cluster.leased_objects import committed, moved_away, moves, owner, until, update_until
from tests.cluster.nodes import Node
from tests.league_server.helpers import league_file

pytestmark = pytest.mark.slow
QUICK = {"periods": 1, "period_ms": 6000, "break_ms": 0, "move_clock_ms": 2000, "disconnect_grace_ms": 30000}


def _log(postgres_url: str, league: str) -> list[Row]:
    """The league's log as the shared store committed it."""
    return committed(postgres_url, lambda store: records.log(store, league))


def _fixture(update: LeagueUpdate, fixture: str = "d1f1") -> Any:
    """One fixture's line of an update."""
    return next(f for f in update.fixtures if f.fixture == fixture)


def _round_over(update: LeagueUpdate, number: int) -> bool:
    """Every game of round ``number`` of d1f1 has its result."""
    games = [g for g in _fixture(update).games if g.round == number]
    return len(games) == 2 and all(g.status in ("ended", "walkover") for g in games)


async def test_a_league_day_whose_node_is_killed_mid_round_goes_on_on_another(
    cluster: Callable[[str], Node], redis_url: str, postgres_url: str
) -> None:
    """Created on A, its four players (bots) take their places and play through B and C, a watcher follows it
    through B, the organiser's desk acts through C. A is killed with -9 while round 1's games are played: another
    node takes the league over, round 1's games finish at their tables (their rooms taken over too, the same
    matches), the organiser starts round 2 through C on the new owner, the fixture ends, the watcher on B never
    reconnects, and the log committed before the kill is the start of the log after it."""
    a, b, c = cluster("a"), cluster("b"), cluster("c")
    nodes = (a.url, b.url, c.url)
    organiser = await Connection.open(a.url, "organiser")
    created = await create(organiser, json.dumps(league_file(size=2)), no_show_ms=60_000, settings=QUICK)
    lid, secret = created.league, created.secret
    assert await owner(redis_url, f"league:{lid}") == "a"

    def over(update: LeagueUpdate) -> bool:
        """The fixture played is finished."""
        return bool(_fixture(update).finished)

    codes = [p for p in created.players if p.team in ("most", "brno")]
    bots = [asyncio.create_task(league_player((b.url, c.url)[i % 2], lid,
                                              CoachOptions(name=f"bot-{p.player}", code=p.code, level=None), over,
                                              give_up_s=120, others=nodes))
            for i, p in enumerate(codes)]
    try:
        watcher = await Connection.open(b.url, "watcher")
        update = await watcher.ask(WatchLeague(lid), LeagueUpdate)  # forwarded to A, answered through B
        update = await update_until(watcher, lambda u: sum(map(sum, (t.claimed for t in u.teams))) == 4, update, 60)
        desk = await Connection.open(c.url, "organiser-desk")  # the organiser's acts through C, forwarded to A
        await desk.ask(OpenMatchDay(lid, secret, 1), LeagueDone)
        for team, players in (("most", ("m1", "m2")), ("brno", ("b1", "b2"))):
            await desk.ask(SubmitLineup(league=lid, fixture="d1f1", players=players, team=team, secret=secret),
                           LeagueDone)
        assert (await desk.ask(StartLeagueRound(league=lid, secret=secret, fixture="d1f1"), LeagueDone)).id == 1
        opened = await until(lambda: [r.event for r in _log(postgres_url, lid)
                                       if isinstance(r.event, GameTableOpened)])
        assert isinstance(opened, list) and len(opened) == 2
        await until(lambda: all(moves(postgres_url, t.match_id) >= 2 for t in opened), 90)
        before = _log(postgres_url, lid)
        a.kill()
        update = await update_until(watcher, lambda u: _round_over(u, 1), update, 240)
        new_owner = await owner(redis_url, f"league:{lid}")
        assert (await desk.ask(StartLeagueRound(league=lid, secret=secret, fixture="d1f1"), LeagueDone)).id == 2
        finished = await update_until(watcher, over, update, 240)
        reports = await asyncio.wait_for(asyncio.gather(*bots), 120)
    finally:
        for task in bots:
            task.cancel()
    assert new_owner in ("b", "c"), (new_owner, b.tail(), c.tail())
    after = _log(postgres_url, lid)
    told = "\n".join(f"{r.index} {r.actor} {r.event}" for r in after)[-6000:]
    assert after[: len(before)] == before
    assert [r.index for r in after] == list(range(len(after)))
    results = [r.event for r in after if isinstance(r.event, GameResult)]
    assert sorted((e.round, e.board) for e in results) == [(1, 1), (1, 2), (2, 1), (2, 2)], told
    assert {e.match_id for e in results if e.round == 1} == {t.match_id for t in opened}  # the same matches
    assert all(e.source in ("match", "forfeit") for e in results), told
    line = _fixture(finished)
    assert line.finished and line.points is not None and finished.version == len(after)
    assert {row.team: row.played for row in finished.table} == {"most": 1, "brno": 1, "kladno": 0}
    assert all(len(report.matches) == 2 for report in reports), reports
    assert f"took over league {lid}" in (b.log.read_text() + c.log.read_text())


async def test_a_leagues_organiser_act_sent_to_a_node_that_does_not_run_it_is_answered_through_that_node(
    cluster: Callable[[str], Node], redis_url: str, postgres_url: str
) -> None:
    """A league run on A: through B its organiser opens a day (LeagueDone, written by A under its lease), a wrong
    secret is NOT_ORGANISER and an unknown id LEAGUE_NOT_FOUND, each answered to the desk on B; B's list of leagues
    has the league A runs."""
    a, b = cluster("a"), cluster("b")
    organiser = await Connection.open(a.url, "organiser")
    created = await create(organiser, json.dumps(league_file()), no_show_ms=60_000)
    lid = created.league
    desk = await Connection.open(b.url, "desk")
    assert (await desk.ask(OpenMatchDay(lid, created.secret, 1), LeagueDone)).id == 1
    for request, code in ((OpenMatchDay(lid, "not-the-secret", 1), "NOT_ORGANISER"),
                          (OpenMatchDay("NOPE", created.secret, 1), "LEAGUE_NOT_FOUND")):
        with pytest.raises(Refused) as refused:
            await desk.ask(request, LeagueDone)
        assert refused.value.code == code
    assert [r.event for r in _log(postgres_url, lid)][-1] == DayOpened(day=1)
    assert await owner(redis_url, f"league:{lid}") == "a"

    async def listed() -> LeagueList:
        """B's list, once it has the league as A last published it (every beat)."""
        while True:
            found = await desk.ask(ListLeagues(), LeagueList)
            if any(line.league == lid and line.day == 1 for line in found.leagues):
                return found
            await asyncio.sleep(0.3)

    line = next(line for line in (await asyncio.wait_for(listed(), 30)).leagues if line.league == lid)
    assert (line.name, line.day, line.teams) == ("2. liga", 1, 3)


async def test_a_league_node_paused_past_its_lease_writes_nothing_the_new_owner_did_not_see(
    cluster: Callable[[str], Node], redis_url: str, postgres_url: str
) -> None:
    """A runs the league (its day open) and is frozen (SIGSTOP) past its lease: B takes it over and takes Most's
    line-up; Brno's, which the organiser sent to A meanwhile, read when A wakes, is not written under A's lapsed
    lease - the store's fence refuses A's write, A stops the league, and the request goes on to B, which writes it.
    Every event of the log is one B folded, once."""
    a, b = cluster("a"), cluster("b")
    organiser = await Connection.open(a.url, "organiser")
    created = await create(organiser, json.dumps(league_file(size=2)), no_show_ms=60_000)
    lid, secret = created.league, created.secret
    await organiser.ask(OpenMatchDay(lid, secret, 1), LeagueDone)
    assert await owner(redis_url, f"league:{lid}") == "a"
    desk = await Connection.open(b.url, "desk")
    a.process.send_signal(signal.SIGSTOP)
    try:
        await until(lambda: f"took over league {lid}" in b.log.read_text(), 30)
        await desk.ask(SubmitLineup(league=lid, fixture="d1f1", players=("m1", "m2"), team="most", secret=secret),
                       LeagueDone)  # B runs it now
        await organiser.ws.send(encode(SubmitLineup(league=lid, fixture="d1f1", players=("b2", "b1"), team="brno",
                                                    secret=secret)))  # read by A when it wakes
    finally:
        a.process.send_signal(signal.SIGCONT)
    done = await organiser.receive(timeout=30)
    assert isinstance(done, LeagueDone), done
    update = await desk.ask(WatchLeague(lid), LeagueUpdate)
    log = _log(postgres_url, lid)
    given = [(r.event.side, r.event.players) for r in log if isinstance(r.event, LineupGiven)]
    assert given == [("home", ("m1", "m2")), ("away", ("b2", "b1"))]  # Brno's once, after Most's: written by B
    assert [r.index for r in log] == list(range(len(log))) and update.version == len(log)
    line = _fixture(update)
    assert (line.lineup_home, line.lineup_away) == (("m1", "m2"), ("b2", "b1"))
    assert await owner(redis_url, f"league:{lid}") == "b"
    assert "stale lease" in a.log.read_text() or f"lost the lease of league {lid}" in a.log.read_text(), a.tail()


async def test_a_league_run_on_one_node_hears_the_results_of_its_games_played_on_another(
    cluster: Callable[[str], Node], redis_url: str, postgres_url: str
) -> None:
    """Round 1's games are opened on A; the league's lease then passes to B while they are played on A. B records
    both results (told by A, or read from the store), and round 2, started by the organiser through A, is played on
    B by the players connected to A. Nothing is recorded twice."""
    a, b = cluster("a"), cluster("b")
    organiser = await Connection.open(a.url, "organiser")
    created = await create(organiser, json.dumps(league_file(size=2)), no_show_ms=60_000, settings=QUICK)
    lid, secret = created.league, created.secret

    def over(update: LeagueUpdate) -> bool:
        """The fixture played is finished."""
        return bool(_fixture(update).finished)

    bots = [asyncio.create_task(league_player(a.url, lid, CoachOptions(name=f"bot-{p.player}", code=p.code,
                                                                       level=None), over, give_up_s=120,
                                              others=(b.url,)))
            for p in created.players if p.team in ("most", "brno")]
    try:
        update = await organiser.ask(WatchLeague(lid), LeagueUpdate)
        update = await update_until(organiser, lambda u: sum(map(sum, (t.claimed for t in u.teams))) == 4, update,
                                     60)
        await organiser.ask(OpenMatchDay(lid, secret, 1), LeagueDone)
        for team, players in (("most", ("m1", "m2")), ("brno", ("b1", "b2"))):
            await organiser.ask(SubmitLineup(league=lid, fixture="d1f1", players=players, team=team, secret=secret),
                                LeagueDone)
        await organiser.ask(StartLeagueRound(league=lid, secret=secret, fixture="d1f1"), LeagueDone)
        opened = await until(lambda: [r.event for r in _log(postgres_url, lid)
                                       if isinstance(r.event, GameTableOpened)])
        assert await moved_away(redis_url, f"league:{lid}", a) == "b", (a.tail(), b.tail())
        update = await update_until(organiser, lambda u: _round_over(u, 1), update, 240)
        await organiser.ask(StartLeagueRound(league=lid, secret=secret, fixture="d1f1"), LeagueDone)
        finished = await update_until(organiser, over, update, 240)
        reports = await asyncio.wait_for(asyncio.gather(*bots), 120)
    finally:
        for task in bots:
            task.cancel()
    log = _log(postgres_url, lid)
    told = "\n".join(f"{r.index} {r.actor} {r.event}" for r in log)[-6000:]
    results = [r.event for r in log if isinstance(r.event, GameResult)]
    assert sorted((e.round, e.board) for e in results) == [(1, 1), (1, 2), (2, 1), (2, 2)], told
    assert isinstance(opened, list) and {e.match_id for e in results if e.round == 1} == {t.match_id for t in opened}
    assert all(e.source in ("match", "forfeit") for e in results), told
    assert _fixture(finished).finished and finished.version == len(log)
    assert all(len(report.matches) == 2 for report in reports), reports
    assert f"took over league {lid}" in b.log.read_text()

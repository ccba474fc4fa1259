"""kill -9 in the middle of a league round: on restart on the same data the day resumes - the game being played goes
on in its recovered room, the game whose player was away gets a new table (LeagueGameAssigned after his Welcome),
the round completes, and the log before the crash is the start of the log after it."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

import pytest

from server.leagues import league_records as records
from server.leagues.log import GameResult, GameTableOpened, Row
from server.store.sqlite.data_reader import ReadOnlyData
from shared.protocol import (
    JoinLeague,
    JoinRoom,
    LeagueDone,
    LeagueGameAssigned,
    LeagueJoined,
    LeagueUpdate,
    OpenMatchDay,
    RoomJoined,
    StartLeagueRound,
    SubmitLineup,
    WatchLeague,
)
from sprtec.commands.league_actions import create
from sprtec.commands.league_coach import league_player
from sprtec.commands.tournament_client import Connection
from sprtec.commands.tournament_coach import CoachOptions
from tests.league_server.helpers import league_file
from tests.server.players import WireClient, play_until_end
from tests.tournament_server.helpers import expect
from tests.tournament_server.test_crash import LONG, _free_port, _moves, _serve, _wait


def _log(data: Path, lid: str) -> list[Row]:
    """The league's log as committed, read from another process."""
    reader = ReadOnlyData(data)
    try:
        return records.log(reader, lid)
    finally:
        reader.close()


def _round_over(update: LeagueUpdate) -> bool:
    """Round 1 of d1f1 has both results."""
    f = next(f for f in update.fixtures if f.fixture == "d1f1")
    return f.round == 1 and len(f.games) == 2 and all(g.status in ("ended", "walkover") for g in f.games)


@pytest.mark.slow
async def test_a_league_round_survives_a_kill_9_of_its_server(tmp_path: Path) -> None:
    """Board 1's players are bots playing when the server is killed; board 2's home player is offline."""
    data, port = tmp_path / "data", _free_port()
    url = f"ws://127.0.0.1:{port}/"
    server = _serve(data, port)
    bots: list[asyncio.Task[object]] = []
    try:
        organiser = await Connection.open(url, "organiser")
        created = await create(organiser, json.dumps(league_file(size=2)), no_show_ms=60_000, settings=LONG)
        lid, secret = created.league, created.secret
        codes = {p.player: p.code for p in created.players}
        late = await WireClient.connect(url, "late")
        await late.send(JoinLeague(lid, codes["m2"]))
        await expect(late, LeagueJoined)
        token = late.token
        await late.close()
        bots = [asyncio.create_task(league_player(url, lid, CoachOptions(name=f"bot-{p}", code=codes[p], level=None),
                                                  _round_over)) for p in ("m1", "b1", "b2")]
        update = await organiser.ask(WatchLeague(lid), LeagueUpdate)
        while sum(sum(t.claimed) for t in update.teams) < 4:
            message = await organiser.receive()
            update = message if isinstance(message, LeagueUpdate) else update
        await organiser.ask(OpenMatchDay(lid, secret, 1), LeagueDone)
        for team, players in (("most", ("m1", "m2")), ("brno", ("b1", "b2"))):
            await organiser.ask(SubmitLineup(league=lid, fixture="d1f1", players=players, team=team, secret=secret),
                                LeagueDone)
        await organiser.ask(StartLeagueRound(league=lid, secret=secret, fixture="d1f1"), LeagueDone)
        opened = {r.event.board: r.event for r in _log(data, lid) if isinstance(r.event, GameTableOpened)}
        await _wait(lambda: _moves(data, opened[1].match_id) >= 2)
        before = _log(data, lid)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        server = _serve(data, port)
        returning = await WireClient.connect(url, token=token)
        told = await expect(returning, LeagueGameAssigned)
        assert (told.board, told.round) == (2, 1) and told.room != opened[2].room
        if returning.code != told.room:
            await returning.send(JoinRoom(told.room))
            await expect(returning, RoomJoined)
        await asyncio.wait_for(play_until_end(returning), 90)
        await asyncio.wait_for(asyncio.gather(*bots), 120)
    finally:
        for task in bots:
            task.cancel()
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    after = _log(data, lid)
    assert after[: len(before)] == before
    results = {r.event.board: r.event for r in after if isinstance(r.event, GameResult)}
    assert results[1].match_id == opened[1].match_id and results[1].source in ("match", "forfeit")
    reopened = [r.event for r in after if isinstance(r.event, GameTableOpened) and r.event.board == 2]
    assert len(reopened) == 2 and results[2].match_id == reopened[1].match_id

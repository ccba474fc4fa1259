"""A league on a real server, over websockets: creation, places taken by code, line-ups by captains (hidden until
both are in), rounds at tables and on boards, results, walkovers and the table."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server.app import Server
from shared.league.reading import read_league
from shared.league.table import league_table_json
from shared.league.writing import to_json
from shared.protocol import (
    CreateLeague,
    JoinLeague,
    JoinRoom,
    LeagueCreated,
    LeagueGameAssigned,
    LeagueJoined,
    LeagueResult,
    LeagueUpdate,
    OpenMatchDay,
    RoomJoined,
    Score,
    StartLeagueRound,
    SubmitLineup,
)
from tests.league_server.helpers import SHORT, day_with_lineups, done, league, league_file, update_until, watch
from tests.server.players import WireClient, play_until_end
from tests.tournament_server.helpers import expect, refused

Start = Any


async def test_a_wrong_secret_a_wrong_code_and_a_bad_file_change_nothing(start_server: Start) -> None:
    """NOT_ORGANISER without the secret, BAD_ENTRY_CODE for a code that is no roster place's, the engine's code for a
    file the contract refuses, BAD_SETTINGS for settings a room refuses, LEAGUE_NOT_FOUND for an unknown id."""
    server: Server = await start_server()
    setup = await league(server.url, league_file(), unclaimed=("m1",))
    stranger = await WireClient.connect(server.url, "stranger")
    assert await refused(stranger, OpenMatchDay(setup.lid, "not-the-secret", 1)) == "NOT_ORGANISER"
    assert await refused(stranger, JoinLeague(setup.lid, "AAAAAAAA")) == "BAD_ENTRY_CODE"
    assert await refused(stranger, OpenMatchDay("NOPE", "x", 1)) == "LEAGUE_NOT_FOUND"
    bad = league_file()
    bad["teams"][1]["players"][0]["id"] = "m1"
    assert await refused(stranger, CreateLeague(file=json.dumps(bad))) == "DUPLICATE_PLAYER"
    assert await refused(stranger, CreateLeague(file=json.dumps(league_file()), settings={"nonsense": 1})) == \
        "BAD_SETTINGS"
    assert await refused(setup.organiser, OpenMatchDay(setup.lid, setup.secret, 7)) == "UNKNOWN_FIXTURE"
    assert server.leagues.runs[setup.lid].state.version == 1 + 8  # created, eight places taken, nothing more
    await stranger.send(JoinLeague(setup.lid, setup.codes["m1"]))
    assert (await expect(stranger, LeagueJoined)).player == "m1"
    assert await refused(stranger, JoinLeague(setup.lid, setup.codes["m1"])) == "ALREADY_ENTERED"


async def test_captains_give_lineups_that_everyone_sees_only_when_both_are_in(start_server: Start) -> None:
    """A captain gives his own team's line-up (NOT_CAPTAIN for another player or another team); a watcher sees that
    it is in but not whom it names until the other team's is in; the engine's checks refuse a bad line-up; once
    both are in the line-ups are fixed (ROUND_ORDER)."""
    server: Server = await start_server()
    setup = await league(server.url, league_file(), captains={"most": "m1", "brno": "b2"})
    spectator, _ = await watch(server.url, setup.lid)
    await done(setup.organiser, OpenMatchDay(setup.lid, setup.secret, 1))
    m1, b2, m2 = setup.players["m1"], setup.players["b2"], setup.players["m2"]
    assert await refused(m2, SubmitLineup(league=setup.lid, fixture="d1f1", players=("m1", "m2", "m3"))) == \
        "NOT_CAPTAIN"
    assert await refused(m1, SubmitLineup(league=setup.lid, fixture="d1f2", players=("b1", "b2", "b3"))) == \
        "NOT_CAPTAIN"
    assert await refused(m1, SubmitLineup(league=setup.lid, fixture="d1f1", players=("m1", "m1", "m3"))) == \
        "PLAYED_TWICE"
    assert await refused(m1, SubmitLineup(league=setup.lid, fixture="d1f1", players=("m1", "b1", "m3"))) == \
        "UNKNOWN_PLAYER"
    assert await refused(m1, SubmitLineup(league=setup.lid, fixture="d1f1", players=("m1", "m2"))) == "BAD_FORMAT"
    await done(m1, SubmitLineup(league=setup.lid, fixture="d1f1", players=("m3", "m2", "m1")))
    half = await update_until(spectator, lambda u: _fixture(u, "d1f1").lineup_home_in)
    assert _fixture(half, "d1f1").lineup_home == () and not _fixture(half, "d1f1").lineup_away_in
    await done(b2, SubmitLineup(league=setup.lid, fixture="d1f1", players=("b1", "b2", "b3")))
    both = await update_until(spectator, lambda u: _fixture(u, "d1f1").lineup_away_in)
    assert _fixture(both, "d1f1").lineup_home == ("m3", "m2", "m1")
    assert _fixture(both, "d1f1").lineup_away == ("b1", "b2", "b3")
    assert await refused(m1, SubmitLineup(league=setup.lid, fixture="d1f1", players=("m1", "m2", "m3"))) == \
        "ROUND_ORDER"


async def test_a_round_on_boards_is_entered_by_hand_and_the_table_follows(start_server: Start) -> None:
    """Rounds on boards: the organiser enters each game (ROUND_ORDER before a round is complete); after the last
    the fixture is finished and the update's table is the engine's table of the league's file."""
    server: Server = await start_server()
    setup = await league(server.url, league_file(size=2))
    await day_with_lineups(setup, 1, "d1f1", ["m1", "m2"], ["b1", "b2"], ("most", "brno"))
    spectator, _ = await watch(server.url, setup.lid)
    assert (await done(setup.organiser, StartLeagueRound(league=setup.lid, secret=setup.secret, fixture="d1f1",
                                                         boards=True))).id == 1
    assert await refused(setup.organiser, StartLeagueRound(league=setup.lid, secret=setup.secret, fixture="d1f1",
                                                           boards=True)) == "ROUND_ORDER"
    results = {(1, 1): Score(2, 0), (1, 2): Score(1, 1), (2, 1): Score(0, 3), (2, 2): Score(1, 0)}
    for (number, board), score in results.items():
        if board == 1 and number == 2:
            await done(setup.organiser, StartLeagueRound(league=setup.lid, secret=setup.secret, fixture="d1f1",
                                                         boards=True))
        await done(setup.organiser, LeagueResult(league=setup.lid, secret=setup.secret, fixture="d1f1",
                                                 round=number, board=board, score=score))
    last = await update_until(spectator, lambda u: _fixture(u, "d1f1").finished)
    line = _fixture(last, "d1f1")
    # round 1: m1 2:0 b1 (Most), m2 1:1 b2; round 2 (Brno's players home): b2 0:3 m1 (Most), b1 1:0 m2 (Brno)
    assert (line.team_score, line.points) == (Score(2, 1), Score(2, 0))
    file = to_json(server.leagues.runs[setup.lid].state.league)
    expected = league_table_json(read_league(file))["table"]
    assert [(r.team, r.points, r.games_for, r.games_against, r.rank) for r in last.table] == \
        [(r["team"], r["points"], r["games_for"], r["games_against"], r["rank"]) for r in expected]
    assert [g.source for g in line.games] == ["board"] * 4


async def test_games_at_tables_are_played_and_a_player_nobody_plays_as_loses_by_walkover(start_server: Start) -> None:
    """A round at tables: each player is told his game (fixture, teams, round, board, opponent) at a rated room; the
    games played are recorded from their rooms, the game of a roster player whose place nobody took is a walkover at
    once."""
    server: Server = await start_server()
    setup = await league(server.url, league_file(size=2), unclaimed=("b2",), settings=SHORT)
    await day_with_lineups(setup, 1, "d1f1", ["m1", "m2"], ["b1", "b2"], ("most", "brno"))
    spectator, _ = await watch(server.url, setup.lid)
    await done(setup.organiser, StartLeagueRound(league=setup.lid, secret=setup.secret, fixture="d1f1"))
    m1, b1 = setup.players["m1"], setup.players["b1"]
    told = {p: await expect(c, LeagueGameAssigned) for p, c in (("m1", m1), ("b1", b1))}
    assert (told["m1"].board, told["m1"].round, told["m1"].seat, told["m1"].opponent) == (1, 1, "home", "SK Brno 1")
    assert (told["m1"].home_team, told["m1"].away_team) == ("BHC Most", "SK Brno")
    assert told["b1"].seat == "away" and told["b1"].room == told["m1"].room
    assert server.lobby.rooms[told["m1"].room].core.rated  # each game is rated as a match
    for client in (m1, b1):
        await client.send(JoinRoom(told["m1"].room))
        await expect(client, RoomJoined)
    await asyncio.gather(play_until_end(m1), play_until_end(b1))
    last = await update_until(spectator, lambda u: all(g.status in ("ended", "walkover")
                                                        for g in _fixture(u, "d1f1").games))
    games = {g.board: g for g in _fixture(last, "d1f1").games}
    assert games[2].status == "walkover" and games[2].walkover == "home" and games[2].source == "no_show"
    assert games[1].source == "match" and games[1].score is not None


def _fixture(update: LeagueUpdate, fixture: str) -> Any:
    """One fixture's line of an update."""
    return next(f for f in update.fixtures if f.fixture == fixture)


async def test_the_servers_creation_policy_and_the_address_budget_apply_to_leagues(start_server: Start,
                                                                                   monkeypatch: Any) -> None:
    """--tournaments organisers: a named player not listed and a guest are NOT_ALLOWED, the organiser listed may;
    past the address's budget of new competitions (shared with tournaments) a league is RATE_LIMITED."""
    from server.connections import address_budgets
    from server.connections.address_budgets import Kind
    from server.tournaments.handlers import NEW_TOURNAMENT

    kind = address_budgets.KINDS[NEW_TOURNAMENT]
    monkeypatch.setitem(address_budgets.KINDS, NEW_TOURNAMENT, Kind(kind.name, kind.what, 2, kind.window_s))
    server: Server = await start_server(exempt=(), tournaments="organisers", organisers=("Jana Nováková",))
    text = json.dumps(league_file())
    assert await refused(await WireClient.connect(server.url, "Petr"), CreateLeague(file=text)) == "NOT_ALLOWED"
    assert await refused(await WireClient.connect(server.url), CreateLeague(file=text)) == "NOT_ALLOWED"
    jana = await WireClient.connect(server.url, "Jana Nováková")
    for _ in range(2):
        await jana.send(CreateLeague(file=text))
        await expect(jana, LeagueCreated)
    assert await refused(jana, CreateLeague(file=text)) == "RATE_LIMITED"
    assert len(server.leagues.runs) == 2


async def test_a_games_seats_are_named_as_the_roster_and_again_after_a_restart(start_server: Start) -> None:
    """One name per person in a league: the players connected under their server names, but at their table both
    seats read the roster's names (the HUD, the move list, the results and the replays read them there); a recovered
    room, named by the rooms' recovery as the players are on the server, is named as the roster again."""
    from server.leagues.resume import name_seats

    server: Server = await start_server()
    setup = await league(server.url, league_file(size=2), settings=SHORT)
    await day_with_lineups(setup, 1, "d1f1", ["m1", "m2"], ["b1", "b2"], ("most", "brno"))
    await done(setup.organiser, StartLeagueRound(league=setup.lid, secret=setup.secret, fixture="d1f1"))
    m1 = setup.players["m1"]
    told = await expect(m1, LeagueGameAssigned)
    assert told.opponent == "SK Brno 1"
    await m1.send(JoinRoom(told.room))
    seats = (await expect(m1, RoomJoined)).snapshot.seats
    assert seats.home is not None and seats.away is not None
    assert {seats.home.name, seats.away.name} == {"BHC Most 1", "SK Brno 1"}
    assert not m1.welcome.player.startswith("BHC Most")
    room = server.lobby.rooms[told.room]
    for player in list(room.core.names):
        room.core.names[player] = "as on the server"
    name_seats(server.leagues, server.leagues.runs[setup.lid])
    assert {room.core.names[p] for p in room.core.names} >= {"BHC Most 1", "SK Brno 1"}

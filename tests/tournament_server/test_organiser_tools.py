"""The Czech Cup's fields and the organiser's tools over the protocol, on a real server on port 0: a tournament's
date, tier and season, an entry's year of birth, sex and veteran mark with his category; taking back a round started
by mistake, swapping two entries, the end written into the file - each refused without the secret, refused in words
with nothing changed, and still there after a restart."""

from __future__ import annotations

import json

from server.app import Server
from shared.protocol import (
    CreateTournament,
    EndTournament,
    EntriesRegistered,
    EntryForm,
    Error,
    JoinTournament,
    Left,
    OverrideResult,
    RegisterEntries,
    Score,
    StartRound,
    SwapEntries,
    TableAssigned,
    TakeBackRound,
    TournamentDone,
    TournamentJoined,
)
from shared.tournament.model import Bye, Match
from shared.tournament.writing import to_json
from tests.server.conftest import Start
from tests.server.players import WireClient
from tests.tournament_server.helpers import Setup, expect, refused, tournament, update_until, watcher

CUP = {"date": "2026-03-14", "cup": {"tier": "cp24", "season": 2026}}


def _cup_file(players: int, **top: object) -> str:
    """A ČP24 tournament of ``players`` entries (at most 6) of every category, every third a woman, p1 a veteran."""
    born = (1960, 2016, 2013, 2009, 1999, 1990)
    entries = [{"id": f"p{i}", "name": f"Hráč {i}", "club": f"SK {i % 3}", "year_of_birth": born[i - 1],
                "sex": "f" if i % 3 == 0 else "m", "veteran": i == 1} for i in range(1, players + 1)]
    return json.dumps({"name": "Český pohár Brno", "seed": 5, "players": entries,
                       "stages": [{"system": "swiss", "rounds": 3}], **CUP, **top}, ensure_ascii=False)


async def _ok(client: WireClient, request: object) -> TournamentDone:
    """A request that must be carried out."""
    await client.send(request)  # type: ignore[arg-type]
    return await expect(client, TournamentDone)


def _said(client: WireClient) -> str:
    """The message of the Error the client got last."""
    last = client.received[-1]
    assert isinstance(last, Error), last
    return last.message


def _round(server: Server, setup: Setup) -> list[Match | Bye]:
    """The entries of the round last paired."""
    return list(server.tournaments.runs[setup.tid].state.tournament.results[-1].matches)


async def test_the_czech_cup_fields_reach_the_entries_and_their_categories(server: Server) -> None:
    """The file's date, tier and season are the update's; each entry's year of birth, sex and veteran mark come with
    the category derived in the season; an organiser's entry and a player's own carry them too. An unknown tier and a
    year of birth after the season or in the future are refused in words and change nothing."""
    organiser = await WireClient.connect(server.url, "cup-organiser")
    bad = json.loads(_cup_file(4))
    bad["cup"]["tier"] = "cp99"
    assert await refused(organiser, CreateTournament(file=json.dumps(bad))) == "BAD_FORMAT"
    assert "cup.tier" in _said(organiser)
    setup = await tournament(server.url, _cup_file(4))
    spectator, first = await watcher(server.url, setup.tid)
    assert (first.date, first.cup_tier, first.season) == ("2026-03-14", "cp24", 2026)
    assert {e.entry: e.cup_category for e in first.entries} == {"p1": "V", "p2": "P", "p3": "L", "p4": "J"}
    version = server.tournaments.runs[setup.tid].state.version
    late = RegisterEntries(setup.tid, setup.secret, (EntryForm("Eva Malá", "SK Brno", year_of_birth=2099, sex="f"),))
    assert await refused(setup.organiser, late) == "BAD_FORMAT"
    assert "2099 is in the future" in _said(setup.organiser)
    assert server.tournaments.runs[setup.tid].state.version == version
    old_season = await tournament(server.url, json.dumps({"cup": {"tier": "expres", "season": 2020},
                                                          "players": [{"id": "a", "name": "A"}]}))
    after = RegisterEntries(old_season.tid, old_season.secret, (EntryForm("Young", year_of_birth=2022),))
    assert await refused(old_season.organiser, after) == "BAD_FORMAT"
    assert "after the season 2020" in _said(old_season.organiser)
    await setup.organiser.send(RegisterEntries(setup.tid, setup.secret,
                                               (EntryForm("Eva Malá", "SK Brno", year_of_birth=2008, sex="f"),)))
    (code,) = (await expect(setup.organiser, EntriesRegistered)).entries
    own = await WireClient.connect(server.url, "Petr Junior")
    await own.send(JoinTournament(setup.tid, club="TJ Ostrava", year_of_birth=2010, sex="m"))
    joined = await expect(own, TournamentJoined)
    update = await update_until(spectator, lambda u: len(u.entries) == 6)
    lines = {e.entry: e for e in update.entries}
    assert (lines[code.entry].cup_category, lines[code.entry].year_of_birth, lines[code.entry].sex) == ("L", 2008, "f")
    assert lines[joined.entry].cup_category == "J" and lines["p1"].veteran
    no_season = await tournament(server.url, json.dumps({"players": [{"id": "a", "name": "A"}]}))
    future = RegisterEntries(no_season.tid, no_season.secret, (EntryForm("Baby", year_of_birth=9999),))
    assert await refused(no_season.organiser, future) == "BAD_FORMAT"
    assert "in the future" in _said(no_season.organiser)


async def test_a_round_started_by_mistake_is_taken_back_and_paired_again(server: Server) -> None:
    """TakeBackRound: refused without the secret; with it the round's tables close (Left to a coach sitting there),
    the round is off the file and the audit says why; the next StartRound pairs round 1 again. Once a match has a
    result the round cannot be taken back (ROUND_BEGUN) and nothing changes."""
    setup = await tournament(server.url, _cup_file(4))
    await _ok(setup.organiser, StartRound(setup.tid, setup.secret))
    sitting = setup.coaches["p1"]
    table = await expect(sitting, TableAssigned)
    from shared.protocol import JoinRoom, RoomJoined

    assert table.room is not None
    await sitting.send(JoinRoom(table.room))
    await expect(sitting, RoomJoined)
    take_back = TakeBackRound(tournament=setup.tid, secret="not the secret", reason="started too early")
    assert await refused(setup.organiser, take_back) == "NOT_ORGANISER"
    assert await refused(sitting, take_back) == "NOT_ORGANISER"
    await _ok(setup.organiser, TakeBackRound(tournament=setup.tid, secret=setup.secret, reason="started too early"))
    assert (await expect(sitting, Left)).code == table.room
    state = server.tournaments.runs[setup.tid].state
    assert state.tournament.results == () and state.tables == {}
    assert (state.audit[-1].act, state.audit[-1].reason) == ("take back round", "started too early")
    await _ok(setup.organiser, StartRound(setup.tid, setup.secret))
    assert server.tournaments.runs[setup.tid].state.tournament.results[0].round == 1
    await _ok(setup.organiser, OverrideResult(tournament=setup.tid, secret=setup.secret, stage=0, round=1, table=1,
                                              reason="paper", score=Score(3, 1)))
    version = server.tournaments.runs[setup.tid].state.version
    code = await refused(setup.organiser, TakeBackRound(tournament=setup.tid, secret=setup.secret, reason="again"))
    assert code == "ROUND_BEGUN" and "3:1" in _said(setup.organiser)
    assert server.tournaments.runs[setup.tid].state.version == version


async def test_two_entries_swapped_get_their_new_tables_and_the_swap_survives_a_restart(start_server: Start) -> None:
    """SwapEntries: refused without the secret; with it the two change places, their coaches are told their new
    tables, the audit keeps the reason; after a restart on the same data the tournament is the same file; the end
    writes ``ended`` and a round being played is taken off it."""
    server = await start_server()
    setup = await tournament(server.url, _cup_file(6))
    await _ok(setup.organiser, StartRound(setup.tid, setup.secret))
    before = [m for m in _round(server, setup) if isinstance(m, Match)]
    a, b = before[0].home, before[1].home
    swap = SwapEntries(tournament=setup.tid, secret="wrong", first=a, second=b, reason="same club")
    assert await refused(setup.organiser, swap) == "NOT_ORGANISER"
    unknown = SwapEntries(tournament=setup.tid, secret=setup.secret, first=a, second="nobody", reason="x")
    assert await refused(setup.organiser, unknown) == "UNKNOWN_PLAYER"
    await _ok(setup.organiser, SwapEntries(tournament=setup.tid, secret=setup.secret, first=a, second=b,
                                           reason="same club"))
    after = [m for m in _round(server, setup) if isinstance(m, Match)]
    assert (after[0].home, after[1].home) == (b, a) and after[2] == before[2]
    told = await expect(setup.coaches[a], TableAssigned, lambda t: t.table == 2)
    assert told.opponent == f"Hráč {before[1].away[1:]}"
    file = to_json(server.tournaments.runs[setup.tid].state.tournament)
    data = server.config.data_dir
    await server.shutdown()
    again = await start_server(data_dir=data)
    state = again.tournaments.runs[setup.tid].state
    assert to_json(state.tournament) == file and state.audit[-1].act == "swap"
    organiser = await WireClient.connect(again.url, "cup-organiser-again")
    await _ok(organiser, EndTournament(setup.tid, setup.secret, "the hall closes"))
    ended = again.tournaments.runs[setup.tid].state.tournament
    assert ended.results == () and ended.ended is not None and ended.ended.reason == "the hall closes"

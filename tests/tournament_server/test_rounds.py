"""Rounds on a real server: tables for the pairing, coaches told, results from the matches, walkovers, absences."""

from __future__ import annotations

import asyncio

from server.app import Server
from server.tournaments import tournament_records as records
from server.tournaments.resume import recovered
from server.tournaments.state import fold
from server.tournaments.state_snapshot import read_snapshot
from shared.protocol import (
    Leave,
    ListTournaments,
    RoomJoined,
    StartRound,
    TableAssigned,
    TournamentDone,
    TournamentList,
    Watch,
)
from tests.server.players import WireClient, play_until_end
from tests.tournament_server.conftest import SHORT
from tests.tournament_server.helpers import expect, file_of, seen, sit, tournament, update_until, watcher


async def _start(setup: object, number: int = 1) -> None:
    """The organiser starts the next round; it is round ``number``."""
    await setup.organiser.send(StartRound(setup.tid, setup.secret))  # type: ignore[attr-defined]
    assert (await expect(setup.organiser, TournamentDone)).id == number  # type: ignore[attr-defined]


async def test_each_match_gets_a_table_and_each_coach_his_seat_and_opponent(server: Server) -> None:
    """Round 1 of a 4-player Swiss opens two tables; each coach is told his table, room, seat and opponent, and the
    room is held for the two of them under the stage's ruleset and settings."""
    setup = await tournament(server.url, file_of(4, stages=[{"system": "swiss", "rounds": 2, "ruleset": "quick",
                                                             "settings": SHORT}]))
    await _start(setup)
    assigned = {entry: await expect(coach, TableAssigned) for entry, coach in setup.coaches.items()}
    state = server.tournaments.runs[setup.tid].state
    names = {p.id: p.name for p in state.tournament.players}
    for number, match in enumerate(state.tournament.results[0].matches, start=1):
        home, away = assigned[match.home], assigned[match.away]  # type: ignore[union-attr]
        assert home.table == away.table == number and home.room == away.room
        assert (home.seat, away.seat) == ("home", "away")
        assert (home.opponent, away.opponent) == (names[match.away], names[match.home])  # type: ignore[union-attr]
        assert home.ruleset == "quick" and home.no_show_ms is not None and 0 < home.no_show_ms <= 60_000
        assert home.room is not None
        room = server.lobby.rooms[home.room]
        assert room.core.reserved and room.core.rated and room.core.overrides["period_ms"] == 3000
        players = {setup.coaches[match.home].welcome.player_id, setup.coaches[match.away].welcome.player_id}  # type: ignore[union-attr]
        assert set(room.core.seats.values()) == players


async def test_a_played_match_is_its_tables_result(server: Server) -> None:
    """Both coaches sit down and play their match to its end: its score is the table's result, in the standings."""
    setup = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1, "ruleset": "quick",
                                                             "settings": SHORT}]))
    spectator, _ = await watcher(server.url, setup.tid)
    await _start(setup)
    home, away = setup.coaches["p1"], setup.coaches["p2"]
    await asyncio.gather(sit(home), sit(away))
    await asyncio.wait_for(asyncio.gather(play_until_end(home), play_until_end(away)), 60)
    ended = home.ended
    assert ended is not None
    final = await update_until(spectator, lambda u: u.status == "finished")
    line = final.tables[0]
    assert line.status == "ended" and line.score == ended.score
    seat = {"p1": "home", "p2": "away"}[final.tables[0].home]
    goals = {row.entry: row.goals_for for row in final.standings}
    assert goals[final.tables[0].home] == (ended.score.home if seat == "home" else ended.score.away)
    assert final.complete


async def test_a_coach_not_at_his_table_in_time_loses_by_walkover_with_the_contracts_score(server: Server) -> None:
    """With no_show_ms 1 s, the coach who sat down wins by walkover (5:0 by default), the table's room closes
    (he is told he left), and the audit log says why."""
    setup = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1, "ruleset": "quick"}]),
                             no_show_ms=1000)
    spectator, _ = await watcher(server.url, setup.tid)
    await _start(setup)
    table = await sit(setup.coaches["p2"])
    final = await update_until(spectator, lambda u: u.status == "finished")
    seat = table.seat
    assert final.tables[0].status == "walkover" and final.tables[0].walkover == seat
    rows = {row.entry: row for row in final.standings}
    assert (rows["p2"].points, rows["p2"].wins, rows["p2"].goals_for) == (3, 1, 5)
    assert (rows["p1"].points, rows["p1"].losses, rows["p1"].goals_against) == (0, 1, 5)
    assert any(a.act == "walkover" and "not at the table" in a.reason for a in final.audit)
    assert table.room not in server.lobby.rooms


async def test_an_entry_not_checked_in_is_absent_from_the_round(server: Server) -> None:
    """Of three entries one did not check in: he is not paired (absent), the other two play, and nobody has a
    bye."""
    setup = await tournament(server.url, file_of(3), checked_in=2)
    await _start(setup)
    state = server.tournaments.runs[setup.tid].state
    (round_one,) = state.tournament.results
    assert [(m.home, m.away) for m in round_one.matches] in ([("p1", "p2")], [("p2", "p1")])  # type: ignore[union-attr]
    assert [(a.round, a.player) for a in state.tournament.absent] == [(1, "p3")]


async def test_a_coach_who_connects_later_is_told_his_table_after_his_welcome(server: Server) -> None:
    """A coach offline when his round starts gets TableAssigned (and his table's RoomJoined) after his Welcome."""
    setup = await tournament(server.url, file_of(2))
    late = setup.coaches["p1"]
    token = late.token
    await late.close()
    await _start(setup)
    again = await WireClient.connect(server.url, token=token)
    table = await expect(again, TableAssigned)
    joined = await seen(again, RoomJoined, lambda m: True)  # the server took him to the table (in either order)
    assert joined.code == table.room and table.seat in ("home", "away")
    assert isinstance(again.received[0], TableAssigned | RoomJoined)  # nothing came before them


async def test_a_resignation_is_a_walkover_for_the_opponent(server: Server) -> None:
    """A coach who leaves his running match resigns it (RESIGNED): a walkover for the other, not the score."""
    setup = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1, "ruleset": "quick"}]))
    spectator, _ = await watcher(server.url, setup.tid)
    await _start(setup)
    tables = await asyncio.gather(sit(setup.coaches["p1"]), sit(setup.coaches["p2"]))
    await update_until(spectator, lambda u: u.tables and u.tables[0].status == "playing")
    await setup.coaches["p1"].send(Leave())
    final = await update_until(spectator, lambda u: u.status == "finished")
    winner = "home" if tables[1].seat == "home" else "away"
    assert final.tables[0].status == "walkover" and final.tables[0].walkover == winner


async def test_tournaments_are_listed_and_a_spectator_goes_from_the_update_to_a_tables_room(server: Server) -> None:
    """ListTournaments names the tournament; a watcher's update gives each table's room, which Watch enters."""
    setup = await tournament(server.url, file_of(2))
    spectator, first = await watcher(server.url, setup.tid)
    assert first.status == "registering" and {e.entry for e in first.entries} == {"p1", "p2"}
    assert all(e.claimed and e.checked_in for e in first.entries)
    await spectator.send(ListTournaments())
    listed = await expect(spectator, TournamentList)
    assert [(t.tournament, t.entries) for t in listed.tournaments] == [(setup.tid, 2)]
    await _start(setup)
    update = await update_until(spectator, lambda u: bool(u.tables))
    room = update.tables[0].room
    assert room is not None
    await spectator.send(Watch(room))
    joined = await expect(spectator, RoomJoined)
    assert joined.seat == "spectator" and joined.code == room


async def test_the_stored_log_folds_to_the_running_tournament_and_its_snapshot(server: Server) -> None:
    """What the store holds - the log, and the row's latest snapshot with the log after it - is exactly the
    tournament the service runs (the snapshot is not rewritten per event: it is older here)."""
    setup = await tournament(server.url, file_of(4), checked_in=3)
    await _start(setup)
    run = server.tournaments.runs[setup.tid]
    folded = fold(setup.tid, records.log(server.store, setup.tid))
    assert folded == run.state
    snapshot = read_snapshot(records.snapshot(server.store, setup.tid) or "")
    assert snapshot is not None and snapshot.version < run.state.version
    assert recovered(server.store, setup.tid) == (run.state, snapshot.version)


async def test_a_coach_away_past_the_disconnect_grace_loses_by_walkover(server: Server) -> None:
    """A coach whose connection drops in a running match and who does not come back within the stage's
    disconnect grace forfeits (FORFEIT_DISCONNECTED): a walkover for the opponent with the contract's score."""
    stages = [{"system": "swiss", "rounds": 1, "ruleset": "quick", "settings": {"disconnect_grace_ms": 1000}}]
    setup = await tournament(server.url, file_of(2, stages=stages))
    spectator, _ = await watcher(server.url, setup.tid)
    await _start(setup)
    tables = await asyncio.gather(sit(setup.coaches["p1"]), sit(setup.coaches["p2"]))
    await update_until(spectator, lambda u: bool(u.tables) and u.tables[0].status == "playing")
    await setup.coaches["p2"].close()
    final = await update_until(spectator, lambda u: u.status == "finished")
    assert final.tables[0].status == "walkover" and final.tables[0].walkover == tables[0].seat
    rows = {row.entry: row for row in final.standings}
    assert (rows["p1"].goals_for, rows["p2"].goals_against) == (5, 5)


async def test_a_tournament_with_too_few_entries_to_pair_is_still_registering(server: Server) -> None:
    """One entry cannot be paired, yet the tournament is registering (waiting for more), not finished."""
    setup = await tournament(server.url, file_of(1))
    _spectator, first = await watcher(server.url, setup.tid)
    assert first.status == "registering"


async def test_a_played_tables_clock_reaches_watchers_between_moves(server: Server) -> None:
    """While a table is played and nobody moves, watchers still get an update every second with its part clock
    counted down (a hall's tile is not frozen at the last move's time)."""
    setup = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1, "ruleset": "quick",
                                                             "settings": {"period_ms": 60_000, "move_clock_ms": 0}}]))
    spectator, _ = await watcher(server.url, setup.tid)
    await _start(setup)
    await asyncio.gather(sit(setup.coaches["p1"]), sit(setup.coaches["p2"]))
    first = await update_until(spectator, lambda u: bool(u.tables) and u.tables[0].status == "playing"
                               and u.tables[0].part_ms is not None)
    later = await update_until(spectator, lambda u: u.sequence >= first.sequence + 2)
    assert later.tables[0].status == "playing" and later.tables[0].part_ms is not None
    assert first.tables[0].part_ms is not None and later.tables[0].part_ms < first.tables[0].part_ms


async def test_the_update_names_the_round_to_start_next_and_none_once_the_last_is_paired(server: Server) -> None:
    """Before round 1 the update names stage 0's round 1; once round 1 of three is paired, round 2; in a tournament of
    one round, none once it is paired (what the desk's start button says)."""
    three = await tournament(server.url, file_of(4))
    spectator, first = await watcher(server.url, three.tid)
    assert (first.next_stage, first.next_round) == (0, 1)
    await _start(three)
    playing = await update_until(spectator, lambda u: u.status == "playing")
    assert (playing.round, playing.next_stage, playing.next_round) == (1, 0, 2)
    one = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1, "ruleset": "quick"}]))
    spectator_of_one, _ = await watcher(server.url, one.tid, "spectator-of-one")
    await _start(one)
    last = await update_until(spectator_of_one, lambda u: u.status == "playing")
    assert (last.round, last.next_stage, last.next_round) == (1, None, None)

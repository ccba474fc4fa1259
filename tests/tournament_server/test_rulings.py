"""Cards and suspensions, disputes the organiser decides (XVII), corrections both coaches agree (XVII.4), the
organiser's overrides (XVII.5), withdrawals, late entries and the end - each kept in the audit log."""

from __future__ import annotations

from typing import Any

from server.app import Server
from shared.protocol import (
    CheckIn,
    ClientMessage,
    ConfirmCorrection,
    EndTournament,
    FileDispute,
    GiveCard,
    JoinTournament,
    ListTournaments,
    OverrideResult,
    ProposeCorrection,
    ResolveDispute,
    Score,
    StartRound,
    TableAssigned,
    TournamentDone,
    TournamentJoined,
    TournamentList,
    WithdrawEntry,
)
from tests.server.players import WireClient
from tests.tournament_server.helpers import (
    Setup,
    expect,
    file_of,
    refused,
    seen,
    sit,
    tournament,
    update_until,
    watcher,
)

KNOCKOUT = [{"system": "knockout", "ruleset": "ko", "third_place": True}]


async def _start(setup: Setup) -> int:
    """The organiser starts the next round; its number."""
    await setup.organiser.send(StartRound(setup.tid, setup.secret))
    return int((await expect(setup.organiser, TournamentDone)).id or 0)


async def _ok(client: WireClient, request: ClientMessage) -> TournamentDone:
    """A request that must be carried out."""
    await client.send(request)
    return await expect(client, TournamentDone)


async def _decide_round(setup: Setup, server: Server, number: int, scores: list[tuple[int, int]]) -> None:
    """The organiser sets every table of round ``number`` of stage 0 (the coaches never sat down)."""
    for table, (home, away) in enumerate(scores, start=1):
        await _ok(setup.organiser, _override(setup, number, table, "played on paper", score=Score(home, away)))


def _override(setup: Setup, number: int, table: int, reason: str, **result: Any) -> OverrideResult:
    """The organiser's override of a table of stage 0's round ``number``."""
    return OverrideResult(tournament=setup.tid, secret=setup.secret, stage=0, round=number, table=table, reason=reason,
                          **result)


def _card(setup: Setup, entry: str, card: str, reason: str) -> GiveCard:
    """The organiser's card for the entry's conduct in the current round."""
    return GiveCard(tournament=setup.tid, secret=setup.secret, entry=entry, card=card, reason=reason)


def _ruling(setup: Setup, case: int, ruling: str, reason: str, **result: Any) -> ResolveDispute:
    """The organiser's ruling on a dispute."""
    return ResolveDispute(tournament=setup.tid, secret=setup.secret, case=case, ruling=ruling, reason=reason,
                          **result)


def _pairs(server: Server, setup: Setup, number: int) -> list[tuple[str, str]]:
    """(home, away) of every match of round ``number`` of stage 0, in table order."""
    state = server.tournaments.runs[setup.tid].state
    (listed,) = [r for r in state.tournament.results if r.round == number]
    return [(m.home, m.away) for m in listed.matches if hasattr(m, "home")]  # type: ignore[union-attr]


async def test_a_red_card_suspends_a_swiss_player_for_the_next_round(server: Server) -> None:
    """After a red card in round 1 the player shows as suspended and is not paired for round 2 (3 play: a bye)."""
    setup = await tournament(server.url, file_of(4, stages=[{"system": "swiss", "rounds": 2}]))
    spectator, _ = await watcher(server.url, setup.tid)
    await _start(setup)
    await _decide_round(setup, server, 1, [(2, 1), (0, 0)])
    await _ok(setup.organiser, _card(setup, "p1", "red", "insulted the referee"))
    update = await update_until(spectator, lambda u: u.cards and u.status == "between")
    assert update.suspended == ("p1",)
    assert [(c.entry, c.card, c.reason) for c in update.cards] == [("p1", "red", "insulted the referee")]
    assert await _start(setup) == 2
    state = server.tournaments.runs[setup.tid].state
    (round_two,) = [r for r in state.tournament.results if r.round == 2]
    playing = {p for entry in round_two.matches for p in entry.players()}
    assert "p1" not in playing and len(playing) == 3
    assert any(a.act == "red card" and a.reason == "insulted the referee" for a in state.audit)


async def test_a_suspended_knockout_players_match_is_a_walkover_without_a_table(server: Server) -> None:
    """A semi-final winner with a red card is suspended for the final: the final is a walkover for his opponent
    set by the pairing (no table, no TableAssigned), while the match for third place gets its table."""
    setup = await tournament(server.url, file_of(4, stages=KNOCKOUT))
    spectator, _ = await watcher(server.url, setup.tid)
    await _start(setup)
    semis = _pairs(server, setup, 1)
    await _decide_round(setup, server, 1, [(3, 1), (2, 0)])
    winner = semis[0][0]
    await _ok(setup.organiser, _card(setup, winner, "red", "violent conduct"))
    await _start(setup)
    update = await update_until(spectator, lambda u: u.round == 2 and len(u.tables) == 2)
    final = next(t for t in update.tables if t.kind == "final")
    third = next(t for t in update.tables if t.kind == "third_place")
    assert final.status == "walkover" and final.room is None
    assert {final.home, final.away} == {winner, semis[1][0]}
    assert final.walkover == ("away" if final.home == winner else "home")
    assert third.room is not None
    for entry in (third.home, third.away):
        assert (await seen(setup.coaches[entry], TableAssigned, lambda m: m.round == 2)).room == third.room
    for entry in (final.home, final.away):
        await setup.coaches[entry].send(ListTournaments())  # everything sent before its answer has arrived
        await expect(setup.coaches[entry], TournamentList)
        assert not any(isinstance(m, TableAssigned) and m.round == 2 for m in setup.coaches[entry].received)
    assert [line.kind for line in update.bracket] == ["match", "match", "final", "third_place"]


async def test_a_dispute_is_decided_by_the_organiser_and_the_ruling_is_audited(server: Server) -> None:
    """A coach disputes his match; the organiser changes its result; the standings follow; the case and the audit
    log keep both reasons. A ruling on a closed case is NO_CASE."""
    setup = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1}]))
    spectator, _ = await watcher(server.url, setup.tid)
    await _start(setup)
    await _decide_round(setup, server, 1, [(1, 0)])
    home, away = _pairs(server, setup, 1)[0]
    case = (await _ok(setup.coaches[away], FileDispute(setup.tid, 0, 1, 1, "his goal came after the siren"))).id
    assert case == 1
    await _ok(setup.organiser, _ruling(setup, 1, "changed", "the video shows it", score=Score(0, 0)))
    update = await update_until(spectator, lambda u: u.cases and u.cases[0].status == "changed")
    assert update.tables[0].score == Score(0, 0)
    assert {row.entry: row.points for row in update.standings} == {home: 1, away: 1}
    (line,) = update.cases
    assert (line.kind, line.by, line.reason, line.ruling) == ("dispute", away, "his goal came after the siren",
                                                              "the video shows it")
    acts = [(a.who, a.act, a.reason) for a in update.audit]
    assert (away, "dispute", "his goal came after the siren") in acts
    assert ("organiser", "ruling", "the video shows it") in acts
    assert await refused(setup.organiser, _ruling(setup, 1, "stands", "again")) == "NO_CASE"


async def test_a_dispute_ruled_a_replay_gives_the_match_a_new_table(server: Server) -> None:
    """A replay takes the result away and opens a new table; its coaches are told where; its result counts."""
    setup = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1, "ruleset": "quick"}]),
                             no_show_ms=1000)
    spectator, _ = await watcher(server.url, setup.tid)
    await _start(setup)
    first = [await expect(coach, TableAssigned) for coach in setup.coaches.values()]
    await update_until(spectator, lambda u: u.status == "finished")  # both absent: a walkover to home
    home, away = _pairs(server, setup, 1)[0]
    await _ok(setup.coaches[away], FileDispute(setup.tid, 0, 1, 1, "the server lost my connection"))
    await _ok(setup.organiser, _ruling(setup, 1, "replay", "play it again"))
    again = await sit(setup.coaches[home])
    assert again.room != first[0].room
    update = await update_until(spectator, lambda u: u.status == "finished")
    assert update.tables[0].walkover == "home"  # only home came to the new table
    assert update.cases[0].status == "replay"


async def test_both_coaches_agree_to_correct_a_result_xvii4(server: Server) -> None:
    """One coach proposes a corrected score; he cannot confirm it himself, an outsider cannot either; when the
    other coach confirms, the result is corrected and the audit says so."""
    setup = await tournament(server.url, file_of(3, stages=[{"system": "swiss", "rounds": 2}]))
    spectator, _ = await watcher(server.url, setup.tid)
    await _start(setup)
    await _decide_round(setup, server, 1, [(4, 2)])
    home, away = _pairs(server, setup, 1)[0]
    outsider = next(e for e in setup.coaches if e not in (home, away))
    case = (await _ok(setup.coaches[home], ProposeCorrection(tournament=setup.tid, stage=0, round=1, table=1,
                                                             score=Score(2, 4), reason="we swapped the scores"))).id
    assert await refused(setup.coaches[home], ConfirmCorrection(setup.tid, case)) == "NO_CASE"  # type: ignore[arg-type]
    assert await refused(setup.coaches[outsider], ConfirmCorrection(setup.tid, case)) == "NOT_ENTERED"  # type: ignore[arg-type]
    update = await update_until(spectator, lambda u: bool(u.cases))
    assert update.tables[0].score == Score(4, 2) and update.cases[0].status == "open"
    await _ok(setup.coaches[away], ConfirmCorrection(setup.tid, case))  # type: ignore[arg-type]
    update = await update_until(spectator, lambda u: u.cases[0].status == "agreed")
    assert update.tables[0].score == Score(2, 4)
    assert update.cases[0].proposal == "2:4"
    assert any(a.act == "agree correction" and a.who == away for a in update.audit)


async def test_both_coaches_may_agree_to_replay_a_match_xvii4(server: Server) -> None:
    """A replay both coaches agreed opens a new table for them."""
    setup = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1}]))
    await _start(setup)
    await _decide_round(setup, server, 1, [(1, 1)])
    home, away = _pairs(server, setup, 1)[0]
    opened = server.tournaments.runs[setup.tid].state.version
    case = (await _ok(setup.coaches[away], ProposeCorrection(tournament=setup.tid, stage=0, round=1,
                                                                      table=1, replay=True))).id
    await _ok(setup.coaches[home], ConfirmCorrection(setup.tid, case))  # type: ignore[arg-type]
    table = server.tournaments.runs[setup.tid].state.tables[(0, 1, 1)]
    rooms = {(await seen(setup.coaches[e], TableAssigned, lambda m: m.room == table.room)).room
             for e in (home, away)}
    assert rooms == {table.room} and server.tournaments.runs[setup.tid].state.version > opened
    assert server.tournaments.runs[setup.tid].state.replays == frozenset()  # the new table is open


async def test_the_organiser_overrides_any_result_with_a_reason_xvii5(server: Server) -> None:
    """An override sets the result (a walkover here) and the audit log keeps who, when and why; an override
    without a result, or naming a table the round does not have, is refused and changes nothing."""
    setup = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1}]))
    spectator, _ = await watcher(server.url, setup.tid)
    await _start(setup)
    await _ok(setup.organiser, _override(setup, 1, 1, "the away coach left the hall", walkover="home"))
    update = await update_until(spectator, lambda u: u.status == "finished")
    assert update.tables[0].status == "walkover"
    (act,) = [a for a in update.audit if a.act == "override"]
    assert act.who == "organiser" and act.reason == "the away coach left the hall" and act.at_ms > 0
    version = server.tournaments.runs[setup.tid].state.version
    assert await refused(setup.organiser, _override(setup, 1, 1, "nothing")) == "BAD_FORMAT"
    assert await refused(setup.organiser, _override(setup, 1, 9, "no table", score=Score(1, 0))) == "BAD_RESULT"
    assert server.tournaments.runs[setup.tid].state.version == version


async def test_withdrawals_late_entries_and_the_end(server: Server) -> None:
    """A coach withdraws after round 1 and is not paired in round 2; a late entrant joins and checks in and is
    paired; after EndTournament no round starts (TOURNAMENT_CLOSED)."""
    setup = await tournament(server.url, file_of(4, stages=[{"system": "swiss", "rounds": 3}]))
    await _start(setup)
    await _decide_round(setup, server, 1, [(1, 0), (2, 0)])
    await _ok(setup.coaches["p4"], WithdrawEntry(setup.tid, reason="train home"))
    late = await WireClient.connect(server.url, "late-comer")
    await late.send(JoinTournament(setup.tid, club="TJ Ostrava"))
    joined = await expect(late, TournamentJoined)
    await _ok(late, CheckIn(setup.tid))
    assert await _start(setup) == 2
    playing = {p for pair in _pairs(server, setup, 2) for p in pair}
    assert playing == {"p1", "p2", "p3", joined.entry} - {"p4"} and "p4" not in playing
    await _ok(setup.organiser, EndTournament(setup.tid, setup.secret, "the hall closes"))
    assert await refused(setup.organiser, StartRound(setup.tid, setup.secret)) == "TOURNAMENT_CLOSED"
    assert server.tournaments.runs[setup.tid].state.ended == "the hall closes"

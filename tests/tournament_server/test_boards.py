"""Matches played on physical boards: no room, no no-show, the result entered by hand by the organiser or by both
coaches, a disagreement a dispute, and referee duty (XVII.1-XVII.3) - each transition of the tournament's core with
the time as an input, and the log folding to the same state."""

from __future__ import annotations

import pytest

from server.rooms.room_core import RoomError
from server.tournaments.log import (
    ORGANISER,
    BoardsSet,
    CheckedIn,
    Claimed,
    Created,
    DisputeRuled,
    Event,
    Outcome,
    RefereesAssigned,
    RefereeSet,
    Row,
)
from server.tournaments.round_referees import referee_conflict
from server.tournaments.state import fold, start
from server.tournaments.state_snapshot import read_snapshot, write_snapshot
from server.tournaments.tournament_core import CloseTable, Effect, OpenTables, Persist, Send, TournamentCore
from server.tournaments.views import board_of, update
from shared.protocol import TableAssigned
from shared.tournament.errors import TournamentError
from tests.tournament_server.test_tournament_core import NO_SHOW, T0, _kinds, _open

CLUBS = ["SK Brno", "SK Brno", "BHC Most", "BHC Most", "Kladno", "Kladno", "Praha", "Praha"]


def _core(players: int = 8, *, on_boards: bool = True, coached: int | None = None, rounds: int = 3,
          system: str = "swiss") -> tuple[TournamentCore, list[Row]]:
    """A tournament of ``players`` entries p1.. of two per club, on boards, every entry checked in by the organiser
    and the first ``coached`` (all when None) coached by player i; its rows as the core wrote them."""
    file = {"name": "t", "seed": 5, "stages": [{"system": system, "rounds": rounds}],
            "players": [{"id": f"p{i}", "name": f"P{i}", "club": CLUBS[(i - 1) % len(CLUBS)]}
                        for i in range(1, players + 1)]}
    rows = [Row(index=0, at_ms=T0, actor=ORGANISER, event=Created(file=file, no_show_ms=NO_SHOW,
                                                                  on_boards=on_boards))]
    core = TournamentCore(start("T", rows[0]))
    events: list[Event] = [Claimed(entry=f"p{i}", player_id=i, name=f"P{i}")
                           for i in range(1, (players if coached is None else coached) + 1)]
    events += [CheckedIn(entry=f"p{i}") for i in range(1, players + 1)]
    _keep(rows, core.commit(events, ORGANISER, T0))
    return core, rows


def _keep(rows: list[Row], effects: list[Effect]) -> list[Effect]:
    """The rows a transition writes, kept."""
    rows.extend(r for e in effects if isinstance(e, Persist) for r in e.rows)
    return effects


def _match(core: TournamentCore, table: int):
    """The current round's match at ``table``."""
    r = core.state.tournament.results[-1]
    return [m for m in r.matches if hasattr(m, "home")][table - 1]


def test_a_round_on_boards_opens_no_room_and_runs_no_no_show_clock():
    """Every match of a tournament on boards: no OpenTables, no deadline, each coach told board N on the board."""
    core, rows = _core(8)
    effects = _keep(rows, core.start_round(ORGANISER, T0 + 1000))
    assert not any(isinstance(e, OpenTables) for e in effects)
    assert _kinds(effects)[0] == "Persist(RoundStarted,RefereesAssigned)"
    sent = [e.message for e in effects if isinstance(e, Send)]
    assert len(sent) == 8 and all(isinstance(m, TableAssigned) and m.on_board and m.room is None
                                  and m.no_show_ms is None for m in sent)
    assert sorted({m.table for m in sent}) == [1, 2, 3, 4]
    assert core.deadlines() == () and core.next_wake() is None
    assert core.due(T0 + 10 * NO_SHOW) == [] and core.status() == "playing"


def test_entries_checked_in_by_the_organiser_play_on_boards_without_a_coach():
    """At the boards an entry plays in person: checked in, it is paired though nobody coaches it online."""
    core, _ = _core(8, coached=2)
    effects = core.start_round(ORGANISER, T0)
    started = next(e for e in effects if isinstance(e, Persist)).rows[0].event
    assert started.absent == ()
    assert len([e for e in effects if isinstance(e, Send)]) == 2  # only the two coached entries are told


def test_the_organisers_entry_stands_and_the_same_entry_again_changes_nothing():
    """EnterResult with the secret: the result is recorded at once, source board; the same result again: nothing;
    another result: RESULT_ENTERED, nothing changes."""
    core, rows = _core(4)
    _keep(rows, core.start_round(ORGANISER, T0))
    effects = _keep(rows, core.enter_result((0, 1, 1), Outcome(score=(3, 1)), by=None, now=T0 + 5))
    assert _kinds(effects) == ["Persist(ResultSet)", "Changed"]
    assert _match(core, 1).score == (3, 1) and core.state.sources[(0, 1, 1)] == "board"
    assert core.enter_result((0, 1, 1), Outcome(score=(3, 1)), by=None, now=T0 + 6) == []
    before = core.state
    with pytest.raises(RoomError) as refused:
        core.enter_result((0, 1, 1), Outcome(score=(2, 2)), by=None, now=T0 + 7)
    assert refused.value.code == "RESULT_ENTERED" and "3:1" in refused.value.message and core.state is before
    assert core.state.audit[-1].act == "board result"


def test_a_coachs_entry_waits_and_stands_when_the_other_coach_enters_the_same():
    """One coach enters 3:1: it waits (the update shows who entered what); the other enters 3:1: it stands."""
    core, rows = _core(4)
    _keep(rows, core.start_round(ORGANISER, T0))
    m = _match(core, 1)
    effects = _keep(rows, core.enter_result((0, 1, 1), Outcome(score=(3, 1)), by=m.home, now=T0 + 5))
    assert _kinds(effects) == ["Persist(ResultEntered)", "Changed"] and not _match(core, 1).finished
    line = _update(core).tables[0]
    assert line.status == "board" and line.entered_by == m.home and line.entered_score.home == 3
    assert core.enter_result((0, 1, 1), Outcome(score=(3, 1)), by=m.home, now=T0 + 6) == []  # his own again
    with pytest.raises(RoomError) as refused:
        core.enter_result((0, 1, 1), Outcome(score=(1, 3)), by=m.home, now=T0 + 6)
    assert refused.value.code == "RESULT_ENTERED"
    effects = _keep(rows, core.enter_result((0, 1, 1), Outcome(score=(3, 1)), by=m.away, now=T0 + 9))
    assert _kinds(effects) == ["Persist(ResultSet)", "Changed"]
    assert _match(core, 1).score == (3, 1) and core.state.board_entries == {}
    assert core.state.audit[-1].who == m.away
    assert fold("T", rows) == core.state


def test_two_different_entries_become_a_dispute_the_organiser_decides():
    """The coaches disagree: a dispute names both entries; the organiser rules it changed to the right result
    (it cannot stand: there is no result)."""
    core, rows = _core(4)
    _keep(rows, core.start_round(ORGANISER, T0))
    m = _match(core, 2)
    _keep(rows, core.enter_result((0, 1, 2), Outcome(score=(2, 0)), by=m.away, now=T0 + 5))
    effects = _keep(rows, core.enter_result((0, 1, 2), Outcome(score=(0, 2)), by=m.home, now=T0 + 6))
    assert _kinds(effects) == ["Persist(ResultEntered,DisputeFiled)", "Changed"]
    (case,) = core.state.cases
    assert case.kind == "dispute" and case.status == "open" and "2:0" in case.reason and "0:2" in case.reason
    assert not _match(core, 2).finished
    _keep(rows, core.decided(DisputeRuled(case=case.id, ruling="changed", reason="the referee's sheet",
                                          outcome=Outcome(score=(0, 2))), (0, 1, 2), ORGANISER, T0 + 9))
    assert _match(core, 2).score == (0, 2) and core.state.board_entries == {}
    assert fold("T", rows) == core.state


def test_a_result_for_a_table_played_online_is_refused():
    """Online tables take their result from their match: NOT_ON_BOARD, nothing changes."""
    core, _ = _core(4, on_boards=False)
    _open(core, core.start_round(ORGANISER, T0), T0)
    before = core.state
    with pytest.raises(RoomError) as refused:
        core.enter_result((0, 1, 1), Outcome(score=(1, 0)), by=None, now=T0 + 1)
    assert refused.value.code == "NOT_ON_BOARD" and core.state is before


def test_an_unknown_table_and_a_result_the_stage_cannot_have_are_refused():
    """BAD_RESULT for table 9 of a round of 2 and for a shoot-out in a Swiss stage; nothing changes."""
    core, _ = _core(4)
    core.start_round(ORGANISER, T0)
    before = core.state
    with pytest.raises(TournamentError) as unknown:
        core.enter_result((0, 1, 9), Outcome(score=(1, 0)), by=None, now=T0)
    assert unknown.value.code == "BAD_RESULT" and "no table 9" in unknown.value.message
    m = _match(core, 1)
    for by in (None, m.home):
        with pytest.raises(TournamentError) as bad:
            core.enter_result((0, 1, 1), Outcome(score=(1, 1), shootout="home"), by=by, now=T0)
        assert bad.value.code == "BAD_RESULT" and core.state is before


def test_one_table_goes_to_a_board_its_room_closing_and_back_online_with_a_room():
    """The organiser moves table 2 of a round played online to a board: its room closes and its coaches are told;
    back online it gets a room again."""
    core, rows = _core(4, on_boards=False)
    _keep(rows, _open(core, _keep(rows, core.start_round(ORGANISER, T0)), T0))
    room = core.state.tables[(0, 1, 2)].room
    effects = _keep(rows, core.set_boards(True, stage=None, table=(0, 1, 2), reason="the net is down",
                                          actor=ORGANISER, now=T0 + 5))
    assert CloseTable(room) in effects and (0, 1, 2) not in core.state.tables
    assert [e.message.on_board for e in effects if isinstance(e, Send)] == [True, True]
    assert [d.key for d in core.deadlines()] == [(0, 1, 1)]
    effects = _keep(rows, core.set_boards(False, stage=None, table=(0, 1, 2), reason="", actor=ORGANISER,
                                          now=T0 + 9))
    assert any(isinstance(e, OpenTables) for e in effects)
    assert fold("T", rows) == core.state


def test_a_table_whose_match_is_being_played_online_stays_online():
    """MATCH_STARTED: the match goes on where it is."""
    core, _ = _core(4, on_boards=False)
    _open(core, core.start_round(ORGANISER, T0), T0)
    core.match_started(core.state.tables[(0, 1, 1)].room)
    with pytest.raises(RoomError) as refused:
        core.set_boards(True, stage=None, table=(0, 1, 1), reason="", actor=ORGANISER, now=T0 + 1)
    assert refused.value.code == "MATCH_STARTED"


def test_a_stage_on_boards_and_the_rest_online():
    """BoardsSet of stage 0 only: its rounds on boards; the tournament's other setting stays."""
    core, _ = _core(4, on_boards=False)
    core.commit([BoardsSet(on_board=True, stage=0)], ORGANISER, T0)
    assert core.state.on_board((0, 1, 1)) and not core.state.on_boards
    effects = core.start_round(ORGANISER, T0)
    assert not any(isinstance(e, OpenTables) for e in effects)


def test_XVII_1_every_board_of_a_round_gets_a_referee_who_does_not_play_it():
    """Eight players, four boards: four referees, none a player of his board, none of the same half of the round."""
    core, _ = _core(8)
    core.start_round(ORGANISER, T0)
    boards = {b.table: b.referee for b in core.state.referees.boards}
    assert sorted(boards) == [1, 2, 3, 4]
    half = {p: 0 if t <= 2 else 1 for t in (1, 2, 3, 4) for p in _match(core, t).players()}
    for table, referee in boards.items():
        assert referee not in _match(core, table).players()
        assert half[referee] != (0 if table <= 2 else 1)
    assert len(set(boards.values())) == 4


def test_XVII_2_no_referee_is_of_either_players_club():
    """Every automatic referee's club differs from both players' clubs."""
    core, _ = _core(8)
    clubs = {p.id: p.club for p in core.state.tournament.players}
    for number in range(1, 4):
        core.start_round(ORGANISER, T0 + number)
        for b in core.state.referees.boards:
            if b.round == number:
                m = _match(core, b.table)
                assert clubs[b.referee] not in (clubs[m.home], clubs[m.away])
        for table in range(1, 5):
            core.enter_result((0, number, table), Outcome(score=(1, 0)), by=None, now=T0 + number)


def test_XVII_2_the_organiser_cannot_name_a_clubmate_or_a_player_of_the_board():
    """SetReferee's check: a player of the board, or one of either player's club, is a conflict."""
    core, _ = _core(8)
    core.start_round(ORGANISER, T0)
    m = _match(core, 1)
    clubs = {p.id: p.club for p in core.state.tournament.players}
    mate = next(p.id for p in core.state.tournament.players if p.club == clubs[m.home] and p.id != m.home)
    assert "plays at" in referee_conflict(core.state, (0, 1, 1), m.home, agreed=True)
    if mate != m.away:
        assert "XVII.2" in referee_conflict(core.state, (0, 1, 1), mate, agreed=False)
        assert referee_conflict(core.state, (0, 1, 1), mate, agreed=True) is None


def test_XVII_3_a_clubmate_referees_when_both_players_agree():
    """RefereeSet with agreed: the board's referee is the clubmate, the board marked agreed, audited."""
    core, rows = _core(8)
    _keep(rows, core.start_round(ORGANISER, T0))
    m = _match(core, 1)
    clubs = {p.id: p.club for p in core.state.tournament.players}
    mate = next(p.id for p in core.state.tournament.players if p.club == clubs[m.home] and p.id not in m.players())
    _keep(rows, core.commit([RefereeSet(stage=0, round=1, table=1, referee=mate, agreed=True,
                                        reason="both players agree")], ORGANISER, T0 + 1))
    assert core.state.referees.referee_of(0, 1, 1) == mate and (0, 1, 1) in core.state.agreed
    assert "XVII.3" in core.state.audit[-1].detail
    assert fold("T", rows) == core.state


def test_the_refereed_counts_are_in_the_standings_and_flagged_below_half_the_played():
    """After a round on boards: each referee counts 1 once his board has a result; nobody is short after one
    round (half of 1 is 0), and the update carries the count."""
    core, _ = _core(8)
    core.start_round(ORGANISER, T0)
    for table in range(1, 5):
        core.enter_result((0, 1, table), Outcome(score=(2, 1)), by=None, now=T0 + 1)
    lines = _update(core).standings
    referees = {b.referee for b in core.state.referees.boards}
    assert {line.entry for line in lines if line.refereed == 1} == referees
    assert all(line.refereed in (0, 1) and not line.refereed_short for line in lines)


def test_board_state_survives_a_snapshot():
    """The boards, the pending entry, the referees and the XVII.3 agreements read back from a snapshot."""
    core, _ = _core(8)
    core.start_round(ORGANISER, T0)
    m = _match(core, 3)
    core.enter_result((0, 1, 3), Outcome(walkover="home"), by=m.home, now=T0)
    core.commit([BoardsSet(on_board=False, stage=0, round=1, table=4),
                 RefereeSet(stage=0, round=1, table=2, referee=None)], ORGANISER, T0)
    assert read_snapshot(write_snapshot(core.state)) == core.state
    assert isinstance(core.state.referees, type(core.state.referees)) and core.state.board_entries


def test_referees_are_logged_and_a_restart_keeps_them():
    """The referees are what the log says, not drawn again when the log is folded."""
    core, rows = _core(8)
    _keep(rows, core.start_round(ORGANISER, T0))
    logged = next(r.event for r in rows if isinstance(r.event, RefereesAssigned))
    assert {b.table: b.referee for b in core.state.referees.boards} == dict(logged.boards)
    assert fold("T", rows).referees == core.state.referees


def _update(core: TournamentCore):
    """The tournament's update now."""
    return update(core.state, board_of(core.state), sequence=0, live={}, room_info=lambda _code: None, now_ms=T0,
                  next_round_ms=None)


def test_a_round_on_boards_taken_back_forgets_its_referees_and_a_swap_draws_them_again():
    """Take-back before any result: the round's referees go; after a swap of two entries the boards keep no room,
    the moved coaches are told their boards and the referees are drawn again for the new pairs."""
    core, rows = _core(8)
    _keep(rows, core.start_round(ORGANISER, T0))
    _keep(rows, core.take_back("too early", ORGANISER, T0 + 1))
    assert core.state.referees.boards == () and core.state.tournament.results == ()
    _keep(rows, core.start_round(ORGANISER, T0 + 2))
    m1, m2 = _match(core, 1), _match(core, 3)
    effects = _keep(rows, core.swap(m1.home, m2.home, "clubmates", ORGANISER, T0 + 3))
    assert not any(isinstance(e, OpenTables) for e in effects)
    assert any(isinstance(r.event, RefereesAssigned) for e in effects if isinstance(e, Persist) for r in e.rows)
    assert {e.message.table for e in effects if isinstance(e, Send)} == {1, 3}
    for b in core.state.referees.boards:
        assert b.referee not in _match(core, b.table).players()
    assert fold("T", rows) == core.state


def test_a_round_whose_board_has_an_entered_result_cannot_be_taken_back():
    """One coach entered his board's result: the round has begun (ROUND_BEGUN)."""
    core, _ = _core(4)
    core.start_round(ORGANISER, T0)
    core.enter_result((0, 1, 1), Outcome(score=(1, 0)), by=_match(core, 1).home, now=T0 + 1)
    with pytest.raises(RoomError) as refused:
        core.take_back("oops", ORGANISER, T0 + 2)
    assert refused.value.code == "ROUND_BEGUN"


def test_the_printed_round_sheet_names_each_boards_referee_and_the_standings_their_counts():
    """The round sheet of a server's tournament on boards names the referee the server drew for every board, and
    the standings sheet has the refereed column (Roz) once a board has a result."""
    import io

    from pypdf import PdfReader

    from server.tournaments.printed_sheets import SheetRequest, served_referees, sheets_pdf

    core, _ = _core(8)
    core.start_round(ORGANISER, T0)
    core.enter_result((0, 1, 1), Outcome(score=(2, 0)), by=None, now=T0 + 1)
    referees = served_referees(core.state)
    assert referees is not None and len(referees.boards) == 4
    pdf = sheets_pdf(core.state.tournament, [SheetRequest(sheet="round"), SheetRequest(sheet="standings")],
                     referees=referees)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    names = {p.id: p.name for p in core.state.tournament.players}
    lines = {line.split()[0]: line for line in text.splitlines() if line[:1].isdigit()}
    for b in referees.boards:
        m = _match(core, b.table)
        line = lines[str(b.table)]
        assert line.split()[1] == names[m.home] and line.endswith(f"{names[m.away]} {names[b.referee]}"), line
    assert "Roz" in text

"""The organiser's tools as transitions of ``server.tournaments.tournament_core``: taking back a round started by
mistake, swapping two entries of a round not yet begun, the end written into the file, and the audit log keeping
what a decision replaced - each with the time as an input, refusals changing nothing, and the fold of the same log
(a restart) reaching the same state."""

from __future__ import annotations

import pytest

from server.rooms.room_core import RoomError
from server.tournaments.log import (
    ORGANISER,
    CheckedIn,
    Claimed,
    Created,
    Outcome,
    PairingSwapped,
    RoundTakenBack,
    Row,
    from_json,
)
from server.tournaments.log import to_json as event_json
from server.tournaments.state import fold, start
from server.tournaments.tournament_core import CloseTable, Effect, OpenTables, Persist, TournamentCore
from server.tournaments.views import board_of
from shared.tournament.errors import TournamentError
from shared.tournament.model import Bye, Match
from shared.tournament.writing import to_json
from tests.tournament_server.test_tournament_core import T0, _core, _finish_round, _kinds, _open, _started


def _rows(effects: list[Effect]) -> list[Row]:
    """The rows the effects write."""
    return [row for e in effects if isinstance(e, Persist) for row in e.rows]


class _Logged:
    """A core and every row it wrote, so that the fold of its log can be compared with it."""

    def __init__(self, core: TournamentCore, first: list[Row]) -> None:
        self.core = core
        self.rows = first

    def __call__(self, effects: list[Effect]) -> list[Effect]:
        self.rows += _rows(effects)
        return effects

    def folded(self):
        """The tournament as a restart folds its log."""
        return fold(self.core.id, self.rows)


def _logged(players: int = 4, rounds: int = 2) -> _Logged:
    """A core whose every row from its creation on is kept (round 1 not started)."""
    file = {"name": "t", "seed": 3, "stages": [{"system": "swiss", "rounds": rounds}],
            "players": [{"id": f"p{i}", "name": f"P{i}"} for i in range(1, players + 1)]}
    created = Row(index=0, at_ms=T0, actor=ORGANISER, event=Created(file=file, no_show_ms=60_000))
    core = TournamentCore(start("T", created))
    log = _Logged(core, [created])
    log(core.commit([Claimed(entry=f"p{i}", player_id=i, name=f"P{i}") for i in range(1, players + 1)]
                    + [CheckedIn(entry=f"p{i}") for i in range(1, players)], ORGANISER, T0))
    return log


def test_a_round_taken_back_closes_its_tables_and_is_paired_again_at_the_next_start():
    """take_back: the RoundTakenBack row, then every table's room closed; the round and the absences its start
    marked are off the file, and the next start pairs round 1 again - with the entry who checked in since."""
    log = _logged(4)
    core = log.core
    effects = log(core.start_round(ORGANISER, T0 + 1000))
    assert core.state.tournament.absent[0].player == "p4"
    log(_open(core, effects, T0 + 1000))
    rooms = {t.room for t in core.state.tables.values()}
    effects = log(core.take_back("started before the late arrivals checked in", ORGANISER, T0 + 2000))
    assert _kinds(effects) == ["Persist(RoundTakenBack)"] + ["CloseTable"] * len(rooms) + ["Changed"]
    assert {e.room for e in effects if isinstance(e, CloseTable)} == rooms
    t = core.state.tournament
    assert t.results == () and t.absent == () and core.state.tables == {} and core.status() == "registering"
    assert core.state.audit[-1].act == "take back round" and core.state.audit[-1].reason.startswith("started")
    log(core.commit([CheckedIn(entry="p4")], ORGANISER, T0 + 3000))
    effects = log(core.start_round(ORGANISER, T0 + 4000))
    (asked,) = [e for e in effects if isinstance(e, OpenTables)]
    assert len(asked.tables) == 2 and core.state.tournament.results[0].round == 1
    assert to_json(log.folded().tournament) == to_json(core.state.tournament)


def test_a_round_with_a_result_or_a_match_begun_cannot_be_taken_back_and_nothing_changes():
    """ROUND_BEGUN for a round one of whose matches has a result, or has begun; the state is the one before."""
    core = _started(4, now=T0)
    first = core.state.tables[(0, 1, 1)]
    core.match_started(first.room)
    before = core.state
    with pytest.raises(RoomError) as refused:
        core.take_back("mistake", ORGANISER, T0 + 10)
    assert refused.value.code == "ROUND_BEGUN" and "table 1" in refused.value.message and core.state is before
    core.match_finished(first.room, first.match_id, score=(3, 1), winner="home", reason="TIME", now=T0 + 20)
    before = core.state
    with pytest.raises(RoomError) as refused:
        core.take_back("mistake", ORGANISER, T0 + 30)
    assert refused.value.code == "ROUND_BEGUN" and "3:1" in refused.value.message and core.state is before
    with pytest.raises(RoomError) as refused:
        core.swap("p1", "p2", "mistake", ORGANISER, T0 + 30)
    assert refused.value.code == "ROUND_BEGUN" and core.state is before


def test_only_the_round_last_paired_is_taken_back_and_not_before_any():
    """ROUND_ORDER for a round that is not the last paired, and before round 1."""
    core = _core(4)
    with pytest.raises(TournamentError) as refused:
        core.take_back("mistake", ORGANISER, T0)
    assert refused.value.code == "ROUND_ORDER"
    core = _started(4, now=T0)
    _finish_round(core, T0 + 10)
    core.live.clear()  # the test's rooms R1, R2 are named again for round 2's tables
    _open(core, core.start_round(ORGANISER, T0 + 20), T0 + 20)
    with pytest.raises(TournamentError) as refused:
        core.take_back("mistake", ORGANISER, T0 + 30, stage=0, number=1)
    assert refused.value.code == "ROUND_ORDER" and "round 2" in refused.value.message
    core.take_back("mistake", ORGANISER, T0 + 30, stage=0, number=2)
    assert [r.round for r in core.state.tournament.results] == [1]
    assert core.status() == "between" and core.next_wake() is None


def test_a_swap_exchanges_two_entries_and_reopens_only_their_tables():
    """swap: two players of different tables change seats; those two tables close and open again, the third stays;
    the audit names them and the reason."""
    log = _logged(6)
    core = log.core
    log(core.commit([CheckedIn(entry="p6")], ORGANISER, T0))
    log(_open(core, log(core.start_round(ORGANISER, T0 + 1000)), T0 + 1000))
    matches = [e for e in core.state.tournament.results[0].matches if isinstance(e, Match)]
    a, b = matches[0].home, matches[1].away
    rooms = {k: t.room for k, t in core.state.tables.items()}
    effects = log(core.swap(a, b, "they came from the same club", ORGANISER, T0 + 2000))
    assert _kinds(effects) == ["Persist(PairingSwapped)", "CloseTable", "CloseTable", "OpenTables", "Changed"]
    assert {e.room for e in effects if isinstance(e, CloseTable)} == {rooms[(0, 1, 1)], rooms[(0, 1, 2)]}
    (asked,) = [e for e in effects if isinstance(e, OpenTables)]
    assert [t.key for t in asked.tables] == [(0, 1, 1), (0, 1, 2)]
    after = [e for e in core.state.tournament.results[0].matches if isinstance(e, Match)]
    assert (after[0].home, after[1].away) == (b, a) and after[2] == matches[2]
    assert core.state.tables[(0, 1, 3)].room == rooms[(0, 1, 3)]
    assert core.state.audit[-1].act == "swap" and a in core.state.audit[-1].detail
    log(_open(core, effects, T0 + 2000))
    assert to_json(log.folded().tournament) == to_json(core.state.tournament)


def test_a_swap_with_the_player_who_has_the_bye_gives_him_the_seat():
    """Five entries: swapping a seated player with the one who has the bye moves the bye to him."""
    core = _core(5)
    _open(core, core.start_round(ORGANISER, T0), T0)
    r = core.state.tournament.results[0]
    (bye,) = [e.player for e in r.matches if isinstance(e, Bye)]
    seated = next(e for e in r.matches if isinstance(e, Match)).home
    core.swap(seated, bye, "the bye was promised", ORGANISER, T0 + 10)
    r = core.state.tournament.results[0]
    assert [e.player for e in r.matches if isinstance(e, Bye)] == [seated]
    assert next(e for e in r.matches if isinstance(e, Match)).home == bye


def test_a_swap_of_an_entry_not_in_the_round_or_with_himself_is_refused_in_words():
    """UNKNOWN_PLAYER for an entry neither seated nor with a bye; BAD_FORMAT for a swap with himself."""
    core = _core(5)
    core.commit([], ORGANISER, T0)
    _open(core, core.start_round(ORGANISER, T0), T0)
    before = core.state
    with pytest.raises(TournamentError) as refused:
        core.swap("p1", "nobody", "x", ORGANISER, T0)
    assert refused.value.code == "UNKNOWN_PLAYER" and "nobody" in refused.value.message and core.state is before
    with pytest.raises(TournamentError) as refused:
        core.swap("p1", "p1", "x", ORGANISER, T0)
    assert refused.value.code == "BAD_FORMAT" and core.state is before


def test_the_end_after_a_finished_round_writes_ended_after_it_and_completes_the_tournament():
    """end between rounds: the file's ``ended`` names the last finished round; the tournament is complete."""
    core = _started(4, now=T0, rounds=3)
    _finish_round(core, T0 + 10)
    core.end("the hall closes", ORGANISER, T0 + 20)
    t = core.state.tournament
    assert t.ended is not None
    assert (t.ended.after_stage, t.ended.after_round, t.ended.reason) == (0, 1, "the hall closes")
    assert board_of(core.state).ranking.complete and len(t.results) == 1


def test_the_audit_keeps_what_an_override_replaced():
    """An override of a played match says what it replaced: ``3:1 → 2:2``."""
    core = _started(4, now=T0)
    first = core.state.tables[(0, 1, 1)]
    core.match_started(first.room)
    core.match_finished(first.room, first.match_id, score=(3, 1), winner="home", reason="TIME", now=T0 + 10)
    core.record((0, 1, 1), Outcome(score=(2, 2)), source="override", now=T0 + 20, reason="a goal after time",
                actor=ORGANISER)
    line = core.state.audit[-1]
    assert line.act == "override" and line.detail == "stage 0 round 1 table 1: 3:1 → 2:2"


def test_the_logged_tools_are_events_of_their_own():
    """Taking back and swapping are events of the log with their JSON (a restart reads them back)."""
    for event in (RoundTakenBack(stage=0, round=2, reason="x"),
                  PairingSwapped(stage=0, round=1, first="a", second="b", reason="y")):
        kind, body = event_json(event)
        assert from_json(kind, body) == event

"""A tournament's decisions without a socket, a task or a store: each transition of
``server.tournaments.tournament_core`` with the time as an input, checked by the effects it returns (as
tests/server/test_room_core.py does for a room)."""

from __future__ import annotations

import pytest

import server.tournaments.state as state_module
import shared.tournament.events as engine_module
from server.rooms.room_core import RoomError
from server.tournaments.log import (
    ORGANISER,
    SERVER,
    CheckedIn,
    Claimed,
    Created,
    Event,
    ResultSet,
    RoundStarted,
    Row,
)
from server.tournaments.results import StoredResult
from server.tournaments.state import start
from server.tournaments.tournament_core import (
    SNAPSHOT_EVERY,
    CloseTable,
    Effect,
    OpenedTable,
    OpenTables,
    Persist,
    Send,
    TournamentCore,
)
from shared.protocol import TableAssigned
from shared.tournament.errors import TournamentError
from shared.tournament.model import Match

NO_SHOW, AFTER = 60_000, 5_000
T0 = 1_700_000_000_000  # the wall time the tests start at (ms since the epoch)


def _core(players: int = 4, *, checked_in: int | None = None, rounds: int = 2) -> TournamentCore:
    """A Swiss of ``players`` entries p1.. created at T0, every entry claimed by player i, the first ``checked_in``
    checked in (all when None)."""
    file = {"name": "t", "seed": 3, "stages": [{"system": "swiss", "rounds": rounds}],
            "players": [{"id": f"p{i}", "name": f"P{i}"} for i in range(1, players + 1)]}
    row = Row(index=0, at_ms=T0, actor=ORGANISER, event=Created(file=file, no_show_ms=NO_SHOW))
    core = TournamentCore(start("T", row))
    events: list[Event] = [Claimed(entry=f"p{i}", player_id=i, name=f"P{i}") for i in range(1, players + 1)]
    events += [CheckedIn(entry=f"p{i}") for i in range(1, (players if checked_in is None else checked_in) + 1)]
    core.commit(events, ORGANISER, T0)
    return core


def _kinds(effects: list[Effect]) -> list[str]:
    """Each effect's kind, a Persist with its events' kinds."""
    out = []
    for e in effects:
        if isinstance(e, Persist):
            out.append("Persist(" + ",".join(type(r.event).__name__ for r in e.rows) + ")")
        else:
            out.append(type(e).__name__)
    return out


def _open(core: TournamentCore, effects: list[Effect], now: int) -> list[Effect]:
    """What the shell does with OpenTables: rooms R1, R2, ... for the tables asked for, given back to the core."""
    (asked,) = [e for e in effects if isinstance(e, OpenTables)]
    opened = [OpenedTable(key=t.key, room=f"R{t.key[2]}", match_id=f"m{t.key[1]}-{t.key[2]}") for t in asked.tables]
    return core.tables_opened(opened, now)


def _started(players: int = 4, now: int = T0 + 1000, rounds: int = 2) -> TournamentCore:
    """Round 1 started and its tables opened at ``now``."""
    core = _core(players, rounds=rounds)
    _open(core, core.start_round(ORGANISER, now), now)
    return core


def _finish_round(core: TournamentCore, now: int) -> list[Effect]:
    """Every table of the current round gets a 1:0 from its match at ``now``."""
    effects: list[Effect] = []
    for table in list(core.state.tables.values()):
        core.match_started(table.room)
        effects += core.match_finished(table.room, table.match_id, score=(1, 0), winner="home", reason="TIME",
                                       now=now)
    return effects


def test_a_round_is_written_before_its_tables_are_asked_for():
    """start_round: the RoundStarted row first, then one table per match, then the watchers' news."""
    core = _core(4)
    effects = core.start_round(ORGANISER, T0 + 1000)
    assert _kinds(effects) == ["Persist(RoundStarted)", "OpenTables", "Changed"]
    (asked,) = [e for e in effects if isinstance(e, OpenTables)]
    assert [t.key for t in asked.tables] == [(0, 1, 1), (0, 1, 2)]
    assert all({t.home.player_id, t.away.player_id} <= {1, 2, 3, 4} for t in asked.tables)
    assert core.status() == "playing" and core.state.tournament.results[0].round == 1


def test_an_entry_whose_coach_did_not_check_in_is_absent_and_gets_no_table():
    """Three entries, one not checked in: he is marked absent from round 1, the other two get the one table."""
    core = _core(3, checked_in=2)
    effects = core.start_round(ORGANISER, T0)
    started = next(e for e in effects if isinstance(e, Persist)).rows[0].event
    assert isinstance(started, RoundStarted) and started.absent == ("p3",)
    assert [(a.round, a.player) for a in core.state.tournament.absent] == [(1, "p3")]
    (asked,) = [e for e in effects if isinstance(e, OpenTables)]
    assert len(asked.tables) == 1


def test_a_round_started_with_absentees_follows_the_file_nowhere_and_reads_no_json(monkeypatch):
    """Each engine event of a StartRound is applied once: no follow of the whole file and no JSON round trip, with
    absentees or without (the fold of the same rows gives the same state)."""
    core = _core(8, checked_in=5)
    calls = {"follow": 0, "read": 0}

    def counted(name, real):
        def call(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(engine_module, "follow", counted("follow", engine_module.follow))
    monkeypatch.setattr(engine_module, "follow_from", counted("follow", engine_module.follow_from))
    monkeypatch.setattr(state_module, "follow", counted("follow", state_module.follow))
    monkeypatch.setattr(state_module, "read_tournament", counted("read", state_module.read_tournament))
    effects = core.start_round(ORGANISER, T0)
    assert calls == {"follow": 0, "read": 0}
    rows = next(e for e in effects if isinstance(e, Persist)).rows
    monkeypatch.undo()
    assert len(rows[0].event.absent) == 3
    before = _core(8, checked_in=5).state
    assert state_module.apply(before, rows[0]) == core.state


def test_the_tables_are_recorded_then_each_coach_is_told_his_seat_and_his_time():
    """tables_opened: the TableOpened rows in one write, then TableAssigned to both coaches of each table with the
    whole no-show time left, then the news."""
    core = _core(4)
    effects = _open(core, core.start_round(ORGANISER, T0), T0 + 200)
    assert _kinds(effects) == ["Persist(TableOpened,TableOpened)", "Send", "Send", "Send", "Send", "Changed"]
    sent = [e for e in effects if isinstance(e, Send)]
    assert all(isinstance(s.message, TableAssigned) and s.message.no_show_ms == NO_SHOW for s in sent)
    assert sorted(s.player_id for s in sent) == [1, 2, 3, 4]
    assert [s.message.seat for s in sent] == ["home", "away", "home", "away"]


def test_a_table_nobody_played_at_is_a_walkover_exactly_at_its_no_show_deadline():
    """The deadline is no_show_ms after the table opened: nothing before it; at it, a walkover for the coach who
    came, written, then his room closed."""
    core = _started(2, now=T0)
    table = core.state.tables[(0, 1, 1)]
    assert core.next_wake() == table.opened_at_ms + NO_SHOW
    assert core.due(table.opened_at_ms + NO_SHOW - 1) == []
    core.presence_changed(table.room, ("away",))
    effects = core.due(table.opened_at_ms + NO_SHOW)
    assert _kinds(effects) == ["Persist(ResultSet)", "CloseTable", "Changed"]
    result = next(e for e in effects if isinstance(e, Persist)).rows[0].event
    assert isinstance(result, ResultSet) and result.source == "no_show" and result.outcome.walkover == "away"
    assert "not at the table within 60 s" in result.reason
    assert CloseTable(table.room) in effects and core.next_wake() is None and core.status() == "between"


def test_when_neither_coach_came_the_walkover_goes_to_home():
    """Nobody at the table at the deadline: home wins it (TOURNAMENT-NOTES 18)."""
    core = _started(2, now=T0)
    effects = core.due(T0 + NO_SHOW)
    result = next(e for e in effects if isinstance(e, Persist)).rows[0].event
    assert isinstance(result, ResultSet) and result.outcome.walkover == "home"


def test_every_table_due_at_once_is_decided_in_one_write():
    """A round's tables open together, so their no-shows fall together: one write of all their walkovers."""
    core = _started(8, now=T0)
    effects = core.due(T0 + NO_SHOW)
    assert _kinds(effects)[0] == "Persist(ResultSet,ResultSet,ResultSet,ResultSet)"
    assert sum(isinstance(e, CloseTable) for e in effects) == 4


def test_a_started_match_takes_its_table_off_the_deadlines():
    """Once a table's match begins its no-show is gone; the other table's deadline stays."""
    core = _started(4, now=T0)
    core.match_started(core.state.tables[(0, 1, 1)].room)
    assert [d.key for d in core.deadlines()] == [(0, 1, 2)]
    effects = core.due(T0 + NO_SHOW)
    rows = next(e for e in effects if isinstance(e, Persist)).rows
    assert [(r.event.table) for r in rows] == [2]


def test_a_finished_match_is_its_tables_result_and_a_rematch_is_not():
    """MatchFinished of the table's match: its score recorded (its room stays); of another match id: nothing."""
    core = _started(2, now=T0)
    table = core.state.tables[(0, 1, 1)]
    core.match_started(table.room)
    assert core.match_finished(table.room, "another", score=(3, 0), winner="home", reason="TIME", now=T0) == []
    effects = core.match_finished(table.room, table.match_id, score=(2, 2), winner=None, reason="TIME", now=T0 + 9)
    assert _kinds(effects) == ["Persist(ResultSet)", "Changed"]
    (m,) = core.state.tournament.results[0].matches
    assert isinstance(m, Match) and m.score == (2, 2)


def test_the_next_round_starts_by_itself_after_the_last_result():
    """With rounds starting after 5 s: once round 1's last result is in, the next round is due 5 s after it - not a
    ms earlier - and starting it opens its tables."""
    core = _started(4, now=T0)
    core.set_auto_start(AFTER, ORGANISER, T0 + 10)
    assert core.auto_start_at is None  # round 1 is being played
    _finish_round(core, T0 + 30_000)
    assert core.status() == "between" and core.next_wake() == T0 + 30_000 + AFTER
    assert core.next_round_ms(T0 + 31_000) == AFTER - 1000
    assert core.due(T0 + 30_000 + AFTER - 1) == []
    effects = core.due(T0 + 30_000 + AFTER)
    assert _kinds(effects) == ["Persist(RoundStarted)", "OpenTables", "Changed"]
    assert next(e for e in effects if isinstance(e, Persist)).rows[0].actor == SERVER
    assert core.auto_start_at is None


def test_a_round_started_by_hand_before_its_time_cancels_the_automatic_one():
    """The organiser's StartRound while the next round is due later: that deadline is gone."""
    core = _started(4, now=T0)
    core.set_auto_start(AFTER, ORGANISER, T0)
    _finish_round(core, T0 + 1000)
    assert core.auto_start_at == T0 + 1000 + AFTER
    core.start_round(ORGANISER, T0 + 2000)
    assert core.auto_start_at is None and all(d.kind == "no_show" for d in core.deadlines())


def test_turning_the_automatic_rounds_off_removes_the_deadline():
    """AutoStartRounds with no delay: the next round waits for the organiser."""
    core = _started(4, now=T0)
    core.set_auto_start(AFTER, ORGANISER, T0)
    _finish_round(core, T0 + 1000)
    core.set_auto_start(None, ORGANISER, T0 + 1500)
    assert core.auto_start_at is None and core.next_wake() is None


def test_an_automatic_round_with_nothing_left_to_pair_is_refused_and_not_tried_again():
    """After the last round the due start raises the engine's NOTHING_TO_PAIR, and no deadline is left."""
    core = _started(2, now=T0, rounds=1)
    core.set_auto_start(AFTER, ORGANISER, T0)
    _finish_round(core, T0 + 3000)
    assert core.state.tables == {} and core.status() == "finished"
    core.auto_start_at = T0 + 4000  # as if set before the last round ended
    with pytest.raises(TournamentError) as refused:
        core.due(T0 + 4000)
    assert refused.value.code == "NOTHING_TO_PAIR" and core.next_wake() is None


def test_the_end_closes_the_tables_still_waiting_and_leaves_no_deadline():
    """EndTournament: the Ended row, then the waiting tables' rooms closed (a table being played goes on, but the
    round it belongs to no longer counts: the file is ended after the last finished round)."""
    core = _started(4, now=T0)
    playing = core.state.tables[(0, 1, 1)].room
    waiting = core.state.tables[(0, 1, 2)].room
    core.match_started(playing)
    effects = core.end("the hall closes", ORGANISER, T0 + 10)
    assert _kinds(effects) == ["Persist(Ended)", "CloseTable", "Changed"]
    assert CloseTable(waiting) in effects and core.deadlines() == ()
    t = core.state.tournament
    assert t.results == () and t.ended is not None and (t.ended.after_stage, t.ended.after_round) == (0, 0)
    with pytest.raises(RoomError) as refused:
        core.start_round(ORGANISER, T0 + 20)
    assert refused.value.code == "TOURNAMENT_CLOSED"


def test_a_player_who_connects_is_told_only_his_tables_still_waiting():
    """connected: TableAssigned to him alone, with the no-show time left at that moment."""
    core = _started(4, now=T0)
    effects = core.connected(1, T0 + 10_000)
    (sent,) = effects
    assert isinstance(sent, Send) and sent.player_id == 1 and isinstance(sent.message, TableAssigned)
    assert sent.message.no_show_ms == NO_SHOW - 10_000
    core.match_started(sent.message.room)
    assert core.connected(1, T0 + 11_000) == []
    assert core.connected(99, T0) == []


def test_a_snapshot_goes_with_every_fiftieth_event_not_every_event():
    """Persist carries the state only once SNAPSHOT_EVERY events were logged since the last snapshot."""
    core = _core(2)
    base = core.snapshot_version
    snapshots = []
    for n in range(SNAPSHOT_EVERY + 1):
        (persist, _) = core.commit([CheckedIn(entry="p1")], ORGANISER, T0 + n)
        assert isinstance(persist, Persist)
        snapshots.append(persist.snapshot is not None)
    first = base + SNAPSHOT_EVERY - core.state.version + SNAPSHOT_EVERY  # the index of the first snapshot
    assert snapshots.count(True) == 1 and snapshots.index(True) == first
    assert core.snapshot_version == core.state.version - (len(snapshots) - 1 - first)


def test_a_transition_whose_write_fails_is_rewound():
    """mark, a transition, rewind: the core is as it was (a refused write changes nothing)."""
    core = _core(4)
    mark = core.mark()
    core.start_round(ORGANISER, T0)
    core.rewind(mark)
    assert core.state == mark.state and core.state.tournament.results == () and core.status() == "registering"


def test_after_a_restart_finished_matches_are_recorded_running_ones_go_on_and_the_rest_reopen():
    """relink: table 1's match finished in the store (recorded), table 2's room is back (playing), and a third
    table whose match never started is asked for again."""
    core = _started(6, now=T0)
    t1, t2, t3 = (core.state.tables[(0, 1, n)] for n in (1, 2, 3))
    stored = {t1.match_id: StoredResult(finished=True, winner="away", reason="TIME", score=(0, 2)),
              t2.match_id: StoredResult(finished=False, winner=None, reason="", score=(1, 1)), t3.match_id: None}
    effects = TournamentCore(core.state).relink(stored, {t2.room}, T0 + 5000)
    assert _kinds(effects) == ["Persist(ResultSet)", "OpenTables", "Changed"]
    (asked,) = [e for e in effects if isinstance(e, OpenTables)]
    assert [t.key for t in asked.tables] == [(0, 1, 3)]


def test_the_fold_of_the_rows_the_core_wrote_is_the_cores_state():
    """Every row the core asked to persist - a round started, its tables, their results - folded on from the state
    before them gives exactly its state (the log is the tournament)."""
    core = _core(4)
    before = core.state
    started = core.start_round(ORGANISER, T0)
    opened = _open(core, started, T0 + 1)
    finished = _finish_round(core, T0 + 2)
    rows = [r for e in (*started, *opened, *finished) if isinstance(e, Persist) for r in e.rows]
    assert [type(r.event).__name__ for r in rows] == ["RoundStarted", "TableOpened", "TableOpened", "ResultSet",
                                                      "ResultSet"]
    assert state_module.fold_from(before, rows) == core.state

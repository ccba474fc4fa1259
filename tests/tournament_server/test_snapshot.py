"""A tournament's state snapshot: read back it is the state it was written from, and recovery folding the log after
any snapshot reaches the state the whole log folds to."""

from __future__ import annotations

from server.tournaments.log import (
    ORGANISER,
    CardGiven,
    ChatMuted,
    CheckedIn,
    Claimed,
    CorrectionAgreed,
    CorrectionProposed,
    Created,
    DisputeFiled,
    DisputeRuled,
    Event,
    Outcome,
    Row,
    Withdrawn,
)
from server.tournaments.state import fold, fold_from
from server.tournaments.state_snapshot import read_snapshot, write_snapshot
from server.tournaments.tournament_core import Effect, OpenTables, Persist, TournamentCore
from shared.tournament.writing import dumps
from tests.tournament_server.test_tournament_core import NO_SHOW, T0, _finish_round, _open


def _played() -> tuple[TournamentCore, list[Row]]:
    """A tournament's rows as its core wrote them: entries, a round with a dispute ruled a replay and a correction
    agreed, the replay's new table, a card, a withdrawal, round 2 started."""
    rows = _setup_rows(4)
    core = TournamentCore(fold("T", rows))

    def step(effects: list[Effect]) -> list[Effect]:
        """Keep the rows a transition writes; open the tables it asks for."""
        rows.extend(r for e in effects if isinstance(e, Persist) for r in e.rows)
        if any(isinstance(e, OpenTables) for e in effects):
            step(_open(core, effects, T0 + 1))
        return effects

    step(core.start_round(ORGANISER, T0 + 10))
    step(_finish_round(core, T0 + 30))
    step(core.commit([DisputeFiled(case=1, stage=0, round=1, table=1, by="p1", reason="the puck")], "p1", T0 + 40))
    step(core.decided(DisputeRuled(case=1, ruling="replay", reason="seen again"), (0, 1, 1), ORGANISER, T0 + 50))
    proposed = CorrectionProposed(case=2, stage=0, round=1, table=2, by="p3", replay=False,
                                  outcome=Outcome(score=(0, 3)), reason="we swapped")
    step(core.commit([proposed], "p3", T0 + 60))
    step(core.decided(CorrectionAgreed(case=2, by="p4"), (0, 1, 2), "p4", T0 + 70))
    step(_finish_round(core, T0 + 90))
    step(core.commit([CardGiven(stage=0, round=1, entry="p2", card="yellow", reason="time wasting"),
                      Withdrawn(entry="p4", stage=0, after_round=1, reason="ill"),
                      ChatMuted(entry="p3", muted=True, reason="insults")], ORGANISER, T0 + 100))
    step(core.start_round(ORGANISER, T0 + 110))
    assert core.state.cases and core.state.sources and core.state.tables and core.state.chat_muted
    return core, rows


def _setup_rows(players: int) -> list[Row]:
    """A Swiss of ``players`` entries created at T0, each claimed by player i and checked in."""
    file = {"name": "t", "seed": 3, "stages": [{"system": "swiss", "rounds": 3}],
            "players": [{"id": f"p{i}", "name": f"P{i}"} for i in range(1, players + 1)]}
    events: list[Event] = [Claimed(entry=f"p{i}", player_id=i, name=f"P{i}") for i in range(1, players + 1)]
    events += [CheckedIn(entry=f"p{i}") for i in range(1, players + 1)]
    rows = [Row(index=0, at_ms=T0, actor=ORGANISER, event=Created(file=file, no_show_ms=NO_SHOW))]
    rows += [Row(index=n, at_ms=T0, actor=ORGANISER, event=e) for n, e in enumerate(events, start=1)]
    return rows


def test_a_snapshot_reads_back_as_the_state_it_was_written_from():
    """write then read: the same state - cases, replays, sources, kinds, coaches, audit, the file - at every
    point of a played tournament."""
    core, rows = _played()
    assert fold("T", rows) == core.state
    for end in range(1, len(rows) + 1):
        state = fold("T", rows[:end])
        assert read_snapshot(write_snapshot(state)) == state


def test_recovery_from_any_snapshot_and_the_log_after_it_is_the_whole_logs_fold():
    """For every point of the log: the snapshot there, folded on with the rows after it, is the fold of them all."""
    core, rows = _played()
    for end in range(1, len(rows)):
        snapshot = read_snapshot(write_snapshot(fold("T", rows[:end])))
        assert snapshot is not None
        assert fold_from(snapshot, rows) == core.state


def test_a_row_that_holds_only_the_tournament_file_is_no_snapshot():
    """An older row's snapshot (the canonical tournament file) reads as None: recovery folds the whole log."""
    core, _ = _played()
    assert read_snapshot(dumps(core.state.tournament)) is None

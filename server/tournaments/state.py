"""A tournament as its log folds: the engine's tournament file plus what only the server knows.

Why a pure fold: the running service and recovery after a crash must reach the same tournament from the same
log, so every change goes through ``apply`` (no I/O, no clock: each row carries its time), and the file's part
goes through the engine (``shared.tournament.events.advance``: each event applied once to the followed file), which
refuses what the contract refuses with a ``TournamentError`` - so a refused request changes nothing, and nothing in
the log can build a file that ``sprtec tournament`` would refuse. The value is never changed in place: ``apply``
returns a new one, and it carries the file's course, so the pairing and the standings need not follow it again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, cast

from server.tournaments.log import (
    SERVER,
    AutoStartSet,
    BoardsSet,
    CardGiven,
    ChatMuted,
    CheckedIn,
    Claimed,
    CorrectionAgreed,
    CorrectionProposed,
    Created,
    DisputeFiled,
    DisputeRuled,
    Ended,
    EntryAdded,
    Outcome,
    PairingSwapped,
    RefereesAssigned,
    RefereeSet,
    ResultEntered,
    ResultSet,
    RoundStarted,
    RoundTakenBack,
    Row,
    TableOpened,
    Unlinked,
    Withdrawn,
)
from shared.tournament import events as engine
from shared.tournament.board_referees import BoardReferee, Referees
from shared.tournament.bracket import MatchKind
from shared.tournament.course import follow
from shared.tournament.errors import TournamentError
from shared.tournament.model import Bye, Match, Round, Tournament
from shared.tournament.pairing import PairedMatch, Pairing
from shared.tournament.progress import Course
from shared.tournament.reading import read_tournament

TableKey = tuple[int, int, int]  # (stage, round, table)


@dataclass(frozen=True, kw_only=True, slots=True)
class Coach:
    """The connected player who coaches an entry."""

    player_id: int
    name: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Table:
    """A room a match is played in, since when (ms since the epoch)."""

    stage: int
    round: int
    table: int
    room: str
    match_id: str
    opened_at_ms: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Case:
    """A dispute (decided by the organiser) or a correction (agreed by both coaches, XVII.4) of one match."""

    id: int
    kind: str  # "dispute" or "correction"
    stage: int
    round: int
    table: int
    by: str
    reason: str
    status: str = "open"  # dispute: open, stands, changed, replay; correction: open, agreed
    ruling: str = ""
    replay: bool = False
    outcome: Outcome | None = None

    def proposal(self) -> str:
        """What a correction proposes, in words."""
        if self.kind != "correction":
            return ""
        return "replay" if self.replay else (self.outcome or Outcome()).text()


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardEntry:
    """The result of a match on a board as one of its coaches entered it, waiting for the other's."""

    by: str
    outcome: Outcome


@dataclass(frozen=True, kw_only=True, slots=True)
class Audit:
    """One act of the audit log: when, who, what, on what, why."""

    at_ms: int
    who: str
    act: str
    detail: str
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class TournamentState:
    """Everything a tournament is after its log's events (see the module docstring)."""

    id: str
    course: Course  # the tournament file as the engine follows it (``course.tournament``)
    version: int  # events folded
    no_show_ms: int
    next_round_after_ms: int | None
    created_at_ms: int
    code_hashes: Mapping[str, str] = field(default_factory=dict)  # unclaimed entry -> hash of its code
    coaches: Mapping[str, Coach] = field(default_factory=dict)  # entry -> its coach
    checked_in: frozenset[str] = frozenset()
    chat_muted: frozenset[str] = frozenset()  # entries whose coach the organiser silenced in the tournament's chat
    tables: Mapping[TableKey, Table] = field(default_factory=dict)  # the rooms of matches still to be decided
    replays: frozenset[TableKey] = frozenset()  # matches ordered played again, until their new table opens
    sources: Mapping[TableKey, str] = field(default_factory=dict)  # how each result came (match, no_show, ...)
    kinds: Mapping[TableKey, tuple[str, str]] = field(default_factory=dict)  # paired match -> (kind, ruleset)
    cases: tuple[Case, ...] = ()
    audit: tuple[Audit, ...] = ()
    ended: str | None = None
    last_result_at_ms: int = 0
    round_absent: Mapping[tuple[int, int], tuple[str, ...]] = field(default_factory=dict)  # absences a start marked
    on_boards: bool = False  # the whole tournament is played on physical boards ...
    board_stages: Mapping[int, bool] = field(default_factory=dict)  # ... unless its stage says otherwise ...
    board_tables: Mapping[TableKey, bool] = field(default_factory=dict)  # ... unless its table does
    board_entries: Mapping[TableKey, BoardEntry] = field(default_factory=dict)  # a board's result one coach entered
    referees: Referees = field(default_factory=Referees)  # XVII.1: each board's referee
    agreed: frozenset[TableKey] = frozenset()  # XVII.3: boards whose players accept a referee of their club

    @property
    def tournament(self) -> Tournament:
        """The tournament file after the events folded."""
        return self.course.tournament

    def stage_on_board(self, stage: int) -> bool:
        """The stage's matches are played on physical boards (a table may still say otherwise)."""
        return self.board_stages.get(stage, self.on_boards)

    def on_board(self, key: TableKey) -> bool:
        """The match at ``key`` is played on a physical board: no room opens for it, its result is entered by hand."""
        return self.board_tables.get(key, self.stage_on_board(key[0]))

    def entry_of(self, player_id: int) -> str | None:
        """The entry a player coaches in this tournament, if any: the one still in it before one he withdrew."""
        own = [entry for entry, coach in self.coaches.items() if coach.player_id == player_id]
        return next((entry for entry in own if entry not in self.withdrawn()), own[0] if own else None)

    def entered(self, player_id: int) -> str | None:
        """The entry a player coaches and that has not withdrawn: a withdrawn entry (a duplicate he made by
        mistake, withdrawn by the organiser) no longer holds him, and he may claim his own."""
        entry = self.entry_of(player_id)
        return entry if entry is not None and entry not in self.withdrawn() else None

    def withdrawn(self) -> frozenset[str]:
        """The entries withdrawn from the tournament."""
        return frozenset(w.player for w in self.tournament.withdrawn)

    def name_of(self, entry: str) -> str:
        """An entrant's name as everyone sees it."""
        return self.tournament.player(entry).name

    def silenced(self) -> frozenset[int]:
        """The players silenced in the tournament's chat: the coaches of its muted entries."""
        return frozenset(coach.player_id for entry, coach in self.coaches.items() if entry in self.chat_muted)

    def case(self, number: int) -> Case | None:
        """Case ``number``, if the tournament has it."""
        return next((c for c in self.cases if c.id == number), None)

    def next_case(self) -> int:
        """The number the next dispute or correction gets."""
        return 1 + max((c.id for c in self.cases), default=0)

    def table_of_room(self, room: str) -> Table | None:
        """The table played in room ``room``."""
        return next((t for t in self.tables.values() if t.room == room), None)


def start(tournament_id: str, row: Row) -> TournamentState:
    """The tournament as its first event, ``Created``, makes it."""
    event = row.event
    if not isinstance(event, Created):
        raise TournamentError("BAD_FORMAT", f"tournament {tournament_id}: its log does not begin with its creation")
    t = read_tournament(dict(event.file))
    audit = Audit(at_ms=row.at_ms, who=row.actor, act="create", detail=f"{len(t.players)} entries")
    return TournamentState(id=tournament_id, course=follow(t), version=1, no_show_ms=event.no_show_ms,
                           next_round_after_ms=event.next_round_after_ms, created_at_ms=row.at_ms,
                           code_hashes=dict(event.code_hashes), audit=(audit,), on_boards=event.on_boards)


def fold(tournament_id: str, rows: Iterable[Row]) -> TournamentState:
    """The tournament after every row of its log, in order."""
    state: TournamentState | None = None
    for row in rows:
        state = start(tournament_id, row) if state is None else apply(state, row)
    if state is None:
        raise TournamentError("BAD_FORMAT", f"tournament {tournament_id} has an empty log")
    return state


def fold_from(state: TournamentState, rows: Iterable[Row]) -> TournamentState:
    """The tournament after the rows that follow ``state`` in its log (a snapshot), in order."""
    for row in rows:
        if row.index < state.version:
            continue  # folded into the snapshot already
        if row.index != state.version:
            raise TournamentError("BAD_FORMAT", f"tournament {state.id}: its log lacks event {state.version}")
        state = apply(state, row)
    return state


def apply(state: TournamentState, row: Row) -> TournamentState:
    """The tournament after one more row; raises ``TournamentError`` when the engine refuses its event."""
    step = _STEPS.get(type(row.event))
    if step is None:
        kind = type(row.event).__name__
        raise TournamentError("BAD_FORMAT", f"tournament {state.id}: {kind} cannot follow its creation")
    return step(replace(state, version=state.version + 1), row, row.event)


def _entry_added(s: TournamentState, row: Row, event: EntryAdded) -> TournamentState:
    """An entry registered (by the organiser, or a late entry)."""
    p = event.player
    s = _engine(s, engine.AddPlayer(player=p))
    if event.code_hash:
        s = replace(s, code_hashes={**s.code_hashes, p.id: event.code_hash})
    return _audited(s, row, "register", f"{p.id} ({p.name})")


def _claimed(s: TournamentState, row: Row, event: Claimed) -> TournamentState:
    """A player became the coach of an entry (his rating seeds it before round 1)."""
    hashes = {k: v for k, v in s.code_hashes.items() if k != event.entry}
    s = replace(s, code_hashes=hashes, coaches={**s.coaches, event.entry: Coach(player_id=event.player_id,
                                                                                 name=event.name)})
    if event.rating is not None and not s.tournament.results:
        s = _rated(s, event.entry, event.rating)
    return _audited(s, row, "claim", f"{event.entry} by {event.name}")


def _checked_in(s: TournamentState, row: Row, event: CheckedIn) -> TournamentState:
    """A coach is here and plays."""
    return _audited(replace(s, checked_in=s.checked_in | {event.entry}), row, "check-in", event.entry)


def _withdrawn(s: TournamentState, row: Row, event: Withdrawn) -> TournamentState:
    """An entry leaves after a round."""
    s = _engine(s, engine.Withdraw(stage=event.stage, player=event.entry, after_round=event.after_round))
    return _audited(s, row, "withdraw", f"{event.entry} after stage {event.stage} round {event.after_round}",
                    event.reason)


def apply_round_started(state: TournamentState, row: Row, marked: Course) -> TournamentState:
    """``apply`` of a ``RoundStarted`` row whose absences ``marked`` has already (the tournament's core marked them
    to pair the round): each of its events is applied once."""
    event = row.event
    assert isinstance(event, RoundStarted)
    return _round_started(replace(state, version=state.version + 1), row, event, marked)


def _round_started(s: TournamentState, row: Row, event: RoundStarted, marked: Course | None = None) -> TournamentState:
    """A round paired, its absent entries marked first."""
    if marked is None:
        for player in event.absent:
            s = _engine(s, engine.MarkAbsent(stage=event.stage, round=event.round, player=player))
    else:
        s = replace(s, course=marked)
    s = _engine(s, engine.ApplyPairing(pairing=event.pairing))
    paired = {(event.stage, event.round, m.table): (m.kind, m.ruleset) for m in event.pairing.matches}
    s = replace(s, kinds={**s.kinds, **paired},
                round_absent={**s.round_absent, (event.stage, event.round): tuple(event.absent)})
    absent = f", absent {', '.join(event.absent)}" if event.absent else ""
    return _audited(s, row, "start round", f"stage {event.stage} round {event.round}{absent}")


def _table_opened(s: TournamentState, row: Row, event: TableOpened) -> TournamentState:
    """A match of the round got its room."""
    key = (event.stage, event.round, event.table)
    table = Table(stage=event.stage, round=event.round, table=event.table, room=event.room,
                  match_id=event.match_id, opened_at_ms=row.at_ms)
    return replace(s, tables={**s.tables, key: table}, replays=s.replays - {key})


def _result_set(s: TournamentState, row: Row, event: ResultSet) -> TournamentState:
    """A table's result, from its match, a no-show or an override (XVII.5)."""
    key = (event.stage, event.round, event.table)
    before = _result_text(s, key)
    s = _result(s, key, event.outcome, at_ms=row.at_ms)
    s = replace(s, sources={**s.sources, key: event.source})
    if event.source in ("match", "forfeit") and row.actor == SERVER:
        return s
    act = {"no_show": "walkover", "board": "board result"}.get(event.source, "override")
    return _audited(s, row, act, f"{_where(key)}: {_replaced(before, event.outcome.text())}", event.reason)


def _card_given(s: TournamentState, row: Row, event: CardGiven) -> TournamentState:
    """A card of the discipline ledger."""
    card = engine.GiveCard(stage=event.stage, round=event.round, player=event.entry, card=event.card,  # type: ignore[arg-type]
                           reason=event.reason)
    return _audited(_engine(s, card), row, f"{event.card} card",
                    f"{event.entry}, stage {event.stage} round {event.round}", event.reason)


def _chat_muted(s: TournamentState, row: Row, event: ChatMuted) -> TournamentState:
    """The organiser silences an entry's coach in the tournament's chat, or lets him speak again."""
    if event.entry not in s.tournament.player_ids():
        raise TournamentError("UNKNOWN_PLAYER", f"tournament {s.id} has no entry {event.entry}")
    muted = s.chat_muted | {event.entry} if event.muted else s.chat_muted - {event.entry}
    return _audited(replace(s, chat_muted=muted), row, "mute" if event.muted else "unmute",
                    f"{event.entry} in the chat", event.reason)


def _unlinked(s: TournamentState, row: Row, event: Unlinked) -> TournamentState:
    """The organiser undid a claim: the entry is coachless and unchecked, claimable with its new code."""
    coach = s.coaches.get(event.entry)
    if coach is None:
        raise TournamentError("UNKNOWN_PLAYER", f"entry {event.entry} of tournament {s.id} has no coach to unlink")
    coaches = {entry: c for entry, c in s.coaches.items() if entry != event.entry}
    s = replace(s, coaches=coaches, checked_in=s.checked_in - {event.entry},
                code_hashes={**s.code_hashes, event.entry: event.code_hash})
    return _audited(s, row, "unlink", f"{event.entry} from {coach.name}", event.reason)


def _auto_start_set(s: TournamentState, row: Row, event: AutoStartSet) -> TournamentState:
    """Rounds start by themselves, or no longer."""
    detail = "off" if event.after_ms is None else f"{event.after_ms} ms after a round's last match"
    return _audited(replace(s, next_round_after_ms=event.after_ms), row, "auto-start", detail)


def _dispute_filed(s: TournamentState, row: Row, event: DisputeFiled) -> TournamentState:
    """A coach disputes a match (XVII)."""
    case = Case(id=event.case, kind="dispute", stage=event.stage, round=event.round, table=event.table,
                by=event.by, reason=event.reason)
    return _audited(replace(s, cases=(*s.cases, case)), row, "dispute",
                    f"case {event.case}, {_where((event.stage, event.round, event.table))}", event.reason)


def _dispute_ruled(s: TournamentState, row: Row, event: DisputeRuled) -> TournamentState:
    """The organiser decides a dispute: it stands, is changed or replayed."""
    case = _open_case(s, event.case)
    key = (case.stage, case.round, case.table)
    before = _result_text(s, key)
    if event.ruling == "changed" and event.outcome is not None:
        s = _result(s, key, event.outcome, at_ms=row.at_ms)
        s = replace(s, sources={**s.sources, key: "ruling"})
    elif event.ruling == "replay":
        s = _replay(s, key)
    s = _case_changed(s, replace(case, status=event.ruling, ruling=event.reason, outcome=event.outcome))
    if event.ruling == "changed" and event.outcome:
        text = _replaced(before, event.outcome.text())
    elif event.ruling == "replay":
        text = _replaced(before, "replay")
    else:
        text = f"{event.ruling} ({before})" if before else event.ruling
    return _audited(s, row, "ruling", f"case {case.id}: {text}", event.reason)


def _correction_proposed(s: TournamentState, row: Row, event: CorrectionProposed) -> TournamentState:
    """A coach proposes a correction (XVII.4)."""
    case = Case(id=event.case, kind="correction", stage=event.stage, round=event.round, table=event.table,
                by=event.by, reason=event.reason, replay=event.replay, outcome=event.outcome)
    return _audited(replace(s, cases=(*s.cases, case)), row, "propose correction",
                    f"case {case.id}, {_where((case.stage, case.round, case.table))}: {case.proposal()}",
                    event.reason)


def _correction_agreed(s: TournamentState, row: Row, event: CorrectionAgreed) -> TournamentState:
    """The other coach agrees to it (XVII.4)."""
    case = _open_case(s, event.case)
    key = (case.stage, case.round, case.table)
    before = _result_text(s, key)
    if case.replay:
        s = _replay(s, key)
    elif case.outcome is not None:
        s = _result(s, key, case.outcome, at_ms=row.at_ms)
        s = replace(s, sources={**s.sources, key: "agreement"})
    s = _case_changed(s, replace(case, status="agreed"))
    return _audited(s, row, "agree correction", f"case {case.id}: {_replaced(before, case.proposal())}",
                    case.reason)


def _round_taken_back(s: TournamentState, row: Row, event: RoundTakenBack) -> TournamentState:
    """A round started by mistake goes off the file (the tournament's core checked that none of its matches has
    begun or has a result); the absences its start marked go with it."""
    _not_begun(s, event.stage, event.round)
    s = _without_round(s, event.stage, event.round)
    return _audited(s, row, "take back round", f"stage {event.stage} round {event.round}", event.reason)


def _pairing_swapped(s: TournamentState, row: Row, event: PairingSwapped) -> TournamentState:
    """Two entries of a round not yet begun change places: the round is paired again as it was with the two
    exchanged (the engine checks it as any round of the file)."""
    r = round_of(s.tournament, event.stage, event.round)
    if r is None:
        raise TournamentError("BAD_RESULT", f"stage {event.stage} round {event.round} has not been paired")
    if event.first == event.second:
        raise TournamentError("BAD_FORMAT", f"swap two different entries, not {event.first} with himself")
    in_round = {p for entry in r.matches for p in entry.players()}
    for entry in (event.first, event.second):
        if entry not in in_round:
            raise TournamentError("UNKNOWN_PLAYER", f"{entry} is neither at a table nor has a bye in stage "
                                                    f"{event.stage} round {event.round}")
    other = {event.first: event.second, event.second: event.first}

    def moved(player: str) -> str:
        """A player's replacement."""
        return other.get(player, player)

    _not_begun(s, r.stage, r.round)
    matches = [e for e in r.matches if isinstance(e, Match)]
    paired = tuple(PairedMatch(table=n, home=moved(m.home), away=moved(m.away), walkover=m.walkover,
                               kind=cast(MatchKind, s.kinds.get((r.stage, r.round, n), ("match", ""))[0]),
                               ruleset=s.kinds.get((r.stage, r.round, n), ("match", "standard"))[1])
                   for n, m in enumerate(matches, start=1))
    byes = tuple(moved(e.player) for e in r.matches if isinstance(e, Bye))
    s = _engine(s, engine.TakeBack(stage=r.stage, round=r.round))
    s = _engine(s, engine.ApplyPairing(pairing=Pairing(stage=r.stage, round=r.round, matches=paired, byes=byes)))
    touched = {(r.stage, r.round, n) for n, m in enumerate(matches, start=1) if {m.home, m.away} & set(other)}
    s = replace(s, tables={k: v for k, v in s.tables.items() if k not in touched})
    return _audited(s, row, "swap", f"{event.first} and {event.second}, stage {r.stage} round {r.round}",
                    event.reason)


def _boards_set(s: TournamentState, row: Row, event: BoardsSet) -> TournamentState:
    """The organiser puts the tournament, a stage or a table on physical boards, or back online."""
    where = "the tournament"
    if event.stage is None:
        s = replace(s, on_boards=event.on_board, board_stages={}, board_tables={})
    elif event.round is None or event.table is None:
        if not 0 <= event.stage < len(s.tournament.stages):
            raise TournamentError("BAD_FORMAT", f"tournament {s.id} has no stage {event.stage}")
        tables = {k: v for k, v in s.board_tables.items() if k[0] != event.stage}
        s = replace(s, board_stages={**s.board_stages, event.stage: event.on_board}, board_tables=tables)
        where = f"stage {event.stage}"
    else:
        key = (event.stage, event.round, event.table)
        match_at(s.tournament, key)  # BAD_RESULT: no such table
        s = replace(s, board_tables={**s.board_tables, key: event.on_board},
                    board_entries={k: v for k, v in s.board_entries.items() if k != key},
                    tables={k: v for k, v in s.tables.items() if k != key or not event.on_board})
        where = _where(key)
    return _audited(s, row, "on boards" if event.on_board else "online", where, event.reason)


def _result_entered(s: TournamentState, row: Row, event: ResultEntered) -> TournamentState:
    """A coach entered his board's result (checked by the engine now, so a result the other coach confirms can be
    recorded); it waits for the other coach's."""
    key = (event.stage, event.round, event.table)
    m = match_at(s.tournament, key)
    if event.by not in (m.home, m.away):
        raise TournamentError("UNKNOWN_PLAYER", f"{event.by} does not play at {_where(key)}")
    engine.advance(s.course, engine.RecordResult(stage=key[0], round=key[1], home=m.home, away=m.away,
                                                 score=event.outcome.score, walkover=event.outcome.walkover,
                                                 shootout=event.outcome.shootout))
    s = replace(s, board_entries={**s.board_entries, key: BoardEntry(by=event.by, outcome=event.outcome)})
    return _audited(s, row, "enter result", f"{_where(key)}: {event.outcome.text()} by {event.by}")


def _referees_assigned(s: TournamentState, row: Row, event: RefereesAssigned) -> TournamentState:
    """XVII.1: the referees of a round's boards."""
    boards = [BoardReferee(stage=event.stage, round=event.round, table=table, referee=entry)
              for table, entry in event.boards]
    before = {b.table for b in s.referees.boards if (b.stage, b.round) == (event.stage, event.round)}
    s = _with_referees(s, event.stage, event.round, before | {b.table for b in boards}, boards)
    detail = ", ".join(f"board {b.table}: {b.referee}" for b in boards) or "none"
    return _audited(s, row, "referees", f"stage {event.stage} round {event.round}: {detail}")


def _referee_set(s: TournamentState, row: Row, event: RefereeSet) -> TournamentState:
    """The organiser names a board's referee (XVII.3: ``agreed`` lets one of either player's club)."""
    key = (event.stage, event.round, event.table)
    m = match_at(s.tournament, key)
    if event.referee is not None:
        if event.referee not in s.tournament.player_ids():
            raise TournamentError("UNKNOWN_PLAYER", f"tournament {s.id} has no entry {event.referee}")
        if event.referee in m.players():
            raise TournamentError("UNKNOWN_PLAYER", f"{event.referee} plays at {_where(key)}: he cannot referee it")
    boards = [] if event.referee is None else [BoardReferee(stage=event.stage, round=event.round, table=event.table,
                                                            referee=event.referee)]
    s = _with_referees(s, event.stage, event.round, {event.table}, boards)
    s = replace(s, agreed=s.agreed | {key} if event.agreed else s.agreed - {key})
    agreed = " (XVII.3: both players agree)" if event.agreed else ""
    return _audited(s, row, "referee", f"{_where(key)}: {event.referee or 'nobody'}{agreed}", event.reason)


def _with_referees(s: TournamentState, stage: int, number: int, tables: set[int],
                   boards: list[BoardReferee]) -> TournamentState:
    """The referees with those of ``tables`` of one round replaced by ``boards``."""
    kept = [b for b in s.referees.boards if not (b.stage == stage and b.round == number and b.table in tables)]
    ordered = tuple(sorted([*kept, *boards], key=lambda b: (b.stage, b.round, b.table)))
    return replace(s, referees=replace(s.referees, boards=ordered))


def _ended(s: TournamentState, row: Row, event: Ended) -> TournamentState:
    """The organiser ends the tournament: the file is ``ended`` after its last finished round (the engine's ``End``),
    a round still being played taken off it first - its matches no longer count."""
    t = s.tournament
    if t.results and not t.results[-1].finished:
        s = _without_round(s, t.results[-1].stage, t.results[-1].round)
        t = s.tournament
    last = t.results[-1] if t.results else None
    end = engine.End(after_stage=0 if last is None else last.stage, after_round=0 if last is None else last.round,
                     reason=event.reason)
    s = _engine(s, end)
    return _audited(replace(s, ended=event.reason), row, "end", "the tournament", event.reason)


def _not_begun(s: TournamentState, stage: int, number: int) -> None:
    """``BAD_RESULT`` when a match of the round has a result recorded since it was paired (a walkover the pairing
    made is no such result)."""
    decided = sorted(k for k in s.sources if k[:2] == (stage, number))
    if decided:
        raise TournamentError("BAD_RESULT", f"stage {stage} round {number} table {decided[0][2]} has a result: the "
                                            "round can no longer be taken back or paired again")


def _without_round(s: TournamentState, stage: int, number: int) -> TournamentState:
    """The state without the last listed round: the engine takes it off the file with the absences its start
    marked; its tables, results' sources and kinds are forgotten."""
    key = (stage, number)
    s = _engine(s, engine.TakeBack(stage=stage, round=number, absent=s.round_absent.get(key, ())))
    s = _with_referees(s, stage, number, {b.table for b in s.referees.boards if (b.stage, b.round) == key}, [])
    return replace(s, tables={k: v for k, v in s.tables.items() if k[:2] != key},
                   replays=frozenset(k for k in s.replays if k[:2] != key),
                   sources={k: v for k, v in s.sources.items() if k[:2] != key},
                   kinds={k: v for k, v in s.kinds.items() if k[:2] != key},
                   round_absent={k: v for k, v in s.round_absent.items() if k != key},
                   board_tables={k: v for k, v in s.board_tables.items() if k[:2] != key},
                   board_entries={k: v for k, v in s.board_entries.items() if k[:2] != key},
                   agreed=frozenset(k for k in s.agreed if k[:2] != key))


_STEPS: Mapping[type, Callable[[TournamentState, Row, Any], TournamentState]] = {
    EntryAdded: _entry_added,
    Claimed: _claimed,
    CheckedIn: _checked_in,
    Withdrawn: _withdrawn,
    RoundStarted: _round_started,
    TableOpened: _table_opened,
    ResultSet: _result_set,
    CardGiven: _card_given,
    ChatMuted: _chat_muted,
    Unlinked: _unlinked,
    AutoStartSet: _auto_start_set,
    DisputeFiled: _dispute_filed,
    DisputeRuled: _dispute_ruled,
    CorrectionProposed: _correction_proposed,
    CorrectionAgreed: _correction_agreed,
    RoundTakenBack: _round_taken_back,
    PairingSwapped: _pairing_swapped,
    BoardsSet: _boards_set,
    ResultEntered: _result_entered,
    RefereesAssigned: _referees_assigned,
    RefereeSet: _referee_set,
    Ended: _ended,
}
"""What each event of the log does to the tournament."""


# ---------------------------------------------------------------------------------------------------- matches


def match_at(t: Tournament, key: TableKey) -> Match:
    """The match at a table: table N of a round is its Nth match (the pairing lists them in table order)."""
    stage, number, table = key
    for r in t.results:
        if (r.stage, r.round) == (stage, number):
            matches = [e for e in r.matches if isinstance(e, Match)]
            if 1 <= table <= len(matches):
                return matches[table - 1]
            break
    raise TournamentError("BAD_RESULT", f"stage {stage} round {number} has no table {table}")


def round_of(t: Tournament, stage: int, number: int) -> Round | None:
    """A listed round."""
    return next((r for r in t.results if (r.stage, r.round) == (stage, number)), None)


def _result(s: TournamentState, key: TableKey, outcome: Outcome, *, at_ms: int) -> TournamentState:
    """The match at ``key`` gets ``outcome`` (the engine checks it); its table is done."""
    m = match_at(s.tournament, key)
    event = engine.RecordResult(stage=key[0], round=key[1], home=m.home, away=m.away, score=outcome.score,
                                walkover=outcome.walkover, shootout=outcome.shootout)
    s = _engine(s, event)
    tables = {k: v for k, v in s.tables.items() if k != key}
    entered = {k: v for k, v in s.board_entries.items() if k != key}
    return replace(s, tables=tables, replays=s.replays - {key}, last_result_at_ms=at_ms, board_entries=entered)


def _replay(s: TournamentState, key: TableKey) -> TournamentState:
    """The match at ``key`` is played again: its result goes (the round is unfinished again) until a new table's
    result comes."""
    m = match_at(s.tournament, key)
    s = _engine(s, engine.RecordResult(stage=key[0], round=key[1], home=m.home, away=m.away))
    tables = {k: v for k, v in s.tables.items() if k != key}
    entered = {k: v for k, v in s.board_entries.items() if k != key}
    return replace(s, tables=tables, replays=s.replays | {key}, sources={**s.sources, key: "replay"},
                   board_entries=entered)


def _engine(s: TournamentState, event: engine.Event) -> TournamentState:
    """The file after one engine event, applied once (``TournamentError`` when the contract refuses it)."""
    return replace(s, course=engine.advance(s.course, event))


def _rated(s: TournamentState, entry: str, rating: int) -> TournamentState:
    """The file with an entrant's rating replaced (before round 1: seeding by rating reads it, so the course is
    followed again)."""
    if isinstance(rating, bool) or not isinstance(rating, int):
        raise TournamentError("BAD_FORMAT", f"players ({entry}).rating: expected an integer, not {rating!r}")
    players = tuple(replace(p, rating=rating) if p.id == entry else p for p in s.tournament.players)
    return replace(s, course=follow(replace(s.tournament, players=players)))


def _open_case(s: TournamentState, number: int) -> Case:
    """An open case (``BAD_RESULT`` otherwise: the log names a case that is closed or does not exist)."""
    case = s.case(number)
    if case is None or case.status != "open":
        raise TournamentError("BAD_RESULT", f"tournament {s.id} has no open case {number}")
    return case


def _case_changed(s: TournamentState, changed: Case) -> TournamentState:
    """The state with one case replaced."""
    return replace(s, cases=tuple(changed if c.id == changed.id else c for c in s.cases))


def _result_text(s: TournamentState, key: TableKey) -> str:
    """The result the match at ``key`` has now, in words ("" while it has none)."""
    m = match_at(s.tournament, key)
    if not m.finished:
        return ""
    return Outcome(score=m.score, walkover=m.walkover, shootout=m.shootout).text()


def _replaced(before: str, after: str) -> str:
    """What a decision did to a result: ``3:1 → 2:2`` (only the new one when there was none)."""
    return f"{before} → {after}" if before else after


def _audited(s: TournamentState, row: Row, act: str, detail: str, reason: str = "") -> TournamentState:
    """The state with one more line in the audit log."""
    return replace(s, audit=(*s.audit, Audit(at_ms=row.at_ms, who=row.actor, act=act, detail=detail, reason=reason)))


def _where(key: TableKey) -> str:
    """A match named by its stage, round and table."""
    return f"stage {key[0]} round {key[1]} table {key[2]}"

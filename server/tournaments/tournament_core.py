"""A running tournament's decisions without I/O: who is absent, the pairing, the tables to open and close, the
no-show walkovers, the rounds that start by themselves, the results of the tables' matches.

Why sans-I/O (as ``server.rooms.room_core`` for a room): everything a tournament decides is a function of its state,
what happened and the time ``now`` (ms since the epoch, the time its log rows carry), so it is written once here and
tested with time as an input, without a socket, a task, a lobby or a database. Each transition returns the
**effects** to carry out, in order:

* ``Persist(rows, snapshot)`` - append these rows to the tournament's log in one transaction (with the whole state
  every ``SNAPSHOT_EVERY`` events, which recovery folds on from); nothing that follows happens before it is durable,
  and when it cannot be written the shell rewinds the core (``mark``/``rewind``): a refused write changes nothing;
* ``OpenTables(tables)`` - open a room for each of these matches; the shell gives the rooms back to
  ``tables_opened``, whose effects record them and tell the coaches - the one step that needs the lobby in between;
* ``CloseTable(room)`` - close the room of a table nobody played at (whoever is in it is told he left);
* ``Send(player_id, message)`` - tell one coach (``TableAssigned``), when he is connected;
* ``Changed()`` - what watchers see changed (the shell pushes updates, coalesced);
* ``Warn(text)`` - something the organiser must see in the log (a table that cannot be opened).

The deadlines are data (``deadlines``): a table whose match has not started ``no_show_ms`` after it opened is a
walkover for the coach who came (``no_show``); a round whose last result came in starts the next one
``next_round_after_ms`` later when the organiser asked for that (``next_round``). ``next_wake`` is the earliest,
``due(now)`` carries out what is due by ``now``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from server.rooms.room_core import RoomError
from server.tournaments import round_referees
from server.tournaments.log import (
    ORGANISER,
    SERVER,
    AutoStartSet,
    BoardsSet,
    DisputeFiled,
    Ended,
    Event,
    Outcome,
    PairingSwapped,
    ResultEntered,
    ResultSet,
    RoundStarted,
    RoundTakenBack,
    Row,
    TableOpened,
)
from server.tournaments.results import StoredResult, no_show_winner, outcome_of
from server.tournaments.state import Coach, Table, TableKey, TournamentState, apply, apply_round_started, match_at
from server.tournaments.views import LiveTable, current_round, status_of
from shared.protocol import ServerMessage, TableAssigned
from shared.tournament import events as engine
from shared.tournament.errors import TournamentError
from shared.tournament.model import Match, Round
from shared.tournament.pairing import pair_course

SNAPSHOT_EVERY = 50  # events between two snapshots of the whole state (recovery folds at most this many)
DeadlineKind = Literal["no_show", "next_round"]


@dataclass(frozen=True, slots=True)
class Persist:
    """Append ``rows`` to the log in one transaction, with ``snapshot`` (the state after them) when one is due."""

    rows: tuple[Row, ...]
    snapshot: TournamentState | None = None
    status: str = ""  # the tournament's status after the rows (stored with a snapshot)


SEAT_NAME_CHARS = 32  # SeatInfo.name: what a room's seat shows


def seat_name(entry_name: str) -> str:
    """An entry's name as its table's seat shows it (the room's HUD, move list, results and replays): whole when it
    fits the seat, else cut with an ellipsis (an entry's name may be twice as long as a player's)."""
    return entry_name if len(entry_name) <= SEAT_NAME_CHARS else entry_name[:SEAT_NAME_CHARS - 1].rstrip() + "…"


@dataclass(frozen=True, slots=True, kw_only=True)
class TableToOpen:
    """A match that needs a room: where it is, its ruleset, and the two coaches whose seats the room holds (each named
    as his entry)."""

    key: TableKey
    ruleset: str
    home: Coach
    away: Coach


@dataclass(frozen=True, slots=True)
class OpenTables:
    """Open a room for each table; the rooms go back to ``TournamentCore.tables_opened``."""

    tables: tuple[TableToOpen, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenedTable:
    """A table's room as the lobby opened it."""

    key: TableKey
    room: str
    match_id: str


@dataclass(frozen=True, slots=True)
class CloseTable:
    """Close the room of a table whose match never started."""

    room: str


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``message`` to player ``player_id`` if he is connected."""

    player_id: int
    message: ServerMessage


@dataclass(frozen=True, slots=True)
class Changed:
    """What the tournament's watchers see has changed."""


@dataclass(frozen=True, slots=True)
class Warn:
    """Something the log must say (the organiser has to act on it)."""

    text: str


Effect = Persist | OpenTables | CloseTable | Send | Changed | Warn


@dataclass(frozen=True, slots=True, kw_only=True)
class Deadline:
    """A moment the tournament acts by itself: a table's no-show, or the next round starting."""

    at: int
    kind: DeadlineKind
    key: TableKey | None = None


@dataclass(frozen=True, slots=True)
class Mark:
    """The core as it was before a transition (``rewind`` when its write fails)."""

    state: TournamentState
    auto_start_at: int | None
    snapshot_version: int


@dataclass(slots=True)
class _Step:
    """What one transition logs and does after the write."""

    rows: list[Row] = field(default_factory=list)
    after: list[Effect] = field(default_factory=list)
    changed: bool = False


class _Matches:
    """The matches at tables and the entrants' names of one state, each round's matches listed once."""

    def __init__(self, state: TournamentState) -> None:
        self._state = state
        self._rounds: dict[tuple[int, int], list[Match]] = {}
        self._names: dict[str, str] | None = None

    def at(self, key: TableKey) -> Match:
        """The match at table ``key`` (``match_at``: a round's Nth match is its table N)."""
        stage, number, table = key
        matches = self._rounds.get((stage, number))
        if matches is None:
            r = next((r for r in self._state.tournament.results if (r.stage, r.round) == (stage, number)), None)
            matches = self._rounds[(stage, number)] = [] if r is None else [e for e in r.matches
                                                                           if isinstance(e, Match)]
        if not 1 <= table <= len(matches):
            return match_at(self._state.tournament, key)  # BAD_RESULT, as match_at says it
        return matches[table - 1]

    def name(self, entry: str) -> str:
        """An entrant's name."""
        if self._names is None:
            self._names = {p.id: p.name for p in self._state.tournament.players}
        return self._names[entry]


class TournamentCore:
    """One tournament's state and transitions (see the module docstring)."""

    def __init__(self, state: TournamentState, *, snapshot_version: int | None = None) -> None:
        """``snapshot_version``: the version of the latest stored snapshot (the state's own when None)."""
        self.state = state
        self.live: dict[str, LiveTable] = {}  # room code -> what the bus said of it
        self.auto_start_at: int | None = None  # when the next round starts by itself
        self.snapshot_version = state.version if snapshot_version is None else snapshot_version

    # ------------------------------------------------------------------ views
    @property
    def id(self) -> str:
        """The tournament's id."""
        return self.state.id

    def status(self) -> str:
        """registering, playing, between, finished or ended."""
        return status_of(self.state, self.state.course)

    def started(self, room: str) -> bool:
        """The match of the table in ``room`` has begun."""
        return self.live.get(room, LiveTable()).started

    def rooms(self) -> frozenset[str]:
        """The rooms of the tables still to be decided."""
        return frozenset(t.room for t in self.state.tables.values())

    def mark(self) -> Mark:
        """The core as it is now."""
        return Mark(self.state, self.auto_start_at, self.snapshot_version)

    def rewind(self, mark: Mark) -> None:
        """Back to ``mark``: the transition since it could not be written."""
        self.state, self.auto_start_at, self.snapshot_version = mark.state, mark.auto_start_at, mark.snapshot_version

    # ------------------------------------------------------------------ the log
    def commit(self, events: Iterable[Event], actor: str, now: int) -> list[Effect]:
        """Fold the events (``TournamentError``: refused, nothing changes) and log them."""
        step = _Step()
        self._log(step, events, actor, now)
        return self._effects(step)

    def _log(self, step: _Step, events: Iterable[Event], actor: str, now: int) -> None:
        """Fold the events into the state and the step's rows (all or none: a refusal leaves the state)."""
        state = self.state
        rows = []
        for event in events:
            row = Row(index=state.version, at_ms=now, actor=actor, event=event)
            state = apply(state, row)
            rows.append(row)
        self.state = state
        step.rows += rows
        step.changed = step.changed or bool(rows)

    def _effects(self, step: _Step) -> list[Effect]:
        """The step's write first, then what it does after, then the watchers' news."""
        effects: list[Effect] = []
        if step.rows:
            snapshot = None
            if self.state.version - self.snapshot_version >= SNAPSHOT_EVERY:
                snapshot, self.snapshot_version = self.state, self.state.version
            effects.append(Persist(tuple(step.rows), snapshot, self.status()))
        effects += step.after
        if step.changed:
            effects.append(Changed())
        return effects

    # ------------------------------------------------------------------ rounds
    def start_round(self, actor: str, now: int) -> list[Effect]:
        """Pair the next round, the entries without a coach who checked in absent from it, and open its tables
        (``TOURNAMENT_CLOSED`` once ended; the engine's ``ROUND_ORDER``, ``NOTHING_TO_PAIR``, ... as it says)."""
        step = _Step()
        self._start_round(step, actor, now)
        return self._effects(step)

    def _start_round(self, step: _Step, actor: str, now: int) -> None:
        """The round's pairing is worked out on the course with its absences marked, and that same course is the
        state's: each engine event is applied once."""
        state = self.state
        if state.ended is not None:
            raise RoomError("TOURNAMENT_CLOSED", f"tournament {state.id} has ended")
        first = pair_course(state.course)  # ROUND_ORDER while a round is played, NOTHING_TO_PAIR at the end
        sc = state.course.current  # the stage of that round (a finished stage's successor is reached already)
        reasons = sc.unavailable[first.round - 1]
        on_boards = state.stage_on_board(first.stage)  # at the boards an entry is here when it checked in
        absent = tuple(p for p in sc.field if p not in reasons and not self._ready(p, on_boards))
        marked = state.course
        for player in absent:
            marked = engine.advance(marked, engine.MarkAbsent(stage=first.stage, round=first.round, player=player))
        pairing = pair_course(marked) if absent else first
        event = RoundStarted(stage=pairing.stage, round=pairing.round, absent=absent, pairing=pairing)
        row = Row(index=state.version, at_ms=now, actor=actor, event=event)
        self.state = apply_round_started(state, row, marked)
        step.rows.append(row)
        step.changed = True
        self.auto_start_at = None  # started by hand before its time, or by itself now
        keys = [(pairing.stage, pairing.round, m.table) for m in pairing.matches if m.walkover is None]
        boards = [key for key in keys if self.state.on_board(key)]
        if boards:
            self._log(step, [round_referees.referees_for_round(self.state, pairing.stage, pairing.round, boards,
                                                               not_paired=[u.player for u in pairing.not_paired])],
                      SERVER, now)
            matches = _Matches(self.state)
            for key in boards:
                step.after += self._assign_board(key, matches)
        self._open(step, [key for key in keys if key not in boards])
        self._round_may_be_over(now)

    def _ready(self, entry: str, on_boards: bool = False) -> bool:
        """The entry's coach checked in (online he must also coach it: at a board the entry plays in person)."""
        return entry in self.state.checked_in and (on_boards or entry in self.state.coaches)

    def _open(self, step: _Step, keys: Sequence[TableKey]) -> None:
        """Ask for a room per match (both coaches' seats held, the match's ruleset)."""
        state = self.state
        tables = []
        matches = _Matches(state)
        for key in keys:
            m = matches.at(key)
            home, away = state.coaches.get(m.home), state.coaches.get(m.away)
            if home is None or away is None:  # an entry lost its coach (cannot happen through the requests)
                step.after.append(Warn(f"tournament {state.id}: {key} has no coach for both sides"))
                continue
            _, ruleset = state.kinds.get(key, ("match", state.tournament.stages[key[0]].ruleset))
            # the seats show the entries' names: one name per person in a tournament, on the table as on its lists
            tables.append(TableToOpen(key=key, ruleset=ruleset,
                                      home=replace(home, name=seat_name(state.name_of(m.home))),
                                      away=replace(away, name=seat_name(state.name_of(m.away)))))
        if tables:
            step.after.append(OpenTables(tuple(tables)))

    def tables_opened(self, opened: Sequence[OpenedTable], now: int) -> list[Effect]:
        """The rooms the lobby opened: recorded in one write, then each coach told where to play; from now on each
        table's no-show deadline runs."""
        step = _Step()
        events = [TableOpened(stage=o.key[0], round=o.key[1], table=o.key[2], room=o.room, match_id=o.match_id)
                  for o in opened]
        self._log(step, events, SERVER, now)
        matches = _Matches(self.state)
        for o in opened:
            step.after += self._assign(self.state.tables[o.key], now, matches)
        return self._effects(step)

    def _assign(self, table: Table, now: int, matches: _Matches, only: int | None = None) -> list[Effect]:
        """Tell the table's coaches (or only player ``only``) where to play and how long they have (TableAssigned)."""
        state = self.state
        key = (table.stage, table.round, table.table)
        m = matches.at(key)
        left = max(0, table.opened_at_ms + state.no_show_ms - now)
        _, ruleset = state.kinds.get(key, ("match", "standard"))
        out: list[Effect] = []
        for seat, entry, other in (("home", m.home, m.away), ("away", m.away, m.home)):
            coach = state.coaches.get(entry)
            if coach is None or (only is not None and coach.player_id != only):
                continue
            out.append(Send(coach.player_id, TableAssigned(
                tournament=state.id, stage=table.stage, round=table.round, table=table.table, room=table.room,
                ruleset=ruleset, seat=seat, opponent=matches.name(other)[:64], no_show_ms=left)))
        return out

    def _assign_board(self, key: TableKey, matches: _Matches, only: int | None = None) -> list[Effect]:
        """Tell the coaches of a match on a board (or only player ``only``) where they play: no room, no no-show
        deadline; its result is entered by hand."""
        state = self.state
        m = matches.at(key)
        _, ruleset = state.kinds.get(key, ("match", "standard"))
        referee = state.referees.referee_of(*key)
        out: list[Effect] = []
        for seat, entry, other in (("home", m.home, m.away), ("away", m.away, m.home)):
            coach = state.coaches.get(entry)
            if coach is None or (only is not None and coach.player_id != only):
                continue
            out.append(Send(coach.player_id, TableAssigned(
                tournament=state.id, stage=key[0], round=key[1], table=key[2], room=None, ruleset=ruleset, seat=seat,
                opponent=matches.name(other)[:64], on_board=True,
                referee=None if referee is None else matches.name(referee)[:64])))
        return out

    def connected(self, player_id: int, now: int) -> list[Effect]:
        """A player connected: the tables of his that wait for him (TableAssigned to him alone), online or on a
        board."""
        entry = self.state.entry_of(player_id)
        if entry is None:
            return []
        out: list[Effect] = []
        matches = _Matches(self.state)
        for table in self.state.tables.values():
            m = matches.at((table.stage, table.round, table.table))
            if entry in (m.home, m.away) and not self.started(table.room):
                out += self._assign(table, now, matches, only=player_id)
        for key in self.boards_waiting():
            if entry in matches.at(key).players():
                out += self._assign_board(key, matches, only=player_id)
        return out

    def boards_waiting(self) -> list[TableKey]:
        """The matches of the current round on boards still without a result."""
        stage, number = current_round(self.state.tournament)
        listed = next((r for r in self.state.tournament.results if (r.stage, r.round) == (stage, number)), None)
        matches = [] if listed is None else [e for e in listed.matches if isinstance(e, Match)]
        return [(stage, number, table) for table, m in enumerate(matches, start=1)
                if not m.finished and self.state.on_board((stage, number, table))]

    # ------------------------------------------------------------------ the organiser
    def set_auto_start(self, after_ms: int | None, actor: str, now: int) -> list[Effect]:
        """Rounds start by themselves ``after_ms`` after a round's last result, or no longer (None)."""
        self._ensure_open()
        step = _Step()
        self._log(step, [AutoStartSet(after_ms=after_ms)], actor, now)
        if after_ms is None:
            self.auto_start_at = None
        self._round_may_be_over(now)
        return self._effects(step)

    def end(self, reason: str, actor: str, now: int) -> list[Effect]:
        """The organiser ends the tournament: no more rounds; the tables still waiting for their coaches close."""
        self._ensure_open()
        waiting = [t.room for t in self.state.tables.values() if not self.started(t.room)]
        step = _Step()
        self._log(step, [Ended(reason=reason)], actor, now)
        self.auto_start_at = None
        step.after += [CloseTable(room) for room in waiting]
        return self._effects(step)

    def take_back(self, reason: str, actor: str, now: int, *, stage: int | None = None,
                  number: int | None = None) -> list[Effect]:
        """The organiser takes back the round last paired (``stage``/``number``, when given, must name it): none of
        its matches may have begun or have a result (``ROUND_BEGUN``); its tables close and the next start pairs it
        again. A round taken back does not start again by itself: the organiser starts it."""
        self._ensure_open()
        r = self._unbegun_round(stage, number)
        rooms = [t.room for key, t in self.state.tables.items() if key[:2] == (r.stage, r.round)]
        step = _Step()
        self._log(step, [RoundTakenBack(stage=r.stage, round=r.round, reason=reason)], actor, now)
        self.auto_start_at = None
        step.after += [CloseTable(room) for room in rooms]
        return self._effects(step)

    def swap(self, first: str, second: str, reason: str, actor: str, now: int) -> list[Effect]:
        """The organiser swaps two entries of the round last paired, none of whose matches has begun or has a result
        (``ROUND_BEGUN``): the tables of their matches close and open again with the new pairs."""
        self._ensure_open()
        r = self._unbegun_round(None, None)
        matches = [e for e in r.matches if isinstance(e, Match)]
        touched = [(r.stage, r.round, n) for n, m in enumerate(matches, start=1) if {m.home, m.away} & {first, second}]
        rooms = [self.state.tables[key].room for key in touched if key in self.state.tables]
        step = _Step()
        self._log(step, [PairingSwapped(stage=r.stage, round=r.round, first=first, second=second, reason=reason)],
                  actor, now)
        step.after += [CloseTable(room) for room in rooms]
        after = _Matches(self.state)
        played = [key for key in touched if after.at(key).walkover is None]
        boards = [key for n, m in enumerate(matches, start=1) for key in ((r.stage, r.round, n),)
                  if self.state.on_board(key) and after.at(key).walkover is None]
        if boards:  # the referees are drawn again for the new pairs (XVII.1-XVII.2)
            self._log(step, [round_referees.referees_for_round(self.state, r.stage, r.round, boards)], SERVER, now)
            for key in boards:
                if key in played:
                    step.after += self._assign_board(key, after)
        self._open(step, [key for key in played if key not in boards])
        return self._effects(step)

    def _unbegun_round(self, stage: int | None, number: int | None) -> Round:
        """The round last paired, when none of its matches has begun or has a result since it was paired."""
        t = self.state.tournament
        if not t.results:
            raise TournamentError("ROUND_ORDER", f"tournament {self.state.id} has no round paired yet")
        r = t.results[-1]
        if (stage is not None and stage != r.stage) or (number is not None and number != r.round):
            raise TournamentError("ROUND_ORDER", f"stage {stage if stage is not None else r.stage} round "
                                                 f"{number if number is not None else r.round} is not the round last "
                                                 f"paired (stage {r.stage} round {r.round})")
        for key in sorted(self.state.sources):
            if key[:2] == (r.stage, r.round):
                raise RoomError("ROUND_BEGUN", f"stage {r.stage} round {r.round} table {key[2]} has a result "
                                               f"({self._result_text(key)}): override it instead")
        for key, entry in sorted(self.state.board_entries.items()):
            if key[:2] == (r.stage, r.round):
                raise RoomError("ROUND_BEGUN", f"board {key[2]} of stage {r.stage} round {r.round} has a result "
                                               f"entered by {entry.by} ({entry.outcome.text()})")
        for key, table in sorted(self.state.tables.items()):
            if key[:2] == (r.stage, r.round) and self.started(table.room):
                raise RoomError("ROUND_BEGUN", f"the match at stage {r.stage} round {r.round} table {key[2]} has "
                                               "begun")
        return r

    def _result_text(self, key: TableKey) -> str:
        """A match's result in words."""
        m = _Matches(self.state).at(key)
        return Outcome(score=m.score, walkover=m.walkover, shootout=m.shootout).text()

    def decided(self, event: Event, key: TableKey, actor: str, now: int) -> list[Effect]:
        """A ruling or an agreed correction; a replay gets a new table for the match (on a board: its players are
        told to play it again there)."""
        step = _Step()
        self._log(step, [event], actor, now)
        if key in self.state.replays and self.state.on_board(key):
            step.after += self._assign_board(key, _Matches(self.state))
        elif key in self.state.replays:
            self._open(step, [key])
        self._round_may_be_over(now)
        return self._effects(step)

    def _ensure_open(self) -> None:
        """TOURNAMENT_CLOSED once the organiser ended the tournament."""
        if self.state.ended is not None:
            raise RoomError("TOURNAMENT_CLOSED", f"tournament {self.state.id} has ended ({self.state.ended})")

    # ------------------------------------------------------------------ results
    def record(self, key: TableKey, outcome: Outcome, *, source: str, now: int, match_id: str | None = None,
               reason: str = "", actor: str = SERVER) -> list[Effect]:
        """The match at ``key`` has its result; a table nobody played at closes; the round may be over."""
        step = _Step()
        self._record(step, key, outcome, source=source, now=now, match_id=match_id, reason=reason, actor=actor)
        return self._effects(step)

    def _record(self, step: _Step, key: TableKey, outcome: Outcome, *, source: str, now: int,
                match_id: str | None = None, reason: str = "", actor: str = SERVER) -> None:
        """``record`` into a step."""
        table = self.state.tables.get(key)
        started = table is not None and self.started(table.room)
        self._log(step, [ResultSet(stage=key[0], round=key[1], table=key[2], outcome=outcome, source=source,
                                   match_id=match_id, reason=reason)], actor, now)
        if table is not None and not started:  # nobody played there: the room goes (a match being played goes on)
            step.after.append(CloseTable(table.room))
        self._round_may_be_over(now)

    def enter_result(self, key: TableKey, outcome: Outcome, *, by: str | None, now: int) -> list[Effect]:
        """The result of a match on a board entered by hand: by the organiser (``by`` None: it stands), or by one of
        its coaches - the first entry waits for the other coach's, the same result then stands, another one is a
        dispute the organiser decides. Refused (nothing changes): a table played online (``NOT_ON_BOARD``), a result
        that differs from the one it has or from the coach's own entry (``RESULT_ENTERED``), a result the stage's
        rules cannot have and an unknown table (``BAD_RESULT``). The same result again changes nothing."""
        self._ensure_open()
        state = self.state
        m = match_at(state.tournament, key)  # BAD_RESULT: no such table
        where = f"stage {key[0]} round {key[1]} table {key[2]}"
        if not state.on_board(key):
            raise RoomError("NOT_ON_BOARD", f"{where} is played online: its result comes from its match")
        if m.finished:
            if Outcome(score=m.score, walkover=m.walkover, shootout=m.shootout) == outcome:
                return []
            result = Outcome(score=m.score, walkover=m.walkover, shootout=m.shootout).text()
            raise RoomError("RESULT_ENTERED", f"{where} has its result already ({result}): the organiser changes it "
                                              "with a reason (OverrideResult, XVII.5)")
        step = _Step()
        pending = state.board_entries.get(key)
        if by is None or (pending is not None and pending.by != by and pending.outcome == outcome):
            self._record(step, key, outcome, source="board", now=now, actor=ORGANISER if by is None else by)
            return self._effects(step)
        if pending is not None and pending.by == by:
            if pending.outcome == outcome:
                return []
            raise RoomError("RESULT_ENTERED", f"you entered {pending.outcome.text()} at {where} already: your "
                                              "opponent confirms it or enters his own, and the organiser decides")
        events: list[Event] = [ResultEntered(stage=key[0], round=key[1], table=key[2], by=by, outcome=outcome)]
        if pending is not None:  # the two coaches disagree: the organiser decides (XVII)
            events.append(DisputeFiled(case=state.next_case(), stage=key[0], round=key[1], table=key[2], by=by,
                                       reason=f"{pending.by} entered {pending.outcome.text()}, "
                                              f"{by} entered {outcome.text()}"))
        self._log(step, events, by, now)
        return self._effects(step)

    def set_boards(self, on_board: bool, *, stage: int | None, table: TableKey | None, reason: str, actor: str,
                   now: int) -> list[Effect]:
        """The organiser puts the tournament, a stage or one table on boards, or back online. A table of the
        current round changes at once: its room closes while its match has not started (``MATCH_STARTED``
        otherwise) and its coaches are told where they play now; one going back online gets a room."""
        self._ensure_open()
        step = _Step()
        if table is None:
            self._log(step, [BoardsSet(on_board=on_board, stage=stage, reason=reason)], actor, now)
            return self._effects(step)
        m = match_at(self.state.tournament, table)
        open_table = self.state.tables.get(table)
        if m.finished or self.state.on_board(table) == on_board:
            self._log(step, [BoardsSet(on_board=on_board, stage=table[0], round=table[1], table=table[2],
                                       reason=reason)], actor, now)
            return self._effects(step)
        if open_table is not None and self.started(open_table.room):
            raise RoomError("MATCH_STARTED", f"the match at stage {table[0]} round {table[1]} table {table[2]} is "
                                             "being played online")
        self._log(step, [BoardsSet(on_board=on_board, stage=table[0], round=table[1], table=table[2],
                                   reason=reason)], actor, now)
        if on_board:
            if open_table is not None:  # the fold forgot its room
                step.after.append(CloseTable(open_table.room))
            step.after += self._assign_board(table, _Matches(self.state))
        else:
            self._open(step, [table])
        return self._effects(step)

    def match_started(self, room: str) -> list[Effect]:
        """A table's match began: its no-show deadline is gone."""
        self.live[room] = replace(self.live.get(room, LiveTable()), started=True)
        return [Changed()]

    def move_applied(self, room: str, score: tuple[int, int]) -> list[Effect]:
        """A move at a table: its live score."""
        self.live[room] = replace(self.live.get(room, LiveTable()), score=score)
        return [Changed()]

    def presence_changed(self, room: str, connected: tuple[str, ...]) -> None:
        """Who is at a table (a no-show is decided by it)."""
        self.live[room] = replace(self.live.get(room, LiveTable()), present=connected)

    def match_finished(self, room: str, match_id: str, *, score: tuple[int, int], winner: str | None, reason: str,
                       now: int) -> list[Effect]:
        """A table's match ended: its result (the score, the shoot-out's winner, or a walkover); nothing when the
        table was decided meanwhile (an override) or the match is a rematch in the room. ``TournamentError`` when
        the engine refuses the result (the organiser must decide it)."""
        table = self.state.table_of_room(room)
        if table is None or table.match_id != match_id or self.state.ended is not None:
            return []
        key = (table.stage, table.round, table.table)
        knockout = self.state.tournament.stages[table.stage].system == "knockout"
        outcome = outcome_of(score=score, winner=winner, reason=reason, knockout=knockout)
        source = "forfeit" if outcome.walkover is not None else "match"
        return self.record(key, outcome, source=source, now=now, match_id=match_id,
                           reason=reason if source == "forfeit" else "")

    # ------------------------------------------------------------------ deadlines
    def deadlines(self) -> tuple[Deadline, ...]:
        """Every moment the tournament will act by itself, earliest first (no-shows before a round at the same
        moment, tables in order)."""
        state = self.state
        if state.ended is not None:
            return ()
        found = [Deadline(at=t.opened_at_ms + state.no_show_ms, kind="no_show", key=key)
                 for key, t in state.tables.items() if not self.started(t.room)]
        if self.auto_start_at is not None:
            found.append(Deadline(at=self.auto_start_at, kind="next_round"))
        return tuple(sorted(found, key=lambda d: (d.at, d.kind != "no_show", d.key or (0, 0, 0))))

    def next_wake(self) -> int | None:
        """When the next deadline falls (None: none)."""
        found = self.deadlines()
        return found[0].at if found else None

    def due(self, now: int) -> list[Effect]:
        """What is due by ``now``: every table past its no-show deadline is a walkover for the coach who came (home
        when neither did), in one write; else the next round, when its time has come. A round that cannot start
        (nothing left to pair) raises the engine's refusal, its deadline gone."""
        due = [d for d in self.deadlines() if d.at <= now]
        shows = [d for d in due if d.kind == "no_show"]
        if shows:
            step = _Step()
            seconds = f"{self.state.no_show_ms / 1000:g} s"
            for d in shows:
                assert d.key is not None
                present = self.live.get(self.state.tables[d.key].room, LiveTable()).present
                self._record(step, d.key, Outcome(walkover=no_show_winner(present)), source="no_show", now=now,
                             reason=f"not at the table within {seconds} of its opening")
            return self._effects(step)
        if due:
            self.auto_start_at = None
            if self.state.next_round_after_ms is None:
                return []
            return self.start_round(SERVER, now)
        return []

    def _round_may_be_over(self, now: int) -> None:
        """When the round is over and the rounds run themselves, the next one starts ``next_round_after_ms`` after
        its last result."""
        state = self.state
        after = state.next_round_after_ms
        if after is None or state.ended is not None or self.status() != "between":
            return
        self.auto_start_at = state.last_result_at_ms + after

    def next_round_ms(self, now: int) -> int | None:
        """How long until the next round starts by itself (None: it will not)."""
        return None if self.auto_start_at is None else max(0, self.auto_start_at - now)

    # ------------------------------------------------------------------ recovery
    def relink(self, stored: Mapping[str, StoredResult | None], alive: Collection[str], now: int) -> list[Effect]:
        """After a restart: each open table's match as the store has it (``stored`` by match id; None: it never
        started) and the rooms recovered (``alive``): a finished match is recorded, a running one goes on, a table
        whose match never started - and a match of the current round without a table - is opened again."""
        if self.state.ended is not None:
            return []
        step = _Step()
        reopen: list[TableKey] = []
        for key, table in list(self.state.tables.items()):
            found = stored.get(table.match_id)
            if found is not None and found.finished:
                self.live[table.room] = replace(self.live.get(table.room, LiveTable()), started=True)  # it was played
                knockout = self.state.tournament.stages[key[0]].system == "knockout"
                outcome = outcome_of(score=found.score, winner=found.winner, reason=found.reason, knockout=knockout)
                source = "forfeit" if outcome.walkover is not None else "match"
                self._record(step, key, outcome, source=source, now=now, match_id=table.match_id)
            elif found is not None and table.room in alive:
                self.live[table.room] = LiveTable(started=True)
            else:
                reopen.append(key)
        stage, number = current_round(self.state.tournament)
        listed = next((r for r in self.state.tournament.results if (r.stage, r.round) == (stage, number)), None)
        matches = [] if listed is None else [e for e in listed.matches if isinstance(e, Match)]
        for table_number, m in enumerate(matches, start=1):
            key = (stage, number, table_number)
            if not m.finished and key not in self.state.tables and key not in reopen and not self.state.on_board(key):
                reopen.append(key)
        if reopen:
            self._open(step, sorted(reopen))
        self._round_may_be_over(now)
        return self._effects(step)

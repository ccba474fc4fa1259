"""The running tournaments of one server: their logs, rounds, tables, results, timers and watchers.

Why one service on the lifecycle bus: a tournament learns how its matches go only from the bus (``MatchStarted``,
``MoveApplied``, ``PresenceChanged``, ``MatchFinished``) - never by reaching into a room for a result - and acts
through the lobby (a table is a room held for two coaches). Every change is an event committed to the store
before anyone hears of it (``commit``: folded first, so a refused event writes nothing; then written with the
tournament's snapshot in one transaction; then pushed); one lock per tournament keeps its events in order.

The rounds run themselves: a round starts (the organiser's StartRound, or ``next_round_after_ms`` after the
last match of the round before), is paired by the engine with the absent entries left out, and gets one table per
match, each coach told with ``TableAssigned``; a table's match reports its result, a table nobody played at by
``no_show_ms`` is a walkover for the coach who came.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import websockets

from server.clock import WallClock
from server.lifecycle import EventBus, MatchFinished, MatchStarted, MoveApplied, PresenceChanged
from server.rooms.lobby import Lobby
from server.rooms.room import RoomError
from server.store.sqlite.sqlite_store import Store
from server.tournaments import tournament_records as records
from server.tournaments.log import SERVER, Event, Outcome, ResultSet, RoundStarted, Row, TableOpened
from server.tournaments.results import no_show_winner, outcome_of
from server.tournaments.state import Table, TableKey, TournamentState, apply, match_at
from server.tournaments.tables import close_table, open_table
from server.tournaments.views import Board, LiveTable, board_of, info_of, update
from server.wire import outgoing
from shared.protocol import ServerMessage, TableAssigned, TournamentInfo
from shared.protocol.lan_record import RunningTournament
from shared.tournament.course import follow
from shared.tournament.errors import TournamentError
from shared.tournament.events import MarkAbsent
from shared.tournament.events import apply as engine_apply
from shared.tournament.pairing import pair, pair_course

log = logging.getLogger(__name__)
PUSH_INTERVAL_MS = 250  # a tournament's watchers get at most four updates a second
CLOCK_REFRESH_MS = 1000  # while a table is played, watchers get an update at least this often (its clock moves)
RatingOf = Callable[[int, str], "tuple[int, bool] | None"]  # server.players.Players.rating_of


class Watcher(Protocol):
    """A connection that can be sent messages (a session)."""

    player_id: int
    ws: Any

    async def send(self, message: ServerMessage) -> None:
        """Send one message to this connection."""
        ...


@dataclass(eq=False)
class Running:
    """One tournament this server runs: its state, lock, watchers, live tables and timers."""

    state: TournamentState
    secret_hash: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: dict[Watcher, None] = field(default_factory=dict)  # an ordered set: first to watch, first sent
    live: dict[str, LiveTable] = field(default_factory=dict)  # room code -> what the bus said of it
    board: Board | None = None
    sequence: int = 0  # updates pushed so far
    push_task: asyncio.Task[None] | None = None
    refresh_task: asyncio.Task[None] | None = None  # the next update that shows the played tables' clocks
    no_shows: dict[TableKey, asyncio.Task[None]] = field(default_factory=dict)
    auto_start: asyncio.Task[None] | None = None
    auto_start_at: int | None = None  # clock ms the next round starts by itself
    table_rooms: dict[str, None] = field(default_factory=dict)  # every table's room opened (an ordered set)

    @property
    def id(self) -> str:
        """The tournament's id."""
        return self.state.id


class TournamentService:
    """Every tournament of this server (see the module docstring)."""

    def __init__(self, *, store: Store, lobby: Lobby, bus: EventBus, clock: WallClock,
                 session_of: Callable[[int], Watcher | None], rating_of: RatingOf | None = None,
                 now_ms: Callable[[], int] = records.now_ms) -> None:
        """``session_of(player_id)``: the player's connection here, if any; ``now_ms``: the wall time of log rows."""
        self.store = store
        self.lobby = lobby
        self.clock = clock
        self.session_of = session_of
        self.rating_of = rating_of
        self.now_ms = now_ms
        self.runs: dict[str, Running] = {}  # newest last
        self.rooms: dict[str, str] = {}  # an open table's room code -> its tournament
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopped = False
        bus.subscribe(MatchStarted, self._match_started)
        bus.subscribe(MoveApplied, self._move_applied)
        bus.subscribe(PresenceChanged, self._presence_changed)
        bus.subscribe(MatchFinished, self._match_finished)

    # ------------------------------------------------------------------ the log
    def find(self, tournament_id: str) -> Running:
        """The tournament with this id, or TOURNAMENT_NOT_FOUND."""
        run = self.runs.get(tournament_id.strip().upper())
        if run is None:
            raise RoomError("TOURNAMENT_NOT_FOUND", f"no tournament has the id {tournament_id!r}")
        return run

    def adopt(self, run: Running) -> None:
        """Run a tournament (new, or folded from its log after a restart); its open tables are known by room."""
        self.runs[run.id] = run
        for table in run.state.tables.values():
            self.rooms[table.room] = run.id
            run.table_rooms[table.room] = None
        self.silence(run)

    async def commit(self, run: Running, events: Iterable[Event], actor: str) -> TournamentState:
        """Fold the events (``TournamentError``: refused, nothing written), store them with the tournament's
        snapshot in one transaction, then take the new state and tell the watchers. Lock held."""
        now = self.now_ms()
        state = run.state
        rows = []
        for event in events:
            row = Row(index=state.version, at_ms=now, actor=actor, event=event)
            state = apply(state, row)
            rows.append(row)
        if not rows:
            return state
        board = board_of(state)
        statements = [records.append_event(run.id, row) for row in rows]
        statements.append(records.save_snapshot(run.id, state.tournament, state.version, board.status))
        await self.store.write(statements)
        run.state, run.board = state, board
        for row in rows:
            if isinstance(row.event, TableOpened):
                self.rooms[row.event.room] = run.id
                run.table_rooms[row.event.room] = None
        self.silence(run)
        self.changed(run)
        return state

    def silence(self, run: Running) -> None:
        """Every table room of the tournament still open - a match being played or over, its coaches and spectators
        still there - refuses the chat of the coaches the organiser silenced, and only theirs."""
        silenced = run.state.silenced()
        for code in list(run.table_rooms):
            room = self.lobby.rooms.get(code)
            if room is None or room.closed:
                del run.table_rooms[code]
                continue
            for player in room.core.silenced - silenced:
                room.silence(player, False)
            for player in silenced - room.core.silenced:
                room.silence(player)

    # ------------------------------------------------------------------ rounds
    async def start_round(self, run: Running, actor: str) -> int:
        """Pair the next round (entries without a coach who checked in are absent from it) and open its tables;
        returns the round's number. Lock held."""
        state = run.state
        if state.ended is not None:
            raise RoomError("TOURNAMENT_CLOSED", f"tournament {run.id} has ended")
        t = state.tournament
        course = follow(t)
        first = pair_course(course)  # ROUND_ORDER while a round is played, NOTHING_TO_PAIR at the end
        sc = course.current  # the stage of that round (a finished stage's successor is reached already)
        reasons = sc.unavailable[first.round - 1]
        absent = tuple(p for p in sc.field if p not in reasons and not self._ready(state, p))
        for player in absent:
            t = engine_apply(t, MarkAbsent(stage=first.stage, round=first.round, player=player))
        pairing = pair(t) if absent else first
        await self.commit(run, [RoundStarted(stage=pairing.stage, round=pairing.round, absent=absent,
                                             pairing=pairing)], actor)
        if run.auto_start is not None and run.auto_start is not asyncio.current_task():
            run.auto_start.cancel()  # started by hand before its time
            run.auto_start_at = None
        keys = [(pairing.stage, pairing.round, m.table) for m in pairing.matches if m.walkover is None]
        await self.open_tables(run, keys)
        self.round_may_be_over(run)
        return pairing.round

    @staticmethod
    def _ready(state: TournamentState, entry: str) -> bool:
        """The entry has a coach and he checked in."""
        return entry in state.coaches and entry in state.checked_in

    async def open_tables(self, run: Running, keys: list[TableKey]) -> None:
        """A room per match, recorded in one commit, then each coach told and each table's no-show timer set."""
        state = run.state
        opened: list[Event] = []
        for key in keys:
            m = match_at(state.tournament, key)
            home, away = state.coaches.get(m.home), state.coaches.get(m.away)
            if home is None or away is None:  # an entry lost its coach (cannot happen through the requests)
                log.error("tournament %s: %s has no coach for both sides", run.id, key)
                continue
            _, ruleset = state.kinds.get(key, ("match", state.tournament.stages[key[0]].ruleset))
            room = await open_table(self.lobby, state.tournament.stages[key[0]], ruleset, home, away)
            opened.append(TableOpened(stage=key[0], round=key[1], table=key[2], room=room.room,
                                      match_id=room.match_id))
        await self.commit(run, opened, SERVER)
        for event in opened:
            if isinstance(event, TableOpened):
                table = run.state.tables[(event.stage, event.round, event.table)]
                await self.assign(run, table)
                self.arm_no_show(run, table)

    async def assign(self, run: Running, table: Table, only: int | None = None) -> None:
        """Tell the table's coaches (or only player ``only``) where to play (TableAssigned)."""
        state = run.state
        m = match_at(state.tournament, (table.stage, table.round, table.table))
        left = max(0, table.opened_at_ms + state.no_show_ms - self.now_ms())
        _, ruleset = state.kinds.get((table.stage, table.round, table.table), ("match", "standard"))
        for seat, entry, other in (("home", m.home, m.away), ("away", m.away, m.home)):
            coach = state.coaches.get(entry)
            if coach is None or (only is not None and coach.player_id != only):
                continue
            session = self.session_of(coach.player_id)
            if session is not None:
                await session.send(TableAssigned(tournament=run.id, stage=table.stage, round=table.round,
                                                 table=table.table, room=table.room, ruleset=ruleset, seat=seat,
                                                 opponent=state.name_of(other)[:64], no_show_ms=left))

    def round_may_be_over(self, run: Running) -> None:
        """When the round is over and the rounds run themselves, start the next one ``next_round_after_ms`` after
        its last match ended."""
        state, board = run.state, run.board
        after = state.next_round_after_ms
        if board is None or board.status != "between" or after is None or state.ended is not None:
            return
        left = max(0, state.last_result_at_ms + after - self.now_ms())
        self.schedule_start(run, self.clock.now_ms() + left)

    def schedule_start(self, run: Running, at: int) -> None:
        """Start the next round at clock time ``at`` (replacing a timer set before)."""
        if run.auto_start is not None and not run.auto_start.done():
            run.auto_start.cancel()
        run.auto_start_at = at
        run.auto_start = self.spawn(self._start_later(run, at))
        self.changed(run)

    async def _start_later(self, run: Running, at: int) -> None:
        """Wait, then start the round (a refusal - nothing left to pair, a round already running - is logged)."""
        await self.clock.sleep_until(at)
        async with run.lock:
            run.auto_start_at = None
            if run.state.ended is not None or run.state.next_round_after_ms is None:
                return
            try:
                await self.start_round(run, SERVER)
            except (TournamentError, RoomError) as exc:
                log.info("tournament %s: the next round did not start by itself: %s", run.id, exc)

    # ------------------------------------------------------------------ results
    async def record(self, run: Running, key: TableKey, outcome: Outcome, *, source: str,
                     match_id: str | None = None, reason: str = "", actor: str = SERVER) -> None:
        """The match at ``key`` has its result; its no-show timer stops; the round may be over. Lock held."""
        table = run.state.tables.get(key)
        started = table is not None and self.started(table.room)
        await self.commit(run, [ResultSet(stage=key[0], round=key[1], table=key[2], outcome=outcome, source=source,
                                          match_id=match_id, reason=reason)], actor)
        timer = run.no_shows.pop(key, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        if table is not None:
            self.rooms.pop(table.room, None)
            if not started:  # nobody played there: the room goes (a match being played goes on, unrecorded)
                await close_table(self.lobby, table.room)
        self.round_may_be_over(run)

    def arm_no_show(self, run: Running, table: Table) -> None:
        """Decide the table by walkover if its match has not started ``no_show_ms`` after the table opened."""
        key = (table.stage, table.round, table.table)
        left = max(0, table.opened_at_ms + run.state.no_show_ms - self.now_ms())
        previous = run.no_shows.pop(key, None)
        if previous is not None:
            previous.cancel()
        run.no_shows[key] = self.spawn(self._no_show(run, table, self.clock.now_ms() + left))

    async def _no_show(self, run: Running, table: Table, at: int) -> None:
        """At the deadline: a table still waiting is a walkover for the coach who came (home when neither did)."""
        await self.clock.sleep_until(at)
        async with run.lock:
            key = (table.stage, table.round, table.table)
            if run.state.tables.get(key) != table or self.started(table.room) or run.state.ended is not None:
                return
            present = run.live.get(table.room, LiveTable()).present
            side = no_show_winner(present)
            minutes = f"{run.state.no_show_ms / 1000:g} s"
            await self.record(run, key, Outcome(walkover=side), source="no_show",
                              reason=f"not at the table within {minutes} of its opening")

    def started(self, room: str) -> bool:
        """The table's match has begun (the bus said so, or the room has left its waiting phase)."""
        if self._live_of(room).started:
            return True
        live_room = self.lobby.rooms.get(room)
        return live_room is not None and live_room.core.phase != "waiting"

    def _live_of(self, room: str) -> LiveTable:
        """What the bus has said about a table's room."""
        run = self.runs.get(self.rooms.get(room, ""))
        return LiveTable() if run is None else run.live.get(room, LiveTable())

    # ------------------------------------------------------------------ the bus
    def _run_of_room(self, room: str) -> Running | None:
        """The tournament whose open table is in this room."""
        tournament = self.rooms.get(room)
        return None if tournament is None else self.runs.get(tournament)

    def _match_started(self, event: MatchStarted) -> None:
        """A table's match began: its no-show timer stops."""
        run = self._run_of_room(event.room)
        if run is None:
            return
        run.live[event.room] = replace(run.live.get(event.room, LiveTable()), started=True)
        table = run.state.table_of_room(event.room)
        if table is not None:
            timer = run.no_shows.pop((table.stage, table.round, table.table), None)
            if timer is not None:
                timer.cancel()
        self.changed(run)

    def _move_applied(self, event: MoveApplied) -> None:
        """A move at a table: its live score."""
        run = self._run_of_room(event.room)
        if run is not None:
            run.live[event.room] = replace(run.live.get(event.room, LiveTable()), score=event.score)
            self.changed(run)

    def _presence_changed(self, event: PresenceChanged) -> None:
        """Who is at a table (the no-show decides by it)."""
        run = self._run_of_room(event.room)
        if run is not None:
            run.live[event.room] = replace(run.live.get(event.room, LiveTable()), present=event.connected)

    def _match_finished(self, event: MatchFinished) -> None:
        """A table's match ended: its result, recorded in order with the tournament's other events."""
        run = self._run_of_room(event.room)
        if run is not None:
            self.spawn(self._finished(run, event))

    async def _finished(self, run: Running, event: MatchFinished) -> None:
        """Record a finished match as its table's result (the score, the shoot-out's winner, or a walkover)."""
        async with run.lock:
            table = run.state.table_of_room(event.room)
            if table is None or table.match_id != event.match_id or run.state.ended is not None:
                return  # a rematch in the room, or a table decided meanwhile (an override)
            key = (table.stage, table.round, table.table)
            knockout = run.state.tournament.stages[table.stage].system == "knockout"
            outcome = outcome_of(score=event.score, winner=event.winner, reason=event.reason, knockout=knockout)
            source = "forfeit" if outcome.walkover is not None else "match"
            try:
                await self.record(run, key, outcome, source=source, match_id=event.match_id,
                                  reason=event.reason if source == "forfeit" else "")
            except TournamentError as exc:  # the organiser must decide it (OverrideResult)
                log.error("tournament %s: the result of %s cannot be recorded: %s", run.id, key, exc)

    # ------------------------------------------------------------------ watchers
    def changed(self, run: Running) -> None:
        """Something a watcher sees changed: push an update soon (at most one per PUSH_INTERVAL_MS)."""
        if not run.watchers or (run.push_task is not None and not run.push_task.done()) or self._stopped:
            return
        run.push_task = self.spawn(self._push_later(run))

    async def _push_later(self, run: Running) -> None:
        """Wait out the interval, then send one update to every watcher."""
        await self.clock.sleep_until(self.clock.now_ms() + PUSH_INTERVAL_MS)
        run.sequence += 1
        shown = self.update_of(run, run.sequence)
        websockets.broadcast([w.ws for w in run.watchers], outgoing(shown))
        if any(line.status == "playing" for line in shown.tables) and (
                run.refresh_task is None or run.refresh_task.done()):
            run.refresh_task = self.spawn(self._refresh_later(run))

    async def _refresh_later(self, run: Running) -> None:
        """A table's part clock runs between its moves: tell the watchers again a second later (a hall's tiles
        showed the clock of the last move, frozen until the next)."""
        await self.clock.sleep_until(self.clock.now_ms() + CLOCK_REFRESH_MS)
        self.changed(run)

    def update_of(self, run: Running, sequence: int) -> Any:
        """The tournament's TournamentUpdate now."""
        board = self.board(run)
        next_ms = None if run.auto_start_at is None else max(0, run.auto_start_at - self.clock.now_ms())
        return update(run.state, board, sequence=sequence, live=run.live, room_info=self._room_info,
                      now_ms=self.now_ms(), next_round_ms=next_ms)

    def board(self, run: Running) -> Board:
        """The tournament's board for its current version."""
        if run.board is None or run.board.version != run.state.version:
            run.board = board_of(run.state)
        return run.board

    def _room_info(self, code: str) -> Any:
        """A live room's line (score, part, clocks)."""
        room = self.lobby.rooms.get(code)
        return None if room is None else room.info()

    async def watch(self, run: Running, watcher: Watcher) -> None:
        """Add a watcher; he gets the tournament as it is now, numbered as the latest update pushed (0: none yet)."""
        run.watchers[watcher] = None
        await watcher.send(self.update_of(run, run.sequence))

    def unwatch(self, watcher: Watcher) -> None:
        """A connection ended: it watches nothing any more."""
        for run in self.runs.values():
            run.watchers.pop(watcher, None)

    async def connected(self, session: Watcher, ready: asyncio.Event | None = None) -> None:
        """A player connected: the tables of his that wait for him (TableAssigned, after his Welcome and, on a
        restarted server, once ``ready`` says its rooms and tournaments are back)."""
        if ready is not None:
            await ready.wait()
        for run in list(self.runs.values()):
            entry = run.state.entry_of(session.player_id)
            if entry is None:
                continue
            for table in list(run.state.tables.values()):
                m = match_at(run.state.tournament, (table.stage, table.round, table.table))
                if entry in (m.home, m.away) and not self.started(table.room):
                    await self.assign(run, table, only=session.player_id)

    def running(self) -> tuple[RunningTournament, ...]:
        """The tournaments not yet over, as the LAN announcement lists them."""
        return tuple(RunningTournament(id=run.id, name=run.state.tournament.name) for run in self.runs.values()
                     if self.board(run).status not in ("finished", "ended"))

    def listing(self) -> tuple[TournamentInfo, ...]:
        """Every tournament's line, newest first."""
        out = []
        for run in reversed(list(self.runs.values())):
            playing = sum(1 for t in run.state.tables.values() if self.started(t.room))
            out.append(info_of(run.state, self.board(run), playing))
        return tuple(out)

    # ------------------------------------------------------------------ tasks
    def spawn(self, job: Any) -> asyncio.Task[Any]:
        """Run a coroutine of this service in the background; it is kept until it ends (and logged if it fails)."""
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        """Forget a finished task; a failure is logged."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a tournament task failed", exc_info=task.exception())

    async def stop(self) -> None:
        """The server stops: every timer and push ends (the log has everything)."""
        self._stopped = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def new_seed() -> int:
    """A tournament's seed when the organiser names none (it drives every draw of the engine)."""
    return secrets.randbits(31)


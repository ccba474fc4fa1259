"""The running tournaments of one server: each one's core, lock, timer and watchers, and the lifecycle bus.

Why so thin: every decision of a tournament - who is absent, the pairing, the tables, the no-show walkovers, the
rounds that start by themselves, a match's result - is made by its pure core (``server.tournaments.tournament_core``),
tested with time as an input. This shell does only what needs the event loop: one lock per tournament so its events
are handled one at a time, in order; one timer per tournament that wakes at the core's next deadline; carrying out the
core's effects in order - writing the log first (nothing is told before it is durable; a write that fails rewinds the
core, so a refused write changes nothing), opening and closing tables through the lobby, sending to coaches, pushing
coalesced updates to watchers. A tournament learns how its matches go only from the bus (``MatchStarted``,
``MoveApplied``, ``PresenceChanged``, ``MatchFinished``), never by reaching into a room for a result.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from server.clock import WallClock
from server.lifecycle import EventBus, LifecycleEvent, MatchFinished, MatchStarted, MoveApplied, PresenceChanged
from server.rooms.lobby import Lobby
from server.rooms.room import RoomError
from server.store.store_port import StaleLease, Statement, Store, StoreUnavailable
from server.tournaments import tournament_records as records
from server.tournaments.background import Background
from server.tournaments.log import SERVER, Event, Outcome
from server.tournaments.results import StoredResult
from server.tournaments.state import TableKey, TournamentState
from server.tournaments.state_snapshot import write_snapshot
from server.tournaments.tables import close_table, open_tables
from server.tournaments.tournament_core import (
    Changed,
    CloseTable,
    Effect,
    Mark,
    OpenTables,
    Persist,
    Send,
    TournamentCore,
    Warn,
)
from server.tournaments.views import Board, board_of, info_of, update
from server.wire import deliver, outgoing
from shared.protocol import ServerMessage, TournamentInfo
from shared.protocol.lan_record import RunningTournament
from shared.tournament.errors import TournamentError

log = logging.getLogger(__name__)
RETRY_DUE_MS = 1000  # a deadline whose write failed is tried again this much later
PUSH_INTERVAL_MS = 250  # a tournament's watchers get at most four updates a second
CLOCK_REFRESH_MS = 1000  # while a table is played, watchers get an update at least this often (its clock moves)
RatingOf = Callable[[int, str], "tuple[int, bool] | None"]  # server.players.Players.rating_of
Fenced = Callable[[str, list[Statement]], list[Statement]]  # a tournament's statements as this process may write them
Deliver = Callable[[Iterable["Watcher"], bytes], None]  # one frame to many watchers


class Watcher(Protocol):
    """A connection that can be sent messages (a session; in a cluster, a client connected to another node)."""

    @property
    def player_id(self) -> int:
        """The player connected."""
        ...

    @property
    def ws(self) -> Any:
        """The connection (None for a client connected to another node)."""
        ...

    async def send(self, message: ServerMessage) -> None:
        """Send one message to this connection."""
        ...


@dataclass(eq=False)
class Running:
    """One tournament this server runs: its core, lock, watchers and timers."""

    core: TournamentCore
    secret_hash: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: dict[Watcher, None] = field(default_factory=dict)  # an ordered set: first to watch, first sent
    board: Board | None = None
    sequence: int = 0  # updates pushed so far
    push_task: asyncio.Task[None] | None = None
    refresh_task: asyncio.Task[None] | None = None  # the next update that shows the played tables' clocks
    timer: asyncio.Task[None] | None = None  # sleeps until the core's next deadline
    timer_wake: int | None = None  # the deadline the sleeping timer wakes at (None: it is busy or gone)
    stopped: bool = False  # it runs here no more (a cluster: another node holds its lease now)
    indexed: frozenset[str] = frozenset()  # the rooms of its open tables, as the service's index has them
    table_rooms: dict[str, None] = field(default_factory=dict)  # every table's room opened (an ordered set)

    @property
    def id(self) -> str:
        """The tournament's id."""
        return self.core.id

    @property
    def state(self) -> TournamentState:
        """The tournament as its log folds."""
        return self.core.state


class TournamentService(Background):
    """Every tournament of this server (see the module docstring)."""

    def __init__(self, *, store: Store, lobby: Lobby, bus: EventBus, clock: WallClock,
                 session_of: Callable[[int], Watcher | None], rating_of: RatingOf | None = None,
                 now_ms: Callable[[], int] = records.now_ms) -> None:
        """``session_of(player_id)``: the player's connection here, if any; ``now_ms``: the wall time of log rows and
        of the tournaments' deadlines (``clock`` only sleeps: it is told how long)."""
        super().__init__("tournament")
        self.store = store
        self.lobby = lobby
        self.clock = clock
        self.session_of = session_of
        self.rating_of = rating_of
        self.now_ms = now_ms
        self.runs: dict[str, Running] = {}  # newest last
        self.rooms: dict[str, str] = {}  # an open table's room code -> its tournament
        # Where this process's tournaments live (one process: all here; a cluster node sets these, server.app): how
        # a tournament's statements are written (a cluster fences them under its lease), whether a new id is free
        # (a cluster takes its lease), the rooms alive wherever they are played, and how a frame reaches watchers.
        self.fenced: Fenced = lambda _tournament, statements: statements
        self.claim: Callable[[str], Awaitable[bool]] = self._free_here
        self.rooms_alive: Callable[[], Collection[str]] = lambda: self.lobby.rooms.keys()
        self.deliver: Deliver = deliver
        self.lines_elsewhere: Callable[[], Awaitable[dict[str, tuple[int, TournamentInfo]]]] = _no_lines
        bus.subscribe(MatchStarted, self._match_started)
        bus.subscribe(MoveApplied, self._move_applied)
        bus.subscribe(PresenceChanged, self._presence_changed)
        bus.subscribe(MatchFinished, self._match_finished)

    # ------------------------------------------------------------------ the tournaments
    def find(self, tournament_id: str) -> Running:
        """The tournament with this id, or TOURNAMENT_NOT_FOUND."""
        run = self.runs.get(tournament_id.strip().upper())
        if run is None:
            raise RoomError("TOURNAMENT_NOT_FOUND", f"no tournament has the id {tournament_id!r}")
        return run

    def adopt(self, run: Running) -> None:
        """Run a tournament (new, or folded from its log after a restart); its open tables are known by room."""
        self.runs[run.id] = run
        self._index(run)

    async def _free_here(self, tournament_id: str) -> bool:
        """Whether a new tournament may take this id (one process: no tournament of its own has it)."""
        return tournament_id not in self.runs

    def drop(self, tournament_id: str) -> list[Watcher]:
        """Stop running a tournament here at once (a cluster: another node holds its lease now): its timer and pushes
        end, nothing more is written or told for it here; its watchers here, who follow it where it runs now."""
        run = self.runs.pop(tournament_id, None)
        if run is None:
            return []
        run.stopped = True
        for task in (run.timer, run.push_task, run.refresh_task):
            if task is not None and not task.done():
                task.cancel()
        for room in run.indexed:
            if self.rooms.get(room) == run.id:
                del self.rooms[room]
        return list(run.watchers)

    # ------------------------------------------------------------------ carrying out effects
    async def carry_out(self, run: Running, effects: list[Effect], mark: Mark | None = None) -> None:
        """Carry out the core's effects in order (lock held): the log's write before anything after it. ``mark``:
        the core before the transition, rewound to when its write fails (the error goes on to the caller)."""
        try:
            for effect in effects:
                if isinstance(effect, Persist):
                    await self._persist(run, effect)
                    mark = None  # durable: the transition stands
                elif isinstance(effect, OpenTables):
                    opened = await open_tables(self.lobby, run.state.tournament, effect.tables)
                    await self.carry_out(run, run.core.tables_opened(opened, self.now_ms()), run.core.mark())
                elif isinstance(effect, CloseTable):
                    await close_table(self.lobby, effect.room)
                elif isinstance(effect, Send):
                    session = self.session_of(effect.player_id)
                    if session is not None:
                        await session.send(effect.message)
                elif isinstance(effect, Changed):
                    self.changed(run)
                elif isinstance(effect, Warn):
                    log.error("%s", effect.text)
        except BaseException:
            if mark is not None:
                run.core.rewind(mark)
            raise
        finally:
            self._index(run)
            self._rearm(run)

    async def _persist(self, run: Running, effect: Persist) -> None:
        """Append the rows (and the snapshot, when one is due) in one transaction, under the tournament's fence (a
        cluster's store refuses the write of a node that lost its lease: ``StaleLease``, and the core rewinds)."""
        if run.stopped:
            raise StaleLease(f"tournament {run.id} runs on another node now")
        statements = [records.append_event(run.id, row) for row in effect.rows]
        if effect.snapshot is not None:
            statements.append(records.save_snapshot(run.id, write_snapshot(effect.snapshot), effect.snapshot.version,
                                                    effect.status))
        await self.store.write(self.fenced(run.id, statements))

    def _index(self, run: Running) -> None:
        """The service's index of open tables' rooms follows the tournament's; the organiser's mutes follow into
        every table room still open."""
        now = run.core.rooms()
        for room in run.indexed - now:
            if self.rooms.get(room) == run.id:
                del self.rooms[room]
        for room in now - run.indexed:
            self.rooms[room] = run.id
            run.table_rooms[room] = None
        run.indexed = now
        self.silence(run)

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

    async def transition(self, run: Running, step: Callable[[], list[Effect]]) -> None:
        """Run one of the core's transitions and carry out its effects (lock held)."""
        mark = run.core.mark()
        await self.carry_out(run, step(), mark)

    async def commit(self, run: Running, events: Iterable[Event], actor: str) -> TournamentState:
        """Fold the events (``TournamentError``: refused, nothing written), log them, tell the watchers. Lock held."""
        listed = list(events)
        await self.transition(run, lambda: run.core.commit(listed, actor, self.now_ms()))
        return run.state

    # ------------------------------------------------------------------ rounds and results
    async def start_round(self, run: Running, actor: str) -> int:
        """Pair the next round and open its tables; returns the round's number. Lock held."""
        await self.transition(run, lambda: run.core.start_round(actor, self.now_ms()))
        return run.state.tournament.results[-1].round if run.state.tournament.results else 0

    async def record(self, run: Running, key: TableKey, outcome: Outcome, *, source: str,
                     match_id: str | None = None, reason: str = "", actor: str = SERVER) -> None:
        """The match at ``key`` has its result (see ``TournamentCore.record``). Lock held."""
        await self.transition(run, lambda: run.core.record(key, outcome, source=source, now=self.now_ms(),
                                                            match_id=match_id, reason=reason, actor=actor))

    def started(self, room: str) -> bool:
        """The table's match has begun (the bus said so)."""
        run = self._run_of_room(room)
        return run is not None and run.core.started(room)

    # ------------------------------------------------------------------ the timer
    def _rearm(self, run: Running) -> None:
        """Make sure a timer wakes by the core's next deadline: a sleeping timer that wakes no later is kept (it finds
        nothing due and sleeps on), a busy one looks again when it is done; only an earlier deadline replaces it."""
        wake = run.core.next_wake()
        timer = run.timer
        if run.stopped:
            return
        if timer is not None and not timer.done():
            if run.timer_wake is None or wake is None or run.timer_wake <= wake:
                return
            timer.cancel()
        if wake is None or self._stopped:
            run.timer = None
            return
        run.timer_wake = wake
        run.timer = self.spawn(self._timer(run))

    async def _timer(self, run: Running) -> None:
        """Sleep until the next deadline and carry out what is due, until there is none."""
        while not self._stopped and not run.stopped:
            wake = run.core.next_wake()
            if wake is None:
                return
            run.timer_wake = wake
            await self.clock.sleep_until(self.clock.now_ms() + max(0, wake - self.now_ms()))
            run.timer_wake = None  # busy: a change meanwhile leaves this timer to look again
            async with run.lock:
                try:
                    await self.transition(run, lambda: run.core.due(self.now_ms()))
                except (TournamentError, RoomError) as exc:
                    log.info("tournament %s: the next round did not start by itself: %s", run.id, exc)
                except StoreUnavailable as exc:  # a lost lease, or a store that stopped: nothing was done
                    log.warning("tournament %s: what was due is not written (%s)", run.id, exc)
                    if run.stopped:
                        return
                    await self.clock.sleep_until(self.clock.now_ms() + RETRY_DUE_MS)

    # ------------------------------------------------------------------ the bus
    def _run_of_room(self, room: str) -> Running | None:
        """The tournament whose open table is in this room."""
        tournament = self.rooms.get(room)
        return None if tournament is None else self.runs.get(tournament)

    def _match_started(self, event: MatchStarted) -> None:
        """A table's match began: its no-show deadline is gone."""
        run = self._run_of_room(event.room)
        if run is not None:
            self._now(run, run.core.match_started(event.room))

    def _move_applied(self, event: MoveApplied) -> None:
        """A move at a table: its live score."""
        run = self._run_of_room(event.room)
        if run is not None:
            self._now(run, run.core.move_applied(event.room, event.score))

    def _now(self, run: Running, effects: list[Effect]) -> None:
        """The effects of a bus event: only news for the watchers (nothing is written)."""
        if any(isinstance(e, Changed) for e in effects):
            self.changed(run)
        self._rearm(run)

    def _presence_changed(self, event: PresenceChanged) -> None:
        """Who is at a table (the no-show decides by it)."""
        run = self._run_of_room(event.room)
        if run is not None:
            run.core.presence_changed(event.room, event.connected)

    def _match_finished(self, event: MatchFinished) -> None:
        """A table's match ended: its result, recorded in order with the tournament's other events."""
        run = self._run_of_room(event.room)
        if run is not None:
            self.spawn(self._finished(run, event))

    def remote_event(self, event: LifecycleEvent) -> None:
        """A lifecycle event of a room played on another node of a cluster (a table taken over there): handled as
        the local bus's, unless the room is played here now (the local bus tells it then)."""
        if event.room in self.lobby.rooms:
            return
        handlers: dict[type, Callable[[Any], None]] = {
            MatchStarted: self._match_started, MoveApplied: self._move_applied,
            PresenceChanged: self._presence_changed, MatchFinished: self._match_finished}
        handler = handlers.get(type(event))
        if handler is not None:
            handler(event)

    async def check_tables_elsewhere(self) -> None:
        """The tables played on other nodes, as the shared store has them: a match that began or ended there while
        its news was lost on the way (a cluster's pub/sub delivers at most once, and nobody listened while the
        tournament itself was being taken over) is started or recorded here all the same."""
        for run in list(self.runs.values()):
            for table in list(run.state.tables.values()):
                if table.room in self.lobby.rooms:
                    continue
                stored = records.match_result(self.store, table.match_id)
                if stored is None:
                    continue
                if not run.core.started(table.room):
                    self._now(run, run.core.match_started(table.room))
                if stored.finished:
                    await self._finished_elsewhere(run, table.room, table.match_id, stored)

    async def _finished_elsewhere(self, run: Running, room: str, match_id: str, stored: StoredResult) -> None:
        """Record a table's match that the store has finished (played on another node)."""
        async with run.lock:
            if run.stopped or run.state.table_of_room(room) is None:
                return
            await self._record(run, room, match_id, stored.score, stored.winner, stored.reason)

    async def _finished(self, run: Running, event: MatchFinished) -> None:
        """Record a finished match as its table's result (the score, the shoot-out's winner, or a walkover)."""
        async with run.lock:
            await self._record(run, event.room, event.match_id, event.score, event.winner, event.reason)

    async def _record(self, run: Running, room: str, match_id: str, score: tuple[int, int], winner: str | None,
                      reason: str) -> None:
        """A table's finished match as its result (lock held); one the engine refuses is logged for the organiser
        to decide (OverrideResult)."""
        try:
            await self.transition(run, lambda: run.core.match_finished(
                room, match_id, score=score, winner=winner, reason=reason, now=self.now_ms()))
        except TournamentError as exc:
            log.error("tournament %s: the result of the match in room %s cannot be recorded: %s", run.id, room, exc)

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
        self.deliver(run.watchers, outgoing(shown))
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
        now = self.now_ms()
        return update(run.state, board, sequence=sequence, live=run.core.live, room_info=self._room_info,
                      now_ms=now, next_round_ms=run.core.next_round_ms(now))

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
            for effect in run.core.connected(session.player_id, self.now_ms()):
                if isinstance(effect, Send):
                    await session.send(effect.message)

    def running(self) -> tuple[RunningTournament, ...]:
        """The tournaments not yet over, as the LAN announcement lists them."""
        return tuple(RunningTournament(id=run.id, name=run.state.tournament.name) for run in self.runs.values()
                     if self.board(run).status not in ("finished", "ended"))

    def lines(self) -> dict[str, tuple[int, TournamentInfo]]:
        """Each tournament's line with its creation time (ms), by id."""
        out = {}
        for run in self.runs.values():
            playing = sum(1 for t in run.state.tables.values() if run.core.started(t.room))
            out[run.id] = (run.state.created_at_ms, info_of(run.state, self.board(run), playing))
        return out

    async def listing(self) -> tuple[TournamentInfo, ...]:
        """Every tournament's line, newest first: this process's, and in a cluster those the other nodes run."""
        found = {**await self.lines_elsewhere(), **self.lines()}
        return tuple(line for _, line in sorted(found.values(), key=lambda item: -item[0]))


async def _no_lines() -> dict[str, tuple[int, TournamentInfo]]:
    """One process: no tournament runs anywhere else."""
    return {}


def new_seed() -> int:
    """A tournament's seed when the organiser names none (it drives every draw of the engine)."""
    return secrets.randbits(31)


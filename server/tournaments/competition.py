"""What the tournaments' and the leagues' services do alike: a competition's watchers and their coalesced pushes, the
clock's re-push while a table is played, its timer, the bus's news of its tables, and where it is run.

Why one piece: a tournament and a team league are, to the event loop, the same thing - a pure core
(``server.tournaments.tournament_core``, ``server.leagues.league_core``) whose transitions are carried out one at a
time under a lock, a timer that wakes at the core's next deadline, watchers told what changed at most four times a
second and, while a table is played, every second (its part clock runs between moves: a hall's tile frozen at the
last move's time looked stopped), tables whose news comes from the bus (or, in a cluster, from the nodes that play
them). Written twice they had drifted apart (the league lacked the clock's re-push); each service keeps only what is
its own - its effects carried out, its update, its refusals.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from server.clock import WallClock
from server.lifecycle import EventBus, LifecycleEvent, MatchFinished, MatchStarted, MoveApplied, PresenceChanged
from server.rooms.lobby import Lobby
from server.rooms.room import RoomError
from server.store.store_port import StaleLease, Statement, Store, StoreUnavailable
from server.tournaments.background import Background
from server.tournaments.results import StoredResult
from server.tournaments.tables import close_table
from server.tournaments.tournament_core import Changed, CloseTable, Send, Warn
from server.tournaments.tournament_records import match_result
from server.wire import deliver, outgoing
from shared.protocol import ServerMessage

log = logging.getLogger(__name__)
RETRY_DUE_MS = 1000  # a deadline whose write failed is tried again this much later
PUSH_INTERVAL_MS = 250  # a competition's watchers get at most four updates a second
CLOCK_REFRESH_MS = 1000  # while a table is played, watchers get an update at least this often (its clock moves)
Fenced = Callable[[str, list[Statement]], list[Statement]]  # a competition's statements as this process may write them
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


class Core(Protocol):
    """A competition's pure core, as far as this module names it (the rest it calls alike in both kinds)."""

    @property
    def id(self) -> str:
        """The competition's id."""
        ...


C = TypeVar("C", bound=Core)


@dataclass(eq=False)
class CompetitionRun(Generic[C]):
    """One competition this server runs: its core, lock, watchers and timers."""

    core: C
    secret_hash: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: dict[Watcher, None] = field(default_factory=dict)  # an ordered set: first to watch, first sent
    sequence: int = 0  # updates pushed so far
    push_task: asyncio.Task[None] | None = None
    refresh_task: asyncio.Task[None] | None = None  # the next update that shows the played tables' clocks
    timer: asyncio.Task[None] | None = None  # sleeps until the core's next deadline
    timer_wake: int | None = None  # the deadline the sleeping timer wakes at (None: it is busy or gone)
    stopped: bool = False  # it runs here no more (a cluster: another node holds its lease now)
    indexed: frozenset[str] = frozenset()  # the rooms of its open tables, as the service's index has them

    @property
    def id(self) -> str:
        """The competition's id."""
        return self.core.id


R = TypeVar("R", bound=CompetitionRun[Any])


class CompetitionService(Background, Generic[R]):
    """The competitions of one kind on this server (see the module docstring); a subclass names the kind, carries
    out its core's effects and makes its update."""

    kind = "competition"  # in the log and the lease names: "tournament", "league"
    not_found = "NOT_FOUND"  # the error code of an id nobody runs
    refused: tuple[type[Exception], ...] = ()  # the core's refusals (a result the organiser must decide)

    def __init__(self, *, store: Store, lobby: Lobby, bus: EventBus, clock: WallClock,
                 session_of: Callable[[int], Watcher | None], now_ms: Callable[[], int]) -> None:
        """``session_of(player_id)``: the player's connection here, if any; ``now_ms``: the wall time of log rows and
        of the deadlines (``clock`` only sleeps: it is told how long)."""
        super().__init__(self.kind)
        self.store = store
        self.lobby = lobby
        self.clock = clock
        self.session_of = session_of
        self.now_ms = now_ms
        self.runs: dict[str, R] = {}  # newest last
        self.rooms: dict[str, str] = {}  # an open table's room code -> its competition
        # Where this process's competitions live (one process: all here; a cluster node sets these, server.app): how
        # a competition's statements are written (a cluster fences them under its lease), whether a new id is free
        # (a cluster takes its lease), the rooms alive wherever they are played, and how a frame reaches watchers.
        self.fenced: Fenced = lambda _object, statements: statements
        self.claim: Callable[[str], Awaitable[bool]] = self._free_here
        self.rooms_alive: Callable[[], Collection[str]] = lambda: self.lobby.rooms.keys()
        self.deliver: Deliver = deliver
        self.lines_elsewhere: Callable[[], Awaitable[dict[str, Line]]] = _no_lines
        bus.subscribe(MatchStarted, self._match_started)
        bus.subscribe(MoveApplied, self._move_applied)
        bus.subscribe(PresenceChanged, self._presence_changed)
        bus.subscribe(MatchFinished, self._match_finished)

    # ------------------------------------------------------------------ what a kind says for itself
    async def carry_own(self, run: R, effect: Any) -> bool:
        """Carry out one of the kind's own effects (its write, its tables opened); True for its write (durable: the
        transition stands)."""
        raise NotImplementedError

    def update_of(self, run: R, sequence: int) -> Any:
        """The competition's update now, numbered ``sequence``."""
        raise NotImplementedError

    def playing(self, shown: Any) -> bool:
        """Whether the update shows a table being played (its clock runs between moves)."""
        raise NotImplementedError

    def lines(self) -> dict[str, Line]:
        """Each competition's line in its lists, by id."""
        raise NotImplementedError

    def due_refused(self, run: R, exc: Exception) -> None:
        """What is due could not be done (one of ``refused``): the log says why."""
        log.info("%s %s: what was due was not done: %s", self.kind, run.id, exc)

    # ------------------------------------------------------------------ the competitions
    async def listed(self) -> list[Line]:
        """Every competition's line, newest first: this process's, and in a cluster those the other nodes run."""
        found = {**await self.lines_elsewhere(), **self.lines()}
        return sorted(reversed(list(found.values())), key=lambda line: -line.created_at_ms)  # a tie: the later first

    async def listing(self) -> tuple[Any, ...]:
        """Every competition's line in its list message (TournamentList, LeagueList), newest first."""
        return tuple(line.info for line in await self.listed())

    def find(self, object_id: str) -> R:
        """The competition with this id (``not_found`` otherwise)."""
        run = self.runs.get(object_id.strip().upper())
        if run is None:
            raise RoomError(self.not_found, f"no {self.kind} has the id {object_id!r}")
        return run

    def adopt(self, run: R) -> None:
        """Run a competition (new, or folded from its log after a restart); its open tables are known by room."""
        self.runs[run.id] = run
        self._index(run)

    async def _free_here(self, object_id: str) -> bool:
        """Whether a new competition may take this id (one process: none of its own has it)."""
        return object_id not in self.runs

    def drop(self, object_id: str) -> list[Watcher]:
        """Stop running a competition here at once (a cluster: another node holds its lease now): its timer and
        pushes end, nothing more is written or told for it here; its watchers here, who follow it where it runs
        now."""
        run = self.runs.pop(object_id, None)
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

    def _index(self, run: R) -> None:
        """The service's index of open tables' rooms follows the competition's."""
        now = run.core.rooms()
        for room in run.indexed - now:
            if self.rooms.get(room) == run.id:
                del self.rooms[room]
        for room in now - run.indexed:
            self.rooms[room] = run.id
        run.indexed = now

    async def carry_out(self, run: R, effects: list[Any], mark: Any = None) -> None:
        """Carry out the core's effects in order (lock held): the log's write before anything after it. ``mark``:
        the core before the transition, rewound to when its write fails (the error goes on to the caller)."""
        try:
            for effect in effects:
                if isinstance(effect, CloseTable):
                    await close_table(self.lobby, effect.room)
                elif isinstance(effect, Send):
                    session = self.session_of(effect.player_id)
                    if session is not None:
                        await session.send(effect.message)
                elif isinstance(effect, Changed):
                    self.changed(run)
                elif isinstance(effect, Warn):
                    log.error("%s", effect.text)
                elif await self.carry_own(run, effect):
                    mark = None  # durable: the transition stands
        except BaseException:
            if mark is not None:
                run.core.rewind(mark)
            raise
        finally:
            self._index(run)
            self._rearm(run)

    async def transition(self, run: R, step: Callable[[], list[Any]]) -> None:
        """Run one of the core's transitions and carry out its effects (lock held)."""
        mark = run.core.mark()
        await self.carry_out(run, step(), mark)

    async def _written(self, run: R, statements: list[Statement]) -> None:
        """Write a competition's statements under its fence (a cluster's store refuses the write of a node that
        lost its lease: ``StaleLease``, and the core rewinds)."""
        if run.stopped:
            raise StaleLease(f"{self.kind} {run.id} runs on another node now")
        await self.store.write(self.fenced(run.id, statements))

    # ------------------------------------------------------------------ the timer
    def _rearm(self, run: R) -> None:
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

    async def _timer(self, run: R) -> None:
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
                except self.refused as exc:
                    self.due_refused(run, exc)
                except StoreUnavailable as exc:  # a lost lease, or a store that stopped: nothing was done
                    log.warning("%s %s: what was due is not written (%s)", self.kind, run.id, exc)
                    if run.stopped:
                        return
                    await self.clock.sleep_until(self.clock.now_ms() + RETRY_DUE_MS)

    # ------------------------------------------------------------------ the bus
    def _run_of_room(self, room: str) -> R | None:
        """The competition whose open table is in this room."""
        found = self.rooms.get(room)
        return None if found is None else self.runs.get(found)

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

    def _now(self, run: R, effects: list[Any]) -> None:
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
        """A table's match ended: its result, recorded in order with the competition's other events."""
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
        competition itself was being taken over) is started or recorded here all the same."""
        for run in list(self.runs.values()):
            for table in list(run.core.state.tables.values()):
                if table.room in self.lobby.rooms:
                    continue
                stored = match_result(self.store, table.match_id)
                if stored is None:
                    continue
                if not run.core.started(table.room):
                    self._now(run, run.core.match_started(table.room))
                if stored.finished:
                    await self._finished_elsewhere(run, table.room, table.match_id, stored)

    async def _finished_elsewhere(self, run: R, room: str, match_id: str, stored: StoredResult) -> None:
        """Record a table's match that the store has finished (played on another node)."""
        async with run.lock:
            if run.stopped or room not in run.core.rooms():
                return
            await self._record(run, room, match_id, stored.score, stored.winner, stored.reason)

    async def _finished(self, run: R, event: MatchFinished) -> None:
        """Record a finished match as its table's result (the score, the shoot-out's winner, or a walkover)."""
        async with run.lock:
            await self._record(run, event.room, event.match_id, event.score, event.winner, event.reason)

    async def _record(self, run: R, room: str, match_id: str, score: tuple[int, int], winner: str | None,
                      reason: str) -> None:
        """A table's finished match as its result (lock held); one the core refuses is logged for the organiser to
        decide (a tournament's OverrideResult, a league's LeagueResult)."""
        try:
            await self.transition(run, lambda: run.core.match_finished(
                room, match_id, score=score, winner=winner, reason=reason, now=self.now_ms()))
        except self.refused as exc:
            log.error("%s %s: the result of the match in room %s cannot be recorded: %s", self.kind, run.id, room,
                      exc)

    # ------------------------------------------------------------------ watchers
    def changed(self, run: R) -> None:
        """Something a watcher sees changed: push an update soon (at most one per PUSH_INTERVAL_MS)."""
        if not run.watchers or (run.push_task is not None and not run.push_task.done()) or self._stopped:
            return
        run.push_task = self.spawn(self._push_later(run))

    async def _push_later(self, run: R) -> None:
        """Wait out the interval, then send one update to every watcher; while a table is played, another follows
        within CLOCK_REFRESH_MS."""
        await self.clock.sleep_until(self.clock.now_ms() + PUSH_INTERVAL_MS)
        run.sequence += 1
        shown = self.update_of(run, run.sequence)
        self.deliver(run.watchers, outgoing(shown))
        if self.playing(shown) and (run.refresh_task is None or run.refresh_task.done()):
            run.refresh_task = self.spawn(self._refresh_later(run))

    async def _refresh_later(self, run: R) -> None:
        """A table's part clock runs between its moves: tell the watchers again a second later."""
        await self.clock.sleep_until(self.clock.now_ms() + CLOCK_REFRESH_MS)
        self.changed(run)

    def room_info(self, code: str) -> Any:
        """A live room's line (score, part, clocks); None for a room not played here."""
        room = self.lobby.rooms.get(code)
        return None if room is None else room.info()

    async def watch(self, run: R, watcher: Watcher) -> None:
        """Add a watcher; he gets the competition as it is now, numbered as the latest update pushed (0: none)."""
        run.watchers[watcher] = None
        await watcher.send(self.update_of(run, run.sequence))

    def unwatch(self, watcher: Watcher) -> None:
        """A connection ended: it watches nothing any more."""
        for run in self.runs.values():
            run.watchers.pop(watcher, None)

    async def connected(self, session: Watcher, ready: asyncio.Event | None = None) -> None:
        """A player connected: the tables of his that wait for him (after his Welcome and, on a restarted server,
        once ``ready`` says its rooms and competitions are back)."""
        if ready is not None:
            await ready.wait()
        for run in list(self.runs.values()):
            for effect in run.core.connected(session.player_id, self.now_ms()):
                if isinstance(effect, Send):
                    await session.send(effect.message)


@dataclass(frozen=True, slots=True)
class Line:
    """A competition's line in every list: its list message's line (a TournamentInfo, a LeagueInfo), when it was
    created (the lists' order), and what the web's list shows beside it (a tournament's stage system)."""

    created_at_ms: int
    info: Any
    web: dict[str, str] = field(default_factory=dict)


async def _no_lines() -> dict[str, Line]:
    """One process: no competition runs anywhere else."""
    return {}

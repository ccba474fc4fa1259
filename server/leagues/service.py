"""The running leagues of one server: each one's core, lock, timer and watchers, and the lifecycle bus.

Why so thin (as ``server.tournaments.service``): every decision of a league - a round's games and tables, the no-show
walkovers, a game's result - is made by its pure core (``server.leagues.league_core``). This shell does only what
needs the event loop: one lock per league, one timer that wakes at the core's next no-show, carrying out the effects
in order - the log first (a write that fails rewinds the core), then the tables through the lobby (the tournaments'
``open_tables``/``close_table``: a rated room per game, both seats held), messages to players, coalesced updates to
watchers. A league learns how its games go only from the bus.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from server.clock import WallClock
from server.leagues import league_records as records
from server.leagues.league_core import Effect, LeagueCore, Mark, OpenedGame, OpenGames, Persist
from server.leagues.log import Event
from server.leagues.state import LeagueState
from server.leagues.views import info_of, update
from server.lifecycle import EventBus, MatchFinished, MatchStarted, MoveApplied, PresenceChanged
from server.rooms.lobby import HeldTable, Lobby
from server.rooms.room import RoomError
from server.store.store_port import Store
from server.tournaments.background import Background
from server.tournaments.service import PUSH_INTERVAL_MS, Watcher
from server.tournaments.tables import close_table
from server.tournaments.tournament_core import Changed, CloseTable, Send, Warn
from server.tournaments.tournament_records import now_ms as wall_ms
from server.wire import deliver, outgoing
from shared.league.errors import LeagueError
from shared.protocol import LeagueInfo, LeagueUpdate

log = logging.getLogger(__name__)


@dataclass(eq=False)
class LeagueRun:
    """One league this server runs: its core, lock, watchers and timer."""

    core: LeagueCore
    secret_hash: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: dict[Watcher, None] = field(default_factory=dict)  # an ordered set
    sequence: int = 0
    push_task: asyncio.Task[None] | None = None
    timer: asyncio.Task[None] | None = None
    timer_wake: int | None = None
    indexed: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        """The league's id."""
        return self.core.id

    @property
    def state(self) -> LeagueState:
        """The league as its log folds."""
        return self.core.state


class LeagueService(Background):
    """Every league of this server (see the module docstring)."""

    def __init__(self, *, store: Store, lobby: Lobby, bus: EventBus, clock: WallClock,
                 session_of: Callable[[int], Watcher | None], now_ms: Callable[[], int] = wall_ms) -> None:
        super().__init__("league")
        self.store = store
        self.lobby = lobby
        self.clock = clock
        self.session_of = session_of
        self.now_ms = now_ms
        self.runs: dict[str, LeagueRun] = {}  # newest last
        self.rooms: dict[str, str] = {}  # an open game's room code -> its league
        bus.subscribe(MatchStarted, self._match_started)
        bus.subscribe(MoveApplied, self._move_applied)
        bus.subscribe(PresenceChanged, self._presence_changed)
        bus.subscribe(MatchFinished, self._match_finished)

    def find(self, league_id: str) -> LeagueRun:
        """The league with this id, or LEAGUE_NOT_FOUND."""
        run = self.runs.get(league_id.strip().upper())
        if run is None:
            raise RoomError("LEAGUE_NOT_FOUND", f"no league has the id {league_id!r}")
        return run

    def adopt(self, run: LeagueRun) -> None:
        """Run a league (new, or folded from its log after a restart)."""
        self.runs[run.id] = run
        self._index(run)

    # ------------------------------------------------------------------ carrying out effects
    async def carry_out(self, run: LeagueRun, effects: list[Effect], mark: Mark | None = None) -> None:
        """Carry out the core's effects in order (lock held); ``mark``: the core before, rewound to when its write
        fails."""
        try:
            for effect in effects:
                if isinstance(effect, Persist):
                    await self.store.write([records.append_event(run.id, row) for row in effect.rows])
                    mark = None
                elif isinstance(effect, OpenGames):
                    opened = await self._open(run, effect)
                    await self.carry_out(run, run.core.games_opened(opened, self.now_ms()), run.core.mark())
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

    async def _open(self, run: LeagueRun, effect: OpenGames) -> list[OpenedGame]:
        """A rated room per game, held for its two players, under the league's ruleset and settings."""
        held = [HeldTable(ruleset=g.ruleset, overrides=dict(run.state.settings),
                          home=(g.home.player_id, g.home.name), away=(g.away.player_id, g.away.name))
                for g in effect.games]
        rooms = await self.lobby.open_tables(held)
        return [OpenedGame(key=g.key, room=room.code, match_id=room.match.id)
                for g, room in zip(effect.games, rooms, strict=True)]

    def _index(self, run: LeagueRun) -> None:
        """The service's index of open games' rooms follows the league's."""
        now = run.core.rooms()
        for room in run.indexed - now:
            if self.rooms.get(room) == run.id:
                del self.rooms[room]
        for room in now - run.indexed:
            self.rooms[room] = run.id
        run.indexed = now

    async def transition(self, run: LeagueRun, step: Callable[[], list[Effect]]) -> None:
        """Run one of the core's transitions and carry out its effects (lock held)."""
        mark = run.core.mark()
        await self.carry_out(run, step(), mark)

    async def commit(self, run: LeagueRun, events: Iterable[Event], actor: str) -> LeagueState:
        """Fold the events (``LeagueError``: refused, nothing written), log them, tell the watchers. Lock held."""
        listed = list(events)
        await self.transition(run, lambda: run.core.commit(listed, actor, self.now_ms()))
        return run.state

    # ------------------------------------------------------------------ the timer
    def _rearm(self, run: LeagueRun) -> None:
        """A timer wakes by the core's next no-show (only an earlier one replaces a sleeping timer)."""
        wake = run.core.next_wake()
        timer = run.timer
        if timer is not None and not timer.done():
            if run.timer_wake is None or wake is None or run.timer_wake <= wake:
                return
            timer.cancel()
        if wake is None or self._stopped:
            run.timer = None
            return
        run.timer_wake = wake
        run.timer = self.spawn(self._timer(run))

    async def _timer(self, run: LeagueRun) -> None:
        """Sleep until the next no-show and carry out what is due, until there is none."""
        while not self._stopped:
            wake = run.core.next_wake()
            if wake is None:
                return
            run.timer_wake = wake
            await self.clock.sleep_until(self.clock.now_ms() + max(0, wake - self.now_ms()))
            run.timer_wake = None
            async with run.lock:
                await self.transition(run, lambda: run.core.due(self.now_ms()))

    # ------------------------------------------------------------------ the bus
    def _run_of_room(self, room: str) -> LeagueRun | None:
        """The league whose open game is in this room."""
        league = self.rooms.get(room)
        return None if league is None else self.runs.get(league)

    def _match_started(self, event: MatchStarted) -> None:
        """A game's match began: its no-show deadline is gone."""
        run = self._run_of_room(event.room)
        if run is not None:
            run.core.match_started(event.room)
            self.changed(run)
            self._rearm(run)

    def _move_applied(self, event: MoveApplied) -> None:
        """A move at a table: its live score."""
        run = self._run_of_room(event.room)
        if run is not None:
            run.core.move_applied(event.room, event.score)
            self.changed(run)

    def _presence_changed(self, event: PresenceChanged) -> None:
        """Who is at a table (the no-show decides by it)."""
        run = self._run_of_room(event.room)
        if run is not None:
            run.core.presence_changed(event.room, event.connected)

    def _match_finished(self, event: MatchFinished) -> None:
        """A game's match ended: its result, recorded in order with the league's other events."""
        run = self._run_of_room(event.room)
        if run is not None:
            self.spawn(self._finished(run, event))

    async def _finished(self, run: LeagueRun, event: MatchFinished) -> None:
        """Record a finished match as its game's result."""
        async with run.lock:
            try:
                await self.transition(run, lambda: run.core.match_finished(
                    event.room, event.match_id, score=event.score, winner=event.winner, reason=event.reason,
                    now=self.now_ms()))
            except LeagueError as exc:  # the organiser must enter it (LeagueResult)
                log.error("league %s: the result of the match in room %s cannot be recorded: %s", run.id,
                          event.room, exc)

    # ------------------------------------------------------------------ watchers
    def changed(self, run: LeagueRun) -> None:
        """Something a watcher sees changed: push an update soon (at most one per PUSH_INTERVAL_MS)."""
        if not run.watchers or (run.push_task is not None and not run.push_task.done()) or self._stopped:
            return
        run.push_task = self.spawn(self._push_later(run))

    async def _push_later(self, run: LeagueRun) -> None:
        """Wait out the interval, then send one update to every watcher."""
        await self.clock.sleep_until(self.clock.now_ms() + PUSH_INTERVAL_MS)
        run.sequence += 1
        deliver(run.watchers, outgoing(self.update_of(run, run.sequence)))

    def update_of(self, run: LeagueRun, sequence: int) -> LeagueUpdate:
        """The league's LeagueUpdate now."""
        return update(run.state, sequence=sequence, live=run.core.live, now_ms=self.now_ms())

    async def watch(self, run: LeagueRun, watcher: Watcher) -> None:
        """Add a watcher; he gets the league as it is now."""
        run.watchers[watcher] = None
        await watcher.send(self.update_of(run, run.sequence))

    def unwatch(self, watcher: Watcher) -> None:
        """A connection ended: it watches nothing any more."""
        for run in self.runs.values():
            run.watchers.pop(watcher, None)

    async def connected(self, session: Watcher, ready: asyncio.Event | None = None) -> None:
        """A player connected: his games whose tables wait for him (after recovery, when ``ready`` is given)."""
        if ready is not None:
            await ready.wait()
        for run in list(self.runs.values()):
            for effect in run.core.connected(session.player_id, self.now_ms()):
                if isinstance(effect, Send):
                    await session.send(effect.message)

    def listing(self) -> tuple[LeagueInfo, ...]:
        """Every league's line, newest first."""
        return tuple(info_of(run.state) for run in reversed(list(self.runs.values())))

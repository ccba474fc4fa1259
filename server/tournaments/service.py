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

import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from server.clock import WallClock
from server.lifecycle import EventBus
from server.rooms.lobby import Lobby
from server.rooms.room import RoomError
from server.store.store_port import Store
from server.tournaments import tournament_records as records
from server.tournaments.competition import (
    CLOCK_REFRESH_MS,
    PUSH_INTERVAL_MS,
    RETRY_DUE_MS,
    CompetitionRun,
    CompetitionService,
    Deliver,
    Fenced,
    Line,
    Watcher,
)
from server.tournaments.log import SERVER, Event, Outcome
from server.tournaments.state import TableKey, TournamentState
from server.tournaments.state_snapshot import write_snapshot
from server.tournaments.tables import open_tables
from server.tournaments.tournament_core import (
    Effect,
    OpenTables,
    Persist,
    TournamentCore,
)
from server.tournaments.views import Board, board_of, info_of, update
from shared.protocol.lan_record import RunningTournament
from shared.tournament.errors import TournamentError

log = logging.getLogger(__name__)
RatingOf = Callable[[int, str], "tuple[int, bool] | None"]  # server.players.Players.rating_of
__all__ = ["CLOCK_REFRESH_MS", "PUSH_INTERVAL_MS", "RETRY_DUE_MS", "Deliver", "Fenced", "Running",
           "TournamentService", "Watcher", "new_seed"]


@dataclass(eq=False)
class Running(CompetitionRun[TournamentCore]):
    """One tournament this server runs: its core, lock, watchers and timers (``CompetitionRun``), its board."""

    board: Board | None = None
    table_rooms: dict[str, None] = field(default_factory=dict)  # every table's room opened (an ordered set)

    @property
    def state(self) -> TournamentState:
        """The tournament as its log folds."""
        return self.core.state


class TournamentService(CompetitionService[Running]):
    """Every tournament of this server (see the module docstring)."""

    kind = "tournament"
    not_found = "TOURNAMENT_NOT_FOUND"
    refused = (TournamentError, RoomError)

    def __init__(self, *, store: Store, lobby: Lobby, bus: EventBus, clock: WallClock,
                 session_of: Callable[[int], Watcher | None], rating_of: RatingOf | None = None,
                 now_ms: Callable[[], int] = records.now_ms) -> None:
        """``session_of(player_id)``: the player's connection here, if any; ``now_ms``: the wall time of log rows and
        of the tournaments' deadlines (``clock`` only sleeps: it is told how long)."""
        super().__init__(store=store, lobby=lobby, bus=bus, clock=clock, session_of=session_of, now_ms=now_ms)
        self.rating_of = rating_of

    # ------------------------------------------------------------------ carrying out effects
    async def carry_own(self, run: Running, effect: Effect) -> bool:
        """A tournament's write (``Persist``) or its tables to open (``OpenTables``: their rooms go back to the
        core)."""
        if isinstance(effect, Persist):
            await self._persist(run, effect)
            return True
        if isinstance(effect, OpenTables):
            opened = await open_tables(self.lobby, run.state.tournament, effect.tables)
            await self.carry_out(run, run.core.tables_opened(opened, self.now_ms()), run.core.mark())
        return False

    async def _persist(self, run: Running, effect: Persist) -> None:
        """Append the rows (and the snapshot, when one is due) in one transaction, under the tournament's fence (a
        cluster's store refuses the write of a node that lost its lease: ``StaleLease``, and the core rewinds)."""
        statements = [records.append_event(run.id, row) for row in effect.rows]
        if effect.snapshot is not None:
            statements.append(records.save_snapshot(run.id, write_snapshot(effect.snapshot), effect.snapshot.version,
                                                    effect.status))
        await self._written(run, statements)

    def _index(self, run: Running) -> None:
        """The service's index of open tables' rooms follows the tournament's; the organiser's mutes follow into
        every table room still open."""
        for room in run.core.rooms() - run.indexed:
            run.table_rooms[room] = None
        super()._index(run)
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

    def due_refused(self, run: Running, exc: Exception) -> None:
        """The next round could not start by itself (nothing left to pair, ...): the log says why."""
        log.info("tournament %s: the next round did not start by itself: %s", run.id, exc)

    # ------------------------------------------------------------------ watchers
    def playing(self, shown: Any) -> bool:
        """A table of the update is being played."""
        return any(line.status == "playing" for line in shown.tables)

    def update_of(self, run: Running, sequence: int) -> Any:
        """The tournament's TournamentUpdate now."""
        board = self.board(run)
        now = self.now_ms()
        return update(run.state, board, sequence=sequence, live=run.core.live, room_info=self.room_info,
                      now_ms=now, next_round_ms=run.core.next_round_ms(now))

    def board(self, run: Running) -> Board:
        """The tournament's board for its current version."""
        if run.board is None or run.board.version != run.state.version:
            run.board = board_of(run.state)
        return run.board

    def running(self) -> tuple[RunningTournament, ...]:
        """The tournaments not yet over, as the LAN announcement lists them."""
        return tuple(RunningTournament(id=run.id, name=run.state.tournament.name) for run in self.runs.values()
                     if self.board(run).status not in ("finished", "ended"))

    def lines(self) -> dict[str, Line]:
        """Each tournament's line with its creation time and its current stage's system (the web's list), by id."""
        out = {}
        for run in self.runs.values():
            playing = sum(1 for t in run.state.tables.values() if run.core.started(t.room))
            board = self.board(run)
            out[run.id] = Line(run.state.created_at_ms, info_of(run.state, board, playing),
                               {"system": run.state.tournament.stages[board.stage].system})
        return out

def new_seed() -> int:
    """A tournament's seed when the organiser names none (it drives every draw of the engine)."""
    return secrets.randbits(31)


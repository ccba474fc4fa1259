"""The running leagues of one server: each one's core, lock, timer and watchers, and the lifecycle bus.

Why so thin (as ``server.tournaments.service``): every decision of a league - a round's games and tables, the no-show
walkovers, a game's result - is made by its pure core (``server.leagues.league_core``). This shell does only what
needs the event loop: one lock per league, one timer that wakes at the core's next no-show, carrying out the effects
in order - the log first (a write that fails rewinds the core), then the tables through the lobby (the tournaments'
``open_tables``/``close_table``: a rated room per game, both seats held), messages to players, coalesced updates to
watchers. A league learns how its games go only from the bus. What it does as a tournament does - its watchers,
their pushes and the played games' clock re-pushed every second, its timer, the bus's news - is theirs in common
(``server.tournaments.competition``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from server.clock import WallClock
from server.leagues import league_records as records
from server.leagues.league_core import Effect, LeagueCore, OpenedGame, OpenGames, Persist
from server.leagues.log import Event
from server.leagues.state import LeagueState
from server.leagues.views import info_of, update
from server.lifecycle import EventBus
from server.rooms.lobby import HeldTable, Lobby
from server.store.store_port import Store
from server.tournaments.competition import CompetitionRun, CompetitionService, Line, Watcher
from server.tournaments.tournament_records import now_ms as wall_ms
from shared.league.errors import LeagueError
from shared.protocol import LeagueUpdate

log = logging.getLogger(__name__)


@dataclass(eq=False)
class LeagueRun(CompetitionRun[LeagueCore]):
    """One league this server runs: its core, lock, watchers and timers (``CompetitionRun``)."""

    @property
    def state(self) -> LeagueState:
        """The league as its log folds."""
        return self.core.state


class LeagueService(CompetitionService[LeagueRun]):
    """Every league of this server (see the module docstring)."""

    kind = "league"
    not_found = "LEAGUE_NOT_FOUND"
    refused = (LeagueError,)

    def __init__(self, *, store: Store, lobby: Lobby, bus: EventBus, clock: WallClock,
                 session_of: Callable[[int], Watcher | None], now_ms: Callable[[], int] = wall_ms) -> None:
        super().__init__(store=store, lobby=lobby, bus=bus, clock=clock, session_of=session_of, now_ms=now_ms)

    # ------------------------------------------------------------------ carrying out effects
    async def carry_own(self, run: LeagueRun, effect: Effect) -> bool:
        """A league's write (``Persist``) or its games to open (``OpenGames``: their rooms go back to the core)."""
        if isinstance(effect, Persist):
            await self._written(run, [records.append_event(run.id, row) for row in effect.rows])
            return True
        if isinstance(effect, OpenGames):
            opened = await self._open(run, effect)
            await self.carry_out(run, run.core.games_opened(opened, self.now_ms()), run.core.mark())
        return False

    async def _open(self, run: LeagueRun, effect: OpenGames) -> list[OpenedGame]:
        """A rated room per game, held for its two players, under the league's ruleset and settings."""
        held = [HeldTable(ruleset=g.ruleset, overrides=dict(run.state.settings),
                          home=(g.home.player_id, g.home.name), away=(g.away.player_id, g.away.name))
                for g in effect.games]
        rooms = await self.lobby.open_tables(held)
        return [OpenedGame(key=g.key, room=room.code, match_id=room.match.id)
                for g, room in zip(effect.games, rooms, strict=True)]

    async def commit(self, run: LeagueRun, events: Iterable[Event], actor: str) -> LeagueState:
        """Fold the events (``LeagueError``: refused, nothing written), log them, tell the watchers. Lock held."""
        listed = list(events)
        await self.transition(run, lambda: run.core.commit(listed, actor, self.now_ms()))
        return run.state

    # ------------------------------------------------------------------ watchers
    def update_of(self, run: LeagueRun, sequence: int) -> LeagueUpdate:
        """The league's LeagueUpdate now."""
        return update(run.state, sequence=sequence, live=run.core.live, room_info=self.room_info,
                      now_ms=self.now_ms())

    def playing(self, shown: Any) -> bool:
        """A game of the update is being played."""
        return any(game.status == "playing" for line in shown.fixtures for game in line.games)

    def lines(self) -> dict[str, Line]:
        """Each league's line with its creation time, by id."""
        return {run.id: Line(run.state.created_at_ms, info_of(run.state)) for run in self.runs.values()}

"""A running league's decisions without I/O: a round's games and their tables, the no-show walkovers, the results of
the tables' matches, recovery's relink.

Why sans-I/O (as ``server.tournaments.tournament_core``, whose effects it shares): everything a league decides is a
function of its state, what happened and the time ``now`` (ms since the epoch), tested without a socket, a task, a
lobby or a database. Each transition returns the effects to carry out, in order: ``Persist(rows)`` first (nothing
that follows happens before it is durable; the shell rewinds the core when it cannot be written), ``OpenGames``
(rooms for a round's games, given back to ``games_opened``), ``CloseTable``, ``Send`` (``LeagueGameAssigned``),
``Changed`` and ``Warn``.

A game whose roster player nobody has taken the place of cannot be played at a table: when its round starts it is a
walkover for the other player (home when neither has come), as a player missing from his game (TOURNAMENT.md
"Team competitions"). A table whose match has not started ``no_show_ms`` after it opened is a walkover for the player
who came (``server.tournaments.results.no_show_winner``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from server.leagues.log import SERVER, Event, GameResult, GameTableOpened, LeagueRoundStarted, Row
from server.leagues.state import GameKey, GameTable, LeagueState, apply, rounds_started
from server.tournaments.log import Outcome
from server.tournaments.results import StoredResult, no_show_winner, outcome_of
from server.tournaments.state import Coach
from server.tournaments.tournament_core import Changed, CloseTable, Send, Warn, seat_name
from server.tournaments.views import LiveTable
from shared.protocol import LeagueGameAssigned
from shared.tournament.model import Side


@dataclass(frozen=True, slots=True)
class Persist:
    """Append ``rows`` to the league's log in one transaction."""

    rows: tuple[Row, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameToOpen:
    """A game that needs a room: where it is, its ruleset and the two players whose seats the room holds (each named
    as on the roster)."""

    key: GameKey
    ruleset: str
    home: Coach
    away: Coach


@dataclass(frozen=True, slots=True)
class OpenGames:
    """Open a room for each game; the rooms go back to ``LeagueCore.games_opened``."""

    games: tuple[GameToOpen, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenedGame:
    """A game's room as the lobby opened it."""

    key: GameKey
    room: str
    match_id: str


Effect = Persist | OpenGames | CloseTable | Send | Changed | Warn


@dataclass(frozen=True, slots=True)
class Mark:
    """The core's state before a transition (``rewind`` when its write fails)."""

    state: LeagueState


@dataclass(slots=True)
class _Step:
    """What one transition logs and does after the write."""

    rows: list[Row] = field(default_factory=list)
    after: list[Effect] = field(default_factory=list)


class LeagueCore:
    """One league's state and transitions (see the module docstring)."""

    def __init__(self, state: LeagueState) -> None:
        self.state = state
        self.live: dict[str, LiveTable] = {}  # room code -> what the bus said of it

    @property
    def id(self) -> str:
        """The league's id."""
        return self.state.id

    def mark(self) -> Mark:
        """The core as it is now."""
        return Mark(self.state)

    def rewind(self, mark: Mark) -> None:
        """Back to ``mark``: the transition since could not be written."""
        self.state = mark.state

    def started(self, room: str) -> bool:
        """The match in ``room`` has begun."""
        return self.live.get(room, LiveTable()).started

    def rooms(self) -> frozenset[str]:
        """The rooms of the games still to be decided."""
        return frozenset(t.room for t in self.state.tables.values())

    # ------------------------------------------------------------------ the log
    def commit(self, events: Iterable[Event], actor: str, now: int) -> list[Effect]:
        """Fold the events (``LeagueError``: refused, nothing changes) and log them."""
        step = _Step()
        self._log(step, events, actor, now)
        return self._effects(step)

    def _log(self, step: _Step, events: Iterable[Event], actor: str, now: int) -> None:
        """Fold the events into the state and the step's rows (all or none)."""
        state = self.state
        rows = []
        for event in events:
            row = Row(index=state.version, at_ms=now, actor=actor, event=event)
            state = apply(state, row)
            rows.append(row)
        self.state = state
        step.rows += rows

    def _effects(self, step: _Step) -> list[Effect]:
        """The step's write first, then what it does after, then the watchers' news."""
        effects: list[Effect] = [Persist(tuple(step.rows))] if step.rows else []
        effects += step.after
        if step.rows:
            effects.append(Changed())
        return effects

    # ------------------------------------------------------------------ rounds
    def start_round(self, fixture: str, boards: bool, actor: str, now: int) -> list[Effect]:
        """The fixture's next round: its games at tables (a game of a player nobody plays as is his walkover at
        once), or on boards, waiting for the organiser's results."""
        step = _Step()
        number = rounds_started(self.state.fixture(fixture)) + 1
        self._log(step, [LeagueRoundStarted(fixture=fixture, round=number, boards=boards)], actor, now)
        if not boards:
            state = self.state
            walkovers: list[Event] = []
            keys: list[GameKey] = []
            for board in range(1, state.league.settings.team_size + 1):
                key = (fixture, number, board)
                game = state.game(key)
                home, away = state.coaches.get(game.home), state.coaches.get(game.away)
                if home is not None and away is not None:
                    keys.append(key)
                    continue
                winner: Side = "away" if home is None and away is not None else "home"
                missing = [p for p, c in ((game.home, home), (game.away, away)) if c is None]
                walkovers.append(GameResult(fixture=fixture, round=number, board=board,
                                            outcome=Outcome(walkover=winner), source="no_show",
                                            reason=f"nobody plays as {' and '.join(missing)} on this server"))
            self._log(step, walkovers, SERVER, now)
            self._open(step, keys)
        return self._effects(step)

    def _open(self, step: _Step, keys: Sequence[GameKey]) -> None:
        """Ask for a room per game, both players' seats held, the league's ruleset."""
        state = self.state
        games = []
        for key in keys:
            game = state.game(key)
            home, away = state.coaches.get(game.home), state.coaches.get(game.away)
            if home is None or away is None:
                step.after.append(Warn(f"league {state.id}: {key} has no player for both sides"))
                continue
            # the seats show the roster's names: one name per person in a league, at the table as on its lists
            games.append(GameToOpen(key=key, ruleset=state.league.settings.ruleset,
                                    home=replace(home, name=seat_name(state.name_of(game.home))),
                                    away=replace(away, name=seat_name(state.name_of(game.away)))))
        if games:
            step.after.append(OpenGames(tuple(games)))

    def games_opened(self, opened: Sequence[OpenedGame], now: int) -> list[Effect]:
        """The rooms the lobby opened: recorded in one write, then each player told where to play."""
        step = _Step()
        events = [GameTableOpened(fixture=o.key[0], round=o.key[1], board=o.key[2], room=o.room, match_id=o.match_id)
                  for o in opened]
        self._log(step, events, SERVER, now)
        for o in opened:
            step.after += self._assign(o.key, self.state.tables[o.key], now)
        return self._effects(step)

    def _assign(self, key: GameKey, table: GameTable, now: int, only: int | None = None) -> list[Effect]:
        """Tell the game's players (or only player ``only``) where to play and how long they have."""
        state = self.state
        game = state.game(key)
        f = state.fixture(key[0])
        left = max(0, table.opened_at_ms + state.no_show_ms - now)
        out: list[Effect] = []
        for seat, player, other in (("home", game.home, game.away), ("away", game.away, game.home)):
            coach = state.coaches.get(player)
            if coach is None or (only is not None and coach.player_id != only):
                continue
            out.append(Send(coach.player_id, LeagueGameAssigned(
                league=state.id, fixture=f.id, home_team=state.league.team(f.home).name[:100],
                away_team=state.league.team(f.away).name[:100], round=key[1], board=key[2], room=table.room,
                ruleset=state.league.settings.ruleset, seat=seat, opponent=state.name_of(other)[:64],
                no_show_ms=left)))
        return out

    def connected(self, player_id: int, now: int) -> list[Effect]:
        """A player connected: his games whose tables wait for him."""
        player = self.state.player_of(player_id)
        if player is None:
            return []
        out: list[Effect] = []
        for key, table in self.state.tables.items():
            if player in self.state.game(key).players() and not self.started(table.room):
                out += self._assign(key, table, now, only=player_id)
        return out

    # ------------------------------------------------------------------ results
    def record(self, key: GameKey, outcome: Outcome, *, source: str, now: int, match_id: str | None = None,
               reason: str = "", actor: str = SERVER) -> list[Effect]:
        """The game at ``key`` has its result; a table nobody played at closes."""
        step = _Step()
        self._record(step, key, outcome, source=source, now=now, match_id=match_id, reason=reason, actor=actor)
        return self._effects(step)

    def _record(self, step: _Step, key: GameKey, outcome: Outcome, *, source: str, now: int,
                match_id: str | None = None, reason: str = "", actor: str = SERVER) -> None:
        """``record`` into a step."""
        table = self.state.tables.get(key)
        started = table is not None and self.started(table.room)
        self._log(step, [GameResult(fixture=key[0], round=key[1], board=key[2], outcome=outcome, source=source,
                                    match_id=match_id, reason=reason)], actor, now)
        if table is not None and not started:
            step.after.append(CloseTable(table.room))

    def match_started(self, room: str) -> list[Effect]:
        """A game's match began: its no-show deadline is gone."""
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
        """A game's match ended: its result (the score, or a walkover for a forfeit); nothing for a table decided
        meanwhile or a rematch in the room. A drawn game stands as a draw (the league records no shoot-out)."""
        key = self._key_of_room(room)
        if key is None or self.state.tables[key].match_id != match_id:
            return []
        outcome = outcome_of(score=score, winner=winner, reason=reason, knockout=False)
        source = "forfeit" if outcome.walkover is not None else "match"
        return self.record(key, Outcome(score=outcome.score, walkover=outcome.walkover), source=source, now=now,
                           match_id=match_id, reason=reason if source == "forfeit" else "")

    def _key_of_room(self, room: str) -> GameKey | None:
        """The game whose open table is in ``room``."""
        return next((k for k, t in self.state.tables.items() if t.room == room), None)

    # ------------------------------------------------------------------ deadlines
    def deadlines(self) -> tuple[tuple[int, GameKey], ...]:
        """Each open table's no-show moment, earliest first (games in order)."""
        return tuple(sorted((t.opened_at_ms + self.state.no_show_ms, key) for key, t in self.state.tables.items()
                            if not self.started(t.room)))

    def next_wake(self) -> int | None:
        """When the next no-show falls (None: none)."""
        found = self.deadlines()
        return found[0][0] if found else None

    def due(self, now: int) -> list[Effect]:
        """Every table past its no-show moment is a walkover for the player who came (home when neither did), in one
        write."""
        due = [key for at, key in self.deadlines() if at <= now]
        if not due:
            return []
        step = _Step()
        seconds = f"{self.state.no_show_ms / 1000:g} s"
        for key in due:
            present = self.live.get(self.state.tables[key].room, LiveTable()).present
            self._record(step, key, Outcome(walkover=no_show_winner(present)), source="no_show", now=now,
                         reason=f"not at the table within {seconds} of its opening")
        return self._effects(step)

    # ------------------------------------------------------------------ recovery
    def relink(self, stored: Mapping[str, StoredResult | None], alive: Collection[str], now: int) -> list[Effect]:
        """After a restart: each open table's match as the store has it (by match id; None: it never started) and the
        rooms recovered (``alive``): a finished match is recorded, a running one goes on, a table whose match never
        started is opened again (with a fresh no-show time), as is a game of a started round at no table."""
        step = _Step()
        reopen: list[GameKey] = []
        for key, table in list(self.state.tables.items()):
            found = stored.get(table.match_id)
            if found is not None and found.finished:
                self.live[table.room] = LiveTable(started=True)
                o = outcome_of(score=found.score, winner=found.winner, reason=found.reason, knockout=False)
                source = "forfeit" if o.walkover is not None else "match"
                self._record(step, key, o, source=source, now=now, match_id=table.match_id)
            elif found is not None and table.room in alive:
                self.live[table.room] = LiveTable(started=True)
            else:
                reopen.append(key)
        size = self.state.league.settings.team_size
        for f in self.state.league.fixtures:
            for index, game in enumerate(f.games):
                key = (f.id, game.round, index % size + 1)
                if not game.finished and (f.id, game.round) not in self.state.boards and \
                        key not in self.state.tables and key not in reopen:
                    reopen.append(key)
        if reopen:
            self._open(step, sorted(reopen))
        return self._effects(step)

"""A league as its log folds: the engine's league file plus what only the server knows.

Why a pure fold (as ``server.tournaments.state``): the running service and recovery after a crash must reach the same
league from the same log, so every change goes through ``apply`` (no I/O, no clock: each row carries its time), and
what it does to the file is what TOURNAMENT.md "Team competitions" allows - a line-up is checked by the engine
(``shared.league.checks.check_lineup``: ``UNKNOWN_PLAYER``, ``PLAYED_TWICE``, ``BAD_FORMAT``), a round's games are
the engine's schedule (``shared.league.schedule``) - so a refused request changes nothing and the league's file is
always one ``sprtec league table`` reads. The order of play is the server's reading (docs/LEAGUE-NOTES.md "On the
server"): one match day open at a time, line-ups before a fixture's first round, a round after the one before it is
complete, no player in two unfinished games at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from server.leagues.log import (
    Created,
    DayOpened,
    GameResult,
    GameTableOpened,
    LeagueRoundStarted,
    LineupGiven,
    PlaceTaken,
    Row,
)
from server.tournaments.state import Coach
from shared.league.checks import check_lineup
from shared.league.errors import LeagueError
from shared.league.model import Fixture, Game, League, Lineups
from shared.league.reading import read_league
from shared.league.schedule import schedule

GameKey = tuple[str, int, int]  # (fixture, round, board)


@dataclass(frozen=True, kw_only=True, slots=True)
class GameTable:
    """The room a game is played in, since when (ms since the epoch)."""

    room: str
    match_id: str
    opened_at_ms: int


@dataclass(frozen=True, kw_only=True, slots=True)
class LeagueState:
    """Everything a league is after its log's events (see the module docstring)."""

    id: str
    league: League
    version: int
    no_show_ms: int
    created_at_ms: int
    code_hashes: Mapping[str, str] = field(default_factory=dict)  # roster player not yet taken -> hash of his code
    captains: Mapping[str, str] = field(default_factory=dict)  # team -> its captain (a roster player)
    settings: Mapping[str, Any] = field(default_factory=dict)  # every game's match settings (a room's overrides)
    coaches: Mapping[str, Coach] = field(default_factory=dict)  # roster player -> the connected player who is him
    day: int = 0  # the open match day (0: none yet)
    boards: frozenset[tuple[str, int]] = frozenset()  # (fixture, round) played on boards, entered by hand
    tables: Mapping[GameKey, GameTable] = field(default_factory=dict)  # the rooms of games without a result
    sources: Mapping[GameKey, str] = field(default_factory=dict)  # how each result came
    last_result_at_ms: int = 0

    def fixture(self, fixture_id: str) -> Fixture:
        """The fixture with this id (``UNKNOWN_FIXTURE``)."""
        return self.league.fixture(fixture_id)

    def player_of(self, player_id: int) -> str | None:
        """The roster player a connected player is, if any."""
        return next((p for p, c in self.coaches.items() if c.player_id == player_id), None)

    def team_of(self, player: str) -> str:
        """The team whose roster has ``player`` (KeyError when none)."""
        for team in self.league.teams:
            if player in team.player_ids():
                return team.id
        raise KeyError(player)

    def name_of(self, player: str) -> str:
        """A roster player's name."""
        for team in self.league.teams:
            for p in team.players:
                if p.id == player:
                    return p.name
        return player

    def game(self, key: GameKey) -> Game:
        """The game of ``key`` once its round has started (``BAD_RESULT`` otherwise)."""
        fixture_id, number, board = key
        f = self.fixture(fixture_id)
        size = self.league.settings.team_size
        index = (number - 1) * size + (board - 1)
        if not (1 <= number <= rounds_started(f) and 1 <= board <= size) or index >= len(f.games):
            raise LeagueError("BAD_RESULT", f"fixture {fixture_id} has no game at round {number}, board {board} yet")
        return f.games[index]

    def busy(self) -> frozenset[str]:
        """The roster players in a game of a started round without a result (anywhere in the league)."""
        out: set[str] = set()
        for f in self.league.fixtures:
            for g in f.games:
                if not g.finished:
                    out.update(g.players())
        return frozenset(out)

    def day_fixtures(self) -> tuple[Fixture, ...]:
        """The fixtures of the open day, in the file's order."""
        return tuple(f for f in self.league.fixtures if f.day == self.day) if self.day else ()


def rounds_started(fixture: Fixture) -> int:
    """How many rounds of a fixture have started (its games are added a round at a time)."""
    return max((g.round for g in fixture.games), default=0)


def round_complete(fixture: Fixture, number: int) -> bool:
    """Every game of round ``number`` has a result."""
    return all(g.finished for g in fixture.games if g.round == number)


def start(league_id: str, row: Row) -> LeagueState:
    """A league's state from its first event (``Created``)."""
    event = row.event
    if not isinstance(event, Created):
        raise ValueError("a league's log begins with Created")
    return LeagueState(id=league_id, league=read_league(dict(event.file)), version=1, no_show_ms=event.no_show_ms,
                       created_at_ms=row.at_ms, code_hashes=dict(event.code_hashes), captains=dict(event.captains),
                       settings=dict(event.settings))


def fold(league_id: str, rows: list[Row]) -> LeagueState:
    """A league's state from its whole log."""
    state = start(league_id, rows[0])
    for row in rows[1:]:
        state = apply(state, row)
    return state


def apply(state: LeagueState, row: Row) -> LeagueState:
    """The state after one more event (``LeagueError``: refused, the state is unchanged)."""
    event = row.event
    if isinstance(event, PlaceTaken):
        state = _place_taken(state, event)
    elif isinstance(event, DayOpened):
        state = _day_opened(state, event)
    elif isinstance(event, LineupGiven):
        state = _lineup_given(state, event)
    elif isinstance(event, LeagueRoundStarted):
        state = _round_started(state, event)
    elif isinstance(event, GameTableOpened):
        key = (event.fixture, event.round, event.board)
        state.game(key)
        tables = {**state.tables, key: GameTable(room=event.room, match_id=event.match_id, opened_at_ms=row.at_ms)}
        state = replace(state, tables=tables)
    elif isinstance(event, GameResult):
        state = _result(state, event, row.at_ms)
    else:
        raise ValueError(f"{type(event).__name__} only begins a league's log")
    return replace(state, version=state.version + 1)


def _place_taken(state: LeagueState, event: PlaceTaken) -> LeagueState:
    """A roster player's place is taken by a connected player."""
    if event.player not in state.code_hashes:
        raise LeagueError("UNKNOWN_PLAYER", f"league {state.id} has no roster player {event.player} left to take")
    codes = {p: h for p, h in state.code_hashes.items() if p != event.player}
    coaches = {**state.coaches, event.player: Coach(player_id=event.player_id, name=event.name)}
    return replace(state, code_hashes=codes, coaches=coaches)


def _day_opened(state: LeagueState, event: DayOpened) -> LeagueState:
    """The day has fixtures; no game of the day before is still at a table."""
    if not any(f.day == event.day for f in state.league.fixtures):
        days = sorted({f.day for f in state.league.fixtures})
        raise LeagueError("UNKNOWN_FIXTURE", f"league {state.id} has no fixture on day {event.day} (its days: "
                                             f"{', '.join(map(str, days)) or 'none'})")
    if state.busy():
        raise LeagueError("ROUND_ORDER", f"day {state.day} has games still being played")
    return replace(state, day=event.day)


def _lineup_given(state: LeagueState, event: LineupGiven) -> LeagueState:
    """A line-up of a fixture of the open day, before its first round and while the other team's is not in."""
    f = _of_open_day(state, event.fixture)
    if rounds_started(f) or f.lineups.complete:
        raise LeagueError("ROUND_ORDER", f"fixture {f.id}: both line-ups are in and cannot change any more")
    if event.side not in ("home", "away"):
        raise LeagueError("BAD_FORMAT", f"a line-up is home or away, not {event.side!r}")
    team = state.league.team(f.home if event.side == "home" else f.away)
    check_lineup(event.players, team, state.league.settings.team_size,
                 f"fixture {f.id}, the {event.side} line-up ({team.id})")
    lineups = replace(f.lineups, **{event.side: tuple(event.players)})
    return _with_fixture(state, replace(f, lineups=lineups))


def _round_started(state: LeagueState, event: LeagueRoundStarted) -> LeagueState:
    """The next round of a fixture of the open day: both line-ups in, the round before complete, its players free."""
    f = _of_open_day(state, event.fixture)
    home, away = f.lineups.home, f.lineups.away
    if home is None or away is None:
        raise LeagueError("ROUND_ORDER", f"fixture {f.id}: both line-ups must be in before its first round")
    size = len(home)
    done = rounds_started(f)
    if event.round != done + 1 or done >= size:
        raise LeagueError("ROUND_ORDER", f"fixture {f.id}: {done} of its {size} rounds have started; the next is "
                                         f"{done + 1 if done < size else 'none'}, not {event.round}")
    if done and not round_complete(f, done):
        raise LeagueError("ROUND_ORDER", f"fixture {f.id}: round {done} has games still without a result")
    scheduled = schedule(home, away)[event.round - 1]
    busy = state.busy() & {p for g in scheduled.games for p in (g.home, g.away)}
    if busy:
        raise LeagueError("ROUND_ORDER", f"fixture {f.id}: {', '.join(sorted(busy))} still play another game")
    games = tuple(Game(round=event.round, home=g.home, away=g.away) for g in scheduled.games)
    boards = state.boards | {(f.id, event.round)} if event.boards else state.boards
    return replace(_with_fixture(state, replace(f, games=f.games + games)), boards=boards)


def _result(state: LeagueState, event: GameResult, at_ms: int) -> LeagueState:
    """A game's result (a correction replaces the one before)."""
    key = (event.fixture, event.round, event.board)
    game = state.game(key)
    o = event.outcome
    if (o.score is None) == (o.walkover is None) or (o.score is not None and min(o.score) < 0):
        raise LeagueError("BAD_RESULT", f"fixture {event.fixture}, round {event.round}, board {event.board}: a result "
                                        "is a score of two numbers of goals, or a walkover")
    f = state.fixture(event.fixture)
    size = state.league.settings.team_size
    index = (event.round - 1) * size + (event.board - 1)
    done = replace(game, score=o.score, walkover=o.walkover)
    games = (*f.games[:index], done, *f.games[index + 1:])
    tables = {k: t for k, t in state.tables.items() if k != key}
    return replace(_with_fixture(state, replace(f, games=games)), tables=tables,
                   sources={**state.sources, key: event.source}, last_result_at_ms=at_ms)


def _of_open_day(state: LeagueState, fixture_id: str) -> Fixture:
    """A fixture of the open match day (``ROUND_ORDER`` for another day's)."""
    f = state.fixture(fixture_id)
    if f.day != state.day:
        raise LeagueError("ROUND_ORDER", f"fixture {f.id} is played on day {f.day}; the open day is "
                                         f"{state.day or 'none yet'} (OpenMatchDay)")
    return f


def _with_fixture(state: LeagueState, fixture: Fixture) -> LeagueState:
    """The state with one fixture replaced."""
    fixtures = tuple(fixture if f.id == fixture.id else f for f in state.league.fixtures)
    return replace(state, league=replace(state.league, fixtures=fixtures))


def shown_lineups(fixture: Fixture) -> Lineups:
    """What everyone may see of a fixture's line-ups: both once both are in, neither before."""
    return fixture.lineups if fixture.lineups.complete else Lineups()

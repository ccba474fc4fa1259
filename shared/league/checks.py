"""What was played in a league, checked in the contract's order: every line-up first, then every game.

Why an order: a file can be wrong in several ways at once and the answer must be the same every time, so
TOURNAMENT.md "Team competitions" orders the checks. A line-up names k different players of its team's
roster (``UNKNOWN_PLAYER``, then ``PLAYED_TWICE`` for a player named twice, then ``BAD_FORMAT`` for other
than k players). Then each game must be its round's scheduled pair with the scheduled home and away
(``BAD_RESULT``; an id that is nobody's is ``UNKNOWN_PLAYER``), and a game listed twice is ``PLAYED_TWICE``.
The reader runs these after the file's shape is read; the server can run ``check`` on a value it built.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from shared.league.errors import LeagueError
from shared.league.model import Fixture, Game, League, Team
from shared.league.schedule import Board, schedule
from shared.tournament.model import SIDES


def check(league: League) -> League:
    """The league with each fixture's games in schedule order (round, then board), once every check passes."""
    check_lineups(league)
    known = {p.id for team in league.teams for p in team.players}
    return dataclasses.replace(league, fixtures=tuple(check_games(f, known) for f in league.fixtures))


def check_lineups(league: League) -> None:
    """Every given line-up of every fixture, in the file's order, home before away."""
    size = league.settings.team_size
    for fixture in league.fixtures:
        for side in SIDES:
            lineup = fixture.lineups.of(side)
            if lineup is not None:
                team = league.team(fixture.home if side == "home" else fixture.away)
                check_lineup(lineup, team, size, f"fixture {fixture.id}, the {side} line-up ({team.id})")


def check_lineup(lineup: tuple[str, ...], team: Team, size: int, where: str) -> None:
    """k different players of the team's roster."""
    roster = set(team.player_ids())
    for place, player in enumerate(lineup, start=1):
        if player not in roster:
            raise LeagueError("UNKNOWN_PLAYER", f"{where}: {player!r} (board {place}) is not a player of "
                                                f"{team.name} ({team.id})")
    named: set[str] = set()
    for player in lineup:
        if player in named:
            raise LeagueError("PLAYED_TWICE", f"{where}: {player} is named twice")
        named.add(player)
    if len(lineup) != size:
        raise LeagueError("BAD_FORMAT", f"{where}: {len(lineup)} players; a line-up names {size} "
                                        "(settings.team_size)")


@dataclass(frozen=True, kw_only=True, slots=True)
class _Plan:
    """A fixture's schedule indexed for the checks: the board of each scheduled game and each player's game
    in each round."""

    size: int
    boards: dict[tuple[int, str, str], int]
    games_of: dict[tuple[int, str], Board]

    @classmethod
    def of(cls, home: tuple[str, ...], away: tuple[str, ...]) -> _Plan:
        """The plan of two line-ups."""
        boards: dict[tuple[int, str, str], int] = {}
        games_of: dict[tuple[int, str], Board] = {}
        for r in schedule(home, away):
            for g in r.games:
                boards[(r.round, g.home, g.away)] = g.board
                games_of[(r.round, g.home)] = games_of[(r.round, g.away)] = g
        return cls(size=len(home), boards=boards, games_of=games_of)


def check_games(fixture: Fixture, known: set[str]) -> Fixture:
    """The fixture with its games in schedule order, each the scheduled pair of its round, none twice."""
    if not fixture.games:
        return fixture
    home, away = fixture.lineups.home, fixture.lineups.away
    plan = None if home is None or away is None else _Plan.of(home, away)
    placed: dict[tuple[int, str, str], tuple[int, Game]] = {}
    for index, game in enumerate(fixture.games, start=1):
        where = f"fixture {fixture.id}, game {index} (round {game.round}: {game.home} v {game.away})"
        for player in game.players():
            if player not in known:
                raise LeagueError("UNKNOWN_PLAYER", f"{where}: {player!r} is not a player of any team")
        if plan is None:
            raise LeagueError("BAD_RESULT", f"{where}: there is no schedule yet, both line-ups must be given "
                                            "before a game")
        key = (game.round, game.home, game.away)
        if key not in plan.boards:
            raise LeagueError("BAD_RESULT", f"{where}: {_why_not_scheduled(game, plan)}")
        if key in placed:
            raise LeagueError("PLAYED_TWICE", f"{where}: this game is listed twice")
        placed[key] = (plan.boards[key], game)
    ordered = sorted(placed.values(), key=lambda item: (item[1].round, item[0]))
    return dataclasses.replace(fixture, games=tuple(game for _, game in ordered))


def _why_not_scheduled(game: Game, plan: _Plan) -> str:
    """Why a game is not its round's scheduled pair, naming what the schedule has instead."""
    if not 1 <= game.round <= plan.size:
        return f"a team match of {plan.size} players has rounds 1-{plan.size}"
    for player in game.players():
        if (game.round, player) not in plan.games_of:
            return f"{player} is not in this fixture's line-ups"
    scheduled = plan.games_of[(game.round, game.home)]
    if {scheduled.home, scheduled.away} == {game.home, game.away}:
        return (f"home and away are the other way round: round {game.round} board {scheduled.board} is "
                f"{scheduled.home} v {scheduled.away}")
    partner = scheduled.away if scheduled.home == game.home else scheduled.home
    return (f"not a game of round {game.round}: it pairs {game.home} with {partner} (board {scheduled.board}: "
            f"{scheduled.home} v {scheduled.away})")

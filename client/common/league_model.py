"""A league as the client's screens show it, as plain data: a team match as a k × k grid of its games, the team
score, the league table's lines, the player's next game in words (pure: no arcade, no sockets).

Why a grid: a 5×5 team match is read at a club as a square - the home team's line-up down the side, the away team's
across the top, each square the game of those two players, filling with results round by round - with each player's
games won at the end of his row or column and the team score (games won by each team) above it. The square of A's
i-th player and B's j-th is played in round r = (j − i) mod k + 1 (TOURNAMENT.md: in round r Ai meets
B((i + r − 2) mod k + 1)); its score is shown A's goals first whichever player was at home in that round.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.common.i18n import _
from shared.protocol import FixtureLine, LeagueGameAssigned, LeagueGameLine, LeagueUpdate


@dataclass(frozen=True, slots=True, kw_only=True)
class Cell:
    """One square of the grid: its round, its text (A's goals first, or W/L by walkover), who won it (``home``: the
    home team's player, ``away``, ``draw``) and its state (``played``, ``playing``, ``waiting``, ``later``)."""

    round: int
    text: str
    winner: str | None
    state: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Grid:
    """A team match: the two teams' names, the line-ups' names (A down, B across), the k × k squares, each
    player's games won, the team score, the round being played and the referee team."""

    fixture: str
    home: str
    away: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]  # the away players' surnames (a square's width is too narrow for a whole name)
    cells: tuple[tuple[Cell, ...], ...]
    row_won: tuple[int, ...]
    column_won: tuple[int, ...]
    score: tuple[int, int]
    round: int
    size: int
    finished: bool
    referee: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TableLine:
    """A line of the league table as drawn."""

    rank: str
    team: str
    played: int
    record: str
    games: str
    points: int


def team_names(update: LeagueUpdate) -> dict[str, str]:
    """Team id -> name."""
    return {t.team: t.name for t in update.teams}


def day_fixtures(update: LeagueUpdate) -> tuple[FixtureLine, ...]:
    """The fixtures of the open day, in the file's order."""
    return tuple(f for f in update.fixtures if update.day and f.day == update.day)


def grid_of(update: LeagueUpdate, fixture: FixtureLine) -> Grid:
    """The fixture's grid (empty squares until both line-ups are in)."""
    teams = team_names(update)
    size = update.team_size
    home = fixture.lineup_home
    away = fixture.lineup_away
    games = {(g.round, g.board): g for g in fixture.games}
    cells: list[tuple[Cell, ...]] = []
    row_won = [0] * len(home)
    column_won = [0] * len(away)
    for i in range(len(home)):
        line = []
        for j in range(len(away)):
            number = (j - i) % size + 1
            cell = _cell(games.get((number, i + 1)), number, fixture.round)
            if cell.winner == "home":
                row_won[i] += 1
            elif cell.winner == "away":
                column_won[j] += 1
            line.append(cell)
        cells.append(tuple(line))
    return Grid(fixture=fixture.fixture, home=teams.get(fixture.home, fixture.home),
                away=teams.get(fixture.away, fixture.away),
                rows=tuple(update.names.get(p, p) for p in home),
                columns=tuple(surname(update.names.get(p, p)) for p in away),
                cells=tuple(cells), row_won=tuple(row_won), column_won=tuple(column_won),
                score=(fixture.team_score.home, fixture.team_score.away), round=fixture.round, size=size,
                finished=fixture.finished,
                referee=teams.get(fixture.referee_team, fixture.referee_team) if fixture.referee_team else "")


def surname(name: str) -> str:
    """A player's last name ("Jan Novák" -> "Novák"; a one-word name stays)."""
    return name.split()[-1] if name.split() else name


def _cell(game: LeagueGameLine | None, number: int, started: int) -> Cell:
    """A square from its game (A's player is at home in odd rounds)."""
    if game is None:
        return Cell(round=number, text="", winner=None, state="later" if number > started else "waiting")
    a_home = number % 2 == 1
    if game.walkover is not None:
        winner = "home" if (game.walkover == "home") == a_home else "away"
        return Cell(round=number, text=_("W") if winner == "home" else _("L"), winner=winner, state="played")
    if game.score is None:
        return Cell(round=number, text="", winner=None, state=game.status)
    a, b = (game.score.home, game.score.away) if a_home else (game.score.away, game.score.home)
    if game.status == "playing":
        return Cell(round=number, text=f"{a}:{b}", winner=None, state="playing")
    return Cell(round=number, text=f"{a}:{b}", winner="draw" if a == b else "home" if a > b else "away",
                state="played")


def table_lines(update: LeagueUpdate) -> tuple[TableLine, ...]:
    """The league table as drawn: a shared rank written 1=, the team's name, W-D-L, games for:against."""
    teams = team_names(update)
    return tuple(TableLine(rank=f"{r.rank}{'=' if r.shared else ''}", team=teams.get(r.team, r.team),
                           played=r.played, record=f"{r.wins}-{r.draws}-{r.losses}",
                           games=f"{r.games_for}:{r.games_against}", points=r.points) for r in update.table)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerLine:
    """A player's season line as drawn: his place in the contract's order, name, team, games and W-D-L."""

    place: int
    name: str
    team: str
    games: int
    record: str


def player_lines(update: LeagueUpdate) -> tuple[PlayerLine, ...]:
    """Every player's season line (most games won first, as the contract orders them)."""
    teams = team_names(update)
    return tuple(PlayerLine(place=i, name=update.names.get(p.player, p.player), team=teams.get(p.team, p.team),
                            games=p.games, record=f"{p.won}-{p.drawn}-{p.lost}")
                 for i, p in enumerate(update.players, start=1))


def match_heading(grid: Grid) -> str:
    """"BHC Most 12 : 7 SK Brno"."""
    return f"{grid.home}  {grid.score[0]} : {grid.score[1]}  {grid.away}"


def match_state(grid: Grid) -> str:
    """Where the team match is: its round of k, or finished; with the referee team."""
    if grid.finished:
        state = _("Finished")
    elif grid.round:
        state = _("Round {n} of {k}").format(n=grid.round, k=grid.size)
    elif grid.rows:
        state = _("Line-ups in")
    else:
        state = _("Waiting for the line-ups")
    return state + ("  ·  " + _("referee: {team}").format(team=grid.referee) if grid.referee else "")


def assignment_words(message: LeagueGameAssigned) -> str:
    """"Round 2 of Most–Brno: you play Novák, board 3"."""
    return _("Round {n} of {home}–{away}: you play {opponent}, board {board}").format(
        n=message.round, home=message.home_team, away=message.away_team, opponent=message.opponent,
        board=message.board)

"""The league file of TOURNAMENT.md "Team competitions" as immutable typed values, every default filled in.

Why typed and frozen, as the tournament's values: the server will keep a league in this form, so a value
must never change under a reader's feet, and two files that mean the same thing must be equal values (the
reader lists each fixture's games in the order of its schedule; ``writing`` then gives the same bytes).
Field names and defaults are the contract's: ``team_size`` 5, points 2/1/0, ruleset ``standard``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.league.errors import LeagueError
from shared.tournament.model import Points, Side

FORMAT = "sprtec-league/1"
TEAM_MATCH_FORMAT = "sprtec-team-match/1"
TABLE_FORMAT = "sprtec-league-table/1"

LEAGUE_POINTS = Points(win=2, draw=1, loss=0)


@dataclass(frozen=True, kw_only=True, slots=True)
class LeagueSettings:
    """The league's numbers: players in a line-up (k), points of a fixture, the ruleset of every game."""

    team_size: int = 5
    points: Points = LEAGUE_POINTS
    ruleset: str = "standard"


@dataclass(frozen=True, kw_only=True, slots=True)
class Player:
    """A player of a team's roster: ``id`` (1-32 of ``[A-Za-z0-9_-]``, unique in the file), ``name`` shown."""

    id: str
    name: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Team:
    """A club team and its roster (the players it may name in a line-up)."""

    id: str
    name: str
    club: str = ""
    players: tuple[Player, ...] = ()

    def player_ids(self) -> tuple[str, ...]:
        """The roster's ids in its order."""
        return tuple(p.id for p in self.players)


@dataclass(frozen=True, kw_only=True, slots=True)
class Lineups:
    """The two line-ups of a fixture in board order, each None until its team has given it."""

    home: tuple[str, ...] | None = None
    away: tuple[str, ...] | None = None

    @property
    def complete(self) -> bool:
        """True once both teams have given their line-up (the schedule exists)."""
        return self.home is not None and self.away is not None

    def of(self, side: Side) -> tuple[str, ...] | None:
        """The home or the away team's line-up."""
        return self.home if side == "home" else self.away


@dataclass(frozen=True, kw_only=True, slots=True)
class Game:
    """One individual match of a team match: its round, its players and, once known, its result.

    ``home`` and ``away`` are the game's own sides (A's player is home in odd rounds, B's in even ones);
    ``score`` is [home goals, away goals], ``walkover`` the side that wins by walkover. With neither the
    game is still being played.
    """

    round: int
    home: str
    away: str
    score: tuple[int, int] | None = None
    walkover: Side | None = None

    @property
    def finished(self) -> bool:
        """True once the game has a result (a score or a walkover)."""
        return self.score is not None or self.walkover is not None

    @property
    def winning_side(self) -> Side | None:
        """The side that won (by walkover or by the score); None for a draw or a game still being played."""
        if self.walkover is not None:
            return self.walkover
        if self.score is None or self.score[0] == self.score[1]:
            return None
        return "home" if self.score[0] > self.score[1] else "away"

    @property
    def winner(self) -> str | None:
        """The winner's id; None for a draw or a game still being played."""
        side = self.winning_side
        return None if side is None else (self.home if side == "home" else self.away)

    def players(self) -> tuple[str, str]:
        """Home and away."""
        return (self.home, self.away)


@dataclass(frozen=True, kw_only=True, slots=True)
class Fixture:
    """A team match: the home team (A) against the away team (B) on a match day, supervised by
    ``referee_team`` (the idle team of a three-team day), with its line-ups and the games played so far."""

    id: str
    day: int
    home: str
    away: str
    referee_team: str | None = None
    lineups: Lineups = field(default_factory=Lineups)
    games: tuple[Game, ...] = ()

    @property
    def finished(self) -> bool:
        """True when all k² games have a result (k the line-ups' length)."""
        if self.lineups.home is None or self.lineups.away is None:
            return False
        size = len(self.lineups.home)
        return size > 0 and sum(1 for g in self.games if g.finished) == size * size

    def team_of(self, player: str) -> str:
        """The team (home or away) whose line-up names ``player`` (KeyError when neither does)."""
        if self.lineups.home is not None and player in self.lineups.home:
            return self.home
        if self.lineups.away is not None and player in self.lineups.away:
            return self.away
        raise KeyError(player)


@dataclass(frozen=True, kw_only=True, slots=True)
class League:
    """A whole league file: its settings, its teams with their rosters, its fixtures in the file's order."""

    format: str = FORMAT
    name: str = ""
    season: int | None = None
    seed: int = 0
    settings: LeagueSettings = field(default_factory=LeagueSettings)
    teams: tuple[Team, ...] = ()
    fixtures: tuple[Fixture, ...] = ()

    def team(self, team_id: str) -> Team:
        """The team with this id (KeyError when there is none)."""
        for t in self.teams:
            if t.id == team_id:
                return t
        raise KeyError(team_id)

    def fixture(self, fixture_id: str) -> Fixture:
        """The fixture with this id; ``UNKNOWN_FIXTURE`` when the file has none."""
        for f in self.fixtures:
            if f.id == fixture_id:
                return f
        known = ", ".join(f.id for f in self.fixtures) or "none"
        raise LeagueError("UNKNOWN_FIXTURE", f"there is no fixture {fixture_id!r} (the file's fixtures: {known})")

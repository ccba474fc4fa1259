"""A fixture's team score and the points it gives each team.

Why by rounds' parity and not by the game's side: a game's home is A's player in odd rounds and B's in even
ones (TOURNAMENT.md "Team competitions"), so a game won by its home side is a game for the home team in odd
rounds and for the away team in even rounds. The team score is the number of individual matches each team
won: a draw counts for neither, a walkover win counts (e.g. 12:7). The fixture's points (2/1/0 by default)
compare the two numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.league.model import Fixture, Game
from shared.tournament.model import Points, Side


@dataclass(frozen=True, kw_only=True, slots=True)
class TeamScore:
    """Individual matches won by the home team (A) and by the away team (B)."""

    home: int
    away: int


def winning_team_side(game: Game) -> Side | None:
    """Which team of the fixture won this game (home: team A, away: team B); None for a draw or no result."""
    side = game.winning_side
    if side is None:
        return None
    a_is_home = game.round % 2 == 1
    return "home" if (side == "home") == a_is_home else "away"


def team_score(fixture: Fixture) -> TeamScore:
    """The fixture's team score from the games with a result so far (final once the fixture is finished)."""
    home = away = 0
    for game in fixture.games:
        side = winning_team_side(game)
        if side == "home":
            home += 1
        elif side == "away":
            away += 1
    return TeamScore(home=home, away=away)


def fixture_points(fixture: Fixture, points: Points) -> tuple[int, int]:
    """The points of the home and the away team, comparing their team scores (meant for a finished fixture)."""
    score = team_score(fixture)
    if score.home == score.away:
        return (points.draw, points.draw)
    return (points.win, points.loss) if score.home > score.away else (points.loss, points.win)

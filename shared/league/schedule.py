"""The schedule of a team match: k rounds (směny) of k individual matches from the two line-ups.

Why a rotation: with the line-ups A1…Ak and B1…Bk, in round r player Ai meets B((i + r − 2) mod k + 1)
(TOURNAMENT.md "Team competitions"), so over the k rounds every player meets each opponent exactly once
("5×5": 25 matches). A's player is home in odd rounds and B's in even rounds, so each player is home about
half the time. Board i is the game of A's i-th player in every round. ``sprtec league games`` prints this
as ``sprtec-team-match/1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.league.errors import LeagueError
from shared.league.model import TEAM_MATCH_FORMAT, Fixture, League


@dataclass(frozen=True, kw_only=True, slots=True)
class Board:
    """One scheduled game: its board (A's player's place in his line-up) and its home and away player."""

    board: int
    home: str
    away: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ScheduledRound:
    """The k games of one round, board 1 first."""

    round: int
    games: tuple[Board, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class TeamMatch:
    """A fixture's whole schedule: the fixture, its two teams and its k rounds."""

    fixture: str
    home: str
    away: str
    rounds: tuple[ScheduledRound, ...]


def opponent_index(board: int, round_number: int, size: int) -> int:
    """The place (1…k) in B's line-up of A's ``board``-th player's opponent in round ``round_number``."""
    return (board + round_number - 2) % size + 1


def schedule(lineup_home: Sequence[str], lineup_away: Sequence[str]) -> tuple[ScheduledRound, ...]:
    """The k rounds of a team match between line-ups A (the home team's) and B, each of k players."""
    size = len(lineup_home)
    if len(lineup_away) != size:
        raise ValueError(f"line-ups of {size} and {len(lineup_away)} players: a team match needs two of k")
    rounds: list[ScheduledRound] = []
    for number in range(1, size + 1):
        games: list[Board] = []
        for board in range(1, size + 1):
            a = lineup_home[board - 1]
            b = lineup_away[opponent_index(board, number, size) - 1]
            home, away = (a, b) if number % 2 == 1 else (b, a)
            games.append(Board(board=board, home=home, away=away))
        rounds.append(ScheduledRound(round=number, games=tuple(games)))
    return tuple(rounds)


def fixture_schedule(fixture: Fixture) -> tuple[ScheduledRound, ...]:
    """The schedule of a fixture; ``ROUND_ORDER`` while a line-up is still missing (there is none yet)."""
    home, away = fixture.lineups.home, fixture.lineups.away
    if home is None or away is None:
        missing = [f"{side} ({team})" for side, team, lineup in
                   (("home", fixture.home, home), ("away", fixture.away, away)) if lineup is None]
        which = (f"the line-ups of {' and '.join(missing)} are" if len(missing) == 2
                 else f"the line-up of {missing[0]} is")
        raise LeagueError("ROUND_ORDER", f"fixture {fixture.id}: no schedule yet, {which} not given")
    return schedule(home, away)


def team_match(league: League, fixture_id: str) -> TeamMatch:
    """The schedule ``sprtec league games FILE --fixture ID`` prints (``UNKNOWN_FIXTURE``, ``ROUND_ORDER``)."""
    fixture = league.fixture(fixture_id)
    return TeamMatch(fixture=fixture.id, home=fixture.home, away=fixture.away, rounds=fixture_schedule(fixture))


def to_json(match: TeamMatch) -> dict[str, Any]:
    """The ``sprtec-team-match/1`` object, keys in the contract's order."""
    return {
        "format": TEAM_MATCH_FORMAT,
        "fixture": match.fixture,
        "home": match.home,
        "away": match.away,
        "rounds": [
            {"round": r.round, "games": [{"board": g.board, "home": g.home, "away": g.away} for g in r.games]}
            for r in match.rounds
        ],
    }

"""The league table: finished fixtures only, ranked by points, team-score difference, games won, mini-table.

Why "applied once": TOURNAMENT.md ranks teams by points; then the difference of team scores (``games_for``
− ``games_against``); then ``games_for``; then the points of the fixtures between the teams still level after
those three (a mini-table), which is not applied again to a subgroup still level after it; still equal, the
teams share a rank, written as the first place of the group with ``shared`` on each (the standings'
convention, ``shared.tournament.table.tiers_of``). Teams sharing a rank are listed by team id, so the table
depends on the fixtures' results only, never on the order of teams, fixtures or games in the file. Every team
of the file has a row, ``played`` 0 before its first finished fixture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.league.model import TABLE_FORMAT, Fixture, League
from shared.league.players import PlayerLine, player_lines
from shared.league.score import fixture_points, team_score
from shared.tournament.model import Points
from shared.tournament.table import tiers_of


@dataclass(frozen=True, kw_only=True, slots=True)
class TableRow:
    """One team's row of the table, fields in the contract's order."""

    rank: int
    shared: bool
    team: str
    played: int
    wins: int
    draws: int
    losses: int
    games_for: int
    games_against: int
    points: int


@dataclass(kw_only=True, slots=True)
class _Count:
    """One team's counts (built up while counting, then read)."""

    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games_for: int = 0
    games_against: int = 0
    points: int = 0


def finished_fixtures(league: League) -> tuple[Fixture, ...]:
    """The fixtures the table counts: those whose k² games all have a result."""
    return tuple(f for f in league.fixtures if f.finished)


def table(league: League) -> tuple[TableRow, ...]:
    """Every team's row, best first."""
    fixtures = finished_fixtures(league)
    points = league.settings.points
    counts = {team.id: _Count() for team in league.teams}
    for fixture in fixtures:
        _count(fixture, counts, points)
    level: dict[tuple[int, int, int], list[str]] = {}
    for team, c in counts.items():
        level.setdefault((c.points, c.games_for - c.games_against, c.games_for), []).append(team)
    mini: dict[str, int] = {}
    for group in level.values():
        mini.update(mini_points(group, fixtures, points))
    criteria = {
        team: (c.points, c.games_for - c.games_against, c.games_for, mini[team]) for team, c in counts.items()
    }
    ordered = sorted(counts, key=lambda team: (tuple(-value for value in criteria[team]), team))
    rows: list[TableRow] = []
    for tier in tiers_of(ordered, criteria):
        rank = len(rows) + 1
        for team in tier:
            c = counts[team]
            rows.append(TableRow(rank=rank, shared=len(tier) > 1, team=team, played=c.played, wins=c.wins,
                                 draws=c.draws, losses=c.losses, games_for=c.games_for,
                                 games_against=c.games_against, points=c.points))
    return tuple(rows)


def _count(fixture: Fixture, counts: dict[str, _Count], points: Points) -> None:
    """Add one finished fixture to both teams' counts."""
    score = team_score(fixture)
    home_points, away_points = fixture_points(fixture, points)
    for team, won, lost, got in ((fixture.home, score.home, score.away, home_points),
                                 (fixture.away, score.away, score.home, away_points)):
        c = counts[team]
        c.played += 1
        c.games_for += won
        c.games_against += lost
        c.points += got
        if won > lost:
            c.wins += 1
        elif won < lost:
            c.losses += 1
        else:
            c.draws += 1


def mini_points(group: Sequence[str], fixtures: Sequence[Fixture], points: Points) -> dict[str, int]:
    """Each team's points from the finished fixtures between teams of ``group`` only (0 for a team alone)."""
    out = dict.fromkeys(group, 0)
    if len(group) < 2:
        return out
    for fixture in fixtures:
        if fixture.home in out and fixture.away in out:
            home_points, away_points = fixture_points(fixture, points)
            out[fixture.home] += home_points
            out[fixture.away] += away_points
    return out


def to_json(rows: Sequence[TableRow], lines: Sequence[PlayerLine]) -> dict[str, Any]:
    """The ``sprtec-league-table/1`` object: the table's rows and the players' lines, keys in the contract's
    order."""
    return {
        "format": TABLE_FORMAT,
        "table": [
            {"rank": r.rank, "shared": r.shared, "team": r.team, "played": r.played, "wins": r.wins,
             "draws": r.draws, "losses": r.losses, "games_for": r.games_for, "games_against": r.games_against,
             "points": r.points}
            for r in rows
        ],
        "players": [
            {"player": p.player, "team": p.team, "games": p.games, "won": p.won, "drawn": p.drawn, "lost": p.lost}
            for p in lines
        ],
    }


def league_table_json(league: League) -> dict[str, Any]:
    """What ``sprtec league table FILE`` prints for a league."""
    return to_json(table(league), player_lines(league))

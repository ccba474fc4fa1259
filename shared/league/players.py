"""Each player's games in the league: the ``players`` lines of ``sprtec league table``.

Why over finished fixtures only, as the table: the lines and the table describe the same moment, so the
games a team's players won add up to its ``games_for`` (TOURNAMENT.md "Team competitions": the table counts
finished fixtures only). A walkover counts as a game won or lost; a draw as drawn. The lines are ordered by
games won (most first), then fewer games, then player id.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.league.model import League


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerLine:
    """One player's line, fields in the contract's order."""

    player: str
    team: str
    games: int
    won: int
    drawn: int
    lost: int


@dataclass(kw_only=True, slots=True)
class _Count:
    """One player's counts (built up while counting, then read)."""

    team: str
    games: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0


def player_lines(league: League) -> tuple[PlayerLine, ...]:
    """Every player named in a game of a finished fixture, best first."""
    counts: dict[str, _Count] = {}
    for fixture in league.fixtures:
        if not fixture.finished:
            continue
        for game in fixture.games:
            winner = game.winner
            for player in game.players():
                c = counts.setdefault(player, _Count(team=fixture.team_of(player)))
                c.games += 1
                if winner is None:
                    c.drawn += 1
                elif winner == player:
                    c.won += 1
                else:
                    c.lost += 1
    ordered = sorted(counts.items(), key=lambda item: (-item[1].won, item[1].games, item[0]))
    return tuple(PlayerLine(player=player, team=c.team, games=c.games, won=c.won, drawn=c.drawn, lost=c.lost)
                 for player, c in ordered)

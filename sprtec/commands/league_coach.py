"""A headless player of a league: takes his roster place with its code, gives his team's line-ups when he is its
captain, and plays every game he is assigned, until the match days being played are over.

Why the tournament coach's loop (``tournament_coach.play``): playing the rooms one is sent to, keeping one identity
across reconnections, is the same; only the league's messages differ - ``JoinLeague`` instead of an entry, a
``LeagueGameAssigned`` instead of a ``TableAssigned``, and a captain's ``SubmitLineup`` for each fixture of the open
day whose line-up his team has not given (its first k roster players, in the roster's order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from shared.protocol import (
    ClientMessage,
    JoinLeague,
    LeagueGameAssigned,
    LeagueJoined,
    LeagueUpdate,
    SubmitLineup,
    WatchLeague,
    Welcome,
)
from sprtec.commands.tournament_coach import CoachOptions, go_to, play, say


@dataclass
class PlayerReport:
    """What the player did: his roster place, his team, whether he captains it, the matches he played, the last
    update."""

    player: str = ""
    team: str = ""
    captain: bool = False
    matches: list[str] = field(default_factory=list)
    lineups: list[str] = field(default_factory=list)  # the fixtures whose line-up he gave
    last: LeagueUpdate | None = None


class _League:
    """A league's program for one roster player."""

    def __init__(self, league: str, options: CoachOptions, report: PlayerReport,
                 over: Callable[[LeagueUpdate], bool]) -> None:
        self.league = league
        self.options = options
        self.report = report
        self._over = over

    def on(self, message: object, room: str | None) -> list[ClientMessage]:
        """What the league's messages call for."""
        lid, report = self.league, self.report
        if isinstance(message, Welcome):
            if not report.player and self.options.code is not None:
                return [JoinLeague(lid, self.options.code), WatchLeague(lid)]
            return [WatchLeague(lid)]
        if isinstance(message, LeagueJoined) and message.league == lid:
            report.player, report.team, report.captain = message.player, message.team, message.captain
        if isinstance(message, LeagueUpdate) and message.league == lid:
            report.last = message
            return self._lineups(message)
        if isinstance(message, LeagueGameAssigned) and message.league == lid:
            say(self.options, f"round {message.round} of {message.home_team} - {message.away_team}: you play "
                              f"{message.opponent}, board {message.board} (room {message.room})")
            return go_to(room, message.room)
        return []

    def _lineups(self, update: LeagueUpdate) -> list[ClientMessage]:
        """A captain's line-ups for the open day's fixtures of his team not given yet."""
        report = self.report
        if not report.captain:
            return []
        roster = next((t.players for t in update.teams if t.team == report.team), ())
        out: list[ClientMessage] = []
        for f in update.fixtures:
            given = f.lineup_home_in if f.home == report.team else f.lineup_away_in
            if f.day != update.day or report.team not in (f.home, f.away) or given or f.round or \
                    f.fixture in report.lineups:
                continue
            report.lineups.append(f.fixture)
            out.append(SubmitLineup(league=self.league, fixture=f.fixture, players=roster[:update.team_size]))
        return out

    def over(self) -> bool:
        """The match days being played are over."""
        return self.report.last is not None and self._over(self.report.last)


async def league_player(url: str, league: str, options: CoachOptions, over: Callable[[LeagueUpdate], bool],
                        give_up_s: float = 120.0, others: tuple[str, ...] = ()) -> PlayerReport:
    """Play one roster player's games of ``league`` until ``over`` says the days are over (``others``: more nodes of
    the same cluster, tried when the one in use cannot be reached); returns what he did."""
    report = PlayerReport()
    await play(url, options, _League(league, options, report, over), report.matches, give_up_s, others)
    return report

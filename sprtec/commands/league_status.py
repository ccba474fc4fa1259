"""``sprtec league status``: a league's open day and its table as text, from one LeagueUpdate.

Why text from the update alone (as ``tournament_status``): a LeagueUpdate carries the fixtures with their line-ups
(once both are in), games, team scores and points, and the table, so the terminal view is a pure function of it.
"""

from __future__ import annotations

from shared.protocol import FixtureLine, LeagueUpdate
from sprtec.commands.tournament_status import columns


def render(update: LeagueUpdate) -> str:
    """The header, the open day's fixtures with their games, every fixture's line, the table."""
    teams = {t.team: t.name for t in update.teams}
    lines = [f"{update.name or update.league} [{update.league}] - " +
             (f"match day {update.day}" if update.day else "no match day open yet")]
    for f in update.fixtures:
        if f.day == update.day:
            lines += ["", _heading(f, teams)]
            lines += columns(("round", "board", "home", "score", "away", "status"),
                             [[str(g.round), str(g.board), update.names.get(g.home, g.home),
                               "" if g.score is None else f"{g.score.home}:{g.score.away}",
                               update.names.get(g.away, g.away),
                               g.status if g.walkover is None else f"walkover {g.walkover}"] for g in f.games])
    lines += ["", "Fixtures"]
    lines += columns(("fixture", "day", "home", "score", "away", "points", "referee"),
                     [[f.fixture, str(f.day), teams.get(f.home, f.home), f"{f.team_score.home}:{f.team_score.away}",
                       teams.get(f.away, f.away), "" if f.points is None else f"{f.points.home}:{f.points.away}",
                       teams.get(f.referee_team, f.referee_team) if f.referee_team else ""] for f in update.fixtures])
    lines += ["", "Table"]
    lines += columns(("#", "team", "pl", "W-D-L", "games", "pts"),
                     [[str(r.rank) + ("=" if r.shared else ""), teams.get(r.team, r.team), str(r.played),
                       f"{r.wins}-{r.draws}-{r.losses}", f"{r.games_for}:{r.games_against}", str(r.points)]
                      for r in update.table])
    return "\n".join(lines) + "\n"


def _heading(f: FixtureLine, teams: dict[str, str]) -> str:
    """A fixture of the open day: its teams, team score, round and line-ups' state."""
    home, away = teams.get(f.home, f.home), teams.get(f.away, f.away)
    state = "finished" if f.finished else (f"round {f.round}" if f.round else
                                          "line-ups " + ("in" if f.lineup_home_in and f.lineup_away_in else
                                                         f"{int(f.lineup_home_in) + int(f.lineup_away_in)} of 2 in"))
    return f"{home} - {away}  {f.team_score.home}:{f.team_score.away}  ({state})"

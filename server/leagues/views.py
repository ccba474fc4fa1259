"""What watchers see of a league: a ``LeagueUpdate`` built from its state and its tables' live play.

Why pure (as ``server.tournaments.views``): the caller passes the live facts and the time. A fixture's line-ups are
shown only once both are in (``state.shown_lineups``: a captain must not see the other team's order before he gives
his own), and the games of the open day's fixtures come with their live status; the table is the engine's
(``shared.league.table``: finished fixtures only), so it is what ``sprtec league table`` prints of the exported file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from server.leagues.state import GameKey, LeagueState, rounds_started, shown_lineups
from server.tournaments.views import LiveTable, played
from shared.league.model import Fixture
from shared.league.players import player_lines
from shared.league.score import fixture_points, team_score
from shared.league.table import finished_fixtures, table
from shared.protocol import (
    FixtureLine,
    LeagueGameLine,
    LeagueInfo,
    LeaguePlayerLine,
    LeagueTableRow,
    LeagueTeamLine,
    LeagueUpdate,
    RoomInfo,
    Score,
)

RoomInfoOf = Callable[[str], RoomInfo | None]  # a live room's line (score, part, clocks), None when not played here


def _no_rooms(_code: str) -> RoomInfo | None:
    """No room is played here."""
    return None


def update(state: LeagueState, *, sequence: int, live: Mapping[str, LiveTable], now_ms: int,
           room_info: RoomInfoOf = _no_rooms) -> LeagueUpdate:
    """The league's update now (a game played here with its part and the part's time left)."""
    league = state.league
    teams = tuple(LeagueTeamLine(
        team=t.id, name=t.name[:100], club=t.club[:100], captain=state.captains.get(t.id),
        players=t.player_ids()[:64], names=tuple(p.name[:64] for p in t.players)[:64],
        claimed=tuple(p.id in state.coaches for p in t.players)[:64]) for t in league.teams)
    names = {p.id: p.name[:64] for t in league.teams for p in t.players}
    return LeagueUpdate(
        league=state.id, name=league.name[:100], sequence=sequence, version=state.version, day=state.day,
        team_size=league.settings.team_size, names=names, teams=teams,
        fixtures=tuple(fixture_line(state, f, live, now_ms, room_info) for f in league.fixtures),
        table=tuple(LeagueTableRow(rank=r.rank, shared=r.shared, team=r.team, played=r.played, wins=r.wins,
                                   draws=r.draws, losses=r.losses, games_for=r.games_for,
                                   games_against=r.games_against, points=r.points) for r in table(league)),
        players=tuple(LeaguePlayerLine(player=p.player, team=p.team, games=p.games, won=p.won, drawn=p.drawn,
                                       lost=p.lost) for p in player_lines(league)))


def fixture_line(state: LeagueState, f: Fixture, live: Mapping[str, LiveTable], now_ms: int,
                 room_info: RoomInfoOf = _no_rooms) -> FixtureLine:
    """One fixture as watchers see it (its games when it is of the open day)."""
    shown = shown_lineups(f)
    score = team_score(f)
    points = None
    if f.finished:
        home, away = fixture_points(f, state.league.settings.points)
        points = Score(home, away)
    started = rounds_started(f)
    games = _games(state, f, live, now_ms, room_info) if f.day == state.day else ()
    return FixtureLine(
        fixture=f.id, day=f.day, home=f.home, away=f.away, referee_team=f.referee_team,
        lineup_home_in=f.lineups.home is not None, lineup_away_in=f.lineups.away is not None,
        lineup_home=shown.home or (), lineup_away=shown.away or (), round=started,
        on_boards=(f.id, started) in state.boards, team_score=Score(score.home, score.away), finished=f.finished,
        points=points, games=games)


def _games(state: LeagueState, f: Fixture, live: Mapping[str, LiveTable], now_ms: int,
           room_info: RoomInfoOf) -> tuple[LeagueGameLine, ...]:
    """A fixture's games so far, round by round, board 1 first."""
    size = state.league.settings.team_size
    out = []
    for index, g in enumerate(f.games):
        key: GameKey = (f.id, g.round, index % size + 1)
        table = state.tables.get(key)
        source = state.sources.get(key, "")
        if g.walkover is not None:
            out.append(LeagueGameLine(round=g.round, board=key[2], home=g.home, away=g.away, status="walkover",
                                      walkover=g.walkover, source=source))
        elif g.score is not None:
            out.append(LeagueGameLine(round=g.round, board=key[2], home=g.home, away=g.away, status="ended",
                                      score=Score(*g.score), source=source))
        elif table is not None and live.get(table.room, LiveTable()).started:
            out.append(_playing(g.round, key[2], g.home, g.away, table.room, live[table.room], room_info))
        else:
            left = None if table is None else max(0, table.opened_at_ms + state.no_show_ms - now_ms)
            out.append(LeagueGameLine(round=g.round, board=key[2], home=g.home, away=g.away, status="waiting",
                                      room=None if table is None else table.room, no_show_ms=left))
    return tuple(out)


def _playing(number: int, board: int, home: str, away: str, room: str, seen: LiveTable,
             room_info: RoomInfoOf) -> LeagueGameLine:
    """A game being played: its live score and, when its room is played here, its part and the part's time left
    (``server.tournaments.views.played``, as a tournament's table shows it)."""
    return LeagueGameLine(round=number, board=board, home=home, away=away, status="playing", room=room,
                          **played(seen, room_info(room)))


def info_of(state: LeagueState) -> LeagueInfo:
    """The league's line in the list of leagues."""
    league = state.league
    return LeagueInfo(league=state.id, name=league.name[:100], season=league.season, day=state.day,
                      teams=len(league.teams), fixtures=len(league.fixtures),
                      finished=len(finished_fixtures(league)))

"""Reading a league file (a JSON value) into a ``League``, with the contract's defaults, checks and error codes.

Why strict, as the tournament reader: a league file comes from organisers' scripts, other programs and the
network, so it is hostile until checked, and an unknown field is ``BAD_FORMAT`` naming it (a misspelt
``team_sise`` cannot fall back to 5 silently). The JSON values are checked by the tournament reader's own
helpers, so both files refuse the same things in the same words; their ``TournamentError`` becomes a
``LeagueError`` here. The order: the file's shape (JSON, fields, types, ids; ``DUPLICATE_PLAYER`` for a player
id on two rosters), then every line-up, then each fixture's games, each read (a malformed score or walkover
is ``BAD_RESULT``) and then checked against the schedule (``checks``). Every message names the item.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from shared.league.checks import check_games, check_lineups
from shared.league.errors import LeagueError, from_tournament
from shared.league.model import FORMAT, Fixture, Game, League, LeagueSettings, Lineups, Player, Team
from shared.rulesets import SettingsError, make_settings
from shared.tournament.errors import TournamentError
from shared.tournament.model import SIDES, Points
from shared.tournament.reading import (
    PLAYER_ID,
    _array,
    _integer,
    _kind,
    _object,
    _only,
    _pair_of_goals,
    _require,
    _shown,
    _side,
    _string,
)
from shared.tournament.reading import loads as tournament_loads

T = TypeVar("T")
_TOP = ("format", "name", "season", "seed", "settings", "teams", "fixtures")
_FIXTURE = ("id", "day", "home", "away", "referee_team", "lineups", "games")
_GAME = ("round", "home", "away", "score", "walkover")


def loads(data: bytes | str) -> Any:
    """The JSON value of ``data``; not JSON, a repeated key, NaN or Infinity is ``BAD_FORMAT``."""
    return _guarded(tournament_loads, data)


def parse(data: bytes | str) -> League:
    """A league read from the bytes or text of a file."""
    return read_league(loads(data))


def read_league(value: Any) -> League:
    """A league from a JSON value, every default of TOURNAMENT.md filled in; raises ``LeagueError``."""
    league, raw_games = _guarded(_shape, value)
    check_lineups(league)
    known = {p.id for team in league.teams for p in team.players}
    fixtures = []
    for fixture, raw in zip(league.fixtures, raw_games, strict=True):
        games = _guarded(_games, raw, f"fixture {fixture.id}")
        fixtures.append(check_games(dataclasses.replace(fixture, games=games), known))
    return dataclasses.replace(league, fixtures=tuple(fixtures))


def _guarded(read: Callable[..., T], *args: Any) -> T:
    """``read(*args)``, a tournament value check's error turned into the league's."""
    try:
        return read(*args)
    except TournamentError as exc:
        raise from_tournament(exc) from None


# ------------------------------------------------------------------------------------------------ the shape


def _shape(value: Any) -> tuple[League, list[list[Any]]]:
    """Everything but the games, which are returned unread, one list per fixture."""
    top = _object(value, "the file")
    _only(top, _TOP, "the file")
    if top.get("format", FORMAT) != FORMAT:
        raise LeagueError("BAD_FORMAT", f"format: expected {FORMAT!r}, not {_shown(top['format'])}")
    name = _string(top.get("name", ""), "name")
    season = None if top.get("season") is None else _integer(top["season"], "season")
    seed = _integer(top.get("seed", 0), "seed")
    settings = _settings(top.get("settings", {}))
    teams = _teams(top.get("teams", []))
    fixtures, raw_games = _fixtures(top.get("fixtures", []), {t.id for t in teams})
    league = League(format=FORMAT, name=name, season=season, seed=seed, settings=settings, teams=teams,
                    fixtures=fixtures)
    return league, raw_games


def _settings(raw: Any) -> LeagueSettings:
    """``team_size`` (default 5), ``points`` (default 2/1/0) and ``ruleset`` (default ``standard``)."""
    obj = _object(raw, "settings")
    _only(obj, ("team_size", "points", "ruleset"), "settings")
    team_size = _integer(obj.get("team_size", 5), "settings.team_size", minimum=1)
    raw_points = _object(obj.get("points", {}), "settings.points")
    _only(raw_points, ("win", "draw", "loss"), "settings.points")
    default = LeagueSettings().points
    points = Points(
        win=_integer(raw_points.get("win", default.win), "settings.points.win"),
        draw=_integer(raw_points.get("draw", default.draw), "settings.points.draw"),
        loss=_integer(raw_points.get("loss", default.loss), "settings.points.loss"),
    )
    ruleset = _string(obj.get("ruleset", "standard"), "settings.ruleset")
    try:
        make_settings(ruleset)
    except SettingsError as exc:
        raise LeagueError("BAD_FORMAT", f"settings.ruleset: {exc}") from None
    return LeagueSettings(team_size=team_size, points=points, ruleset=ruleset)


def _teams(raw: Any) -> tuple[Team, ...]:
    """The teams and their rosters; a team id used twice is ``BAD_FORMAT``, a player id ``DUPLICATE_PLAYER``."""
    teams: list[Team] = []
    team_of: dict[str, str] = {}
    for index, item in enumerate(_array(raw, "teams")):
        where = f"teams[{index}]"
        obj = _object(item, where)
        _only(obj, ("id", "name", "club", "players"), where)
        tid = _identifier(obj, where, "a team")
        if any(t.id == tid for t in teams):
            raise LeagueError("BAD_FORMAT", f"{where}: the team id {tid} is used by two teams")
        players: list[Player] = []
        for place, entry in enumerate(_array(obj.get("players", []), f"{where}.players ({tid})")):
            at = f"{where}.players[{place}] ({tid})"
            player = _player(entry, at)
            if player.id in team_of:
                raise LeagueError("DUPLICATE_PLAYER", f"{at}: the id {player.id} is used by two players (one of "
                                                      f"team {team_of[player.id]})")
            team_of[player.id] = tid
            players.append(player)
        teams.append(Team(id=tid, name=_name(obj, where, tid), club=_string(obj.get("club", ""), f"{where}.club"),
                          players=tuple(players)))
    return tuple(teams)


def _player(raw: Any, where: str) -> Player:
    """``{"id", "name"}``, both required."""
    obj = _object(raw, where)
    _only(obj, ("id", "name"), where)
    pid = _identifier(obj, where, "a player")
    return Player(id=pid, name=_name(obj, where, pid))


def _fixtures(raw: Any, teams: set[str]) -> tuple[tuple[Fixture, ...], list[list[Any]]]:
    """The fixtures in the file's order (their games unread) and each fixture's games array."""
    fixtures: list[Fixture] = []
    raw_games: list[list[Any]] = []
    for index, item in enumerate(_array(raw, "fixtures")):
        where = f"fixtures[{index}]"
        obj = _object(item, where)
        _only(obj, _FIXTURE, where)
        fid = _identifier(obj, where, "a fixture")
        if any(f.id == fid for f in fixtures):
            raise LeagueError("BAD_FORMAT", f"{where}: the fixture id {fid} is used by two fixtures")
        where = f"fixture {fid}"
        _require(obj, ("day", "home", "away"), where)
        home = _team(obj["home"], f"{where}: home", teams)
        away = _team(obj["away"], f"{where}: away", teams)
        if home == away:
            raise LeagueError("BAD_FORMAT", f"{where}: {home} cannot play against itself")
        referee = None if obj.get("referee_team") is None else _team(obj["referee_team"], f"{where}: referee_team",
                                                                      teams)
        if referee in (home, away):
            raise LeagueError("BAD_FORMAT", f"{where}: the referee team {referee} plays in this fixture")
        fixtures.append(Fixture(id=fid, day=_integer(obj["day"], f"{where}: day", minimum=1), home=home, away=away,
                                referee_team=referee, lineups=_lineups(obj.get("lineups"), where)))
        raw_games.append(_array(obj.get("games", []), f"{where}: games"))
    return tuple(fixtures), raw_games


def _lineups(raw: Any, where: str) -> Lineups:
    """``{"home": [ids], "away": [ids]}``; a missing or null line-up is not given yet."""
    if raw is None:
        return Lineups()
    obj = _object(raw, f"{where}: lineups")
    _only(obj, SIDES, f"{where}: lineups")
    home, away = (None if obj.get(side) is None else _lineup(obj[side], f"{where}: lineups.{side}") for side in SIDES)
    return Lineups(home=home, away=away)


def _lineup(raw: Any, where: str) -> tuple[str, ...]:
    """An array of player ids (whose players ``checks`` then checks)."""
    return tuple(_player_id(value, f"{where}[{index}]") for index, value in enumerate(_array(raw, where)))


# ------------------------------------------------------------------------------------------------ the games


def _games(raw: list[Any], where: str) -> tuple[Game, ...]:
    """A fixture's games in the file's order."""
    return tuple(_game(item, f"{where}, game {number}") for number, item in enumerate(raw, start=1))


def _game(raw: Any, where: str) -> Game:
    """``{"round", "home", "away"}`` and ``score`` or ``walkover`` (neither: still being played)."""
    obj = _object(raw, where)
    _only(obj, _GAME, where)
    _require(obj, ("round", "home", "away"), where)
    number = _integer(obj["round"], f"{where}: round", minimum=1)
    home = _player_id(obj["home"], f"{where}: home")
    away = _player_id(obj["away"], f"{where}: away")
    where = f"{where} (round {number}: {home} v {away})"
    score = None if obj.get("score") is None else _pair_of_goals(obj["score"], f"{where}: score", "BAD_RESULT")
    walkover = None if obj.get("walkover") is None else _side(obj["walkover"], f"{where}: walkover")
    if score is not None and walkover is not None:
        raise LeagueError("BAD_RESULT", f"{where}: a game has a score or a walkover, not both")
    return Game(round=number, home=home, away=away, score=score, walkover=walkover)


# ------------------------------------------------------------------------------------------------ values


def _identifier(obj: dict[str, Any], where: str, what: str) -> str:
    """The required ``id`` of a team, a player or a fixture: 1-32 characters of ``[A-Za-z0-9_-]``."""
    if "id" not in obj:
        raise LeagueError("BAD_FORMAT", f"{where}: {what} needs an id")
    value = obj["id"]
    if not isinstance(value, str) or not PLAYER_ID.fullmatch(value):
        raise LeagueError("BAD_FORMAT", f"{where}.id: {_shown(value)} is not 1-32 characters of A-Za-z0-9_-")
    return value


def _name(obj: dict[str, Any], where: str, ident: str) -> str:
    """The required, non-empty ``name`` of a team or a player."""
    if "name" not in obj:
        raise LeagueError("BAD_FORMAT", f"{where} ({ident}): a name is needed")
    name = _string(obj["name"], f"{where}.name ({ident})")
    if not name.strip():
        raise LeagueError("BAD_FORMAT", f"{where}.name ({ident}): the name is empty")
    return name


def _team(value: Any, where: str, teams: set[str]) -> str:
    """The id of one of the file's teams."""
    if not isinstance(value, str):
        raise LeagueError("BAD_FORMAT", f"{where}: expected a team id, not {_kind(value)}")
    if value not in teams:
        raise LeagueError("BAD_FORMAT", f"{where}: {_shown(value)} is not one of the teams")
    return value


def _player_id(value: Any, where: str) -> str:
    """A player id (whether it names a player is checked with the line-ups and games)."""
    if not isinstance(value, str):
        raise LeagueError("BAD_FORMAT", f"{where}: expected a player id, not {_kind(value)}")
    return value

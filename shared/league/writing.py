"""Writing a ``League`` back as its canonical file: the same value always gives the same bytes.

Why canonical, as the tournament's file: the server will keep a league in this form and other programs diff,
hash and store these files, so a value has exactly one text. Every field is written with its value, defaults
included, in the order TOURNAMENT.md lists them (a line-up not given yet is null); a game writes only the
result field it has (with neither ``score`` nor ``walkover`` it is still being played).
``reading.parse(dumps(league)) == league`` for every league the reader returned.
"""

from __future__ import annotations

import json
from typing import Any

from shared.league.model import Fixture, Game, League, Team


def to_json(league: League) -> dict[str, Any]:
    """The JSON value of the file, keys in the contract's order."""
    s = league.settings
    return {
        "format": league.format,
        "name": league.name,
        "season": league.season,
        "seed": league.seed,
        "settings": {
            "team_size": s.team_size,
            "points": {"win": s.points.win, "draw": s.points.draw, "loss": s.points.loss},
            "ruleset": s.ruleset,
        },
        "teams": [_team(t) for t in league.teams],
        "fixtures": [_fixture(f) for f in league.fixtures],
    }


def dumps(league: League) -> str:
    """The canonical text: indented by two spaces, UTF-8 characters as they are, a final newline."""
    return json.dumps(to_json(league), ensure_ascii=False, allow_nan=False, indent=2) + "\n"


def dump_bytes(league: League) -> bytes:
    """The canonical file's bytes (UTF-8)."""
    return dumps(league).encode("utf-8")


def game_to_json(game: Game) -> dict[str, Any]:
    """A game: ``round``, ``home``, ``away`` and the result field it has."""
    out: dict[str, Any] = {"round": game.round, "home": game.home, "away": game.away}
    if game.score is not None:
        out["score"] = list(game.score)
    if game.walkover is not None:
        out["walkover"] = game.walkover
    return out


def _team(t: Team) -> dict[str, Any]:
    """One team and its roster."""
    return {"id": t.id, "name": t.name, "club": t.club, "players": [{"id": p.id, "name": p.name} for p in t.players]}


def _fixture(f: Fixture) -> dict[str, Any]:
    """One fixture with every field."""
    home, away = f.lineups.home, f.lineups.away
    return {
        "id": f.id,
        "day": f.day,
        "home": f.home,
        "away": f.away,
        "referee_team": f.referee_team,
        "lineups": {"home": None if home is None else list(home), "away": None if away is None else list(away)},
        "games": [game_to_json(g) for g in f.games],
    }

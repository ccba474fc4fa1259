"""The API's OpenAPI 3.1 document (/api/v1/openapi.json), built from the route table itself.

Why from the table: a path the server answers and a path the document lists cannot drift apart - each route
carries its summary, its query parameters, its answer's JSON Schema and its error statuses, and this module only
writes them out. The schemas name the contract's formats (docs/TOURNAMENT.md, docs/SCENARIOS.md) and the
protocol's records (docs/PROTOCOL.md) by their fields.
"""

from __future__ import annotations

import http
from collections.abc import Sequence
from typing import Any

from server.web.routes import Route

VERSION = "1"
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["error"],
    "properties": {"error": {"type": "object", "required": ["code", "message"],
                             "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}},
}


def document(routes: Sequence[Route], server_url: str = "/") -> dict[str, Any]:
    """The OpenAPI 3.1 document of every API route of ``routes``."""
    paths: dict[str, Any] = {}
    for route in routes:
        if not route.api:
            continue
        parameters = [{"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
                      for name in route.names]
        parameters += [{"name": q.name, "in": "query", "required": False, "description": q.description,
                        "schema": q.schema} for q in route.query]
        responses: dict[str, Any] = {
            "200": {"description": "OK", "headers": {"ETag": {"schema": {"type": "string"}}},
                    "content": {route.content_type: {"schema": route.schema}}},
            "304": {"description": "Not Modified: If-None-Match named the current ETag"},
            "429": {"description": "Too Many Requests from this address (Retry-After says when to ask again)",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
        }
        for status in route.errors:
            responses[str(status)] = {"description": http.HTTPStatus(status).phrase,
                                      "content": {"application/json": {"schema": {"$ref":
                                                                                  "#/components/schemas/Error"}}}}
        paths[route.pattern] = {"get": {"operationId": route.operation, "summary": route.summary,
                                        "parameters": parameters, "responses": responses}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "sprtec read API", "version": VERSION,
                 "description": "Read-only JSON of a sprtec server: tournaments in the formats of docs/TOURNAMENT.md, "
                                "rooms, matches, players and leaderboards (docs/API.md). GET only, CORS open, no "
                                "token; every answer has an ETag (If-None-Match gives 304)."},
        "servers": [{"url": server_url}],
        "paths": paths,
        "components": {"schemas": {"Error": ERROR_SCHEMA}},
    }


# ---------------------------------------------------------------------- the answers' schemas
def _object(required: Sequence[str], **properties: Any) -> dict[str, Any]:
    """An object schema with these properties, the ``required`` ones listed."""
    return {"type": "object", "required": list(required), "properties": properties}


INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
NULL_STR = {"type": ["string", "null"]}
SCORE = _object(("home", "away"), home=INT, away=INT)
SEAT = {"type": ["object", "null"], "properties": {"name": STR, "connected": BOOL, "grace_ms": {"type": ["integer",
                                                                                                          "null"]},
                                                   "rating": {"type": ["integer", "null"]}, "provisional": BOOL}}
TOURNAMENTS = _object(("tournaments",), tournaments={"type": "array", "items": _object(
    ("id", "name", "state", "system", "stage", "round", "entries", "playing"), id=STR, name=STR,
    state={"enum": ["registering", "playing", "between", "finished", "ended"]},
    system={"enum": ["swiss", "round_robin", "knockout"]}, stage=INT, round=INT, entries=INT, playing=INT)})
TOURNAMENT_FILE = _object(("format", "players", "stages", "results"), format={"const": "sprtec-tournament/1"},
                          name=STR, seed=INT, players={"type": "array"}, stages={"type": "array"},
                          results={"type": "array"}, absent={"type": "array"}, withdrawn={"type": "array"},
                          discipline={"type": "array"}, settings={"type": "object"})
LEAGUES = _object(("leagues",), leagues={"type": "array", "items": _object(
    ("id", "name", "season", "day", "teams", "fixtures", "finished"), id=STR, name=STR,
    season={"type": ["integer", "null"]}, day=INT, teams=INT, fixtures=INT, finished=INT)})
LEAGUE_FILE = _object(("format", "name", "season", "seed", "settings", "teams", "fixtures"),
                      format={"const": "sprtec-league/1"}, name=STR, season={"type": ["integer", "null"]}, seed=INT,
                      settings={"type": "object"}, teams={"type": "array"}, fixtures={"type": "array"})
LEAGUE_TABLE = _object(("format", "table", "players"), format={"const": "sprtec-league-table/1"},
                       table={"type": "array", "items": _object(
                           ("rank", "shared", "team", "played", "wins", "draws", "losses", "games_for",
                            "games_against", "points"), rank=INT, shared=BOOL, team=STR, played=INT, wins=INT,
                           draws=INT, losses=INT, games_for=INT, games_against=INT, points=INT)},
                       players={"type": "array", "items": _object(
                           ("player", "team", "games", "won", "drawn", "lost"), player=STR, team=STR, games=INT,
                           won=INT, drawn=INT, lost=INT)})
STANDINGS = _object(("format", "stage", "after_round", "complete", "standings"),
                    format={"const": "sprtec-standings/1"}, stage=INT, after_round=INT, complete=BOOL,
                    standings={"type": "array", "items": _object(
                        ("rank", "shared", "player", "points", "played", "wins", "draws", "losses", "byes",
                         "goals_for", "goals_against", "tiebreaks", "yellow", "red", "suspended_next"),
                        rank=INT, shared=BOOL, player=STR, points=INT, played=INT, wins=INT, draws=INT, losses=INT,
                        byes=INT, goals_for=INT, goals_against=INT,
                        tiebreaks={"type": "object", "additionalProperties": INT}, yellow=INT, red=INT,
                        suspended_next=BOOL)})
PAIRING = _object(("format", "stage", "round", "matches", "byes", "not_paired"), format={"const": "sprtec-pairing/1"},
                  stage=INT, round=INT, matches={"type": "array", "items": _object(("table", "home", "away"),
                                                                                    table=INT, home=STR, away=STR)},
                  byes={"type": "array", "items": STR},
                  not_paired={"type": "array", "items": _object(("player", "why"), player=STR, why=STR)})
RANKING = _object(("format", "complete", "season", "cup", "ranking"), format={"const": "sprtec-ranking/1"},
                  complete=BOOL, season={"type": ["integer", "null"]},
                  cup={"type": ["object", "null"], "properties": {"tier": STR, "field": INT}},
                  ranking={"type": "array", "items": _object(
                      ("rank", "shared", "player", "name", "club", "category", "category_rank", "category_winner",
                       "stage", "cup_points", "out"), rank=INT, shared=BOOL, player=STR, name=STR, club=STR,
                      category=STR, category_rank=INT, category_winner=BOOL, stage=INT,
                      cup_points={"type": ["integer", "null"]}, out=BOOL)})
ROOMS = _object(("rooms",), rooms={"type": "array", "items": _object(
    ("code", "ruleset", "seats", "spectators", "status", "tournament"), code=STR, ruleset=STR,
    seats=_object(("home", "away"), home=SEAT, away=SEAT), spectators=INT,
    status={"enum": ["waiting", "playing", "ended"]}, score={"oneOf": [SCORE, {"type": "null"}]},
    clocks={"type": ["object", "null"]}, part=NULL_STR, rated=BOOL,
    tournament={"type": ["object", "null"], "properties": {"id": STR, "name": STR, "stage": INT, "round": INT,
                                                           "table": INT}})})
SCENARIO = _object(("format",), format={"const": "sprtec-scenario/1"}, position={"type": "object"},
                   actions={"type": "array"})
MOVES = _object(("format", "match_id", "finished", "players", "version_base", "start", "moves"),
                format={"const": "sprtec-moves/1"}, match_id=STR, room=STR, finished=BOOL,
                players=_object(("home", "away"), home=STR, away=STR), version_base=INT, start={"type": "object"},
                moves={"type": "array", "items": _object(
                    ("index", "t", "version", "team", "action", "trajectory", "decisions", "position", "clocks"),
                    index=INT, elapsed_ms=INT, t={"const": "MovePlayed"}, version=INT, team=STR,
                    action={"type": ["object", "null"]}, trajectory={"type": ["object", "null"]},
                    decisions={"type": "array"}, position={"type": "object"}, clocks={"type": "object"},
                    prompts={"type": "array"})})
PROFILE = _object(("player", "ratings", "played", "won", "drawn", "lost", "last"), player=STR,
                  ratings={"type": "array", "items": _object(("family", "rating", "rd", "provisional", "games"),
                                                              family=STR, rating=INT, rd=INT, provisional=BOOL,
                                                              games=INT)},
                  played=INT, won=INT, drawn=INT, lost=INT,
                  last={"type": "array", "items": _object(
                      ("match_id", "opponent", "team", "score", "result", "reason", "family", "rating_change",
                       "ended_ms"), match_id=STR, opponent=STR, team=STR, score=SCORE,
                      result={"enum": ["win", "draw", "loss"]}, reason=STR, family=STR,
                      rating_change={"type": ["integer", "null"]}, ended_ms=INT)})
LEADERBOARD = _object(("family", "offset", "total", "players"), family=STR, offset=INT, total=INT,
                      players={"type": "array", "items": _object(("rank", "player", "rating", "rd", "games"),
                                                                 rank=INT, player=STR, rating=INT, rd=INT, games=INT)})
BOARD = {"type": "object", "description": "shared.geometry's constants in mm (lower-case names), the face-off "
                                          "spots, and the default stone and puck radii",
         "additionalProperties": {"oneOf": [{"type": "number"}, {"type": "array"}]}}
OPENAPI = {"type": "object", "required": ["openapi", "paths"], "properties": {"openapi": {"const": "3.1.0"}}}

"""The web's route table: every page and API path of docs/API.md, with its handler and its description.

Why one list: the router (``server.web.routes``), the OpenAPI document (``server.web.openapi``) and docs/API.md's
test read the same routes, so a path cannot be answered without being documented, nor documented without being
answered.
"""

from __future__ import annotations

import http

from websockets.http11 import Response

from server.connections.address_budgets import AddressBudgets
from server.web import openapi
from server.web.pages import Pages, language_of
from server.web.read_api import LEADERBOARD_MAX, ReadApi, Sources
from server.web.routes import Call, Elsewhere, Handler, QueryParameter, Route, WebTable
from server.web.web_responses import answer, error, json_body
from shared.rulesets import RULESETS

API = "/api/v1"
NOT_FOUND = http.HTTPStatus.NOT_FOUND


def _page(pages: Pages, page: str, param: str | None = None) -> Handler:
    """A page's handler: its shell in the visitor's language."""

    async def handler(call: Call) -> Response:
        """The shell of this page."""
        ident = "" if param is None else call.params[param]
        return answer(call.request, pages.page(page, language_of(call.request, call.one("lang")), ident))

    return handler


def routes(sources: Sources, pages: Pages | None = None) -> list[Route]:
    """Every route of the web, the API's first (the OpenAPI document lists those)."""
    api = ReadApi(sources)
    pages = pages or Pages()
    not_found = (404,)
    table = [
        Route(pattern=f"{API}/tournaments", handler=api.tournaments, operation="listTournaments",
              summary="Every tournament of the server, newest first", schema=openapi.TOURNAMENTS),
        Route(pattern=f"{API}/tournaments/{{id}}", handler=api.tournament, operation="getTournament",
              summary="The tournament's file (sprtec-tournament/1) as `sprtec tournament export` writes it",
              schema=openapi.TOURNAMENT_FILE, errors=not_found,
              owned_by="tournament"),
        Route(pattern=f"{API}/tournaments/{{id}}/standings", handler=api.standings, operation="getStandings",
              summary="`sprtec tournament standings [--stage N]` of the tournament (sprtec-standings/1)",
              schema=openapi.STANDINGS, errors=(400, 404, 409),
              query=(QueryParameter(name="stage", description="a stage index (default: the last stage with a "
                                                              "result)", schema={"type": "integer", "minimum": 0}),),
              owned_by="tournament"),
        Route(pattern=f"{API}/tournaments/{{id}}/pairing", handler=api.pairing, operation="getPairing",
              summary="`sprtec tournament pair` of the tournament (sprtec-pairing/1); 409 ROUND_ORDER while a round "
                      "is played, NOTHING_TO_PAIR at the end", schema=openapi.PAIRING, errors=(404, 409),
              owned_by="tournament"),
        Route(pattern=f"{API}/tournaments/{{id}}/ranking", handler=api.ranking, operation="getRanking",
              summary="`sprtec tournament ranking` of the tournament (sprtec-ranking/1): the final ranking with "
                      "categories, category winners and Czech Cup points", schema=openapi.RANKING, errors=not_found,
              owned_by="tournament"),
        Route(pattern=f"{API}/leagues", handler=api.leagues, operation="listLeagues",
              summary="Every team league of the server, newest first", schema=openapi.LEAGUES),
        Route(pattern=f"{API}/leagues/{{id}}", handler=api.league, operation="getLeague",
              summary="The league's file (sprtec-league/1) with every line-up and game, as `sprtec league export` "
                      "writes it", schema=openapi.LEAGUE_FILE, errors=not_found,
              owned_by="league"),
        Route(pattern=f"{API}/leagues/{{id}}/table", handler=api.league_table, operation="getLeagueTable",
              summary="`sprtec league table` of the league (sprtec-league-table/1)", schema=openapi.LEAGUE_TABLE,
              errors=not_found,
              owned_by="league"),
        Route(pattern=f"{API}/rooms", handler=api.rooms, operation="listRooms",
              summary="The live matches: public rooms and tournaments' tables (RoomInfo, with the table)",
              schema=openapi.ROOMS),
        Route(pattern=f"{API}/rooms/{{code}}/moves", handler=api.room_moves, operation="getRoomMoves",
              summary="The moves so far of the match played in a room (each its MovePlayed)", schema=openapi.MOVES,
              errors=not_found,
              owned_by="room"),
        Route(pattern=f"{API}/matches/{{id}}", handler=api.match, operation="getMatch",
              summary="A finished match's file as `sprtec export` writes it; 403 MATCH_RUNNING while it is played",
              schema=openapi.SCENARIO, errors=(403, 404)),
        Route(pattern=f"{API}/matches/{{id}}/moves", handler=api.match_moves, operation="getMatchMoves",
              summary="A finished match's moves, each the MovePlayed its room broadcast", schema=openapi.MOVES,
              errors=(403, 404)),
        Route(pattern=f"{API}/players/{{name}}", handler=api.player, operation="getPlayer",
              summary="A player's profile: ratings with RD, totals, last matches (Profile)", schema=openapi.PROFILE,
              errors=not_found),
        Route(pattern=f"{API}/leaderboard", handler=api.leaderboard, operation="getLeaderboard",
              summary="A page of a ruleset family's leaderboard (Leaderboard)", schema=openapi.LEADERBOARD,
              errors=(400,), query=(
                  QueryParameter(name="ruleset", description="the ruleset whose family is ranked (default standard)",
                                 schema={"enum": list(RULESETS)}),
                  QueryParameter(name="offset", description="ranks to skip (default 0)",
                                 schema={"type": "integer", "minimum": 0}),
                  QueryParameter(name="limit", description=f"players on the page, 1-{LEADERBOARD_MAX} (default 50)",
                                 schema={"type": "integer", "minimum": 1, "maximum": LEADERBOARD_MAX}))),
        Route(pattern=f"{API}/board", handler=api.board, operation="getBoard",
              summary="The board's geometry in mm (shared.geometry) and the bodies' radii", schema=openapi.BOARD),
    ]

    async def openapi_document(call: Call) -> Response:
        """The OpenAPI 3.1 document of the routes above."""
        return answer(call.request, api.cache.get(("openapi",), lambda: json_body(openapi.document(table))))

    table.append(Route(pattern=f"{API}/openapi.json", handler=openapi_document, operation="getOpenApi",
                       summary="This document", schema=openapi.OPENAPI))

    async def static(call: Call) -> Response:
        """A file of the pages (scripts, style, the vendored library and its licence)."""
        body = pages.static(call.params["rest"])
        if body is None:
            return error(call.request, NOT_FOUND, "NOT_FOUND", "no such file")
        return answer(call.request, body)

    page = _page
    table += [
        Route(pattern="/", handler=page(pages, "home"), operation="home", summary="", api=False),
        Route(pattern="/tournaments/{id}", handler=page(pages, "tournament", "id"), operation="tournamentPage",
              summary="", api=False),
        Route(pattern="/leagues/{id}", handler=page(pages, "league", "id"), operation="leaguePage", summary="",
              api=False),
        Route(pattern="/watch/{code}", handler=page(pages, "watch", "code"), operation="watchPage", summary="",
              api=False),
        Route(pattern="/replays/{id}", handler=page(pages, "replay", "id"), operation="replayPage", summary="",
              api=False),
        Route(pattern="/players/{name}", handler=page(pages, "player", "name"), operation="playerPage", summary="",
              api=False),
        Route(pattern="/leaderboard", handler=page(pages, "leaderboard"), operation="leaderboardPage", summary="",
              api=False),
        Route(pattern="/static/{rest}", handler=static, operation="static", summary="", api=False),
    ]
    return table


def web_table(sources: Sources, budgets: AddressBudgets, elsewhere: Elsewhere) -> WebTable:
    """The web's table over the server's services, behind the server's per-address budgets; a request about what
    another server runs answered by that server (``elsewhere``: ``Placement.web_elsewhere``)."""
    return WebTable(routes(sources), budgets, elsewhere)

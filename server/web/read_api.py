"""The read API, /api/v1/...: the server's tournaments, leagues, rooms, matches, players and leaderboards as JSON.

Why the contract's formats exactly: a club's script that reads an exported ``tournament.json`` or ``standings.json``
reads ``/api/v1/tournaments/ID`` and ``.../standings`` with the same code, so the bodies are the very bytes the file
commands print (``shared.tournament.writing.dumps``, the standings' and the pairing's ``to_json`` as
``sprtec tournament`` writes them, the match file of ``sprtec export``). What the contract has no file for (the
rooms, a player's profile, a leaderboard) is the protocol's own records as JSON maps (docs/PROTOCOL.md), with the
same field names. Nothing here names a token, a secret, an entry code, a file's path or a player's id number.

Everything that depends only on a tournament's log is made once per version (``server.web.body_cache``); a match's
file and moves are read and resolved off the event loop (``asyncio.to_thread``) and kept once the match is over.
"""

from __future__ import annotations

import asyncio
import http
import json
from collections.abc import Callable
from typing import Any, Protocol

from websockets.http11 import Response

from server.leagues.service import LeagueRun, LeagueService
from server.players import Players
from server.replays.replay_export import scenario_text
from server.rooms.lobby import Lobby
from server.rooms.room import RoomError
from server.store.match_reads import MATCH_ID, ExportError, StoredMatch
from server.store.store_port import Store
from server.tournaments.service import Running, TournamentService
from server.web.body_cache import BodyCache
from server.web.replay_moves import moves_of
from server.web.routes import BadParameter, Call
from server.web.web_responses import FINISHED, Body, answer, body_of, error, json_body
from shared import geometry
from shared.league.table import league_table_json
from shared.league.writing import dumps as league_dumps
from shared.protocol.specs import wire_of
from shared.rulesets import RULESETS, Settings
from shared.tournament.errors import TournamentError
from shared.tournament.pairing import pair_course
from shared.tournament.pairing import to_json as pairing_json
from shared.tournament.ranking import rank_course
from shared.tournament.ranking import to_json as ranking_json
from shared.tournament.standings import standings
from shared.tournament.table import to_json as standings_json
from shared.tournament.writing import dumps

LEADERBOARD_PAGE = 50  # players a leaderboard page has when ``limit`` is not given
LEADERBOARD_MAX = 100  # the most a page may have (as GetLeaderboard)
NOT_FOUND = http.HTTPStatus.NOT_FOUND
CONFLICT = http.HTTPStatus.CONFLICT  # the contract's ROUND_ORDER and NOTHING_TO_PAIR: the tournament is not there yet


class Sources(Protocol):
    """What the API reads: the server's services (``server.app.Server`` is one)."""

    tournaments: TournamentService
    leagues: LeagueService
    lobby: Lobby
    players: Players
    store: Store


def _text_body(text: str, *, cache: str | None = None) -> Body:
    """A JSON text made elsewhere (the contract's own writer) as a body."""
    data = text.encode("utf-8")
    return body_of(data) if cache is None else body_of(data, cache=cache)


def _contract_text(value: dict[str, Any]) -> str:
    """One JSON object and a newline, exactly as ``sprtec tournament`` prints it."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False) + "\n"


class ReadApi:
    """The API's handlers over the server's services (see the module docstring)."""

    def __init__(self, sources: Sources, cache: BodyCache | None = None) -> None:
        self.sources = sources
        self.cache = cache or BodyCache()
        self._resolving: dict[str, asyncio.Task[Body]] = {}  # a match being read or resolved: askers share it

    # ------------------------------------------------------------------ leagues
    def _league(self, call: Call) -> LeagueRun | Response:
        """The league the path names, or the 404 answer."""
        try:
            return self.sources.leagues.find(call.params["id"])
        except RoomError:
            return error(call.request, NOT_FOUND, "LEAGUE_NOT_FOUND",
                         f"no league has the id {call.params['id'][:16]!r}")

    async def leagues(self, call: Call) -> Response:
        """Every league of the server, newest first: id, name, season, the open day, teams, fixtures, finished."""
        lines = [{"id": line.league, "name": line.name, "season": line.season, "day": line.day, "teams": line.teams,
                  "fixtures": line.fixtures, "finished": line.finished}
                 for line in await self.sources.leagues.listing()]  # a cluster's: every node's
        return answer(call.request, json_body({"leagues": lines}))

    async def league(self, call: Call) -> Response:
        """The league's file (``sprtec-league/1``) as ``sprtec league export`` writes its ``league.json``."""
        run = self._league(call)
        if isinstance(run, Response):
            return run
        state = run.state
        body = self.cache.get(("league", run.id, state.version), lambda: _text_body(league_dumps(state.league)))
        return answer(call.request, body)

    async def league_table(self, call: Call) -> Response:
        """``sprtec league table`` of the league's file (``sprtec-league-table/1``)."""
        run = self._league(call)
        if isinstance(run, Response):
            return run
        state = run.state
        body = self.cache.get(("league-table", run.id, state.version),
                              lambda: _text_body(_contract_text(league_table_json(state.league))))
        return answer(call.request, body)

    # ------------------------------------------------------------------ tournaments
    def _run(self, call: Call) -> Running | Response:
        """The tournament the path names, or the 404 answer."""
        try:
            return self.sources.tournaments.find(call.params["id"])
        except RoomError:
            return error(call.request, NOT_FOUND, "TOURNAMENT_NOT_FOUND",
                         f"no tournament has the id {call.params['id'][:16]!r}")

    async def tournaments(self, call: Call) -> Response:
        """Every tournament of the server, newest first: id, name, state, system, stage, round, entries, playing."""
        lines = [{"id": line.info.tournament, "name": line.info.name, "state": line.info.status,
                  "system": line.web.get("system", ""), "stage": line.info.stage, "round": line.info.round,
                  "entries": line.info.entries, "playing": line.info.playing}
                 for line in await self.sources.tournaments.listed()]  # a cluster's: every node's
        return answer(call.request, json_body({"tournaments": lines}))

    async def tournament(self, call: Call) -> Response:
        """The tournament's file (``sprtec-tournament/1``) as ``sprtec tournament export`` writes it."""
        run = self._run(call)
        if isinstance(run, Response):
            return run
        state = run.state
        body = self.cache.get(("file", run.id, state.version), lambda: _text_body(dumps(state.tournament)))
        return answer(call.request, body)

    async def standings(self, call: Call) -> Response:
        """``sprtec tournament standings [--stage N]`` of the tournament's file."""
        run = self._run(call)
        if isinstance(run, Response):
            return run
        stage = _stage(call.one("stage"))
        board = self.sources.tournaments.board(run)

        def make() -> Body:
            """The standings' JSON, or the contract's error."""
            return _text_body(_contract_text(standings_json(standings(board.course, stage))))

        try:
            body = self.cache.get(("standings", run.id, board.version, stage), make)
        except TournamentError as exc:
            status = http.HTTPStatus.BAD_REQUEST if exc.code == "BAD_FORMAT" else CONFLICT
            return error(call.request, status, exc.code, exc.message)
        return answer(call.request, body)

    async def pairing(self, call: Call) -> Response:
        """``sprtec tournament pair`` of the tournament's file: the next round's pairing (409 with the contract's
        ROUND_ORDER while a round is played, NOTHING_TO_PAIR once the tournament is complete)."""
        run = self._run(call)
        if isinstance(run, Response):
            return run
        board = self.sources.tournaments.board(run)
        try:
            body = self.cache.get(("pairing", run.id, board.version),
                                  lambda: _text_body(_contract_text(pairing_json(pair_course(board.course)))))
        except TournamentError as exc:
            return error(call.request, CONFLICT, exc.code, exc.message)
        return answer(call.request, body)

    async def ranking(self, call: Call) -> Response:
        """``sprtec tournament ranking`` of the tournament's file: the final ranking across its stages, with
        categories, category winners and Czech Cup points (provisional until the tournament is complete)."""
        run = self._run(call)
        if isinstance(run, Response):
            return run
        board = self.sources.tournaments.board(run)
        try:
            body = self.cache.get(("ranking", run.id, board.version),
                                  lambda: _text_body(_contract_text(ranking_json(rank_course(board.course)))))
        except TournamentError as exc:
            return error(call.request, CONFLICT, exc.code, exc.message)
        return answer(call.request, body)

    # ------------------------------------------------------------------ rooms and matches
    async def rooms(self, call: Call) -> Response:
        """The live matches: the public rooms and every tournament's open tables, newest first."""
        lobby, service = self.sources.lobby, self.sources.tournaments
        lines: list[dict[str, Any]] = []
        for run in reversed(list(service.runs.values())):
            for table in run.state.tables.values():
                room = lobby.rooms.get(table.room)
                if room is None or room.closed:
                    continue
                tournament = {"id": run.id, "name": run.state.tournament.name, "stage": table.stage,
                              "round": table.round, "table": table.table}
                lines.append({**wire_of(room.info(), "RoomInfo"), "tournament": tournament})
        tables = {line["code"] for line in lines}
        for info in await lobby.public_rooms():
            if info.code not in tables:
                lines.append({**wire_of(info, "RoomInfo"), "tournament": None})
        return answer(call.request, json_body({"rooms": lines}))

    async def match(self, call: Call) -> Response:
        """A finished match's file, exactly as ``sprtec export`` writes it."""
        return await self._finished(call, "match", lambda stored: _text_body(scenario_text(stored) + "\n",
                                                                              cache=FINISHED))

    async def match_moves(self, call: Call) -> Response:
        """A finished match's moves, each the ``MovePlayed`` its room broadcast (``server.web.replay_moves``)."""
        base = self._version_base(call.params["id"])
        return await self._finished(call, "moves", lambda stored: json_body(moves_of(stored, version_base=base),
                                                                             cache=FINISHED))

    async def room_moves(self, call: Call) -> Response:
        """The moves so far of the match being played in a room: whoever has its code may watch it, and a late
        arrival gets what he missed."""
        code = call.params["code"].strip().upper()
        room = self.sources.lobby.rooms.get(code)
        if room is None or room.closed:
            return error(call.request, NOT_FOUND, "ROOM_NOT_FOUND", f"no room {code[:16]!r} is open on this server")
        match_id, length = room.match.id, room.match.log_len
        base = self._version_base(match_id)
        key = ("room-moves", match_id, length)
        body = self.cache.find(key)
        if body is None:
            try:
                stored = await asyncio.to_thread(self.sources.store.read_match, match_id)
                body = self.cache.put(key, await asyncio.to_thread(
                    lambda: json_body(moves_of(_first(stored, length), version_base=base))))
            except ExportError as exc:
                return error(call.request, NOT_FOUND, "NO_MATCH", f"match {match_id}: {exc.code}")
        return answer(call.request, body)

    def _version_base(self, match_id: str) -> int:
        """The version of a match's first Snapshot (0 for one the store does not know)."""
        row = self.sources.store.match(match_id) if MATCH_ID.fullmatch(match_id) else None
        return 0 if row is None else row.version_base

    async def _finished(self, call: Call, kind: str, make: Callable[[StoredMatch], Body]) -> Response:
        """A finished match's body made by ``make`` in a thread and kept; 404 for no such match, 403 while it is
        played (a running match is followed in its room: docs/PROTOCOL.md "Replay")."""
        match_id = call.params["id"].strip().lower()
        if not MATCH_ID.fullmatch(match_id):
            return error(call.request, NOT_FOUND, "NO_MATCH", "a match id is 12 hexadecimal digits")
        key = (kind, match_id)
        body = self.cache.find(key)
        if body is None:
            task = self._resolving.get(f"{kind}:{match_id}")
            if task is None:
                task = asyncio.get_running_loop().create_task(self._read_finished(match_id, make))
                self._resolving[f"{kind}:{match_id}"] = task
                task.add_done_callback(lambda _done: self._resolving.pop(f"{kind}:{match_id}", None))
            try:
                body = await asyncio.shield(task)
            except ExportError as exc:
                if exc.code == "NOT_FINISHED":
                    return error(call.request, http.HTTPStatus.FORBIDDEN, "MATCH_RUNNING",
                                 f"match {match_id} is still being played: watch it in its room")
                return error(call.request, NOT_FOUND, "NO_MATCH", f"no match {match_id} on this server")
            self.cache.put(key, body)
        return answer(call.request, body)

    async def _read_finished(self, match_id: str, make: Callable[[StoredMatch], Body]) -> Body:
        """Read the match and make its body, both in a thread; ``ExportError`` NOT_FINISHED for a running match."""
        stored = await asyncio.to_thread(self.sources.store.read_match, match_id)
        if not stored.finished:
            raise ExportError("NOT_FINISHED", match_id)
        return await asyncio.to_thread(make, stored)

    # ------------------------------------------------------------------ players
    async def player(self, call: Call) -> Response:
        """A player's profile (the protocol's ``Profile`` as JSON, without his id number)."""
        name = call.params["name"]
        records = self.sources.players.records
        found = records.named(name)  # as GetProfile finds him: his exact name, or one that looks like it
        if found is None:
            return error(call.request, NOT_FOUND, "NO_PLAYER", f"no player of this server is called {name[:32]!r}")
        profile = wire_of(self.sources.players.profile(found[0]), "Profile")
        profile.pop("player_id", None)
        return answer(call.request, json_body(profile))

    async def leaderboard(self, call: Call) -> Response:
        """A page of a ruleset family's leaderboard (``?ruleset=&offset=&limit=``, as GetLeaderboard)."""
        ruleset = call.one("ruleset") or "standard"
        if ruleset not in RULESETS:
            raise BadParameter(f"ruleset must be one of {', '.join(RULESETS)}, not {ruleset[:20]!r}")
        offset = _integer(call.one("offset"), "offset", 0, 0, 10**9)
        limit = _integer(call.one("limit"), "limit", LEADERBOARD_PAGE, 1, LEADERBOARD_MAX)
        page = self.sources.players.leaderboard(ruleset, offset, limit)
        return answer(call.request, json_body(wire_of(page, "Leaderboard")))

    async def board(self, call: Call) -> Response:
        """The board's geometry (``shared.geometry``, RULES.md §1) and the bodies' sizes: the pages draw from it."""
        body = self.cache.get(("board",), board_body)
        return answer(call.request, body)


def board_body() -> Body:
    """The numbers the pages draw the board with, in mm (the same the physics and the referee use)."""
    settings = Settings()
    names = ("LENGTH", "WIDTH", "HALF_LENGTH", "HALF_WIDTH", "BOARD_WIDTH", "CORNER_RADIUS", "CENTRE_LINE_HALF_WIDTH",
             "BLUE_LINE_X", "BLUE_LINE_HALF_WIDTH", "GOAL_LINE_X", "GOAL_LINE_HALF_WIDTH", "AUX_LINE_X",
             "AUX_LINE_HALF_WIDTH", "GOAL_MOUTH_HALF_WIDTH", "GOAL_INNER_BACK_X", "GOAL_OUTER_BACK_X",
             "GOAL_FRAME_TUBE", "CREASE_DEPTH", "CREASE_HALF_WIDTH", "CREASE_FRONT_X", "CENTRE_CIRCLE_RADIUS",
             "CIRCLE_LINE_HALF_WIDTH", "HALF_CIRCLE_RADIUS")
    value: dict[str, Any] = {name.lower(): getattr(geometry, name) for name in names}
    value["half_circle_centre"] = list(geometry.HALF_CIRCLE_CENTRE)
    value["faceoff_spots"] = [list(spot) for end in (-1, 1) for spot in geometry.faceoff_spots(end)]
    value["stone_radius"] = settings.stone_radius
    value["puck_radius"] = settings.puck_radius
    return json_body(value)


def _first(stored: StoredMatch, entries: int) -> StoredMatch:
    """The stored match cut to its first ``entries`` log entries (what the room had committed when asked)."""
    from dataclasses import replace

    return replace(stored, log=stored.log[:entries])


def _stage(text: str | None) -> int | None:
    """``?stage=N``: a stage index 0, 1, 2, ... (None: the last stage with a result)."""
    return None if text is None else _integer(text, "stage", 0, 0, 63)


def _integer(text: str | None, name: str, default: int, low: int, high: int) -> int:
    """A whole-number query parameter within [low, high]; ``BadParameter`` otherwise."""
    if text is None:
        return default
    if not text.isascii() or not text.isdigit():
        raise BadParameter(f"{name} must be a whole number from {low} to {high}, not {text[:20]!r}")
    value = int(text)
    if not low <= value <= high:
        raise BadParameter(f"{name} must be from {low} to {high}, not {value}")
    return value

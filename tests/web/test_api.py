"""The read API on a real server: the contract's files byte for byte, ETags, CORS, errors, and what it never says."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server.app import Server
from server.tournaments.export import export
from shared.protocol import MovePlayed, OverrideResult, RoomJoined, Score, StartRound, TournamentDone, Watch
from shared.protocol.specs import wire_of
from sprtec.commands.tournament import pair_answer, ranking_answer, standings_answer
from tests.server.players import WireClient, play_until_end, two_coaches
from tests.tournament_server.conftest import SHORT
from tests.tournament_server.helpers import Setup, expect, file_of, tournament
from tests.web.http_get import get

API = "/api/v1"


async def _start(setup: Setup) -> None:
    """The organiser starts the next round."""
    await setup.organiser.send(StartRound(setup.tid, setup.secret))
    await expect(setup.organiser, TournamentDone)


async def _decide(setup: Setup, number: int, scores: list[tuple[int, int]]) -> None:
    """The organiser sets every table of stage 0's round ``number`` (nobody sat down)."""
    for table, (home, away) in enumerate(scores, start=1):
        await setup.organiser.send(OverrideResult(tournament=setup.tid, secret=setup.secret, stage=0, round=number,
                                                  table=table, reason="played on paper", score=Score(home, away)))
        await expect(setup.organiser, TournamentDone)


async def _played(server: Server) -> tuple[Setup, bytes]:
    """A 4-player Swiss of 2 rounds with round 1 decided and round 2 paired; the tournament's file as the server
    keeps it."""
    setup = await tournament(server.url, file_of(4, stages=[{"system": "swiss", "rounds": 2}]))
    await _start(setup)
    await _decide(setup, 1, [(3, 1), (2, 2)])
    await _start(setup)
    answer = await get(server.url, f"{API}/tournaments/{setup.tid}")
    assert answer.status == 200
    return setup, answer.body


async def test_a_tournament_is_its_exported_file_byte_for_byte(server: Server, tmp_path: Any) -> None:
    """/tournaments/ID is the tournament.json `sprtec tournament export` writes from the data directory."""
    setup, body = await _played(server)
    exported = await asyncio.to_thread(export, server.config.data_dir, setup.tid, tmp_path / "out")
    assert body == (tmp_path / "out" / "tournament.json").read_bytes()
    assert exported.state.id == setup.tid


async def test_standings_are_what_sprtec_tournament_standings_prints_of_the_file(server: Server) -> None:
    """/standings and /standings?stage=0 are `sprtec tournament standings [--stage 0]` of the tournament's file."""
    setup, file = await _played(server)
    status, printed = standings_answer(file)
    assert status == 0
    assert (await get(server.url, f"{API}/tournaments/{setup.tid}/standings")).body.decode() == printed
    assert (await get(server.url, f"{API}/tournaments/{setup.tid}/standings?stage=0")).body.decode() == \
        standings_answer(file, stage=0)[1]


async def test_the_pairing_is_sprtec_tournament_pair_and_a_conflict_while_a_round_is_played(server: Server) -> None:
    """Between rounds /pairing is `sprtec tournament pair` of the file; while a round is played it is 409 with the
    contract's ROUND_ORDER error object."""
    setup = await tournament(server.url, file_of(4, stages=[{"system": "swiss", "rounds": 2}]))
    await _start(setup)
    playing = await get(server.url, f"{API}/tournaments/{setup.tid}/pairing")
    assert playing.status == 409 and playing.json()["error"]["code"] == "ROUND_ORDER"
    await _decide(setup, 1, [(1, 0), (0, 2)])
    file = (await get(server.url, f"{API}/tournaments/{setup.tid}")).body
    between = await get(server.url, f"{API}/tournaments/{setup.tid}/pairing")
    assert between.status == 200 and between.body.decode() == pair_answer(file)[1]


async def test_the_ranking_is_sprtec_tournament_ranking_of_the_file(server: Server) -> None:
    """/ranking is `sprtec tournament ranking` of the tournament's file (provisional while it is played)."""
    setup, file = await _played(server)
    status, printed = ranking_answer(file)
    assert status == 0
    answer = await get(server.url, f"{API}/tournaments/{setup.tid}/ranking")
    assert answer.status == 200 and answer.body.decode() == printed
    assert answer.json()["complete"] is False


async def test_the_list_names_each_tournament_with_its_state(server: Server) -> None:
    """/tournaments lists id, name, state, system, stage, round, entries and tables playing."""
    setup, _ = await _played(server)
    (line,) = (await get(server.url, f"{API}/tournaments")).json()["tournaments"]
    assert line == {"id": setup.tid, "name": "test", "state": "playing", "system": "swiss", "stage": 0, "round": 2,
                    "entries": 4, "playing": 0}


async def test_an_unchanged_answer_is_304_for_its_etag_and_a_change_gives_a_new_one(server: Server) -> None:
    """If-None-Match with the ETag gives 304 and no body; after the next result the ETag differs."""
    setup = await tournament(server.url, file_of(4, stages=[{"system": "swiss", "rounds": 2}]))
    await _start(setup)
    path = f"{API}/tournaments/{setup.tid}/standings"
    first = await get(server.url, path)
    again = await get(server.url, path, {"If-None-Match": first.headers["etag"]})
    assert (again.status, again.body, again.headers["etag"]) == (304, b"", first.headers["etag"])
    assert first.headers["cache-control"] == "no-cache"
    await _decide(setup, 1, [(1, 0), (0, 2)])
    changed = await get(server.url, path, {"If-None-Match": first.headers["etag"]})
    assert changed.status == 200 and changed.headers["etag"] != first.headers["etag"]


async def test_every_answer_is_open_to_other_sites_and_a_preflight_is_answered(server: Server) -> None:
    """GET answers carry Access-Control-Allow-Origin: *; OPTIONS gets 204 with GET and If-None-Match allowed."""
    answer = await get(server.url, f"{API}/tournaments", {"Origin": "https://club.example"})
    assert answer.headers["access-control-allow-origin"] == "*"
    assert "ETag" in answer.headers["access-control-expose-headers"]
    preflight = await get(server.url, f"{API}/tournaments", {"Origin": "https://club.example",
                                                              "Access-Control-Request-Method": "GET"}, "OPTIONS")
    assert preflight.status == 204
    assert "GET" in preflight.headers["access-control-allow-methods"]
    assert "If-None-Match" in preflight.headers["access-control-allow-headers"]


async def test_unknown_ids_are_404_with_a_json_error(server: Server) -> None:
    """An unknown tournament, match, player, room or path is 404 with {"error": {"code", "message"}}."""
    cases = {f"{API}/tournaments/NOSUCH": "TOURNAMENT_NOT_FOUND", f"{API}/tournaments/NOSUCH/standings":
             "TOURNAMENT_NOT_FOUND", f"{API}/matches/0123456789ab": "NO_MATCH", f"{API}/matches/nonsense": "NO_MATCH",
             f"{API}/players/Nobody%20Here": "NO_PLAYER", f"{API}/rooms/ZZZZZZ/moves": "ROOM_NOT_FOUND",
             f"{API}/nothing": "NOT_FOUND", "/static/../read_api.py": "NOT_FOUND"}
    for path, code in cases.items():
        answer = await get(server.url, path)
        assert answer.status == 404, path
        assert answer.headers["content-type"].startswith("application/json")
        assert answer.json()["error"]["code"] == code, path


async def test_bad_parameters_are_400(server: Server) -> None:
    """A stage or a leaderboard page that is not one is 400 BAD_PARAMETER (a stage the file has not: BAD_FORMAT)."""
    setup, _ = await _played(server)
    for path in (f"{API}/leaderboard?limit=500", f"{API}/leaderboard?offset=-1", f"{API}/leaderboard?ruleset=golf",
                 f"{API}/leaderboard?limit=1&limit=2", f"{API}/tournaments/{setup.tid}/standings?stage=x"):
        answer = await get(server.url, path)
        assert (answer.status, answer.json()["error"]["code"]) == (400, "BAD_PARAMETER"), path
    beyond = await get(server.url, f"{API}/tournaments/{setup.tid}/standings?stage=3")
    assert (beyond.status, beyond.json()["error"]["code"]) == (400, "BAD_FORMAT")


async def test_the_web_is_read_only(server: Server) -> None:
    """A method other than GET, HEAD and OPTIONS is 405; HEAD has the headers and no body."""
    assert (await get(server.url, f"{API}/tournaments", method="DELETE")).status == 405
    head = await get(server.url, f"{API}/tournaments", method="HEAD")
    assert head.status == 200 and head.body == b"" and int(head.headers["content-length"]) > 0


async def test_a_finished_match_is_its_export_and_its_moves_are_the_frames_its_room_broadcast(server: Server) -> None:
    """/matches/ID is `sprtec export`'s file; /matches/ID/moves holds every MovePlayed a spectator received, field for
    field (resolved again from the log)."""
    home, away = await two_coaches(server.url, "quick", SHORT)
    spectator = await WireClient.connect(server.url, "watcher")
    await spectator.send(Watch(home.code))
    await spectator.until(RoomJoined)
    await asyncio.wait_for(asyncio.gather(play_until_end(home), play_until_end(away)), 60)
    while spectator.ended is None:
        await spectator.recv()
    match_id = spectator.ended.match_id
    from server.replays.replay_export import scenario_text

    file = await get(server.url, f"{API}/matches/{match_id}")
    assert file.status == 200
    assert file.body.decode() == scenario_text(server.store.read_match(match_id)) + "\n"
    moves = (await get(server.url, f"{API}/matches/{match_id}/moves")).json()
    seen = [m for m in spectator.received if isinstance(m, MovePlayed)]
    assert len(moves["moves"]) == len(seen) > 0
    for served, broadcast in zip(moves["moves"], seen, strict=True):
        expected = json.loads(json.dumps({"t": "MovePlayed", **wire_of(broadcast, "MovePlayed")}))
        served = {k: v for k, v in served.items() if k not in ("index", "elapsed_ms")}
        assert {k: v for k, v in served.items() if k != "prompts"} == \
            {k: v for k, v in expected.items() if k != "prompts"}


async def test_a_running_match_is_not_public_but_its_room_gives_the_moves_so_far(server: Server) -> None:
    """While it is played /matches/ID is 403 MATCH_RUNNING; /rooms/CODE/moves has its moves so far."""
    home, away = await two_coaches(server.url, "quick", {**SHORT, "period_ms": 60_000})
    await asyncio.wait_for(asyncio.gather(play_until_end(home, 2), play_until_end(away, 2)), 30)
    match_id = server.lobby.rooms[home.code].match.id
    running = await get(server.url, f"{API}/matches/{match_id}")
    assert (running.status, running.json()["error"]["code"]) == (403, "MATCH_RUNNING")
    so_far = (await get(server.url, f"{API}/rooms/{home.code}/moves")).json()
    assert so_far["match_id"] == match_id and not so_far["finished"]
    versions = [m["version"] for m in so_far["moves"]]
    assert versions[:2] == [m.version for m in home.moves[:2]]
    assert versions == list(range(so_far["version_base"] + 1, so_far["version_base"] + 1 + len(versions)))


async def test_rooms_list_the_public_rooms_and_the_tables_with_their_tournament(server: Server) -> None:
    """/rooms has each open tournament table with its tournament, round and table; a private room is not listed."""
    await two_coaches(server.url, "quick", SHORT, names=("private-a", "private-b"))
    setup = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1}]))
    await _start(setup)
    rooms = (await get(server.url, f"{API}/rooms")).json()["rooms"]
    (table,) = rooms
    assert table["tournament"] == {"id": setup.tid, "name": "test", "stage": 0, "round": 1, "table": 1}
    assert table["code"] == server.tournaments.runs[setup.tid].state.tables[(0, 1, 1)].room


async def test_a_profile_and_a_leaderboard_are_the_protocols_records_without_ids(server: Server) -> None:
    """/players/NAME is the Profile (any case of the name) without the player's id; /leaderboard a Leaderboard."""
    home, away = await two_coaches(server.url, "quick", SHORT, rated=True, names=("Ann Novák", "bob"))
    await asyncio.wait_for(asyncio.gather(play_until_end(home), play_until_end(away)), 60)
    await server.players.settled()
    profile = (await get(server.url, f"{API}/players/ANN%20NOV%C3%81K")).json()
    assert profile["player"] == "Ann Novák" and profile["played"] == 1 and "player_id" not in profile
    assert profile["last"][0]["opponent"] == "bob"
    board = (await get(server.url, f"{API}/leaderboard?ruleset=quick&limit=10")).json()
    assert set(board) == {"family", "offset", "total", "players"} and board["family"] == "quick"


async def test_no_answer_names_a_token_a_secret_or_an_entry_code(server: Server) -> None:
    """Every API answer about a tournament and its coaches is free of the organiser secret, the entry codes and
    the coaches' tokens."""
    setup, _ = await _played(server)
    hidden = [setup.secret, *(c.token for c in setup.coaches.values()), setup.organiser.token]
    paths = [f"{API}/tournaments", f"{API}/tournaments/{setup.tid}", f"{API}/tournaments/{setup.tid}/standings",
             f"{API}/rooms", f"{API}/leaderboard", f"/tournaments/{setup.tid}"]
    for path in paths:
        body = (await get(server.url, path)).body.decode()
        for secret in hidden:
            assert secret not in body, path
            assert secret.split(".")[-1] not in body, path


async def test_the_operators_paths_are_still_answered_first(server: Server) -> None:
    """/healthz and /metrics are the operators' answers, not the web's."""
    health = await get(server.url, "/healthz")
    assert health.status == 200 and health.body == b"ok\n"
    assert b"sprtec_" in (await get(server.url, "/metrics")).body


def test_docs_api_names_every_path_the_server_answers_and_the_openapi_document_lists_them() -> None:
    """docs/API.md's table and /api/v1/openapi.json have every API route of the table, and nothing else."""
    import re
    from pathlib import Path

    from server.web import openapi
    from server.web.site import routes

    table = routes(None)  # type: ignore[arg-type]
    api = {r.pattern for r in table if r.api}
    text = (Path(__file__).resolve().parents[2] / "docs" / "API.md").read_text(encoding="utf-8")
    documented = {p.split("?")[0].split("[")[0] for p in re.findall(r"^\| `(/api/v1/[^`]*)`", text, re.M)}
    named = {re.sub(r"\b(ID|CODE|NAME)\b", "{}", p) for p in documented}
    assert named == {re.sub(r"\{\w+\}", "{}", p) for p in api}
    assert set(openapi.document(table)["paths"]) == api

"""The web on two real nodes sharing a real Redis and PostgreSQL: a page or a script asking any node about a tournament
or a room another node runs gets that node's answer, byte for byte (its ETag, its 304), and every node's list of
tournaments has every node's."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable

import pytest
import websockets

from shared.protocol import (
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    CreateRoom,
    Hello,
    JoinRoom,
    RoomJoined,
    Snapshot,
    decode,
    encode,
)
from sprtec.commands import league_actions
from sprtec.commands.tournament_actions import create
from sprtec.commands.tournament_client import Connection
from tests.cluster.nodes import Node
from tests.league_server.helpers import league_file
from tests.tournament_server.helpers import file_of
from tests.web.http_get import Answer, get

pytestmark = pytest.mark.slow
API = "/api/v1"


async def _listed(node: Node, path: str, key: str, ident: str) -> dict[str, object]:
    """The line of ``ident`` in the list at ``path`` (under ``key``) of ``node``, once the owner's heartbeat has
    published it."""
    deadline = time.monotonic() + 20
    while True:
        listed = {line["id"]: line for line in (await get(node.url, path)).json()[key]}
        if ident in listed or time.monotonic() > deadline:
            return dict(listed[ident])
        await asyncio.sleep(0.2)


async def _same_answer(asked: Node, owner: Node, path: str) -> Answer:
    """``path`` asked of ``asked`` is answered as ``owner`` answers it: status, body, ETag, Cache-Control."""
    theirs, mine = await get(owner.url, path), await get(asked.url, path)
    assert (mine.status, mine.body) == (theirs.status, theirs.body), (path, mine, asked.tail())
    for header in ("etag", "cache-control", "content-type"):
        assert mine.headers.get(header) == theirs.headers.get(header), (path, header)
    return mine


async def _room_on(url: str) -> tuple[str, list[websockets.ClientConnection]]:
    """Two coaches who start a match on the node at ``url``: the room's code and their connections."""
    coaches = []
    for _ in range(2):
        ws = await websockets.connect(url, compression=None, max_size=2**22)
        await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", None, None)))
        coaches.append(ws)
    await coaches[0].send(encode(CreateRoom("quick", {"move_clock_ms": 600000, "period_ms": 600000}, False)))
    code = ""
    while not code:
        message = decode(await asyncio.wait_for(coaches[0].recv(), 10), SERVER_MESSAGES)
        code = message.code if isinstance(message, RoomJoined) else ""
    await coaches[1].send(encode(JoinRoom(code)))
    while not isinstance(decode(await asyncio.wait_for(coaches[0].recv(), 10), SERVER_MESSAGES), Snapshot):
        pass
    return code, coaches


async def test_any_node_answers_about_a_tournament_or_a_room_another_node_runs(
    cluster: Callable[[str], Node]
) -> None:
    """A tournament, a league and a room run on A: B answers their API paths with A's bytes and ETags (a 304 for an
    ETag A gave, the headers alone for HEAD), lists the tournament (with its system) and the league among its own,
    and answers 404 for what nobody runs."""
    a, b = cluster("a"), cluster("b")
    organiser = await Connection.open(a.url, "organiser")
    file = file_of(4, stages=[{"system": "swiss", "rounds": 2}])
    created, _codes = await create(organiser, json.loads(file))
    tid = created.tournament
    mine = await _same_answer(b, a, f"{API}/tournaments/{tid}")
    assert mine.status == 200 and mine.json()["name"] == "test"
    again = await get(b.url, f"{API}/tournaments/{tid}", {"If-None-Match": mine.headers["etag"]})
    assert again.status == 304 and again.headers["etag"] == mine.headers["etag"]
    head = await get(b.url, f"{API}/tournaments/{tid}", method="HEAD")
    assert (head.status, head.body, head.headers["etag"]) == (200, b"", mine.headers["etag"])
    for path in ("standings", "ranking", "pairing"):
        await _same_answer(b, a, f"{API}/tournaments/{tid}/{path}")
    assert await _listed(b, f"{API}/tournaments", "tournaments", tid) == {
        "id": tid, "name": "test", "state": "registering", "system": "swiss", "stage": 0, "round": 0, "entries": 4,
        "playing": 0}
    nobody = await get(b.url, f"{API}/tournaments/ZZZZZZZZ")
    assert nobody.status == 404 and nobody.json()["error"]["code"] == "TOURNAMENT_NOT_FOUND"
    league = await league_actions.create(organiser, json.dumps(league_file(size=2)))
    for path in ("", "/table"):
        found = await _same_answer(b, a, f"{API}/leagues/{league.league}{path}")
        assert found.status == 200, found
    line = await _listed(b, f"{API}/leagues", "leagues", league.league)
    assert line["name"] == "2. liga" and line["day"] == 0, line
    code, coaches = await _room_on(a.url)
    try:
        moves = await _same_answer(b, a, f"{API}/rooms/{code}/moves")
        assert moves.status == 200
    finally:
        for ws in coaches:
            await ws.close()
    await organiser.close()

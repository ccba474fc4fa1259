"""Several `sprtec serve` nodes on one Redis and one PostgreSQL: rooms listed everywhere, coaches sent to their room's
owner, a killed node's matches taken over and finished, a drained node's rooms handed over."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import asyncpg
import pytest
import redis.asyncio as aioredis
import websockets
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import ConnectionClosed

from server.cluster.redis_registry import lease_key, node_key, seat_key
from server.replays.replay_export import build_scenario, scenario_text
from server.store import position_blob
from server.store.postgres.pg_store import PgStore
from shared import notation
from shared.ai import random_policy
from shared.protocol import (
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Act,
    CloseCode,
    CreateRoom,
    Hello,
    JoinRoom,
    Left,
    ListRooms,
    MatchEnded,
    MovePlayed,
    Notice,
    QueueStatus,
    QuickMatch,
    Resync,
    RoomJoined,
    RoomList,
    Snapshot,
    Watch,
    Welcome,
    decode,
    encode,
)
from sprtec.commands.bot import BotOptions, play
from sprtec.commands.scenario import run_scenario
from tests.cluster.nodes import ROOT, SHORT, Node
from tests.server.test_http_endpoints import get

pytestmark = pytest.mark.slow
MATCH_TIMEOUT_S = 120.0
T = TypeVar("T")


async def _created(url: str, name: str, others: tuple[str, ...] = ()) -> tuple[asyncio.Task[dict[str, object]], str]:
    """A random bot creating a short public room on ``url``: its task and the room's code."""
    code: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    options = BotOptions(mode="create", settings=dict(SHORT), random=True, name=name)

    def announce(room: str) -> None:
        """The room's code, once."""
        if not code.done():
            code.set_result(room)

    task = asyncio.ensure_future(play(url, options, announce, others=others))
    return task, await asyncio.wait_for(code, 30)


def _joining(url: str, code: str, name: str, others: tuple[str, ...] = ()) -> asyncio.Task[dict[str, object]]:
    """A random bot joining room ``code`` through ``url``."""
    return asyncio.ensure_future(play(url, BotOptions(mode="room", room=code, random=True, name=name), others=others))


async def _owner(redis_url: str, code: str) -> str | None:
    """The node holding room ``code``'s lease."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        found = await client.get(lease_key(code))
        return None if found is None else found.decode() if isinstance(found, bytes) else str(found)
    finally:
        await client.aclose()


async def _hello(url: str, token: str | None = None) -> tuple[websockets.ClientConnection, Welcome]:
    """A connection with its Welcome."""
    ws = await websockets.connect(url, compression=None, max_size=2**22)
    await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", token, None)))
    welcome = decode(await asyncio.wait_for(ws.recv(), 10), SERVER_MESSAGES)
    assert isinstance(welcome, Welcome), welcome
    return ws, welcome


@dataclass
class Watched:
    """What a spectator saw of a match: the nodes it connected to, every MovePlayed in order, the gaps it resynced,
    the end."""

    urls: list[str]
    moves: list[MovePlayed]
    gaps: int
    ended: MatchEnded


async def _watch(url: str, code: str) -> Watched:
    """Watch room ``code`` from ``url`` as a client does: following MOVED, a gap in the versions answered Resync."""
    token = None
    urls: list[str] = []
    moves: list[MovePlayed] = []
    gaps, version = 0, -1
    while True:
        urls.append(url)
        ws, welcome = await _hello(url, token)
        token = welcome.token
        try:
            await ws.send(encode(Watch(code)))
            while True:
                message = decode(await asyncio.wait_for(ws.recv(), 30), SERVER_MESSAGES)
                if isinstance(message, RoomJoined):
                    version = message.snapshot.version
                elif isinstance(message, Snapshot) and message.version > version:  # the match's start
                    version = message.version
                elif isinstance(message, MovePlayed) and message.version > version:
                    if message.version != version + 1:
                        gaps += 1
                        await ws.send(encode(Resync(code, version)))
                        continue
                    version = message.version
                    moves.append(message)
                elif isinstance(message, MatchEnded):
                    return Watched(urls, moves, gaps, message)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == CloseCode.MOVED, closed
            url = closed.rcvd.reason
        finally:
            await ws.close()


async def test_a_room_on_one_node_is_listed_joined_and_watched_through_another(
    cluster: Callable[[str], Node], redis_url: str
) -> None:
    """A room created on A is in B's RoomList; a coach joining through B is sent to A (MOVED) and plays there; a
    spectator on B watches through B (relayed) and sees every MovePlayed in order and the end; both coaches report
    the same result."""
    a, b = cluster("a"), cluster("b")
    creator, code = await _created(a.url, "ann")
    ws, _ = await _hello(b.url)
    try:
        await ws.send(encode(ListRooms()))
        listed = decode(await asyncio.wait_for(ws.recv(), 10), SERVER_MESSAGES)
        assert isinstance(listed, RoomList) and code in [room.code for room in listed.rooms]
    finally:
        await ws.close()
    watcher = asyncio.ensure_future(_watch(b.url, code))
    joiner = _joining(b.url, code, "bob")
    first, second = await asyncio.wait_for(asyncio.gather(creator, joiner), MATCH_TIMEOUT_S)
    assert first["match"] == second["match"] and first["score"] == second["score"], (first, second, a.tail())
    watched = await asyncio.wait_for(watcher, 30)
    assert watched.urls == [b.url] and watched.gaps == 0 and watched.ended.match_id == first["match"]
    assert watched.moves and {"home": watched.ended.score.home, "away": watched.ended.score.away} == first["score"]
    for _ in range(50):  # the room closes once both coaches and the spectator left, and its lease goes with it
        if await _owner(redis_url, code) is None:
            break
        await asyncio.sleep(0.1)
    assert await _owner(redis_url, code) is None


async def _acknowledged(postgres_url: str) -> dict[str, int]:
    """Every match's committed log entries (what the coaches were told), by match id."""
    conn = await asyncpg.connect(postgres_url)
    try:
        rows = await conn.fetch("SELECT match_id, COUNT(*) AS n FROM match_log GROUP BY match_id")
        return {row["match_id"]: int(row["n"]) for row in rows}
    finally:
        await conn.close()


@pytest.mark.slow(seconds=25)
@pytest.mark.parametrize("matches", [5])
async def test_a_node_killed_mid_match_has_every_match_finished_on_the_others(
    cluster: Callable[[str], Node], redis_url: str, postgres_url: str, matches: int
) -> None:
    """Node A runs every match and is killed with -9 in the middle: its leases lapse, B and C take the rooms over
    from PostgreSQL, every coach (a bot, reconnecting through the nodes it knows) finishes, spectators watching
    through B and C see the end without reconnecting, every match keeps every entry committed before the kill, and
    no room is ever owned by two nodes."""
    a, b, c = cluster("a"), cluster("b"), cluster("c")
    others = (b.url, c.url)
    games = []
    for i in range(matches):
        creator, code = await _created(a.url, f"home{i}", others)
        games.append((code, creator, _joining(b.url if i % 2 else c.url, code, f"away{i}", (a.url, *others))))
    watchers = [asyncio.ensure_future(_watch(node.url, games[0][0])) for node in (b, c)]
    await asyncio.sleep(2.0)  # a few moves each
    before = await _acknowledged(postgres_url)
    assert len(before) == matches and all(count > 0 for count in before.values()), (before, a.tail())
    a.kill()
    results = await asyncio.wait_for(asyncio.gather(*(t for _, creator, joiner in games for t in (creator, joiner))),
                                     MATCH_TIMEOUT_S)
    for node, watched in zip((b, c), await asyncio.wait_for(asyncio.gather(*watchers), 30), strict=True):
        assert watched.urls == [node.url], watched.urls  # relayed spectators never reconnected
        assert watched.ended.match_id == results[0]["match"] and watched.moves
    after = await _acknowledged(postgres_url)
    for (code, _, _), first, second in zip(games, results[0::2], results[1::2], strict=True):
        assert first["match"] == second["match"] and first["score"] == second["score"], (code, first, second)
        assert after[str(first["match"])] >= before[str(first["match"])], code
    assert {await _owner(redis_url, code) for code, _, _ in games} <= {"b", "c", None}
    taken = [line for node in (b, c) for line in node.log.read_text().splitlines() if "over (lease" in line]
    assert sorted(line.split(" room ")[1].split()[0] for line in taken) == sorted(code for code, _, _ in games)
    scraped = [await _metric(node.url, "sprtec_lease_takeovers_total") for node in (b, c)]
    assert sum(scraped) == matches  # /metrics counts the rooms each survivor took over
    await _exports_replay_to_the_stored_ends(postgres_url, [(str(r["match"]), r["score"]) for r in results[0::2]])



async def _metric(url: str, name: str) -> float:
    """The sum of one family's samples on a node's /metrics (its websocket port), parsed by prometheus-client."""
    status, _, body = await get(url.replace("ws://", "http://").rstrip("/") + "/metrics")
    assert status == 200, body
    return sum(sample.value for family in text_string_to_metric_families(body) for sample in family.samples
               if sample.name == name)

async def _exports_replay_to_the_stored_ends(postgres_url: str, ended: list[tuple[str, object]]) -> None:
    """Each match's export (``sprtec export --postgres``) replays, every entry accepted, to the position its last log
    row kept and the score its coaches were told."""
    store = PgStore(postgres_url, migrate=False)
    try:
        for match_id, score in ended:
            stored = store.read_match(match_id)
            results = run_scenario(build_scenario(stored))
            assert stored.finished and all(r["accepted"] for r in results), match_id
            kept = position_blob.unpack(store.stored_positions(match_id)[-1][1] or b"")
            assert results[-1]["position"] == notation.position_to_json(kept), match_id
            assert score == {"home": kept.score[0], "away": kept.score[1]}, match_id
        first = ended[0][0]
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "sprtec", "export", "--postgres", postgres_url, first, cwd=ROOT,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)  # fmt: skip
        out, err = await process.communicate()
        assert process.returncode == 0, err.decode()
        assert out.decode().strip() == scenario_text(store.read_match(first))
    finally:
        store.close()


async def test_sigterm_hands_a_nodes_matches_over_and_every_coach_finishes(
    cluster: Callable[[str], Node], redis_url: str, postgres_url: str
) -> None:
    """A node stopped with SIGTERM releases its rooms after their last commit instead of closing them: the other node
    takes them over at once, the coaches are sent there (MOVED) and finish, the stopped node exits 0 within seconds."""
    a, b = cluster("a"), cluster("b")
    games = []
    for i in range(2):
        creator, code = await _created(a.url, f"home{i}", (b.url,))
        games.append((code, creator, _joining(a.url, code, f"away{i}", (b.url,))))
    await asyncio.sleep(1.5)
    started = time.monotonic()
    a.process.send_signal(signal.SIGTERM)
    try:
        status = await asyncio.to_thread(a.process.wait, 20)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"node a still runs 20 s after SIGTERM:\n{a.tail(60)}") from None
    assert status == 0, a.tail()
    stopped_in = time.monotonic() - started
    results = await asyncio.wait_for(asyncio.gather(*(t for _, creator, joiner in games for t in (creator, joiner))),
                                     MATCH_TIMEOUT_S)
    for first, second in zip(results[0::2], results[1::2], strict=True):
        assert first["match"] == second["match"] and first["score"] == second["score"]
        assert first["reason"] != "FORFEIT_DISCONNECTED" and second["reason"] != "FORFEIT_DISCONNECTED"
    taken = [line for line in b.log.read_text().splitlines() if "over (lease" in line]
    assert len(taken) == len(games) and stopped_in < 15, (stopped_in, b.tail())
    assert "over (lease" not in a.log.read_text(), a.tail()  # a stopping node never takes back what it released
    await _exports_replay_to_the_stored_ends(postgres_url, [(str(r["match"]), r["score"]) for r in results[0::2]])


async def _until_message(ws: websockets.ClientConnection, kind: type[T]) -> T:
    """The next message of type ``kind`` on ``ws`` (others are skipped)."""
    while True:
        message = decode(await asyncio.wait_for(ws.recv(), 20), SERVER_MESSAGES)
        if isinstance(message, kind):
            return message


async def _match_on(url: str) -> tuple[tuple[websockets.ClientConnection, Welcome],
                                       tuple[websockets.ClientConnection, Welcome], RoomJoined, Snapshot]:
    """Two raw coaches (connection, Welcome) who start a match on ``url`` whose clocks never run out during a test:
    home, away, the creator's RoomJoined and the match's first Snapshot."""
    settings = dict(SHORT, move_clock_ms=600000, period_ms=600000, disconnect_grace_ms=60000)
    home, away = await _hello(url), await _hello(url)
    await home[0].send(encode(CreateRoom("standard", settings, False)))
    joined = await _until_message(home[0], RoomJoined)
    await away[0].send(encode(JoinRoom(joined.code)))
    return home, away, joined, await _until_message(home[0], Snapshot)


async def _logged(node: Node, text: str, within_s: float = 20.0) -> None:
    """Wait until ``node``'s log has a line with ``text``."""
    deadline = time.monotonic() + within_s
    while text not in node.log.read_text(errors="replace"):
        assert time.monotonic() < deadline, (text, node.tail())
        await asyncio.sleep(0.1)


async def test_a_node_paused_past_its_lease_writes_nothing_over_the_rooms_new_owner(
    cluster: Callable[[str], Node], postgres_url: str
) -> None:
    """A node frozen (SIGSTOP) longer than its leases loses the room it opened to the other node; the action a coach
    sent meanwhile, read when it wakes, is refused by the store's fence - no move the new owner never saw is written
    or told - and the coach is sent to the new owner, where the match goes on from the same version."""
    a, b = cluster("a"), cluster("b")
    (home, home_welcome), (away, away_welcome), joined, start = await _match_on(a.url)
    mover = home if start.position.to_move == "home" else away
    a.process.send_signal(signal.SIGSTOP)
    try:
        await _logged(b, f"took room {joined.code} over")
        flick = random_policy(start.position, start.position.to_move)
        assert flick is not None
        await mover.send(encode(Act(flick, start.version)))  # read by node A when it wakes
    finally:
        a.process.send_signal(signal.SIGCONT)
    told: list[object] = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            told.append(decode(await asyncio.wait_for(mover.recv(), 20), SERVER_MESSAGES))
    assert not any(isinstance(message, MovePlayed) for message in told), told
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.MOVED
    assert closed.value.rcvd.reason == b.url
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT count(*) FROM match_log WHERE match_id = $1", start.match_id) == 0
    finally:
        await connection.close()
    again, _ = await _hello(b.url, (home_welcome if mover is home else away_welcome).token)
    back = await _until_message(again, RoomJoined)
    assert back.snapshot.version == start.version and back.snapshot.match_id == start.match_id
    for ws in (home, away, again):
        await ws.close()


async def test_a_coach_reaching_a_survivor_before_the_dead_nodes_leases_lapse_is_seated_when_they_do(
    cluster: Callable[[str], Node], redis_url: str
) -> None:
    """Node A is killed; its own key is gone at once (it lapses first) while its rooms' leases still run: a coach
    who reconnects to B right away is neither sent to a node that is no more nor left waiting - B waits out the
    lease, takes the room over and seats him (RoomJoined)."""
    a, b = cluster("a"), cluster("b")
    (home, welcome), (away, _), joined, start = await _match_on(a.url)
    client = aioredis.Redis.from_url(redis_url)
    try:
        for _ in range(100):  # the seats reach the registry (where a reconnecting coach's room is looked up)
            if len(await client.keys(seat_key(0).removesuffix("0") + "*")) == 2:
                break
            await asyncio.sleep(0.1)
        a.kill()
        await client.delete(node_key("a"))
        assert await client.get(lease_key(joined.code)) is not None  # the room's lease still runs
    finally:
        await client.aclose()
    again, _ = await _hello(b.url, welcome.token)
    back = await _until_message(again, RoomJoined)  # within the lease (3 s) and the takeover
    assert back.code == joined.code and back.snapshot.match_id == start.match_id
    for ws in (home, away, again):
        await ws.close()


async def test_a_seat_record_of_a_room_that_is_gone_does_not_hold_the_coach_up(
    cluster: Callable[..., Node], redis_url: str
) -> None:
    """The registry says a player holds a seat in a room no node has and the store does not know (a record left
    behind): his reconnection is served at once - no takeover to wait for, his requests answered."""
    a = cluster("a")
    ws, welcome = await _hello(a.url)
    await ws.close()
    player_id = int(welcome.token.split(".", 1)[0])
    client = aioredis.Redis.from_url(redis_url)
    try:
        await client.set(seat_key(player_id), "GONE42")
    finally:
        await client.aclose()
    again, _ = await _hello(a.url, welcome.token)
    await again.send(encode(ListRooms()))
    assert isinstance(await _until_message(again, RoomList), RoomList)
    await again.close()


async def test_the_quick_match_queue_pairs_players_waiting_on_different_nodes(cluster: Callable[[str], Node]) -> None:
    """One bot queues on A, the other on B: the queue is the cluster's, they are paired, one of them is sent to the
    other's node, and both play the same rated match to its end."""
    a, b = cluster("a"), cluster("b")
    first = asyncio.ensure_future(play(a.url, BotOptions(mode="quick", ruleset="quick", settings=dict(SHORT),
                                                         random=True, name="qa")))
    second = asyncio.ensure_future(play(b.url, BotOptions(mode="quick", ruleset="quick", settings=dict(SHORT),
                                                          random=True, name="qb")))
    one, other = await asyncio.wait_for(asyncio.gather(first, second), MATCH_TIMEOUT_S)
    assert one["match"] == other["match"] and one["score"] == other["score"], (one, other, a.tail(), b.tail())
    assert {one["seat"], other["seat"]} == {"home", "away"}
    sent = [line for node in (a, b) for line in node.log.read_text().splitlines() if ": 4004 ws://" in line]
    assert len(sent) == 1 and (a.url in sent[0] or b.url in sent[0]), sent


async def test_a_quick_match_opponent_who_never_arrives_gives_the_player_his_place_in_the_queue_back(
    cluster: Callable[..., Node], postgres_url: str
) -> None:
    """Two players queue on two nodes and are paired; the one sent to the other's node never follows MOVED. After
    the held seat's wait the player seated there leaves the empty room (Left), is told why (Notice
    OPPONENT_MISSING) and is queued again (QueueStatus queued) - he is not left in a room nobody will join."""
    a, b = cluster("a", "--held-seat-wait", "2"), cluster("b", "--held-seat-wait", "2")
    one, _ = await _hello(a.url)
    other, _ = await _hello(b.url)
    for ws in (one, other):
        await ws.send(encode(QuickMatch("quick", {})))
    seated: list[websockets.ClientConnection] = []

    async def follow(ws: websockets.ClientConnection) -> list[object]:
        """What one player is told until the wait is over (or his node sends him away, which he ignores)."""
        told: list[object] = []
        try:
            while True:
                message = decode(await asyncio.wait_for(ws.recv(), 15), SERVER_MESSAGES)
                told.append(message)
                if isinstance(message, RoomJoined):
                    seated.append(ws)
                if isinstance(message, QueueStatus) and message.queued and any(isinstance(m, Left) for m in told):
                    return told
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == CloseCode.MOVED
            return told

    told_one, told_other = await asyncio.gather(follow(one), follow(other))
    assert len(seated) == 1
    told = told_one if seated[0] is one else told_other
    kinds = [type(message).__name__ for message in told]
    assert kinds.index("RoomJoined") < kinds.index("Left") < kinds.index("Notice"), kinds
    notice = next(message for message in told if isinstance(message, Notice))
    assert notice.code == "OPPONENT_MISSING"
    code = next(message.code for message in told if isinstance(message, RoomJoined))
    connection = await asyncpg.connect(postgres_url)
    try:  # the room given up is forgotten by the store too: no node takes it over later
        for _ in range(50):
            if await connection.fetchval("SELECT count(*) FROM rooms WHERE code = $1", code) == 0:
                break
            await asyncio.sleep(0.1)
        assert await connection.fetchval("SELECT count(*) FROM rooms WHERE code = $1", code) == 0
    finally:
        await connection.close()
    for ws in (one, other):
        await ws.close()


async def test_a_reconnect_storm_against_three_nodes_loses_nobody(cluster: Callable[[str], Node]) -> None:
    """Two matches on A, 60 spectators spread over A, B and C; three times every spectator drops and comes back at
    once with its token: each is welcomed and watching again every time, the matches finish, every node stays
    ready (/readyz 200) and alive."""
    nodes = [cluster("a"), cluster("b"), cluster("c")]
    a = nodes[0]
    others = tuple(node.url for node in nodes[1:])
    games = []
    for i in range(2):
        creator, code = await _created(a.url, f"storm-home{i}", others)
        games.append((code, creator, _joining(a.url, code, f"storm-away{i}", others)))
    tokens: list[str | None] = [None] * 60

    async def come_back(i: int) -> None:
        """Spectator ``i`` connects to its node with its token and watches its room until RoomJoined."""
        url, code = nodes[i % 3].url, games[i % 2][0]
        ws, welcome = await _hello(url, tokens[i])
        tokens[i] = welcome.token
        try:
            await ws.send(encode(Watch(code)))
            while not isinstance(decode(await asyncio.wait_for(ws.recv(), 30), SERVER_MESSAGES), RoomJoined):
                pass
        finally:
            await ws.close()

    for _storm in range(3):
        await asyncio.wait_for(asyncio.gather(*(come_back(i) for i in range(60))), 60)
    results = await asyncio.wait_for(asyncio.gather(*(t for _, creator, joiner in games for t in (creator, joiner))),
                                     MATCH_TIMEOUT_S)
    assert all(first["match"] == second["match"] for first, second in zip(results[0::2], results[1::2], strict=True))
    assert all(tokens)
    for node in nodes:
        assert node.process.poll() is None, node.tail()
        status, _, _ = await get(node.url.replace("ws://", "http://").rstrip("/") + "/readyz")
        assert status == 200, node.tail()


"""The handshake and the room flows exactly as docs/PROTOCOL.md writes them, over real websockets on port 0."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import msgpack
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from server import app as server_app
from server.app import Server, ServerConfig
from server.store.sqlite.sqlite_store import DATABASE
from shared.model import Flick
from shared.protocol import (
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Act,
    ClockUpdate,
    CloseCode,
    CreateRoom,
    Error,
    GetReplay,
    Hello,
    JoinRoom,
    ListRooms,
    MatchEnded,
    MovePlayed,
    Ping,
    Pong,
    Presence,
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
from tests.server.conftest import SHORT
from tests.server.players import RECV_TIMEOUT_S, WireClient, two_coaches


async def _raw(url: str) -> websockets.ClientConnection:
    """A connection that has not said Hello yet."""
    return await websockets.connect(url, compression=None, max_size=2**20)


async def _recv(ws: websockets.ClientConnection) -> object:
    """The next server message."""
    return decode(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S), SERVER_MESSAGES)


async def _match(srv: Server, settings: dict[str, int] = SHORT) -> tuple[WireClient, WireClient]:
    """Ann and Bob in a private quick room whose match has started (both saw its first Snapshot)."""
    return await two_coaches(srv.url, "quick", settings)


async def test_a_message_before_hello_gets_hello_required_and_hello_still_works(server: Server):
    """Ping before Hello: Error{HELLO_REQUIRED, ref: Ping}; the connection waits and a Hello is then welcomed."""
    ws = await _raw(server.url)
    await ws.send(encode(Ping(5)))
    error = await _recv(ws)
    assert isinstance(error, Error) and error.code == "HELLO_REQUIRED" and error.ref == "Ping"
    await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", None, "ann")))
    assert isinstance(await _recv(ws), Welcome)
    await ws.close()


async def test_an_undecodable_frame_before_hello_is_answered_with_ref_nil(server: Server):
    """Garbage before Hello: Error{BAD_MESSAGE, ref: nil} (only a frame that could not be decoded has no ref)."""
    ws = await _raw(server.url)
    await ws.send(b"\xc1\xc1")
    error = await _recv(ws)
    assert isinstance(error, Error) and error.code == "BAD_MESSAGE" and error.ref is None
    await ws.close()


async def test_another_protocol_version_is_closed_with_the_documented_reason(server: Server):
    """Hello{protocol: 99}: close 4000 'protocol mismatch: server speaks 1'."""
    ws = await _raw(server.url)
    await ws.send(encode(Hello(99, "tests")))
    with pytest.raises(ConnectionClosed):
        await _recv(ws)
    assert ws.close_code == CloseCode.VERSION_MISMATCH
    assert ws.close_reason == f"protocol mismatch: server speaks {PROTOCOL_VERSION}"


@pytest.mark.parametrize("name", ["bob\n2026 INFO forged", "\u202eevil", "   ", "x" * 25])
async def test_a_name_that_is_no_display_name_is_refused_and_another_hello_may_follow(server: Server, name: str):
    """Newlines, bidi overrides, blank and 25-character names get BAD_NAME; a second Hello with a good name works."""
    ws = await _raw(server.url)
    await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", None, name)))
    error = await _recv(ws)
    assert isinstance(error, Error) and error.code == "BAD_NAME" and error.ref == "Hello"
    await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", None, "  Jan   Novák ")))
    welcome = await _recv(ws)
    assert isinstance(welcome, Welcome) and welcome.player == "Jan Novák"
    await ws.close()


async def test_hello_with_the_token_of_a_seated_coach_is_followed_by_room_joined(server: Server):
    """A coach whose client closed comes back with his token: Welcome, then RoomJoined with his seat; meanwhile
    his opponent was told how long he had left to come back."""
    ann, bob = await _match(server, {**SHORT, "disconnect_grace_ms": 30_000})
    await bob.close()
    while True:
        presence = await ann.until(Presence)
        away = presence.seats.away if ann.team == "home" else presence.seats.home
        if away is not None and not away.connected:
            break
    assert away is not None and not away.connected and away.grace_ms is not None and 0 < away.grace_ms <= 30_000
    ws = await _raw(server.url)
    await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", bob.token)))
    assert isinstance(await _recv(ws), Welcome)
    joined = await _recv(ws)
    assert isinstance(joined, RoomJoined) and joined.code == ann.code and joined.seat == bob.team
    await ws.close()


async def test_a_coach_who_forfeited_while_away_is_told_the_result_on_his_return(server: Server):
    """Bob stays away past the grace: his next Hello is followed by MatchEnded (FORFEIT_DISCONNECTED); after the
    room has closed, JoinRoom of its code answers the same instead of ROOM_NOT_FOUND."""
    ann, bob = await _match(server, {**SHORT, "disconnect_grace_ms": 300})
    code = ann.code
    await bob.close()
    ended = await ann.until(MatchEnded)
    assert ended.reason == "FORFEIT_DISCONNECTED"
    await asyncio.sleep(0.2)  # the store writes bob's last visit
    back = await WireClient.connect(server.url, token=bob.token)
    told = await back.until(MatchEnded)
    assert told == ended
    await ann.close()
    await asyncio.sleep(0.2)  # the room closes once empty
    await back.send(JoinRoom(code))
    again = await back.until(MatchEnded)
    assert again.match_id == ended.match_id and again.winner == ann.team


async def test_room_joined_is_the_first_message_about_a_room(server: Server):
    """Create: RoomJoined then Presence. Join: RoomJoined, the match's first Snapshot, Presence. Quick match: each
    coach gets QueueStatus{queued: false} before his RoomJoined."""
    ann = await WireClient.connect(server.url, "ann")
    await ann.send(CreateRoom("quick", SHORT, True))
    assert isinstance(await ann.recv(), RoomJoined) and isinstance(await ann.recv(), Presence)
    bob = await WireClient.connect(server.url, "bob")
    await bob.send(JoinRoom(ann.code))
    kinds = [type(await bob.recv()) for _ in range(3)]
    assert kinds == [RoomJoined, Snapshot, Presence]
    cy = await WireClient.connect(server.url, "cy")
    await cy.send(QuickMatch("quick"))
    assert (await cy.until(QueueStatus)).queued
    di = await WireClient.connect(server.url, "di")
    await di.send(QuickMatch("quick"))
    for coach in (cy, di):
        status = await coach.recv()
        assert isinstance(status, QueueStatus) and not status.queued
        assert isinstance(await coach.recv(), RoomJoined)


async def test_resync_at_the_current_version_answers_clocks_and_past_it_stale_version(server: Server):
    """Resync{since: version} gets a ClockUpdate (nothing was missed); since > version gets STALE_VERSION."""
    ann, _ = await _match(server)
    await ann.send(Resync(ann.code, ann.version))
    assert (await ann.until(ClockUpdate)).code == ann.code
    await ann.send(Resync(ann.code, ann.version + 5))
    error = await ann.until(Error)
    assert error.code == "STALE_VERSION" and error.ref == "Resync"


async def test_an_act_on_a_version_never_sent_is_stale(server: Server):
    """Act on a future version: STALE_VERSION saying the room never sent it."""
    ann, bob = await _match(server)
    mover = ann if ann.my_turn() else bob
    action = mover.flick()
    await mover.send(Act(action.action, mover.version + 3))
    error = await mover.until(Error)
    assert error.code == "STALE_VERSION" and "never sent" in error.message


async def test_nobody_moves_while_a_coach_is_away(server: Server):
    """With Bob disconnected (clocks paused) Ann's move is refused: the match waits for him."""
    ann, bob = await _match(server, {**SHORT, "disconnect_grace_ms": 30_000})
    await bob.close()
    await ann.until(ClockUpdate)
    assert ann.position is not None and ann.team is not None
    stone = next(s.id for s in ann.position.stones if s.team == ann.team)
    await ann.send(Act(Flick(ann.team, stone, 1500.0, 0.0), ann.version))
    error = await ann.until(Error)
    assert error.code == "ACTION_NOT_ALLOWED" and "away" in error.message


async def test_a_refusal_during_the_break_says_when_the_break_ends(server: Server):
    """III.5: an action in the break is refused with retry_ms, the time left of the break."""
    ann = await WireClient.connect(server.url, "ann")
    await ann.send(CreateRoom("standard", {"period_ms": 300, "break_ms": 5000}, True))
    await ann.until(RoomJoined)
    bob = await WireClient.connect(server.url, "bob")
    await bob.send(JoinRoom(ann.code))
    await bob.until(RoomJoined)
    while ann.position is None or ann.position.part.kind != "break":  # period 1 ends at 300 ms
        await ann.recv()
    assert ann.team is not None
    stone = next(s.id for s in ann.position.stones if s.team == ann.team)
    await ann.send(Act(Flick(ann.team, stone, 1500.0, 0.0), ann.version))
    error = await ann.until(Error)
    assert error.code == "ACTION_NOT_ALLOWED" and "break" in error.message
    assert error.retry_ms is not None and 0 < error.retry_ms <= 5000


async def test_a_silent_spectator_who_answers_pings_is_never_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Keep-alive is the websocket ping: a spectator who sends nothing for many ping intervals stays and still
    gets the room's news."""
    monkeypatch.setattr(server_app, "PING_INTERVAL_S", 0.1)
    monkeypatch.setattr(server_app, "PING_TIMEOUT_S", 1.0)
    srv = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0))
    await srv.start()
    try:
        ann, bob = await _match(srv, {**SHORT, "period_ms": 60_000, "move_clock_ms": 60_000})
        watcher = await WireClient.connect(srv.url, "cy")
        await watcher.send(Watch(ann.code))
        await watcher.until(RoomJoined)
        await asyncio.sleep(2.0)  # twenty pings answered, not one message sent
        mover = ann if ann.my_turn() else bob
        await mover.send(mover.flick())
        played = await watcher.until(MovePlayed)
        assert played.team == mover.team and watcher.ws.close_code is None
    finally:
        await srv.shutdown()


async def test_a_rate_limited_message_is_named_in_its_error(server: Server):
    """Past the budget each refused message gets RATE_LIMITED with ref naming its type."""
    ann = await WireClient.connect(server.url, "ann")
    for nonce in range(101):
        await ann.send(Ping(nonce))
    seen = [await ann.recv() for _ in range(101)]
    refused = [m for m in seen if isinstance(m, Error)]
    assert len([m for m in seen if isinstance(m, Pong)]) >= 100 - 1
    assert refused and all(e.code == "RATE_LIMITED" and e.ref == "Ping" for e in refused)


async def test_a_frame_with_a_key_twice_is_refused_not_read_as_its_last_value(server: Server):
    """{t: ListRooms, t: Ping, nonce: 1} is BAD_MESSAGE, not a Pong."""
    ann = await WireClient.connect(server.url, "ann")
    frame = b"\x83" + b"".join(msgpack.packb(x) for x in ("t", "ListRooms", "nonce", 1, "t", "Ping"))
    await ann.ws.send(frame)
    error = await ann.until(Error)
    assert error.code == "BAD_MESSAGE" and error.ref is None
    await ann.send(ListRooms())
    assert isinstance(await ann.recv(), RoomList)


async def test_a_copy_of_the_database_holds_no_token(server: Server):
    """Only a hash of the token's secret is stored: neither the token nor its secret is in the file; a token with
    the right player id and a wrong secret is refused (4002)."""
    ann = await WireClient.connect(server.url, "ann")
    await asyncio.sleep(0.1)
    player_id, secret = ann.token.split(".", 1)
    raw = (server.config.data_dir / DATABASE).read_bytes() + (server.config.data_dir / f"{DATABASE}-wal").read_bytes()
    assert secret.encode() not in raw and ann.token.encode() not in raw
    with sqlite3.connect(server.config.data_dir / DATABASE) as conn:
        (stored,) = conn.execute("SELECT token_hash FROM players WHERE id = ?", (int(player_id),)).fetchone()
    assert stored != secret and len(stored) == 64
    ws = await _raw(server.url)
    await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", f"{player_id}.{'x' * len(secret)}")))
    with pytest.raises(ConnectionClosed):
        await _recv(ws)
    assert ws.close_code == CloseCode.BAD_TOKEN


async def test_an_unknown_match_id_names_no_server_path(server: Server):
    """GetReplay of a match that does not exist: NO_MATCH, and the message shows no file path of the server."""
    ann = await WireClient.connect(server.url, "ann")
    await ann.send(GetReplay("0123456789ab"))
    error = await ann.until(Error)
    assert error.code == "NO_MATCH" and str(server.config.data_dir) not in error.message and "/" not in error.message


@pytest.mark.parametrize("code", ["-", "---", "   "])
async def test_an_empty_or_malformed_room_code_is_refused(server: Server, code: str):
    """A room code with no letters or digits is BAD_MESSAGE, not a search."""
    ann = await WireClient.connect(server.url, "ann")
    await ann.send(Watch(code))
    error = await ann.until(Error)
    assert error.code == "BAD_MESSAGE" and error.ref == "Watch"


async def test_settings_without_sense_are_refused_by_name(server: Server):
    """CreateRoom with a negative break: BAD_SETTINGS naming break_ms; no room is opened."""
    ann = await WireClient.connect(server.url, "ann")
    await ann.send(CreateRoom("standard", {"break_ms": -1}, True))
    error = await ann.until(Error)
    assert error.code == "BAD_SETTINGS" and "break_ms" in error.message and ann.code == ""

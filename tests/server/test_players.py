"""Players over real websockets on port 0: unique names, claim codes, rated matches and their Rated news, profiles,
leaderboards, and quick-match pairing by rating with a fake clock."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from server.app import Server, ServerConfig
from server.clock import FakeClock
from server.store.player_records import PlayerRecords, StoredRating
from shared.protocol import (
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    ClaimCode,
    CloseCode,
    CreateRoom,
    Error,
    GetClaimCode,
    GetLeaderboard,
    GetProfile,
    Hello,
    JoinRoom,
    Leaderboard,
    Leave,
    Left,
    MatchEnded,
    MovePlayed,
    Presence,
    Profile,
    QuickMatch,
    Rated,
    Rename,
    Renamed,
    RoomJoined,
    Snapshot,
    Watch,
    Welcome,
    decode,
    encode,
)
from shared.ratings import Rating
from tests.server.conftest import SHORT
from tests.server.players import RECV_TIMEOUT_S, WireClient, play_until_end, two_coaches

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def server(tmp_path: Path, store_url: str | None) -> AsyncIterator[Server]:
    """A running server (physics in-line, real clock) on a free port, its store SQLite or PostgreSQL."""
    srv = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0, postgres=store_url))
    await srv.start()
    yield srv
    await srv.shutdown()


async def _hello(url: str, **fields: object) -> tuple[websockets.ClientConnection, object]:
    """A connection and the server's answer to its Hello."""
    ws = await websockets.connect(url, compression=None, max_size=2**20)
    await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", **fields)))  # type: ignore[arg-type]
    return ws, decode(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S), SERVER_MESSAGES)


async def test_a_name_is_unique_on_a_server_whatever_its_case(server: Server):
    """Novák takes the name; NOVÁK and a decomposed nova\u0301k are NAME_TAKEN and may say Hello again."""
    first = await WireClient.connect(server.url, "Novák")
    assert first.welcome.player == "Novák" and first.welcome.player_id is not None
    for other in ("NOVÁK", "nova\u0301k"):
        ws, answer = await _hello(server.url, name=other)
        assert isinstance(answer, Error) and answer.code == "NAME_TAKEN" and answer.ref == "Hello"
        await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", None, "Kowalski " + str(len(other)))))
        assert isinstance(decode(await ws.recv(), SERVER_MESSAGES), Welcome)
        await ws.close()


async def test_a_name_that_looks_like_a_taken_one_is_taken(server: Server):
    """With Novák and Ivan here, Nоvák (a Cyrillic о) and lvan (a small L) are NAME_TAKEN, naming whom they look
    like; Jiří Šťastný and Łukasz Żółć are both welcomed."""
    for name in ("Novák", "Ivan", "Jiří Šťastný", "Łukasz Żółć"):
        assert (await WireClient.connect(server.url, name)).welcome.player == name
    for other, holder in (("N\u043ev\u00e1k", "Novák"), ("lvan", "Ivan")):
        ws, answer = await _hello(server.url, name=other)
        assert isinstance(answer, Error) and answer.code == "NAME_TAKEN" and holder in answer.message
        await ws.close()


async def test_a_name_that_shows_nothing_is_refused_and_another_hello_may_follow(server: Server):
    """Two combining marks (shown as nothing) and a Hangul filler are BAD_NAME; the connection stays for a Hello."""
    ws, answer = await _hello(server.url, name="\u0301\u0308")
    assert isinstance(answer, Error) and answer.code == "BAD_NAME" and answer.ref == "Hello"
    await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", None, "\u3164")))
    answer = decode(await ws.recv(), SERVER_MESSAGES)
    assert isinstance(answer, Error) and answer.code == "BAD_NAME"
    await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", None, "Zdeněk")))
    assert isinstance(decode(await ws.recv(), SERVER_MESSAGES), Welcome)
    await ws.close()


async def test_refused_hellos_are_not_invalid_messages(server: Server):
    """Twelve Hellos refused BAD_NAME, NAME_TAKEN and BAD_CLAIM (more than the ten invalid messages that close a
    connection) leave it open: the next Hello with a free name is welcomed."""
    await WireClient.connect(server.url, "Taken")
    ws, answer = await _hello(server.url, name="taken")
    codes = [answer.code if isinstance(answer, Error) else type(answer).__name__]
    for index in range(11):  # one wrong claim code only: each is answered a second late
        refused = Hello(PROTOCOL_VERSION, "tests", claim="AAAAAAAA") if index == 0 else \
            (Hello(PROTOCOL_VERSION, "tests", None, "a\nb"), Hello(PROTOCOL_VERSION, "tests", None, "TAKEN"))[index % 2]
        await ws.send(encode(refused))
        answer = decode(await ws.recv(), SERVER_MESSAGES)
        codes.append(answer.code if isinstance(answer, Error) else type(answer).__name__)
    assert set(codes) == {"BAD_NAME", "NAME_TAKEN", "BAD_CLAIM"} and len(codes) == 12
    await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", None, "Free")))
    assert isinstance(decode(await ws.recv(), SERVER_MESSAGES), Welcome)
    await ws.close()


async def test_guest_names_are_the_servers_own(server: Server):
    """Without a name a player is guest-<n>; nobody may choose a name starting with guest-."""
    guest = await WireClient.connect(server.url)
    assert guest.welcome.player == f"guest-{guest.welcome.player_id}"
    _ws, answer = await _hello(server.url, name="Guest-99")
    assert isinstance(answer, Error) and answer.code == "BAD_NAME"


async def test_rename_keeps_names_unique_and_survives_a_reconnect(server: Server):
    """Rename to a free name: Renamed, and the next Welcome says it; to a taken one (other case): NAME_TAKEN."""
    ann = await WireClient.connect(server.url, "Ann")
    await WireClient.connect(server.url, "Bob")
    await ann.send(Rename("bob"))
    assert (await ann.until(Error)).code == "NAME_TAKEN"
    await ann.send(Rename("  Anna  Nová "))
    assert (await ann.until(Renamed)).name == "Anna Nová"
    again = await WireClient.connect(server.url, token=ann.token)
    assert again.welcome.player == "Anna Nová"


async def test_a_claim_code_takes_the_identity_to_another_machine_once(server: Server):
    """GetClaimCode gives a code; Hello{claim} elsewhere is the same player with a token of its own, the first
    machine's token still works; a second use of the code is BAD_CLAIM."""
    ann = await WireClient.connect(server.url, "Ann")
    await ann.send(GetClaimCode())
    code = (await ann.until(ClaimCode)).code
    ws, welcome = await _hello(server.url, claim=code.lower())
    assert isinstance(welcome, Welcome) and welcome.player == "Ann" and welcome.player_id == ann.welcome.player_id
    assert welcome.token != ann.token
    await ws.close()
    assert (await WireClient.connect(server.url, token=welcome.token)).welcome.player == "Ann"
    assert (await WireClient.connect(server.url, token=ann.token)).welcome.player == "Ann"
    _ws, again = await _hello(server.url, claim=code)
    assert isinstance(again, Error) and again.code == "BAD_CLAIM"


async def _rated_room(server: Server, settings: dict[str, int]) -> tuple[WireClient, WireClient]:
    """Ann and Bob in a rated private room whose match has started."""
    return await two_coaches(server.url, "quick", settings, rated=True, names=("Ann", "Bob"))


async def test_a_rated_match_moves_both_ratings_and_the_room_is_told(server: Server):
    """A played rated match: Rated follows MatchEnded with both changes (the winner up, the loser down; a draw
    leaves equals equal), stored for profiles and shown beside the names in the next Presence."""
    ann, bob = await _rated_room(server, SHORT)
    await asyncio.wait_for(asyncio.gather(play_until_end(ann), play_until_end(bob)), 30)
    rated = await ann.until(Rated)
    assert ann.ended is not None and rated.match_id == ann.ended.match_id
    changes = {c.team: c for c in rated.changes}
    assert set(changes) == {"home", "away"} and all(c.before == 1500 and c.family == "quick" for c in rated.changes)
    winner = ann.ended.winner
    if winner is None:
        assert changes["home"].after == changes["away"].after == 1500
    else:
        loser = "away" if winner == "home" else "home"
        assert changes[winner].after > 1500 > changes[loser].after
    profile_name = changes["home"].player
    await ann.send(GetProfile(profile_name))
    profile = await ann.until(Profile)
    assert profile.played == 1 and profile.ratings[0].family == "quick" and profile.ratings[0].provisional
    assert profile.last[0].match_id == rated.match_id and profile.last[0].rating_change is not None
    watcher = await WireClient.connect(server.url, "Cy")
    await watcher.send(Watch(ann.code))
    seats = (await ann.until(Presence)).seats
    assert seats.home is not None and seats.away is not None
    assert {seats.home.rating, seats.away.rating} == {c.after for c in rated.changes} and seats.home.provisional


async def test_a_casual_room_and_a_match_abandoned_at_the_start_are_not_rated(server: Server):
    """CreateRoom without rated: no Rated after the end; a rated room whose coach leaves before any move: none."""
    ann = await WireClient.connect(server.url, "Ann")
    await ann.send(CreateRoom("quick", SHORT, True))
    await ann.until(RoomJoined)
    bob = await WireClient.connect(server.url, "Bob")
    await bob.send(JoinRoom(ann.code))
    await asyncio.wait_for(asyncio.gather(play_until_end(ann), play_until_end(bob)), 30)
    await server.players.settled()
    assert not [m for m in ann.received if isinstance(m, Rated)]
    cy, di = await _rated_room_named(server, "Cy", "Di")
    await di.close()  # Di never moves and stays away past the grace: a forfeit at the start
    await asyncio.wait_for(cy.until(MatchEnded), 10)
    await server.players.settled()
    assert not [m for m in cy.received if isinstance(m, Rated)]
    assert PlayerRecords(server.store).ratings(cy.welcome.player_id or 0) == {}


async def test_a_coach_who_resigns_by_leaving_is_told_his_rating_too(server: Server):
    """After a move, the coach to move leaves a rated room (resigning): Left, then his own Rated, the same his
    opponent in the room gets."""
    ann, bob = await _rated_room_named(server, "Eva", "Fil")
    await bob.until(Snapshot)  # the match's first, after his RoomJoined
    mover = ann if ann.my_turn() else bob
    other = bob if mover is ann else ann
    await mover.send(mover.flick())
    await asyncio.wait_for(asyncio.gather(mover.until(MovePlayed), other.until(MovePlayed)), 10)
    await mover.send(Leave())
    await mover.until(Left)
    told = await asyncio.wait_for(mover.until(Rated), 10)
    assert told == await asyncio.wait_for(other.until(Rated), 10)
    assert {c.player for c in told.changes} == {"Eva", "Fil"}


async def _rated_room_named(server: Server, first: str, second: str) -> tuple[WireClient, WireClient]:
    """Two named coaches in a rated room with a short grace whose match has started."""
    a = await WireClient.connect(server.url, first)
    await a.send(CreateRoom("quick", {**SHORT, "disconnect_grace_ms": 300}, True, rated=True))
    await a.until(RoomJoined)
    b = await WireClient.connect(server.url, second)
    await b.send(JoinRoom(a.code))
    await b.until(RoomJoined)
    await a.until(Snapshot)
    return a, b


async def test_the_leaderboard_lists_established_players_by_rating_in_pages(server: Server):
    """RD at most 75 (as it stands now) is ranked, best first, paged; a provisional player is not listed."""
    records = PlayerRecords(server.store)
    now = server.players._clock_ms()
    for index, (rating, rd) in enumerate(((1700, 60), (1650, 50), (1900, 200), (1600, 70))):
        ws, welcome = await _hello(server.url, name=f"Player {index}")
        assert isinstance(welcome, Welcome) and welcome.player_id is not None
        stored = StoredRating(rating=Rating(rating=rating, rd=rd, last_played_ms=now), games=30)
        await server.store.write([PlayerRecords.save_rating(welcome.player_id, "standard", stored)])
        await ws.close()
    ann = await WireClient.connect(server.url, "Ann")
    await ann.send(GetLeaderboard("ko", 1, 2))
    board = await ann.until(Leaderboard)
    assert board.family == "standard" and board.total == 3
    assert [(line.rank, line.player, line.rating) for line in board.players] == [(2, "Player 1", 1650),
                                                                                 (3, "Player 3", 1600)]
    await ann.send(GetProfile("nobody here"))
    assert (await ann.until(Error)).code == "NO_PLAYER"
    assert records.by_name_key("player 2") is not None


@pytest.fixture
async def clocked(tmp_path: Path) -> AsyncIterator[tuple[Server, FakeClock]]:
    """A server whose rooms and quick-match queue read a fake clock."""
    clock = FakeClock(1_000_000)
    srv = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0), clock=clock)
    await srv.start()
    yield srv, clock
    await srv.shutdown()


async def _rated_player(server: Server, name: str, rating: int) -> WireClient:
    """A connected player with an established quick rating."""
    player = await WireClient.connect(server.url, name)
    stored = StoredRating(rating=Rating(rating=rating, rd=60, last_played_ms=server.players._clock_ms()), games=20)
    await server.store.write([PlayerRecords.save_rating(player.welcome.player_id or 0, "quick", stored)])
    return player


async def test_quick_match_pairs_the_closest_ratings_first_and_widens_with_the_wait(
    clocked: tuple[Server, FakeClock],
):
    """1500 and 1900 wait; 1510 arrives and is paired with 1500 at once; 1900 is alone until 1880 comes; two
    players 300 apart wait until the window has widened to cover them (100 + 10 per second: 20 s)."""
    server, clock = clocked
    low, high = await _rated_player(server, "Low", 1500), await _rated_player(server, "High", 1900)
    near, far = await _rated_player(server, "Near", 1510), await _rated_player(server, "Far", 1880)
    for player in (low, high):
        await player.send(QuickMatch("quick"))
    await near.send(QuickMatch("quick"))
    joined_low, joined_near = await low.until(RoomJoined), await near.until(RoomJoined)
    assert joined_low.code == joined_near.code
    assert await server.lobby.waiting("quick") == 1
    await far.send(QuickMatch("quick"))
    assert (await high.until(RoomJoined)).code == (await far.until(RoomJoined)).code
    one, two = await _rated_player(server, "One", 1500), await _rated_player(server, "Two", 1800)
    for player in (one, two):
        await player.send(QuickMatch("quick"))
    await asyncio.sleep(0.05)
    assert await server.lobby.waiting("quick") == 2
    await clock.advance(19_900)
    assert await server.lobby.waiting("quick") == 2
    await clock.advance(100)
    assert (await one.until(RoomJoined)).code == (await two.until(RoomJoined)).code


@pytest.mark.slow
async def test_two_bots_play_a_rated_quick_match_and_the_leaderboard_shows_them(tmp_path: Path):
    """Two named `sprtec bot` processes on the quick-match queue of a real server play a rated match; `sprtec
    players --all --json` of its data directory lists both, the winner above 1500 and the loser below (a draw:
    both at 1500), and `sprtec player NAME --json` shows the match."""
    server = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0))
    port = await server.start()
    command = [sys.executable, "-m", "sprtec", "bot", "--server", f"ws://127.0.0.1:{port}/", "--quick-match",
               "--ruleset", "quick", "--setting", "period_ms=6000", "--random", "--json"]
    bots = [await asyncio.create_subprocess_exec(*command, "--name", name, cwd=ROOT, stdout=subprocess.PIPE,
                                                 stderr=subprocess.PIPE) for name in ("Jan Novák", "Ola Kowalska")]
    try:
        outputs = await asyncio.wait_for(asyncio.gather(*(bot.communicate() for bot in bots)), 90)
        await server.players.settled()
    finally:
        for bot in bots:
            if bot.returncode is None:
                bot.kill()
        await server.shutdown()
    result = json.loads(outputs[0][0])
    listed = subprocess.run([sys.executable, "-m", "sprtec", "players", "--data", str(tmp_path / "data"),
                             "--ruleset", "quick", "--all", "--json"], capture_output=True, text=True, cwd=ROOT)
    board = {row["player"]: row for row in json.loads(listed.stdout)["players"]}
    assert set(board) == {"Jan Novák", "Ola Kowalska"} and all(row["provisional"] for row in board.values())
    seats = {json.loads(out)["seat"]: name for (out, _), name in zip(outputs, ("Jan Novák", "Ola Kowalska"),
                                                                     strict=True)}
    if result["winner"] is None:
        assert {row["rating"] for row in board.values()} == {1500}
    else:
        loser = "away" if result["winner"] == "home" else "home"
        assert board[seats[result["winner"]]]["rating"] > 1500 > board[seats[loser]]["rating"]
    shown = subprocess.run([sys.executable, "-m", "sprtec", "player", "jan novák", "--data", str(tmp_path / "data"),
                            "--json"], capture_output=True, text=True, cwd=ROOT)
    profile = json.loads(shown.stdout)
    assert profile["player"] == "Jan Novák" and profile["played"] == 1 and profile["last"][0]["match_id"] == \
        result["match"]


async def test_an_unknown_token_still_closes_with_4002(server: Server):
    """A token whose secret matches no device of that player is refused (4002), as before."""
    ann = await WireClient.connect(server.url, "Ann")
    player_id = ann.token.split(".")[0]
    ws = await websockets.connect(server.url, compression=None)
    await ws.send(encode(Hello(PROTOCOL_VERSION, "tests", f"{player_id}.nope")))
    with pytest.raises(ConnectionClosed):
        await ws.recv()
    assert ws.close_code == CloseCode.BAD_TOKEN

"""End to end on port 0 with real websockets: lobby, a whole match with spectators, reconnecting."""

from __future__ import annotations

import asyncio

from server.app import Server
from shared import notation
from shared.protocol import CreateRoom, Error, JoinRoom, RoomJoined, Watch
from tests.server.conftest import SHORT
from tests.server.players import WireClient, play_until_end


async def _room_with_players(server: Server) -> tuple[WireClient, WireClient]:
    """Ann creates a private quick room, Bob joins it by code."""
    ann = await WireClient.connect(server.url, "ann")
    await ann.send(CreateRoom("quick", SHORT, True))
    await ann.until(RoomJoined)
    bob = await WireClient.connect(server.url, "bob")
    await bob.send(JoinRoom(ann.code.lower()))
    await bob.until(RoomJoined)
    return ann, bob


def _seen(client: WireClient) -> list[tuple]:
    """What a client saw of the match: versions, decisions and positions, comparable across clients."""
    return [
        (m.version, m.team, tuple(d.to_json().items() for d in m.decisions), str(notation.position_to_json(m.position)))
        for m in client.moves
    ]


async def test_two_players_and_two_spectators_see_the_same_match_to_its_end(server: Server):
    """Both coaches and both spectators receive the same moves, versions, decisions and final position."""
    ann, bob = await _room_with_players(server)
    spectators = [await WireClient.connect(server.url, name) for name in ("cy", "di")]
    for s in spectators:
        await s.send(Watch(ann.code))
        await s.until(RoomJoined)
    assert {ann.team, bob.team} == {"home", "away"}

    async def follow(client: WireClient) -> None:
        while client.ended is None:
            await client.recv()

    await asyncio.wait_for(
        asyncio.gather(play_until_end(ann), play_until_end(bob), *(follow(s) for s in spectators)), 30
    )
    reference = _seen(ann)
    assert len(reference) >= 2
    for other in (bob, *spectators):
        assert _seen(other) == reference
    assert ann.ended is not None and ann.ended == bob.ended == spectators[0].ended
    assert ann.position is not None and ann.position.result is not None


async def test_a_spectator_cannot_act_and_nothing_changes(server: Server):
    """An Act from a spectator is refused with NOT_A_PLAYER and the room's version stays."""
    ann, bob = await _room_with_players(server)
    watcher = await WireClient.connect(server.url, "eve")
    await watcher.send(Watch(ann.code))
    await watcher.until(RoomJoined)
    mover = ann if ann.my_turn() else bob
    await watcher.send(mover.flick())
    error = await watcher.until(Error)
    assert error.code == "NOT_A_PLAYER"
    room = server.lobby.find(ann.code)
    assert room.version == watcher.version


async def test_a_coach_cannot_act_for_the_other_seat(server: Server):
    """A flick naming the other team is refused with NOT_YOUR_TEAM."""
    ann, bob = await _room_with_players(server)
    waiting = bob if ann.my_turn() else ann
    mover = ann if waiting is bob else bob
    act = mover.flick()
    await waiting.send(act)
    error = await waiting.until(Error)
    assert error.code == "NOT_YOUR_TEAM"


async def test_a_dropped_player_reconnects_with_its_token_and_the_match_goes_on(server: Server):
    """After a drop, Hello with the token and JoinRoom give the seat back; the match then finishes."""
    ann, bob = await _room_with_players(server)
    await asyncio.wait_for(asyncio.gather(play_until_end(ann, 2), play_until_end(bob, 2)), 20)
    code, team, token = bob.code, bob.team, bob.token
    assert team is not None
    await bob.close()
    await asyncio.sleep(0.1)
    room = server.lobby.find(code)
    assert room.core.connected[team] is None and not room.core.clock.running  # the clock waits for him
    again = await WireClient.connect(server.url, token=token)
    await again.send(JoinRoom(code))
    joined = await again.until(RoomJoined)
    assert joined.seat == team and again.welcome.player == "bob"
    assert room.core.clock.running
    await asyncio.wait_for(asyncio.gather(play_until_end(ann), play_until_end(again)), 30)
    assert ann.ended is not None and again.ended == ann.ended


async def test_an_absent_coach_forfeits_after_the_grace_period(server: Server):
    """A coach who stays away longer than disconnect_grace_ms loses: MATCH_ENDED with the forfeit reason."""
    ann, bob = await _room_with_players(server)
    await bob.close()
    ended = await asyncio.wait_for(ann.until(type(ann.ended) if ann.ended else _MatchEnded), 10)
    assert ended.winner == ann.team and ended.reason == "FORFEIT_DISCONNECTED"


from shared.protocol import MatchEnded as _MatchEnded  # noqa: E402

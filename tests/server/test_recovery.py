"""Recovery starts from the latest checkpoint and replays only the entries after it, to the same match."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import server.resolve
from server.app import Server, ServerConfig
from shared import match_log, notation
from shared.match_log import LogEntry
from shared.model import Position
from shared.protocol import CreateRoom, JoinRoom, RoomJoined
from tests.server.players import WireClient, play_until_end

SETTINGS = {"period_ms": 600_000, "move_clock_ms": 60_000, "disconnect_grace_ms": 60_000}


async def test_recovery_replays_from_the_checkpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """With a checkpoint every 2 entries, a restart replays at most 1 entry and equals a replay of the whole log."""
    monkeypatch.setattr(server.resolve, "CHECKPOINT_EVERY", 2)
    data = tmp_path / "data"
    first = Server(ServerConfig(port=0, data_dir=data, workers=0))
    await first.start()
    ann = await WireClient.connect(first.url, "ann")
    await ann.send(CreateRoom("standard", SETTINGS, True))
    await ann.until(RoomJoined)
    bob = await WireClient.connect(first.url, "bob")
    await bob.send(JoinRoom(ann.code))
    await bob.until(RoomJoined)
    await asyncio.wait_for(asyncio.gather(play_until_end(ann, 5), play_until_end(bob, 5)), 60)
    room = first.lobby.find(ann.code)
    await first.shutdown()  # waits for an entry in flight; the room then holds exactly what was committed
    before, logged, turn_used = room.match.position, room.match.log_len, room.match.turn_used
    assert logged >= 5

    replayed: list[int] = []
    real_replay = match_log.replay

    def counting_replay(initial: Position, entries: list[LogEntry], turn_used: int = 0) -> tuple[Position, int]:
        replayed.append(len(entries))
        return real_replay(initial, entries, turn_used)

    monkeypatch.setattr(match_log, "replay", counting_replay)
    second = Server(ServerConfig(port=0, data_dir=data, workers=0))
    try:
        await second.start()
        again = second.lobby.find(ann.code)
        assert replayed == [logged % 2]
        assert notation.position_to_json(again.match.position) == notation.position_to_json(before)
        assert (again.match.log_len, again.match.turn_used) == (logged, turn_used)
        stored = second.store.match(again.match.id)
        assert stored is not None
        initial = notation.position_from_json(stored.initial_position)
        whole, whole_used = real_replay(initial, second.store.log(stored.id))
        assert notation.position_to_json(whole) == notation.position_to_json(before) and whole_used == turn_used
    finally:
        await second.shutdown()

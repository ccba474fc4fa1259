"""GetReplay end to end on port 0: the answer is the export, it replays to the match's end, and who may have it."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from server.app import Server
from server.replays.replay_export import export
from shared import notation
from shared.protocol import CreateRoom, Error, GetReplay, JoinRoom, Replay, RoomJoined, Watch
from tests.server.conftest import SHORT
from tests.server.players import WireClient, play_until_end

ROOT = Path(__file__).resolve().parents[2]


async def _started_match(server: Server) -> tuple[WireClient, WireClient, str]:
    """Ann creates a private quick room and Bob joins it: the match runs; its id from the first snapshot."""
    ann = await WireClient.connect(server.url, "ann")
    await ann.send(CreateRoom("quick", SHORT, True))
    joined = await ann.until(RoomJoined)
    bob = await WireClient.connect(server.url, "bob")
    await bob.send(JoinRoom(ann.code))
    await bob.until(RoomJoined)
    return ann, bob, joined.snapshot.match_id


async def _ask(client: WireClient, match_id: str) -> Replay | Error:
    """Send GetReplay and return the Replay or the Error that answers it (skipping the room's news)."""
    await client.send(GetReplay(match_id))
    while True:
        message = await client.recv()
        if isinstance(message, Replay) or (isinstance(message, Error) and message.ref == "GetReplay"):
            return message


def _run_scenario(text: str) -> list[dict]:
    """``sprtec scenario -`` on the text: its result entries."""
    done = subprocess.run([sys.executable, "-m", "sprtec", "scenario", "-"], input=text.encode(), cwd=ROOT,
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)["results"]


async def test_a_finished_matchs_replay_is_its_export_and_replays_to_its_final_score_and_position(server: Server):
    """After a bot match, a player who was never in the room gets the export's scenario, which replays to the end."""
    ann, bob, match_id = await _started_match(server)
    await asyncio.wait_for(asyncio.gather(play_until_end(ann), play_until_end(bob)), 30)
    assert ann.ended is not None and ann.position is not None and ann.position.result is not None
    stranger = await WireClient.connect(server.url, "eve")
    replay = await _ask(stranger, match_id)
    assert isinstance(replay, Replay) and replay.match_id == match_id
    exported = notation.dumps(notation.scenario_to_json(await asyncio.to_thread(export, server.config.data_dir,
                                                                                match_id)))
    assert replay.scenario == exported
    results = _run_scenario(replay.scenario)
    final = [r["position"] for r in results if r["accepted"]][-1]
    assert final == notation.position_to_json(ann.position)
    assert final["score"] == {"home": ann.ended.score.home, "away": ann.ended.score.away}


async def test_a_running_matchs_replay_goes_only_to_its_room_and_unknown_ids_are_no_match(server: Server):
    """While the match runs a spectator gets it and an outsider is refused NOT_IN_ROOM; unknown ids are NO_MATCH."""
    ann, _, match_id = await _started_match(server)
    watcher = await WireClient.connect(server.url, "cy")
    await watcher.send(Watch(ann.code))
    await watcher.until(RoomJoined)
    seen = await _ask(watcher, match_id)
    assert isinstance(seen, Replay) and notation.scenario_from_json(seen.scenario).timed
    assert isinstance(await _ask(ann, match_id), Replay)
    stranger = await WireClient.connect(server.url, "eve")
    refused = await _ask(stranger, match_id)
    assert isinstance(refused, Error) and refused.code == "NOT_IN_ROOM"
    for unknown in ("ffffffffffff", "not-a-match", ann.code):
        answer = await _ask(stranger, unknown)
        assert isinstance(answer, Error) and answer.code == "NO_MATCH", (unknown, answer)

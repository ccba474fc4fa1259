"""A coach whose client restarted in the middle of his match (the same identity on disk, a new process) arrives at
the present at once: the position the room is at, no earlier move played back again, and the move list holding
each earlier move once (the match so far merged once), numbered as the opponent's list numbers them."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from client.common.identity import IdentityStore
from tests.client.test_live import Coach, _play, _room, until, url  # noqa: F401 - the server fixture


@pytest.mark.slow
def test_a_restarted_coach_arrives_at_the_present_with_each_earlier_move_once(url, tmp_path: Path):  # noqa: F811
    """Ola plays four moves, her client restarts (a new NetClient on her kept identity): her state is at Jana's
    version at once, nothing old is queued for playback, and her move list is Jana's, each move once."""
    identity = IdentityStore(tmp_path / "ola")
    jana, ola, petr = _room(url, identity)
    everyone = [jana, ola, petr]
    try:
        _play(everyone, 4)
        ola.client.close()
        until([jana, petr], lambda: "away" in jana.state.offline, "the drop")
        back = Coach(url, None, identity=identity)
        everyone = [jana, back, petr]
        until(everyone, lambda: back.state.version == jana.state.version and back.state.seat == "away",
              "the restarted client at the room's version")
        assert not back.state.queue and back.state.playback is None  # nothing old played back
        until(everyone, lambda: len(back.state.moves) >= len(jana.state.moves), "the match so far")
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:  # late news must not add the history a second time
            for coach in everyone:
                coach.poll()
            time.sleep(0.05)
        assert [(m.number, m.team) for m in back.state.moves] == [(m.number, m.team) for m in jana.state.moves]
        assert not back.state.queue
    finally:
        for coach in everyone:
            coach.client.close()


def test_an_older_snapshot_of_the_same_match_is_dropped() -> None:
    """After the present (RoomJoined at version 5), the match's first Snapshot (version 1, a Resync's kept frames)
    changes nothing; a newer one, or another match's, is taken."""
    from dataclasses import replace

    from tests.client.test_net import _joined, _snapshot

    client, state, link = _joined(_snapshot(5))
    client.arrive(_snapshot(1), 0.1)
    link.poll(state, now=0.1)
    assert state.version == 5 and not state.queue
    client.arrive(_snapshot(7), 0.2)
    link.poll(state, now=0.2)
    assert state.version == 7
    client.arrive(replace(_snapshot(1), match_id="m2"), 0.3)
    link.poll(state, now=0.3)
    assert state.version == 1 and link.match_id == "m2"

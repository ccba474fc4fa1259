"""Client state: moves play back in order, decisions are told only after playback, versions, clocks, input lock."""

from __future__ import annotations

from dataclasses import replace

from client.match.state import Clock, MatchState
from shared.model import Puck
from shared.outcome import Decision
from tests.client.helpers import basic_position, record

BODIES = ("h2", "puck")


def _moving(frames: int = 31):
    """A half-second move of h2 along x."""
    return record(BODIES, [[(i * 100 - 10000, 0, 0, 0), (0, 0, 0, 0)] for i in range(frames)])


def _state() -> MatchState:
    """A seated home coach at the basic setup, version 1."""
    state = MatchState(seat="home")
    state.load(basic_position(), 1)
    return state


def test_decisions_are_logged_only_after_playback():
    """While the move plays the log is silent; afterwards the goal and its sound cue appear."""
    state = _state()
    after = replace(basic_position(), to_move="away", score=(1, 0), move_number=1)
    state.add_move(_moving(), [Decision.of("GOAL", team="home", own_goal=False)], after, 2, now=0.0)
    assert state.busy and not state.my_turn(0.0) and state.log == []
    assert state.update(0.2) == []
    cues = state.update(5.0)
    assert cues == ["goal"] and not state.busy
    assert state.position.score == (1, 0) and state.version == 2
    assert state.log[-1].text == "Goal (XIV.1): Home scores" and state.banner_at(5.0) is not None


def test_two_moves_play_one_after_the_other():
    """A move arriving during another's playback waits its turn."""
    state = _state()
    first = replace(basic_position(), to_move="away", move_number=1)
    second = replace(first, to_move="home", move_number=2, puck=Puck(10.0, 0.0))
    state.add_move(_moving(), [], first, 2, now=0.0)
    state.add_move(_moving(), [], second, 3, now=0.1)
    state.update(1.0)
    assert state.position.move_number == 1 and state.busy
    state.update(3.0)
    assert state.position.move_number == 2 and not state.busy


def test_poses_follow_playback_then_position():
    """During playback bodies come from keyframes, afterwards from the position at rest."""
    state = _state()
    state.add_move(_moving(), [], replace(basic_position(), move_number=1), 2, now=0.0)
    assert state.poses(0.0)["h2"].x == -100.0
    assert state.poses(0.25)["h2"].x == -85.0
    state.update(5.0)
    assert state.poses(5.0)["h2"].x == basic_position().stone("h2").x


def test_version_gap_asks_for_a_snapshot_and_duplicates_are_ignored():
    """Version 4 after 1 means broadcasts were missed; version 1 again is a resend."""
    state = _state()
    state.add_move(None, [], basic_position(), 1, now=0.0)
    assert not state.busy and not state.needs_resync
    state.add_move(None, [], basic_position(), 4, now=0.0)
    assert state.needs_resync and not state.busy


def test_move_without_keyframes_is_applied_at_once():
    """A goalie reset or a choice has no physics: its decisions are logged immediately."""
    state = _state()
    state.add_move(None, [Decision.of("PART_ENDED", part={"kind": "period", "number": 1})],
                   replace(basic_position(), move_number=1), 2, now=0.0)
    assert not state.busy and "Siren (III.6): end of period 1" in state.log[-1].text


def test_clock_counts_down_only_while_running():
    """A running clock loses wall time, a stopped one does not, neither goes below zero."""
    assert Clock(10_000, True, 100.0).at(103.5) == 6_500
    assert Clock(10_000, False, 100.0).at(200.0) == 10_000
    assert Clock(1_000, True, 0.0).at(5.0) == 0


def test_my_turn_needs_seat_and_turn():
    """The home coach moves first at the basic setup; a spectator never does."""
    assert _state().my_turn(0.0)
    spectator = MatchState()
    spectator.load(basic_position(), 1)
    assert not spectator.my_turn(0.0)


def test_a_snapshot_during_playback_keeps_input_locked_for_the_servers_playback():
    """D3: a Snapshot (resync, reconnect) drops the playback on screen, but the server still plays the move back
    until duration_ms after its MovePlayed arrived: input stays locked until then, not a moment longer."""
    state = _state()
    after = replace(basic_position(), move_number=1)  # home to move again (a free move)
    state.add_move(_moving(), [], after, 2, now=10.0)  # a 500 ms move
    state.load(after, 2)
    assert not state.busy and state.locked(10.2) and not state.my_turn(10.2)
    assert not state.locked(10.5) and state.my_turn(10.5)


def test_a_move_dropped_for_a_version_gap_still_holds_input_for_its_playback():
    """The move that revealed a gap was broadcast, so the server waits out its playback even if we never show it."""
    state = _state()
    state.add_move(_moving(), [], replace(basic_position(), move_number=3), 4, now=0.0)
    assert state.needs_resync and not state.busy
    state.load(replace(basic_position(), move_number=3), 4)
    assert state.locked(0.4) and not state.locked(0.5)


def test_a_client_behind_the_present_plays_the_waiting_moves_faster_until_it_is_back():
    """Ten moves arrive at once (a late spectator, the hall, coaches who move the moment the server lets them): they
    are played back faster while others wait behind them, so the last is shown in well under ten moves' time; a move
    alone plays at its own speed."""
    from client.common.playback import Playback

    one = Playback(_moving()).total_seconds
    state = _state()
    position = basic_position()
    for version in range(2, 12):
        position = replace(position, to_move="away" if version % 2 else "home", move_number=version - 1)
        state.add_move(_moving(), [], position, version, now=0.0)
    t = 0.0
    while state.busy:
        t += 0.01
        state.update(t)
    assert state.position.move_number == 10
    assert t < 10 * one * 0.6, (t, one)  # 4.0 s against 8.1 one by one
    alone = _state()
    alone.add_move(_moving(), [], replace(basic_position(), to_move="away", move_number=1), 2, now=0.0)
    assert alone.update(one - 0.05) == [] and alone.busy  # still playing at its own speed
    alone.update(one + 0.05)
    assert not alone.busy

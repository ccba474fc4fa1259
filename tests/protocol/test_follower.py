"""The protocol follower without a socket: handshake and resume, versions and gaps, D3 waits, reconnects."""

from __future__ import annotations

from shared.formation import basic_setup
from shared.model import Flick, Position
from shared.protocol import (
    PROTOCOL_VERSION,
    Act,
    Clocks,
    Error,
    Hello,
    MatchEnded,
    MovePlayed,
    Resync,
    RoomJoined,
    Score,
    SeatInfo,
    Seats,
    Snapshot,
    Watch,
    Welcome,
)
from shared.protocol.follower import Follower
from shared.protocol.trajectory import Trajectory

START = Position(stones=basic_setup())
CLOCKS = Clocks(360_000, 30_000, "home", False)
SEATS = Seats(SeatInfo("ann", True), SeatInfo("bob", True))
FLICK = Flick("home", "h2", 1500.0, 0.0)


def _snapshot(version: int, match_id: str = "m1") -> Snapshot:
    """The room K7QZ at ``version``."""
    return Snapshot(code="K7QZ", version=version, match_id=match_id, position=START, clocks=CLOCKS, prompts=(),
                    seats=SEATS, spectators=0)


def _move(version: int, duration_ms: int = 0) -> MovePlayed:
    """A move to ``version`` whose playback lasts ``duration_ms``."""
    trajectory = Trajectory(("puck",), 60, duration_ms, ((0, 0, 0, 0),)) if duration_ms else None
    return MovePlayed(code="K7QZ", version=version, team="home", action=None, trajectory=trajectory, decisions=(),
                      position=START, clocks=CLOCKS, prompts=())


def _seated(seat: str = "home", version: int = 3) -> Follower:
    """A follower welcomed as ann and seated in K7QZ at ``version``."""
    follower = Follower(client="tests", name="ann")
    follower.connected()
    follower.receive(Welcome(PROTOCOL_VERSION, "sprtec", "ann", "1.secret"), 0.0)
    follower.receive(RoomJoined("K7QZ", seat, "1.secret", _snapshot(version)), 0.0)
    return follower


def test_hello_carries_the_token_of_the_last_welcome_on_the_next_connection():
    """The first Hello has no token; after a Welcome every Hello resumes that player."""
    follower = Follower(client="tests", name="ann")
    assert follower.connected() == [Hello(PROTOCOL_VERSION, "tests", None, "ann")]
    follower.receive(Welcome(PROTOCOL_VERSION, "sprtec", "ann", "7.abc"), 0.0)
    assert follower.connected() == [Hello(PROTOCOL_VERSION, "tests", "7.abc", "ann")]
    assert follower.player == "ann"


def test_a_move_of_the_next_version_is_applied_and_an_older_one_dropped():
    """Version 4 after 3 is taken; 4 again and 2 change nothing."""
    follower = _seated()
    assert follower.receive(_move(4), 1.0) == []
    assert follower.room is not None and follower.room.version == 4
    assert follower.receive(_move(4), 1.0) == [] and follower.receive(_move(2), 1.0) == []
    assert follower.room.version == 4


def test_a_gap_in_versions_asks_for_a_resync_once():
    """Version 6 after 3 sends Resync(3) once; the Snapshot that answers it is taken."""
    follower = _seated()
    assert follower.receive(_move(6), 1.0) == [Resync("K7QZ", 3)]
    assert follower.receive(_move(7), 1.0) == []
    follower.receive(_snapshot(7), 1.0)
    assert follower.room is not None and follower.room.version == 7


def test_an_action_during_a_playback_waits_for_the_board_to_rest():
    """D3: an action 0.5 s into a 2 s playback is held, then sent at its end on the same version."""
    follower = _seated()
    follower.receive(_move(4, duration_ms=2000), 10.0)
    assert follower.locked(10.5) and follower.act(FLICK, 10.5) == []
    assert follower.tick(11.9) == []
    assert follower.tick(12.0) == [Act(FLICK, 4)]


def test_a_d3_refusal_sends_the_same_action_again_after_retry_ms_unless_the_room_moved():
    """The refusal's retry_ms holds the action; a new version meanwhile cancels it."""
    follower = _seated()
    assert follower.act(FLICK, 1.0) == [Act(FLICK, 3)]
    follower.receive(Error("ACTION_NOT_ALLOWED", "the board is still moving (D3)", "Act", 400), 1.0)
    assert follower.tick(1.3) == [] and follower.tick(1.4) == [Act(FLICK, 3)]
    follower.act(FLICK, 2.0)
    follower.receive(Error("ACTION_NOT_ALLOWED", "the board is still moving (D3)", "Act", 400), 2.0)
    follower.receive(_move(4), 2.1)
    assert follower.tick(3.0) == []


def test_a_reconnected_coach_asks_for_what_he_missed_and_a_spectator_watches_again():
    """After the Welcome of a new connection a coach sends Resync(version); a spectator sends Watch."""
    coach = _seated()
    coach.connected()
    assert coach.receive(Welcome(PROTOCOL_VERSION, "sprtec", "ann", "1.secret"), 5.0) == [Resync("K7QZ", 3)]
    watcher = _seated("spectator")
    watcher.connected()
    assert watcher.receive(Welcome(PROTOCOL_VERSION, "sprtec", "ann", "1.secret"), 5.0) == [Watch("K7QZ")]


def test_a_stale_resync_starts_again_from_a_snapshot():
    """A Resync refused as STALE_VERSION (the room never sent that version) asks again from 0, decides and sends
    nothing until a Snapshot answers, and takes any Snapshot that does."""
    follower = _seated(version=9)
    error = Error("STALE_VERSION", "room K7QZ is at version 5; it never sent 9", "Resync")
    assert follower.receive(error, 1.0) == [Resync("K7QZ", 0)]
    assert follower.room is not None and follower.room.ours_to_decide(9) is None  # no decision on a lost version
    assert follower.act(FLICK, 1.0) == []  # and no action without one
    follower.receive(_snapshot(5), 1.0)
    assert follower.room is not None and follower.room.version == 5


def test_a_rematch_snapshot_with_a_new_match_id_starts_afresh():
    """The end of the last match is forgotten when a Snapshot of a new match arrives."""
    follower = _seated()
    follower.receive(MatchEnded("K7QZ", "m1", Score(1, 0), "home", "REGULAR_TIME"), 1.0)
    assert follower.room is not None and follower.room.ended is not None
    follower.receive(_snapshot(2, "m2"), 2.0)
    assert follower.room.ended is None and follower.room.match_id == "m2"


def test_a_coach_decides_once_per_version_and_a_spectator_never():
    """ours_to_decide gives the position and team of a seated coach, not again on the version he decided on."""
    room = _seated("away").room
    assert room is not None and room.ours_to_decide(-1) == (START, "away")
    assert room.ours_to_decide(3) is None
    watcher = _seated("spectator").room
    assert watcher is not None and watcher.ours_to_decide(-1) is None

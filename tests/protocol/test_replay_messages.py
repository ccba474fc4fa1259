"""GetReplay and Replay: their round trip, their direction, and the scenario's bound against the frame cap."""

from __future__ import annotations

import pytest

from shared.protocol import (
    CLIENT_MESSAGES,
    MAX_REPLAY_CHARS,
    MAX_SERVER_FRAME,
    SERVER_MESSAGES,
    GetReplay,
    ProtocolError,
    Replay,
    decode,
    encode,
)

SCENARIO = '{"format": "sprtec-scenario/1", "timed": true, "position": {}, "actions": []}'


def test_get_replay_and_replay_round_trip_each_in_its_own_direction():
    """A client's GetReplay decodes on the server side, the server's Replay on the client side, unchanged."""
    ask, answer = GetReplay("0123456789ab"), Replay("0123456789ab", SCENARIO)
    assert decode(encode(ask), CLIENT_MESSAGES) == ask
    assert decode(encode(answer), SERVER_MESSAGES) == answer


def test_each_is_refused_in_the_other_direction():
    """A server will not take a Replay from a client, nor a client a GetReplay from the server."""
    for msg, expect in ((Replay("0123456789ab", SCENARIO), CLIENT_MESSAGES), (GetReplay("0123456789ab"),
                                                                               SERVER_MESSAGES)):
        with pytest.raises(ProtocolError) as info:
            decode(encode(msg), expect)
        assert info.value.code == "UNKNOWN_MESSAGE"


def test_the_largest_scenario_fits_one_server_frame_and_a_larger_one_is_refused():
    """A MAX_REPLAY_CHARS ASCII scenario encodes under MAX_SERVER_FRAME; one more character is refused both ways."""
    longest = Replay("0123456789ab", "x" * MAX_REPLAY_CHARS)
    frame = encode(longest)
    assert len(frame) <= MAX_SERVER_FRAME and decode(frame, SERVER_MESSAGES) == longest
    with pytest.raises(ProtocolError):
        encode(Replay("0123456789ab", "x" * (MAX_REPLAY_CHARS + 1)))


def test_an_empty_match_id_is_refused():
    """GetReplay needs a match id."""
    with pytest.raises(ProtocolError) as info:
        encode(GetReplay(""))
    assert info.value.code == "BAD_MESSAGE"

"""The trusted encoding (``encode(msg, trusted=True)``, for messages the server built): the checked encoding's bytes,
for every message type, and the same refusals where a message is too large for a receiver."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from server.rooms import resolve
from shared import match as rules
from shared.match_log import LogEntry, new_match
from shared.model import Flick
from shared.protocol import (
    MESSAGE_TYPES,
    SERVER_MESSAGES,
    MovePlayed,
    Notice,
    ProtocolError,
    Trajectory,
    decode,
    encode,
)
from shared.protocol.specs import Float, Json, ListOf, MapOf, Str
from shared.rulesets import make_settings
from tests.protocol.strategies import records


@pytest.mark.parametrize("cls", list(MESSAGE_TYPES.values()), ids=list(MESSAGE_TYPES))
def test_trusted_encoding_is_the_checked_encoding_of_every_message_type(cls: type) -> None:
    """For every message type and field values its specs allow: the same bytes, and they decode to the message."""

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(records(cls))
    def check(msg: object) -> None:
        """One drawn message."""
        frame = encode(msg, trusted=True)  # type: ignore[arg-type]
        assert frame == encode(msg)  # type: ignore[arg-type]
        assert decode(frame) == msg

    check()


def _played_moves(count: int) -> list[MovePlayed]:
    """MovePlayed messages of a real match: the server's own ``resolve.resolve`` of random legal flicks."""
    settings_ = make_settings("standard")
    position = new_match("standard", {}, 5)
    played: list[MovePlayed] = []
    index = 0
    while len(played) < count and position.result is None:
        waiting = [p for p in rules.prompts(position) if p.default is not None]
        if waiting:
            team, action = waiting[0].team, waiting[0].default
        else:
            team = position.to_move
            stone = rules.legal_stones(position, team)[index % len(rules.legal_stones(position, team))]
            action = Flick(team, stone, 2400.0 * (-1) ** index, 300.0 * (index % 5 - 2))
        entry = LogEntry(index=index, elapsed_ms=1000, input=action)
        stamp = resolve.Stamp(code="ROOM", match_id="match", version=index + 1, team=team, turn_used=0, absent=False,
                              settings=settings_)
        resolved = resolve.resolve(position, entry, stamp)
        assert resolved.frame is not None
        played.append(decode(resolved.frame, SERVER_MESSAGES))  # type: ignore[arg-type]
        position, index = resolved.position, index + 1
    return played


def test_real_moves_encode_to_the_same_bytes_either_way():
    """MovePlayed of a real match (positions, decisions, prompts, trajectories): trusted and checked bytes agree."""
    played = _played_moves(12)
    assert any(msg.trajectory is not None and len(msg.trajectory.frames) > 30 for msg in played)
    for msg in played:
        assert encode(msg, trusted=True) == encode(msg)


def test_a_trajectory_too_long_for_a_receiver_is_refused_either_way():
    """Settings a room may choose (keyframes per second, the move cap) can make a trajectory longer than a client
    reads: both encodings refuse it (the room then refuses the move), neither sends it."""
    msg = next(p for p in _played_moves(6) if p.trajectory is not None)
    assert msg.trajectory is not None
    frames = msg.trajectory.frames
    moving = tuple(tuple(v + k for v in frames[-1]) for k in range(5000))  # every body moves: long tracks
    long = Trajectory(msg.trajectory.bodies, msg.trajectory.hz, 80_000, frames + moving)
    too_long = MovePlayed(**{**{f: getattr(msg, f) for f in MovePlayed.__dataclass_fields__}, "trajectory": long})
    for trusted in (False, True):
        with pytest.raises(ProtocolError):
            encode(too_long, trusted=trusted)


def test_sizes_are_bounded_like_the_checked_encoding():
    """Strings, arrays, maps and JSON values past their bounds are refused by ``wire`` as by ``dump``."""
    cases = [
        (Str(4), "hello"),
        (ListOf(Str(4), 2), ("a", "b", "c")),
        (MapOf(Str(2), Str(2), 1), {"a": "b", "c": "d"}),
        (MapOf(Str(2), Str(2), 4), {"abc": "d"}),
        (Json(depth=2), [[[1]]]),
        (Json(max_len=3), {"a": [1, 2, 3, 4]}),
        (Json(max_str=3), {"a": [1, "long"]}),
        (Json(max_str=3), {"long": 1}),
    ]
    for spec, value in cases:
        with pytest.raises(ProtocolError):
            spec.dump(value, "x")
        with pytest.raises(ProtocolError):
            spec.wire(value, "x")


def test_a_float_field_is_written_as_a_float_from_an_integer():
    """``Float.dump`` writes 3 as 3.0: the trusted form must too (msgpack writes int and float differently)."""
    spec = Float(0.0, 10.0)
    assert type(spec.wire(3, "x")) is float and spec.wire(3, "x") == spec.dump(3, "x")


def test_a_value_msgpack_cannot_write_is_a_protocol_error():
    """A trusted message holding something msgpack cannot write raises ProtocolError, as the checked path does."""
    bad = Notice("PLAY_PAUSED", object())
    for trusted in (False, True):
        with pytest.raises(ProtocolError):
            encode(bad, trusted=trusted)



def test_a_shared_wire_form_is_checked_once_and_a_too_large_one_every_time(monkeypatch):
    """A Convert whose wire forms are shared (a position's) checks each object's sizes the first time it is written;
    one that fails its check is refused again the next time (it is never remembered as checked)."""
    from shared.protocol.specs import Convert

    calls: list[object] = []
    shape = Json(depth=2, max_len=4, max_str=8)
    check = shape.wire

    def counted(value: object, where: str) -> object:
        calls.append(value)
        return check(value, where)

    monkeypatch.setattr(Json, "wire", lambda self, value, where: counted(value, where))
    fine, too_long = {"a": "short"}, {"a": "far too long a string"}
    shared = Convert("thing", shape, lambda: lambda v: v, lambda: lambda v: v, "a thing", shared=True)
    assert shared.wire(fine, "x") is fine and shared.wire(fine, "x") is fine
    assert calls == [fine]
    for _ in range(2):
        with pytest.raises(ProtocolError):
            shared.wire(too_long, "x")
    assert calls == [fine, too_long, too_long]
    unshared = Convert("thing", shape, lambda: lambda v: v, lambda: lambda v: v, "a thing")
    unshared.wire(fine, "x")
    unshared.wire(fine, "x")
    assert calls[3:] == [fine, fine]

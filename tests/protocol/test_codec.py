"""The codec: every message round-trips, and any bytes give a message or a ProtocolError, nothing else."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.model import Flick
from shared.protocol import (
    CLIENT_MESSAGES,
    MAX_CLIENT_FRAME,
    MESSAGE_TYPES,
    SERVER_MESSAGES,
    Act,
    CreateRoom,
    Error,
    Hello,
    MovePlayed,
    Ping,
    Presence,
    ProtocolError,
    QuickMatch,
    Snapshot,
    decode,
    encode,
)
from shared.protocol.messages import Message
from tests.protocol.strategies import messages, records
from tools.docgen import examples

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _frame(**fields: object) -> bytes:
    """A hand-built msgpack map, for frames the encoder would never write."""
    return msgpack.packb(fields, use_bin_type=True)


def _code(data: object, **kwargs: Any) -> str:
    """The ProtocolError code decode raises for ``data``."""
    with pytest.raises(ProtocolError) as info:
        decode(data, **kwargs)
    return info.value.code


@FAST
@given(messages())
def test_every_message_round_trips(msg: Message) -> None:
    """decode(encode(m)) == m for every message type and field value the specs allow."""
    assert decode(encode(msg)) == msg


@pytest.mark.parametrize("cls", list(MESSAGE_TYPES.values()), ids=list(MESSAGE_TYPES))
def test_each_message_type_round_trips(cls: type) -> None:
    """Every registered type, drawn on its own, survives the codec (no type is shadowed by another)."""

    @settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(records(cls))
    def check(msg: Message) -> None:
        data = encode(msg)
        assert msgpack.unpackb(data)["t"] == cls.__name__
        assert decode(data) == msg

    check()


@FAST
@given(st.binary(max_size=300))
def test_any_bytes_decode_or_raise_protocol_error(data: bytes) -> None:
    """Arbitrary bytes never raise anything but ProtocolError."""
    try:
        decode(data)
    except ProtocolError as error:
        assert error.code in ("BAD_MESSAGE", "UNKNOWN_MESSAGE")


@FAST
@given(messages(), st.data())
def test_corrupted_frames_decode_or_raise_protocol_error(msg: Message, data: st.DataObject) -> None:
    """Valid frames with bytes flipped, cut or appended never raise anything but ProtocolError."""
    frame = bytearray(encode(msg))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(frame) - 1))
        frame[at] = data.draw(st.integers(0, 255))
    frame = frame[: data.draw(st.integers(0, len(frame)))] + data.draw(st.binary(max_size=4))
    try:
        decode(bytes(frame))
    except ProtocolError:
        pass


_ANY = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**63), 2**64 - 1),
        st.floats(),
        st.text(max_size=5),
        st.binary(max_size=5),
    ),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@FAST
@given(st.sampled_from(sorted(MESSAGE_TYPES)), st.data())
def test_wrongly_typed_fields_raise_protocol_error(name: str, data: st.DataObject) -> None:
    """A known type with arbitrary values in its real field names gives a message or ProtocolError."""
    cls = MESSAGE_TYPES[name]
    fields = {f: data.draw(_ANY) for f in cls.__dataclass_fields__ if data.draw(st.booleans())}
    try:
        decode(_frame(t=name, **fields))
    except ProtocolError as error:
        assert error.code == "BAD_MESSAGE"


def test_nan_and_infinity_are_refused() -> None:
    """A flick speed of NaN or infinity is BAD_MESSAGE, never a Flick."""
    for bad in (float("nan"), float("inf"), -float("inf")):
        action = {"team": "home", "action": "flick", "stone": "h2", "vx": bad, "vy": 0.0}
        frame = _frame(t="Act", version=0, action=action)
        assert _code(frame) == "BAD_MESSAGE"


def test_out_of_range_and_bool_integers_are_refused() -> None:
    """Integers outside a field's range, and booleans where an integer is expected, are refused."""
    assert _code(_frame(t="Ping", nonce=-1)) == "BAD_MESSAGE"
    assert _code(_frame(t="Ping", nonce=2**32)) == "BAD_MESSAGE"
    assert _code(_frame(t="Ping", nonce=True)) == "BAD_MESSAGE"
    assert _code(_frame(t="Ping", nonce=1.0)) == "BAD_MESSAGE"
    assert decode(_frame(t="Ping", nonce=2**32 - 1)) == Ping(2**32 - 1)


def test_long_strings_and_lists_are_refused() -> None:
    """A string or array longer than its field allows is refused."""
    assert _code(_frame(t="Hello", protocol=1, client="x" * 65)) == "BAD_MESSAGE"
    many = {f"k{i}": 1 for i in range(65)}
    assert _code(_frame(t="CreateRoom", ruleset="standard", private=False, settings=many)) == "BAD_MESSAGE"
    assert _code(_frame(t="Error", code="ROOM_FULL", message="m", ref="x" * 33)) == "BAD_MESSAGE"


def test_missing_extra_and_unknown_are_told_apart() -> None:
    """Missing and extra fields are BAD_MESSAGE; an unknown type is UNKNOWN_MESSAGE."""
    assert _code(_frame(t="Watch")) == "BAD_MESSAGE"
    assert _code(_frame(t="Watch", code="AB", extra=1)) == "BAD_MESSAGE"
    assert _code(_frame(t="Shout", code="AB")) == "UNKNOWN_MESSAGE"
    assert _code(_frame(code="AB")) == "BAD_MESSAGE"
    assert _code(msgpack.packb([1, 2])) == "BAD_MESSAGE"


def test_optional_fields_may_be_left_out() -> None:
    """A field with a default (Hello.token) may be absent; a required one may not be nil."""
    assert decode(_frame(t="Hello", protocol=1, client="c")) == Hello(1, "c")
    assert _code(_frame(t="Hello", protocol=1, client=None)) == "BAD_MESSAGE"


def test_frames_that_are_not_one_msgpack_map_are_refused() -> None:
    """Text, trailing bytes, oversized frames, binary and ext values, non-string keys are refused."""
    good = encode(Ping(5))
    assert _code(good.decode("latin-1")) == "BAD_MESSAGE"
    assert _code(good + b"\x00") == "BAD_MESSAGE"
    assert _code(b"") == "BAD_MESSAGE"
    assert _code(_frame(t="Watch", code=b"AB")) == "BAD_MESSAGE"
    assert _code(msgpack.packb({"t": "Ping", "nonce": msgpack.ExtType(1, b"x")})) == "BAD_MESSAGE"
    assert _code(msgpack.packb({1: 2})) == "BAD_MESSAGE"
    big = _frame(t="Hello", protocol=1, client="c", name="n" * MAX_CLIENT_FRAME)
    assert _code(big, max_size=MAX_CLIENT_FRAME) == "BAD_MESSAGE"


def test_deep_nesting_is_refused_not_crashed() -> None:
    """A frame nested thousands deep raises ProtocolError (no RecursionError)."""
    assert _code(b"\x91" * 100_000 + b"\xc0") == "BAD_MESSAGE"
    deep: object = 1
    for _ in range(50):
        deep = {"k": deep}
    assert _code(_frame(t="CreateRoom", ruleset="standard", private=False, settings={"x": deep})) == "BAD_MESSAGE"


def test_expect_limits_the_direction() -> None:
    """The server refuses server messages from a client, and clients refuse client messages."""
    assert decode(encode(Ping(1)), expect=CLIENT_MESSAGES) == Ping(1)
    assert _code(encode(Ping(1)), expect=SERVER_MESSAGES) == "UNKNOWN_MESSAGE"
    assert set(CLIENT_MESSAGES).isdisjoint(SERVER_MESSAGES)


def test_actions_travel_in_scenario_notation() -> None:
    """Act.action is the SCENARIOS.md action object, decoded into the model's Flick."""
    frame = _frame(t="Act", version=3, action={"team": "home", "action": "flick", "stone": "h2", "vx": 1500.0, "vy": 0})
    assert decode(frame) == Act(Flick("home", "h2", 1500.0, 0.0), 3)
    assert _code(_frame(t="Act", version=3, action={"team": "home", "action": "dance"})) == "BAD_MESSAGE"


def test_encode_refuses_what_decode_would_refuse() -> None:
    """The encoder checks fields too: the server cannot send an unknown ruleset or a NaN."""
    with pytest.raises(ProtocolError):
        encode(CreateRoom("blitz", {}, False))
    with pytest.raises(ProtocolError):
        encode(Act(Flick("home", "h2", float("nan"), 0.0), 0))
    with pytest.raises(ProtocolError):
        encode(Hello(1, "\ud800"))


def test_snapshot_has_the_documented_fields() -> None:
    """Snapshot carries what a client needs to draw a room and act (the brief's field list)."""
    assert set(Snapshot.__dataclass_fields__) == {
        "code", "version", "position", "clocks", "prompts", "seats", "spectators", "match_id", "rated"
    }


def test_a_quick_match_of_an_older_client_decodes_without_settings() -> None:
    """QuickMatch without ``settings`` (older clients) means no overrides; with it, the overrides travel."""
    assert decode(_frame(t="QuickMatch", ruleset="quick")) == QuickMatch("quick", {})
    assert decode(_frame(t="QuickMatch")) == QuickMatch(None, {})
    sent = QuickMatch("quick", {"period_ms": 20_000})
    assert decode(encode(sent)) == sent
    assert _code(_frame(t="QuickMatch", ruleset="quick", settings={"period_ms": [[1]]})) == "BAD_MESSAGE"


def test_an_error_of_an_older_server_decodes_without_retry_ms() -> None:
    """Error without ``retry_ms`` (older servers) decodes with nil; a D3 wait travels as an int of ms."""
    assert decode(_frame(t="Error", code="NOT_YOUR_TURN", message="away is to move", ref="Act")) == Error(
        "NOT_YOUR_TURN", "away is to move", "Act"
    )
    waited = Error("ACTION_NOT_ALLOWED", "the board is still moving (D3): wait 40 ms", "Act", 40)
    assert decode(encode(waited)) == waited
    assert _code(_frame(t="Error", code="NOT_YOUR_TURN", message="x", ref=None, retry_ms=-1)) == "BAD_MESSAGE"


def test_prompts_with_and_without_ms_left_decode() -> None:
    """A prompt map with ``ms_left`` (nil for an offer) and one of an older server without it both decode."""
    ms_left = {"kind": "choose_exclusion", "team": "home", "options": ["h5"], "default": None, "ms_left": 700}
    offer: dict[str, object] = {"kind": "count", "team": "away", "options": [], "default": None, "ms_left": None}
    old = {"kind": "choose_exclusion", "team": "home", "options": ["h5"], "default": None}
    played = next(msg for _, msg in examples() if isinstance(msg, MovePlayed))
    sent = replace(played, prompts=(ms_left, offer, old))
    received = decode(encode(sent))
    assert isinstance(received, MovePlayed) and received.prompts == (ms_left, offer, old)


def test_a_map_with_a_key_twice_is_refused():
    """{t: Act, ..., t: Ping} is not read as a Ping (the last key): a duplicate key is BAD_MESSAGE."""
    frame = b"\x83" + msgpack.packb("t") + msgpack.packb("Act") + msgpack.packb("nonce") + msgpack.packb(1)
    frame += msgpack.packb("t") + msgpack.packb("Ping")
    with pytest.raises(ProtocolError) as refused:
        decode(frame, CLIENT_MESSAGES)
    assert refused.value.code == "BAD_MESSAGE" and "twice" in refused.value.message


def test_clients_read_newer_servers_leniently_and_the_server_reads_clients_strictly():
    """A field and an error code a newer server adds are ignored by a lenient decode; a strict one refuses them."""
    newer = msgpack.packb({"t": "Error", "code": "SOME_NEW_CODE", "message": "m", "ref": None, "new_field": [1]})
    error = decode(newer, SERVER_MESSAGES, lenient=True)
    assert isinstance(error, Error) and error.code == "SOME_NEW_CODE"
    with pytest.raises(ProtocolError):
        decode(newer, SERVER_MESSAGES)
    ping = msgpack.packb({"t": "Ping", "nonce": 1, "extra": True})
    with pytest.raises(ProtocolError):
        decode(ping, CLIENT_MESSAGES)
    seats = msgpack.packb({"t": "Presence", "code": "K7QZ", "spectators": 0,
                           "seats": {"home": {"name": "ada", "connected": True, "rating": 1500}, "away": None}})
    presence = decode(seats, SERVER_MESSAGES, lenient=True)
    assert isinstance(presence, Presence) and presence.seats.home is not None and presence.seats.home.name == "ada"


def test_only_a_moved_close_with_a_websocket_url_sends_a_client_elsewhere() -> None:
    """MOVED with ws:// or wss:// is followed; another code, another scheme, nothing, or an overlong URL is not."""
    from shared.protocol.errors import MAX_MOVED_URL, CloseCode, moved_to

    assert moved_to(CloseCode.MOVED, "ws://10.0.0.2:8801/") == "ws://10.0.0.2:8801/"
    assert moved_to(CloseCode.MOVED, "wss://h/sprtec-2/") == "wss://h/sprtec-2/"
    assert moved_to(CloseCode.GOING_AWAY, "ws://10.0.0.2:8801/") is None
    assert moved_to(CloseCode.MOVED, "http://10.0.0.2/") is None
    assert moved_to(CloseCode.MOVED, "") is None and moved_to(CloseCode.MOVED, None) is None
    assert moved_to(CloseCode.MOVED, "ws://" + "h" * MAX_MOVED_URL) is None

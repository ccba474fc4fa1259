"""The msgpack codec: one message per binary websocket frame, checked field by field on the way in.

Why: this is the trust boundary of the server (docs/ARCHITECTURE.md "Every input is validated
at the edge"):
``decode`` turns any bytes into either a message or a ``ProtocolError`` with a code the server can
send back, never another exception, and never allocates more than the frame size allows.
``encode`` applies the same checks, so the server cannot send what a client would refuse; ``trusted=True``
(for messages this process built: the server's broadcasts) writes the same bytes without checking the
values, only their sizes (``specs.Spec.wire``), which costs a small part of the checks.
"""

from __future__ import annotations

from typing import Any

import msgpack

from shared.protocol.errors import ProtocolError
from shared.protocol.messages import MAX_SERVER_FRAME, MESSAGE_TYPES, Message
from shared.protocol.specs import LENIENT, dump_fields, load_fields, wire_of

TYPE_KEY = "t"


def encode(msg: Message, *, trusted: bool = False) -> bytes:
    """The msgpack frame of a message: ``{"t": <type>, **fields}``; ProtocolError if a field breaks its spec.

    ``trusted``: ``msg`` was built by this process, so its values are what the specs allow; only their sizes are
    checked (a string, an array or a nesting deeper than the spec's bound), and the bytes are those of the checked
    encoding (tests/protocol/test_codec.py holds the two to each other for every message type). A value msgpack
    cannot write is a ProtocolError too.
    """
    name = type(msg).__name__
    if MESSAGE_TYPES.get(name) is not type(msg):
        raise ProtocolError("UNKNOWN_MESSAGE", f"{name} is not a protocol message")
    if not trusted:
        frame: bytes = msgpack.packb({TYPE_KEY: name, **dump_fields(msg, name)}, use_bin_type=True)
        return frame
    try:
        frame = msgpack.packb({TYPE_KEY: name, **wire_of(msg, name)}, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as error:
        raise ProtocolError("BAD_MESSAGE", f"{name}: msgpack cannot write it: {error}") from None
    return frame


def decode(
    data: Any, expect: tuple[type, ...] | None = None, max_size: int = MAX_SERVER_FRAME, *, lenient: bool = False
) -> Message:
    """The message in one frame, or ProtocolError: BAD_MESSAGE, or UNKNOWN_MESSAGE for a type not in ``expect``.

    ``expect`` limits the accepted types (the server passes ``CLIENT_MESSAGES``, clients
    ``SERVER_MESSAGES``); ``max_size`` bounds the frame (``MAX_CLIENT_FRAME`` on the server). A map with a key
    twice is refused. ``lenient`` (clients reading the server): fields the message does not define are ignored,
    and open choices (error codes, rulesets) take values this program does not know (docs/PROTOCOL.md "Versions").
    """
    token = LENIENT.set(lenient)
    try:
        return _decode(data, expect, max_size)
    finally:
        LENIENT.reset(token)


def _decode(data: Any, expect: tuple[type, ...] | None, max_size: int) -> Message:
    """``decode`` with its leniency set."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ProtocolError("BAD_MESSAGE", f"a frame is bytes, not {type(data).__name__}")
    if len(data) > max_size:
        raise ProtocolError("BAD_MESSAGE", f"frame of {len(data)} bytes exceeds {max_size}")
    raw = _unpack(bytes(data), max_size)
    if type(raw) is not dict:
        raise ProtocolError("BAD_MESSAGE", "a message is a msgpack map")
    name = raw.get(TYPE_KEY)
    if type(name) is not str:
        raise ProtocolError("BAD_MESSAGE", f"missing the string field {TYPE_KEY!r} naming the message type")
    cls = MESSAGE_TYPES.get(name)
    if cls is None or (expect is not None and cls not in expect):
        raise ProtocolError("UNKNOWN_MESSAGE", f"unexpected message type {name[:40]!r}")
    message: Message = cls(**load_fields(cls, raw, name, skip=(TYPE_KEY,)))
    return message


def peek(data: bytes) -> dict[str, Any]:
    """The raw wire map of a frame this process trusts, unchecked: ``{"t": <type>, <field>: <wire value>}``.

    Only for load tools reading a server's frames by the thousand (``sprtec bench server``): ``decode``
    checks every field and builds the dataclasses (~1.3 ms for a MovePlayed), more than the server spends
    on the move. Anything that acts on the content must use ``decode``.
    """
    return msgpack.unpackb(data, raw=False)  # type: ignore[no-any-return]


def _unpack(data: bytes, max_size: int) -> Any:
    """msgpack's value of a whole frame (no trailing bytes, no bin or ext outside known fields)."""
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            object_pairs_hook=_unique_map,
            max_str_len=max_size,
            max_bin_len=max_size,
            max_array_len=max_size,
            max_map_len=max_size,
            max_ext_len=max_size,
        )
    except _DuplicateKey as error:
        raise ProtocolError("BAD_MESSAGE", f"a map holds the key {error.key[:40]!r} twice") from None
    except (ValueError, TypeError, OverflowError, RecursionError, msgpack.UnpackException) as error:
        # msgpack reports malformed data with ValueError subclasses (ExtraData, FormatError,
        # StackError, a bad UTF-8 string) and a non-str map key with ValueError too.
        raise ProtocolError("BAD_MESSAGE", f"not one msgpack value: {type(error).__name__}") from None


class _DuplicateKey(Exception):
    """A msgpack map with a key twice: ``{t: Act, ..., t: Ping}`` must not be read as whichever came last."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_map(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    """A map from msgpack's key/value pairs, refusing a key seen twice."""
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[Any] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(str(key))
            seen.add(key)
    return result

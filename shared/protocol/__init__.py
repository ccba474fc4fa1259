"""The sprtec websocket protocol: message types (dataclasses) and the msgpack codec (the only msgpack importer).

Use ``encode(msg) -> bytes`` and ``decode(data, expect=CLIENT_MESSAGES or SERVER_MESSAGES)``;
``decode`` raises only ``ProtocolError``. docs/PROTOCOL.md is the specification.
"""

from shared.protocol.codec import decode, encode, peek
from shared.protocol.errors import ERROR_CODES, PROTOCOL_ERROR_CODES, RULE_ERROR_CODES, CloseCode, ProtocolError
from shared.protocol.messages import *  # noqa: F403 - every message type is part of the package's API
from shared.protocol.messages import (
    CLIENT_MESSAGES,
    DEFAULT_PORT,
    HELLO_TIMEOUT_S,
    KEEPALIVE_INTERVAL_S,
    KEEPALIVE_TIMEOUT_S,
    LARGE_REQUESTS,
    MAX_CLIENT_FRAME,
    MAX_INVALID_MESSAGES,
    MAX_LARGE_FRAME,
    MAX_RATE_STRIKES,
    MAX_REPLAY_CHARS,
    MAX_SERVER_FRAME,
    MESSAGE_TYPES,
    PROTOCOL_VERSION,
    RATE_LIMIT,
    SERVER_MESSAGES,
)
from shared.protocol.trajectory import Trajectory, decode_trajectory, encode_trajectory

__all__ = [
    "CLIENT_MESSAGES",
    "ERROR_CODES",
    "DEFAULT_PORT",
    "HELLO_TIMEOUT_S",
    "KEEPALIVE_INTERVAL_S",
    "KEEPALIVE_TIMEOUT_S",
    "LARGE_REQUESTS",
    "MAX_CLIENT_FRAME",
    "MAX_INVALID_MESSAGES",
    "MAX_LARGE_FRAME",
    "MAX_RATE_STRIKES",
    "MAX_REPLAY_CHARS",
    "MAX_SERVER_FRAME",
    "MESSAGE_TYPES",
    "PROTOCOL_ERROR_CODES",
    "PROTOCOL_VERSION",
    "RATE_LIMIT",
    "RULE_ERROR_CODES",
    "SERVER_MESSAGES",
    "CloseCode",
    "ProtocolError",
    "Trajectory",
    "decode",
    "decode_trajectory",
    "encode",
    "encode_trajectory",
    "peek",
    *(name for name in MESSAGE_TYPES),
]

"""Error codes, websocket close codes and the one exception the codec raises.

Why a module of its own: the server picks codes from here when it refuses a request or closes a
connection, the client maps them to messages for a person, and docs/PROTOCOL.md lists them; one
definition keeps the three in step. Rule error codes are those of SCENARIOS.md (``RuleError``),
passed through unchanged; protocol codes are added here.
"""

from __future__ import annotations

from enum import IntEnum
from typing import get_args

from shared.outcome import ErrorCode

# The referee's refusals (SCENARIOS.md "Error codes"), sent unchanged in an Error message.
RULE_ERROR_CODES: tuple[str, ...] = get_args(ErrorCode)

# Refusals of the connection layer, the lobby and the room. Each keeps the connection usable.
PROTOCOL_ERROR_CODES: dict[str, str] = {
    "BAD_MESSAGE": "the frame is not a valid message: not msgpack, not a map, a missing, extra or wrong field",
    "UNKNOWN_MESSAGE": "the message type is unknown, or not one this side may send",
    "HELLO_REQUIRED": "the first message of a connection must be Hello",
    "RATE_LIMITED": "too many messages: the budget is 100 messages per 20 seconds",
    "NOT_IN_ROOM": "the request needs a room and the connection is in none",
    "ALREADY_IN_ROOM": "the request needs the connection to leave its room first",
    "ROOM_NOT_FOUND": "no room has this code (or it has closed)",
    "ROOM_FULL": "both seats of the room are taken",
    "NOT_A_PLAYER": "spectators are read-only: only a seated coach may act",
    "NOT_YOUR_TEAM": "the action names the other team",
    "STALE_VERSION": "the action was chosen on an older version of the room; resync first",
    "BAD_SETTINGS": "an unknown ruleset, an unknown setting or a setting value of the wrong type",
    "NOT_IN_QUEUE": "CancelQuickMatch without a queued QuickMatch",
    "MATCH_NOT_OVER": "a rematch can only be asked for once the match has ended",
    "NO_MATCH": "GetReplay: no match has this id",
    "REPLAY_TOO_LARGE": "GetReplay: the match's scenario exceeds Replay's bound; export it on the server instead",
    "INTERNAL": "the server failed to handle a valid request; the room is unchanged",
}

ERROR_CODES: tuple[str, ...] = RULE_ERROR_CODES + tuple(PROTOCOL_ERROR_CODES)


class CloseCode(IntEnum):
    """Websocket close codes the server uses (RFC 6455 §7.4 below 4000, the application's from 4000)."""

    NORMAL = 1000  # the client said Leave and disconnected, or the server closed a finished session
    GOING_AWAY = 1001  # the server shuts down or restarts
    PROTOCOL_ERROR = 1002  # the handshake was violated (a message before Hello, a second Hello)
    UNSUPPORTED_DATA = 1003  # a text frame: every message is a binary frame
    POLICY_VIOLATION = 1008  # rate limit exceeded repeatedly, or too many invalid messages
    MESSAGE_TOO_BIG = 1009  # a frame larger than MAX_CLIENT_FRAME
    VERSION_MISMATCH = 4000  # Hello.protocol differs from PROTOCOL_VERSION; the reason names the server's
    HELLO_TIMEOUT = 4001  # no Hello within HELLO_TIMEOUT_S of connecting
    BAD_TOKEN = 4002  # Hello.token is malformed or was revoked; connect again without one
    REPLACED = 4003  # the same player connected again elsewhere; this older connection is closed
    IDLE = 4004  # nothing received for IDLE_TIMEOUT_S (clients Ping every 15 s)


class ProtocolError(Exception):
    """Why a frame could not be decoded (or a message encoded): an error code and a readable message.

    ``code`` is one of ``PROTOCOL_ERROR_CODES`` (``BAD_MESSAGE`` or ``UNKNOWN_MESSAGE`` from the codec).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

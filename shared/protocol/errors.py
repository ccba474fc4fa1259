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

# The tournament engine's refusals (TOURNAMENT.md "Commands"), passed through unchanged in an Error message.
TOURNAMENT_ERRORS: dict[str, str] = {
    "BAD_FORMAT": "the tournament file or a value in the request is not of the contract's form",
    "UNKNOWN_PLAYER": "a player id the tournament (or that stage) does not have",
    "DUPLICATE_PLAYER": "an entry id the tournament has already",
    "PLAYED_TWICE": "a player twice in one round",
    "BAD_RESULT": "a result, card or walkover the contract refuses for that match or round",
    "ROUND_ORDER": "the round cannot come now (a round is still being played, or results are out of order)",
    "NOTHING_TO_PAIR": "the tournament is complete: there is no next round",
    "NO_PAIRING": "no legal pairing of the next round exists",
}

# Refusals of the connection layer, the lobby and the room. Each keeps the connection usable.
PROTOCOL_ERROR_CODES: dict[str, str] = {
    "BAD_MESSAGE": "the frame is not a valid message: not msgpack, not a map, a missing, extra or wrong field",
    "UNKNOWN_MESSAGE": "the message type is unknown, or not one this side may send",
    "HELLO_REQUIRED": "the first message of a connection must be Hello; the server waits for it",
    "BAD_NAME": "a name breaks the name rule: 1-24 characters (an entry's 64, a tournament's 100) with a letter or "
    "digit, no control, bidi or invisible character, no mark without its letter; a player's not guest-…",
    "NAME_TAKEN": "another player of this server (or another entry of the tournament) has that name or one that looks "
    "like it: names are compared by their Unicode confusable skeleton, whatever their case",
    "BAD_CLAIM": "Hello.claim is not a claim code of this server, was used already or has expired",
    "NO_PLAYER": "GetProfile, Mute: no player of this server has that name",
    "CHAT_MUTED": "Say: the organiser of this room's tournament silenced you in its chat (MuteEntry)",
    "CHAT_CLOSED": "Say: this room's spectators cannot chat",
    "RATE_LIMITED": "too many messages: the budget is 100 messages per 20 seconds; or, with ``retry_ms``, too many "
    "wrong entry or claim codes, new players or new tournaments from one address (or wrong codes for one "
    "tournament): try again then",
    "NOT_IN_ROOM": "the request needs a room and the connection is in none",
    "ALREADY_IN_ROOM": "the request needs the connection to leave its room first",
    "ROOM_NOT_FOUND": "no room has this code, or it has closed (also a request reaching a room as its server stops "
                      "or hands it to another node, or as a cluster node finds another node owns it: nothing "
                      "changed, and the connection is sent on - MOVED, or seated again with RoomJoined)",
    "ROOM_FULL": "both seats of the room are taken",
    "NOT_A_PLAYER": "spectators are read-only: only a seated coach may act",
    "NOT_YOUR_TEAM": "the action names the other team",
    "STALE_VERSION": "the version the request names is not the room's current one: older, resync first; newer "
    "than any the room sent, start again from a Snapshot",
    "BAD_SETTINGS": "an unknown ruleset, an unknown setting or a setting value of the wrong type",
    "NOT_IN_QUEUE": "CancelQuickMatch without a queued QuickMatch",
    "MATCH_NOT_OVER": "a rematch can only be asked for once the match has ended",
    "NO_MATCH": "GetReplay: no match has this id",
    "REPLAY_TOO_LARGE": "GetReplay: the match's scenario exceeds Replay's bound; export it on the server instead",
    "STORE_UNAVAILABLE": "the server cannot save moves right now (disk full, read-only, I/O error): play is paused "
    "and nothing acknowledged is lost; a Notice says when play resumes",
    "INTERNAL": "the server failed to handle a valid request; the room is unchanged",
    "TOURNAMENT_NOT_FOUND": "no tournament of this server has this id",
    "NOT_ORGANISER": "only the holder of the tournament's (or the league's) organiser secret may do this (the secret "
    "is missing or not its)",
    "NOT_ENTERED": "the request needs an entry of yours in the tournament (or a match of yours: disputes, "
    "corrections)",
    "ALREADY_ENTERED": "this player coaches an entry of the tournament already, or the entry has its coach (in a "
    "league: he is a roster player of it already)",
    "BAD_ENTRY_CODE": "JoinTournament.code (JoinLeague.code) is not the code of an entry of this tournament (a "
    "roster player of this league) that is still unclaimed",
    "REGISTRATION_CLOSED": "JoinTournament once the tournament's last round has started: no entry can be claimed "
    "or entered any more, and entry codes have expired",
    "NOT_ALLOWED": "CreateTournament, CreateLeague: this server lets only named players (or only the organisers its "
    "owner named) create tournaments and leagues",
    "TOURNAMENT_CLOSED": "the tournament does not take this now (it has ended, or its state does not allow it: "
    "check-in before the match, a round while tables are still open)",
    "LEAGUE_NOT_FOUND": "no league of this server has this id",
    "NOT_CAPTAIN": "SubmitLineup: only the team's captain (a roster player the organiser named captain) or the "
    "league's organiser gives a team's line-up, and a captain only his own team's",
    "NO_CASE": "no open dispute or correction of this tournament has this number (or it is not for you to confirm)",
    "ROUND_BEGUN": "TakeBackRound, SwapEntries: a match of the round has begun or has a result, so the round can "
    "no longer be taken back or paired again (override the results instead)",
    "NOT_ON_BOARD": "EnterResult for a table played online: its result comes from its match (the organiser may "
    "override it, or put the table on a board first)",
    "RESULT_ENTERED": "EnterResult of another result than the one the match has (the organiser changes a result "
    "with OverrideResult) or than the one the coach entered himself (his opponent confirms or disputes it)",
    "REFEREE_CONFLICT": "SetReferee of a player of the board, or of one of either player's club without both "
    "players' agreement (XVII.2-XVII.3)",
    "MATCH_STARTED": "PlayOnBoards for a table whose match is being played online: it is finished there",
    **{code: f"TOURNAMENT.md: {meaning}" for code, meaning in TOURNAMENT_ERRORS.items()},
    "UNKNOWN_FIXTURE": "TOURNAMENT.md \"Team competitions\": a fixture id (or a match day) the league does not have",
}

ERROR_CODES: tuple[str, ...] = RULE_ERROR_CODES + tuple(PROTOCOL_ERROR_CODES)


class CloseCode(IntEnum):
    """Websocket close codes the server uses (RFC 6455 §7.4 below 4000, the application's from 4000)."""

    NORMAL = 1000
    GOING_AWAY = 1001
    PROTOCOL_ERROR = 1002
    UNSUPPORTED_DATA = 1003
    POLICY_VIOLATION = 1008
    MESSAGE_TOO_BIG = 1009
    INTERNAL_ERROR = 1011
    TRY_AGAIN_LATER = 1013
    VERSION_MISMATCH = 4000
    HELLO_TIMEOUT = 4001
    BAD_TOKEN = 4002
    REPLACED = 4003
    MOVED = 4004


# What each close code means, for docs/PROTOCOL.md and for clients telling a person why they were disconnected.
CLOSE_MEANINGS: dict[CloseCode, str] = {
    CloseCode.NORMAL: "the connection ended normally",
    CloseCode.GOING_AWAY: "the server shuts down or restarts: connect again (with the token) in a moment",
    CloseCode.PROTOCOL_ERROR: "a second Hello on one connection",
    CloseCode.UNSUPPORTED_DATA: "a text frame: every message is a binary frame",
    CloseCode.POLICY_VIOLATION: "the rate limit refused more than 20 messages, or more than 10 messages were invalid",
    CloseCode.MESSAGE_TOO_BIG: "a message larger than MAX_CLIENT_FRAME (16 KiB; CreateTournament and RegisterEntries: "
                               "MAX_LARGE_FRAME, 64 KiB)",
    CloseCode.INTERNAL_ERROR: "keep-alive: no answer to the server's websocket ping within 20 s (or a server fault)",
    CloseCode.TRY_AGAIN_LATER: "the server cannot store a new player right now (its disk is failing, or this "
    "address added too many players within the hour): try later",
    CloseCode.VERSION_MISMATCH: "Hello.protocol is not the server's; the reason names the server's version",
    CloseCode.HELLO_TIMEOUT: "no Hello within 10 s of connecting",
    CloseCode.BAD_TOKEN: "Hello.token is not a token of this server: connect again without one",
    CloseCode.REPLACED: "the same player connected again elsewhere; this older connection is closed",
    CloseCode.MOVED: "a cluster: your room is played on another node, whose URL is the reason: connect there (token)",
}

MAX_MOVED_URL = 200  # the longest node URL a MOVED close is followed to (a close reason holds 123 bytes anyway)


def moved_to(code: int | None, reason: str | None) -> str | None:
    """The node a client is sent to by a close (MOVED with a websocket URL as the reason), or None: any other close,
    or a reason that is no websocket URL, is not followed."""
    if code != CloseCode.MOVED or not isinstance(reason, str) or len(reason) > MAX_MOVED_URL:
        return None
    return reason if reason.startswith(("ws://", "wss://")) else None


class ProtocolError(Exception):
    """Why a frame could not be decoded (or a message encoded): an error code and a readable message.

    ``code`` is one of ``PROTOCOL_ERROR_CODES`` (``BAD_MESSAGE`` or ``UNKNOWN_MESSAGE`` from the codec).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

"""Every message of the sprtec websocket protocol, one frozen dataclass each, with its wire spec.

Why: the server, the arcade client, the bot and docs/PROTOCOL.md must agree on each message's
fields, types and ranges. Each field declares its wire spec (``shared.protocol.specs``) next to its
Python type, so the codec checks exactly what is declared and the documentation is generated from
the same place. Positions and actions travel in their SCENARIOS.md JSON form (``shared.notation``),
decisions as SCENARIOS.md decision objects, trajectories in the compact form of
``shared.protocol.trajectory``.

On the wire a message is one msgpack map ``{"t": <class name>, <field>: <value>, ...}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from shared.model import Action, Position
from shared.outcome import Decision
from shared.protocol.errors import ERROR_CODES
from shared.protocol.specs import (
    MAX_INT,
    Bool,
    Convert,
    Int,
    Json,
    ListOf,
    MapOf,
    Opt,
    Str,
    Struct,
)
from shared.protocol.trajectory import Trajectory, decode_trajectory, encode_trajectory
from shared.rulesets import RULESETS

PROTOCOL_VERSION = 1
MAX_CLIENT_FRAME = 16 * 1024  # bytes: the largest frame a client may send (websockets max_size on the server)
MAX_SERVER_FRAME = 1024 * 1024  # bytes: the largest frame the server sends (a 30 s trajectory, a Replay fit)
# Characters of a Replay's scenario: a 3 x 6 min standard match exports to ~37 KB with a move every 3 s and ~87 KB
# with one every second (~113 bytes per log entry), so ~8,500 entries fit; with the frame's few bytes of overhead
# an ASCII scenario of this length stays under MAX_SERVER_FRAME (the server checks the encoded frame anyway).
MAX_REPLAY_CHARS = 960 * 1024
RATE_LIMIT = (100, 20_000)  # messages per window in ms, per connection (lila-ws round/play)
HELLO_TIMEOUT_S = 10  # seconds a new connection has to send Hello
KEEPALIVE_INTERVAL_S = 20  # the server sends a websocket ping this often ...
KEEPALIVE_TIMEOUT_S = 20  # ... and closes with 1011 when no pong answers it within this many seconds
MAX_RATE_STRIKES = 20  # messages the rate limit may refuse on one connection; the next one closes it (1008)
MAX_INVALID_MESSAGES = 10  # invalid frames one connection may send; the next one closes it (1008)
DEFAULT_PORT = 8765  # the port `sprtec serve` listens on and clients try first

TEAM = Str(4, choices=("home", "away"))
SEAT = Str(9, choices=("home", "away", "spectator"))
RULESET = Str(16, choices=RULESETS, open=True)
ROOM_CODE = Str(16, min_len=1)
TOKEN = Str(128, min_len=1)
SPECTATOR_CHAT = ("room", "spectators", "off")
EMOTES = ("good luck", "well played", "nice shot", "oops", "thanks", "wow")  # the quick emotes of a room's chat
CHAT_CHARS = 200  # the longest chat line (after the server strips control characters)
CLAIM_CODE = Str(16, min_len=4)
NAME = Str(32, min_len=1)
VERSION = Int(0, MAX_INT)
MS = Int(0, MAX_INT, "ms")
MATCH_ID = Str(64, min_len=1)
SETTING_VALUE = Json(depth=1, max_len=16, max_str=64)


def _notation(name: str) -> Any:
    """A converter of ``shared.notation``, imported when first used (the protocol loads without it)."""

    def get() -> Any:
        """The converter itself (imported on this first call)."""
        import shared.notation as notation

        return getattr(notation, name)

    return get


def _decision_from_json(obj: dict[str, Any]) -> Decision:
    """A SCENARIOS.md decision object ({"code": …, fields…}) as a Decision, field order kept."""
    if type(obj) is not dict or type(obj.get("code")) is not str:
        raise ValueError("a decision is a map with a string 'code'")
    return Decision(obj["code"], tuple((k, v) for k, v in obj.items() if k != "code"))


POSITION = Convert(
    "position",
    Json(depth=5, max_len=64, max_str=64),
    _notation("position_to_json"),
    _notation("position_from_json"),
    "position: the SCENARIOS.md position object",
)
ACTION = Convert(
    "action",
    Json(depth=3, max_len=16, max_str=32),
    _notation("action_to_json"),
    _notation("action_from_json"),
    "action: a SCENARIOS.md action object",
)
DECISION = Convert(
    "decision",
    Json(depth=2, max_len=16, max_str=64),
    lambda: Decision.to_json,
    lambda: _decision_from_json,
    "decision: a SCENARIOS.md decision object",
)
TRAJECTORY = Convert(
    "trajectory",
    Json(depth=3, max_len=3 * 4096 + 2, max_str=32),
    lambda: encode_trajectory,
    lambda: decode_trajectory,
    "trajectory: see Trajectory",
)
PROMPT = MapOf(Str(32), Json(depth=3, max_len=32, max_str=64), 16)  # {kind, team, options, default, ms_left}


# --------------------------------------------------------------------------- nested records


@dataclass(frozen=True, slots=True)
class Clocks:
    """The room's clocks as the server had them when it sent the message.

    ``part_ms`` is the time left in the current part, ``move_ms`` the time left for the move of
    ``to_move`` (0 when there is no move clock); neither runs while ``paused`` (breaks, a move being
    played back, an absent coach). Clients count down locally from the moment they receive it.
    """

    part_ms: Annotated[int, MS]
    move_ms: Annotated[int, MS]
    to_move: Annotated[str, TEAM]
    paused: Annotated[bool, Bool()]


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who holds a seat: the coach's display name and whether the coach is connected right now.

    ``grace_ms``: for a coach who is away while his match runs, the wall ms, from the moment the server sent
    the message, left for him to come back before he forfeits (product decision 5); clients count it down
    locally. Nil when the coach is connected, when no match runs, and from older servers. ``rating``: the coach's
    rating in the room's ruleset family (shown as a whole number, ``provisional`` adds "?"); nil for a player
    without one.
    """

    name: Annotated[str, NAME]
    connected: Annotated[bool, Bool()]
    grace_ms: Annotated[int | None, Opt(MS)] = None
    rating: Annotated[int | None, Opt(Int(0, 9999))] = None
    provisional: Annotated[bool, Bool()] = False


@dataclass(frozen=True, slots=True)
class Seats:
    """The two coaches' seats; nil for a free seat."""

    home: Annotated[SeatInfo | None, Opt(Struct(SeatInfo))]
    away: Annotated[SeatInfo | None, Opt(Struct(SeatInfo))]


@dataclass(frozen=True, slots=True)
class RoomInfo:
    """One line of the lobby's room list; ``score`` is the match's (nil before it starts, or from older servers).

    ``clocks``: the match's clocks when the list was made (the part's time left, who is to move, paused), nil
    before the match starts and from older servers; ``part`` names the part being played (``period 2``,
    ``overtime 1``, ``break``, ``shootout``), nil likewise; ``rated``: the room's matches count for ratings.
    """

    code: Annotated[str, ROOM_CODE]
    ruleset: Annotated[str, RULESET]
    seats: Annotated[Seats, Struct(Seats)]
    spectators: Annotated[int, Int(0, MAX_INT)]
    status: Annotated[str, Str(8, choices=("waiting", "playing", "ended"), open=True)]
    score: Annotated[Score | None, Opt(Struct(Score))] = None
    clocks: Annotated[Clocks | None, Opt(Struct(Clocks))] = None
    part: Annotated[str | None, Opt(Str(16))] = None
    rated: Annotated[bool, Bool()] = False


@dataclass(frozen=True, slots=True)
class Score:
    """Goals of each team."""

    home: Annotated[int, Int(0, 999)]
    away: Annotated[int, Int(0, 999)]


# --------------------------------------------------------------------------- client -> server


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message of every connection: the protocol version, the client's name, a resume token.

    ``claim``: instead of a token, a claim code the player got on another machine (GetClaimCode): this machine
    becomes that player, with a token of its own.
    """

    protocol: Annotated[int, Int(0, 65535)]
    client: Annotated[str, Str(64, min_len=1)]
    token: Annotated[str | None, Opt(TOKEN)] = None
    name: Annotated[str | None, Opt(NAME)] = None
    claim: Annotated[str | None, Opt(CLAIM_CODE)] = None


@dataclass(frozen=True, slots=True)
class CreateRoom:
    """Open a room with a ruleset and setting overrides; the creator takes the home seat.

    ``rated``: the room's matches count for the players' ratings (left out: a casual room). Quick matches are
    always rated. ``spectator_chat``: ``room`` (spectators chat with everyone), ``spectators`` (spectators' chat
    reaches only spectators) or ``off`` (spectators cannot chat).
    """

    ruleset: Annotated[str, RULESET]
    settings: Annotated[dict[str, Any], MapOf(Str(64, min_len=1), SETTING_VALUE, 64)]
    private: Annotated[bool, Bool()]
    rated: Annotated[bool, Bool()] = False
    spectator_chat: Annotated[str, Str(10, choices=SPECTATOR_CHAT)] = "room"


@dataclass(frozen=True, slots=True)
class JoinRoom:
    """Take the free seat of a room by its code (or reclaim one's own seat with the room's seat token)."""

    code: Annotated[str, ROOM_CODE]
    token: Annotated[str | None, Opt(TOKEN)] = None


@dataclass(frozen=True, slots=True)
class QuickMatch:
    """Queue for the next opponent who asks for the same ruleset and the same setting overrides.

    ``ruleset`` nil: any ruleset (``standard`` if both any). ``settings`` are overrides as in CreateRoom,
    checked the same way (BAD_SETTINGS); overrides need a named ruleset, and only players whose overrides
    are equal are paired. Left out (older clients): no overrides.
    """

    ruleset: Annotated[str | None, Opt(RULESET)] = None
    settings: Annotated[dict[str, Any], MapOf(Str(64, min_len=1), SETTING_VALUE, 64)] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CancelQuickMatch:
    """Leave the quick-match queue."""


@dataclass(frozen=True, slots=True)
class ListRooms:
    """Ask for the public rooms."""


@dataclass(frozen=True, slots=True)
class Watch:
    """Join a room as a spectator (read-only)."""

    code: Annotated[str, ROOM_CODE]


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the current room; a coach leaving a running match resigns it."""


@dataclass(frozen=True, slots=True)
class Act:
    """One action of the coach's team, chosen on room version ``version`` (the last one the client saw).

    RULES.md D3: no input while the board moves. Until the last MovePlayed's ``trajectory.ms`` have passed
    since the server sent it, an Act is refused with ``ACTION_NOT_ALLOWED`` ("the board is still moving
    (D3)") and changes nothing; wait out the playback (from its arrival) before acting.
    """

    action: Annotated[Action, ACTION]
    version: Annotated[int, VERSION]


@dataclass(frozen=True, slots=True)
class Rematch:
    """After the match: ask for another one in the same room with the same settings, ends swapped."""


@dataclass(frozen=True, slots=True)
class Resync:
    """Ask for everything after ``since_version`` in room ``code`` (after a gap or a reconnect)."""

    code: Annotated[str, ROOM_CODE]
    since_version: Annotated[int, VERSION]


@dataclass(frozen=True, slots=True)
class GetReplay:
    """Ask for match ``match_id``'s replay (the ``match_id`` of a Snapshot or MatchEnded); answered by Replay.

    Finished matches are public, like Lichess games: anyone connected may ask for one. A running match's replay
    goes only to its room's coaches and spectators (``NOT_IN_ROOM`` otherwise), so a player cannot follow a
    private room's match from outside. ``NO_MATCH``: no match has this id; ``REPLAY_TOO_LARGE``: the scenario
    exceeds Replay's bound (export it on the server with ``sprtec export``).
    """

    match_id: Annotated[str, MATCH_ID]


@dataclass(frozen=True, slots=True)
class Rename:
    """Choose another display name (the rules of Hello's ``name``; unique on the server, whatever its case).

    Answered by Renamed, or Error BAD_NAME / NAME_TAKEN.
    """

    name: Annotated[str, NAME]


@dataclass(frozen=True, slots=True)
class GetClaimCode:
    """Ask for a claim code that takes this identity to another machine (Hello{claim} there); one use, expires."""


@dataclass(frozen=True, slots=True)
class GetProfile:
    """Ask for a player's profile by display name (any case); nil: your own. Answered by Profile or NO_PLAYER."""

    player: Annotated[str | None, Opt(NAME)] = None


@dataclass(frozen=True, slots=True)
class GetLeaderboard:
    """Ask for the rated players of a ruleset's family (``quick``, or ``standard`` for the others) by rating.

    Only established players are listed (RD at most 75, as Lichess does); ``offset`` and ``limit`` page it
    (at most 100 a page). Answered by Leaderboard.
    """

    ruleset: Annotated[str, RULESET]
    offset: Annotated[int, Int(0, MAX_INT)] = 0
    limit: Annotated[int, Int(1, 100)] = 50


@dataclass(frozen=True, slots=True)
class Say:
    """Chat in your room: a line of ``text`` or one of the quick ``emote`` names (exactly one of the two).

    The server strips control and bidi characters, allows 5 lines per 10 s (RATE_LIMITED past it), refuses a coach
    or spectator the organiser silenced (CHAT_MUTED) and a spectator where the room closed spectators' chat
    (CHAT_CLOSED); everyone in the room who has not muted the speaker gets Chat.
    """

    text: Annotated[str | None, Opt(Str(CHAT_CHARS, min_len=1))] = None
    emote: Annotated[str | None, Opt(Str(16, choices=EMOTES))] = None


@dataclass(frozen=True, slots=True)
class Mute:
    """Stop (``muted``) or start again receiving a player's chat, by display name; answered by Muted."""

    player: Annotated[str, NAME]
    muted: Annotated[bool, Bool()] = True


@dataclass(frozen=True, slots=True)
class Ping:
    """Keep-alive and round-trip measurement; the server answers Pong with the same nonce."""

    nonce: Annotated[int, Int(0, 2**32 - 1)]


# --------------------------------------------------------------------------- server -> client


@dataclass(frozen=True, slots=True)
class Welcome:
    """The answer to Hello: the server's protocol and name, the player's display name, token and id.

    ``player`` is the display name the server knows the player by; ``player_id`` his number on this server (nil
    from older servers).
    """

    protocol: Annotated[int, Int(0, 65535)]
    server: Annotated[str, Str(64, min_len=1)]
    player: Annotated[str, NAME]
    token: Annotated[str, TOKEN]
    player_id: Annotated[int | None, Opt(Int(1, MAX_INT))] = None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The whole state of a room at ``version``: what a client needs to draw it and to act (``rated``: its matches
    count for ratings)."""

    code: Annotated[str, ROOM_CODE]
    version: Annotated[int, VERSION]
    match_id: Annotated[str, MATCH_ID]
    position: Annotated[Position, POSITION]
    clocks: Annotated[Clocks, Struct(Clocks)]
    prompts: Annotated[tuple[dict[str, Any], ...], ListOf(PROMPT, 8)]
    seats: Annotated[Seats, Struct(Seats)]
    spectators: Annotated[int, Int(0, MAX_INT)]
    rated: Annotated[bool, Bool()] = False


@dataclass(frozen=True, slots=True)
class RoomJoined:
    """You are in room ``code`` in ``seat``; ``token`` reclaims that seat (nil for spectators).

    Also sent to each connected coach when a rematch starts, right after the new match's Snapshot: the
    seats are swapped, and ``seat`` and ``snapshot`` are the coach's new seat and the new match.
    """

    code: Annotated[str, ROOM_CODE]
    seat: Annotated[str, SEAT]
    token: Annotated[str | None, Opt(TOKEN)]
    snapshot: Annotated[Snapshot, Struct(Snapshot)]


@dataclass(frozen=True, slots=True)
class RoomList:
    """The public rooms, newest first."""

    rooms: Annotated[tuple[RoomInfo, ...], ListOf(Struct(RoomInfo), 200)]


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """One resolved action (or a decision the server took for ``team``: nil ``action``) at ``version``.

    ``trajectory`` is nil for actions without physics; ``position`` and ``prompts`` are the state
    after the move, at rest, after every referee action.
    """

    code: Annotated[str, ROOM_CODE]
    version: Annotated[int, VERSION]
    team: Annotated[str, TEAM]
    action: Annotated[Action | None, Opt(ACTION)]
    trajectory: Annotated[Trajectory | None, Opt(TRAJECTORY)]
    decisions: Annotated[tuple[Decision, ...], ListOf(DECISION, 64)]
    position: Annotated[Position, POSITION]
    clocks: Annotated[Clocks, Struct(Clocks)]
    prompts: Annotated[tuple[dict[str, Any], ...], ListOf(PROMPT, 8)]


@dataclass(frozen=True, slots=True)
class ClockUpdate:
    """The clocks changed without a move (paused for an absent coach, resumed, a break started)."""

    code: Annotated[str, ROOM_CODE]
    clocks: Annotated[Clocks, Struct(Clocks)]


@dataclass(frozen=True, slots=True)
class RatingInfo:
    """A player's rating in one family: rating and RD as whole numbers, ``provisional`` while RD ≥ 110."""

    family: Annotated[str, Str(16, min_len=1)]
    rating: Annotated[int, Int(0, 9999)]
    rd: Annotated[int, Int(0, 999)]
    provisional: Annotated[bool, Bool()]
    games: Annotated[int, Int(0, MAX_INT)]


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One of a player's last matches: the opponent, his seat, the score, the result for him and how it ended,
    the rating change it made (nil: not rated), and when it ended (ms since the epoch)."""

    match_id: Annotated[str, MATCH_ID]
    opponent: Annotated[str, NAME]
    team: Annotated[str, TEAM]
    score: Annotated[Score, Struct(Score)]
    result: Annotated[str, Str(4, choices=("win", "draw", "loss"))]
    reason: Annotated[str, Str(64)]
    family: Annotated[str, Str(16)]
    rating_change: Annotated[int | None, Opt(Int(-9999, 9999))]
    ended_ms: Annotated[int, Int(0, MAX_INT)]


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One line of a leaderboard."""

    rank: Annotated[int, Int(1, MAX_INT)]
    player: Annotated[str, NAME]
    rating: Annotated[int, Int(0, 9999)]
    rd: Annotated[int, Int(0, 999)]
    games: Annotated[int, Int(0, MAX_INT)]


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What a rated match did to one coach's rating: before and after (whole numbers) and the RD after."""

    player: Annotated[str, NAME]
    team: Annotated[str, TEAM]
    family: Annotated[str, Str(16)]
    before: Annotated[int, Int(0, 9999)]
    after: Annotated[int, Int(0, 9999)]
    rd: Annotated[int, Int(0, 999)]
    provisional: Annotated[bool, Bool()]


@dataclass(frozen=True, slots=True)
class Renamed:
    """Your display name is now ``name``."""

    name: Annotated[str, NAME]


@dataclass(frozen=True, slots=True)
class ClaimCode:
    """A claim code for your identity: enter it on another machine within ``expires_ms`` (Hello{claim}); one use."""

    code: Annotated[str, CLAIM_CODE]
    expires_ms: Annotated[int, MS]


@dataclass(frozen=True, slots=True)
class Profile:
    """A player's profile: name, ratings per family, totals over his finished matches, and his last matches."""

    player: Annotated[str, NAME]
    player_id: Annotated[int, Int(1, MAX_INT)]
    ratings: Annotated[tuple[RatingInfo, ...], ListOf(Struct(RatingInfo), 8)]
    played: Annotated[int, Int(0, MAX_INT)]
    won: Annotated[int, Int(0, MAX_INT)]
    drawn: Annotated[int, Int(0, MAX_INT)]
    lost: Annotated[int, Int(0, MAX_INT)]
    last: Annotated[tuple[MatchLine, ...], ListOf(Struct(MatchLine), 50)]


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A page of a family's leaderboard: ``total`` ranked players in all, these from rank ``offset + 1``."""

    family: Annotated[str, Str(16)]
    offset: Annotated[int, Int(0, MAX_INT)]
    total: Annotated[int, Int(0, MAX_INT)]
    players: Annotated[tuple[BoardLine, ...], ListOf(Struct(BoardLine), 100)]


@dataclass(frozen=True, slots=True)
class Rated:
    """After a rated match, to everyone in the room: what it did to both coaches' ratings."""

    code: Annotated[str, ROOM_CODE]
    match_id: Annotated[str, MATCH_ID]
    changes: Annotated[tuple[RatingChange, ...], ListOf(Struct(RatingChange), 2)]


@dataclass(frozen=True, slots=True)
class Chat:
    """A line of a room's chat: who said it (display name) from which seat (``spectator`` for a spectator), and its
    ``text`` or ``emote``."""

    code: Annotated[str, ROOM_CODE]
    player: Annotated[str, NAME]
    seat: Annotated[str, SEAT]
    text: Annotated[str | None, Opt(Str(CHAT_CHARS, min_len=1))] = None
    emote: Annotated[str | None, Opt(Str(16, choices=EMOTES, open=True))] = None


@dataclass(frozen=True, slots=True)
class Muted:
    """You no longer receive (``muted``) or receive again ``player``'s chat."""

    player: Annotated[str, NAME]
    muted: Annotated[bool, Bool()]


@dataclass(frozen=True, slots=True)
class Notice:
    """News from the server about play itself, sent to every room it concerns (a person should see it).

    ``code``: ``PLAY_PAUSED`` (the server cannot save moves - its disk failed; the clocks stop and actions are
    refused with STORE_UNAVAILABLE, nothing acknowledged is lost), ``PLAY_RESUMED`` (saved again: the clocks run).
    Clients show ``message`` and must ignore codes they do not know.
    """

    code: Annotated[str, Str(32, min_len=1)]
    message: Annotated[str, Str(500)]


@dataclass(frozen=True, slots=True)
class Presence:
    """Who is in the room changed: a coach joined, left, dropped or came back; spectators came or went."""

    code: Annotated[str, ROOM_CODE]
    seats: Annotated[Seats, Struct(Seats)]
    spectators: Annotated[int, Int(0, MAX_INT)]


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over: final score, winner (nil for a draw) and the MATCH_ENDED reason."""

    code: Annotated[str, ROOM_CODE]
    match_id: Annotated[str, MATCH_ID]
    score: Annotated[Score, Struct(Score)]
    winner: Annotated[str | None, Opt(TEAM)]
    reason: Annotated[str, Str(64)]


@dataclass(frozen=True, slots=True)
class RematchOffered:
    """``team``'s coach asked for a rematch; when both have, a new match starts with the seats swapped (a new
    Snapshot, then a RoomJoined with his new seat to each coach)."""

    code: Annotated[str, ROOM_CODE]
    team: Annotated[str, TEAM]


@dataclass(frozen=True, slots=True)
class Left:
    """You left room ``code`` (the answer to Leave, or the room closed)."""

    code: Annotated[str, ROOM_CODE]


@dataclass(frozen=True, slots=True)
class QueueStatus:
    """Your quick-match state: ``queued`` or not, for ``ruleset``, with ``waiting`` players in that queue."""

    queued: Annotated[bool, Bool()]
    ruleset: Annotated[str | None, Opt(RULESET)]
    waiting: Annotated[int, Int(0, MAX_INT)]


@dataclass(frozen=True, slots=True)
class Error:
    """A request was refused; the connection stays usable. ``ref`` names the refused message type.

    ``retry_ms``: the same request may succeed once this many ms have passed since the Error was sent (the
    D3 refusal of an Act sets it to the rest of the move's playback); nil when waiting does not help (and from
    older servers, which leave it out).
    """

    code: Annotated[str, Str(32, choices=ERROR_CODES, open=True)]
    message: Annotated[str, Str(500)]
    ref: Annotated[str | None, Opt(Str(32))]
    retry_ms: Annotated[int | None, Opt(MS)] = None


@dataclass(frozen=True, slots=True)
class Replay:
    """The answer to GetReplay: ``scenario`` is the match as the JSON text ``sprtec export`` prints - a timed
    scenario of docs/SCENARIOS.md and docs/SCENARIOS-EXTENSIONS.md that ``sprtec scenario`` and ``sprtec replay``
    read - as one UTF-8 string (not a nested map: it is saved as it is). A running match's is as far as it has
    been played. At most MAX_REPLAY_CHARS (960 KiB) characters; one frame, no compression, no parts."""

    match_id: Annotated[str, MATCH_ID]
    scenario: Annotated[str, Str(MAX_REPLAY_CHARS, min_len=2)]


@dataclass(frozen=True, slots=True)
class Pong:
    """The answer to Ping."""

    nonce: Annotated[int, Int(0, 2**32 - 1)]


# --------------------------------------------------------------------------- the registry

CLIENT_MESSAGES: tuple[type[ClientMessage], ...] = (
    Hello,
    CreateRoom,
    JoinRoom,
    QuickMatch,
    CancelQuickMatch,
    ListRooms,
    Watch,
    Leave,
    Act,
    Rematch,
    Resync,
    GetReplay,
    Rename,
    GetClaimCode,
    GetProfile,
    GetLeaderboard,
    Say,
    Mute,
    Ping,
)
SERVER_MESSAGES: tuple[type[ServerMessage], ...] = (
    Welcome,
    RoomJoined,
    RoomList,
    Snapshot,
    MovePlayed,
    ClockUpdate,
    Presence,
    MatchEnded,
    RematchOffered,
    Left,
    QueueStatus,
    Replay,
    Notice,
    Renamed,
    ClaimCode,
    Profile,
    Leaderboard,
    Rated,
    Chat,
    Muted,
    Error,
    Pong,
)
MESSAGE_TYPES: dict[str, type[Message]] = {cls.__name__: cls for cls in CLIENT_MESSAGES + SERVER_MESSAGES}

ClientMessage = (
    Hello
    | CreateRoom
    | JoinRoom
    | QuickMatch
    | CancelQuickMatch
    | ListRooms
    | Watch
    | Leave
    | Act
    | Rematch
    | Resync
    | GetReplay
    | Rename
    | GetClaimCode
    | GetProfile
    | GetLeaderboard
    | Say
    | Mute
    | Ping
)
ServerMessage = (
    Welcome
    | RoomJoined
    | RoomList
    | Snapshot
    | MovePlayed
    | ClockUpdate
    | Presence
    | MatchEnded
    | RematchOffered
    | Left
    | QueueStatus
    | Replay
    | Notice
    | Renamed
    | ClaimCode
    | Profile
    | Leaderboard
    | Rated
    | Chat
    | Muted
    | Error
    | Pong
)
Message = ClientMessage | ServerMessage

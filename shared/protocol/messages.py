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
MAX_CLIENT_FRAME = 16 * 1024  # bytes: the largest frame a client may send, but for the LARGE_REQUESTS ...
MAX_LARGE_FRAME = 64 * 1024  # ... whose texts count characters of up to 4 bytes (websockets max_size on the server)
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
    _notation("position_json"),  # read only: the wire and the log share it
    _notation("position_from_json"),
    "position: the SCENARIOS.md position object",
    shared=True,
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
    """Take the free seat of a room by its code, or one's own seat again. A seat is the player's: the server knows
    a returning coach by the player his Hello named, so ``token`` is not needed and is ignored (older clients sent
    RoomJoined's back) - it gives no other player a seat."""

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
    """Choose another display name (the rules of Hello's ``name``; no other player's may look like it).

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
    a tournament's organiser silenced at its tables (MuteEntry: CHAT_MUTED) and a spectator where the room closed
    spectators' chat (CHAT_CLOSED); everyone in the room who has not muted the speaker gets Chat.
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
    """You are in room ``code`` in ``seat``; ``token`` is your own player token (Welcome's; nil for spectators):
    whoever holds it is you, so keep it as secret as Welcome's.

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
    refused with STORE_UNAVAILABLE, nothing acknowledged is lost), ``PLAY_RESUMED`` (saved again: the clocks run),
    ``OPPONENT_MISSING`` (a cluster's quick match: the opponent sent here from another node did not arrive in time;
    after ``Left`` of the room, followed by ``QueueStatus{queued: true}`` - the player waits in the queue again).
    Clients show ``message`` (or their own words for a code they know) and must ignore codes they do not know.
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


# --------------------------------------------------------------------------- tournaments (docs/PROTOCOL.md
# "Tournaments"): the organiser's acts carry the tournament's organiser secret; players enter, check in, file
# disputes and agree corrections; anyone may list and watch.

TOURNAMENT_ID = Str(16, min_len=1)
SECRET = Str(128, min_len=1)
ENTRY = Str(32, min_len=1)  # a tournament file's player id (TOURNAMENT.md: 1-32 of [A-Za-z0-9_-])
ENTRY_NAME = Str(64, min_len=1)
STAGE = Int(0, 63)
ROUND = Int(1, 999)
TABLE = Int(1, 999)
CASE = Int(1, MAX_INT)
REASON = Str(500)
CARD = Str(12, choices=("yellow", "red", "disqualified"))
RULING = Str(8, choices=("stands", "changed", "replay"))
MAX_TOURNAMENT_FILE_CHARS = 15_000  # a CreateTournament file fits MAX_LARGE_FRAME; larger fields: RegisterEntries
MAX_ENTRIES = 512  # players of one tournament
ENTRIES_PER_REQUEST = 64  # entries one RegisterEntries may carry
YEAR = Int(1, 9999)  # a year of birth (TOURNAMENT.md: an integer of at least 1)
SEX = Str(1, choices=("m", "f"))
CATEGORY_CODE = Str(1, choices=("P", "Z", "J", "L", "M", "V", "?"), open=True)  # shared.tournament.categories
NO_SHOW_MS = 300_000  # a coach not at his table this long after it opens loses by walkover (the default)


@dataclass(frozen=True, slots=True)
class EntryForm:
    """A player the organiser enters: his name as everyone sees it, club, category, rating (nil: none),
    optionally the id the tournament file calls him by (nil: the server chooses one), and the Czech Cup's fields
    his category is derived from (TOURNAMENT.md "Categories"): year of birth (not after the tournament's season,
    nor in the future), sex (``m``/``f``) and the veteran mark."""

    name: Annotated[str, ENTRY_NAME]
    club: Annotated[str, Str(64)] = ""
    category: Annotated[str, Str(32)] = ""
    rating: Annotated[int | None, Opt(Int(0, 9999))] = None
    id: Annotated[str | None, Opt(ENTRY)] = None
    year_of_birth: Annotated[int | None, Opt(YEAR)] = None
    sex: Annotated[str | None, Opt(SEX)] = None
    veteran: Annotated[bool, Bool()] = False


@dataclass(frozen=True, slots=True)
class EntryCode:
    """An entry and the one-use code its player claims it with (JoinTournament.code); the server keeps only a
    hash of the code, so it is told once, to the organiser."""

    entry: Annotated[str, ENTRY]
    name: Annotated[str, ENTRY_NAME]
    code: Annotated[str, Str(16, min_len=1)]


@dataclass(frozen=True, slots=True, kw_only=True)
class EntryLine:
    """One entrant as the tournament knows him: whether a connected player coaches the entry (``claimed``),
    whether he has checked in, whether he has left the tournament (withdrawn or disqualified), and whether the
    organiser silenced him in the tournament's chat (``chat_muted``; left out by older servers: false). His Czech
    Cup fields follow (``year_of_birth``, ``sex``, ``veteran``) and ``cup_category``, the category TOURNAMENT.md
    derives from them in the tournament's season (``P Z J L M V``, ``?`` when unknown; older servers leave it out:
    "")."""

    entry: Annotated[str, ENTRY]
    name: Annotated[str, ENTRY_NAME]
    club: Annotated[str, Str(64)]
    category: Annotated[str, Str(32)]
    rating: Annotated[int | None, Opt(Int(0, 9999))]
    claimed: Annotated[bool, Bool()]
    checked_in: Annotated[bool, Bool()]
    out: Annotated[bool, Bool()]
    chat_muted: Annotated[bool, Bool()] = False
    year_of_birth: Annotated[int | None, Opt(YEAR)] = None
    sex: Annotated[str | None, Opt(SEX)] = None
    veteran: Annotated[bool, Bool()] = False
    cup_category: Annotated[str, Str(1)] = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class StandingLine:
    """One line of the standings: the fields of TOURNAMENT.md's ``sprtec-standings/1`` row (``entry`` is its
    ``player``) with the entrant's name; ``tiebreaks`` holds the stage system's criteria by their contract
    names. In a tournament played on boards ``refereed`` counts the boards the entry refereed whose match has a
    result (XVII.1; nil where nothing is played on boards) and ``refereed_short`` flags fewer than half the rounds he
    played, rounded down (as the organisers' program marks it ``!``)."""

    rank: Annotated[int, Int(1, MAX_INT)]
    shared: Annotated[bool, Bool()]
    entry: Annotated[str, ENTRY]
    name: Annotated[str, ENTRY_NAME]
    points: Annotated[int, Int(-MAX_INT, MAX_INT)]
    played: Annotated[int, Int(0, MAX_INT)]
    wins: Annotated[int, Int(0, MAX_INT)]
    draws: Annotated[int, Int(0, MAX_INT)]
    losses: Annotated[int, Int(0, MAX_INT)]
    byes: Annotated[int, Int(0, MAX_INT)]
    goals_for: Annotated[int, Int(0, MAX_INT)]
    goals_against: Annotated[int, Int(0, MAX_INT)]
    tiebreaks: Annotated[dict[str, int], MapOf(Str(32, min_len=1), Int(-MAX_INT, MAX_INT), 8)]
    yellow: Annotated[int, Int(0, MAX_INT)]
    red: Annotated[int, Int(0, MAX_INT)]
    suspended_next: Annotated[bool, Bool()]
    refereed: Annotated[int | None, Opt(Int(0, MAX_INT))] = None
    refereed_short: Annotated[bool, Bool()] = False


@dataclass(frozen=True, slots=True, kw_only=True)
class TableLine:
    """One match of the current round: its table number, the coaches (entries and names), the room to watch it
    in (nil when it needs no table: a walkover set by the pairing), how it stands and, while it is played, the
    score, the part and the part's time left (``part_ms``) when the update was made.

    ``status``: ``waiting`` (the table is open, the coaches are coming; ``no_show_ms`` is the time left before
    the one who is missing loses by walkover), ``playing``, ``ended`` (the result is in: ``score`` and, for a
    knockout match decided by a shoot-out, ``shootout``), ``walkover`` (``walkover`` names the winner), or
    ``replay`` (the organiser or both coaches ordered it played again: a new table opens), or ``board`` (played
    on physical board ``table``, its result not yet in: ``on_board``). ``kind`` is ``match``, ``final`` or
    ``third_place``. A board has its ``referee`` (entry and name; nil while none is named) and, once one coach
    entered its result, ``entered_by`` (his entry) with ``entered_score`` / ``entered_walkover`` /
    ``entered_shootout``: the other coach confirms it by entering the same."""

    table: Annotated[int, TABLE]
    home: Annotated[str, ENTRY]
    away: Annotated[str, ENTRY]
    home_name: Annotated[str, ENTRY_NAME]
    away_name: Annotated[str, ENTRY_NAME]
    kind: Annotated[str, Str(12, choices=("match", "final", "third_place"), open=True)]
    ruleset: Annotated[str, RULESET]
    status: Annotated[str, Str(8, choices=("waiting", "playing", "ended", "walkover", "replay", "board"), open=True)]
    room: Annotated[str | None, Opt(ROOM_CODE)] = None
    score: Annotated[Score | None, Opt(Struct(Score))] = None
    walkover: Annotated[str | None, Opt(TEAM)] = None
    shootout: Annotated[str | None, Opt(TEAM)] = None
    part: Annotated[str | None, Opt(Str(16))] = None
    part_ms: Annotated[int | None, Opt(MS)] = None
    no_show_ms: Annotated[int | None, Opt(MS)] = None
    on_board: Annotated[bool, Bool()] = False
    referee: Annotated[str | None, Opt(ENTRY)] = None
    referee_name: Annotated[str | None, Opt(ENTRY_NAME)] = None
    entered_by: Annotated[str | None, Opt(ENTRY)] = None
    entered_score: Annotated[Score | None, Opt(Struct(Score))] = None
    entered_walkover: Annotated[str | None, Opt(TEAM)] = None
    entered_shootout: Annotated[str | None, Opt(TEAM)] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BracketLine:
    """One match of a knockout stage's bracket, every round known so far: the round, the kind, the coaches (the
    better seed at home) and, once played, the result and the winner."""

    round: Annotated[int, ROUND]
    kind: Annotated[str, Str(12, choices=("match", "final", "third_place"), open=True)]
    home: Annotated[str, ENTRY]
    away: Annotated[str, ENTRY]
    score: Annotated[Score | None, Opt(Struct(Score))] = None
    walkover: Annotated[str | None, Opt(TEAM)] = None
    shootout: Annotated[str | None, Opt(TEAM)] = None
    winner: Annotated[str | None, Opt(ENTRY)] = None


@dataclass(frozen=True, slots=True)
class CardLine:
    """A card the organiser gave, for the coach's conduct in his match of one round, and why."""

    stage: Annotated[int, STAGE]
    round: Annotated[int, ROUND]
    entry: Annotated[str, ENTRY]
    card: Annotated[str, CARD]
    reason: Annotated[str, REASON]


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseLine:
    """A dispute or an agreed correction of one match (XVII).

    ``kind`` ``dispute``: filed by one coach, decided by the organiser; ``status`` ``open``, ``stands``,
    ``changed`` or ``replay``, with the organiser's ``ruling`` (his reason). ``kind`` ``correction``: proposed
    by one coach (XVII.4), ``open`` until the other confirms it, then ``agreed``; ``proposal`` says what it does
    (``replay``, or the corrected result)."""

    id: Annotated[int, CASE]
    kind: Annotated[str, Str(12, choices=("dispute", "correction"), open=True)]
    stage: Annotated[int, STAGE]
    round: Annotated[int, ROUND]
    table: Annotated[int, TABLE]
    by: Annotated[str, ENTRY]
    reason: Annotated[str, REASON]
    status: Annotated[str, Str(8, choices=("open", "stands", "changed", "replay", "agreed"), open=True)]
    ruling: Annotated[str, REASON] = ""
    proposal: Annotated[str, Str(64)] = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class RankingLine:
    """One line of the final ranking: TOURNAMENT.md's ``sprtec-ranking/1`` row (``entry`` is its ``player``) -
    the place across the stages, the Czech Cup category and the place in it (``category_winner``: first of his
    category, never for ``?``), the last stage he played, his Czech Cup points (nil without a cup) and whether he
    left the tournament (``out``)."""

    rank: Annotated[int, Int(1, MAX_INT)]
    shared: Annotated[bool, Bool()]
    entry: Annotated[str, ENTRY]
    name: Annotated[str, ENTRY_NAME]
    club: Annotated[str, Str(64)]
    category: Annotated[str, CATEGORY_CODE]
    category_rank: Annotated[int, Int(1, MAX_INT)]
    category_winner: Annotated[bool, Bool()]
    stage: Annotated[int, STAGE]
    cup_points: Annotated[int | None, Opt(Int(0, MAX_INT))]
    out: Annotated[bool, Bool()]


@dataclass(frozen=True, slots=True)
class AuditLine:
    """One act of the audit log: when (ms since the epoch), who (``organiser``, ``server`` or an entry), what,
    on what, and why."""

    at_ms: Annotated[int, Int(0, MAX_INT, "ms")]
    who: Annotated[str, Str(64, min_len=1)]
    act: Annotated[str, Str(32, min_len=1)]
    detail: Annotated[str, Str(200)]
    reason: Annotated[str, REASON]


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentInfo:
    """One line of the list of tournaments: id, name, status (as in TournamentUpdate), the current stage and
    round, entrants and tables being played."""

    tournament: Annotated[str, TOURNAMENT_ID]
    name: Annotated[str, Str(100)]
    status: Annotated[str, Str(12, choices=("registering", "playing", "between", "finished", "ended"), open=True)]
    stage: Annotated[int, STAGE]
    round: Annotated[int, Int(0, 999)]
    entries: Annotated[int, Int(0, MAX_INT)]
    playing: Annotated[int, Int(0, MAX_INT)]


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateTournament:
    """Create a tournament: from ``file`` (a TOURNAMENT.md file as JSON text, at most 15,000 characters; its
    players are entries waiting to be claimed) or from fields (``name``, one stage of ``system`` with ``rounds``,
    ``ruleset`` and ``settings``, ``seed``). ``no_show_ms``: a coach not at his table this long after it opens
    loses by walkover (nil: 300000, five minutes); ``next_round_after_ms``: start each next round this long after
    the last match of a round ends (nil: the organiser starts every round); ``on_boards``: every match is played on
    a physical board (PlayOnBoards changes it). Answered by TournamentCreated; the creator is the organiser."""

    file: Annotated[str | None, Opt(Str(MAX_TOURNAMENT_FILE_CHARS, min_len=2))] = None
    name: Annotated[str | None, Opt(Str(100))] = None
    system: Annotated[str | None, Opt(Str(12, choices=("swiss", "round_robin", "knockout")))] = None
    rounds: Annotated[int | None, Opt(Int(1, 99))] = None
    ruleset: Annotated[str | None, Opt(RULESET)] = None
    settings: Annotated[dict[str, Any], MapOf(Str(64, min_len=1), SETTING_VALUE, 64)] = field(default_factory=dict)
    seed: Annotated[int | None, Opt(Int(0, 2**31 - 1))] = None
    no_show_ms: Annotated[int | None, Opt(Int(1000, 86_400_000, "ms"))] = None
    next_round_after_ms: Annotated[int | None, Opt(Int(0, 86_400_000, "ms"))] = None
    on_boards: Annotated[bool, Bool()] = False


@dataclass(frozen=True, slots=True)
class RegisterEntries:
    """The organiser enters players (at most 64 a request); each gets a code his player claims the entry with.
    After round 1 an entry is a late entry (Swiss stages only). Answered by EntriesRegistered."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    entries: Annotated[tuple[EntryForm, ...], ListOf(Struct(EntryForm), ENTRIES_PER_REQUEST)]


@dataclass(frozen=True, slots=True)
class JoinTournament:
    """A player enters a tournament as himself (his display name; ``club``, ``category`` and the Czech Cup's
    ``year_of_birth``, ``sex`` and ``veteran`` as given, checked as EntryForm's), or, with ``code``, becomes the
    coach of the entry the organiser registered for him. Answered by TournamentJoined."""

    tournament: Annotated[str, TOURNAMENT_ID]
    code: Annotated[str | None, Opt(Str(16, min_len=1))] = None
    club: Annotated[str, Str(64)] = ""
    category: Annotated[str, Str(32)] = ""
    year_of_birth: Annotated[int | None, Opt(YEAR)] = None
    sex: Annotated[str | None, Opt(SEX)] = None
    veteran: Annotated[bool, Bool()] = False


@dataclass(frozen=True, slots=True)
class CheckIn:
    """Say a coach is here and plays: a player checks in his own entry; the organiser (``secret``) any
    ``entry``. Entries not checked in when a round starts are absent from it. Answered by TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    entry: Annotated[str | None, Opt(ENTRY)] = None
    secret: Annotated[str | None, Opt(SECRET)] = None


@dataclass(frozen=True, slots=True)
class WithdrawEntry:
    """Leave the tournament after the current round (results stay): a player his own entry, the organiser
    (``secret``) any ``entry``. Answered by TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    entry: Annotated[str | None, Opt(ENTRY)] = None
    secret: Annotated[str | None, Opt(SECRET)] = None
    reason: Annotated[str, REASON] = ""


@dataclass(frozen=True, slots=True)
class StartRound:
    """The organiser starts the next round: the server pairs it and opens a table per match (TableAssigned to
    each coach). Answered by TournamentDone (``id``: the round's number)."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]


@dataclass(frozen=True, slots=True)
class AutoStartRounds:
    """The organiser lets the rounds run themselves: each next round starts ``after_ms`` after the last match of
    a round ends (nil: he starts each round). Answered by TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    after_ms: Annotated[int | None, Opt(Int(0, 86_400_000, "ms"))] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GiveCard:
    """The organiser gives a card (yellow, red, disqualified) to a coach for his conduct in his match of
    ``stage``/``round`` (nil: the current round), with a reason. Answered by TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    entry: Annotated[str, ENTRY]
    card: Annotated[str, CARD]
    reason: Annotated[str, Str(500, min_len=1)]
    stage: Annotated[int | None, Opt(STAGE)] = None
    round: Annotated[int | None, Opt(ROUND)] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MuteEntry:
    """The organiser silences an entry's coach in the tournament's chat (``muted``), or lets him speak again: at
    every table of the tournament his Say is refused CHAT_MUTED (nobody hears him) until he is unmuted; kept in the
    audit log with the reason. Answered by TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    entry: Annotated[str, ENTRY]
    muted: Annotated[bool, Bool()] = True
    reason: Annotated[str, REASON] = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class UnlinkEntry:
    """The organiser undoes a claim: the entry's coach (a player who took the wrong entry, or a second one) is its
    coach no longer, its check-in is undone, and the entry gets a fresh code for its right player (the one told is
    spent). Kept in the audit log with the reason; refused while the entry's match is being played. Answered by
    EntriesRegistered with the entry and its new code."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    entry: Annotated[str, ENTRY]
    reason: Annotated[str, REASON] = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class OverrideResult:
    """XVII.5: the organiser sets the result of the match at ``table`` of ``stage``/``round`` - a ``score`` (with
    ``shootout`` for a drawn knockout match) or a ``walkover`` (the winning side) - with a reason. Answered by
    TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    stage: Annotated[int, STAGE]
    round: Annotated[int, ROUND]
    table: Annotated[int, TABLE]
    reason: Annotated[str, Str(500, min_len=1)]
    score: Annotated[Score | None, Opt(Struct(Score))] = None
    walkover: Annotated[str | None, Opt(TEAM)] = None
    shootout: Annotated[str | None, Opt(TEAM)] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EnterResult:
    """The result of a match played on a physical board (``table`` of ``stage``/``round``; nil: the current
    round's), entered by hand - a ``score`` (with ``shootout`` for a drawn knockout match) or a ``walkover``. With
    the organiser's ``secret`` it stands at once; a coach of the match enters it and it stands when the other coach
    enters the same result, while a different one becomes a dispute the organiser decides (ResolveDispute).
    Answered by TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    table: Annotated[int, TABLE]
    stage: Annotated[int | None, Opt(STAGE)] = None
    round: Annotated[int | None, Opt(ROUND)] = None
    score: Annotated[Score | None, Opt(Struct(Score))] = None
    walkover: Annotated[str | None, Opt(TEAM)] = None
    shootout: Annotated[str | None, Opt(TEAM)] = None
    secret: Annotated[str | None, Opt(SECRET)] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayOnBoards:
    """The organiser puts matches on physical boards (``on_board``) or back online: the whole tournament (no
    ``stage``), a stage (``stage``), or one table of a round (``stage``, ``round``, ``table``; a table whose match
    is being played online stays there: MATCH_STARTED). Answered by TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    on_board: Annotated[bool, Bool()] = True
    stage: Annotated[int | None, Opt(STAGE)] = None
    round: Annotated[int | None, Opt(ROUND)] = None
    table: Annotated[int | None, Opt(TABLE)] = None
    reason: Annotated[str, REASON] = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class SetReferee:
    """The organiser names the referee of board ``table`` of ``stage``/``round`` (``referee`` an entry; nil: nobody
    yet). XVII.2: never a player of the board, nor one of either player's club (REFEREE_CONFLICT) unless both
    players agree to him (``agreed``, XVII.3). Answered by TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    stage: Annotated[int, STAGE]
    round: Annotated[int, ROUND]
    table: Annotated[int, TABLE]
    referee: Annotated[str | None, Opt(ENTRY)] = None
    agreed: Annotated[bool, Bool()] = False
    reason: Annotated[str, REASON] = ""


@dataclass(frozen=True, slots=True)
class FileDispute:
    """A coach disputes a match of his (XVII, RULES.md 6.1: the organiser decides), with his reason. Answered by
    TournamentDone (``id``: the case number)."""

    tournament: Annotated[str, TOURNAMENT_ID]
    stage: Annotated[int, STAGE]
    round: Annotated[int, ROUND]
    table: Annotated[int, TABLE]
    reason: Annotated[str, Str(500, min_len=1)]


@dataclass(frozen=True, slots=True, kw_only=True)
class ResolveDispute:
    """The organiser decides a dispute: the result ``stands``, is ``changed`` (to ``score``/``shootout`` or
    ``walkover``), or the match is played again (``replay``: a new table opens), with his reason. Answered by
    TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    case: Annotated[int, CASE]
    ruling: Annotated[str, RULING]
    reason: Annotated[str, Str(500, min_len=1)]
    score: Annotated[Score | None, Opt(Struct(Score))] = None
    walkover: Annotated[str | None, Opt(TEAM)] = None
    shootout: Annotated[str | None, Opt(TEAM)] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ProposeCorrection:
    """XVII.4: a coach proposes to correct the result of a match of his (``score``/``shootout`` or
    ``walkover``) or to play it again (``replay``); it is done when the other coach confirms it
    (ConfirmCorrection). Answered by TournamentDone (``id``: the case number)."""

    tournament: Annotated[str, TOURNAMENT_ID]
    stage: Annotated[int, STAGE]
    round: Annotated[int, ROUND]
    table: Annotated[int, TABLE]
    replay: Annotated[bool, Bool()] = False
    score: Annotated[Score | None, Opt(Struct(Score))] = None
    walkover: Annotated[str | None, Opt(TEAM)] = None
    shootout: Annotated[str | None, Opt(TEAM)] = None
    reason: Annotated[str, REASON] = ""


@dataclass(frozen=True, slots=True)
class ConfirmCorrection:
    """XVII.4: the other coach of the match agrees to a proposed correction, which is then done. Answered by
    TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    case: Annotated[int, CASE]


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeBackRound:
    """The organiser takes back the round last paired - started by mistake - while none of its matches has begun or
    has a result (``ROUND_BEGUN`` otherwise): its tables close (``Left`` to whoever sits there), the act is in the
    audit log with his reason, and the next StartRound pairs the round again. ``stage`` and ``round``, when given,
    must name that round (``ROUND_ORDER`` otherwise). Answered by TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    reason: Annotated[str, Str(500, min_len=1)]
    stage: Annotated[int | None, Opt(STAGE)] = None
    round: Annotated[int | None, Opt(ROUND)] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SwapEntries:
    """The organiser edits the pairing of the round last paired while none of its matches has begun or has a result
    (``ROUND_BEGUN`` otherwise): entries ``first`` and ``second`` change places - each takes the other's seat at his
    table, or his bye - with his reason. The tables of their matches close and open again (TableAssigned to their
    coaches). Answered by TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    first: Annotated[str, ENTRY]
    second: Annotated[str, ENTRY]
    reason: Annotated[str, Str(500, min_len=1)]


@dataclass(frozen=True, slots=True)
class EndTournament:
    """The organiser ends the tournament now (no more rounds; results stand), with a reason. Answered by
    TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    reason: Annotated[str, Str(500, min_len=1)]


@dataclass(frozen=True, slots=True)
class WatchTournament:
    """Follow a tournament: a TournamentUpdate at once, then one whenever it changes (at most four a second).
    Any connection may watch, in a room or not; several tournaments at once."""

    tournament: Annotated[str, TOURNAMENT_ID]


@dataclass(frozen=True, slots=True)
class UnwatchTournament:
    """Stop following a tournament. Answered by TournamentDone."""

    tournament: Annotated[str, TOURNAMENT_ID]


@dataclass(frozen=True, slots=True)
class ListTournaments:
    """Ask for the tournaments of this server, newest first. Answered by TournamentList."""


@dataclass(frozen=True, slots=True)
class TournamentCreated:
    """The answer to CreateTournament: the tournament's id, the organiser secret (told once: the server keeps
    only its hash) and the entry codes of the file's players."""

    tournament: Annotated[str, TOURNAMENT_ID]
    secret: Annotated[str, SECRET]
    entries: Annotated[tuple[EntryCode, ...], ListOf(Struct(EntryCode), MAX_ENTRIES)]


@dataclass(frozen=True, slots=True)
class EntriesRegistered:
    """The answer to RegisterEntries: each new entry with its code."""

    tournament: Annotated[str, TOURNAMENT_ID]
    entries: Annotated[tuple[EntryCode, ...], ListOf(Struct(EntryCode), ENTRIES_PER_REQUEST)]


@dataclass(frozen=True, slots=True)
class TournamentJoined:
    """The answer to JoinTournament: the entry this player coaches, and its name."""

    tournament: Annotated[str, TOURNAMENT_ID]
    entry: Annotated[str, ENTRY]
    name: Annotated[str, ENTRY_NAME]


@dataclass(frozen=True, slots=True)
class TournamentDone:
    """A tournament request named by ``ref`` was carried out; ``id`` is what it made (a round's number, a case's
    number), nil otherwise."""

    tournament: Annotated[str, TOURNAMENT_ID]
    ref: Annotated[str, Str(32, min_len=1)]
    id: Annotated[int | None, Opt(Int(0, MAX_INT))] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TableAssigned:
    """Your next match: tournament, stage, round, table, the room to join (JoinRoom ``room``; a coach who
    reconnects is taken to it after his Welcome), the ruleset, your seat, your opponent's name and the time
    left (``no_show_ms``, from when this was sent) before a coach who is not at his table loses by walkover.

    ``on_board``: the match is played on physical board ``table`` ("board 4, on the board"): there is no room
    (``room`` nil) and no no-show deadline; its result is entered by hand (EnterResult), and ``referee`` names its
    referee (XVII.1; nil while none is named)."""

    tournament: Annotated[str, TOURNAMENT_ID]
    stage: Annotated[int, STAGE]
    round: Annotated[int, ROUND]
    table: Annotated[int, TABLE]
    room: Annotated[str | None, Opt(ROOM_CODE)]
    ruleset: Annotated[str, RULESET]
    seat: Annotated[str, TEAM]
    opponent: Annotated[str, ENTRY_NAME]
    no_show_ms: Annotated[int | None, Opt(MS)] = None
    on_board: Annotated[bool, Bool()] = False
    referee: Annotated[str | None, Opt(ENTRY_NAME)] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentUpdate:
    """A tournament as it stands, pushed to its watchers on every change (coalesced: at most four a second).

    ``sequence`` counts the updates pushed to the tournament's watchers (one more each time; a client that sees a
    gap missed nothing but intermediate states); the first update a new watcher gets carries the latest pushed
    number (0 before any). ``version`` counts the events in the tournament's log. ``status``:
    ``registering`` (before round 1), ``playing`` (a round is being played), ``between`` (rounds), ``finished``,
    ``ended`` (by the organiser). ``stage`` and ``round`` are the current (or last) round's; ``standings`` are
    those of TOURNAMENT.md (of ``standings_stage`` after its round ``after_round``; ``complete`` once the whole
    tournament is finished), ``tables`` the current round's matches, ``byes`` its byes, ``bracket`` every
    knockout match known (empty in other stages), ``cards`` every card, ``suspended`` the entries suspended for
    their next match, ``cases`` the disputes and corrections, ``audit`` the latest acts of the audit log (at
    most 100), ``next_round_ms`` the time until the next round starts by itself (nil: not scheduled). ``next_stage``
    and ``next_round`` name the round StartRound pairs next - the current stage's next round, else the next stage's
    first - and are nil once the last stage's last round has been paired, or the tournament ended (older servers
    leave them out).

    The Czech Cup's part (older servers leave it out): ``date`` (``YYYY-MM-DD``), ``cup_tier`` and ``season`` of
    the tournament file, and ``ranking``, the final ranking of every player across the stages exactly as ``sprtec
    tournament ranking`` prints it for the tournament's file (provisional until ``complete``), with ``cup_field``
    the number ranked when the tournament has a cup (nil otherwise). ``on_boards``: the current stage is played
    on physical boards (PlayOnBoards; a table may still say otherwise: ``TableLine.on_board``)."""

    tournament: Annotated[str, TOURNAMENT_ID]
    name: Annotated[str, Str(100)]
    sequence: Annotated[int, Int(0, MAX_INT)]
    version: Annotated[int, Int(0, MAX_INT)]
    status: Annotated[str, Str(12, choices=("registering", "playing", "between", "finished", "ended"), open=True)]
    system: Annotated[str, Str(12, choices=("swiss", "round_robin", "knockout"), open=True)]
    stage: Annotated[int, STAGE]
    round: Annotated[int, Int(0, 999)]
    standings_stage: Annotated[int, STAGE]
    after_round: Annotated[int, Int(0, 999)]
    complete: Annotated[bool, Bool()]
    entries: Annotated[tuple[EntryLine, ...], ListOf(Struct(EntryLine), MAX_ENTRIES)]
    standings: Annotated[tuple[StandingLine, ...], ListOf(Struct(StandingLine), MAX_ENTRIES)]
    tables: Annotated[tuple[TableLine, ...], ListOf(Struct(TableLine), MAX_ENTRIES // 2)]
    byes: Annotated[tuple[str, ...], ListOf(ENTRY, MAX_ENTRIES)]
    bracket: Annotated[tuple[BracketLine, ...], ListOf(Struct(BracketLine), MAX_ENTRIES)]
    cards: Annotated[tuple[CardLine, ...], ListOf(Struct(CardLine), 4 * MAX_ENTRIES)]
    suspended: Annotated[tuple[str, ...], ListOf(ENTRY, MAX_ENTRIES)]
    cases: Annotated[tuple[CaseLine, ...], ListOf(Struct(CaseLine), 256)]
    audit: Annotated[tuple[AuditLine, ...], ListOf(Struct(AuditLine), 100)]
    next_round_ms: Annotated[int | None, Opt(MS)] = None
    date: Annotated[str | None, Opt(Str(10))] = None
    cup_tier: Annotated[str | None, Opt(Str(12, choices=("expres", "cp12", "cp24", "cp36", "czech_open"),
                                             open=True))] = None
    season: Annotated[int | None, Opt(YEAR)] = None
    cup_field: Annotated[int | None, Opt(Int(0, MAX_INT))] = None
    ranking: Annotated[tuple[RankingLine, ...], ListOf(Struct(RankingLine), MAX_ENTRIES)] = ()
    on_boards: Annotated[bool, Bool()] = False
    next_stage: Annotated[int | None, Opt(STAGE)] = None
    next_round: Annotated[int | None, Opt(Int(1, 999))] = None


@dataclass(frozen=True, slots=True)
class TournamentList:
    """The answer to ListTournaments: this server's tournaments, newest first (at most 200)."""

    tournaments: Annotated[tuple[TournamentInfo, ...], ListOf(Struct(TournamentInfo), 200)]


# --------------------------------------------------------------------------- the team league (docs/PROTOCOL.md
# "Leagues", TOURNAMENT.md "Team competitions"): the organiser's acts carry the league's organiser secret; a team's
# captain gives its line-up; roster players claim their place with a code and play the games they are assigned.

LEAGUE_ID = Str(16, min_len=1)
LEAGUE_PLAYER = Str(32, min_len=1)  # a league file's team, player or fixture id (1-32 of [A-Za-z0-9_-])
MAX_LEAGUE_FILE_CHARS = 15_000  # as a tournament file: CreateLeague fits MAX_LARGE_FRAME
MAX_TEAM_SIZE = 8  # k: a line-up's players on this server (k x k games a fixture: 64 at most)
MAX_LEAGUE_TEAMS = 32
MAX_LEAGUE_PLAYERS = 512  # roster players of one league
MAX_FIXTURES = 512


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateLeague:
    """Create a team league from ``file`` (a ``sprtec-league/1`` file as JSON text, at most 15,000 characters:
    its teams with their rosters and its fixtures by match day). ``captains`` names each team's captain (team id
    -> roster player id; a team without one has only the organiser to give its line-up); ``no_show_ms``: a player
    not at his game's table this long after it opens loses it by walkover (nil: 300000); ``settings``: the match
    settings of every game, as CreateRoom's for the file's ruleset (e.g. ``period_ms``; none: the ruleset's own).
    Answered by LeagueCreated; the creator is the organiser."""

    file: Annotated[str, Str(MAX_LEAGUE_FILE_CHARS, min_len=2)]
    captains: Annotated[dict[str, str], MapOf(LEAGUE_PLAYER, LEAGUE_PLAYER, MAX_LEAGUE_TEAMS)] = field(
        default_factory=dict)
    settings: Annotated[dict[str, Any], MapOf(Str(64, min_len=1), SETTING_VALUE, 64)] = field(default_factory=dict)
    no_show_ms: Annotated[int | None, Opt(Int(1000, 86_400_000, "ms"))] = None


@dataclass(frozen=True, slots=True)
class JoinLeague:
    """A player takes his place on a team's roster with the code the organiser gave him (LeagueCreated): from
    now on the games of that roster player are his to play. Answered by LeagueJoined."""

    league: Annotated[str, LEAGUE_ID]
    code: Annotated[str, Str(16, min_len=1)]


@dataclass(frozen=True, slots=True)
class OpenMatchDay:
    """The organiser opens match day ``day`` (the fixtures of the file with that ``day``): their captains may
    give their line-ups and their rounds may start. Answered by LeagueDone (``id``: the day)."""

    league: Annotated[str, LEAGUE_ID]
    secret: Annotated[str, SECRET]
    day: Annotated[int, Int(1, 999)]


@dataclass(frozen=True, slots=True, kw_only=True)
class SubmitLineup:
    """A team's line-up for a fixture of the open day, in board order (k roster players): by the team's captain,
    or by the organiser (``secret``) naming the ``team``. It may be given again until the other team's is in;
    both are shown to everyone only once both are in, and never after the fixture's first round has started.
    Answered by LeagueDone."""

    league: Annotated[str, LEAGUE_ID]
    fixture: Annotated[str, LEAGUE_PLAYER]
    players: Annotated[tuple[str, ...], ListOf(LEAGUE_PLAYER, MAX_TEAM_SIZE)]
    team: Annotated[str | None, Opt(LEAGUE_PLAYER)] = None
    secret: Annotated[str | None, Opt(SECRET)] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StartLeagueRound:
    """The organiser starts the next round of a fixture of the open day (both line-ups in, the round before it
    complete): its k games are played at tables the server opens (LeagueGameAssigned to each player), or, with
    ``boards``, on boards at the club, their results entered by hand (LeagueResult). Answered by LeagueDone
    (``id``: the round's number)."""

    league: Annotated[str, LEAGUE_ID]
    secret: Annotated[str, SECRET]
    fixture: Annotated[str, LEAGUE_PLAYER]
    boards: Annotated[bool, Bool()] = False


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueResult:
    """The organiser enters (or corrects) the result of a game of a started round: a ``score`` or a
    ``walkover`` (the winning side), with his reason for a correction. Answered by LeagueDone."""

    league: Annotated[str, LEAGUE_ID]
    secret: Annotated[str, SECRET]
    fixture: Annotated[str, LEAGUE_PLAYER]
    round: Annotated[int, Int(1, MAX_TEAM_SIZE)]
    board: Annotated[int, Int(1, MAX_TEAM_SIZE)]
    score: Annotated[Score | None, Opt(Struct(Score))] = None
    walkover: Annotated[str | None, Opt(TEAM)] = None
    reason: Annotated[str, REASON] = ""


@dataclass(frozen=True, slots=True)
class WatchLeague:
    """Follow a league: a LeagueUpdate at once, then one whenever it changes (at most four a second). Any
    connection may watch."""

    league: Annotated[str, LEAGUE_ID]


@dataclass(frozen=True, slots=True)
class UnwatchLeague:
    """Stop following a league. Answered by LeagueDone."""

    league: Annotated[str, LEAGUE_ID]


@dataclass(frozen=True, slots=True)
class ListLeagues:
    """Ask for the leagues of this server, newest first. Answered by LeagueList."""


@dataclass(frozen=True, slots=True)
class LeaguePlayerCode:
    """A roster player, his team and the one-use code his player takes the place with (JoinLeague.code); told
    once, to the organiser."""

    player: Annotated[str, LEAGUE_PLAYER]
    team: Annotated[str, LEAGUE_PLAYER]
    name: Annotated[str, ENTRY_NAME]
    code: Annotated[str, Str(16, min_len=1)]


@dataclass(frozen=True, slots=True)
class LeagueCreated:
    """The answer to CreateLeague: the league's id, the organiser secret (told once: the server keeps only its
    hash) and every roster player's code."""

    league: Annotated[str, LEAGUE_ID]
    secret: Annotated[str, SECRET]
    players: Annotated[tuple[LeaguePlayerCode, ...], ListOf(Struct(LeaguePlayerCode), MAX_LEAGUE_PLAYERS)]


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueJoined:
    """The answer to JoinLeague: the roster player this player is, his team (its id and name), and whether he is its
    captain."""

    league: Annotated[str, LEAGUE_ID]
    player: Annotated[str, LEAGUE_PLAYER]
    team: Annotated[str, LEAGUE_PLAYER]
    name: Annotated[str, ENTRY_NAME]
    captain: Annotated[bool, Bool()] = False
    team_name: Annotated[str, Str(100)] = ""


@dataclass(frozen=True, slots=True)
class LeagueDone:
    """A league request named by ``ref`` was carried out; ``id`` is what it made (a day, a round), nil otherwise."""

    league: Annotated[str, LEAGUE_ID]
    ref: Annotated[str, Str(32, min_len=1)]
    id: Annotated[int | None, Opt(Int(0, MAX_INT))] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueGameAssigned:
    """Your next game of a team match: league, fixture (its two teams' names), round, board, the room to join
    (JoinRoom ``room``), the ruleset, your seat, your opponent's name and the time left (``no_show_ms``, from
    when this was sent) before a player not at his table loses the game by walkover."""

    league: Annotated[str, LEAGUE_ID]
    fixture: Annotated[str, LEAGUE_PLAYER]
    home_team: Annotated[str, Str(100)]
    away_team: Annotated[str, Str(100)]
    round: Annotated[int, Int(1, MAX_TEAM_SIZE)]
    board: Annotated[int, Int(1, MAX_TEAM_SIZE)]
    room: Annotated[str, ROOM_CODE]
    ruleset: Annotated[str, RULESET]
    seat: Annotated[str, TEAM]
    opponent: Annotated[str, ENTRY_NAME]
    no_show_ms: Annotated[int | None, Opt(MS)] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueTeamLine:
    """A team of the league: id, name, club, its captain (nil: none named) and its roster in the file's order,
    each roster player with whether a player has taken his place (``claimed``)."""

    team: Annotated[str, LEAGUE_PLAYER]
    name: Annotated[str, Str(100)]
    club: Annotated[str, Str(100)]
    captain: Annotated[str | None, Opt(LEAGUE_PLAYER)]
    players: Annotated[tuple[str, ...], ListOf(LEAGUE_PLAYER, 64)]
    names: Annotated[tuple[str, ...], ListOf(ENTRY_NAME, 64)]
    claimed: Annotated[tuple[bool, ...], ListOf(Bool(), 64)]


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueGameLine:
    """One game of a team match: its round and board, the two players (``home`` plays home in this game: A's
    player in odd rounds, B's in even ones), where it is played (``room``; nil on a board at the club), how it
    stands - ``waiting`` (``no_show_ms`` left before a missing player loses it), ``playing`` (with the live
    ``score``), ``ended`` (``score``) or ``walkover`` (``walkover`` names the winning side) - and the source of
    its result (``match``, ``forfeit``, ``no_show``, ``board``, ``override``). While it is played, ``part`` and
    ``part_ms`` are its part and the part's time left when the update was made (nil when its room is played on
    another node of a cluster); watchers get an update at least every second then."""

    round: Annotated[int, Int(1, MAX_TEAM_SIZE)]
    board: Annotated[int, Int(1, MAX_TEAM_SIZE)]
    home: Annotated[str, LEAGUE_PLAYER]
    away: Annotated[str, LEAGUE_PLAYER]
    status: Annotated[str, Str(8, choices=("waiting", "playing", "ended", "walkover"), open=True)]
    room: Annotated[str | None, Opt(ROOM_CODE)] = None
    score: Annotated[Score | None, Opt(Struct(Score))] = None
    walkover: Annotated[str | None, Opt(TEAM)] = None
    source: Annotated[str, Str(12)] = ""
    no_show_ms: Annotated[int | None, Opt(MS)] = None
    part: Annotated[str | None, Opt(Str(16))] = None
    part_ms: Annotated[int | None, Opt(MS)] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FixtureLine:
    """A team match of the league: its id, day, teams (A at home, B away), the referee team (nil: none named),
    which line-ups are in (``lineup_home_in``, ``lineup_away_in``), the two line-ups in board order - shown only
    once both are in, empty before - the rounds started so far (0-k, ``on_boards`` when its current round is
    played on boards), the team score so far (games won by A and by B), ``finished`` once all k x k games have a
    result, the fixture's ``points`` then (A's, B's) and, for a fixture of the open day, its games so far."""

    fixture: Annotated[str, LEAGUE_PLAYER]
    day: Annotated[int, Int(1, 999)]
    home: Annotated[str, LEAGUE_PLAYER]
    away: Annotated[str, LEAGUE_PLAYER]
    referee_team: Annotated[str | None, Opt(LEAGUE_PLAYER)]
    lineup_home_in: Annotated[bool, Bool()]
    lineup_away_in: Annotated[bool, Bool()]
    lineup_home: Annotated[tuple[str, ...], ListOf(LEAGUE_PLAYER, MAX_TEAM_SIZE)]
    lineup_away: Annotated[tuple[str, ...], ListOf(LEAGUE_PLAYER, MAX_TEAM_SIZE)]
    round: Annotated[int, Int(0, MAX_TEAM_SIZE)]
    on_boards: Annotated[bool, Bool()]
    team_score: Annotated[Score, Struct(Score)]
    finished: Annotated[bool, Bool()]
    points: Annotated[Score | None, Opt(Struct(Score))] = None
    games: Annotated[tuple[LeagueGameLine, ...], ListOf(Struct(LeagueGameLine), MAX_TEAM_SIZE * MAX_TEAM_SIZE)] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueTableRow:
    """One row of the league table (TOURNAMENT.md ``sprtec-league-table/1``: finished fixtures only)."""

    rank: Annotated[int, Int(1, MAX_INT)]
    shared: Annotated[bool, Bool()]
    team: Annotated[str, LEAGUE_PLAYER]
    played: Annotated[int, Int(0, MAX_INT)]
    wins: Annotated[int, Int(0, MAX_INT)]
    draws: Annotated[int, Int(0, MAX_INT)]
    losses: Annotated[int, Int(0, MAX_INT)]
    games_for: Annotated[int, Int(0, MAX_INT)]
    games_against: Annotated[int, Int(0, MAX_INT)]
    points: Annotated[int, Int(-MAX_INT, MAX_INT)]


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaguePlayerLine:
    """A player's season line (TOURNAMENT.md's ``players`` of ``sprtec-league-table/1``: finished fixtures only, a
    walkover counting as a game won or lost)."""

    player: Annotated[str, LEAGUE_PLAYER]
    team: Annotated[str, LEAGUE_PLAYER]
    games: Annotated[int, Int(0, MAX_INT)]
    won: Annotated[int, Int(0, MAX_INT)]
    drawn: Annotated[int, Int(0, MAX_INT)]
    lost: Annotated[int, Int(0, MAX_INT)]


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueUpdate:
    """A league as it stands, pushed to its watchers on every change (coalesced: at most four a second).

    ``sequence`` counts the updates pushed (as TournamentUpdate's), ``version`` the events of the league's log;
    ``day`` is the open match day (0: none yet); ``names`` maps every roster player's id to his name; ``teams``,
    ``fixtures`` (every fixture of the file, the open day's with their games), ``table`` (the league table of
    the finished fixtures) and ``players`` (each player's season line, in the contract's order; left out by older
    servers: empty)."""

    league: Annotated[str, LEAGUE_ID]
    name: Annotated[str, Str(100)]
    sequence: Annotated[int, Int(0, MAX_INT)]
    version: Annotated[int, Int(0, MAX_INT)]
    day: Annotated[int, Int(0, 999)]
    team_size: Annotated[int, Int(1, MAX_TEAM_SIZE)]
    names: Annotated[dict[str, str], MapOf(LEAGUE_PLAYER, ENTRY_NAME, MAX_LEAGUE_PLAYERS)]
    teams: Annotated[tuple[LeagueTeamLine, ...], ListOf(Struct(LeagueTeamLine), MAX_LEAGUE_TEAMS)]
    fixtures: Annotated[tuple[FixtureLine, ...], ListOf(Struct(FixtureLine), MAX_FIXTURES)]
    table: Annotated[tuple[LeagueTableRow, ...], ListOf(Struct(LeagueTableRow), MAX_LEAGUE_TEAMS)]
    players: Annotated[tuple[LeaguePlayerLine, ...], ListOf(Struct(LeaguePlayerLine), MAX_LEAGUE_PLAYERS)] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueInfo:
    """One line of the list of leagues: id, name, season (nil: none), the open day (0: none), teams, fixtures and
    those finished."""

    league: Annotated[str, LEAGUE_ID]
    name: Annotated[str, Str(100)]
    season: Annotated[int | None, Opt(Int(-MAX_INT, MAX_INT))]
    day: Annotated[int, Int(0, 999)]
    teams: Annotated[int, Int(0, MAX_INT)]
    fixtures: Annotated[int, Int(0, MAX_INT)]
    finished: Annotated[int, Int(0, MAX_INT)]


@dataclass(frozen=True, slots=True)
class LeagueList:
    """The answer to ListLeagues: this server's leagues, newest first (at most 200)."""

    leagues: Annotated[tuple[LeagueInfo, ...], ListOf(Struct(LeagueInfo), 200)]


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
    CreateTournament,
    RegisterEntries,
    JoinTournament,
    CheckIn,
    WithdrawEntry,
    StartRound,
    AutoStartRounds,
    GiveCard,
    MuteEntry,
    UnlinkEntry,
    OverrideResult,
    EnterResult,
    PlayOnBoards,
    SetReferee,
    FileDispute,
    ResolveDispute,
    ProposeCorrection,
    ConfirmCorrection,
    TakeBackRound,
    SwapEntries,
    EndTournament,
    WatchTournament,
    UnwatchTournament,
    ListTournaments,
    CreateLeague,
    JoinLeague,
    OpenMatchDay,
    SubmitLineup,
    StartLeagueRound,
    LeagueResult,
    WatchLeague,
    UnwatchLeague,
    ListLeagues,
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
    TournamentCreated,
    EntriesRegistered,
    TournamentJoined,
    TournamentDone,
    TableAssigned,
    TournamentUpdate,
    TournamentList,
    LeagueCreated,
    LeagueJoined,
    LeagueDone,
    LeagueGameAssigned,
    LeagueUpdate,
    LeagueList,
    Chat,
    Muted,
    Error,
    Pong,
)
MESSAGE_TYPES: dict[str, type[Message]] = {cls.__name__: cls for cls in CLIENT_MESSAGES + SERVER_MESSAGES}
# The requests whose frame may be up to MAX_LARGE_FRAME: a 15,000-character tournament file and 64 entries' names,
# clubs and categories are limited in characters, and a Czech or Polish character is 2 bytes of UTF-8 (any, up to 4).
LARGE_REQUESTS: tuple[type[ClientMessage], ...] = (CreateTournament, RegisterEntries, CreateLeague)

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
    | CreateTournament
    | RegisterEntries
    | JoinTournament
    | CheckIn
    | WithdrawEntry
    | StartRound
    | AutoStartRounds
    | GiveCard
    | MuteEntry
    | UnlinkEntry
    | OverrideResult
    | EnterResult
    | PlayOnBoards
    | SetReferee
    | FileDispute
    | ResolveDispute
    | ProposeCorrection
    | ConfirmCorrection
    | TakeBackRound
    | SwapEntries
    | EndTournament
    | WatchTournament
    | UnwatchTournament
    | ListTournaments
    | CreateLeague
    | JoinLeague
    | OpenMatchDay
    | SubmitLineup
    | StartLeagueRound
    | LeagueResult
    | WatchLeague
    | UnwatchLeague
    | ListLeagues
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
    | TournamentCreated
    | EntriesRegistered
    | TournamentJoined
    | TournamentDone
    | TableAssigned
    | TournamentUpdate
    | TournamentList
    | LeagueCreated
    | LeagueJoined
    | LeagueDone
    | LeagueGameAssigned
    | LeagueUpdate
    | LeagueList
    | Chat
    | Muted
    | Error
    | Pong
)
Message = ClientMessage | ServerMessage

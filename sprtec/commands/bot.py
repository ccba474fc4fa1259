"""``sprtec bot``: a headless coach that connects to a server, plays one match to the end and prints the result.

Why: load tests, the benchmark and a lonely player all need an opponent that speaks the real protocol.
The bot is a thin websocket loop around ``shared.ai``: it keeps the room's latest position and version,
answers every prompt, flicks when its team is to move (the search runs in a thread so websocket pings
keep flowing, and during the last move's playback, which it waits out before sending: RULES.md D3), resyncs
on a gap in versions, and stops at ``MatchEnded``. ``--create`` prints the room
code on stderr so a second bot can ``--room`` it; ``--random`` plays the random-flick baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shared import ai
from shared.ai import DEFAULT_BUDGET, answer_prompt, choose_action, random_flick, random_policy
from shared.draws import Stream
from shared.model import Action, Position
from shared.protocol import (
    MAX_SERVER_FRAME,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    Act,
    CreateRoom,
    Error,
    Hello,
    JoinRoom,
    MatchEnded,
    MovePlayed,
    Presence,
    ProtocolError,
    QuickMatch,
    Resync,
    RoomJoined,
    Seats,
    Snapshot,
    Welcome,
    decode,
    encode,
)
from shared.rulesets import RULESETS
from sprtec.commands import add_setting_argument, parse_settings

HELP = "play one match as a bot against a server (--quick-match, --create or --room CODE)"
CLIENT_NAME = "sprtec-bot/0.1"
QUIET_S = 5.0  # seconds without a message after which the bot resyncs (and may act again)
MAX_REFUSALS = 3  # refused actions at one version before the bot waits for the next one


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--server, one of --quick-match/--create/--room, --ruleset, --setting, --random, --budget, --name, --json."""
    parser.add_argument("--server", required=True, help="websocket URL, e.g. ws://127.0.0.1:8765/")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--quick-match", action="store_true", help="queue for the next opponent")
    mode.add_argument("--create", action="store_true", help="create a room (its code is printed on stderr)")
    mode.add_argument("--room", metavar="CODE", help="join the room with this code")
    parser.add_argument("--ruleset", choices=RULESETS, default=None, help="ruleset (default standard)")
    add_setting_argument(parser, "override a setting (--create; --quick-match pairs only equal overrides)")
    parser.add_argument("--private", action="store_true", help="make the created room private")
    parser.add_argument("--random", action="store_true", help="play random flicks (the baseline)")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="simulations per move")
    parser.add_argument("--level", choices=tuple(ai.LEVELS), help="play at this strength (replaces --budget)")
    parser.add_argument("--name", default="bot", help="display name")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")


@dataclass
class BotOptions:
    """What the bot does: how it enters a room, and how it plays."""

    mode: str  # "quick", "create" or "room"
    room: str | None = None
    ruleset: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    private: bool = False
    random: bool = False
    budget: int = DEFAULT_BUDGET
    name: str = "bot"
    level: str | None = None  # shared.ai.LEVELS: easy, medium or hard


@dataclass
class _State:
    """The bot's view of its room: the latest position and version, and what it already acted on."""

    code: str = ""
    seat: str = ""
    version: int = -1
    position: Position | None = None
    seated: int = 0  # coaches in the room: the bot acts only once both seats are taken
    acted_on: int = -1
    refusals: int = 0  # actions refused at the current version (the next try is a random flick)
    moving_until: float = 0.0  # monotonic s the playback of the last move ends (D3: the server refuses input before)


async def play(url: str, options: BotOptions, on_room: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Connect, enter a room, play until MatchEnded; the result as {match, seat, score, winner, reason}."""
    from websockets.asyncio.client import connect

    async with connect(url, compression=None, max_size=MAX_SERVER_FRAME) as ws:
        await ws.send(encode(Hello(PROTOCOL_VERSION, CLIENT_NAME, name=options.name)))
        welcome = decode(await ws.recv(), expect=SERVER_MESSAGES)
        if not isinstance(welcome, Welcome):
            raise RuntimeError(f"expected Welcome, got {welcome}")
        await ws.send(encode(_entry(options)))
        state = _State()
        while True:
            try:
                frame = await asyncio.wait_for(ws.recv(), QUIET_S)
            except TimeoutError:  # nothing for a while: maybe a lost update or a refused action; ask again
                if state.code:
                    state.acted_on = -1
                    await ws.send(encode(Resync(state.code, max(state.version, 0))))
                continue
            message = decode(frame, expect=SERVER_MESSAGES)
            if isinstance(message, MatchEnded):
                return {
                    "match": message.match_id,
                    "seat": state.seat,
                    "score": {"home": message.score.home, "away": message.score.away},
                    "winner": message.winner,
                    "reason": message.reason,
                }
            for reply in _react(state, message, on_room):
                await ws.send(encode(reply))
            action = await _decide(state, options)
            if action is not None:
                state.acted_on = state.version
                await _board_at_rest(state)
                await ws.send(encode(Act(action, state.version)))


def _entry(options: BotOptions) -> Any:
    """The lobby request for the chosen mode."""
    if options.mode == "create":
        return CreateRoom(options.ruleset or "standard", options.settings, options.private)
    if options.mode == "room":
        return JoinRoom(str(options.room))
    # overrides need a named ruleset on the queue: with none given, they are the default ruleset's
    return QuickMatch(options.ruleset or ("standard" if options.settings else None), options.settings)


def _react(state: _State, message: Any, on_room: Callable[[str], None] | None) -> list[Any]:
    """Update the state from one server message; the requests it calls for (a Resync after a gap)."""
    if isinstance(message, RoomJoined):
        state.code, state.seat = message.code, message.seat
        if on_room is not None:
            on_room(message.code)
        _count_seats(state, message.snapshot.seats)
        _take(state, message.snapshot.version, message.snapshot.position)
    elif isinstance(message, Snapshot):
        _count_seats(state, message.seats)
        _take(state, message.version, message.position)
    elif isinstance(message, Presence):
        _count_seats(state, message.seats)
    elif isinstance(message, MovePlayed):
        if message.version > state.version + 1:
            return [Resync(state.code, state.version)]
        _take(state, message.version, message.position)
        if message.trajectory is not None:  # D3: the server takes no input until the playback has ended
            state.moving_until = time.monotonic() + message.trajectory.duration_ms / 1000
    elif isinstance(message, Error):
        print(f"sprtec bot: {message.code}: {message.message}", file=sys.stderr)
        if message.ref == "Act":
            state.acted_on = -1  # decide again: on the resynced version, or a random flick
            state.refusals += 1
        if message.code == "STALE_VERSION":
            return [Resync(state.code, max(state.version, 0))]
    return []


async def _board_at_rest(state: _State) -> None:
    """Wait out the playback of the last move (the action was chosen meanwhile, so thinking costs nothing).

    Why: RULES.md D3 - the server refuses any input until the move's playback has ended in wall time
    (``duration_ms`` after its MovePlayed, which reaches us after the server sent it, so waiting from
    its arrival is never early).
    """
    left = state.moving_until - time.monotonic()
    if left > 0:
        await asyncio.sleep(left)


def _count_seats(state: _State, seats: Seats) -> None:
    """Remember how many seats are held."""
    state.seated = (seats.home is not None) + (seats.away is not None)


def _take(state: _State, version: int, position: Position) -> None:
    """Keep a newer version of the room (older or repeated ones are ignored)."""
    if version > state.version:
        state.version, state.position, state.refusals = version, position, 0


async def _decide(state: _State, options: BotOptions) -> Action | None:
    """The action to send now (once per version), or None: a prompt's answer or a flick when to move."""
    position = state.position
    if position is None or state.seat not in ("home", "away") or state.seated < 2 or state.acted_on == state.version:
        return None
    team = state.seat
    if state.refusals >= MAX_REFUSALS:
        return None  # wait for the next version (or the quiet-time resync)
    if state.refusals:  # the chosen action was refused here: try something else
        answer = answer_prompt(position, team)  # type: ignore[arg-type]
        if answer is not None or position.to_move != team:
            return answer
        return random_flick(position, team, Stream(position.seed, "retry", position.move_number, state.refusals))  # type: ignore[arg-type]
    if options.random:
        return random_policy(position, team)  # type: ignore[arg-type]
    if options.level is not None:
        return await asyncio.to_thread(ai.choose_action_at, position, team, ai.LEVELS[options.level])  # type: ignore[arg-type]
    return await asyncio.to_thread(choose_action, position, team, options.budget)  # type: ignore[arg-type]


def run(args: argparse.Namespace) -> int:
    """Play one match and print the result (exit 0), or an error on stderr (exit 1; 2 for bad arguments)."""
    try:
        settings = parse_settings(args.setting)
    except ValueError as problem:
        print(f"sprtec bot: {problem}", file=sys.stderr)
        return 2
    mode = "create" if args.create else "room" if args.room else "quick"
    options = BotOptions(mode, args.room, args.ruleset, settings, args.private, args.random, args.budget, args.name,
                         args.level)

    def announce(code: str) -> None:
        """Tell the operator the room code, so a second bot can join it."""
        if mode == "create":
            print(f"room {code}", file=sys.stderr, flush=True)

    from websockets.exceptions import WebSocketException

    try:
        result = asyncio.run(play(args.server, options, announce))
    except (OSError, RuntimeError, ProtocolError, WebSocketException) as problem:
        print(f"sprtec bot: {problem}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result), flush=True)
    else:
        score = result["score"]
        winner = result["winner"] or "nobody (a draw)"
        print(f"match {result['match']}: {score['home']}:{score['away']}, {winner} won; bot was {result['seat']}")
    return 0

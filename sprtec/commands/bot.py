"""``sprtec bot``: a headless coach that connects to a server, plays one match to the end and prints the result.

Why: load tests, the benchmark and a lonely player all need an opponent that speaks the real protocol.
The bot is a thin websocket loop around ``shared.ai`` and the protocol follower (``shared.protocol.follower``:
versions, gaps and resyncs, the D3 wait, the resume token): it answers every prompt, flicks when its team is to
move (the search runs in a thread so websocket pings keep flowing), reconnects when the connection drops and
stops at ``MatchEnded``. ``--create`` prints the room
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
from typing import Any, cast

from shared import ai
from shared.ai import DEFAULT_BUDGET, answer_prompt, choose_action, random_flick, random_policy
from shared.draws import Stream
from shared.model import Action, Team
from shared.protocol import (
    SERVER_MESSAGES,
    ClientMessage,
    CreateRoom,
    Error,
    JoinRoom,
    ProtocolError,
    QuickMatch,
    Resync,
    Welcome,
    decode,
    encode,
)
from shared.protocol.follower import Follower
from shared.rulesets import RULESETS
from sprtec.commands import add_setting_argument, parse_settings
from sprtec.commands.reconnecting import Reconnecting, on_stderr, stay_connected

HELP = "play one match as a bot against a server (--quick-match, --create or --room CODE)"
CLIENT_NAME = "sprtec-bot/0.1"
QUIET_S = 5.0  # seconds without a message after which the bot resyncs (and may act again)
MAX_REFUSALS = 3  # refused actions at one version before the bot waits for the next one
GIVE_UP_S = 300.0  # the bot stops after this long without any connection to the server ...
FIRST_CONNECT_S = 10.0  # ... or after this long when it never reached it (most likely a wrong URL)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--server, one of --quick-match/--create/--room, --ruleset, --setting, --random, --budget, --name, --json."""
    parser.add_argument("--server", required=True, help="websocket URL, e.g. ws://127.0.0.1:8765/")
    parser.add_argument("--node", action="append", default=[], metavar="URL",
                        help="another node of the same cluster, tried in turn when --server cannot be reached")
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
    parser.add_argument("--give-up", type=float, default=GIVE_UP_S, metavar="S",
                        help=f"stop after S seconds without a connection (default {GIVE_UP_S:.0f}; it reconnects "
                             "until then)")


@dataclass(kw_only=True)
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


async def play(url: str, options: BotOptions, on_room: Callable[[str], None] | None = None,
               give_up_s: float = GIVE_UP_S, others: tuple[str, ...] = (),
               heard: Callable[[object], None] | None = None) -> dict[str, Any]:
    """Connect, enter a room, play until MatchEnded; the result as {match, seat, score, winner, reason}.

    A dropped connection (the server restarting, a kill -9, the network) is not the end: the bot reconnects with
    growing pauses and its token, the server puts it back in its seat, and it plays on. It gives up only when no
    connection could be made for ``give_up_s`` seconds (FIRST_CONNECT_S at most before it was ever welcomed).

    In a cluster a node may send the bot to the node playing its room (close MOVED, the URL as the reason): it
    connects there at once. ``others`` are more nodes of the same cluster: when the node in use cannot be reached
    (a node sent to that died, or ``url`` itself), the bot goes back to the one it came from, then tries the next.
    ``heard`` is given every message the bot receives, in order (a check of what the server told a coach).
    """
    follower = Follower(client=CLIENT_NAME, name=options.name)
    bot = _Bot(options, follower, on_room, heard)
    how = Reconnecting(give_up_s=give_up_s, first_connect_s=FIRST_CONNECT_S, others=others,
                       say=on_stderr("sprtec bot"))
    return await stay_connected(url, bot.session, how, welcomed=lambda: follower.token is not None)


class _Bot:
    """The bot's play over one ``Follower``: enters its room once, answers prompts, flicks when to move."""

    def __init__(self, options: BotOptions, follower: Follower, on_room: Callable[[str], None] | None,
                 heard: Callable[[object], None] | None = None) -> None:
        self.options = options
        self.follower = follower
        self.on_room = on_room
        self.heard = heard
        self.acted_on = -1  # the version the bot last decided on (once per version)
        self.refusals = 0  # actions refused at ``refused_version`` (the next try is a random flick)
        self.refused_version = -1
        self.announced = ""
        self.name_tries = 0

    async def session(self, ws: Any) -> dict[str, Any] | None:
        """One connection: Hello, then messages until the match ends (the result) or the connection drops."""
        follower = self.follower
        await _send(ws, follower.connected())
        while True:
            try:
                async with asyncio.timeout(QUIET_S):  # not wait_for: on 3.11 it can swallow a cancellation
                    frame = await ws.recv()
            except TimeoutError:  # nothing for a while: maybe a lost update or a refused action; ask again
                room = follower.room
                if room is not None:
                    self.acted_on = -1
                    await _send(ws, [Resync(room.code, max(room.version, 0))])
                continue
            message = decode(frame, expect=SERVER_MESSAGES, lenient=True)
            if self.heard is not None:
                self.heard(message)
            replies = follower.receive(message, time.monotonic())
            if isinstance(message, Error) and message.ref == "Hello" and message.code == "NAME_TAKEN":
                follower.name = self._next_name()  # names are unique on a server: "bot", "bot 2", …
                follower.errors.clear()
                replies = follower.connected()
            if isinstance(message, Welcome) and follower.room is None:
                replies.append(_entry(self.options))  # the first connection, or a queue the server forgot
            await _send(ws, replies)
            result = self._result()
            if result is not None:
                return result
            self._notice()
            action = await self._decide()
            if action is not None:
                self.acted_on = follower.room.version if follower.room is not None else -1
                await _board_at_rest(follower)
                await _send(ws, follower.act(action, time.monotonic()))
            await _send(ws, follower.tick(time.monotonic()))

    def _next_name(self) -> str | None:
        """The name to try after NAME_TAKEN: the asked name with the next number, a guest after nine."""
        self.name_tries += 1
        if self.name_tries > 8:
            return None
        return f"{self.options.name[:21]} {self.name_tries + 1}"

    def _result(self) -> dict[str, Any] | None:
        """The result once our match has ended (also when the server told it after a reconnect)."""
        ended = self.follower.ended
        room = self.follower.room
        if ended is None or (room is not None and room.match_id and ended.match_id != room.match_id):
            return None
        return {
            "match": ended.match_id,
            "seat": room.seat if room is not None else "",
            "score": {"home": ended.score.home, "away": ended.score.away},
            "winner": ended.winner,
            "reason": ended.reason,
        }

    def _notice(self) -> None:
        """Tell the operator the room once; report refusals and count those of our actions."""
        room = self.follower.room
        if room is not None and room.code != self.announced:
            self.announced = room.code
            if self.on_room is not None:
                self.on_room(room.code)
        for error in self.follower.errors:
            print(f"sprtec bot: {error.code}: {error.message}", file=sys.stderr)
            if error.ref == "Act":
                self.acted_on = -1  # decide again: on the resynced version, or a random flick
                version = room.version if room is not None else -1
                self.refusals = self.refusals + 1 if version == self.refused_version else 1
                self.refused_version = version
        self.follower.errors.clear()

    async def _decide(self) -> Action | None:
        """The action to send now (once per version), or None: a prompt's answer or a flick when to move."""
        room = self.follower.room
        turn = room.ours_to_decide(self.acted_on) if room is not None else None
        if room is None or turn is None:
            return None
        position, team = turn[0], cast(Team, turn[1])
        refusals = self.refusals if self.refused_version == room.version else 0
        if refusals >= MAX_REFUSALS:
            return None  # wait for the next version (or the quiet-time resync)
        if refusals:  # the chosen action was refused here: try something else
            answer = answer_prompt(position, team)
            if answer is not None or position.to_move != team:
                return answer
            return random_flick(position, team, Stream(position.seed, "retry", position.move_number, refusals))
        if self.options.random:
            return random_policy(position, team)
        if self.options.level is not None:
            return await asyncio.to_thread(ai.choose_action_at, position, team, ai.LEVELS[self.options.level])
        return await asyncio.to_thread(choose_action, position, team, self.options.budget)


def _entry(options: BotOptions) -> ClientMessage:
    """The lobby request for the chosen mode."""
    if options.mode == "create":
        return CreateRoom(options.ruleset or "standard", options.settings, options.private)
    if options.mode == "room":
        return JoinRoom(str(options.room))
    # overrides need a named ruleset on the queue: with none given, they are the default ruleset's
    return QuickMatch(options.ruleset or ("standard" if options.settings else None), options.settings)


async def _send(ws: Any, messages: list[ClientMessage]) -> None:
    """Send each message, in order."""
    for message in messages:
        await ws.send(encode(message))


async def _board_at_rest(follower: Follower) -> None:
    """Wait out the playback of the last move (the action was chosen meanwhile, so thinking costs nothing).

    Why: RULES.md D3 - the server refuses any input until the move's playback has ended in wall time
    (``duration_ms`` after its MovePlayed, which reaches us after the server sent it, so waiting from
    its arrival is never early).
    """
    room = follower.room
    left = 0.0 if room is None else room.moving_until - time.monotonic()
    if left > 0:
        await asyncio.sleep(left)


def run(args: argparse.Namespace) -> int:
    """Play one match and print the result (exit 0), or an error on stderr (exit 1; 2 for bad arguments)."""
    try:
        settings = parse_settings(args.setting)
    except ValueError as problem:
        print(f"sprtec bot: {problem}", file=sys.stderr)
        return 2
    mode = "create" if args.create else "room" if args.room else "quick"
    options = BotOptions(mode=mode, room=args.room, ruleset=args.ruleset, settings=settings, private=args.private,
                         random=args.random, budget=args.budget, name=args.name, level=args.level)

    def announce(code: str) -> None:
        """Tell the operator the room code, so a second bot can join it."""
        if mode == "create":
            print(f"room {code}", file=sys.stderr, flush=True)

    from websockets.exceptions import WebSocketException

    try:
        result = asyncio.run(play(args.server, options, announce, args.give_up, tuple(args.node)))
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

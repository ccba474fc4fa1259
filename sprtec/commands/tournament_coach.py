"""A headless coach for a whole tournament: enters, checks in, plays every match it is assigned, until the end.

Why not ``sprtec bot``: a bot plays one match as a new player, but a tournament's table is held for the entry's
coach, who must be the same player from round to round. This coach keeps one identity (its token, through the
protocol follower ``shared.protocol.follower``) across its matches and across reconnections - the server may be
restarted under it - claims its entry with the organiser's code (or enters itself), checks in, watches the
tournament, and on every ``TableAssigned`` leaves its last room and joins the table; it plays like the bot (a
prompt's answer, then ``shared.ai``'s flick at its level, or a random legal one) and stops when the tournament is
over.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from shared import ai
from shared.model import Action, Position, Team
from shared.protocol import (
    SERVER_MESSAGES,
    CheckIn,
    ClientMessage,
    Error,
    JoinRoom,
    JoinTournament,
    Leave,
    MatchEnded,
    Resync,
    TableAssigned,
    TournamentJoined,
    TournamentUpdate,
    WatchTournament,
    Welcome,
    decode,
    encode,
)
from shared.protocol.follower import Follower
from sprtec.commands.reconnecting import Reconnecting, stay_connected

CLIENT_NAME = "sprtec-coach/0.1"
QUIET_S = 5.0  # seconds without a message after which the coach resyncs its room
GIVE_UP_S = 120.0  # the coach stops after this long without a connection
OVER = ("finished", "ended")
_THINKING = threading.Lock()


@dataclass
class CoachOptions:
    """Who the coach is and how it plays: its name, the entry code to claim (None: it enters itself), and
    ``shared.ai`` at a level (None: random legal flicks). A shoot-out is always played at the hard level: random
    penalty shots hardly ever score, and a sudden death would go on for ever."""

    name: str
    code: str | None = None
    level: str | None = "easy"
    verbose: bool = False


@dataclass
class CoachReport:
    """What the coach did: its entry, the matches it played (match ids) and the tournament's last update."""

    entry: str = ""
    matches: list[str] = field(default_factory=list)
    last: TournamentUpdate | None = None


async def coach(url: str, tournament: str, options: CoachOptions, give_up_s: float = GIVE_UP_S,
                others: tuple[str, ...] = ()) -> CoachReport:
    """Coach one entry of ``tournament`` to the end of the tournament (reconnecting whenever the connection
    drops; ``others``: more nodes of the same cluster, tried when the one in use cannot be reached); returns what it
    did."""
    report = CoachReport()
    await play(url, options, _Tournament(tournament, options, report), report.matches, give_up_s, others)
    return report


class Program(Protocol):
    """What a competition asks of a coach beyond playing the rooms it is sent to: what to answer its messages (enter,
    check in, watch, go to a table) and when it is over."""

    def on(self, message: object, room: str | None) -> list[ClientMessage]:
        """The requests a message calls for (``room``: the code of the room the coach is in, if any)."""
        ...

    def over(self) -> bool:
        """True once the competition has nothing more for this coach."""
        ...


async def play(url: str, options: CoachOptions, program: Program, matches: list[str],
               give_up_s: float = GIVE_UP_S, others: tuple[str, ...] = ()) -> None:
    """Play as one player, his identity kept across reconnections (``others``: more nodes of the same cluster), until
    ``program`` is over and he plays no match; the ids of the matches he played are added to ``matches``."""
    state = _Coach(options, Follower(client=CLIENT_NAME, name=options.name), program, matches)

    async def session(ws: Any) -> bool | None:
        """One connection: True once it is over."""
        return True if await state.session(ws) else None

    await stay_connected(url, session, Reconnecting(give_up_s=give_up_s, others=others))


class _Tournament:
    """A tournament's program: enter with the code (or as himself), check in, watch, go to each table assigned."""

    def __init__(self, tournament: str, options: CoachOptions, report: CoachReport) -> None:
        self.tournament = tournament
        self.options = options
        self.report = report

    def on(self, message: object, room: str | None) -> list[ClientMessage]:
        """What the tournament's messages call for."""
        tid = self.tournament
        if isinstance(message, Welcome):
            if not self.report.entry:
                return [JoinTournament(tid, self.options.code), WatchTournament(tid)]
            return [WatchTournament(tid)]
        if isinstance(message, TournamentJoined):
            self.report.entry = message.entry
            return [CheckIn(tid)]
        if isinstance(message, TournamentUpdate) and message.tournament == tid:
            self.report.last = message
        if isinstance(message, TableAssigned) and message.tournament == tid:
            if message.room is None:
                say(self.options, f"board {message.table} of round {message.round}, on the board: no room to play in")
                return []
            say(self.options, f"table {message.table} of round {message.round}: room {message.room}")
            return go_to(room, message.room)
        return []

    def over(self) -> bool:
        """The tournament is finished or ended."""
        return self.report.last is not None and self.report.last.status in OVER


def go_to(room: str | None, table: str) -> list[ClientMessage]:
    """Leave the room the coach is in (if another) and join the table's."""
    if room == table:
        return []
    return [*([Leave()] if room is not None else []), JoinRoom(table)]


def say(options: CoachOptions, text: str) -> None:
    """A line on standard error when verbose."""
    if options.verbose:
        print(f"coach {options.name}: {text}", file=sys.stderr, flush=True)


class _Coach:
    """The coach's state across connections."""

    def __init__(self, options: CoachOptions, follower: Follower, program: Program, matches: list[str]) -> None:
        self.options = options
        self.follower = follower
        self.program = program
        self.matches = matches
        self.acted_on = -1  # the version the coach last decided on

    async def session(self, ws: Any) -> bool:
        """One connection: Hello, enter and watch, then play; True once the competition is over for him."""
        follower = self.follower
        await _send(ws, follower.connected())
        while True:
            try:
                async with asyncio.timeout(QUIET_S):  # not wait_for: on 3.11 it can swallow a cancellation
                    frame = await ws.recv()
            except TimeoutError:
                room = follower.room
                if room is not None and room.ended is None:
                    self.acted_on = -1
                    await _send(ws, [Resync(room.code, max(room.version, 0))])
                continue
            message = decode(frame, expect=SERVER_MESSAGES, lenient=True)
            replies = follower.receive(message, time.monotonic())
            replies += self._rooms(message)
            replies += self.program.on(message, follower.room.code if follower.room is not None else None)
            follower.errors.clear()  # a refused action is decided again on the next version
            await _send(ws, replies)
            if self.program.over() and self._idle():
                return True
            action = await self._decide()
            if action is not None:
                self.acted_on = follower.room.version if follower.room is not None else -1
                await _rest(follower)
                await _send(ws, follower.act(action, time.monotonic()))
            await _send(ws, follower.tick(time.monotonic()))

    def _rooms(self, message: object) -> list[ClientMessage]:
        """A match that ended is counted and its room left; an error is said."""
        if isinstance(message, MatchEnded):
            if message.match_id not in self.matches:
                self.matches.append(message.match_id)
            room = self.follower.room
            if room is not None and room.code == message.code:
                return [Leave()]
        if isinstance(message, Error):
            say(self.options, f"{message.code}: {message.message}")
        return []

    def _idle(self) -> bool:
        """True when the coach plays no match now."""
        room = self.follower.room
        return room is None or room.ended is not None

    async def _decide(self) -> Action | None:
        """The action to send now (once per version): a prompt's answer, or a flick when it is to move."""
        room = self.follower.room
        turn = room.ours_to_decide(self.acted_on) if room is not None else None
        if room is None or turn is None:
            return None
        seats = room.seats
        if seats is None or seats.home is None or seats.away is None or \
                not (seats.home.connected and seats.away.connected):  # a table waiting for the other coach
            return None
        position, team = turn[0], cast(Team, turn[1])
        answer = ai.answer_prompt(position, team)
        if answer is not None or position.to_move != team:
            return answer
        level = "hard" if position.part.kind == "shootout" else self.options.level
        if level is not None:
            return await asyncio.to_thread(_think, position, team, ai.LEVELS[level])
        return ai.random_policy(position, team)

def _think(position: Position, team: Team, level: ai.Level) -> Action | None:
    """``shared.ai``'s choice, one search at a time in this process: the physics is not safe to run in several
    threads at once, and several coaches share a process (``sprtec tournament run``)."""
    with _THINKING:
        return ai.choose_action_at(position, team, level)


async def _send(ws: Any, messages: list[ClientMessage]) -> None:
    """Send each message, in order."""
    for message in messages:
        await ws.send(encode(message))


async def _rest(follower: Follower) -> None:
    """Wait out the last move's playback (D3: the server takes no input before)."""
    room = follower.room
    left = 0.0 if room is None else room.moving_until - time.monotonic()
    if left > 0:
        await asyncio.sleep(left)

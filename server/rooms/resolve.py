"""Resolve one log entry into exactly what the room commits: the entry to log, the new state, the encoded frames.

Why this runs in a worker process: applying a flick is ~5 ms of physics, and turning its outcome into a
``MovePlayed`` frame (the position, decisions, prompts and trajectory packed by the codec) costs ~1 ms more;
shipping the ``MoveRecord`` back (every keyframe, ~5 kB pickled) would cost the event loop another ~0.4 ms. The
room knows everything the frame needs before it submits the entry (it holds its lock, so the version, the move
clock used and who is away cannot change meanwhile: the ``Stamp``), so the worker builds the frames and returns
only the position, the decisions and the bytes; the loop logs them, keeps them for resync and broadcasts them.

Without a pool (tests, ``--workers 0``) the same function runs in-line, so both paths produce the same bytes.
The fold itself is the core's (``shared.match_log``); this module adds only what the server sends.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from server.store.position_blob import pack as pack_position
from server.wire import outgoing
from shared import match as rules
from shared import match_log, notation
from shared.match import Prompt
from shared.match_log import LogEntry
from shared.model import Action, Forfeit, Position, Team, Timeout
from shared.outcome import Decision, RuleError
from shared.protocol import Clocks, MatchEnded, MovePlayed, ProtocolError, Score
from shared.protocol.trajectory import Trajectory, with_relocations
from shared.rulesets import Settings

PromptInfo = dict[str, object]  # a prompt as the protocol sends it: kind, team, options, default, ms_left


@dataclass(frozen=True, slots=True, kw_only=True)
class Stamp:
    """What the room knows when it submits an entry, fixed until the entry is committed (the lock is held)."""

    code: str
    match_id: str
    version: int  # the version the broadcast will carry
    team: Team  # the team a clock event is for, when the entry names none
    turn_used: int  # move-clock time the team to move had used before the entry
    absent: bool  # a coach is away: the clocks are paused
    settings: Settings  # the room's settings: the prompts' deadlines (ms_left)


@dataclass(frozen=True, slots=True, kw_only=True)
class Resolved:
    """An entry resolved: ``entry`` is what to log (None: nothing happened), then the state and frames it makes.

    A refused action whose clock part changed something (a part ended) is logged as its clock part only;
    ``accepted``/``error`` still tell the coach why the action itself was refused. ``frame`` is None only when
    nothing is to be sent; ``broken`` names an outcome that could not be encoded (nothing is written then, so the
    log, the room and what clients saw never disagree).
    """

    entry: LogEntry | None
    position: Position
    decisions: tuple[Decision, ...]
    turn_used: int
    duration_ms: int
    accepted: bool
    error: RuleError | None
    prompts: tuple[PromptInfo, ...] = ()
    frame: bytes | None = None
    ended: bytes | None = None
    broken: str | None = None
    position_blob: bytes | None = None  # the position after the entry, packed here (the worker) for its log row


def deadline_ms(settings: Settings, prompt: Prompt) -> int:
    """Clock time after the last entry at which ``prompt``'s default applies (its ``deadline`` setting).

    Why one function: the room's timer and the ``ms_left`` sent with each prompt must name the same moment.
    """
    return int(getattr(settings, prompt.deadline, settings.choice_timeout_ms))


def prompts_of(position: Position, settings: Settings, left: Callable[[int], int]) -> tuple[PromptInfo, ...]:
    """The choices awaited in ``position``, as protocol dicts (kind, team, options, default action, ms_left).

    ``left`` turns a prompt's clock deadline (``deadline_ms``) into the milliseconds left, when the message is
    sent, until the server applies the default: the room knows its clocks, the worker the move's playback.
    """
    return tuple(
        {
            "kind": prompt.kind,
            "team": prompt.team,
            "options": list(prompt.options),
            "default": None if prompt.default is None else notation.action_to_json(prompt.default),
            "ms_left": None if prompt.default is None else max(0, left(deadline_ms(settings, prompt))),
        }
        for prompt in rules.prompts(position)
    )


def resolve(position: Position, entry: LogEntry, stamp: Stamp) -> Resolved:
    """Apply ``entry`` to ``position`` and encode the broadcast it makes (pure: same inputs, same bytes)."""
    outcome = match_log.apply_entry(position, entry)
    if not outcome.accepted:
        if not outcome.decisions:  # nothing happened: the used time keeps counting towards the next entry
            return Resolved(entry=None, position=position, decisions=(), turn_used=stamp.turn_used, duration_ms=0,
                            accepted=False, error=outcome.error)
        entry = dataclasses.replace(entry, input=None)  # only its clock part is logged
    after = outcome.position
    turn_used = match_log.next_turn_used(position, after, entry.elapsed_ms, stamp.turn_used)
    paused = stamp.absent or after.result is not None
    # The clock restarts at the entry and runs only once the clients' playback of the move ends (D3); paused, it
    # waits: the wall time left at the broadcast is the deadline plus the playback (just the deadline if paused).
    playback = 0 if paused else outcome.duration_ms
    prompts = prompts_of(after, stamp.settings, lambda deadline: deadline + playback)
    resolved = Resolved(entry=entry, position=after, decisions=outcome.decisions, turn_used=turn_used,
                        duration_ms=outcome.duration_ms, accepted=outcome.accepted, error=outcome.error,
                        prompts=prompts, position_blob=pack_position(after))
    trajectory = None
    if outcome.record is not None:
        trajectory = with_relocations(Trajectory.from_record(outcome.record), after, outcome.decisions)
    action: Action | None = None if isinstance(entry.input, Timeout | Forfeit) else entry.input
    clocks = Clocks(after.part.clock_ms, match_log.move_ms_left(stamp.settings, after, turn_used), after.to_move,
                    paused)
    try:
        frame = outgoing(MovePlayed(stamp.code, stamp.version, entry.team or stamp.team, action, trajectory,
                                    outcome.decisions, after, clocks, prompts))
        ended = None
        if after.result is not None:
            result = after.result
            ended = outgoing(MatchEnded(stamp.code, stamp.match_id, Score(*after.score), result.winner, result.reason))
    except ProtocolError as exc:
        return dataclasses.replace(resolved, broken=f"{exc.code}: {exc.message}")
    return dataclasses.replace(resolved, frame=frame, ended=ended)

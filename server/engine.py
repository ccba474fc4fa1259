"""The server's one door to the pure engine: log entries in, positions and decisions out.

Why one module: the room, crash recovery and ``sprtec export`` must compute *exactly* the same match
from the same log, so all three go through ``apply_entry`` - the live room runs it in a worker process
(physics never blocks the event loop), recovery and export run it in-line. An entry is clock time
first (``elapse``: the running period clock, breaks, part ends), then one input: a coach's action, a
move-clock timeout, a forfeit after the disconnect grace, or nothing.

The forfeit (a coach away past the grace, or one who left a running match) is ruled by
``shared.referee.forfeit``; the room decides when it happens and logs it as a ``forfeit`` or ``resign`` entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from server.store import LogEntry
from shared import match, notation
from shared.events import MoveRecord
from shared.model import Action, ForfeitReason, Position
from shared.outcome import ActionResult, Decision, RuleError
from shared.referee import clock, setup
from shared.referee.forfeit import forfeit
from shared.rulesets import Settings, make_settings

# Log entry kinds that end the match against ``team`` (product decision 5), with their MATCH_ENDED reason.
FORFEIT_KINDS: dict[str, ForfeitReason] = {"forfeit": "FORFEIT_DISCONNECTED", "resign": "RESIGNED"}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one log entry did: the position after it, the clock's decisions then the input's decisions.

    ``accepted`` is False when the input (an action) was refused; ``error`` says why. The clock part of
    an entry always happens, so a refused entry may still have changed the position (a part ended).
    """

    position: Position
    decisions: tuple[Decision, ...]
    accepted: bool = True
    error: RuleError | None = None
    record: MoveRecord | None = None

    @property
    def duration_ms(self) -> int:
        """The simulated duration of the move (0 without physics): the playback the clients show."""
        return self.record.duration_ms if self.record is not None else 0


def settings_of(position: Position) -> Settings:
    """The settings a position is played with (its ruleset plus its overrides)."""
    return match.settings_of(position)


def new_match(ruleset: str, overrides: dict[str, Any], seed: int) -> Position:
    """The position a match starts from: the ruleset, overrides and seed, through the referee's setup."""
    settings = make_settings(ruleset, overrides)
    changed = settings.to_overrides(make_settings(ruleset))
    base = Position(ruleset=ruleset, settings=tuple(sorted(changed.items())), seed=seed)
    started, _ = setup.start_match(base, settings)
    return started


def _elapse(position: Position, ms: int) -> tuple[Position, tuple[Decision, ...]]:
    """Run the period clock for ``ms`` (nothing happens for 0 ms or once the match is over)."""
    if ms <= 0 or position.result is not None:
        return position, ()
    after, decisions = clock.elapse(position, ms, settings_of(position))
    return after, tuple(decisions)


def apply_entry(position: Position, entry: LogEntry) -> Outcome:
    """Apply one log entry to ``position`` - the pure function a match is a fold of.

    Kinds: ``elapse`` (clock time only), ``action``, ``timeout``, ``forfeit`` and ``resign`` (see ``LogEntry``).
    """
    position, clock_decisions = _elapse(position, entry.elapsed_ms)
    if entry.kind == "elapse":
        return Outcome(position, clock_decisions)
    if entry.kind in FORFEIT_KINDS:  # the grace ran out, or the coach left a running match (Leave)
        result = forfeit(position, entry.team, FORFEIT_KINDS[entry.kind])  # type: ignore[arg-type]
    elif entry.kind == "timeout":
        result: ActionResult = match.timeout(position, entry.team)  # type: ignore[arg-type]
    elif entry.kind == "action":
        action: Action = notation.action_from_json(entry.action)
        result = match.apply_action(position, action)
    else:
        raise ValueError(f"unknown log entry kind {entry.kind!r}")
    decisions = clock_decisions + tuple(result.decisions)
    return Outcome(result.position, decisions, result.accepted, result.error, result.record)


def next_turn_used(before: Position, after: Position, elapsed_ms: int, turn_used: int) -> int:
    """Clock time the team to move has used of its move clock after an entry (0 when the turn changed)."""
    if before.to_move != after.to_move or before.move_number != after.move_number:
        return 0
    return turn_used + elapsed_ms


def replay(initial: Position, entries: Iterable[LogEntry], turn_used: int = 0) -> tuple[Position, int]:
    """The position after a log and the move clock used in it (crash recovery, export, tests).

    ``initial`` and ``turn_used`` are where the entries start: the match's start, or a stored checkpoint.
    """
    position = initial
    for entry in entries:
        after = apply_entry(position, entry).position
        turn_used = next_turn_used(position, after, entry.elapsed_ms, turn_used)
        position = after
    return position, turn_used


def action_json(action: Action) -> dict[str, Any]:
    """An action in the log's (and SCENARIOS.md's) JSON form."""
    return notation.action_to_json(action)


def position_json(position: Position) -> dict[str, Any]:
    """A position in SCENARIOS.md JSON."""
    return notation.position_to_json(position)


def position_from_json(data: dict[str, Any]) -> Position:
    """A position from SCENARIOS.md JSON."""
    return notation.position_from_json(data)

"""The server's one door to the pure engine: log entries in, positions and decisions out.

Why one module: the room, crash recovery and ``sprtec export`` must compute *exactly* the same match
from the same log, so all three go through ``apply_entry`` - the live room runs it in a worker process
(physics never blocks the event loop), recovery runs it in-line. An entry is clock time first (the running
period clock, breaks, part ends), then one input: a coach's action, a move-clock timeout, a forfeit after the
disconnect grace or a resignation, or nothing. ``shared.notation.log_entry_events`` says which events an entry
stands for and ``shared.match.apply_event`` applies each; the export writes the same events as a scenario and
``sprtec scenario`` folds them with the same function, so there is one replay path, not two.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from server.store import LogEntry
from shared import match, notation
from shared.events import MoveRecord
from shared.model import Action, Position
from shared.outcome import Decision, RuleError
from shared.referee import setup
from shared.rulesets import Settings, make_settings


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


def apply_entry(position: Position, entry: LogEntry) -> Outcome:
    """Apply one log entry to ``position`` - the pure function a match is a fold of.

    The entry's events (``notation.log_entry_events``: its clock time as ``Elapse``, then its input) go
    through ``shared.match.apply_event`` in order - the very fold ``sprtec export | sprtec scenario`` runs,
    so the server, recovery and the export cannot disagree. The clock part always happens; when the input
    is refused, the outcome keeps the position and decisions of the clock part, with ``accepted`` False and
    the input's error. Raises ``notation.NotationError`` for an entry no server writes (unknown kind, no team).
    """
    decisions: list[Decision] = []
    record: MoveRecord | None = None
    for event in notation.log_entry_events(entry.kind, entry.team, entry.action, entry.elapsed_ms):
        result = match.apply_event(position, event)
        if not result.accepted:
            return Outcome(position, tuple(decisions), False, result.error)
        position = result.position
        decisions.extend(result.decisions)
        record = result.record if result.record is not None else record
    return Outcome(position, tuple(decisions), True, None, record)


def next_turn_used(before: Position, after: Position, elapsed_ms: int, turn_used: int) -> int:
    """Clock time the team to move has used of its move clock after an entry (A35, product decision 4).

    The move clock starts afresh when the turn changes and when a part begins (a restart after a break starts
    with a full move clock), and it does not run in breaks: time spent in a break is never charged to anyone.
    """
    if before.to_move != after.to_move or before.move_number != after.move_number:
        return 0
    if before.part.kind == "break" or (before.part.kind, before.part.number) != (after.part.kind, after.part.number):
        return 0
    return turn_used + elapsed_ms


def move_ms_left(settings: Settings, position: Position, turn_used: int, used: int = 0) -> int:
    """The move clock left to the team to move (A35): 0 without a move clock and in breaks, where it does not run.

    ``turn_used`` is what the team used before the last entry, ``used`` the clock time since it. The one place
    the move-clock rule is written: the room's clocks, its timer and the broadcast of a move all ask here.
    """
    if settings.move_clock_ms <= 0 or position.part.kind == "break":
        return 0
    return max(0, settings.move_clock_ms - turn_used - used)


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

"""A match's log: the typed entries a match is a fold of, the checkpoints that shorten its replay, the move clock.

Why in the core: the server's rooms, crash recovery, ``sprtec export`` and the scenario runner must compute
*exactly* the same match from the same log, so the entry, its meaning (``events``: its clock time, then its
input) and the fold over entries live here, pure, next to ``shared.match.apply_event`` which they call. An entry
is clock time first - the running period clock, breaks, part ends - then one input: a coach's action, a clock
event the server decided (a move-clock or choice timeout, a forfeit after the disconnect grace, a resignation),
or nothing. JSON appears only where the store writes rows.

The move clock (A35, product decision 4) is a house rule the core owns too: ``next_turn_used`` and
``move_ms_left`` are the one place it is written.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from shared import match
from shared.events import MoveRecord
from shared.model import Action, Elapse, Forfeit, Position, Team, Timeout
from shared.outcome import Decision, RuleError
from shared.referee import setup
from shared.rulesets import Settings, make_settings

Input = Action | Timeout | Forfeit  # what an entry records after its clock time (None: only clock time passed)


@dataclass(frozen=True, slots=True, kw_only=True)
class LogEntry:
    """One entry of a match's log, in order: ``elapsed_ms`` of clock time since the last entry, then ``input``.

    ``input`` is a coach's action (or ``Timeout(team, kind)`` when the server applied a choice's default for
    him), ``Timeout(team)`` when his move clock ran out, ``Forfeit(team, reason)`` when he stayed away past the
    grace or resigned, or None when only time passed (a part or break ended with nobody acting).
    """

    index: int
    elapsed_ms: int
    input: Input | None = None

    @property
    def team(self) -> Team | None:
        """The team the entry's input is for (None for clock time alone)."""
        return None if self.input is None else self.input.team

    def events(self) -> tuple[Action | Elapse | Timeout | Forfeit, ...]:
        """What the entry stands for, in order: ``Elapse`` when time passed, then its input."""
        passed: tuple[Elapse, ...] = (Elapse(self.elapsed_ms),) if self.elapsed_ms > 0 else ()
        return passed if self.input is None else (*passed, self.input)


@dataclass(frozen=True, slots=True, kw_only=True)
class Checkpoint:
    """A match's position after its first ``after`` entries and the move clock the team to move had used then.

    Why: recovery would otherwise replay every unfinished match from its first entry (a few ms of physics per
    entry); it starts from the latest checkpoint instead. The log stays complete: export and audits replay it all.
    """

    after: int
    position: Position
    turn_used: int


@dataclass(frozen=True, slots=True, kw_only=True)
class EntryOutcome:
    """What one entry did: the position after it, the clock's decisions then the input's.

    ``accepted`` is False when the input (an action) was refused, ``error`` says why. The clock part of an entry
    always happens, so a refused entry may still have changed the position (a part ended).
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


def new_match(ruleset: str, overrides: dict[str, object], seed: int) -> Position:
    """The position a match starts from: the ruleset, overrides and seed, through the referee's setup (IV, V)."""
    settings = make_settings(ruleset, overrides)
    changed = settings.to_overrides(make_settings(ruleset))
    base = Position(ruleset=ruleset, settings=tuple(sorted(changed.items())), seed=seed)
    started, _ = setup.start_match(base, settings)
    return started


def apply_entry(position: Position, entry: LogEntry) -> EntryOutcome:
    """Apply one entry to ``position`` - the pure function a match is a fold of.

    The entry's events go through ``shared.match.apply_event`` in order - the very fold ``sprtec export |
    sprtec scenario`` runs, so the server, recovery and the export cannot disagree. When the input is refused,
    the outcome keeps the position and decisions of the clock part, with ``accepted`` False and the input's error.
    """
    decisions: list[Decision] = []
    record: MoveRecord | None = None
    for event in entry.events():
        result = match.apply_event(position, event)
        if not result.accepted:
            return EntryOutcome(position=position, decisions=tuple(decisions), accepted=False, error=result.error)
        position = result.position
        decisions.extend(result.decisions)
        record = result.record if result.record is not None else record
    return EntryOutcome(position=position, decisions=tuple(decisions), record=record)


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

    ``turn_used`` is what the team used before the last entry, ``used`` the clock time since it. The room's clocks,
    its timer and the broadcast of a move all ask here.
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

"""An exported match (a SCENARIOS.md scenario) turned into a list of moves the client can step through (pure).

Why: a replay is the match log — the first position plus the actions — so the client re-runs each action
through ``shared.match.apply_event`` (deterministic, docs/ARCHITECTURE.md "A move is a pure
function") to get every
move's trajectory, decisions and position. Refused actions are kept as notes, as ``sprtec scenario`` reports
them, and do not count as moves. An exported match also carries clock events (docs/SCENARIOS-EXTENSIONS.md):
one that produces rulings (a part ending, a timeout, a forfeit) is a step of its own; plain running time
only advances the clock shown with the next step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from client.match.state import MatchState
from shared.match import apply_event
from shared.model import Action, ClockEvent, Elapse, Position
from shared.outcome import Decision
from shared.protocol.trajectory import Trajectory


@dataclass(frozen=True, slots=True)
class ReplayMove:
    """One accepted action: what was done, by whom, what the referee said, and the positions around it."""

    action: Action | ClockEvent
    before: Position
    after: Position
    decisions: tuple[Decision, ...]
    trajectory: Trajectory | None


@dataclass(frozen=True, slots=True)
class Replay:
    """A whole match: the starting position, the moves, and the refused actions (index, message)."""

    start: Position
    moves: tuple[ReplayMove, ...]
    refused: tuple[tuple[int, str], ...]
    names: dict[str, str] = field(default_factory=dict)  # the coaches' names, when the file came with them

    def position_at(self, index: int) -> Position:
        """The position after ``index`` moves (0 is the start), clamped to the match."""
        index = max(0, min(index, len(self.moves)))
        return self.start if index == 0 else self.moves[index - 1].after


def build(start: Position, actions: tuple[Action | ClockEvent, ...]) -> Replay:
    """Run every action and clock event from ``start`` through the engine, keeping the accepted steps as moves."""
    position = start
    moves: list[ReplayMove] = []
    refused: list[tuple[int, str]] = []
    for index, action in enumerate(actions):
        result = apply_event(position, action)
        if not result.accepted:
            message = result.error.message if result.error is not None else "refused"
            refused.append((index, message))
            continue
        if isinstance(action, Elapse) and result.record is None and not result.decisions:
            # time passing quietly: no step of its own (a coach's choice without a flick - the goalie put back,
            # a count - is a move of the record all the same)
            position = result.position
            continue
        trajectory = Trajectory.from_record(result.record) if result.record is not None else None
        moves.append(ReplayMove(action, position, result.position, result.decisions, trajectory))
        position = result.position
    return Replay(start, tuple(moves), tuple(refused))


def load(path: Path) -> Replay:
    """Read a scenario file (or a bare position) and build its replay, with the coaches' names when known
    (``client.match.replay_library``)."""
    from dataclasses import replace

    from client.match.replay_library import read

    scenario, names = read(path)
    return replace(build(scenario.position, tuple(scenario.actions)), names=names)


class ReplayCursor:
    """Steps a client's match state through a replay: forward with playback, back and scrubbing at once."""

    def __init__(self, replay: Replay) -> None:
        """Start before the first move."""
        self.replay = replay
        self.index = 0

    @property
    def total(self) -> int:
        """How many moves the replay has."""
        return len(self.replay.moves)

    def forward(self, state: MatchState, now: float) -> bool:
        """Play the next move (its trajectory, then its decisions); False at the end."""
        if self.index >= self.total:
            return False
        if state.busy:  # finish the move on screen first
            self.jump(state, self.index, now)
        move = self.replay.moves[self.index]
        self.index += 1
        state.add_move(move.trajectory, move.decisions, move.after, self.index, now, team=move.before.to_move,
                       action=move.action)
        return True

    def jump(self, state: MatchState, index: int, now: float) -> None:
        """Show the position after ``index`` moves at once: the move list up to it, that move's decisions in the log
        and banner."""
        self.index = max(0, min(index, self.total))
        state.load(self.replay.position_at(self.index), self.index)
        state.angles.clear()
        state.moves.clear()
        for move in self.replay.moves[: self.index]:  # the match record up to here, every ruling in it
            state.record_move(move.before.to_move, move.action, move.decisions)
        if self.index > 0:
            move = self.replay.moves[self.index - 1]
            state.announce(move.decisions, move.after.move_number, now)

"""What applying one action returns: the referee's decisions, the new position, or a clear refusal.

Why a module of its own: the engine (``shared.match``), the scenario command, the server and the
client all exchange these values, so they are defined once, independent of how the engine works.
Decision codes and error codes are those of SCENARIOS.md (an external contract); ``to_json`` gives
exactly the objects that document shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from shared.events import MoveRecord
from shared.model import Position

ErrorCode = Literal[
    "NOT_YOUR_TURN",
    "NOT_YOUR_STONE",
    "STONE_NOT_ON_BOARD",
    "STONE_NOT_SELECTABLE",
    "SPEED_OUT_OF_RANGE",
    "ACTION_NOT_ALLOWED",
    "INVALID_SETUP",
    "MATCH_OVER",
]


@dataclass(frozen=True, slots=True)
class RuleError:
    """Why an action was refused: a SCENARIOS.md error code and a message a person understands."""

    code: ErrorCode
    message: str

    def to_json(self) -> dict[str, str]:
        """The ``error`` object of a scenario result."""
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class Decision:
    """One ruling: a SCENARIOS.md decision code and its fields, in the order the document lists them.

    Build with ``Decision.of("FOUL", team="home", kind="direct", stone="h2", victim="a2")``.
    """

    code: str
    fields: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, code: str, **fields: Any) -> Decision:
        """A decision with keyword fields, kept in the order given."""
        return cls(code, tuple(fields.items()))

    def get(self, name: str, default: Any = None) -> Any:
        """The value of one field."""
        for key, value in self.fields:
            if key == name:
                return value
        return default

    def to_json(self) -> dict[str, Any]:
        """``{"code": …, **fields}`` as in SCENARIOS.md."""
        return {"code": self.code, **dict(self.fields)}


@dataclass(frozen=True, slots=True)
class ActionResult:
    """The outcome of one action: accepted with decisions and the next position, or refused with an error.

    A refused action changes nothing: ``position`` is then the position it was tried on. ``record``
    is the physics of a flick (keyframes for playback), None for actions without physics.
    """

    accepted: bool
    position: Position
    decisions: tuple[Decision, ...] = ()
    error: RuleError | None = None
    record: MoveRecord | None = None

    @property
    def duration_ms(self) -> int:
        """Simulated duration of the move (0 for actions without physics)."""
        return self.record.duration_ms if self.record is not None else 0

    @classmethod
    def refused(cls, position: Position, code: ErrorCode, message: str) -> ActionResult:
        """A refusal that leaves ``position`` unchanged."""
        return cls(False, position, (), RuleError(code, message), None)

"""What the physics of one move reports to the referee (RULES.md §4): facts with integer step numbers.

Why a module of its own: the referee must never see pymunk (docs/ARCHITECTURE.md "Events, not callbacks"). The
physics records raw facts here; the referee derives every ruling from them plus the positions at
move start and at rest. Rule tests can then be written from hand-made event lists.

Bodies are named by strings:

* stones by their id (``h1``..``a7``) and the puck as ``"puck"``;
* boards as ``board:side:<y-sign>``, ``board:end:<end>``, ``board:corner:<end>:<y-sign>``;
* goal parts as ``frame:<end>`` and ``net:<end>``;

where ``<end>`` is ``-1`` (goal at x < 0) or ``1`` and ``<y-sign>`` is ``-1`` or ``1``. A contact
names its two bodies in sorted order (``a < b``).

Regions (for ``RegionChange``) are the ones the referee reads *during* a move, exact to the step:
``aux:<end>`` for the puck (the auxiliary goal line: touching it is a goal, XIV.1), ``crease:<end>``
for field stones (XV.2: a stone that left the crease is no longer penalty-eligible), ``goal_line:<end>``
and ``goal_line_outside:<end>`` (beside the goal) for the puck and field stones (XV.13d, A29), and
``half:<end>`` for every body. All are closed ("touching counts", D8). Everything else (thirds, the
centre line and circle, a goalie's crease) is judged from the positions at move start and at rest with
the ``shared.geometry`` predicates, so the physics does not watch it.

Two events in the same step are simultaneous (D6); the order inside a step is informative only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from shared.model import PUCK_ID

NEUTRAL_KINDS = frozenset({"puck", "board", "frame", "net"})
BodyKind = Literal["stone", "puck", "board", "frame", "net"]
_STATIC_KINDS: dict[str, BodyKind] = {"board": "board", "frame": "frame", "net": "net"}  # by a name's head


def body_kind(body: str) -> BodyKind:
    """What kind of body a body name denotes."""
    if body == PUCK_ID:
        return "puck"
    return _STATIC_KINDS.get(body.split(":", 1)[0], "stone")


def is_neutral(body: str) -> bool:
    """D2 (VIII.2): boards, the puck, goal frames and nets are neutral objects; stones never are."""
    return body_kind(body) in NEUTRAL_KINDS


def body_end(body: str) -> int | None:
    """The end (-1 or +1) a board segment, frame or net belongs to; None for side boards and bodies."""
    parts = body.split(":")
    if parts[0] in ("frame", "net"):
        return int(parts[1])
    if parts[0] == "board" and parts[1] in ("end", "corner"):
        return int(parts[2])
    return None


@dataclass(frozen=True, slots=True)
class Contact:
    """D5: a collision between ``a`` and ``b`` at ``step``.

    Either a contact that began at this step (``pre_existing`` False), or a contact that already
    existed when the move started and transmitted a normal impulse above the threshold at this step
    (``pre_existing`` True, VIII.5). ``impulse`` is the normal impulse of that step (g·mm/s) and
    ``speed`` the relative normal speed at the start of contact (mm/s).
    """

    step: int
    a: str
    b: str
    pre_existing: bool
    impulse: float
    speed: float
    kind: Literal["contact"] = "contact"

    def other(self, body: str) -> str:
        """The other body of this contact."""
        return self.b if body == self.a else self.a

    def involves(self, body: str) -> bool:
        """True when ``body`` is one of the two."""
        return body in (self.a, self.b)


@dataclass(frozen=True, slots=True)
class Separation:
    """A contact between ``a`` and ``b`` ended at ``step``."""

    step: int
    a: str
    b: str
    kind: Literal["separation"] = "separation"


@dataclass(frozen=True, slots=True)
class RegionChange:
    """``body`` started (``inside`` True) or stopped touching ``region`` at ``step`` (§4.3)."""

    step: int
    body: str
    region: str
    inside: bool
    kind: Literal["region"] = "region"


@dataclass(frozen=True, slots=True)
class LeftBoard:
    """VI.5 (2.5-D): ``body`` flew over the board at (x, y), the board point where it left; it takes no
    further part in the move and is put back there at rest. Counts as a board contact."""

    step: int
    body: str
    x: float
    y: float
    board: str
    kind: Literal["left_board"] = "left_board"


@dataclass(frozen=True, slots=True)
class LandedOnGoal:
    """VI.3 (2.5-D): the puck landed on top of goal ``end`` at (x, y); it is put behind the goal at rest."""

    step: int
    body: str
    end: int
    x: float
    y: float
    kind: Literal["on_goal"] = "on_goal"


@dataclass(frozen=True, slots=True)
class Flipped:
    """VI.4 (2.5-D): ``stone`` was turned upside down by a hard impact; the referee turns it at rest."""

    step: int
    stone: str
    kind: Literal["flipped"] = "flipped"


@dataclass(frozen=True, slots=True)
class AtRest:
    """D4: every body at rest at ``step`` (or the safety cap was reached, ``capped`` True)."""

    step: int
    capped: bool = False
    kind: Literal["at_rest"] = "at_rest"


Event = Contact | Separation | RegionChange | LeftBoard | LandedOnGoal | Flipped | AtRest


@dataclass(frozen=True, slots=True)
class Intervention:
    """A body the referee moved at rest: ``RESPOT`` (VI.3, VI.5) or ``FLIP`` (VI.4) of the 2.5-D model, and - added
    to a move's trajectory by ``shared.protocol.trajectory.with_relocations`` - ``REMOVE`` (an excluded stone
    leaves the board, X.1) and ``PLACE`` (a stone or the puck put at ``x``, ``y``: a returned stone, X.3; a
    restart's basic setup, V; the referee's settling of bodies that came to rest overlapping or off their place).

    ``code`` and ``reason`` are strings, not literals: this build makes only the codes above and the reasons
    ``LEFT_BOARD``, ``ON_GOAL``, ``FLIPPED``, ``EXCLUDED``, ``RETURNED``, ``SETUP``, ``SETTLED``, but a client
    reading a newer server leniently keeps the ones it does not know (docs/PROTOCOL.md "Versions")."""

    code: str
    body: str
    x: float
    y: float
    reason: str


@dataclass(frozen=True, slots=True)
class BodyState:
    """A body's quantised position at rest (0.01 mm)."""

    id: str
    x: float
    y: float


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveRecord:
    """The result of simulating one flick: events, keyframes for playback and the final position.

    ``keyframes[k]`` is the board ``k * frame_steps`` steps after the start (60 per second), as one
    flat tuple of ``(x, y, angle, state)`` per body in the order of ``bodies``: x and y in 0.01 mm,
    the angle in milliradians, and ``state`` 0 on the board, 1 upside down, 2 off the board (flew
    over it), 3 on top of a goal. The last keyframe is the position at rest before the referee's
    interventions; ``final`` is the position after them.
    """

    bodies: tuple[str, ...]
    events: tuple[Event, ...]
    steps: int
    step_hz: int
    frame_steps: int
    keyframes: tuple[tuple[int, ...], ...]
    final: tuple[BodyState, ...]
    interventions: tuple[Intervention, ...]

    @property
    def duration_ms(self) -> int:
        """Simulated duration of the move in whole milliseconds (rounded)."""
        return (self.steps * 1000 + self.step_hz // 2) // self.step_hz

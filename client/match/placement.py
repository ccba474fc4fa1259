"""Placing stones by hand before a restart's first move (IV.1, D13) or for a penalty shot (XV.11), judged by the
engine itself (pure: no arcade).

Why the engine judges: a placement is legal exactly when ``shared.match.apply_action`` accepts the
``Setup`` — the same call the server makes — so the client never disagrees with the referee, whichever
setup it is (defenders at a restart, or the goalie/shooter of a penalty shot once the engine asks for
one through a ``setup`` prompt). The face-off spots must be hit exactly (IV.1), so a drop near one snaps
onto it; the legal zones the view shades come from ``shared.geometry``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from client.common.i18n import _
from shared import formation
from shared.match import apply_action, prompts, settings_of
from shared.model import Placement as Spot
from shared.model import Position, Setup, Stone, Team

SNAP_MM = 14.0  # a stone dropped this close to a face-off spot lands on it


def setup_prompt_stones(position: Position, team: Team) -> tuple[str, ...] | None:
    """The stones a ``setup`` prompt of the engine lets ``team`` place (None when there is no such prompt)."""
    for prompt in prompts(position):
        if prompt.kind == "setup" and prompt.team == team:
            return tuple(prompt.options)
    return None


def movable(position: Position, team: Team) -> tuple[str, ...]:
    """The stones the coach may drag: the prompt's stones, else every own field stone (IV.1)."""
    named = setup_prompt_stones(position, team)
    if named is not None:
        return named
    return tuple(s.id for s in position.stones if s.team == team and s.role != "goalie")


def snap(position: Position, team: Team, x: float, y: float) -> tuple[float, float]:
    """(x, y), or the face-off spot of ``team`` it lies near (IV.1 wants the spot exactly)."""
    end = position.own_end(team)
    for slot in ("centre_forward", "wing_1", "wing_2"):
        sx, sy = formation.slot_spot(slot, end)
        if math.hypot(x - sx, y - sy) <= SNAP_MM:
            return sx, sy
    return round(x, 2) + 0.0, round(y, 2) + 0.0


@dataclass
class Arrangement:
    """The coach's arrangement in progress: the position it started from and the stones moved so far."""

    start: Position
    team: Team
    moved: dict[str, tuple[float, float]] = field(default_factory=dict)
    dragging: str | None = None

    @property
    def stones(self) -> tuple[str, ...]:
        """The stones that may be dragged."""
        return movable(self.start, self.team)

    def preview(self) -> Position:
        """The start position with the moved stones where the coach put them (what the board shows)."""
        stones = tuple(s.at(*self.moved[s.id]) if s.id in self.moved else s for s in self.start.stones)
        return replace(self.start, stones=stones)

    def pick(self, x: float, y: float) -> str | None:
        """Start dragging the movable stone at (x, y) mm, if any."""
        radius = settings_of(self.start).stone_radius
        preview = self.preview()
        for stone_id in self.stones:
            stone: Stone | None = preview.stone(stone_id)
            if stone is not None and math.hypot(stone.x - x, stone.y - y) <= radius:
                self.dragging = stone_id
                return stone_id
        return None

    def drag(self, x: float, y: float) -> None:
        """Move the dragged stone to (x, y) mm (no snapping while the mouse is down)."""
        if self.dragging is not None:
            self.moved[self.dragging] = (x, y)

    def drop(self, x: float, y: float) -> None:
        """Let go of the dragged stone, snapping it onto a face-off spot nearby."""
        if self.dragging is not None:
            self.moved[self.dragging] = snap(self.start, self.team, x, y)
            self.dragging = None

    def action(self) -> Setup:
        """The setup action that places every moved stone."""
        return Setup(self.team, tuple(Spot(stone_id, x, y) for stone_id, (x, y) in sorted(self.moved.items())))

    def problem(self) -> str | None:
        """Why the engine would refuse this arrangement, in its words; None when it accepts it."""
        if not self.moved:
            return _("Drag a stone to a new place first")
        result = apply_action(self.start, self.action())
        return None if result.accepted else (result.error.message if result.error else "not accepted")

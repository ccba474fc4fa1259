"""Builders for referee unit tests: positions from a few stones, and move records from hand-made events.

Why: the adjudication is a pure function of (position, flick, record); tests state exactly the facts
they judge (which contact, at which step) instead of depending on a simulation.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from shared.events import AtRest, BodyState, Contact, Event, Intervention, MoveRecord, RegionChange
from shared.model import Flick, Position, Privilege, Puck, Role, Stone, Team, team_of_id
from shared.outcome import ActionResult, Decision, RuleError
from shared.rulesets import make_settings

SETTINGS = make_settings("standard", {"effects_2_5d": False})


def stone(stone_id: str, x: float, y: float, role: Role = "field") -> Stone:
    """A stone of the team its id names (``h…`` home, ``a…`` away)."""
    return Stone(stone_id, team_of_id(stone_id), role, x, y)


def goalies() -> tuple[Stone, Stone]:
    """Both goalies on their basic spots (home defends x < 0)."""
    return stone("h1", -498.0, 0.0, "goalie"), stone("a1", 498.0, 0.0, "goalie")


def position(
    *stones: Stone,
    puck: tuple[float, float] = (0.0, 0.0),
    to_move: Team = "home",
    privilege: Privilege | None = None,
    restart: bool = False,
    **fields: Any,
) -> Position:
    """A position with both goalies, the given stones and the puck; home defends x < 0."""
    base = Position(
        settings=(("effects_2_5d", False),),
        stones=(*goalies(), *stones),
        puck=Puck(*puck),
        to_move=to_move,
        privilege=privilege,
        restart=restart,
    )
    return replace(base, **fields) if fields else base


def contact(step: int, a: str, b: str, pre_existing: bool = False) -> Contact:
    """A D5 collision between ``a`` and ``b`` at ``step`` (names sorted as the physics reports them)."""
    first, second = sorted((a, b))
    return Contact(step=step, a=first, b=second, pre_existing=pre_existing, impulse=10.0, speed=500.0)


def region(step: int, body: str, name: str, inside: bool = True) -> RegionChange:
    """``body`` starts (or stops) touching region ``name`` at ``step``."""
    return RegionChange(step, body, name, inside)


def record(
    start: Position,
    *events: Event,
    moved: dict[str, tuple[float, float]] | None = None,
    interventions: tuple[Intervention, ...] = (),
) -> MoveRecord:
    """A move record whose bodies end where ``moved`` says (else where they started)."""
    moved = moved or {}
    final = [BodyState(s.id, *moved.get(s.id, (s.x, s.y))) for s in start.stones]
    final.append(BodyState("puck", *moved.get("puck", (start.puck.x, start.puck.y))))
    last = max((e.step for e in events), default=0) + 30
    return MoveRecord(
        bodies=tuple(b.id for b in final),
        events=(*events, AtRest(last)),
        steps=last,
        step_hz=480,
        frame_steps=8,
        keyframes=(),
        final=tuple(final),
        interventions=interventions,
    )


def flick(stone_id: str, vx: float = 1000.0, vy: float = 0.0) -> Flick:
    """A flick of ``stone_id`` by its team."""
    return Flick(team_of_id(stone_id), stone_id, vx, vy)


def codes(decisions: tuple[Decision, ...]) -> list[str]:
    """The decision codes, in order."""
    return [d.code for d in decisions]


def on_board(position: Position, stone_id: str) -> Stone:
    """``stone_id``'s stone in ``position``; the test fails here when it is not on the board."""
    found = position.stone(stone_id)
    assert found is not None, f"{stone_id} is not on the board"
    return found


def refusal(result: ActionResult) -> RuleError:
    """Why ``result`` was refused; the test fails here when the action was accepted."""
    assert result.error is not None, "the action was accepted"
    return result.error

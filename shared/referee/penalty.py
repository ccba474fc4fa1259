"""XV.1-XV.3, XV.6, XII.11, IX.5: does a move earn a penalty shot? (The trigger only, not the shot.)

Why a module of its own: the trigger is step 3 of the adjudication order (Appendix A) and needs the
position at move start, the privilege snapshot and the crease exits of the move; executing the shot
(XV.11-XV.14) is a sub-state of its own, built on ``Position.penalty_shot`` (``shared.referee.penalty_shot``).
"""

from __future__ import annotations

from dataclasses import dataclass

from shared import geometry
from shared.events import Contact, Event, RegionChange
from shared.model import PUCK_ID, Position, Team, other


@dataclass(frozen=True, slots=True)
class PenaltyTrigger:
    """XV.1: the puck hit ``stone`` (an opponent field stone in a penalty position) at ``step``."""

    stone: str
    step: int


def penalty_positions(position: Position, team: Team, stone_radius: float) -> tuple[str, ...]:
    """D8 PenaltyPosition: ``team``'s field stones (never the goalie) touching its own crease, in id order."""
    end = position.own_end(team)
    return tuple(
        sorted(
            s.id
            for s in position.team_stones(team)
            if s.role == "field" and geometry.in_crease(s.x, s.y, stone_radius, end)
        )
    )


def eligible_stones(start: Position, mover: Team, stone_radius: float) -> tuple[str, ...]:
    """XV.1, IX.5, XV.7: the opponent stones that can earn a penalty shot in this move.

    Those in a penalty position at move start; while the mover plays a privilege, only those that were
    also in the snapshot taken when the privilege began (a stone pushed in during it does not count).
    """
    now = penalty_positions(start, other(mover), stone_radius)
    privilege = start.privilege
    if privilege is not None and privilege.team == mover and start.to_move == mover:
        return tuple(s for s in now if s in privilege.snapshot)
    return now


def penalty_trigger(
    start: Position, mover: Team, goalie_move: bool, events: tuple[Event, ...], stone_radius: float, puck_radius: float
) -> PenaltyTrigger | None:
    """XV.1-XV.3, XII.11: the first puck contact with an eligible stone still in its crease, or None.

    The legality condition (XV.6, A36) is applied by the adjudication, which knows the infringements.
    """
    if goalie_move:  # XII.11, XV.1 (i): a goalie move never earns a penalty shot
        return None
    if geometry.puck_start_excluded(start.puck.x, start.puck.y, puck_radius):  # XV.3, XV.4
        return None
    eligible = set(eligible_stones(start, mover, stone_radius))
    if not eligible:
        return None
    crease = f"crease:{start.own_end(other(mover))}"
    left: set[str] = set()
    for event in sorted(events, key=lambda e: e.step):
        if isinstance(event, RegionChange) and event.region == crease and not event.inside:
            left.add(event.body)  # XV.2: once out of the crease, no longer eligible in this move
        if isinstance(event, Contact) and event.involves(PUCK_ID):
            stone = event.other(PUCK_ID)
            if stone in eligible and stone not in left:
                return PenaltyTrigger(stone, event.step)
    return None

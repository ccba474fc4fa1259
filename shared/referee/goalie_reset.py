"""XII.2-XII.5: the goalie hand reset - putting the own goalie back on its basic spot, as a move.

Why a module of its own: the reset is the one move without physics (D3); whether it is available is a
list of conditions the client greys the button out with, so the refusal names the condition that fails.
XII.3-XII.4 (a wrongly placed goalie) cannot happen online: the server places it exactly. XII.5 (no reset
while the puck touches the crease) is enforced here, so its penalty shot (XV.9) never arises.

Engine calls: ``check_reset`` for a ``goalie_reset`` action on the team's turn, then ``reset``; the
engine then counts the move like a flick without physics (move number, turn, privilege, A24 activity
count with ``record`` None, the power-play candidates).
"""

from __future__ import annotations

from dataclasses import replace

from shared import geometry
from shared.model import Position, Team
from shared.outcome import RuleError
from shared.referee.goalie import own_goalie
from shared.rulesets import Settings

SPOT_TOLERANCE = 0.01  # mm: one quantum of the notation - a goalie that close is already on its spot


def _refuse(message: str) -> RuleError:
    """An ``ACTION_NOT_ALLOWED`` refusal."""
    return RuleError("ACTION_NOT_ALLOWED", message)


def check_reset(position: Position, team: Team, settings: Settings) -> RuleError | None:
    """XII.2, XII.5, A41: the reset is allowed iff the own goalie is on the board, touches its crease, is
    not already on its basic spot, the puck does not touch that crease, and no stone covers the spot."""
    goalie = own_goalie(position, team)
    if goalie is None:
        return _refuse(f"{team} has no goalie on the board (XII.2)")
    end = position.own_end(team)
    r = settings.stone_radius
    if not geometry.in_crease(goalie.x, goalie.y, r, end):
        return _refuse(f"the goalie {goalie.id} is outside its crease: it may only be flicked (XII.2)")
    sx, sy = geometry.goalie_spot(end)
    if abs(goalie.x - sx) <= SPOT_TOLERANCE and abs(goalie.y - sy) <= SPOT_TOLERANCE:
        return _refuse(f"the goalie {goalie.id} is already on its basic spot (XII.2)")
    if geometry.in_crease(position.puck.x, position.puck.y, settings.puck_radius, end):
        return _refuse(f"the puck touches {team}'s crease: the goalie may only be flicked (XII.5)")
    for stone in position.stones:
        if stone.id != goalie.id and geometry.discs_overlap(stone.x, stone.y, r, sx, sy, r, geometry.OVERLAP_TOLERANCE):
            return _refuse(f"{stone.id} covers the goalie's basic spot (XII.2, A41)")
    return None


def reset(position: Position, team: Team) -> Position:
    """XII.2: the goalie is put on its basic spot by hand (D3: it counts as a move; no physics, no events)."""
    goalie = own_goalie(position, team)
    assert goalie is not None
    x, y = geometry.goalie_spot(position.own_end(team))
    return replace(position, stones=tuple(s.at(x, y) if s.id == goalie.id else s for s in position.stones))

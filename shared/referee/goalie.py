"""XII (goalie play): the limits of a move made with the goalie.

Why a module of its own: XII.8-XII.11 are judged from the kind of move (the flicked stone's role) and
the puck's start; the adjudication asks these small predicates and applies the sanctions.
XII.1 (the basic position) is ``geometry.goalie_spot`` and is placed by the setup (IV.1); XII.6-XII.7
are foul exceptions in ``shared.referee.fouls``; XII.12-XII.13 are goal events in ``goals``. ``own_goalie``
is the one lookup of a team's goalie on the board, shared by the goalie reset, power play and penalty shots.
"""

from __future__ import annotations

from shared import geometry
from shared.events import Contact, Event
from shared.model import PUCK_ID, Position, Stone, Team


def own_goalie(position: Position, team: Team) -> Stone | None:
    """``team``'s goalie on the board: the stone with the goalie role (II.1), None in power play (XIII.1)."""
    for stone in position.team_stones(team):
        if stone.role == "goalie":
            return stone
    return None


def is_goalie_move(start: Position, flicked: str) -> bool:
    """XII.9, XII.11, D3: the move was made with a stone whose role is goalie (not the power-play 6th, XIII.1)."""
    stone = start.stone(flicked)
    return stone is not None and stone.role == "goalie"


def puck_played(events: tuple[Event, ...]) -> bool:
    """XII.8: the puck collided with anything during the move (the goalie played it, directly or not)."""
    return any(isinstance(e, Contact) and e.involves(PUCK_ID) for e in events)


def goalie_outside_third(
    start: Position, mover: Team, flicked: str, events: tuple[Event, ...], puck_radius: float
) -> bool:
    """XII.8 (A11): a goalie move played a puck that did not touch the mover's defensive third at move start."""
    if not is_goalie_move(start, flicked) or not puck_played(events):
        return False
    return not geometry.in_defensive_third(start.puck.x, start.puck.y, puck_radius, start.own_end(mover))

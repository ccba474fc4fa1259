"""XIV (goals), XII.12-XII.13 (the empty goal): the first goal event of a move and who it is against.

Why a module of its own: whether the puck went in is a pure fact of the events and the position at move
start (D9); whether the goal then counts depends on the whole move and is decided by the adjudication
(``shared.referee.adjudicate``). Keeping the event part here lets it be tested from hand-made events.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared import geometry
from shared.events import Contact, Event, RegionChange
from shared.model import PUCK_ID, Position, Team


@dataclass(frozen=True, slots=True)
class GoalEvent:
    """D9: the puck entered goal ``end`` at ``step``; ``against`` is the team defending that goal.

    ``via`` is ``"aux"`` for the auxiliary-line touch (XIV.1), or the stone whose touch made the goal
    (XII.12 non-defending, XIV.3 behind the auxiliary line).
    """

    end: int
    against: Team
    step: int
    via: str


def add_goal(score: tuple[int, int], team: Team) -> tuple[int, int]:
    """XIV, D10: the (home, away) score with one more goal for ``team`` - the one way every goal that counts
    (a move's, an own goal's, a penalty shot's, a technical goal) is added."""
    return (score[0] + 1, score[1]) if team == "home" else (score[0], score[1] + 1)


def defending(position: Position, end: int) -> Team:
    """The team whose goal is at ``end``."""
    return "home" if position.home_end == end else "away"


def empty_goal_stones(start: Position, stone_radius: float) -> dict[str, int]:
    """XII.12-XII.13, XIV.3 (A38-A40): stones whose touch by the puck is a goal, assessed at move start.

    A stone of the defending team that lies entirely behind its goal line in the goal-mouth corridor
    (NonDefending), or any stone lying wholly behind an auxiliary line (BehindAux). Maps stone -> end.
    """
    found: dict[str, int] = {}
    for stone in start.stones:
        for end in (-1, 1):
            behind_aux = geometry.behind_aux_line(stone.x, stone.y, stone_radius, end)  # XIV.3, A39
            non_defending = start.own_end(stone.team) == end and geometry.non_defending(
                stone.x, stone.y, stone_radius, end
            )  # XII.12, A38
            if behind_aux or non_defending:
                found[stone.id] = end
    return found


def first_goal_event(start: Position, events: tuple[Event, ...], stone_radius: float) -> GoalEvent | None:
    """XIV.5: the first goal event of the move; later ones do not count.

    XIV.1, D9: the puck starts touching an auxiliary line. XII.12, XIV.3: the puck collides with a stone
    that was non-defending or behind the auxiliary line at move start; XII.13, A40: a stone pushed there
    during this move makes no goal when the puck only touches it.
    """
    empty = empty_goal_stones(start, stone_radius)
    for event in sorted(events, key=lambda e: e.step):  # stable: ties keep the physics' order
        if (
            isinstance(event, RegionChange)
            and event.body == PUCK_ID
            and event.inside
            and event.region.startswith("aux:")
        ):
            end = int(event.region.split(":")[1])
            return GoalEvent(end, defending(start, end), event.step, "aux")  # XIV.1
        if isinstance(event, Contact) and event.involves(PUCK_ID):
            other = event.other(PUCK_ID)
            if other in empty:
                end = empty[other]
                return GoalEvent(end, defending(start, end), event.step, other)  # XII.12, XIV.3
    return None


def last_stone_touch_before(events: tuple[Event, ...], step: int) -> str | None:
    """The last stone the puck touched at or before ``step`` (IX.4: what the puck rebounded off)."""
    last: str | None = None
    for event in sorted(events, key=lambda e: e.step):
        if event.step > step:
            break
        if isinstance(event, Contact) and event.involves(PUCK_ID):
            other = event.other(PUCK_ID)
            if ":" not in other:
                last = other
    return last

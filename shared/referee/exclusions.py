"""X (exclusions and returns) and the goalie-foul exclusion choice of VIII.1a / XII.7 (A47).

Why a module of its own: taking a stone off, deferring a penalty when a team is down to its minimum
(X.2, A16), returning stones after a valid goal (X.3, A15, A17) and letting a coach swap the excluded
stone after a goalie foul all edit the same state - the stones on the board, the FIFO queues
``Position.excluded`` and ``Position.deferred`` - and must keep one invariant: a team never has fewer
than ``min_field_stones`` field stones on the board because of an exclusion.
"""

from __future__ import annotations

import math
from dataclasses import replace

from shared import geometry
from shared.effects import nearest_free_spot
from shared.model import ExclusionChoice, Position, Stone, Team, by_team, with_team
from shared.outcome import Decision
from shared.rulesets import Settings


def field_count(position: Position, team: Team) -> int:
    """X.2, A59: ``team``'s field stones on the board (the power-play 6th stone counts)."""
    return sum(1 for s in position.team_stones(team) if s.role == "field")


def lay_returning(position: Position, stone_id: str, team: Team, settings: Settings) -> Position:
    """X.2, §1.3 PROPOSAL (A5): lay ``stone_id`` in the own-half quarter of the half-circle, or the nearest
    free spot (``shared.effects.nearest_free_spot``)."""
    x, y = geometry.return_spot(position.own_end(team))
    bodies = [(s.x, s.y, settings.stone_radius) for s in position.stones if s.id != stone_id]
    bodies.append((position.puck.x, position.puck.y, settings.puck_radius))
    spot = nearest_free_spot(bodies, x, y, settings.stone_radius)
    stones = (*(s for s in position.stones if s.id != stone_id), Stone(stone_id, team, "field", *spot))
    return replace(position, stones=stones)


def default_exclusion(position: Position, team: Team, rule: str) -> str:
    """A47: the field stone excluded when the fouler is the goalie and the coach names nobody.

    ``farthest_from_puck`` (the default setting) or ``nearest_to_puck``; ties go to the lower id.
    """
    field = [s for s in position.team_stones(team) if s.role == "field"]
    if not field:
        raise ValueError(f"{team} has no field stone to exclude")

    def distance(stone: Stone) -> float:
        """The stone's distance from the puck."""
        return math.hypot(stone.x - position.puck.x, stone.y - position.puck.y)

    if rule == "farthest_from_puck":
        return min(field, key=lambda s: (-distance(s), s.id)).id
    if rule == "nearest_to_puck":
        return min(field, key=lambda s: (distance(s), s.id)).id
    raise ValueError(f"unknown goalie_exclusion_default {rule!r}; expected farthest_from_puck or nearest_to_puck")


def exclude(position: Position, team: Team, stone_id: str, settings: Settings) -> tuple[Position, list[Decision]]:
    """X.1, X.2, A16: take ``stone_id`` off the board into ``team``'s queue; defer it at the minimum.

    With more than ``min_field_stones`` field stones the stone simply leaves (``EXCLUSION`` deferred
    false). At the minimum the penalty is deferred (``deferred`` + 1): the stone still leaves and the
    first previously excluded stone returns to the half-circle (``RETURN``); with an empty queue the
    offender itself is laid back in the half-circle at once (A16).
    """
    queue = by_team(position.excluded, team)
    deferred = field_count(position, team) <= settings.min_field_stones  # X.2
    decisions = [Decision.of("EXCLUSION", team=team, stone=stone_id, deferred=deferred)]
    if not deferred:
        stones = tuple(s for s in position.stones if s.id != stone_id)
        queued = with_team(position.excluded, team, (*queue, stone_id))
        return replace(position, stones=stones, excluded=queued), decisions
    position = replace(position, deferred=with_team(position.deferred, team, by_team(position.deferred, team) + 1))
    if not queue:  # A16: nobody to bring back - the offender is re-placed in the half-circle
        return lay_returning(position, stone_id, team, settings), decisions
    first, rest = queue[0], queue[1:]
    position = replace(
        position,
        stones=tuple(s for s in position.stones if s.id != stone_id),
        excluded=with_team(position.excluded, team, (*rest, stone_id)),  # X.2: the offender to the back
    )
    decisions.append(Decision.of("RETURN", team=team, stone=first))
    return lay_returning(position, first, team, settings), decisions


def returns_after_goal(position: Position) -> tuple[Position, list[Decision]]:
    """X.3 (A15, A17): after a valid goal each team first works off one deferred penalty, else gets its
    first excluded stone back (automatically); the stone takes part in the following basic setup."""
    decisions: list[Decision] = []
    for team in ("home", "away"):
        if by_team(position.deferred, team) > 0:
            left = by_team(position.deferred, team) - 1
            position = replace(position, deferred=with_team(position.deferred, team, left))
            continue
        queue = by_team(position.excluded, team)
        if queue:
            position = replace(position, excluded=with_team(position.excluded, team, queue[1:]))
            decisions.append(Decision.of("RETURN", team=team, stone=queue[0]))
    return position, decisions


def choice_after(before: Position, after: Position, team: Team, stone_id: str, restarted: bool) -> ExclusionChoice:
    """VIII.1a, XII.7: the pending choice after the engine excluded ``stone_id`` by default.

    The options are the team's other field stones on the board after the ruling; ``spot`` remembers
    where the excluded stone lay (None after a restart, which rebuilt the board).
    """
    gone = before.stone(stone_id)
    spot = None if restarted or gone is None else (gone.x, gone.y)
    options = tuple(sorted(s.id for s in after.team_stones(team) if s.role == "field" and s.id != stone_id))
    return ExclusionChoice(team, stone_id, options, spot)


def swap_exclusion(position: Position, choice: ExclusionChoice, chosen: str, settings: Settings) -> Position:
    """VIII.1a, XII.7: the coach names ``chosen`` instead of the default-excluded stone.

    ``chosen`` takes the default stone's place in the queue (or in the half-circle, A16), and the default
    stone comes back where it lay (or where ``chosen`` stood, after a restart). Raises ValueError when
    the stone cannot come back there without overlapping.
    """
    team, default = choice.team, choice.stone
    chosen_stone = position.stone(chosen)
    if chosen_stone is None:
        raise ValueError(f"{chosen} is not on the board")
    queue = by_team(position.excluded, team)
    default_on_board = position.stone(default)
    if default_on_board is not None:  # A16: the default stone was re-placed in the half-circle
        home_spot = choice.spot or (chosen_stone.x, chosen_stone.y)
        stones = tuple(
            s.at(default_on_board.x, default_on_board.y)
            if s.id == chosen
            else s.at(*home_spot)
            if s.id == default
            else s
            for s in position.stones
        )
        moved = replace(position, stones=stones)
    else:
        if default not in queue:
            raise ValueError(f"{default} is no longer excluded")
        home_spot = choice.spot or (chosen_stone.x, chosen_stone.y)
        stones = (*(s for s in position.stones if s.id != chosen), Stone(default, team, "field", *home_spot))
        new_queue = tuple(chosen if s == default else s for s in queue)
        moved = replace(position, stones=stones, excluded=with_team(position.excluded, team, new_queue))
    back = moved.stone(default)
    assert back is not None
    for s in moved.stones:
        if s.id != default and geometry.discs_overlap(
            s.x, s.y, settings.stone_radius, back.x, back.y, settings.stone_radius, geometry.OVERLAP_TOLERANCE
        ):
            raise ValueError(f"{default} cannot come back at ({back.x}, {back.y}): {s.id} lies there")
    return replace(moved, exclusion_choice=None)

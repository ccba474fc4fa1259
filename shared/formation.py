"""The basic setup (RULES.md §1.3, IV.1-IV.4, XIII.3, XVI.2): where stones stand at a restart, and whether a
placement is legal.

Why a module of its own: the notation fills in a missing ``stones`` field with the basic setup, the referee
builds every restart from it (``shared.referee.setup``), and the referee judges a coach's ``setup`` action
with the same spots and predicates, so the three agree by construction. Everything here is a pure function
of the team's end (-1 or +1, as in ``shared.geometry``).

Slots and default stone ids (the number after ``h``/``a``):

==================  ====  ===========================================================================
slot                id    spot
==================  ====  ===========================================================================
``goalie``          1     XII.1: on the goal line, equidistant from the posts, (±498, 0)
``centre_forward``  2     G12: the face-off spot on the long axis, (±100, 0)
``wing_1``          3     G12: the wing spot at y < 0, (±50, -86.6)
``wing_2``          4     G12: the wing spot at y > 0, (±50, +86.6)
``defender_1``      5     PROPOSAL (IV.1 leaves it free): (±360, -110), in the defensive third, 76 mm
                          in front of the crease line
``defender_2``      6     PROPOSAL: (±360, +110)
``sixth``           7     XIII.3 power play: the reserve placed like the defenders, (±360, 0)
==================  ====  ===========================================================================

IV.4 (fewer field stones, e.g. overtime XVI.2 or exclusions carried into a restart): the default keeps the
slots in ``KEEP_ORDER`` and drops from its end, so ``defender_2`` goes first, then ``wing_2``, then
``defender_1``, then ``wing_1``; the centre forward is never dropped by default (IV.4 requires it only for
the starting team, but keeping it always is also legal). Three field stones (overtime) therefore stand on
the centre-forward spot, the ``wing_1`` spot and the ``defender_1`` spot.

Coordinates are quantised to 0.01 mm (as ``shared.notation`` writes them), so a basic setup survives a JSON
round trip exactly; validation accepts a spot within ``SPOT_TOLERANCE`` for the same reason.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shared import geometry
from shared.model import STONE_IDS, TEAMS, Role, Stone, Team

PUCK_SPOT: tuple[float, float] = (0.0, 0.0)  # IV.3: the puck on the centre point
FIELD_SLOTS: tuple[str, ...] = ("centre_forward", "wing_1", "wing_2", "defender_1", "defender_2", "sixth")
KEEP_ORDER: tuple[str, ...] = ("centre_forward", "wing_1", "defender_1", "wing_2", "defender_2", "sixth")
SLOT_NUMBER: dict[str, int] = {"goalie": 1, **{slot: i for i, slot in enumerate(FIELD_SLOTS, start=2)}}
DEFENDER_X = 360.0  # PROPOSAL: |x| of the default defenders (own third starts at 197.67, crease at 437.5)
DEFENDER_Y = 110.0  # PROPOSAL: |y| of the two default defenders
SPOT_TOLERANCE = 0.01  # mm: a stone "exactly" on a spot may be off by one quantum of the notation (IV.1)
MAX_DEFENDERS = 2  # A56: 3 forwards and 2 defenders; one more in power play (XIII.3)


def _q(value: float) -> float:
    """A coordinate quantised to 0.01 mm, as the notation writes it (``-0.0`` normalised to ``0.0``)."""
    return round(value, 2) + 0.0


# --------------------------------------------------------------------------- spots


def slot_spot(slot: str, end: int) -> tuple[float, float]:
    """The quantised spot of ``slot`` (see the module table) for the team defending ``end``."""
    if slot == "goalie":
        x, y = geometry.goalie_spot(end)
    elif slot in ("centre_forward", "wing_1", "wing_2"):
        x, y = geometry.faceoff_spots(end)[("centre_forward", "wing_1", "wing_2").index(slot)]
    elif slot == "defender_1":
        x, y = DEFENDER_X * end, -DEFENDER_Y
    elif slot == "defender_2":
        x, y = DEFENDER_X * end, DEFENDER_Y
    elif slot == "sixth":
        x, y = DEFENDER_X * end, 0.0
    else:
        raise ValueError(f"unknown slot {slot!r}")
    return (_q(x), _q(y))


def kept_slots(field_count: int) -> tuple[str, ...]:
    """IV.4: the field slots filled by ``field_count`` stones, in ``KEEP_ORDER`` (the centre forward first)."""
    if not 0 <= field_count <= len(KEEP_ORDER):
        raise ValueError(f"a team sets up 0 to {len(KEEP_ORDER)} field stones, not {field_count}")
    return KEEP_ORDER[:field_count]


def default_stone_id(team: Team, slot: str) -> str:
    """The conventional id of the stone on ``slot``: ``h1`` goalie, ``h2`` centre forward … ``h7`` sixth."""
    return STONE_IDS[team][SLOT_NUMBER[slot] - 1]


# --------------------------------------------------------------------------- setups


def team_setup(
    team: Team,
    end: int,
    field_count: int = 5,
    *,
    field_ids: Sequence[str] | None = None,
    goalie: bool = True,
) -> tuple[Stone, ...]:
    """IV.1-IV.4: ``team``'s stones in the basic setup at ``end``, goalie first, then field stones by slot.

    ``field_count`` field stones fill ``kept_slots(field_count)``; ``field_ids`` names the stones for those
    slots in ``KEEP_ORDER`` (default: the conventional ids, see ``default_stone_id``). ``goalie=False`` leaves
    the goalie off for a power-play start (XIII.3), where six field stones may stand.
    """
    slots = kept_slots(field_count)
    ids = list(field_ids) if field_ids is not None else [default_stone_id(team, slot) for slot in slots]
    if len(ids) != len(slots):
        raise ValueError(f"{len(ids)} field ids for {len(slots)} slots")
    stones: list[Stone] = []
    if goalie:
        stones.append(_stone(team, default_stone_id(team, "goalie"), "goalie", slot_spot("goalie", end)))
    for slot, stone_id in zip(slots, ids, strict=True):
        stones.append(_stone(team, stone_id, "field", slot_spot(slot, end)))
    return tuple(stones)


def basic_setup(home_end: int = -1, field_count: int = 5) -> tuple[Stone, ...]:
    """IV.1-IV.2: both teams in the basic setup with their conventional ids, home then away, by id."""
    stones = team_setup("home", home_end, field_count) + team_setup("away", -home_end, field_count)
    return tuple(sorted(stones, key=lambda s: (TEAMS.index(s.team), s.id)))


def _stone(team: Team, stone_id: str, role: Role, spot: tuple[float, float]) -> Stone:
    """A stone of ``team`` standing on ``spot``."""
    return Stone(stone_id, team, role, spot[0], spot[1])


# --------------------------------------------------------------------------- validation (IV.1, IV.4, IV.5)


def on_spot(x: float, y: float, spot: tuple[float, float], tol: float = SPOT_TOLERANCE) -> bool:
    """True when (x, y) lies on ``spot`` up to ``tol`` mm (IV.1 "exactly", one notation quantum allowed)."""
    return math.hypot(x - spot[0], y - spot[1]) <= tol


def goalie_placed(x: float, y: float, end: int) -> bool:
    """IV.1, XII.1: the goalie's centre is on the goal line at ``end``, equidistant from the posts."""
    return on_spot(x, y, slot_spot("goalie", end))


def forward_slot(x: float, y: float, end: int) -> str | None:
    """IV.1: the face-off slot (``centre_forward``, ``wing_1``, ``wing_2``) the centre (x, y) is on, or None."""
    for slot in ("centre_forward", "wing_1", "wing_2"):
        if on_spot(x, y, slot_spot(slot, end)):
            return slot
    return None


def defender_placed(x: float, y: float, r: float, end: int) -> bool:
    """IV.1 (A56): a defender touches its defensive third (the blue line counts), not the crease, and stays on
    the board."""
    return geometry.legal_defender_spot(x, y, r, end)


def setup_problems(
    stones: Sequence[Stone],
    team: Team,
    end: int,
    radius: float,
    *,
    starts: bool,
    puck: tuple[float, float] = PUCK_SPOT,
    puck_radius: float = geometry.PUCK_RADIUS,
    tol: float = geometry.OVERLAP_TOLERANCE,
) -> tuple[str, ...]:
    """Why ``team``'s stones among ``stones`` (every stone on the board) are not a legal basic setup at ``end``.

    An empty tuple means legal. Judged (IV.1, IV.4, XIII.3): a goalie-role stone stands on its spot; every
    field stone is on one of the team's face-off spots or on a legal defender spot; at most two defenders,
    three when the team has no goalie on the board (power play); the centre-forward spot is taken when the
    team ``starts`` (IV.4, V.7); no stone of the team overlaps another stone or the puck by more than ``tol``.
    Messages name the stone and are meant for a person (the referee wraps them into ``INVALID_SETUP``).
    """
    own = [s for s in stones if s.team == team]
    problems: list[str] = []
    defenders: list[str] = []
    centre_taken = False
    for stone in own:
        if stone.role == "goalie":
            if not goalie_placed(stone.x, stone.y, end):
                problems.append(f"{stone.id} (goalie) must stand on its spot {slot_spot('goalie', end)} (IV.1)")
            continue
        slot = forward_slot(stone.x, stone.y, end)
        if slot == "centre_forward":
            centre_taken = True
        elif slot is None:
            if defender_placed(stone.x, stone.y, radius, end):
                defenders.append(stone.id)
            else:
                problems.append(
                    f"{stone.id} at ({stone.x:g}, {stone.y:g}) is neither on a face-off spot nor a legal defender"
                    " spot (own defensive third, not touching the crease) (IV.1)"
                )
    allowed = MAX_DEFENDERS + (0 if any(s.role == "goalie" for s in own) else 1)
    if len(defenders) > allowed:
        problems.append(f"{team} has {len(defenders)} defenders ({', '.join(defenders)}); at most {allowed} (IV.1)")
    if starts and own and not centre_taken:
        problems.append(f"{team} starts, so a stone must stand on the centre-forward spot (IV.4, V.7)")
    problems.extend(_overlaps(own, stones, radius, puck, puck_radius, tol))
    return tuple(problems)


def _overlaps(
    own: Sequence[Stone],
    stones: Sequence[Stone],
    radius: float,
    puck: tuple[float, float],
    puck_radius: float,
    tol: float,
) -> list[str]:
    """IV.1: each overlap of one of ``own`` with another stone (reported once per pair) or with the puck."""
    found: list[str] = []
    own_ids = {s.id for s in own}
    for i, stone in enumerate(stones):
        for later in stones[i + 1 :]:
            if (stone.id in own_ids or later.id in own_ids) and geometry.discs_overlap(
                stone.x, stone.y, radius, later.x, later.y, radius, tol
            ):
                found.append(f"{stone.id} overlaps {later.id} (IV.1)")
    for stone in own:
        if geometry.discs_overlap(stone.x, stone.y, radius, puck[0], puck[1], puck_radius, tol):
            found.append(f"{stone.id} overlaps the puck (IV.1)")
    return found

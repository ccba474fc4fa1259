"""Invariants of simulate() over random legal positions and flicks (hypothesis), and the no-tunnelling bound."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared import effects
from shared import geometry as g
from shared.model import Flick, Position, Puck, Stone
from shared.physics import max_flick_speed, simulate, simulate_probed
from shared.rulesets import Settings

S = Settings()
IDS = ("h1", "h2", "h3", "h4", "h5", "h6", "a1", "a2", "a3", "a4", "a5", "a6")


@st.composite
def positions_and_flicks(draw) -> tuple[Position, Flick]:  # type: ignore[no-untyped-def]
    """Up to 12 stones and the puck on free, allowed spots, and a flick of one stone at up to full speed."""
    count = draw(st.integers(1, len(IDS)))
    placed: list[tuple[float, float, float]] = []
    spots = []
    for _ in range(count + 1):
        r = S.stone_radius if len(spots) < count else S.puck_radius
        x = draw(st.floats(-g.HALF_LENGTH + r, g.HALF_LENGTH - r))
        y = draw(st.floats(-g.HALF_WIDTH + r, g.HALF_WIDTH - r))
        x, y = effects.nearest_free_spot(placed, x, y, r, step=4.0)
        placed.append((x, y, r))
        spots.append((x, y))
    stones = tuple(Stone(IDS[i], "home" if IDS[i][0] == "h" else "away", "field", *spots[i]) for i in range(count))
    mover = stones[draw(st.integers(0, count - 1))]
    angle = draw(st.floats(-math.pi, math.pi))
    speed = draw(st.floats(S.flick_speed_min, S.flick_speed_max))
    flick = Flick(mover.team, mover.id, speed * math.cos(angle), speed * math.sin(angle))
    seed = draw(st.integers(0, 2**31))
    return Position(seed=seed, stones=stones, puck=Puck(*spots[-1])), flick


def _check_record(record, position: Position) -> None:
    """No NaN, a bounded move, and at rest: every body on the board, clear of the goals, none overlapping."""
    radius = {s.id: S.stone_radius for s in position.stones} | {"puck": S.puck_radius}
    assert record.steps <= S.move_cap_ms * S.step_hz // 1000
    assert all(not math.isnan(b.x) and not math.isnan(b.y) for b in record.final)
    for i, a in enumerate(record.final):
        assert g.disc_inside_board(a.x, a.y, radius[a.id], g.OVERLAP_TOLERANCE)
        assert effects.disc_allowed(a.x, a.y, radius[a.id])
        for b in record.final[i + 1:]:
            assert not g.discs_overlap(a.x, a.y, radius[a.id], b.x, b.y, radius[b.id], g.OVERLAP_TOLERANCE)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions_and_flicks())
def test_random_moves_end_clean(case: tuple[Position, Flick]) -> None:
    """Random legal positions and flicks terminate, give no NaN and leave every body legal at rest."""
    position, flick = case
    _check_record(simulate(position, flick, S), position)


def _targets() -> list[tuple[Position, Flick]]:
    """Hard shots, deterministic: the puck driven at boards, corners, goal frames, posts and resting discs."""
    shots = []
    v = max_flick_speed(S)
    aims = [(0.0, 298.0), (0.0, -298.0), (608.0, 120.0), (-608.0, -120.0), (560.0, 250.0), (-560.0, 250.0),
            (498.0, 44.0), (498.0, -44.0), (558.0, 0.0), (-530.0, 42.0), (520.0, 0.0), (300.0, 0.0)]
    for k, (tx, ty) in enumerate(aims):
        for j in range(17):
            px = tx * 0.55 + (j - 8) * 9.0
            py = ty * 0.55 - (j - 8) * 5.0
            angle = math.atan2(ty - py, tx - px)
            sx, sy = px - 26.0 * math.cos(angle), py - 26.0 * math.sin(angle)  # the stone just behind the puck
            stones = (Stone("h2", "home", "field", sx, sy), Stone("a2", "away", "field", 300.0, 0.0))
            position = Position(seed=k * 100 + j, stones=stones, puck=Puck(px, py))
            shots.append((position, Flick("home", "h2", v * math.cos(angle), v * math.sin(angle))))
    return shots


@pytest.mark.slow
def test_hard_shots_never_tunnel():
    """204 full-speed shots at boards, corners, frames, posts and a disc: no body ever moves more than
    max_step_travel in one step, and every body ends on the board, clear of the goals."""
    worst = 0.0
    for position, flick in _targets():
        record, travel = simulate_probed(position, flick, S)
        worst = max(worst, travel)
        _check_record(record, position)
    assert 0.0 < worst <= S.max_step_travel

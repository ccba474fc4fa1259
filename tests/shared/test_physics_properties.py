"""Invariants of simulate() over random legal positions and flicks (hypothesis), and the no-tunnelling bound."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared import effects, physics
from shared import geometry as g
from shared.events import RegionChange
from shared.model import PUCK_ID, Flick, Position, Puck, Stone
from shared.physics import max_flick_speed, simulate, simulate_probed
from shared.rulesets import Settings

S = Settings()
IDS = ("h1", "h2", "h3", "h4", "h5", "h6", "a1", "a2", "a3", "a4", "a5", "a6")


@st.composite
def positions_and_flicks(draw: st.DrawFn) -> tuple[Position, Flick]:
    """Up to 12 stones and the puck on free, allowed spots, and a flick of one stone at up to full speed."""
    count = draw(st.integers(1, len(IDS)))
    placed: list[tuple[float, float, float]] = []
    spots: list[tuple[float, float]] = []
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


class _Stepwise(physics._Move):
    """A probed move that also evaluates, after every step, the geometry predicate of every region the
    physics watches for each body, and keeps the transitions it sees: what the record must report."""

    def __init__(self, position: Position, flick: Flick) -> None:
        super().__init__(position, flick, S, probe=True)
        self.truth: dict[tuple[str, str], bool] = {}
        self.expected: list[tuple[int, str, str, bool]] = []
        for i, body in enumerate(self.built.bodies):
            x, y = self._start(i)
            for region in self._watched(i):
                self.truth[(body, region)] = physics._region_predicate(region)(x, y, self.built.radii[i])

    def _start(self, i: int) -> tuple[float, float]:
        """Where body ``i`` starts."""
        if i == len(self.position.stones):
            return self.position.puck.x, self.position.puck.y
        return self.position.stones[i].x, self.position.stones[i].y

    def _watched(self, i: int) -> list[str]:
        """The regions watched for body ``i`` (``physics.WATCH`` by its kind), both ends."""
        if i == len(self.position.stones):
            category = physics.CAT_PUCK
        else:
            category = physics.CAT_GOALIE if self.position.stones[i].role == "goalie" else physics.CAT_FIELD
        return [f"{head}:{end}" for head, mask in physics.WATCH.items() if mask & category for end in (-1, 1)]

    def _see(self, i: int, x: float, y: float) -> None:
        """Body ``i`` lies at (x, y) after this step: note each watched region whose predicate changed."""
        body = self.built.bodies[i]
        for region in self._watched(i):
            now = physics._region_predicate(region)(x, y, self.built.radii[i])
            if now != self.truth[(body, region)]:
                self.truth[(body, region)] = now
                self.expected.append((self.step, body, region, now))

    def _after_step(self) -> None:
        """Before the step's effects may take the puck off the board, where it touched things counts."""
        for i in range(len(self.built.bodies)):
            if i not in self.removed:
                self._see(i, *self.built.body_position(i))
        super()._after_step()

    def _measure_travel(self, before: bytes, after: bytes) -> None:
        """After every step: the predicates at the new positions of the bodies still on the board."""
        super()._measure_travel(before, after)
        data = memoryview(after).cast("d")
        for i in range(len(data) // 6):
            self._see(i, data[6 * i], data[6 * i + 1])


def _crease_and_frame_shots() -> list[tuple[Position, Flick]]:
    """Field stones driven across the crease, into the goal and at full speed into the side frames from
    outside (where the solver lets a stone sink into a tube for a step), with a goalie in the crease."""
    v = max_flick_speed(S)
    shots: list[tuple[Position, Flick]] = []
    for k in range(24):
        x0, y0 = 505.0 + (k % 12) * 3.5, (1 if k % 2 else -1) * (64.0 + (k // 12) * 6.0)
        angle = math.radians(-60 + (k * 37) % 120)
        flick = Flick("home", "h2", v * math.sin(angle) * 0.5, -math.copysign(v * math.cos(angle), y0))
        stones: tuple[Stone, ...] = (Stone("h2", "home", "field", x0, y0), Stone("a1", "away", "goalie", 470.0, 0.0))
        shots.append((Position(seed=k, stones=stones, puck=Puck(0.0, 0.0)), flick))
    for k in range(12):
        angle = math.radians(-50 + k * 9)
        stones = (Stone("h2", "home", "field", 400.0, -40.0 + k * 7), Stone("a3", "away", "field", 470.0, 52.0),
                  Stone("a1", "away", "goalie", 480.0, -20.0))
        flick = Flick("home", "h2", 0.6 * v * math.cos(angle), 0.6 * v * math.sin(angle))
        shots.append((Position(seed=k, stones=stones, puck=Puck(440.0, 10.0 - k * 3)), flick))
    return shots


@pytest.mark.slow
def test_I_3_lines_are_watched_as_regions():
    """I.3, G6-G13: every line watched during a move (aux for the puck, goal lines for the puck and field stones,
    creases for field stones, the centre line's halves for all) changes regions in the record at exactly the
    steps its geometry predicate changes; the others are judged from positions at rest."""
    checked = 0
    for position, flick in _targets()[::4] + _crease_and_frame_shots():
        move = _Stepwise(position, flick)
        record = move.run()
        got = [(e.step, e.body, e.region, e.inside) for e in record.events if isinstance(e, RegionChange)]
        assert sorted(got) == sorted(move.expected)
        checked += len(got)
    assert checked > 100


def test_goalies_and_unwatched_regions_make_no_region_events():
    """A goalie crossing its crease and goal line, and the puck crossing a crease, make no RegionChange: a
    goalie's crease status and the puck's are judged at rest from positions."""
    stones = (Stone("a1", "away", "goalie", 470.0, 0.0), Stone("h2", "home", "field", 300.0, -200.0))
    record = simulate(Position(seed=1, stones=stones, puck=Puck(420.0, 90.0)), Flick("away", "a1", -900.0, 0.0), S)
    goalie = [e for e in record.events if isinstance(e, RegionChange) and e.body == "a1"]
    assert g.in_crease(470.0, 0.0, S.stone_radius, 1) and not g.in_crease(record.final[0].x, 0.0, S.stone_radius, 1)
    assert goalie == []
    puck = Position(seed=1, stones=(Stone("h2", "home", "field", 380.0, 0.0),), puck=Puck(410.0, 0.0))
    record = simulate(puck, Flick("home", "h2", 1500.0, 0.0), S)
    regions = {e.region for e in record.events if isinstance(e, RegionChange) and e.body == PUCK_ID}
    assert "aux:1" in regions and not any(r.startswith("crease") for r in regions)

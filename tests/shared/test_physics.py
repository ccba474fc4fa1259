"""simulate(): events, keyframes, rest, the goal, pre-existing contacts and the 2.5-D effects on real moves."""

from __future__ import annotations

import math
from dataclasses import replace

from shared import effects
from shared import geometry as g
from shared.events import AtRest, Contact, Flipped, LandedOnGoal, LeftBoard, RegionChange
from shared.formation import basic_setup
from shared.model import Flick, Position, Puck, Stone
from shared.physics import max_flick_speed, simulate, walls
from shared.rulesets import Settings

S = Settings()
OFF = replace(S, effects_2_5d=False)


def _pos(stones: tuple[Stone, ...], puck: tuple[float, float], seed: int = 0) -> Position:
    """A position with just these stones and the puck."""
    return Position(seed=seed, stones=stones, puck=Puck(*puck))


def _stone(sid: str, x: float, y: float) -> Stone:
    """A field stone of the team its id names."""
    return Stone(sid, "home" if sid[0] == "h" else "away", "field", x, y)


def _assert_clean_final(record, position: Position, settings: Settings = S) -> None:
    """Every body at rest lies on the board, clear of the goals, overlapping nothing beyond tolerance."""
    radius = {s.id: settings.stone_radius for s in position.stones} | {"puck": settings.puck_radius}
    final = record.final
    for i, a in enumerate(final):
        assert g.disc_inside_board(a.x, a.y, radius[a.id], g.OVERLAP_TOLERANCE)
        assert effects.disc_allowed(a.x, a.y, radius[a.id])
        assert (a.x, a.y) == (round(a.x, 2), round(a.y, 2))
        for b in final[i + 1:]:
            assert not g.discs_overlap(a.x, a.y, radius[a.id], b.x, b.y, radius[b.id], g.OVERLAP_TOLERANCE)


def test_flick_from_the_basic_setup_records_contact_keyframes_and_rest():
    """The centre forward hits the puck: a new contact, 60 Hz keyframes of 4 ints per body, AtRest last."""
    position = _pos(basic_setup(), (0.0, 0.0))
    record = simulate(position, Flick("home", "h2", 2500.0, 0.0), S)
    assert record.bodies == (*(s.id for s in position.stones), "puck")
    first = next(e for e in record.events if isinstance(e, Contact))
    assert (first.a, first.b, first.pre_existing) == ("h2", "puck", False)
    assert first.impulse > 0 and first.speed > 2000
    assert isinstance(record.events[-1], AtRest) and not record.events[-1].capped
    assert record.events[-1].step == record.steps
    assert record.frame_steps == S.step_hz // S.keyframe_hz
    assert len(record.keyframes) == record.steps // record.frame_steps + 1
    assert all(len(frame) == 4 * len(record.bodies) for frame in record.keyframes)
    assert record.keyframes[0][4:8] == (-10000, 0, 0, 0)  # h2 at (-100, 0) in 0.01 mm
    steps = [e.step for e in record.events]
    assert steps == sorted(steps)
    _assert_clean_final(record, position)


def test_final_frame_matches_the_final_position_without_interventions():
    """With the effects off, the last keyframe is the final position up to settling (< 0.2 mm)."""
    position = _pos(basic_setup(), (0.0, 0.0))
    record = simulate(position, Flick("home", "h3", 1000.0, 1500.0), OFF)
    last = record.keyframes[-1]
    for i, body in enumerate(record.final):
        assert abs(last[4 * i] / 100 - body.x) < 0.2 and abs(last[4 * i + 1] / 100 - body.y) < 0.2


def test_puck_shot_into_the_mouth_touches_the_aux_line_and_stays_in_the_goal():
    """XIV.1 geometry: a puck driven into the goal touches aux:1 and rests inside it (the net is soft)."""
    position = _pos((_stone("h2", 400.0, 0.0),), (440.0, 0.0))
    record = simulate(position, Flick("home", "h2", 1200.0, 0.0), OFF)
    touched = [e for e in record.events if isinstance(e, RegionChange) and e.body == "puck" and e.region == "aux:1"]
    assert touched and touched[0].inside
    puck = record.final[-1]
    assert g.in_goal_interior(puck.x, puck.y, S.puck_radius, 1)
    assert any(isinstance(e, Contact) and e.b == "puck" and e.a == "net:1" for e in record.events)


def test_region_changes_follow_the_geometry_predicates():
    """A stone crossing the centre line enters half:1 and leaves half:-1 between the keyframes geometry says."""
    position = _pos((_stone("h2", -100.0, 150.0),), (0.0, -250.0))
    record = simulate(position, Flick("home", "h2", 1500.0, 0.0), S)
    changes = [e for e in record.events if isinstance(e, RegionChange) and e.body == "h2"]
    assert [(e.region, e.inside) for e in changes] == [("half:1", True), ("half:-1", False)]
    for event in changes:
        end = int(event.region.split(":")[1])
        before, after = record.keyframes[(event.step - 1) // record.frame_steps], record.keyframes[
            -(-event.step // record.frame_steps)]
        assert g.in_half(before[0] / 100, before[1] / 100, S.stone_radius, end) != event.inside
        assert g.in_half(after[0] / 100, after[1] / 100, S.stone_radius, end) == event.inside


def test_pre_existing_contact_counts_when_it_transmits_an_impulse():
    """D5, VIII.5: pushing into a stone already touching is a contact with pre_existing True at step 1."""
    position = _pos((_stone("h2", -100.0, 0.0), _stone("a2", -68.0, 0.0)), (0.0, 200.0))
    record = simulate(position, Flick("home", "h2", 800.0, 0.0), S)
    contacts = [e for e in record.events if isinstance(e, Contact)]
    assert contacts[0].a == "a2" and contacts[0].b == "h2" and contacts[0].pre_existing
    assert contacts[0].step <= 2 and contacts[0].impulse > S.contact_impulse_threshold


def test_pre_existing_contact_that_only_separates_is_no_contact():
    """D5: flicking a stone away from one it touches records no contact between them."""
    position = _pos((_stone("h2", -100.0, 0.0), _stone("a2", -68.0, 0.0)), (0.0, 200.0))
    record = simulate(position, Flick("home", "h2", -800.0, 0.0), S)
    assert not [e for e in record.events if isinstance(e, Contact) and {e.a, e.b} == {"a2", "h2"}]


def _hard_shots(position_for, flick_for, seeds, settings):
    """Records of the same kind of shot for several seeds (the draws differ, the physics does not)."""
    return [simulate(position_for(seed), flick_for(seed), settings) for seed in seeds]


def _board_shot(seed: int) -> Position:
    """A puck 100 mm from the side board with a stone behind it on a 45° line."""
    return _pos((_stone("h2", -40.0, 160.0),), (0.0, 200.0), seed)


def _board_flick(seed: int) -> Flick:
    """The stone driven through the puck at 45° towards the side board at full speed."""
    v = S.flick_speed_max / math.sqrt(2)
    return Flick("home", "h2", v, v)


def test_VI_5_puck_over_the_board_is_put_back_where_it_left():
    """VI.5: with effects on some seeds lift the puck over the board; it is re-spotted where it left, touching it."""
    records = _hard_shots(_board_shot, _board_flick, range(24), S)
    over = [r for r in records if any(isinstance(e, LeftBoard) for e in r.events)]
    assert 0 < len(over) < len(records)
    for record in over:
        left = next(e for e in record.events if isinstance(e, LeftBoard))
        assert left.board.startswith("board:") and left.body == "puck"
        assert any(isinstance(e, Contact) and e.step == left.step and "board:" in e.a for e in record.events)
        frame = record.keyframes[-1]
        assert frame[-1] == 2  # the puck's state: off the board
        (respot,) = record.interventions
        assert (respot.code, respot.reason, respot.body) == ("RESPOT", "LEFT_BOARD", "puck")
        assert abs(respot.y) + S.puck_radius >= g.HALF_WIDTH - 0.5  # touching the side board
        assert abs(respot.x - left.x) < 0.5  # at the place where it left
        _assert_clean_final(record, _board_shot(0))


def test_puck_never_flies_over_with_effects_off():
    """The strict ruleset's switch: the same hard shots never leave the board."""
    records = _hard_shots(_board_shot, _board_flick, range(24), OFF)
    assert not any(isinstance(e, LeftBoard | LandedOnGoal | Flipped) for r in records for e in r.events)
    assert not any(r.interventions for r in records)


def test_VI_4_flipped_stone_is_turned_in_place():
    """VI.4: the resting stone hit head-on at full speed flips for some seeds and is turned over where it lies."""
    def position(seed: int) -> Position:
        return _pos((_stone("h2", -200.0, 0.0), _stone("a2", 0.0, 0.0)), (0.0, 250.0), seed)

    records = _hard_shots(position, lambda seed: Flick("home", "h2", S.flick_speed_max, 0.0), range(20), S)
    flipped = [r for r in records if any(isinstance(e, Flipped) for e in r.events)]
    assert 0 < len(flipped) < len(records)
    for record in flipped:
        assert next(e for e in record.events if isinstance(e, Flipped)).stone == "a2"
        a2 = record.bodies.index("a2")
        assert record.keyframes[-1][4 * a2 + 3] == 1
        (flip,) = record.interventions
        final = record.final[a2]
        assert (flip.code, flip.body, flip.x, flip.y) == ("FLIP", "a2", final.x, final.y)


def test_VI_3_puck_on_goal_is_put_behind_it():
    """VI.3: a hard puck on the frame lands on the goal for some seeds; at rest it goes behind the goal, on the
    line through where it lay, its edge touching the goal."""
    def position(seed: int) -> Position:
        return _pos((_stone("h2", 400.0, 42.0),), (440.0, 42.0), seed)

    records = _hard_shots(position, lambda seed: Flick("home", "h2", S.flick_speed_max, 0.0), range(20), S)
    landed = [r for r in records if any(isinstance(e, LandedOnGoal) for e in r.events)]
    assert 0 < len(landed) < len(records)
    for record in landed:
        event = next(e for e in record.events if isinstance(e, LandedOnGoal))
        assert event.end == 1 and record.keyframes[-1][-1] == 3
        (respot,) = record.interventions
        assert respot.reason == "ON_GOAL"
        assert g.GOAL_OUTER_BACK_X + S.puck_radius <= respot.x <= g.GOAL_OUTER_BACK_X + S.puck_radius + 0.02
        assert abs(respot.y - event.y) < 0.01


def test_flick_speed_is_capped():
    """D3: a flick above the cap moves the stone no faster than max_flick_speed."""
    position = _pos((_stone("h2", -300.0, 0.0),), (0.0, 250.0))
    record = simulate(position, Flick("home", "h2", 50_000.0, 0.0), S)
    first, second = record.keyframes[0][0], record.keyframes[1][0]
    speed = (second - first) / 100 * S.keyframe_hz
    assert speed <= max_flick_speed(S) + 1e-6


def test_move_cap_forces_rest():
    """D4 safety cap: a move longer than move_cap_ms ends with AtRest(capped=True)."""
    settings = replace(S, move_cap_ms=100)
    position = _pos((_stone("h2", -300.0, 0.0),), (0.0, 250.0))
    record = simulate(position, Flick("home", "h2", 2000.0, 0.0), settings)
    assert record.events[-1] == AtRest(record.steps, True)
    assert record.steps == settings.move_cap_ms * settings.step_hz // 1000


def test_pre_existing_contact_reported_when_a_later_hit_pushes_through_it():
    """D5: a resting pair pressed together at t0 (0.05 mm, within the tolerance) transmits nothing at first;
    it counts, pre-existing, in the step a third stone drives one into the other, and the per-step
    watch of that pair is switched off again once it has reported."""
    from shared.physics import _Move

    stones = (_stone("h2", -200.0, 0.0), _stone("h3", -60.0, 0.0), _stone("a2", -28.05, 0.0))
    move = _Move(_pos(stones, (0.0, 250.0)), Flick("home", "h2", 1500.0, 0.0), OFF)
    record = move.run()
    hit = next(e for e in record.events if isinstance(e, Contact) and (e.a, e.b) == ("h2", "h3"))
    pushed = next(e for e in record.events if isinstance(e, Contact) and (e.a, e.b) == ("a2", "h3"))
    assert pushed.pre_existing and not hit.pre_existing
    assert pushed.step == hit.step > 1 and pushed.impulse > S.contact_impulse_threshold
    assert not move.watch_slow
    assert move.handlers[0]._handler.postSolveFunc == move.default_post_solve


def test_I_1_surface_is_1216_by_596():
    """I.1, G1: the boards' inner faces lie at x = ±608 and y = ±298, and stones driven at each board at full
    speed hit it and never get past it (beyond the solver's penetration of a step)."""
    faces = {w.name: w for w in walls() if w.name.startswith(("board:side", "board:end"))}
    for ys in (-1, 1):
        side = faces[f"board:side:{ys}"]
        assert side.a[1] == side.b[1] and abs(side.a[1]) - side.radius == g.HALF_WIDTH == 298
    for end in (-1, 1):
        board = faces[f"board:end:{end}"]
        assert board.a[0] == board.b[0] and abs(board.a[0]) - board.radius == g.HALF_LENGTH == 608
    v = max_flick_speed(S)
    shots = (((0.0, 150.0), v, 0.0, "board:end:1"), ((0.0, 150.0), -v, 0.0, "board:end:-1"),
             ((100.0, 0.0), 0.0, v, "board:side:1"), ((100.0, 0.0), 0.0, -v, "board:side:-1"))
    for start, vx, vy, board in shots:  # clear of the goals and of the puck
        record = simulate(_pos((_stone("h2", *start),), (-300.0, -250.0)), Flick("home", "h2", vx, vy), OFF)
        assert any(isinstance(e, Contact) and e.a == board and e.b == "h2" for e in record.events)
        for frame in record.keyframes:
            x, y = frame[0] / 100, frame[1] / 100
            assert abs(x) + S.stone_radius <= g.HALF_LENGTH + 2 and abs(y) + S.stone_radius <= g.HALF_WIDTH + 2


def test_I_2_boards_have_rounded_corners_that_stop_a_puck():
    """I.2, G5: each corner is an arc of radius 105 made of 16 chords whose ends lie on it; a puck driven into
    the corner hits that corner and stays inside the rounded board."""
    arc = g.CORNER_RADIUS + 25.0  # the chords are the centre lines of the 25 mm thick board
    chords = [w for w in walls() if w.name == "board:corner:1:1"]
    assert len(chords) == 16
    for chord in chords:
        for x, y in (chord.a, chord.b):
            assert math.isclose(math.hypot(x - g.CORNER_CENTRE_X, y - g.CORNER_CENTRE_Y), arc)
    v = max_flick_speed(S)
    a = math.radians(42.5)
    stones = (_stone("h2", 380.0 - 30 * math.cos(a), 120.0 - 30 * math.sin(a)),)
    record = simulate(_pos(stones, (380.0, 120.0)), Flick("home", "h2", v * math.cos(a), v * math.sin(a)), OFF)
    assert any(isinstance(e, Contact) and e.a == "board:corner:1:1" and e.b == "puck" for e in record.events)
    for frame in record.keyframes:
        assert g.disc_inside_board(frame[-4] / 100, frame[-3] / 100, S.puck_radius, 2.0)
    _assert_clean_final(record, _pos(stones, (380.0, 120.0)))


def test_I_4_goal_frame_and_net_stop_the_puck():
    """I.4, G14-G17: a full-speed puck into the mouth is stopped by the net inside the goal; one driven at the
    side of the goal from outside bounces off the frame and never gets in."""
    v = max_flick_speed(S)
    record = simulate(_pos((_stone("h2", 400.0, 0.0),), (440.0, 0.0)), Flick("home", "h2", v, 0.0), OFF)
    assert any(isinstance(e, Contact) and e.a == "net:1" and e.b == "puck" for e in record.events)
    for frame in record.keyframes:
        assert frame[-4] / 100 + S.puck_radius <= g.GOAL_INNER_BACK_X + 4  # into the soft net a little, never through
    assert g.in_goal_interior(record.final[-1].x, record.final[-1].y, S.puck_radius, 1)
    record = simulate(_pos((_stone("h2", 520.0, 110.0),), (520.0, 80.0)), Flick("home", "h2", 0.0, -v), OFF)
    assert any(isinstance(e, Contact) and e.a == "frame:1" and e.b == "puck" for e in record.events)
    for frame in record.keyframes:
        x, y = frame[-4] / 100, frame[-3] / 100
        assert not g.in_goal_interior(x, y, 0.0, 1)


class _CountingLib:
    """Chipmunk's cffi lib, counting the calls of the ``counted`` functions (everything passes through)."""

    def __init__(self, lib: object, counted: tuple[str, ...]) -> None:
        self.lib = lib
        self.calls = dict.fromkeys(counted, 0)

    def __getattr__(self, name: str) -> object:
        real = getattr(self.lib, name)
        if name not in self.calls:
            return real

        def counted(*args: object) -> object:
            self.calls[name] += 1
            return real(*args)

        return counted


def _in_space(space: object) -> tuple[int, int, int]:
    """How many shapes, bodies (the static body included) and constraints a Chipmunk space holds."""
    from shared import physics

    lib, ffi = physics._lib, physics._ffi  # type: ignore[attr-defined]
    shapes: list[object] = []
    bodies: list[object] = []
    constraints: list[object] = []
    lib.cpSpaceEachShape(space, lib.ext_cpSpaceShapeIteratorFunc, ffi.new_handle(shapes))
    lib.cpSpaceEachBody(space, lib.ext_cpSpaceBodyIteratorFunc, ffi.new_handle(bodies))
    lib.cpSpaceEachConstraint(space, lib.ext_cpSpaceConstraintIteratorFunc, ffi.new_handle(constraints))
    return len(shapes), len(bodies), len(constraints)


def test_static_shapes_made_through_chipmunk_are_freed_with_their_world(monkeypatch):
    """Walls and sensors are made through Chipmunk, not pymunk, once per world: dropping the world frees every one."""
    import gc

    from shared import physics

    gc.collect()  # earlier tests' worlds must not be counted
    counting = _CountingLib(physics._lib, ("cpShapeFree",))
    monkeypatch.setattr(physics, "_lib", counting)
    world = physics._World(physics._world_key(S))
    made = len(world.static_shapes)
    assert made == len(walls()) + len(physics.region_sensors())
    simulate(_pos(basic_setup(), (0.0, 0.0)), Flick("home", "h2", 2500.0, 0.0), S)  # the thread's own world
    counting.calls["cpShapeFree"] = 0
    del world
    gc.collect()
    assert counting.calls["cpShapeFree"] == made


def test_a_move_frees_its_bodies_and_leaves_its_world_empty(monkeypatch):
    """Each move's bodies, circles and joints are made for it and freed when it ends; the reused world then holds
    nothing but its static body, whatever the move did (here the puck is shot off the board, VI.5)."""
    from shared import physics

    counted = ("cpBodyFree", "cpShapeFree", "cpConstraintFree")
    position = _pos(basic_setup(), (0.0, 0.0))
    for flick in (Flick("home", "h2", 2500.0, 0.0), Flick("home", "h5", 0.0, 3000.0)):
        counting = _CountingLib(physics._lib, counted)
        monkeypatch.setattr(physics, "_lib", counting)
        simulate(position, flick, S)
        monkeypatch.undo()
        bodies = len(position.stones) + 1
        assert counting.calls == {"cpBodyFree": bodies, "cpShapeFree": bodies, "cpConstraintFree": 2 * bodies}
        world = physics._reused_world(physics._world_key(S))
        assert _in_space(world.cspace) == (0, 1, 0)


def test_the_bare_loop_steps_every_wall_and_body():
    """The bare space of ``sprtec bench physics`` holds the move's bodies and every wall (no sensors) until released."""
    from shared import physics

    position = _pos(basic_setup(), (0.0, 0.0))
    built = physics.build_space(position, Flick("home", "h2", 2500.0, 0.0), S, bare=True, reuse=True)
    bodies = len(position.stones) + 1
    assert _in_space(built.world.cspace) == (bodies + len(walls()), bodies + 1, 2 * bodies)
    physics.release(built)
    assert _in_space(built.world.cspace) == (0, 1, 0)


def test_an_error_in_a_collision_callback_fails_the_move_and_spares_the_next(monkeypatch):
    """A callback runs inside Chipmunk's step, where a Python error cannot propagate: it is kept and raised once the
    move's steps are over, and the world is empty and its handlers Chipmunk's own for the next move."""
    import pytest

    from shared import physics

    position = _pos(basic_setup(), (0.0, 0.0))
    flick = Flick("home", "h2", 2500.0, 0.0)
    expected = simulate(position, flick, S)

    def broken(self, arb, sa, sb):
        raise RuntimeError("a broken callback")

    monkeypatch.setattr(physics._Move, "_begin_contact", broken)
    with pytest.raises(RuntimeError, match="a broken callback"):
        simulate(position, flick, S)
    monkeypatch.undo()
    world = physics._reused_world(physics._world_key(S))
    assert _in_space(world.cspace) == (0, 1, 0)
    assert simulate(position, flick, S) == expected

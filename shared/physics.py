"""The physics of one move: ``simulate(position, flick, settings) -> MoveRecord`` (docs/ARCHITECTURE.md
"A move is a pure function").

Why this shape: a move must be a pure function of (position, flick, settings, seed) on one build
(docs/ARCHITECTURE.md "Physics facts"), so every move starts from the state of a fresh space, filled in a canonical
order (stones in the order of ``position.stones``, then the puck; static shapes in a fixed order),
steps it at a fixed 1/step_hz with pinned iterations and slop, and never uses threads. The space is
not built anew for each move but reused, emptied and reset (``_World``): bit for bit what a fresh one
gives, without the cost of building it. This is the only module of the project that imports pymunk;
the referee only sees the facts of ``shared.events``.

Cost (docs/ARCHITECTURE.md "Physics facts"; the budget is 1.25x a bare pymunk loop of the same steps, ``sprtec bench
physics``): the hot loop is Chipmunk's ``cpSpaceStep`` in chunks of ``frame_steps`` with one flag test
per step.
Table friction is a PivotJoint + GearJoint per body (C side, no velocity_func). Regions are static
sensor shapes (``region_sensors``) whose shape filters let each meet only the bodies whose
transitions the referee reads during a move, so the overlap tests run in C, no goalie or resting
puck keeps a sensor arbiter alive, and Python only runs on transitions; one collision handler only
records, knowing shapes by their Chipmunk pointer. Every ``frame_steps`` steps one batch read copies
all bodies' floats for the keyframe and the D4 rest check; keyframes are quantised once the move is
over. Regions not watched during a move (thirds, centre line, centre circle, a goalie's crease) are
judged by the referee from positions with shared.geometry.

Units mm, g, s. Restitution and friction per material pair are set through the shapes' values so
that Chipmunk's product rule gives each pair's setting; only when the settings make that
impossible (puck-stone restitution unlike stone-stone) does a pre_solve handler set the puck's
pairs with the static bodies exactly.
"""

from __future__ import annotations

import math
import struct
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from itertools import compress
from operator import ne

import pymunk
import pymunk.batch
from pymunk._chipmunk import ffi as _ffi
from pymunk._chipmunk import lib as _lib

from shared import effects
from shared import geometry as g
from shared.draws import draw
from shared.events import (
    AtRest,
    BodyState,
    Contact,
    Event,
    Flipped,
    Intervention,
    LandedOnGoal,
    LeftBoard,
    MoveRecord,
    RegionChange,
    Separation,
)
from shared.model import PUCK_ID, Flick, Position, Puck, Stone
from shared.rulesets import Settings

# Collision types.
STONE, PUCK, BOARD, FRAME, NET = 1, 2, 3, 4, 5
_KIND_TYPE = {"board": BOARD, "frame": FRAME, "net": NET}

# Thick walls outside the surface, as Chipmunk has no continuous collision detection: the inner face is the edge.
BOARD_RADIUS = 25.0
FRAME_RADIUS = g.GOAL_FRAME_TUBE / 2  # the 4 mm tube
NET_RADIUS = (g.GOAL_OUTER_BACK_X - g.GOAL_INNER_BACK_X - g.GOAL_FRAME_TUBE) / 2  # fills 546..554 up to the back bar
CORNER_CHORDS = 16  # chords per corner arc (pinned: the number of static shapes changes results)
_FAR = 700.0  # how far region sensors reach beyond the surface (bodies never get there)
_BODY_FIELDS = (
    pymunk.batch.BodyFields.POSITION
    | pymunk.batch.BodyFields.ANGLE
    | pymunk.batch.BodyFields.VELOCITY
    | pymunk.batch.BodyFields.ANGULAR_VELOCITY
)

# Shape filter categories. Each region sensor collides only with the bodies whose transitions the
# referee reads per step (a filtered pair is rejected in the broad phase, before any arbiter exists),
# so a goalie resting in its crease or on its goal line, or a puck on the centre spot, costs nothing.
CAT_PUCK, CAT_FIELD, CAT_GOALIE, CAT_SENSOR = 1, 2, 4, 8
WATCH: dict[str, int] = {
    "aux": CAT_PUCK,  # XIV.1, D9: a goal
    "goal_line_outside": CAT_PUCK | CAT_FIELD,  # XV.13d and A29: the puck or the shooter beside the goal
    # goal-line crossings (the record; a goalie's is judged at rest); beside the goal it shares
    # goal_line_outside's sensors, so both must watch the same bodies
    "goal_line": CAT_PUCK | CAT_FIELD,
    "crease": CAT_FIELD,  # XV.2: an eligible field stone leaving its crease; a goalie's status is judged at rest
    "half": CAT_PUCK | CAT_FIELD | CAT_GOALIE,  # half transitions (the record)
}

_BODY_FILTERS = {cat: pymunk.ShapeFilter(categories=cat) for cat in (CAT_PUCK, CAT_FIELD, CAT_GOALIE)}

_XYA = struct.Struct("3d")  # x, y, angle at the start of a body's 48 bytes in a batch read
_VELOCITY = struct.Struct("3d")  # vx, vy, ω 24 bytes into a body's 48 bytes

# A few calls go to Chipmunk through pymunk's cffi module instead of pymunk's wrappers, where the
# wrapper costs several times the call and runs once per step, keyframe or callback (measured on the
# pinned pymunk 6.9: ``Arbiter.shapes`` 3.0 us against 0.35 us by pointer, ``batch.get_space_bodies``
# 2.1 us against 0.8 us). pyproject pins pymunk ~= 6.9.0; the tests cover every such call.


_EACH_BODY = _ffi.addressof(_lib, "pmSpaceBodyGetIteratorFuncBatched")


class _BodyReader:
    """Reads x, y, angle, vx, vy, ω of every body in the space (``_BODY_FIELDS``, in insertion order,
    the static body last) as bytes: ``pymunk.batch.get_space_bodies`` with its argument struct and
    arrays made once per world instead of on every call. The arrays are freed with the reader (pymunk 6.9's
    ``batch.Buffer`` never frees them: about 1 kB a move)."""

    def __init__(self, space: pymunk.Space) -> None:
        self.floats = _ffi.gc(_lib.pmFloatArrayNew(0), _lib.pmFloatArrayFree)
        self.ints = _ffi.gc(_lib.pmIntArrayNew(0), _lib.pmIntArrayFree)
        self.args = _ffi.new("pmBatchedData *")
        self.args.fields = _BODY_FIELDS.value
        self.args.floatArray = self.floats
        self.args.intArray = self.ints
        self.space = space  # keeps the C space alive while this reads it
        self.cspace = space._space
        self.each = _EACH_BODY
        self.view: _ffi.buffer | None = None

    def start(self) -> None:
        """A new move: its first read may grow (and move) the array."""
        self.view = None

    def read(self, bodies: int) -> bytes:
        """The 48 bytes of each of the first ``bodies`` bodies. The first read sizes the array; bodies are
        only ever taken out during a move, so later reads never move it and reuse its buffer view."""
        self.floats.num = 0
        _lib.cpSpaceEachBody(self.cspace, self.each, self.args)
        if self.view is None:
            self.view = _ffi.buffer(self.floats.arr, 48 * bodies)
        floats: bytes = self.view[: 48 * bodies]
        return floats


# Keyframe states (events.MoveRecord).
ON_BOARD, UPSIDE_DOWN, OFF_BOARD, ON_GOAL = 0, 1, 2, 3


# --------------------------------------------------------------------------- the static layout


@dataclass(frozen=True, slots=True)
class Wall:
    """A static segment: which body it belongs to (events naming), its end points and radius."""

    name: str
    a: tuple[float, float]
    b: tuple[float, float]
    radius: float


@cache
def walls() -> tuple[Wall, ...]:
    """Boards, goal frames and nets as thick segments in their fixed insertion order (G1-G5, G14-G17).

    Boards lie outside the surface so their inner face is exactly the surface edge; a corner is an
    arc of ``CORNER_CHORDS`` chords whose ends lie on the arc (the chords cut at most 0.16 mm
    inside it). Each goal is two side tubes and a back bar (``frame:<end>``) and the net as a soft
    segment whose inner face is the inner back x = ±546 (``net:<end>``).
    """
    out: list[Wall] = []
    cx, cy, rr = g.CORNER_CENTRE_X, g.CORNER_CENTRE_Y, BOARD_RADIUS
    for ys in (-1, 1):
        y = ys * (g.HALF_WIDTH + rr)
        out.append(Wall(f"board:side:{ys}", (-cx, y), (cx, y), rr))
    for end in (-1, 1):
        x = end * (g.HALF_LENGTH + rr)
        out.append(Wall(f"board:end:{end}", (x, -cy), (x, cy), rr))
    arc = g.CORNER_RADIUS + rr
    for end in (-1, 1):
        for ys in (-1, 1):
            points = [
                (end * (cx + arc * math.cos(k * math.pi / 2 / CORNER_CHORDS)),
                 ys * (cy + arc * math.sin(k * math.pi / 2 / CORNER_CHORDS)))
                for k in range(CORNER_CHORDS + 1)
            ]
            out.extend(
                Wall(f"board:corner:{end}:{ys}", points[k], points[k + 1], rr) for k in range(CORNER_CHORDS)
            )
    fr, mouth = FRAME_RADIUS, g.GOAL_MOUTH_HALF_WIDTH + FRAME_RADIUS
    for end in (-1, 1):
        x0, x1 = end * (g.GOAL_LINE_X + fr), end * (g.GOAL_OUTER_BACK_X - fr)
        out.append(Wall(f"frame:{end}", (x0, -mouth), (x1, -mouth), fr))
        out.append(Wall(f"frame:{end}", (x0, mouth), (x1, mouth), fr))
        out.append(Wall(f"frame:{end}", (x1, -mouth), (x1, mouth), fr))
    for end in (-1, 1):
        x = end * (g.GOAL_INNER_BACK_X + NET_RADIUS)
        out.append(Wall(f"net:{end}", (x, -g.GOAL_MOUTH_HALF_WIDTH), (x, g.GOAL_MOUTH_HALF_WIDTH), NET_RADIUS))
    return tuple(out)


def _box(end: int, x0: float, x1: float, y0: float, y1: float) -> tuple[tuple[float, float], ...]:
    """The corners of a rectangle given for the end x > 0, mirrored to ``end``."""
    if end == -1:
        x0, x1 = -x1, -x0
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


# How a region sensor decides membership (``region_sensors``).
COUNTED, TRIGGER = 0, 1


@cache
def region_sensors() -> tuple[tuple[tuple[tuple[float, float], ...], tuple[str, ...], int, int], ...]:
    """The region sensors in their fixed insertion order: (vertices, regions, how, watched categories).

    Four vertices make a box, two a zero-width line. The categories say which bodies the sensor
    collides with (``WATCH``). ``how`` says how a body's membership of the sensor's regions is decided
    after a step in which it started or stopped overlapping the sensor:

    * ``COUNTED``: the regions are exactly the union of their boxes, so a body is in a region while it
      overlaps any of them. The goal line is the part across the mouth plus the two parts beside the
      goal, which are also ``goal_line_outside`` (one sensor, not two, for a stone lying there).
    * ``TRIGGER``: the region's predicate (``_region_predicate``) is evaluated. Every body always lies
      in a half, so the halves are watched through the centre line (x = 0): a disc touching a region's
      boundary lies in the closed region (D8), and no body moves a disc diameter in one step
      (``max_step_travel``), so its half can only change at a step where it starts or stops touching
      that line. The crease (G10) is the crease rectangle plus the goal interior: a box sensor on the
      rectangle and line sensors on the interior's other three sides. While a disc overlaps the
      rectangle it is in the crease; otherwise its crease membership is its touching the interior,
      which can only change where it starts or stops touching one of those three sides (the mouth is
      part of the rectangle). A disc touches them from outside only when the solver lets a fast stone
      sink more than the 4 mm tube into a frame for a step, and such a step is recorded as the
      predicate says; a goalie or a stone resting against the goal from outside touches none of them.
    """
    gl, hw = g.GOAL_LINE_X, g.GOAL_LINE_HALF_WIDTH
    mouth, ax, ahw = g.GOAL_MOUTH_HALF_WIDTH, g.AUX_LINE_X, g.AUX_LINE_HALF_WIDTH
    front, side, back = g.CREASE_FRONT_X - hw, g.CREASE_HALF_WIDTH + hw, g.GOAL_INNER_BACK_X
    out: list[tuple[tuple[tuple[float, float], ...], tuple[str, ...], int, int]] = []
    for end in (-1, 1):
        line, outside = f"goal_line:{end}", f"goal_line_outside:{end}"
        out.append((_box(end, ax - ahw, ax + ahw, -mouth, mouth), (f"aux:{end}",), COUNTED, WATCH["aux"]))
        out.append((_box(end, gl - hw, gl + hw, -mouth - 1e-9, mouth + 1e-9), (line,), COUNTED, WATCH["goal_line"]))
        for y0, y1 in ((-_FAR, -mouth - 1e-9), (mouth + 1e-9, _FAR)):
            out.append((_box(end, gl - hw, gl + hw, y0, y1), (line, outside), COUNTED, WATCH["goal_line_outside"]))
        crease = (f"crease:{end}",)
        out.append((_box(end, front, gl, -side, side), crease, TRIGGER, WATCH["crease"]))
        inner = ((gl, -mouth), (back, -mouth), (back, mouth), (gl, mouth))  # the goal interior but its mouth
        for k in range(3):
            a, b = inner[k], inner[k + 1]
            out.append((((end * a[0], a[1]), (end * b[0], b[1])), crease, TRIGGER, WATCH["crease"]))
    out.append((((0.0, -_FAR), (0.0, _FAR)), ("half:-1", "half:1"), TRIGGER, WATCH["half"]))
    return tuple(out)


Sensed = tuple[int, tuple[str, ...]]  # how a sensor decides membership, and its regions
_IDENTITY = _ffi.new("cpTransform *", (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))[0]


@cache
def _sensor_specs() -> tuple[tuple[object, Sensed, pymunk.ShapeFilter], ...]:
    """``region_sensors`` ready for building, computed once: (geometry, (how, regions), filter), where the
    geometry of a box is its 4 corners as a Chipmunk array and that of a line its two end points."""
    out: list[tuple[object, Sensed, pymunk.ShapeFilter]] = []
    for vertices, regions, how, mask in region_sensors():
        geometry = _ffi.new("cpVect[]", vertices) if len(vertices) == 4 else vertices
        out.append((geometry, (how, regions), pymunk.ShapeFilter(categories=CAT_SENSOR, mask=mask)))
    return tuple(out)


@cache
def _wall_specs() -> tuple[tuple[tuple[float, float], tuple[float, float], float, int, str], ...]:
    """``walls`` ready for building, computed once: (a, b, radius, collision type, name) in insertion order."""
    return tuple((w.a, w.b, w.radius, _KIND_TYPE[w.name.split(":", 1)[0]], w.name) for w in walls())


@cache
def _wall_boxes() -> tuple[tuple[float, float, float, float], ...]:
    """Per wall (``walls`` order) a box that contains its thick segment: a prefilter for the t0 query
    (``_touching_at_start``), widened by a micrometre so it never misses what Chipmunk's box would hold."""
    out = []
    for w in walls():
        pad = w.radius + 1e-3
        out.append((min(w.a[0], w.b[0]) - pad, min(w.a[1], w.b[1]) - pad,
                    max(w.a[0], w.b[0]) + pad, max(w.a[1], w.b[1]) + pad))
    return tuple(out)


_Box = tuple[float, float, float, float]
_Quadrant = tuple[bool | None, bool | None]


@cache
def _quadrant_walls() -> dict[_Quadrant, tuple[tuple[int, _Box], ...]]:
    """Per quadrant (x >= 0, y >= 0) the walls (index in ``walls`` order, box) whose boxes reach into it; all of
    them under (None, None)."""
    out: dict[_Quadrant, tuple[tuple[int, _Box], ...]] = {(None, None): tuple(enumerate(_wall_boxes()))}
    for east in (False, True):
        for north in (False, True):
            out[(east, north)] = tuple(
                (k, box) for k, box in enumerate(_wall_boxes())
                if (box[2] >= 0.0 if east else box[0] <= 0.0) and (box[3] >= 0.0 if north else box[1] <= 0.0)
            )
    return out


def _walls_near(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[int, _Box], ...]:
    """The walls whose boxes may meet the box (x0, y0)-(x1, y1): those of its quadrant, or all of them when it
    straddles an axis (``_Move._touching_at_start`` then tests each box)."""
    east, north = x0 >= 0.0, y0 >= 0.0
    if east == (x1 >= 0.0) and north == (y1 >= 0.0):
        return _quadrant_walls()[(east, north)]
    return _quadrant_walls()[(None, None)]


def _static_finaliser(static: pymunk.Body) -> Callable[[object], None]:
    """What frees a static shape made through Chipmunk (a wall or a sensor): what pymunk does for its own
    shapes (leave the space if still in one, detach, free). It holds the static body, so the body
    outlives the shape as it does for a pymunk shape, and Chipmunk's lib, which a world kept until the
    interpreter exits (a thread's, ``_LOCAL``) may outlive as a module global."""
    lib, null = _lib, _ffi.NULL

    def free(pointer: object, body: pymunk.Body = static) -> None:  # ``body``: held, never used
        """Free the shape at ``pointer`` the way pymunk frees its own shapes."""
        cspace = lib.cpShapeGetSpace(pointer)
        if cspace != null:
            lib.cpSpaceRemoveShape(cspace, pointer)
        lib.cpShapeSetBody(pointer, null)
        lib.cpShapeFree(pointer)

    return free


# --------------------------------------------------------------------------- speeds and materials


def max_flick_speed(settings: Settings) -> float:
    """The highest flick speed simulate accepts: ``flick_speed_max``, lowered if needed so that the
    fastest body (a puck struck head-on by the flicked stone) moves at most ``max_step_travel`` per step."""
    ms, mp = settings.stone_mass, settings.puck_mass
    gain = max(1.0, (1 + settings.restitution_puck_stone) * ms / (ms + mp))
    return min(settings.flick_speed_max, settings.max_step_travel * settings.step_hz / gain)


def _materials(settings: Settings) -> tuple[dict[int, tuple[float, float]], dict[int, tuple[float, float]]]:
    """Per collision type the (elasticity, friction) of its shapes, so that products give the pair settings.

    Returns the shape values and, for the puck's pairs with static bodies, the exact pair values
    where the product rule misses them (empty when it does not, which is the case by default).
    """
    e_s = math.sqrt(settings.restitution_stone_stone)
    u_s = math.sqrt(settings.friction_stone_stone)
    e_p = settings.restitution_puck_stone / e_s if e_s else 0.0
    u_p = settings.friction_puck_stone / u_s if u_s else 0.0
    pairs = {
        BOARD: (settings.restitution_board, settings.friction_board),
        FRAME: (settings.restitution_frame, settings.friction_frame),
        NET: (settings.restitution_net, settings.friction_net),
    }
    values = {STONE: (e_s, u_s), PUCK: (e_p, u_p)}
    for kind, (e, u) in pairs.items():
        values[kind] = (e / e_s if e_s else e, u / u_s if u_s else u)
    exact: dict[int, tuple[float, float]] = {}
    for kind, (e, u) in pairs.items():
        if not (math.isclose(values[kind][0] * e_p, e, abs_tol=1e-12)
                and math.isclose(values[kind][1] * u_p, u, abs_tol=1e-12)):
            exact[kind] = (e, u)
    return values, exact


# --------------------------------------------------------------------------- the reused space
#
# Building a space per move (a pymunk Space, 13 bodies with their shapes and joints as pymunk objects, 93 static
# shapes) and tearing it down again cost about as much as a third of the move's steps. So each thread keeps one
# ``_World`` per set of static settings: a space whose walls and sensors are made once. A move adds its bodies
# (made through Chipmunk, not pymunk) and then the static shapes, exactly as a fresh space would be filled, and
# takes everything out again when it is over.
#
# Why the static shapes are added again for every move instead of staying in the space: Chipmunk pairs a new leaf
# of its bounding-box tree with the leaves it overlaps and walks those pairs, in list order, for every leaf that
# did not move in a step; that order is the order arbiters enter the solver, and the solver's order changes
# results once a body has several contacts (docs/ARCHITECTURE.md "Physics facts", the racked cluster). Statics
# inserted after the bodies make the same pairs in the same order as in a fresh space; bodies inserted into a tree
# already holding the statics would make them in another order. Adding and removing 93 shapes costs about 50 us.
#
# What else Chipmunk keeps from one move to the next, and why the move starts from the state of a fresh space:
# * the shape id counter: a shape's hash id (given at insertion) orders the tree's leaf set, which is walked
#   every step to re-fit moved leaves, so the counter is set back to 0 and the bodies' shapes get 0..n-1 again;
# * the space's timestamp (the step number the callbacks read, arbiter ages, the contact-buffer ring) and the
#   last dt (step 1 scales cached impulses by dt/prev_dt, 0 in a fresh space): both set back to 0;
# * arbiters, cached arbiters, contact pairs and tree leaves of the last move: removing a shape removes its
#   arbiters (separate callbacks fire into Chipmunk's own no-ops, ``_Move._detach``) and its leaf and pairs, so
#   the space is empty again; pooled arbiters, pairs, nodes and contact buffers are re-initialised on reuse;
# * the trees' own stamps cannot be set, but only their order matters (leaf stamps are compared with each other,
#   all taken during the move); a world is retired long before the 32-bit stamp could wrap (``_STAMP_LIMIT``);
# * sleeping stays off (no idle times), bodies, shapes and joints are new in every move, and the collision
#   handlers are the same in every move of a world (the world's settings decide them).
# tests/shared/test_space_reuse.py checks moves in any order against fresh spaces, in this and other processes.

_STAMP_LIMIT = 2**31  # tree stamps a world may use; one move uses at most ~15,000 (bodies, statics, steps)
_WORLDS_PER_THREAD = 4  # worlds kept per thread, one per distinct static settings, the oldest dropped first


@dataclass(frozen=True, slots=True)
class _WorldKey:
    """What a world's space and static shapes depend on: solver settings, shape materials, and whether it is the
    bare loop's (no sensors, no collision handlers)."""

    iterations: int
    slop: float
    materials: tuple[tuple[int, tuple[float, float]], ...]
    exact: tuple[tuple[int, tuple[float, float]], ...]
    bare: bool


def _world_key(settings: Settings, *, bare: bool = False) -> _WorldKey:
    """The key of the world a move with ``settings`` is simulated in (``bare``: the bare loop's)."""
    values, exact = _materials(settings)
    return _WorldKey(settings.solver_iterations, settings.collision_slop, tuple(sorted(values.items())),
                     tuple(sorted(exact.items())), bare)


class _World:
    """A space, its walls and sensors made once, its collision handlers installed once: one move at a time.

    ``load`` fills it for a move as a fresh space would be filled, ``unload`` empties it again (see above).
    ``busy`` while a move is loaded: a move started meanwhile (another ``_Move`` built before this one ran) gets a
    world of its own.
    """

    def __init__(self, key: _WorldKey) -> None:
        space = pymunk.Space(threaded=False)
        space.iterations = key.iterations
        space.collision_slop = key.slop
        space.gravity = (0.0, 0.0)
        space.damping = 1.0
        self.key = key
        self.space = space
        self.cspace = space._space
        self.static = space.static_body
        self.materials = dict(key.materials)
        self.busy = False
        self.stamps = 0  # tree stamps used so far (``_STAMP_LIMIT``)
        self.names: dict[object, str] = {}
        self.sensors: dict[object, Sensed] = {}
        # Made through Chipmunk with the same calls in the same order as pymunk's Segment and setters (pymunk's
        # shape classes and setters cost several times the C calls, and nothing asks pymunk for a static shape:
        # callbacks know shapes by pointer). The world owns them: freed with it (``_static_finaliser``).
        self.static_shapes: list[object] = []  # the walls (``walls`` order), then the sensors
        cstatic, free = self.static._body, _static_finaliser(self.static)
        for a, b, radius, kind, name in _wall_specs():
            pointer = _ffi.gc(_lib.cpSegmentShapeNew(cstatic, a, b, radius), free)
            e, u = self.materials[kind]
            _lib.cpShapeSetElasticity(pointer, e)
            _lib.cpShapeSetFriction(pointer, u)
            _lib.cpShapeSetCollisionType(pointer, kind)
            self.names[pointer] = name
            self.static_shapes.append(pointer)
        if not key.bare:
            for vertices, sensed, shape_filter in _sensor_specs():
                if isinstance(vertices, tuple):
                    made = _lib.cpSegmentShapeNew(cstatic, vertices[0], vertices[1], 0.0)
                else:
                    made = _lib.cpPolyShapeNew(cstatic, 4, vertices, _IDENTITY, 0.0)
                pointer = _ffi.gc(made, free)
                _lib.cpShapeSetSensor(pointer, True)
                _lib.cpShapeSetFilter(pointer, shape_filter)  # the callbacks know sensors by pointer: no collision type
                self.sensors[pointer] = sensed
                self.static_shapes.append(pointer)
        # Record-only callbacks on the default handler (it sees every pair; sensors meet bodies through their
        # filters); a pair handler only where a pre_solve must set exact materials. One handler instead of one
        # per pair of collision types: the callbacks tell contacts from sensors by the shape anyway. Each move
        # points the handlers' begin and separate at itself and gives Chipmunk's own callbacks back when it is
        # over. The bare loop's world has none.
        self.handlers: list[pymunk.CollisionHandler] = []
        if not key.bare:
            self.handlers.append(space.add_default_collision_handler())
            for kind, (e, u) in key.exact:
                h = space.add_collision_handler(PUCK, kind)
                h.pre_solve = _exact_pair(e, u)
                self.handlers.append(h)
        self.chipmunk_callbacks = [(h._handler.beginFunc, h._handler.separateFunc) for h in self.handlers]
        self.default_post_solve = self.handlers[0]._handler.postSolveFunc if self.handlers else None
        # The move's callbacks as C function pointers of their own, called with the arbiter's pointer: pymunk's
        # (``Space.add_collision_handler``) wrap every call in a handle lookup, an ``Arbiter`` and the space's lock
        # flag, about 1 us a call that reads nothing the move needs. ``move`` is the move loaded now; an error
        # in a callback is kept and raised once the move's steps are over (``_Move.run``).
        self.move: _Move | None = None
        self.failure: BaseException | None = None
        self.on_begin = _ffi.callback("cpCollisionBeginFunc", self._begin, False, self._failed)
        self.on_separate = _ffi.callback("cpCollisionSeparateFunc", self._separate, None, self._failed)
        self.on_post_solve = _ffi.callback("cpCollisionPostSolveFunc", self._post_solve, None, self._failed)
        self.reader = _BodyReader(space)
        self.shape_a, self.shape_b = _ffi.new("cpShape **"), _ffi.new("cpShape **")  # ``_Move._shapes_of``

    def _begin(self, arbiter: object, space: object, data: object) -> bool:
        """A new arbiter: the loaded move's ``_Move._begin``."""
        move = self.move
        assert move is not None
        return move._begin(arbiter)

    def _separate(self, arbiter: object, space: object, data: object) -> None:
        """An arbiter ended: the loaded move's ``_Move._separate``."""
        move = self.move
        assert move is not None
        move._separate(arbiter)

    def _post_solve(self, arbiter: object, space: object, data: object) -> None:
        """A contact was solved: the loaded move's ``_Move._post_solve_watch``."""
        move = self.move
        assert move is not None
        move._post_solve_watch(arbiter)

    def _failed(self, kind: type[BaseException], error: BaseException, trace: object) -> None:
        """A callback raised: keep the first error for ``_Move.run`` (Chipmunk gets the callback's default)."""
        if self.failure is None:
            self.failure = error

    def load(self, position: Position, flick: Flick, settings: Settings) -> _Built:
        """Fill the space for one move: its bodies in the canonical order (stones as in ``position.stones``, then the
        puck), each with its circle and friction joints, then the static shapes; the flicked stone's velocity set.

        The same Chipmunk calls in the same order as building a fresh space with pymunk objects did (pymunk's
        Body, Circle, PivotJoint, GearJoint, their setters and ``Space.add``), from the state of a fresh space."""
        lib, cspace, cstatic = _lib, self.cspace, self.static._body
        lib.cpSpaceSetShapeIDCounter(cspace, 0)
        lib.cpSpaceSetTimestamp(cspace, 0)
        lib.cpSpaceSetCurrentTimeStep(cspace, 0.0)
        rs, ms, puck = settings.stone_radius, settings.stone_mass, position.puck
        specs = [(s.id, s.x, s.y, rs, ms, STONE, CAT_GOALIE if s.role == "goalie" else CAT_FIELD)
                 for s in position.stones]
        specs.append((PUCK_ID, puck.x, puck.y, settings.puck_radius, settings.puck_mass, PUCK, CAT_PUCK))
        built = _Built(self, tuple(s[0] for s in specs), tuple(s[3] for s in specs), [], [], [], dict(self.names),
                       self.sensors, self.static_shapes)
        self.busy = True
        for name, x, y, r, m, kind, category in specs:
            body = lib.cpBodyNew(m, lib.cpMomentForCircle(m, 0.0, r, (0.0, 0.0)))
            built.cbodies.append(body)
            lib.cpBodySetPosition(body, (x, y))
            shape = lib.cpCircleShapeNew(body, r, (0.0, 0.0))
            built.shapes.append(shape)
            e, u = self.materials[kind]
            lib.cpShapeSetElasticity(shape, e)
            lib.cpShapeSetFriction(shape, u)
            lib.cpShapeSetCollisionType(shape, kind)
            lib.cpShapeSetFilter(shape, _BODY_FILTERS[category])  # meets every body and wall, and its sensors
            # Table friction (tank.py technique): the joints' max force is the sliding friction μ·m·g and
            # the gear's max torque the friction torque of a sliding disc, (2/3)·μ·m·g·r.
            pivot = lib.cpPivotJointNew2(cstatic, body, (0.0, 0.0), (0.0, 0.0))
            gear = lib.cpGearJointNew(cstatic, body, 0.0, 1.0)
            built.constraints.append((pivot, gear))
            lib.cpConstraintSetMaxBias(pivot, 0.0)
            lib.cpConstraintSetMaxForce(pivot, settings.table_friction * m * settings.gravity)
            lib.cpConstraintSetMaxBias(gear, 0.0)
            lib.cpConstraintSetMaxForce(gear, 2.0 / 3.0 * settings.table_spin_friction * m * settings.gravity * r)
            lib.cpSpaceAddBody(cspace, body)
            lib.cpSpaceAddShape(cspace, shape)
            lib.cpSpaceAddConstraint(cspace, pivot)
            lib.cpSpaceAddConstraint(cspace, gear)
            built.names[shape] = name
        add = lib.cpSpaceAddShape
        for pointer in self.static_shapes:
            add(cspace, pointer)
        index = {name: i for i, name in enumerate(built.bodies)}
        if flick.stone in index:
            vx, vy = flick.vx, flick.vy
            speed = math.hypot(vx, vy)
            cap = max_flick_speed(settings)
            if speed > cap:  # D3: v <= v_max; also what keeps every body under max_step_travel per step
                vx, vy = vx * cap / speed, vy * cap / speed
            lib.cpBodySetVelocity(built.cbodies[index[flick.stone]], (vx, vy))
        self.reader.start()
        return built

    def unload(self, built: _Built, steps: int) -> None:
        """Take the move's bodies, joints and shapes out and free them, then the static shapes: empty again.

        Chipmunk's own callbacks must be back on the handlers (``_Move._detach``): removing a shape ends its
        arbiters, which calls their separate callbacks."""
        lib, cspace, null = _lib, self.cspace, _ffi.NULL
        for body, shape, (pivot, gear) in zip(built.cbodies, built.shapes, built.constraints, strict=True):
            if lib.cpBodyGetSpace(body) != null:  # not taken off the board during the move
                lib.cpSpaceRemoveConstraint(cspace, pivot)
                lib.cpSpaceRemoveConstraint(cspace, gear)
                lib.cpSpaceRemoveShape(cspace, shape)
                lib.cpSpaceRemoveBody(cspace, body)
        remove = lib.cpSpaceRemoveShape
        for pointer in self.static_shapes:
            remove(cspace, pointer)
        for body, shape, (pivot, gear) in zip(built.cbodies, built.shapes, built.constraints, strict=True):
            lib.cpConstraintFree(pivot)
            lib.cpConstraintFree(gear)
            lib.cpShapeFree(shape)
            lib.cpBodyFree(body)
        built.cbodies.clear()
        built.shapes.clear()
        built.constraints.clear()
        self.stamps += len(built.bodies) + len(self.static_shapes) + steps
        self.busy = False


_LOCAL = threading.local()  # per thread: the worlds by key (a thread simulates one move at a time)


def _reused_world(key: _WorldKey) -> _World:
    """This thread's world for ``key``, made on first use; a new one when it is busy or has used its stamps."""
    worlds: dict[_WorldKey, _World] | None = getattr(_LOCAL, "worlds", None)
    if worlds is None:
        worlds = _LOCAL.worlds = {}
    world = worlds.get(key)
    if world is None or world.busy or world.stamps > _STAMP_LIMIT:
        worlds.pop(key, None)
        world = worlds[key] = _World(key)
        while len(worlds) > _WORLDS_PER_THREAD:
            del worlds[next(iter(worlds))]
    return world


@dataclass(slots=True)
class _Built:
    """One move's contents of a world: its bodies in ``bodies`` order (Chipmunk pointers), and every shape's name.

    Shapes are known by their Chipmunk pointer, which is what a collision callback can get cheaply
    (``_Move._shapes_of``)."""

    world: _World
    bodies: tuple[str, ...]
    radii: tuple[float, ...]
    cbodies: list[object]
    shapes: list[object]
    constraints: list[tuple[object, object]]
    names: dict[object, str]
    sensors: dict[object, Sensed]
    static_shapes: list[object]  # the walls (``walls`` order), then the sensors

    @property
    def space(self) -> pymunk.Space:
        """The world's space."""
        return self.world.space

    def body_position(self, i: int) -> tuple[float, float]:
        """Where body ``i`` is now."""
        p = _lib.cpBodyGetPosition(self.cbodies[i])
        return p.x, p.y


def build_space(position: Position, flick: Flick, settings: Settings, *, bare: bool = False,
                reuse: bool = False) -> _Built:
    """A space filled for the move (``_World.load``): this thread's reused world, or a world made for this move.

    ``bare`` leaves out the region sensors and the collision handlers: the bare loop ``sprtec bench physics``
    compares against (same bodies, walls, friction joints and step). Empty it with ``release``.
    """
    key = _world_key(settings, bare=bare)
    world = _reused_world(key) if reuse else _World(key)
    return world.load(position, flick, settings)


def release(built: _Built, steps: int = 0) -> None:
    """Empty the world ``built`` was loaded into (``steps``: how many it took), ready for the next move."""
    built.world.unload(built, steps)


def bare_loop(position: Position, flick: Flick, settings: Settings, steps: int, *, reuse: bool = True) -> None:
    """The bare pymunk loop the benches compare a move against: the same bodies, walls, goals and friction joints,
    no sensors, handlers, keyframes or rest checks, stepped ``steps`` times with the same ``cpSpaceStep`` call as
    ``simulate``, in this thread's reused world (``reuse``) or a world made for it."""
    built = build_space(position, flick, settings, bare=True, reuse=reuse)
    step, cspace, dt = _lib.cpSpaceStep, built.world.cspace, 1.0 / settings.step_hz
    try:
        for _ in range(steps):
            step(cspace, dt)
    finally:
        release(built, steps)


# --------------------------------------------------------------------------- one move


@dataclass(slots=True)
class _Pending:
    """A contact that began in the current step, waiting for that step's impulse."""

    arbiter: object  # the cpArbiter's pointer
    a: str
    b: str
    pre_existing: bool
    normal_speed: float
    speed: float
    approach: tuple[float, float]  # the velocity of each of (a, b) towards the other along the normal


class _Move:
    """The state of one move while it is being simulated: handlers record into it, the loop reads it."""

    def __init__(
        self, position: Position, flick: Flick, settings: Settings, *, probe: bool = False, reuse: bool = True
    ) -> None:
        self.position = position
        self.settings = settings
        self.built = build_space(position, flick, settings, reuse=reuse)
        self.world = self.built.world
        self.space = self.world.space
        self.names = self.built.names
        self.sensors = self.built.sensors
        self.index = {name: i for i, name in enumerate(self.built.bodies)}
        self.step = 0  # the step just taken: kept by the loop per frame, by ``_after_step`` per step with work
        self.cspace = self.world.cspace  # Chipmunk counts steps (its timestamp): callbacks read the step there
        self.shape_a, self.shape_b = self.world.shape_a, self.world.shape_b  # ``_shapes_of``
        self.events: list[Event] = []
        self.pending: list[_Pending] = []
        self.region_count: dict[tuple[str, str], int] = {}
        self.state = [UPSIDE_DOWN if s.flipped else ON_BOARD for s in position.stones] + [ON_BOARD]
        self.removed: dict[int, tuple[float, float]] = {}  # body index -> where it lies off the surface
        self.effects: list[tuple[str, int]] = []  # (kind, body index) in event order
        self.touching = self._touching_at_start()
        self.watch_slow: set[tuple[str, str]] = set()
        self.region_state: dict[tuple[str, str], bool] = {}  # last emitted membership per (body, region)
        self.dirty: dict[tuple[str, str], None] = {}
        self.contacts = 0
        self.removing = False  # region events are not emitted while a body is taken off the board
        self.probe = probe
        self.max_travel = 0.0
        self.after = False  # a callback of this step left work for ``_after_step``
        self._install_handlers()

    # ------------------------------------------------------------------ t0
    def _touching_at_start(self) -> set[tuple[str, str]]:
        """D5: the pairs touching at t0 (within ``contact_touch_gap``), discs and walls alike."""
        gap = self.settings.contact_touch_gap
        b = self.built
        found: set[tuple[str, str]] = set()
        # the bodies were placed at exactly these coordinates, so no need to ask pymunk for them
        pos = [(s.x, s.y) for s in self.position.stones] + [(self.position.puck.x, self.position.puck.y)]
        radii = b.radii
        reach = 2 * max(radii) + gap
        order = sorted(range(len(pos)), key=lambda k: pos[k][0])
        for a, i in enumerate(order):  # a sweep along x: hypot >= |dx|, so farther pairs cannot touch
            xi, yi = pos[i]
            for j in order[a + 1:]:
                dx = pos[j][0] - xi
                if dx > reach:
                    break
                dy, limit = pos[j][1] - yi, radii[i] + radii[j] + gap
                if dx <= limit and -limit <= dy <= limit and math.hypot(dx, dy) <= limit:
                    found.add(_pair(b.bodies[i], b.bodies[j]))
        info = _ffi.new("cpPointQueryInfo *")
        inner_x, inner_y = g.GOAL_LINE_X, g.HALF_WIDTH
        for i, (x, y) in enumerate(pos):
            r = b.radii[i] + gap
            if abs(x) + r < inner_x and abs(y) + r <= inner_y:
                continue  # between the goal lines, clear of the corners and the goals: the common case
            near_goal = abs(x) + r >= g.GOAL_LINE_X and abs(y) <= g.GOAL_MOUTH_HALF_WIDTH + g.GOAL_FRAME_TUBE + r
            if g.disc_inside_board(x, y, r) and not near_goal:
                continue
            # the walls whose boxes meet the disc's box (what a bb_query of the static shapes would give),
            # measured with Chipmunk's own point query
            x0, y0, x1, y1 = x - r, y - r, x + r, y + r
            for k, (bx0, by0, bx1, by1) in _walls_near(x0, y0, x1, y1):
                if bx0 <= x1 and x0 <= bx1 and by0 <= y1 and y0 <= by1:
                    shape = b.static_shapes[k]
                    if _lib.cpShapePointQuery(shape, (x, y), info) <= b.radii[i] + gap:
                        found.add(_pair(b.bodies[i], self.names[shape]))
        return found

    # ------------------------------------------------------------------ handlers
    def _shapes_of(self, arb: object) -> tuple[object, object]:
        """The Chipmunk pointers of an arbiter's two shapes, in the order ``Arbiter.shapes`` gives them (read
        into the world's buffers: each thread has its own world, and the call releases the GIL)."""
        shape_a, shape_b = self.shape_a, self.shape_b
        _lib.cpArbiterGetShapes(arb, shape_a, shape_b)
        return shape_a[0], shape_b[0]

    def _install_handlers(self) -> None:
        """Point the world's collision handlers (``_World``) at this move's record-only callbacks."""
        world = self.world
        self.handlers = world.handlers
        # Chipmunk's own callbacks (pymunk 6.9 internals): given back once the move is over (``_detach``)
        self.chipmunk_callbacks = world.chipmunk_callbacks
        self.default_post_solve = world.default_post_solve
        world.move, world.failure = self, None
        for h in self.handlers:
            h._handler.beginFunc = world.on_begin
            h._handler.separateFunc = world.on_separate

    def _detach(self) -> None:
        """Give every handler Chipmunk's own callbacks back: emptying the world for the next move (which ends
        the arbiters left) then calls no Python and records nothing, and the next move starts from Chipmunk's
        own handlers, as in a fresh space."""
        for h, (begin, separate) in zip(self.handlers, self.chipmunk_callbacks, strict=True):
            h._handler.beginFunc = begin
            h._handler.separateFunc = separate
            h._handler.postSolveFunc = self.default_post_solve
        self.world.move = None

    def _begin(self, arb: object) -> bool:
        """A new arbiter: a contact (recorded) or a body meeting a region sensor (ignored by the solver).

        Chipmunk orders a pair's shapes by shape class (circle, segment, poly), so a body's circle
        always comes before a sensor's segment or box."""
        a, b = self._shapes_of(arb)
        sensor = self.sensors.get(b)
        if sensor is None:
            self._begin_contact(arb, a, b)
            return True
        if not self.removing:
            self._region_touch(self.names[a], sensor, 1)
        return False  # sensors need no pre_solve; separate still comes

    def _separate(self, arb: object) -> None:
        """An arbiter ended: a contact (also when the puck is taken off the board) or a region sensor."""
        a, b = self._shapes_of(arb)
        sensor = self.sensors.get(b)
        if sensor is None:
            self._separate_contact(a, b)
        elif not self.removing:
            self._region_touch(self.names[a], sensor, -1)

    def _region_touch(self, body: str, sensor: Sensed, change: int) -> None:
        """A body started (+1) or stopped (-1) overlapping a sensor: count the overlaps of a ``COUNTED`` one;
        either way its regions are resolved after the step (``_resolve_regions``)."""
        how, regions = sensor
        for region in regions:
            key = (body, region)
            if how == COUNTED:
                self.region_count[key] = self.region_count.get(key, 0) + change
            self.dirty[key] = None
        self.after = True

    def _begin_contact(self, arb: object, sa: object, sb: object) -> None:
        """A new contact between the shapes at ``sa`` and ``sb``: note it; its impulse is read once this
        step is solved (``_flush``)."""
        na, nb = self.names[sa], self.names[sb]
        n = _lib.cpArbiterGetNormal(arb)  # from a to b (Arbiter.normal without its Vec2d)
        va, vb = _lib.cpBodyGetVelocity(_lib.cpShapeGetBody(sa)), _lib.cpBodyGetVelocity(_lib.cpShapeGetBody(sb))
        rvx, rvy = va.x - vb.x, va.y - vb.y
        normal_speed = rvx * n.x + rvy * n.y
        approach = (va.x * n.x + va.y * n.y, -(vb.x * n.x + vb.y * n.y))
        pair = _pair(na, nb)
        if pair in self.touching:
            self.touching.discard(pair)
            pre = True
        else:
            pre = False
        if na > nb:
            na, nb, approach = nb, na, (approach[1], approach[0])
        self.pending.append(_Pending(arb, na, nb, pre, abs(normal_speed), math.hypot(rvx, rvy), approach))
        self.after = True

    def _separate_contact(self, sa: object, sb: object) -> None:
        """A contact ended (also when the puck is taken off the board)."""
        a, b = _pair(self.names[sa], self.names[sb])
        self.events.append(Separation(_lib.cpSpaceGetTimestamp(self.cspace), a, b))
        if self.watch_slow:
            self._unwatch(a, b)

    def _resolve_regions(self) -> None:
        """Emit a RegionChange for every marked (body, region) whose membership differs from the last one.

        Resolved once per step, in sorted order, because Chipmunk calls separate callbacks in an order
        that depends on memory addresses, and a region of several sensors (the goal line) can be entered
        through one and left through another in the same step.
        """
        by_predicate = _TRIGGER_REGIONS
        for key in sorted(self.dirty):
            body, region = key
            if region in by_predicate:
                i = self.index[body]
                p = _lib.cpBodyGetPosition(self.built.cbodies[i])
                now = _region_predicate(region)(p.x, p.y, self.built.radii[i])
            else:
                now = self.region_count.get(key, 0) > 0
            was = self.region_state.get(key)
            if was is None:
                was = self._in_region_at_start(body, region)
            self.region_state[key] = now
            if now != was:
                self.events.append(RegionChange(self.step, body, region, now))
        self.dirty.clear()

    def _in_region_at_start(self, body: str, region: str) -> bool:
        """Whether ``body`` overlapped ``region`` at t0: a sensor begin in step 1 is then no change (§4.3)."""
        i = self.index[body]
        if body == PUCK_ID:
            x, y = self.position.puck.x, self.position.puck.y
        else:
            stone = self.position.stones[i]
            x, y = stone.x, stone.y
        return _region_predicate(region)(x, y, self.built.radii[i])

    # ------------------------------------------------------------------ after a step with new contacts
    def _after_step(self) -> None:
        """After a step with transitions: resolve the regions, then the new contacts and their effects.

        Called by the loop when ``after`` is set (a flag test per step is cheaper than pymunk's
        post-step callbacks, which build a closure per registration)."""
        self.after = False
        self.step = _lib.cpSpaceGetTimestamp(self.cspace)
        if self.dirty:
            self._resolve_regions()
        if self.pending:
            self._flush()

    def _flush(self) -> None:
        """Emit the step's new contacts with their impulse, and decide the 2.5-D effects they cause.

        Contacts go in the order of their names so that the draws' keys never depend on callback order."""
        pending, self.pending = self.pending, []
        if len(pending) > 1:
            pending.sort(key=_pending_order)
        threshold = self.settings.contact_impulse_threshold
        impulses = []
        for p in pending:  # read every arbiter before an effect may take a body (and its arbiters) away
            ti, n = _lib.cpArbiterTotalImpulse(p.arbiter), _lib.cpArbiterGetNormal(p.arbiter)
            impulses.append(abs(ti.x * n.x + ti.y * n.y))
        for p, impulse in zip(pending, impulses, strict=True):
            if p.pre_existing and impulse <= threshold:
                self._watch_slowly(p.a, p.b)  # D5: report it once it transmits an impulse
                continue
            self.events.append(Contact(self.step, p.a, p.b, p.pre_existing, impulse, p.normal_speed))
            self.contacts += 1
            if not p.pre_existing and self.settings.effects_2_5d:
                self._effects(p, self.contacts - 1)

    def _watch_slowly(self, a: str, b: str) -> None:
        """A touching pair that transmitted nothing yet: watch its impulse every step with post_solve."""
        if not self.watch_slow:
            for h in self.handlers:
                h._handler.postSolveFunc = self.world.on_post_solve
        self.watch_slow.add((a, b))

    def _unwatch(self, a: str, b: str) -> None:
        """Stop watching a pair; with none left, give the handlers Chipmunk's own post_solve back, so that
        no Python call per contact per step stays on for the rest of the move."""
        self.watch_slow.discard((a, b))
        if not self.watch_slow:
            for h in self.handlers:
                h._handler.postSolveFunc = self.default_post_solve  # pymunk 6.9 has no public way to unset it

    def _post_solve_watch(self, arb: object) -> None:
        """D5, VIII.5: the first step a watched pre-existing contact transmits a normal impulse > ε_J."""
        sa, sb = self._shapes_of(arb)  # a wall has no pymunk shape: by pointer, as Arbiter.shapes orders them
        pair = _pair(self.names[sa], self.names[sb])
        if pair in self.watch_slow:
            ti, n = _lib.cpArbiterTotalImpulse(arb), _lib.cpArbiterGetNormal(arb)
            impulse = abs(ti.x * n.x + ti.y * n.y)
            if impulse > self.settings.contact_impulse_threshold:
                va = _lib.cpBodyGetVelocity(_lib.cpShapeGetBody(sa))
                vb = _lib.cpBodyGetVelocity(_lib.cpShapeGetBody(sb))
                speed = abs((va.x - vb.x) * n.x + (va.y - vb.y) * n.y)
                step = _lib.cpSpaceGetTimestamp(self.cspace)
                self.events.append(Contact(step, pair[0], pair[1], True, impulse, speed))
                self.contacts += 1
                self._unwatch(*pair)

    def _effects(self, p: _Pending, event_index: int) -> None:
        """Product decision 1: VI.3, VI.4, VI.5 for one new contact. The draw is keyed by the seed, the move
        number and ``event_index``, the ordinal of the contact among the move's Contact events."""
        s, pos = self.settings, self.position
        if PUCK_ID in (p.a, p.b):
            if self.index[PUCK_ID] in self.removed:  # already off the board in this step
                return
            other = p.b if p.a == PUCK_ID else p.a
            head = other.split(":", 1)[0]
            # Each effect needs its speed first; a draw is a pure function of its key, so not drawing
            # below that speed changes nothing (and saves a hash for most contacts).
            if head == "board" and p.normal_speed > s.exit_speed_puck:
                angle = effects.impact_angle_deg(p.normal_speed, p.speed)
                u = draw(pos.seed, "exit", pos.move_number, event_index)
                if effects.puck_flies_over(s, p.normal_speed, angle, u):
                    self._take_off(PUCK_ID, other, OFF_BOARD)
            elif head == "frame" and p.normal_speed > s.on_goal_speed:
                u = draw(pos.seed, "on_goal", pos.move_number, event_index)
                if effects.puck_lands_on_goal(s, p.normal_speed, u):
                    self._take_off(PUCK_ID, other, ON_GOAL)
            return
        if p.normal_speed <= s.flip_speed:
            return
        if p.a.split(":", 1)[0] in _STATIC_HEADS or p.b.split(":", 1)[0] in _STATIC_HEADS:
            return
        angle = effects.impact_angle_deg(p.normal_speed, p.speed)
        u = draw(pos.seed, "flip", pos.move_number, event_index)
        if effects.stone_flips(s, p.normal_speed, angle, u):
            stone = effects.struck_body(p.a, p.b, *p.approach)
            i = self.index[stone]
            if self.state[i] == ON_BOARD:
                self.state[i] = UPSIDE_DOWN
                self.events.append(Flipped(self.step, stone))
                self.effects.append(("flip", i))

    def _take_off(self, body: str, against: str, state: int) -> None:
        """VI.5 / VI.3: the body leaves the simulation for the rest of the move (called between steps)."""
        i = self.index[body]
        x, y = self.built.body_position(i)
        if state == OFF_BOARD:
            ex, ey = g.board_contact_point(x, y)
            self.events.append(LeftBoard(self.step, body, ex, ey, against))
            self.removed[i] = (ex, ey)
            self.effects.append(("left_board", i))
        else:
            end = int(against.split(":")[1])
            gx, gy = effects.on_goal_point(end, x, y)
            self.events.append(LandedOnGoal(self.step, body, end, gx, gy))
            self.removed[i] = (gx, gy)
            self.effects.append((f"on_goal:{end}", i))
        self.state[i] = state
        pivot, gear = self.built.constraints[i]
        # Separate callbacks fire here: its contacts end (Separation), its regions stay as they were.
        self.removing = True
        _lib.cpSpaceRemoveConstraint(self.cspace, pivot)  # the calls (and order) of pymunk's Space.remove
        _lib.cpSpaceRemoveConstraint(self.cspace, gear)
        _lib.cpSpaceRemoveShape(self.cspace, self.built.shapes[i])
        _lib.cpSpaceRemoveBody(self.cspace, self.built.cbodies[i])
        self.removing = False

    # ------------------------------------------------------------------ the loop
    def run(self) -> MoveRecord:
        """Step to rest (D4) or the cap, then empty the world for the next move and judge the position at rest."""
        s = self.settings
        frame_steps = max(1, s.step_hz // s.keyframe_hz)
        try:
            raw, floats, capped = self._step_to_rest(frame_steps)
        finally:
            self._detach()
            self.world.unload(self.built, self.step)
        if self.world.failure is not None:
            raise self.world.failure
        self.events.sort(key=_event_order)  # a canonical order inside each step (D6: the order is informative)
        self.events.append(AtRest(self.step, capped))
        final, interventions = self._referee(memoryview(floats).cast("d").tolist())
        return MoveRecord(
            bodies=self.built.bodies,
            events=tuple(self.events),
            steps=self.step,
            step_hz=s.step_hz,
            frame_steps=frame_steps,
            keyframes=self._keyframes(raw),
            final=final,
            interventions=interventions,
        )

    def _step_to_rest(self, frame_steps: int) -> tuple[list[tuple[bytes, tuple[int, ...]]], bytes, bool]:
        """Step to rest (D4) or the cap, keyframing every ``frame_steps`` steps: the keyframes' raw floats and
        states, the last floats, and whether the cap ended the move.

        Cost (the project's budget is 1.25x a bare loop of the same steps): a keyframe is one
        ``pymunk.batch`` read, one copy of its bytes and the rest check on them; keyframes are quantised
        only once the move is over (``_keyframes``).
        """
        s = self.settings
        dt = 1.0 / s.step_hz
        rest_frames = math.ceil(s.rest_ms * s.step_hz / (1000 * frame_steps))
        cap = s.move_cap_ms * s.step_hz // 1000
        # Chipmunk's step without pymunk's wrapper (about 1.3 us a step: the lock flag, post-step lists and
        # callbacks this move never uses; nothing is added or removed during a step, and bodies are taken
        # off between steps): the same cpSpaceStep call, so the same results.
        step, cspace = _lib.cpSpaceStep, self.cspace
        reader = self.world.reader
        read = reader.read
        rest_v2, rest_w = s.rest_speed * s.rest_speed, s.rest_spin
        raw: list[tuple[bytes, tuple[int, ...]]] = []  # per keyframe: the live bodies' floats and their states
        quiet = 0
        capped = False
        hint = 3  # where the rest check looks first: the last body found moving usually still is
        count, removed = len(self.built.bodies), self.removed
        # x, y, angle, vx, vy, ω per body still in the space, in ``bodies`` order: the puck is last, so
        # taking it out never reorders the stones
        floats = read(count)
        states = tuple(self.state)
        raw.append((floats, states))
        # ``read`` inlined for the frames: the array never moves after the first read (bodies only leave)
        array, each_body, each, args, view = reader.floats, _lib.cpSpaceEachBody, reader.each, reader.args, reader.view
        assert view is not None  # made by the first read
        size = 48 * count
        velocity = _VELOCITY.unpack_from
        while True:
            base = self.step
            worked = False  # a step's callbacks left work: bodies' states may have changed, a body may have left
            if self.probe:
                for k in range(frame_steps):
                    self.step = base + k + 1
                    step(cspace, dt)
                    if self.after:
                        self._after_step()
                        worked = True
                    after = read(count - len(removed))
                    self._measure_travel(floats, after)
                    floats = after
            else:
                for _ in range(frame_steps):
                    step(cspace, dt)
                    if self.after:
                        self._after_step()
                        worked = True
                self.step = base + frame_steps
            if worked:
                states, size = tuple(self.state), 48 * (count - len(removed))
            array.num = 0
            each_body(cspace, each, args)
            floats = view[:size]
            raw.append((floats, states))
            moving = False
            if 8 * hint < size:
                vx, vy, w = velocity(floats, 8 * hint)
                moving = vx * vx + vy * vy > rest_v2 or w > rest_w or -w > rest_w
            if not moving:
                data = memoryview(floats).cast("d")
                for j in range(3, len(data), 6):
                    vx, vy, w = data[j], data[j + 1], data[j + 2]
                    if vx * vx + vy * vy > rest_v2 or w > rest_w or -w > rest_w:
                        moving, hint = True, j
                        break
            quiet = 0 if moving else quiet + 1
            if quiet > rest_frames:
                break
            if self.step >= cap:
                capped = True
                break
        return raw, floats, capped

    def _keyframes(self, raw: list[tuple[bytes, tuple[int, ...]]]) -> tuple[tuple[int, ...], ...]:
        """The keyframes: (x, y, angle, state) per body, x/y in 0.01 mm, angle in mrad (events.MoveRecord).

        A body missing from a frame's floats has been taken off the board (the puck is always last, so
        only the tail can be missing) and lies where ``removed`` says. Most bodies lie still in most
        frames, so a frame equal to the previous one, or a body whose bytes and state are unchanged,
        reuses the ints already computed.
        """
        count, removed = len(self.built.bodies), self.removed
        unpack = _XYA.unpack_from
        keys: tuple[bytes, ...] = (b"",) * count  # per body: the bytes of x, y, angle its ints were made from
        current = [0] * (4 * count)  # the frame being built, starting from the previous one
        frames: list[tuple[int, ...]] = []
        previous: tuple[bytes, tuple[int, ...]] | None = None
        last_live = count
        for entry in raw:
            if entry == previous:
                frames.append(frames[-1])
                continue
            previous = entry
            floats, state = entry
            live = len(floats) // 48
            if live < last_live:
                for i in range(live, count):
                    x, y = removed[i]
                    current[4 * i:4 * i + 3] = (round(x * 100), round(y * 100), 0)
                last_live = live
                keys = keys[:live]
            now = _body_keys(live).unpack(floats)  # every body's 24 bytes in one call, compared in C below
            for i in compress(range(live), map(ne, now, keys)):
                x, y, a = unpack(floats, 48 * i)
                current[4 * i:4 * i + 3] = (round(x * 100), round(y * 100), round(a * 1000))
            keys = now
            current[3::4] = state
            frames.append(tuple(current))
        return tuple(frames)

    def _measure_travel(self, before: bytes, after: bytes) -> None:
        """Probe mode only: the largest distance any body moved in the last step (batch reads of both)."""
        a, b = memoryview(before).cast("d"), memoryview(after).cast("d")
        for j in range(0, min(len(a), len(b)), 6):
            d = math.hypot(b[j] - a[j], b[j + 1] - a[j + 1])
            if d > self.max_travel:
                self.max_travel = d

    # ------------------------------------------------------------------ at rest
    def _referee(self, data: Sequence[float]) -> tuple[tuple[BodyState, ...], tuple[Intervention, ...]]:
        """The final position: settled and quantised, then the 2.5-D interventions (VI.3-VI.5)."""
        b = self.built
        on_board = [i for i in range(len(b.bodies)) if i not in self.removed]
        settled = effects.settle([(data[6 * i], data[6 * i + 1], b.radii[i]) for i in on_board])
        where: dict[int, tuple[float, float]] = dict(zip(on_board, settled, strict=True))
        interventions: list[Intervention] = []
        for kind, i in self.effects:
            placed = [(x, y, b.radii[k]) for k, (x, y) in where.items()]
            if kind == "flip":  # VI.4: turned over in place
                x, y = where[i]
                interventions.append(Intervention("FLIP", b.bodies[i], x, y, "FLIPPED"))
                continue
            ox, oy = self.removed[i]
            if kind == "left_board":  # VI.5: back touching the board where it left
                tx, ty = effects.respot_left_board(ox, oy, b.radii[i])
                reason = "LEFT_BOARD"
            else:  # VI.3: behind the goal it lay on
                tx, ty = effects.respot_on_goal(int(kind.split(":")[1]), oy, b.radii[i])
                reason = "ON_GOAL"
            x, y = effects.nearest_free_spot(placed, tx, ty, b.radii[i])
            where[i] = (x, y)
            interventions.append(Intervention("RESPOT", b.bodies[i], x, y, reason))
        final = tuple(BodyState(name, *where[i]) for i, name in enumerate(b.bodies))
        return final, tuple(interventions)


_STATIC_HEADS = ("board", "frame", "net")
_TRIGGER_REGIONS = frozenset(r for _, regions, how, _ in region_sensors() if how == TRIGGER for r in regions)


def _pending_order(p: _Pending) -> tuple[str, str]:
    """Sort key of a step's new contacts: by their names (``_Move._flush``)."""
    return (p.a, p.b)


def _event_order(event: Event) -> tuple[int | str | bool, ...]:
    """Sort key: by step, then contacts and their effects in emission order (``sort`` is stable), then
    separations and region changes by their fields, so callback order never shows in the record."""
    if isinstance(event, Separation):
        return (event.step, 1, event.a, event.b)
    if isinstance(event, RegionChange):
        return (event.step, 2, event.body, event.region, event.inside)
    return (event.step, 0)


@cache
def _body_keys(bodies: int) -> struct.Struct:
    """Splits a batch read of ``bodies`` bodies into each body's x, y and angle bytes (``_Move._keyframes``)."""
    return struct.Struct("24s24x" * bodies)


def _pair(a: str, b: str) -> tuple[str, str]:
    """Two body names in sorted order (events.Contact)."""
    return (a, b) if a < b else (b, a)


def _exact_pair(e: float, u: float) -> Callable[[pymunk.Arbiter, pymunk.Space, object], bool]:
    """A pre_solve that sets one pair's restitution and friction exactly (only when products cannot)."""

    def pre_solve(arb: pymunk.Arbiter, space: pymunk.Space, data: object) -> bool:
        """Set the pair's exact restitution and friction; the contact is then solved as usual."""
        arb.restitution = e
        arb.friction = u
        return True

    return pre_solve


@cache
def _region_predicate(region: str) -> Callable[[float, float, float], bool]:
    """The geometry predicate a region sensor stands for (the closed regions of shared.geometry)."""
    head, _, tail = region.partition(":")
    end = int(tail) if tail else 0
    table: dict[str, Callable[[float, float, float], bool]] = {
        "crease": lambda x, y, r: g.in_crease(x, y, r, end),
        "aux": lambda x, y, r: g.touches_aux_line(x, y, r, end),
        "goal_line": lambda x, y, r: g.touches_goal_line(x, y, r, end),
        "goal_line_outside": lambda x, y, r: g.touches_goal_line_outside_mouth(x, y, r, end),
        "half": lambda x, y, r: g.in_half(x, y, r, end),
    }
    return table[head]


# --------------------------------------------------------------------------- the public API


def simulate(position: Position, flick: Flick, settings: Settings, *, reuse: bool = True) -> MoveRecord:
    """Simulate one flick from ``position`` to rest (D3, D4) and return its MoveRecord (shared.events).

    The 2.5-D draws are keyed by ``position.seed``, ``position.move_number`` and the index of the
    contact event that caused them. A flick faster than ``max_flick_speed`` is slowed to it. ``reuse``
    False simulates in a space made for this move instead of this thread's reused one: the same record,
    at the cost of building it (``sprtec bench physics`` shows both).
    """
    return _Move(position, flick, settings, reuse=reuse).run()


def rested_position(position: Position, record: MoveRecord) -> Position:
    """``position`` with every body where ``record`` leaves it (after the 2.5-D interventions, D4; a flipped
    stone turned back in place, VI.4) and the move number advanced; no referee decisions. The position the
    referee judges a move from (``adjudicate.judge_move``, a penalty-shot move), and chained moves in tests,
    benches and the bot."""
    final = {b.id: b for b in record.final}
    stones = tuple(
        Stone(s.id, s.team, s.role, final[s.id].x, final[s.id].y) if s.id in final else s for s in position.stones
    )  # VI.4: turned back (not flipped); built directly, as ``Stone.at`` is
    puck = final.get(PUCK_ID)
    return replace(
        position,
        stones=stones,
        puck=Puck(puck.x, puck.y) if puck else position.puck,
        move_number=position.move_number + 1,
    )


def simulate_probed(position: Position, flick: Flick, settings: Settings) -> tuple[MoveRecord, float]:
    """``simulate`` stepping one step at a time, also returning the largest distance (mm) any body moved
    in one step. For tests of the no-tunnelling bound; the result is the same MoveRecord."""
    move = _Move(position, flick, settings, probe=True)
    record = move.run()
    return record, move.max_travel

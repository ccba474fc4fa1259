"""Named rulesets and their settings: every number and choice of RULES.md that is not a law of geometry.

Why: product decision 2 of RULES.md makes every PROPOSAL and ASSUMPTION a named, documented setting,
and product decision 6 names five rulesets. A match stores its ruleset name and its overrides, so a
position (and so a replay) always knows the exact numbers it was played with. Settings are one frozen
dataclass: the field name is the setting's name everywhere (JSON positions, ``--setting k=v``, the
docs table), and the field's docstring-comment is its documentation.

Units: mm, g, s for the physics (pymunk runs in these units), ms for clocks.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

RULESETS = ("standard", "ko", "final", "strict", "quick")


class SettingsError(ValueError):
    """An unknown setting name, a value of the wrong type, or an unknown ruleset."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """All settings of a match. Comments give the rule or assumption each one comes from."""

    # --- equipment (RULES.md §2, E1) -------------------------------------------------------
    stone_radius: float = 16.0  # Ø 32 mm field stones and goalie (ASSUMPTION, §2)
    stone_mass: float = 6.0  # g
    puck_radius: float = 8.5  # Ø 17 mm, derived from the auxiliary-line geometry (§2)
    puck_mass: float = 0.7  # g
    # --- table and contacts (§2, ASSUMPTION: calibrate against video) -----------------------
    gravity: float = 9810.0  # mm/s²
    table_friction: float = 0.25  # μ of stones and puck sliding on the board: a = μ·g
    table_spin_friction: float = 0.25  # μ for turning on the spot (rotational friction torque)
    restitution_stone_stone: float = 0.75  # bounce of two stones (1 = elastic)
    restitution_puck_stone: float = 0.75  # bounce of the puck off a stone
    restitution_board: float = 0.55  # stone or puck against a board
    restitution_frame: float = 0.5  # against a goal frame (I.4)
    restitution_net: float = 0.1  # against the loosely hanging net (I.4)
    friction_stone_stone: float = 0.3  # surface friction between touching bodies
    friction_puck_stone: float = 0.3  # surface friction between the puck and a stone
    friction_board: float = 0.2  # surface friction against a board
    friction_frame: float = 0.2  # surface friction against a goal frame
    friction_net: float = 0.6  # surface friction against a net
    # --- simulation (docs/ARCHITECTURE.md "Physics facts"; every one changes results, so they are pinned) -------
    step_hz: int = 480  # fixed step 1/480 s
    solver_iterations: int = 10  # pymunk solver iterations per step
    collision_slop: float = 0.1  # mm
    keyframe_hz: int = 60  # keyframes per second in a move record (playback, XV.13e checks)
    flick_speed_min: float = 20.0  # mm/s (VII.1: every move moves the stone)
    flick_speed_max: float = 3000.0  # mm/s (§2 v_max; keeps every body under 12 mm per step)
    max_step_travel: float = 12.0  # mm: no body may move more than this in one step (no tunnelling)
    rest_speed: float = 1.0  # D4: mm/s
    rest_spin: float = 0.05  # D4: rad/s
    rest_ms: int = 50  # D4: at rest for this long
    move_cap_ms: int = 30_000  # D4 safety cap: force rest after this much simulated time
    contact_impulse_threshold: float = 1e-3  # D5 ε_J in g·mm/s (= 1e-6 g·m/s)
    contact_touch_gap: float = 0.05  # D5: bodies at most this far apart at t0 are touching (a contact that existed)
    # --- the 2.5-D referee effects (product decision 1, VI.3-VI.5) ----------------------------
    effects_2_5d: bool = True  # turns every 2.5-D effect on or off
    exit_speed_puck: float = 2800.0  # VI.5: normal impact speed on a board above which the puck may fly over
    exit_chance_puck: float = 0.35  # VI.5: chance the puck does fly over, once above the threshold
    exit_min_angle_deg: float = 35.0  # VI.5: a grazing hit (angle to the board below this) never lifts it
    flip_speed: float = 1800.0  # VI.4: relative normal speed of a stone-stone impact that can flip a stone
    flip_chance: float = 0.25  # VI.4: chance the hit stone turns upside down, once above the threshold
    flip_min_angle_deg: float = 60.0  # VI.4: only steep (near head-on) impacts flip a stone
    on_goal_speed: float = 2200.0  # VI.3: puck impact speed on a goal frame that can lift it onto the goal
    on_goal_chance: float = 0.3  # VI.3: chance the puck then lands on top of the goal
    # --- time (III, D14, A34, A35) -------------------------------------------------------------
    periods: int = 3  # III.1
    period_ms: int = 360_000  # III.1: 6 minutes
    break_ms: int = 30_000  # III.5
    overtime_ms: tuple[int, ...] = ()  # III.2, III.4: overtime parts (empty: a draw stands)
    shootout: bool = False  # III.3, XV.16: a shoot-out decides a draw after overtime
    shootout_series: int = 3  # XV.16 (5 in the final, III.4)
    shootout_shot_ms: int = 15_000  # XV.18
    move_clock_ms: int = 30_000  # A35 house rule: time to make a move; 0 = no move clock
    disconnect_grace_ms: int = 60_000  # product decision 5 house rule: then the absent coach forfeits
    choice_timeout_ms: int = 10_000  # A33, A47, XI.3: time a coach has for a prompted choice before its default applies
    # --- fouls, privileges, exclusions (VIII, IX, X) -------------------------------------------
    privilege_moves: int = 2  # VIII.1: the offended team's consecutive moves
    privilege_cap: int = 3  # VIII.7: the most consecutive moves one move's penalties can give
    min_field_stones: int = 3  # X.2: never fewer field stones than this
    simultaneous_steps: int = 1  # D6, A8: contacts within this many steps are simultaneous (1 = same step)
    goalie_exclusion_default: str = "farthest_from_puck"  # A47: which field stone goes when the coach does not name one
    own_goal_cancels_fouls: bool = False  # product decision 3 (A14)
    # --- setups (IV, XIII, XVI.2) --------------------------------------------------------------
    field_stones: int = 5  # II.1: field stones at the start of a period
    overtime_field_stones: int = 3  # XVI.2
    # --- activity rule (XI) --------------------------------------------------------------------
    activity_limit: int = 5  # XI.1
    activity_limit_losing: int = 4  # XI.2 (A20: judged when counting starts)
    activity_auto_count: bool = False  # XI.3 / A23: the simplified one-click variant instead of counting each move
    # --- penalty shots (XV) --------------------------------------------------------------------
    penalty_moves: int = 3  # XV.12
    penalty_backward: str = "fail"  # XV.13h / A27: "fail" or "reject" a backward flick

    def to_overrides(self, base: Settings | None = None) -> dict[str, Any]:
        """The settings that differ from ``base`` (the ruleset's defaults), by name."""
        base = base or Settings()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }


SETTING_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Settings))
_FIELD_TYPES: dict[str, Any] = {f.name: f.type for f in fields(Settings)}


def ruleset_defaults(ruleset: str) -> Settings:
    """The settings of a named ruleset before overrides (product decision 6)."""
    base = Settings()
    if ruleset == "standard":
        return base
    if ruleset == "ko":  # III.2-3, XVI.1a: 3-minute sudden-death overtime, then a shoot-out of 3
        return replace(base, overtime_ms=(180_000,), shootout=True, shootout_series=3)
    if ruleset == "final":  # III.4, XVI.1b: 3 + 6 minutes of overtime, then a shoot-out of 5
        return replace(base, overtime_ms=(180_000, 360_000), shootout=True, shootout_series=5)
    if ruleset == "strict":  # the original without house rules: no move clock, no 2.5-D model
        return replace(base, move_clock_ms=0, effects_2_5d=False)
    if ruleset == "quick":  # one 5-minute period, for casual play and tests
        return replace(base, periods=1, period_ms=300_000)
    raise SettingsError(f"unknown ruleset {ruleset!r}; expected one of {', '.join(RULESETS)}")


def coerce_setting(name: str, value: Any) -> Any:
    """Check and convert one override to the setting's type, or raise ``SettingsError`` naming it.

    Accepts the JSON forms (numbers, booleans, lists) and, for ``--setting k=v``, strings.
    """
    if name not in _FIELD_TYPES:
        raise SettingsError(f"unknown setting {name!r}")
    kind = _FIELD_TYPES[name]
    coerce = _COERCERS.get(kind)
    if coerce is None:
        raise SettingsError(f"setting {name!r} has an unsupported type {kind}")  # pragma: no cover
    if kind == "tuple[int, ...]" and isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]  # --setting overtime_ms=180000,360000
    try:
        return coerce(value)
    except (TypeError, ValueError):
        raise SettingsError(f"setting {name!r} expects a {kind}, not {value!r}") from None


def _as_bool(value: Any) -> bool:
    """A boolean, or one of the words ``--setting`` takes for it (1/true/yes/on, 0/false/no/off)."""
    if isinstance(value, str):
        if value.lower() in ("1", "true", "yes", "on"):
            return True
        if value.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(value)
    if not isinstance(value, bool):
        raise ValueError(value)
    return value


def _as_int(value: Any) -> int:
    """An integer, from an int, a whole float or a numeric string; never a boolean."""
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, float) and not value.is_integer():
        raise ValueError(value)
    return int(value)


def _as_float(value: Any) -> float:
    """A finite number, from an int, a float or a numeric string; never a boolean."""
    if isinstance(value, bool):
        raise ValueError(value)
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(value)
    return number


def _as_str(value: Any) -> str:
    """A string as it is."""
    if not isinstance(value, str):
        raise ValueError(value)
    return value


def _as_int_tuple(value: Any) -> tuple[int, ...]:
    """A list of integers (``coerce_setting`` has split a ``--setting`` string at its commas)."""
    if not isinstance(value, list | tuple):
        raise ValueError(value)
    return tuple(int(v) for v in value)


_COERCERS: dict[str, Callable[[Any], object]] = {
    "bool": _as_bool,
    "int": _as_int,
    "float": _as_float,
    "str": _as_str,
    "tuple[int, ...]": _as_int_tuple,
}


# The range each setting must lie in to make sense (inclusive bounds; for strings the allowed values). Why: a room's
# overrides come from the network, and a negative break, a zero step or a period of a thousand years must be refused
# with the setting's name, not crash a worker or freeze a room. docs/settings.md and docs/PROTOCOL.md list them.
Range = tuple[float, float] | tuple[str, ...]
SETTING_RANGES: dict[str, Range] = {
    "stone_radius": (5.0, 40.0), "stone_mass": (0.1, 1000.0), "puck_radius": (3.0, 30.0), "puck_mass": (0.01, 100.0),
    "gravity": (100.0, 100_000.0), "table_friction": (0.0, 2.0), "table_spin_friction": (0.0, 2.0),
    "restitution_stone_stone": (0.0, 1.0), "restitution_puck_stone": (0.0, 1.0), "restitution_board": (0.0, 1.0),
    "restitution_frame": (0.0, 1.0), "restitution_net": (0.0, 1.0), "friction_stone_stone": (0.0, 2.0),
    "friction_puck_stone": (0.0, 2.0), "friction_board": (0.0, 2.0), "friction_frame": (0.0, 2.0),
    "friction_net": (0.0, 2.0), "step_hz": (120, 4800), "solver_iterations": (1, 100), "collision_slop": (0.0, 5.0),
    "keyframe_hz": (10, 240), "flick_speed_min": (1.0, 1000.0), "flick_speed_max": (100.0, 6000.0),
    "max_step_travel": (1.0, 20.0), "rest_speed": (0.01, 50.0), "rest_spin": (0.001, 5.0), "rest_ms": (10, 1000),
    "move_cap_ms": (1000, 120_000), "contact_impulse_threshold": (0.0, 10.0), "contact_touch_gap": (0.0, 2.0),
    "exit_speed_puck": (0.0, 10_000.0), "exit_chance_puck": (0.0, 1.0), "exit_min_angle_deg": (0.0, 90.0),
    "flip_speed": (0.0, 10_000.0), "flip_chance": (0.0, 1.0), "flip_min_angle_deg": (0.0, 90.0),
    "on_goal_speed": (0.0, 10_000.0), "on_goal_chance": (0.0, 1.0),
    "periods": (1, 9), "period_ms": (100, 3_600_000), "break_ms": (0, 600_000), "overtime_ms": (100, 3_600_000),
    "shootout_series": (1, 20), "shootout_shot_ms": (100, 600_000), "move_clock_ms": (0, 600_000),
    "disconnect_grace_ms": (100, 3_600_000), "choice_timeout_ms": (100, 600_000),
    "privilege_moves": (1, 3), "privilege_cap": (1, 5), "min_field_stones": (1, 5), "simultaneous_steps": (1, 8),
    "goalie_exclusion_default": ("farthest_from_puck", "nearest_to_puck"),
    "field_stones": (3, 5), "overtime_field_stones": (3, 5),
    "activity_limit": (1, 20), "activity_limit_losing": (1, 20), "penalty_moves": (1, 10),
    "penalty_backward": ("fail", "reject"),
}
MAX_OVERTIME_PARTS = 4


def range_text(name: str) -> str:
    """A setting's range as the docs write it (``0–600000``, ``fail | reject``, ``on/off``)."""
    allowed = SETTING_RANGES.get(name)
    if allowed is None:
        return "on/off"
    if isinstance(allowed[0], str):
        return " \\| ".join(str(v) for v in allowed)
    lo, hi = (int(v) if float(v).is_integer() else v for v in allowed)
    extra = " (0: none, else ≥ 100)" if name == "move_clock_ms" else ""
    extra += f" each, at most {MAX_OVERTIME_PARTS} parts" if name == "overtime_ms" else ""
    return f"{lo}–{hi}{extra}"


def check_sense(settings: Settings) -> None:
    """Raise ``SettingsError`` for a setting outside its range or settings that contradict each other."""
    for name, allowed in SETTING_RANGES.items():
        value = getattr(settings, name)
        values = value if isinstance(value, tuple) else (value,)
        for item in values:
            if isinstance(allowed[0], str):
                if item not in allowed:
                    raise SettingsError(f"setting {name!r} must be one of {', '.join(map(str, allowed))}, not {item!r}")
            elif not allowed[0] <= item <= allowed[1]:
                raise SettingsError(f"setting {name!r} must be within {allowed[0]:g} to {allowed[1]:g}, not {item!r}")
    if len(settings.overtime_ms) > MAX_OVERTIME_PARTS:
        raise SettingsError(f"setting 'overtime_ms' has at most {MAX_OVERTIME_PARTS} parts")
    if 0 < settings.move_clock_ms < 100:
        raise SettingsError("setting 'move_clock_ms' is 0 (no move clock) or at least 100 ms")
    if settings.flick_speed_min >= settings.flick_speed_max:
        raise SettingsError("setting 'flick_speed_min' must be below 'flick_speed_max'")
    if settings.flick_speed_max / settings.step_hz > settings.max_step_travel:
        raise SettingsError("settings 'flick_speed_max' and 'step_hz' would let a body travel more than "
                            "'max_step_travel' in one step (tunnelling): lower the speed or raise step_hz")
    if settings.privilege_moves > settings.privilege_cap:
        raise SettingsError("setting 'privilege_moves' cannot exceed 'privilege_cap' (VIII.7)")
    if settings.min_field_stones > min(settings.field_stones, settings.overtime_field_stones):
        raise SettingsError("setting 'min_field_stones' cannot exceed the field stones a part starts with (X.2)")


def make_settings(ruleset: str = "standard", overrides: dict[str, Any] | None = None) -> Settings:
    """The settings of ``ruleset`` with ``overrides`` applied, every override checked by name, type and sense."""
    base = ruleset_defaults(ruleset)
    if not overrides:
        return base
    changes = {name: coerce_setting(name, value) for name, value in sorted(overrides.items())}
    settings = dataclasses.replace(base, **changes)
    check_sense(settings)
    return settings

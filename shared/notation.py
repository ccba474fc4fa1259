"""The JSON notation of positions, actions, scenarios and results (SCENARIOS.md, an external contract).

Why a module of its own: it is the project's "FEN and PGN". Rule tests start from positions in this form, bug
reports are scenarios, the server logs and sends actions in it, and ``sprtec scenario`` prints results in it.
Reading fills in every default of SCENARIOS.md (missing ``stones`` -> the basic setup of ``shared.formation``,
missing ``part`` -> period 1 with the ruleset's full time, missing ``first_starter`` -> the team to move at the
opening face-off, else the seed's lot (``setup.first_period_starter``, V.2) …) and validates everything, raising
``NotationError`` with a message that names the offending field or body. Writing is canonical: the documented
fields in the documented order, then every further field of ``Position`` in dataclass order, floats quantised to
0.01 mm, stones in id order (``h1``…``h7``, ``a1``…``a7``), ``flipped`` only when true, the per-team pairs
(``score``, ``excluded``, ``deferred``) as ``{"home": …, "away": …}`` objects and ``settings`` as an object.

Fields beyond SCENARIOS.md are handled generically from their type hints (dataclasses, tuples, Optional,
Literal, bool/int/float/str), so the referee can add state to ``Position`` without changing this module: such
a field round-trips as long as its type is built from those pieces.

Actions are written and read exactly (no quantisation): a logged action must replay to the same move.

Scenarios may also hold clock events beside the actions (``elapse``, ``timeout``, ``forfeit``; ``shared.model``
"clock and house-rule events", docs/SCENARIOS-EXTENSIONS.md) and the flag ``timed``: that is what lets a match
log be written as a scenario that replays exactly. ``action_from_json`` still reads coach actions only (it is
what the protocol's ``Act`` decodes with, so no client can send a clock event); ``event_from_json`` reads
either. ``log_entry_events`` turns one server log entry into the events it stands for.
"""

from __future__ import annotations

import dataclasses
import json
import math
import types
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, NoReturn, Union, get_args, get_origin, get_type_hints

from shared import formation, geometry
from shared.identity_memo import IdentityMemo
from shared.model import (
    ACTION_TYPES,
    ALL_STONE_IDS,
    SCENARIO_EVENT_TYPES,
    TEAMS,
    Action,
    ClockEvent,
    Elapse,
    Forfeit,
    Part,
    Position,
    Stone,
    Timeout,
    team_of_id,
)
from shared.outcome import ActionResult
from shared.referee.overtime import field_stones
from shared.referee.setup import first_period_starter
from shared.rulesets import Settings, SettingsError, coerce_setting, make_settings

POSITION_FORMAT = "sprtec-position/1"
SCENARIO_FORMAT = "sprtec-scenario/1"
RESULT_FORMAT = "sprtec-scenario-result/1"
ERROR_FORMAT = "sprtec-scenario-error/1"
# SCENARIOS.md "Position", in its order; the writer puts every other Position field after these.
DOCUMENTED_FIELDS: tuple[str, ...] = (
    "ruleset", "settings", "seed", "move_number", "home_end", "to_move", "score", "part", "restart",
    "privilege", "stones", "puck", "excluded", "deferred", "first_starter",
)
QUANTUM_DECIMALS = 2  # positions are written to 0.01 mm (docs/ARCHITECTURE.md "Integers at the edges")


class NotationError(ValueError):
    """A position, action or scenario that cannot be read: the message names the field (``path``) or ``body``.

    ``code`` says which part failed: ``INVALID_JSON``, ``INVALID_POSITION``, ``INVALID_ACTION`` or
    ``INVALID_SCENARIO``. ``to_json`` is the error object ``sprtec scenario`` prints.
    """

    def __init__(self, message: str, *, path: str = "", body: str | None = None, code: str = "") -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.body = body
        self.code = code

    def to_json(self) -> dict[str, Any]:
        """``{"code", "message", "path"?, "body"?}``: what went wrong and where."""
        out: dict[str, Any] = {"code": self.code or "INVALID_SCENARIO", "message": str(self)}
        if self.path:
            out["path"] = self.path
        if self.body is not None:
            out["body"] = self.body
        return out


ScenarioEntry = Action | ClockEvent  # what a scenario's "actions" list may hold


@dataclass(frozen=True, slots=True)
class Scenario:
    """SCENARIOS.md "Scenario": a position and the actions (and clock events) to apply to it in order.

    ``timed`` (an addition, docs/SCENARIOS-EXTENSIONS.md): time passes only by moves and the scenario's
    ``elapse`` events - ``sprtec scenario`` then waits out no break by itself. An export sets it, because its
    events already say how long every break lasted and a setup may be placed during one. ``players`` (an addition
    too): the names of the coaches of an exported match, for replays; it changes nothing in the fold.
    """

    position: Position
    actions: tuple[ScenarioEntry, ...] = ()
    timed: bool = False
    players: tuple[str, str] | None = None  # (home, away) coaches' names of an exported match (EXTENSIONS)


# =========================================================================== JSON text


def loads(text: str | bytes) -> Any:
    """Parse JSON text strictly: no NaN/Infinity, no duplicate keys (``NotationError`` code ``INVALID_JSON``)."""

    def constant(name: str) -> Any:
        """Refuse NaN and the infinities, which JSON does not have."""
        raise NotationError(f"non-finite number {name} is not allowed", code="INVALID_JSON")

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        """An object from its key-value pairs, refusing a key given twice (json keeps the last silently)."""
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise NotationError(f"duplicate key {key!r}", code="INVALID_JSON")
            out[key] = value
        return out

    try:
        return json.loads(text, parse_constant=constant, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        raise NotationError(f"not valid JSON: {exc}", code="INVALID_JSON") from None
    except UnicodeDecodeError as exc:
        raise NotationError(f"not UTF-8 text: {exc}", code="INVALID_JSON") from None


def dumps(value: Any, *, pretty: bool = False) -> str:
    """JSON text of a value built by this module (``pretty``: indented by two spaces)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=2 if pretty else None)


def _document(data: dict[str, Any] | str | bytes, code: str) -> dict[str, Any]:
    """The JSON object given as a dict or as text."""
    value = loads(data) if isinstance(data, str | bytes) else data
    if not isinstance(value, dict):
        raise NotationError(f"expected a JSON object, not {_kind(value)}", code=code)
    return value


# =========================================================================== generic values from type hints


@cache
@cache
def _hints(cls: type) -> dict[str, Any]:
    """The resolved type hints of a dataclass (``from __future__ import annotations`` leaves strings), resolved once
    per class (a position's conversion asked for them per stone); read only."""
    return get_type_hints(cls)


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names in field order, read once per class."""
    return tuple(f.name for f in dataclasses.fields(cls))


def _kind(value: Any) -> str:
    """A JSON-ish name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _quantise(value: float) -> float:
    """A float on the 0.01 mm grid (``-0.0`` normalised to ``0.0``)."""
    return round(value, QUANTUM_DECIMALS) + 0.0


def _decode(raw: Any, hint: Any, path: str, exact: bool) -> Any:
    """The Python value of JSON ``raw`` for type ``hint``, or ``NotationError`` naming ``path``.

    ``exact`` False quantises floats to 0.01 mm (positions); True keeps them (actions).
    """
    if hint is Any or hint is object:
        return _freeze(raw, path)
    origin = get_origin(hint)
    if origin is Literal:
        return _decode_literal(raw, get_args(hint), path)
    if origin is Union or origin is types.UnionType:
        return _decode_union(raw, get_args(hint), path, exact)
    if origin is tuple:
        return _decode_tuple(raw, get_args(hint), path, exact)
    if hint is bool:
        return _decode_bool(raw, path)
    if hint is int:
        return _decode_int(raw, path)
    if hint is float:
        return _decode_float(raw, path, exact)
    if hint is str:
        return _decode_str(raw, path)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _decode_dataclass(raw, hint, path, exact)
    raise NotationError(f"unsupported field type {hint!r}", path=path)  # a Position field this module cannot read


def _decode_literal(raw: Any, choices: tuple[Any, ...], path: str) -> Any:
    """One of a ``Literal``'s values, equal in value and in JSON type (``1`` is not ``true``)."""
    if any(raw == choice and type(raw) is type(choice) for choice in choices):
        return raw
    raise NotationError(f"expected one of {', '.join(json.dumps(a) for a in choices)}, not {json.dumps(raw)}",
                        path=path)


def _decode_union(raw: Any, members: tuple[Any, ...], path: str, exact: bool) -> Any:
    """``null`` for an optional type, else the first member type that reads ``raw`` (every failure listed)."""
    options = [a for a in members if a is not type(None)]
    if raw is None:
        if len(options) < len(members):
            return None
        raise NotationError("must not be null", path=path)
    if len(options) == 1:
        return _decode(raw, options[0], path, exact)
    problems = []
    for option in options:
        try:
            return _decode(raw, option, path, exact)
        except NotationError as exc:
            problems.append(str(exc))
    raise NotationError(f"matches none of its types ({'; '.join(problems)})", path=path)


def _decode_tuple(raw: Any, items: tuple[Any, ...], path: str, exact: bool) -> tuple[Any, ...]:
    """A JSON list as a tuple: any length for ``tuple[T, ...]``, exactly the arity of a fixed tuple."""
    if not isinstance(raw, list):
        raise NotationError(f"expected a list, not {_kind(raw)}", path=path)
    if len(items) == 2 and items[1] is Ellipsis:
        return tuple(_decode(item, items[0], f"{path}[{i}]", exact) for i, item in enumerate(raw))
    if len(raw) != len(items):
        raise NotationError(f"expected a list of {len(items)} items, not {len(raw)}", path=path)
    return tuple(_decode(item, hint, f"{path}[{i}]", exact) for i, (item, hint) in enumerate(zip(raw, items,
                                                                                                  strict=True)))


def _decode_bool(raw: Any, path: str) -> bool:
    """``true`` or ``false``, never a number."""
    if isinstance(raw, bool):
        return raw
    raise NotationError(f"expected true or false, not {_kind(raw)}", path=path)


def _decode_int(raw: Any, path: str) -> int:
    """A whole number; a float with no fraction (``3.0``) reads as its int, a boolean never does."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, float) and math.isfinite(raw) and raw.is_integer():
        return int(raw)
    raise NotationError(f"expected a whole number, not {json.dumps(raw) if _plain(raw) else _kind(raw)}", path=path)


def _decode_float(raw: Any, path: str, exact: bool) -> float:
    """A finite number, quantised to 0.01 mm unless ``exact``."""
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        if not math.isfinite(raw):
            raise NotationError(f"expected a finite number, not {raw}", path=path)
        return float(raw) if exact else _quantise(float(raw))
    raise NotationError(f"expected a number, not {_kind(raw)}", path=path)


def _decode_str(raw: Any, path: str) -> str:
    """A string as it is."""
    if isinstance(raw, str):
        return raw
    raise NotationError(f"expected a string, not {_kind(raw)}", path=path)


def _plain(raw: Any) -> bool:
    """True for JSON scalars (safe to quote in a message)."""
    return raw is None or isinstance(raw, bool | int | str) or (isinstance(raw, float) and math.isfinite(raw))


def _freeze(raw: Any, path: str) -> Any:
    """A JSON value for an untyped (``Any``/``object``) field: lists become tuples so the value stays hashable."""
    if isinstance(raw, list):
        return tuple(_freeze(item, f"{path}[{i}]") for i, item in enumerate(raw))
    if isinstance(raw, float) and not math.isfinite(raw):
        raise NotationError(f"expected a finite number, not {raw}", path=path)
    if isinstance(raw, dict):
        raise NotationError("an object is not allowed here", path=path)
    return raw


def _decode_dataclass(raw: Any, cls: type, path: str, exact: bool) -> Any:
    """A dataclass from a JSON object: unknown keys refused, missing ones take the field default."""
    if not isinstance(raw, dict):
        raise NotationError(f"expected an object, not {_kind(raw)}", path=path)
    names = [f.name for f in dataclasses.fields(cls)]
    for key in raw:
        if key not in names:
            raise NotationError(f"unknown field {key!r}; expected {', '.join(names)}", path=path)
    hints = _hints(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in raw:
            values[f.name] = _decode(raw[f.name], hints[f.name], _join(path, f.name), exact)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise NotationError(f"missing field {f.name!r}", path=path)
    return cls(**values)


def _join(path: str, name: str) -> str:
    """``path.name``, or ``name`` at the top."""
    return f"{path}.{name}" if path else name


def _encode(value: Any, hint: Any, exact: bool) -> Any:
    """The JSON value of ``value`` of type ``hint`` (the inverse of ``_decode``)."""
    return _encoder(hint, exact)(value)


Encoder = Callable[[Any], Any]


@cache
def _encoder(hint: Any, exact: bool) -> Encoder:
    """What ``_encode`` does for values of type ``hint``, decided once per hint: the hint's unions, tuples and floats
    are taken apart here instead of for every value (a position's conversion asked ``get_origin`` and ``get_args``
    again for every field of every stone); what depends on the value itself (which member of a union it is, a
    dataclass or a sequence behind ``Any``) is still asked of the value (``_encode_value``)."""
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        options = [a for a in get_args(hint) if a is not type(None)]
        if len(options) == 1:
            return _or_none(_encoder(options[0], exact))
        return _or_none(lambda value: _encoder(_option_for(value, options), exact)(value))
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _encoder(args[0], exact)
            return _or_none(lambda value: [item(v) for v in value])
        items = tuple(_encoder(arg, exact) for arg in args)
        return _or_none(lambda value: [encode(v) for v, encode in zip(value, items, strict=True)])
    if hint is float:
        return _or_none(float) if exact else _or_none(lambda value: _quantise(float(value)))
    return lambda value: _encode_value(value, exact)


def _or_none(encode: Encoder) -> Encoder:
    """``encode``, with None written as null whatever the hint says."""
    return lambda value: None if value is None else encode(value)


def _encode_value(value: Any, exact: bool) -> Any:
    """A value whose hint says nothing more about it: a dataclass by its fields, a sequence item by item (each as
    ``Any``), anything else as it is."""
    if value is None:
        return None
    if dataclasses.is_dataclass(value):
        return _encode_dataclass(value, exact)
    if isinstance(value, tuple | list):
        return [_encode_value(item, exact) for item in value]
    return value


def _option_for(value: Any, options: list[Any]) -> Any:
    """The member of a union that ``value`` belongs to (by its runtime type)."""
    for option in options:
        base = get_origin(option) or option
        if base is Literal:
            if value in get_args(option):
                return option
        elif isinstance(base, type) and isinstance(value, base):
            return option
    return Any


def _encode_dataclass(value: Any, exact: bool) -> dict[str, Any]:
    """Every field of a dataclass, in field order."""
    kind: type = type(value)
    return {name: encode(getattr(value, name)) for name, encode in _field_encoders(kind, exact)}


@cache
def _field_encoders(cls: type, exact: bool) -> tuple[tuple[str, Encoder], ...]:
    """Each field's name and encoder (``_encoder`` of its hint), in field order, decided once per class."""
    hints = _hints(cls)
    return tuple((name, _encoder(hints[name], exact)) for name in _field_names(cls))


# =========================================================================== positions


# The positions converted last, by identity: (position, its JSON object). A position is immutable, and the reference
# kept means its id is not reused while it is here.
RECENT_JSON = 1024  # positions kept: both coaches of a room coming back after a restart find the one converted
_recent_json: IdentityMemo[Position, dict[str, Any]] = IdentityMemo(RECENT_JSON)


def position_json(position: Position) -> dict[str, Any]:
    """``position_to_json``, shared: the object must not be changed. Each conversion costs ~0.3 ms, and the same
    position is written several times - a resolved move into its MovePlayed and into the log's kept copy, a room's
    position into the RoomJoined of each coach and spectator who comes (back) - so the last ``RECENT_JSON`` are kept
    (``IdentityMemo``; ~7.5 kB each)."""
    converted = _recent_json.get(position)
    if converted is None:
        converted = position_to_json(position)
        _recent_json.put(position, converted)
    return converted


def position_to_json(position: Position) -> dict[str, Any]:
    """The canonical JSON object of a position (see the module docstring)."""
    out: dict[str, Any] = {"format": POSITION_FORMAT}
    hints = _hints(Position)
    extra = [f.name for f in dataclasses.fields(Position) if f.name not in DOCUMENTED_FIELDS]
    for name in (*DOCUMENTED_FIELDS, *extra):
        value = getattr(position, name)
        if name == "settings":
            out[name] = {key: _encode(v, Any, True) for key, v in sorted(value)}
        elif name in ("score", "deferred"):
            out[name] = {"home": value[0], "away": value[1]}
        elif name == "excluded":
            out[name] = {"home": list(value[0]), "away": list(value[1])}
        elif name == "stones":
            out[name] = [stone_to_json(s) for s in sorted(value, key=_stone_order)]
        else:
            out[name] = _encode(value, hints[name], False)
    return out


def stone_to_json(stone: Stone) -> dict[str, Any]:
    """A stone as SCENARIOS.md writes it: ``flipped`` only when true."""
    out = _encode_dataclass(stone, False)
    if not stone.flipped:
        del out["flipped"]
    return out


def _stone_order(stone: Stone) -> int:
    """Canonical stone order: ``h1``…``h7`` then ``a1``…``a7``."""
    return ALL_STONE_IDS.index(stone.id)


def position_from_json(data: dict[str, Any] | str | bytes, *, path: str = "") -> Position:
    """Read and validate a position (dict or JSON text), filling SCENARIOS.md defaults; ``NotationError`` else."""
    try:
        return _read_position(_document(data, "INVALID_POSITION"), path)
    except NotationError as exc:
        exc.code = exc.code or "INVALID_POSITION"
        raise


def _read_position(raw: dict[str, Any], path: str) -> Position:
    """The body of ``position_from_json``: fields in dataclass order, so later defaults see earlier values."""
    names = [f.name for f in dataclasses.fields(Position)]
    for key in raw:
        if key != "format" and key not in names:
            raise NotationError(f"unknown field {key!r}", path=path)
    if "format" in raw and raw["format"] != POSITION_FORMAT:
        raise NotationError(f"expected {POSITION_FORMAT!r}, not {json.dumps(raw['format'])}",
                            path=_join(path, "format"))
    ruleset = _decode(raw.get("ruleset", "standard"), str, _join(path, "ruleset"), True)
    overrides = _read_overrides(raw.get("settings", {}), _join(path, "settings"))
    try:
        settings = make_settings(ruleset, dict(overrides))
    except SettingsError as exc:
        raise NotationError(str(exc), path=_join(path, "ruleset")) from None
    hints = _hints(Position)
    values: dict[str, Any] = {"ruleset": ruleset, "settings": overrides}
    for f in dataclasses.fields(Position):
        name, where = f.name, _join(path, f.name)
        if name in values:
            continue
        if name in raw:
            reader = _SPECIAL_READERS.get(name)
            values[name] = reader(raw[name], where, settings) if reader else _decode(raw[name], hints[name], where,
                                                                                      False)
        elif name == "stones":
            values[name] = _default_stones(values["home_end"], values["part"], settings)
        elif name == "part":
            values[name] = Part("period", 1, settings.period_ms)
        elif f.default_factory is not dataclasses.MISSING:
            values[name] = f.default_factory()
        else:
            values[name] = f.default
    position = Position(**values)
    if "first_starter" not in raw:  # SCENARIOS.md, V.2: absent - the opening's mover, else the lot
        position = dataclasses.replace(position, first_starter=first_period_starter(position))
    _check_position(position, settings, path)
    return position


def _read_overrides(raw: Any, path: str) -> tuple[tuple[str, Any], ...]:
    """``settings``: an object of overrides, each checked by name and type (``rulesets.coerce_setting``)."""
    if not isinstance(raw, dict):
        raise NotationError(f"expected an object, not {_kind(raw)}", path=path)
    pairs = []
    for name in sorted(raw):
        try:
            pairs.append((name, coerce_setting(name, raw[name])))
        except SettingsError as exc:
            raise NotationError(str(exc), path=_join(path, name)) from None
    return tuple(pairs)


def _read_team_pair(raw: Any, path: str, item: Callable[[Any, str], Any], default: Any) -> tuple[Any, Any]:
    """A ``{"home": …, "away": …}`` object as a (home, away) pair; a missing team takes ``default``."""
    if not isinstance(raw, dict):
        raise NotationError(f"expected an object with \"home\" and \"away\", not {_kind(raw)}", path=path)
    for key in raw:
        if key not in TEAMS:
            raise NotationError(f"unknown team {key!r}", path=path)
    home, away = (item(raw[t], _join(path, t)) if t in raw else default for t in TEAMS)
    return (home, away)


def _read_counts(raw: Any, path: str, _settings: Settings) -> tuple[int, int]:
    """``score`` and ``deferred``: a whole number per team."""
    return _read_team_pair(raw, path, lambda v, p: _decode(v, int, p, True), 0)


def _read_excluded(raw: Any, path: str, _settings: Settings) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``excluded``: a list of stone ids per team, oldest first."""
    return _read_team_pair(raw, path, lambda v, p: _decode(v, tuple[str, ...], p, True), ())


def _read_part(raw: Any, path: str, settings: Settings) -> Part:
    """``part``: a missing ``clock_ms`` is the full time of that part under the ruleset."""
    part: Part = _decode(raw, Part, path, False)
    if isinstance(raw, dict) and "clock_ms" not in raw:
        part = dataclasses.replace(part, clock_ms=full_clock_ms(settings, part.kind, part.number, path))
    return part


def full_clock_ms(settings: Settings, kind: str, number: int, path: str = "part") -> int:
    """The full time of a part (III, D14): a period, a break, the ``number``-th overtime, a shoot-out shot (XV.18)."""
    if kind == "period":
        return settings.period_ms
    if kind == "break":
        return settings.break_ms
    if kind == "overtime":
        if not 1 <= number <= len(settings.overtime_ms):
            raise NotationError(f"the ruleset has {len(settings.overtime_ms)} overtime parts, not {number}", path=path)
        return settings.overtime_ms[number - 1]
    return settings.shootout_shot_ms


def _read_stones(raw: Any, path: str, settings: Settings) -> tuple[Stone, ...]:
    """``stones``: a list of stones; ``team`` defaults to the id's team, ``role`` to goalie for ``h1``/``a1``."""
    if not isinstance(raw, list):
        raise NotationError(f"expected a list of stones, not {_kind(raw)}", path=path)
    stones = []
    seen: list[str] = []
    for i, item in enumerate(raw):
        where = f"{path}[{i}]"
        if not isinstance(item, dict):
            raise NotationError(f"expected a stone object, not {_kind(item)}", path=where)
        stone_id = item.get("id")
        if stone_id not in ALL_STONE_IDS:
            raise NotationError(f"unknown stone id {json.dumps(stone_id) if _plain(stone_id) else _kind(stone_id)};"
                                " ids are h1…h7 and a1…a7", path=where, body=stone_id if _plain(stone_id) else None)
        if stone_id in seen:
            raise NotationError(f"duplicate stone id {stone_id!r}", path=where, body=stone_id)
        seen.append(stone_id)
        filled = {"team": team_of_id(stone_id), "role": "goalie" if stone_id[1:] == "1" else "field", **item}
        stone = _decode(filled, Stone, where, False)
        if stone.team != team_of_id(stone_id):
            raise NotationError(f"stone {stone_id} belongs to {team_of_id(stone_id)}, not {stone.team}",
                                path=_join(where, "team"), body=stone_id)
        stones.append(stone)
    return tuple(sorted(stones, key=_stone_order))


def _default_stones(home_end: int, part: Part, settings: Settings) -> tuple[Stone, ...]:
    """The basic setup (IV.1) with the ruleset's field-stone count (XVI.2: fewer in overtime)."""
    return formation.basic_setup(home_end, field_stones(part, settings))


_SPECIAL_READERS: dict[str, Callable[[Any, str, Settings], Any]] = {
    "score": _read_counts,
    "deferred": _read_counts,
    "excluded": _read_excluded,
    "part": _read_part,
    "stones": _read_stones,
}


# --------------------------------------------------------------------------- position checks


def _check_position(p: Position, settings: Settings, path: str) -> None:
    """The checks a position must pass beyond types: ranges, ids, and bodies on the board without overlaps."""
    _check_counters(p, path)
    _check_goalies(p, path)
    _check_excluded(p, path)
    _check_bodies(p, settings, path)


def _fail(path: str, field: str, message: str, body: str | None = None) -> NoReturn:
    """Raise the ``NotationError`` naming ``field`` under the position's ``path``."""
    raise NotationError(message, path=_join(path, field), body=body)


def _check_counters(p: Position, path: str) -> None:
    """The numbers of a position in their ranges: the ends, the move number, scores, the part and the privilege."""
    if p.home_end not in (-1, 1):
        _fail(path, "home_end", f"must be -1 or 1, not {p.home_end}")
    if p.move_number < 0:
        _fail(path, "move_number", f"must not be negative, not {p.move_number}")
    for field, pair in (("score", p.score), ("deferred", p.deferred)):
        for team, value in zip(TEAMS, pair, strict=True):
            if value < 0:
                _fail(path, f"{field}.{team}", f"must not be negative, not {value}")
    if p.part.number < 1 or p.part.clock_ms < 0:
        _fail(path, "part",
              f"number counts from 1 and clock_ms is not negative, not {p.part.number} / {p.part.clock_ms}")
    if p.privilege is not None:
        if p.privilege.total not in (2, 3) or not 1 <= p.privilege.remaining <= p.privilege.total:
            _fail(path, "privilege", f"total is 2 or 3 and 1 <= remaining <= total, not {p.privilege.remaining}"
                                     f" of {p.privilege.total}")


def _check_goalies(p: Position, path: str) -> None:
    """II.1: at most one goalie per team on the board."""
    for team in TEAMS:
        goalies = [s.id for s in p.team_stones(team) if s.role == "goalie"]
        if len(goalies) > 1:
            _fail(path, "stones", f"{team} has more than one goalie: {', '.join(goalies)}", goalies[1])


def _check_excluded(p: Position, path: str) -> None:
    """X.1-X.2: each team's exclusion queue holds its own stones, once each, none of them on the board."""
    on_board = [s.id for s in p.stones]
    for team, queue in zip(TEAMS, p.excluded, strict=True):
        for i, stone_id in enumerate(queue):
            where = f"excluded.{team}[{i}]"
            if stone_id not in ALL_STONE_IDS or team_of_id(stone_id) != team:
                _fail(path, where, f"{stone_id!r} is not a stone of {team}", stone_id)
            if stone_id in on_board or stone_id in queue[:i]:
                _fail(path, where, f"{stone_id} is on the board or listed twice", stone_id)


def _check_bodies(p: Position, settings: Settings, path: str) -> None:
    """Every body wholly on the board, clear of the goal frames, and no two overlapping (all with the tolerance)."""
    tol = geometry.OVERLAP_TOLERANCE
    bodies = [(s.id, s.x, s.y, settings.stone_radius, f"stones[{i}]") for i, s in enumerate(p.stones)]
    bodies.append(("puck", p.puck.x, p.puck.y, settings.puck_radius, "puck"))
    for name, x, y, r, where in bodies:
        if not geometry.disc_inside_board(x, y, r, tol):
            raise NotationError(f"{name} at ({x:g}, {y:g}) lies outside the board", path=_join(path, where), body=name)
        end = goal_frame_overlap(x, y, r, tol)
        if end is not None:
            raise NotationError(f"{name} at ({x:g}, {y:g}) lies inside the frame of goal {end:+d}",
                                path=_join(path, where), body=name)
    for i, (name, x, y, r, where) in enumerate(bodies):
        for other, ox, oy, orad, _ in bodies[:i]:
            if geometry.discs_overlap(x, y, r, ox, oy, orad, tol):
                depth = r + orad - math.hypot(x - ox, y - oy)
                raise NotationError(f"{name} overlaps {other} by {depth:.2f} mm", path=_join(path, where), body=name)


def goal_frame_overlap(x: float, y: float, r: float, tol: float = 0.0) -> int | None:
    """The end (-1 or +1) of the goal whose frame or net the disc overlaps by more than ``tol``, or None.

    The solid parts (G14-G17, ``geometry.GOAL_SOLIDS``): the side tubes x·end in [498, 558], |y| in [40, 44],
    and the back between the inner back (546) and the outer back (558). Touching them is not overlapping; the
    goal interior is free.
    """
    for end in (-1, 1):
        gx = x * end
        for x0, x1, y0, y1 in geometry.GOAL_SOLIDS:
            dx = gx - geometry.clamp(gx, x0, x1)
            dy = y - geometry.clamp(y, y0, y1)
            if math.hypot(dx, dy) < r - tol:
                return end
    return None


# =========================================================================== actions


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as SCENARIOS.md writes it: ``team``, ``action``, then its other fields, numbers exact.

    Coach actions only (``TypeError`` for a clock event, which ``event_to_json`` writes): the protocol writes an
    ``Act`` with this, and an ``Act`` never carries a clock event.
    """
    if ACTION_TYPES.get(getattr(action, "action", "")) is not type(action):
        raise TypeError(f"not a coach action: {action!r} (a scenario's clock events are written by event_to_json)")
    body = _encode_dataclass(action, True)
    return {"team": body.pop("team"), "action": body.pop("action"), **body}


def action_from_json(data: dict[str, Any] | str | bytes, *, path: str = "action") -> Action:
    """Read one action into its ``shared.model`` dataclass; ``NotationError`` (``INVALID_ACTION``) names the field."""
    try:
        raw = _document(data, "INVALID_ACTION")
        name = raw.get("action")
        if name not in ACTION_TYPES:
            shown = json.dumps(name) if _plain(name) else _kind(name)
            raise NotationError(f"unknown action {shown}; expected one of {', '.join(ACTION_TYPES)}",
                                path=_join(path, "action"))
        action: Action = _decode_dataclass(raw, ACTION_TYPES[name], f"{path} ({name})", True)
        return action
    except NotationError as exc:
        exc.code = exc.code or "INVALID_ACTION"
        raise


# --------------------------------------------------------------------------- clock events


def event_to_json(event: ScenarioEntry) -> dict[str, Any]:
    """A scenario entry as written: an action (``action_to_json``) or a clock event.

    ``{"action": "elapse", "ms": N}``, ``{"team": T, "action": "timeout"}`` (with ``"kind"`` only when a choice
    timed out) and ``{"team": T, "action": "forfeit", "reason": R}``.
    """
    if isinstance(event, Elapse):
        return {"action": "elapse", "ms": event.ms}
    if isinstance(event, Timeout):
        out: dict[str, Any] = {"team": event.team, "action": "timeout"}
        if event.kind is not None:
            out["kind"] = event.kind
        return out
    if isinstance(event, Forfeit):
        return {"team": event.team, "action": "forfeit", "reason": event.reason}
    return action_to_json(event)


def event_from_json(data: dict[str, Any] | str | bytes, *, path: str = "action") -> ScenarioEntry:
    """Read one scenario entry: a coach action or a clock event (``NotationError`` ``INVALID_ACTION`` naming the
    field). Only scenarios and logs read these; the protocol reads actions with ``action_from_json``."""
    try:
        raw = _document(data, "INVALID_ACTION")
        name = raw.get("action")
        if name in ACTION_TYPES:
            return action_from_json(raw, path=path)
        if name not in SCENARIO_EVENT_TYPES:
            shown = json.dumps(name) if _plain(name) else _kind(name)
            known = ", ".join((*ACTION_TYPES, *SCENARIO_EVENT_TYPES))
            raise NotationError(f"unknown action {shown}; expected one of {known}", path=_join(path, "action"))
        where = f"{path} ({name})"
        event: ScenarioEntry = _decode_dataclass(raw, SCENARIO_EVENT_TYPES[name], where, True)
        if isinstance(event, Elapse) and event.ms < 0:
            raise NotationError(f"time cannot run backwards: {event.ms} ms", path=_join(where, "ms"))
        return event
    except NotationError as exc:
        exc.code = exc.code or "INVALID_ACTION"
        raise


def log_entry_events(kind: str, team: str | None, action: dict[str, Any] | None,
                     elapsed_ms: int) -> tuple[ScenarioEntry, ...]:
    """The events one server log entry (``server.store.sqlite.sqlite_store.LogEntry``) stands for, in order.

    An entry is clock time first, then one input: ``Elapse(elapsed_ms)`` when time passed, then the
    ``action``, a move-clock ``Timeout`` (or, when the entry's action is ``{"kind": K}``, the ``Timeout`` of
    the choice of prompt kind K), a ``Forfeit`` after the disconnect grace (``forfeit``) or of a coach who left
    (``resign``), or nothing (``elapse``). ``sprtec export`` writes these; applied in order through
    ``shared.match.apply_event`` they are the server's replay of the entry.
    """
    events: list[ScenarioEntry] = [Elapse(elapsed_ms)] if elapsed_ms > 0 else []
    if kind == "elapse":
        return tuple(events)
    if kind == "action":
        if action is None:
            raise NotationError("an action entry without its action", code="INVALID_ACTION")
        events.append(action_from_json(action))
        return tuple(events)
    if team not in TEAMS:
        raise NotationError(f"a {kind!r} entry names no team ({team!r})", code="INVALID_ACTION")
    if kind == "timeout":
        events.append(Timeout(team, _timed_out_kind(action)))
    elif action is not None:
        raise NotationError(f"a {kind!r} entry carries no action, not {_kind(action)}", code="INVALID_ACTION")
    elif kind == "forfeit":
        events.append(Forfeit(team, "FORFEIT_DISCONNECTED"))
    elif kind == "resign":
        events.append(Forfeit(team, "RESIGNED"))
    else:
        raise NotationError(f"unknown log entry kind {kind!r}", code="INVALID_ACTION")
    return tuple(events)


def _timed_out_kind(action: dict[str, Any] | None) -> str | None:
    """The prompt kind of a ``timeout`` log entry: None for the move clock, K for ``{"kind": K}`` (a choice)."""
    if action is None:
        return None
    kind = action.get("kind")
    if list(action) != ["kind"] or not isinstance(kind, str):
        raise NotationError(f"a timeout entry's action is {{\"kind\": K}} naming a prompt kind, not {dumps(action)}",
                            code="INVALID_ACTION")
    return kind


# =========================================================================== scenarios and results


def scenario_from_json(data: dict[str, Any] | str | bytes) -> Scenario:
    """Read a scenario; a bare position (``"format": "sprtec-position/1"``) reads as a scenario without actions.

    ``actions`` may hold clock events (``event_from_json``); ``timed`` is true or false (default false).
    """
    raw = _document(data, "INVALID_SCENARIO")
    if raw.get("format") == POSITION_FORMAT:
        return Scenario(position_from_json(raw))
    if raw.get("format", SCENARIO_FORMAT) != SCENARIO_FORMAT:
        shown = json.dumps(raw["format"]) if _plain(raw["format"]) else _kind(raw["format"])
        raise NotationError(f"expected {SCENARIO_FORMAT!r} or {POSITION_FORMAT!r}, not {shown}", path="format",
                            code="INVALID_SCENARIO")
    for key in raw:
        if key not in ("format", "position", "actions", "timed", "players"):
            raise NotationError(f"unknown field {key!r}; expected format, position, actions, timed, players",
                                code="INVALID_SCENARIO")
    players = _players(raw.get("players"))
    timed = raw.get("timed", False)
    if not isinstance(timed, bool):
        raise NotationError(f"expected true or false, not {_kind(timed)}", path="timed", code="INVALID_SCENARIO")
    position_raw = raw.get("position", {})
    if not isinstance(position_raw, dict):
        raise NotationError(f"expected a position object, not {_kind(position_raw)}", path="position",
                            code="INVALID_POSITION")
    position = position_from_json(position_raw, path="position")
    actions_raw = raw.get("actions", [])
    if not isinstance(actions_raw, list):
        raise NotationError(f"expected a list, not {_kind(actions_raw)}", path="actions", code="INVALID_SCENARIO")
    actions = []
    for i, item in enumerate(actions_raw):
        if not isinstance(item, dict):
            raise NotationError(f"expected an action object, not {_kind(item)}", path=f"actions[{i}]",
                                code="INVALID_ACTION")
        actions.append(event_from_json(item, path=f"actions[{i}]"))
    return Scenario(position, tuple(actions), timed, players)


def _players(raw: Any) -> tuple[str, str] | None:
    """The ``players`` of a scenario: ``{"home": name, "away": name}`` (names of 1-64 characters), or absent."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"home", "away"} or not all(
        isinstance(raw[t], str) and 1 <= len(raw[t]) <= 64 for t in TEAMS
    ):
        raise NotationError("expected {\"home\": name, \"away\": name}", path="players", code="INVALID_SCENARIO")
    return str(raw["home"]), str(raw["away"])


def scenario_to_json(scenario: Scenario) -> dict[str, Any]:
    """The canonical JSON object of a scenario (``timed`` only when true, so plain scenarios stay as they were)."""
    out: dict[str, Any] = {
        "format": SCENARIO_FORMAT,
        "position": position_to_json(scenario.position),
        "actions": [event_to_json(a) for a in scenario.actions],
    }
    if scenario.timed:
        out["timed"] = True
    if scenario.players is not None:
        out["players"] = {"home": scenario.players[0], "away": scenario.players[1]}
    return out


def result_to_json(result: ActionResult, index: int, *, with_position: bool = True) -> dict[str, Any]:
    """One entry of a scenario result (SCENARIOS.md "Result"): accepted with decisions and position, or the error."""
    if not result.accepted:
        if result.error is None:
            raise ValueError(f"action {index} was refused without an error")
        return {"index": index, "accepted": False, "error": result.error.to_json()}
    out: dict[str, Any] = {
        "index": index,
        "accepted": True,
        "duration_ms": result.duration_ms,
        "decisions": [d.to_json() for d in result.decisions],
    }
    if with_position:
        out["position"] = position_to_json(result.position)
    return out

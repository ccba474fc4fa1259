"""Field specifications: how each message field is written to msgpack and checked when read back.

Why: every value a peer sends must be checked at the edge (type, range, length, NaN and infinity)
before anything else sees it, and the checks must match what the encoder writes and what
docs/PROTOCOL.md promises. A message field names its spec once, in its type hint
(``Annotated[int, Int(0, 10)]``); the codec, the documentation table and the property tests all
read it from there. ``load`` raises only
``ProtocolError``; ``dump`` applies the same checks so the server cannot send what a client would
refuse. ``wire`` is ``dump`` for values this process built itself (the server's own broadcasts): the same
wire form without checking types, ranges and choices, only sizes (how long a string or an array is, how deep a
value nests), which settings chosen by a peer can push past what a receiver accepts.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import math
import typing
from collections.abc import Callable
from itertools import compress, repeat
from operator import is_
from typing import Any

from shared.identity_memo import IdentityMemo
from shared.protocol.errors import ProtocolError

MAX_INT = 2**53 - 1  # the largest integer every client language holds exactly (a JS number)

# Forward compatibility (docs/PROTOCOL.md "Versions"): a client decodes the server's messages leniently - fields it
# does not know are ignored and an ``open`` list of choices (error codes, rulesets) takes values it does not know -
# so a client built before a new optional field or code still works; the server decodes clients strictly.
LENIENT: contextvars.ContextVar[bool] = contextvars.ContextVar("sprtec_protocol_lenient", default=False)


def bad(where: str, problem: str) -> ProtocolError:
    """A BAD_MESSAGE error naming the field path, e.g. ``Act.action.vx: not a finite number``."""
    return ProtocolError("BAD_MESSAGE", f"{where}: {problem}")


class Spec:
    """One field's wire form. Subclasses implement ``dump`` (value -> wire), ``load`` and ``describe``."""

    def dump(self, value: Any, where: str) -> Any:
        """The msgpack-ready form of ``value``; raises ProtocolError when it breaks the spec."""
        raise NotImplementedError

    def load(self, raw: Any, where: str) -> Any:
        """The value read from the wire; raises ProtocolError (never another exception) when invalid."""
        raise NotImplementedError

    def wire(self, value: Any, where: str) -> Any:
        """What ``dump`` writes for a value this process built, unchecked but for its size (ProtocolError)."""
        return value  # scalars: ``dump`` gives back the value itself

    @property
    def plain(self) -> bool:
        """Whether ``wire`` gives back every value unchanged and unchecked (its caller may skip the call)."""
        return type(self).wire is Spec.wire

    def describe(self) -> str:
        """The wire type and range as docs/PROTOCOL.md writes it."""
        raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class Int(Spec):
    """An integer in [lo, hi]; booleans are not integers here."""

    lo: int
    hi: int
    unit: str = ""

    def load(self, raw: Any, where: str) -> int:
        """The integer, checked against the range."""
        if type(raw) is not int:
            raise bad(where, f"expected an integer, got {_kind(raw)}")
        if not self.lo <= raw <= self.hi:
            raise bad(where, f"{raw} is outside [{self.lo}, {self.hi}]")
        return raw


    def dump(self, value: Any, where: str) -> int:
        """The value, checked as ``load`` checks a received one."""
        return self.load(value, where)

    def describe(self) -> str:
        """``int [lo, hi] unit``."""
        return f"int [{self.lo}, {self.hi}]" + (f" {self.unit}" if self.unit else "")


@dataclasses.dataclass(frozen=True)
class Float(Spec):
    """A finite number in [lo, hi]; an integer on the wire is accepted and read as a float."""

    lo: float
    hi: float
    unit: str = ""

    def load(self, raw: Any, where: str) -> float:
        """The number as a float, finite and in range."""
        if type(raw) not in (int, float):
            raise bad(where, f"expected a number, got {_kind(raw)}")
        try:
            number = float(raw)
        except OverflowError:
            raise bad(where, "number too large") from None
        if not math.isfinite(number):
            raise bad(where, "not a finite number")
        if not self.lo <= number <= self.hi:
            raise bad(where, f"{number} is outside [{self.lo}, {self.hi}]")
        return number


    def dump(self, value: Any, where: str) -> float:
        """The value, checked as ``load`` checks a received one."""
        return self.load(value, where)

    def wire(self, value: Any, where: str) -> float:
        """A float, as ``dump`` makes an integer one."""
        return float(value)

    def describe(self) -> str:
        """``float [lo, hi] unit``."""
        return f"float [{self.lo:g}, {self.hi:g}]" + (f" {self.unit}" if self.unit else "")


@dataclasses.dataclass(frozen=True)
class Bool(Spec):
    """true or false."""

    def load(self, raw: Any, where: str) -> bool:
        """The boolean."""
        if type(raw) is not bool:
            raise bad(where, f"expected a boolean, got {_kind(raw)}")
        return raw


    def dump(self, value: Any, where: str) -> bool:
        """The value, checked as ``load`` checks a received one."""
        return self.load(value, where)

    def describe(self) -> str:
        """``bool``."""
        return "bool"


@dataclasses.dataclass(frozen=True)
class Str(Spec):
    """A UTF-8 string of ``min_len``..``max_len`` characters, optionally one of ``choices``."""

    max_len: int
    min_len: int = 0
    choices: tuple[str, ...] = ()
    open: bool = False  # a newer peer may send choices this one does not know (read leniently, see LENIENT)

    def load(self, raw: Any, where: str) -> str:
        """The string, checked for length and choices."""
        if type(raw) is not str:
            raise bad(where, f"expected a string, got {_kind(raw)}")
        if not self.min_len <= len(raw) <= self.max_len:
            raise bad(where, f"length {len(raw)} is outside [{self.min_len}, {self.max_len}]")
        if self.choices and raw not in self.choices and not (self.open and LENIENT.get()):
            raise bad(where, f"{raw[:40]!r} is not one of {', '.join(self.choices)}")
        if not raw.isascii():
            try:
                raw.encode("utf-8")
            except UnicodeEncodeError:
                raise bad(where, "not valid UTF-8 (a lone surrogate)") from None
        return raw


    def dump(self, value: Any, where: str) -> str:
        """The value, checked as ``load`` checks a received one."""
        return self.load(value, where)

    def wire(self, value: Any, where: str) -> str:
        """The string, if it is not too long."""
        if len(value) > self.max_len:
            raise bad(where, f"length {len(value)} is outside [{self.min_len}, {self.max_len}]")
        return value  # type: ignore[no-any-return]

    def describe(self) -> str:
        """``"a" | "b"`` for choices, else ``str (≤ n chars)``."""
        if self.choices:
            return " \\| ".join(f'`"{c}"`' for c in self.choices)
        low = f"{self.min_len}-" if self.min_len else "≤ "
        return f"str ({low}{self.max_len} chars)"


@dataclasses.dataclass(frozen=True)
class Opt(Spec):
    """``inner`` or nil (None)."""

    inner: Spec

    def load(self, raw: Any, where: str) -> Any:
        """None for nil, else the inner value."""
        return None if raw is None else self.inner.load(raw, where)

    def dump(self, value: Any, where: str) -> Any:
        """nil for None, else the inner wire form."""
        return None if value is None else self.inner.dump(value, where)

    def wire(self, value: Any, where: str) -> Any:
        """nil for None, else the inner wire form."""
        return None if value is None else self.inner.wire(value, where)

    def describe(self) -> str:
        """``<inner> or nil``."""
        return f"{self.inner.describe()} or nil"


@dataclasses.dataclass(frozen=True)
class ListOf(Spec):
    """An array of at most ``max_len`` items of ``item``; read as a tuple."""

    item: Spec
    max_len: int

    def load(self, raw: Any, where: str) -> tuple[Any, ...]:
        """A tuple of checked items."""
        if type(raw) is not list:
            raise bad(where, f"expected an array, got {_kind(raw)}")
        if len(raw) > self.max_len:
            raise bad(where, f"{len(raw)} items, at most {self.max_len}")
        return tuple(self.item.load(v, f"{where}[{i}]") for i, v in enumerate(raw))

    def dump(self, value: Any, where: str) -> list[Any]:
        """A list of wire items."""
        if not isinstance(value, list | tuple) or len(value) > self.max_len:
            raise bad(where, f"expected at most {self.max_len} items")
        return [self.item.dump(v, f"{where}[{i}]") for i, v in enumerate(value)]

    def wire(self, value: Any, where: str) -> Any:
        """The items' wire forms (the sequence itself when they are plain; msgpack writes tuples as arrays)."""
        if len(value) > self.max_len:
            raise bad(where, f"expected at most {self.max_len} items")
        if self.item.plain:
            return value
        wire = self.item.wire
        return [wire(v, where) for v in value]

    def describe(self) -> str:
        """``array (≤ n) of <item>``."""
        return f"array (≤ {self.max_len}) of {self.item.describe()}"


@dataclasses.dataclass(frozen=True)
class MapOf(Spec):
    """A map of at most ``max_len`` string keys (``key``) to ``value``s; read as a dict."""

    key: Str
    value: Spec
    max_len: int

    def load(self, raw: Any, where: str) -> dict[str, Any]:
        """A dict of checked keys and values."""
        if type(raw) is not dict:
            raise bad(where, f"expected a map, got {_kind(raw)}")
        if len(raw) > self.max_len:
            raise bad(where, f"{len(raw)} entries, at most {self.max_len}")
        return {self.key.load(k, f"{where} key"): self.value.load(v, f"{where}.{k}") for k, v in raw.items()}

    def dump(self, value: Any, where: str) -> dict[str, Any]:
        """A dict of wire values."""
        if not isinstance(value, dict) or len(value) > self.max_len:
            raise bad(where, f"expected a dict of at most {self.max_len} entries")
        return {self.key.dump(k, f"{where} key"): self.value.dump(v, f"{where}.{k}") for k, v in value.items()}

    def wire(self, value: Any, where: str) -> dict[str, Any]:
        """The values' wire forms; keys as they are, if not too long."""
        if len(value) > self.max_len:
            raise bad(where, f"expected a dict of at most {self.max_len} entries")
        key, item = self.key.wire, self.value.wire
        return {key(k, where): item(v, where) for k, v in value.items()}

    def describe(self) -> str:
        """``map (≤ n) of str to <value>``."""
        return f"map (≤ {self.max_len}) of str to {self.value.describe()}"


@dataclasses.dataclass(frozen=True)
class Json(Spec):
    """Any JSON value (nil, bool, int, finite float, str, array, map with str keys) within limits.

    Used for objects whose shape another module owns (a setting's value, a prompt's options); the
    size limits still bound what a peer can make the receiver allocate.
    """

    depth: int = 4
    max_len: int = 64
    max_str: int = 256

    def load(self, raw: Any, where: str) -> Any:
        """The value, with arrays read as lists (a JSON value, compared by equality)."""
        return self._check(raw, where, self.depth)

    def _check(self, raw: Any, where: str, depth: int) -> Any:
        """``raw`` checked as a JSON value nested at most ``depth`` levels, strings and arrays within their limits."""
        kind = type(raw)
        if raw is None or kind is bool:
            return raw
        if kind is int:
            return Int(-MAX_INT, MAX_INT).load(raw, where)
        if kind is float:
            return Float(-math.inf, math.inf).load(raw, where)
        if kind is str:
            return Str(self.max_str).load(raw, where)
        if kind in (list, tuple, dict):
            if depth <= 0:
                raise bad(where, "nested too deeply")
            if len(raw) > self.max_len:
                raise bad(where, f"{len(raw)} items, at most {self.max_len}")
            if kind is dict:
                return {
                    Str(self.max_str).load(k, f"{where} key"): self._check(v, f"{where}.{k}", depth - 1)
                    for k, v in raw.items()
                }
            return [self._check(v, f"{where}[{i}]", depth - 1) for i, v in enumerate(raw)]
        raise bad(where, f"unexpected {_kind(raw)}")


    def dump(self, value: Any, where: str) -> Any:
        """The value, checked as ``load`` checks a received one."""
        return self.load(value, where)

    def wire(self, value: Any, where: str) -> Any:
        """The value itself (``dump`` copies it, arrays as lists: msgpack writes tuples the same), if no array,
        map or string in it is too long and it does not nest too deeply."""
        self._bound(value, where, self.depth)
        return value

    def _bound(self, value: Any, where: str, depth: int) -> None:
        """``value``'s sizes checked like ``_check`` does. The items of an array or map are told apart by type in C
        (``map``, ``compress``): only strings are measured and only arrays and maps visited."""
        kind = type(value)
        if kind is str:
            if len(value) > self.max_str:
                raise bad(where, f"length {len(value)} is outside [0, {self.max_str}]")
            return
        if kind not in _NESTED:
            return
        if depth <= 0:
            raise bad(where, "nested too deeply")
        if len(value) > self.max_len:
            raise bad(where, f"{len(value)} items, at most {self.max_len}")
        if kind is dict:
            if value and max(map(len, value)) > self.max_str:  # keys are strings (msgpack refuses what has no len)
                raise bad(where, f"a key is longer than {self.max_str}")
            value = value.values()
        kinds = tuple(map(type, value))
        if str in kinds and max(map(len, compress(value, map(is_, kinds, repeat(str))))) > self.max_str:
            raise bad(where, f"a string is longer than {self.max_str}")
        for item in compress(value, map(_NESTED.__contains__, kinds)):
            self._bound(item, where, depth - 1)

    @property
    def plain(self) -> bool:
        """Never: sizes are checked."""
        return False

    def describe(self) -> str:
        """``any JSON value``."""
        return f"any JSON value (depth ≤ {self.depth}, ≤ {self.max_len} items, strings ≤ {self.max_str})"


CHECKED_KEPT = 1024  # shared wire forms a Convert remembers having checked (the oldest forgotten first)


@dataclasses.dataclass(frozen=True)
class Convert(Spec):
    """A value another module converts to and from JSON (a position, an action, a trajectory).

    ``to_wire`` and ``from_wire`` are looked up lazily by name so the protocol package imports
    without them; ``from_wire`` errors of any ordinary kind become BAD_MESSAGE.
    """

    name: str
    shape: Json
    to_wire: Callable[[], Callable[[Any], Any]]
    from_wire: Callable[[], Callable[[Any], Any]]
    description: str
    # ``to_wire`` hands out shared objects nobody changes (``position_json``): the sizes of each are checked once,
    # not again for every frame it goes into (a room's position in the RoomJoined of every coach and spectator)
    shared: bool = False
    checked: IdentityMemo[Any, bool] = dataclasses.field(default_factory=lambda: IdentityMemo(CHECKED_KEPT),
                                                          compare=False, repr=False)

    def dump(self, value: Any, where: str) -> Any:
        """The JSON form from the owning module, checked like a received one."""
        return self.shape.load(self.to_wire()(value), where)

    def wire(self, value: Any, where: str) -> Any:
        """The JSON form from the owning module, its sizes checked (once for a shared one)."""
        converted = self.to_wire()(value)
        if not self.shared:
            return self.shape.wire(converted, where)
        if self.checked.get(converted) is None:
            self.shape.wire(converted, where)
            self.checked.put(converted, True)
        return converted

    def load(self, raw: Any, where: str) -> Any:
        """The value, or BAD_MESSAGE naming what the owning module refused."""
        checked = self.shape.load(raw, where)
        try:
            return self.from_wire()(checked)
        except ProtocolError as error:
            raise bad(where, error.message) from None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError) as error:
            raise bad(where, f"invalid {self.name}: {error}") from None

    def describe(self) -> str:
        """The description given."""
        return self.description


@dataclasses.dataclass(frozen=True)
class Struct(Spec):
    """A nested record: a dataclass whose fields carry their own specs, written as a map."""

    cls: type

    def dump(self, value: Any, where: str) -> dict[str, Any]:
        """A map of the fields' wire forms."""
        if not isinstance(value, self.cls):
            raise bad(where, f"expected a {self.cls.__name__}")
        return dump_fields(value, where)

    def wire(self, value: Any, where: str) -> dict[str, Any]:
        """A map of the fields' wire forms (``wire_of``)."""
        return wire_of(value, where)

    def load(self, raw: Any, where: str) -> Any:
        """The dataclass, every field checked; missing required or extra fields are refused."""
        return self.cls(**load_fields(self.cls, raw, where))

    def describe(self) -> str:
        """The record's name (docs/PROTOCOL.md has a table for it)."""
        return f"{self.cls.__name__} (map)"


@functools.cache
def wire_fields(cls: type) -> tuple[tuple[str, Spec, bool], ...]:
    """(name, spec, required) of each field of a record, in declaration order.

    A field's spec is the metadata of its ``Annotated[type, spec]`` hint; a field with a default
    may be left out on the wire.
    """
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):
        specs = [m for m in getattr(hints[f.name], "__metadata__", ()) if isinstance(m, Spec)]
        if len(specs) != 1:
            raise TypeError(f"{cls.__name__}.{f.name} needs exactly one wire spec in Annotated[...]")
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        out.append((f.name, specs[0], required))
    return tuple(out)


def dump_fields(value: Any, where: str) -> dict[str, Any]:
    """Every field of a record in declaration order, as wire values."""
    return {name: spec.dump(getattr(value, name), f"{where}.{name}") for name, spec, _ in wire_fields(value.__class__)}


_WIRE_PLANS: dict[type, tuple[tuple[str, Callable[[Any, str], Any] | None], ...]] = {}


def wire_of(value: Any, where: str) -> dict[str, Any]:
    """What ``dump_fields`` gives for a record this process built, without checking values (``Spec.wire``)."""
    cls: type = value.__class__
    plan = _WIRE_PLANS.get(cls)
    if plan is None:  # per field, in declaration order, its name and its spec's ``wire`` (None where it is plain)
        plan = _WIRE_PLANS[cls] = tuple((name, None if spec.plain else spec.wire) for name, spec, _ in wire_fields(cls))
    out = {}
    for name, wire in plan:
        field = getattr(value, name)
        out[name] = field if wire is None else wire(field, where)
    return out


def load_fields(cls: type, raw: Any, where: str, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The checked keyword arguments for ``cls`` from a wire map (``skip``: keys handled by the caller)."""
    if type(raw) is not dict:
        raise bad(where, f"expected a map, got {_kind(raw)}")
    known = wire_fields(cls)
    names = {name for name, _, _ in known}
    extra = [k for k in raw if k not in names and k not in skip]
    if extra and not LENIENT.get():
        raise bad(where, f"unexpected field {str(extra[0])[:40]!r}")
    values = {}
    for name, spec, required in known:
        if name in raw:
            values[name] = spec.load(raw[name], f"{where}.{name}")
        elif required:
            raise bad(where, f"missing field {name!r}")
    return values


_NESTED = frozenset((list, tuple, dict))  # the Json values with items


def _kind(raw: Any) -> str:
    """The msgpack type name of a raw value, for error messages."""
    names = {type(None): "nil", bool: "bool", int: "int", float: "float", str: "str", bytes: "bin"}
    names |= {list: "array", dict: "map"}
    return names.get(type(raw), type(raw).__name__)

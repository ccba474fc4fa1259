"""A position as compact msgpack: every field's value in its dataclass's order, nested the same way, no names.

Why beside the wire's codec and not the JSON of SCENARIOS.md: the store keeps the position after every log entry
(``server.store.position_blob``) so that a restart takes a match from its last row, and ``sprtec verify`` proves those
rows offline. The JSON object costs a conversion, a ``json.dumps`` and a compression per move to write and a validating
read to take back (``notation.position_from_json``: about 1.5 ms); these values in field order cost a small part of
either, and a few hundred bytes. They are read only where they were written - by this server's own store - so they
are taken back as they are, not checked again; ``sprtec verify`` checks them against the fold.

The layout is the dataclasses' (``shared.model``): a dataclass is the list of its fields' values, a tuple a list,
``None`` nil. A dataclass read with fewer values than it has fields takes the defaults of the rest - a field the
engine adds later goes last, as ``shared.model.Position`` keeps them - so a position kept by an older build still
reads. Anything else that does not fit raises ``PackedPositionError``.
"""

from __future__ import annotations

import dataclasses
import operator
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

import msgpack

from shared.model import Position

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any], Any]


class PackedPositionError(ValueError):
    """The bytes are not a packed position of this layout (damaged, or not one)."""


def pack(position: Position) -> bytes:
    """The compact bytes of a position."""
    encoder = _encoder(Position)
    assert encoder is not None  # a dataclass always has one
    packed: bytes = msgpack.packb(encoder(position), use_bin_type=True)
    return packed


def unpack(data: bytes) -> Position:
    """The position of ``pack``'s bytes; ``PackedPositionError`` when they are not one."""
    try:
        position = _position_decoder()(msgpack.unpackb(data, raw=False, strict_map_key=True))
    except (ValueError, TypeError, IndexError, KeyError, msgpack.ExtraData, msgpack.FormatError,
            msgpack.StackError) as exc:
        raise PackedPositionError(f"not a packed position: {exc}") from None
    if not isinstance(position, Position):
        raise PackedPositionError("not a packed position")
    return position


@cache
def _encoder(hint: Any) -> Encoder | None:
    """How a value of type ``hint`` becomes lists and scalars (compiled once per type); None: it is one already."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        hints = typing.get_type_hints(hint)
        names = [f.name for f in dataclasses.fields(hint)]
        getter = operator.attrgetter(*names) if len(names) > 1 else (lambda v: (getattr(v, names[0]),))
        encoders = [_encoder(hints[name]) for name in names]
        if not any(encoders):
            return lambda v: list(getter(v))
        return lambda v: [x if e is None else e(x) for e, x in zip(encoders, getter(v), strict=True)]
    if origin in (typing.Union, types.UnionType):
        inner = _encoder(_only(hint, args))
        return None if inner is None else (lambda v: None if v is None else inner(v))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            each = _encoder(args[0])
            return list if each is None else (lambda v: [each(x) for x in v])
        parts = [_encoder(a) for a in args]
        return lambda v: [x if e is None else e(x) for e, x in zip(parts, v, strict=True)]
    if origin is typing.Literal or hint in (str, int, float, bool):
        return None
    if hint is object:
        return _any_tree
    raise TypeError(f"cannot pack a value of type {hint}")


def _any_tree(v: Any) -> Any:
    """A value of unknown type (a setting's): its tuples as lists."""
    return [_any_tree(x) for x in v] if isinstance(v, tuple) else v


def _only(hint: Any, args: tuple[Any, ...]) -> Any:
    """The one type of an optional ``X | None``."""
    present = [a for a in args if a is not type(None)]
    if len(present) != 1:
        raise TypeError(f"cannot pack the union {hint}")
    return present[0]


@cache
def _decoder(hint: Any) -> Decoder | None:
    """How a value of type ``hint`` is rebuilt from its tree (compiled once per type); None: it is the value."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return _dataclass_decoder(hint)
    if origin in (typing.Union, types.UnionType):
        inner = _decoder(_only(hint, args))
        return None if inner is None else (lambda v: None if v is None else inner(v))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            each = _decoder(args[0])
            if each is None:
                return lambda v: tuple(_list(v))
            return lambda v: tuple([each(x) for x in _list(v)])
        parts = [_decoder(a) for a in args]

        def fixed(v: Any) -> tuple[Any, ...]:
            items = _list(v)
            if len(items) != len(parts):
                raise ValueError(f"expected {len(parts)} values, got {len(items)}")
            return tuple([x if d is None else d(x) for d, x in zip(parts, items, strict=True)])

        return fixed
    if origin is typing.Literal or hint in (str, int, float, bool):
        return None
    if hint is object:
        return _any
    raise TypeError(f"cannot pack a value of type {hint}")


def _dataclass_decoder(cls: type) -> Decoder:
    """A dataclass from the list of its fields' values; fields past the list's end take their defaults."""
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    decoders = [_decoder(hints[name]) for name in names]
    required = sum(1 for f in fields if f.default is dataclasses.MISSING
                   and f.default_factory is dataclasses.MISSING)

    def build(v: Any) -> Any:
        items = _list(v)
        if not required <= len(items) <= len(names):
            raise ValueError(f"{cls.__name__}: {len(items)} values for {len(names)} fields")
        if not any(decoders):
            return cls(**dict(zip(names, items, strict=False)))
        return cls(**{name: x if d is None else d(x) for name, d, x in zip(names, decoders, items, strict=False)})

    return build


def _position_decoder() -> Decoder:
    """The position's decoder (a dataclass always has one)."""
    decoder = _decoder(Position)
    assert decoder is not None
    return decoder


def _list(v: Any) -> list[Any]:
    """``v`` itself when it is a list."""
    if not isinstance(v, list):
        raise TypeError(f"expected a list, got {type(v).__name__}")
    return v


def _any(v: Any) -> Any:
    """A value of unknown type (a setting's): its lists as tuples, as the position held them."""
    return tuple(_any(x) for x in v) if isinstance(v, list) else v

"""Pickling a job and its result for the physics workers, with slots dataclasses' state taken in C.

Why: every move crosses to a worker and back pickled (``server.rooms.workers``): the position (its 12 stones, the
puck, the parts), the log entry, the room's stamp and settings, then the resolved position again. They are frozen
slots dataclasses, and for those CPython's ``dataclasses`` adds a ``__getstate__`` and ``__setstate__`` written in
Python that call ``dataclasses.fields()`` for every object, both ways: measured on the 2-core machine, 0.21 ms of
pickling per flick, split between the loop and the worker. Here such an object is reduced to its class and its
fields' values, read by one ``operator.attrgetter`` call, and rebuilt by its own ``__init__`` where that only sets
the fields, else by setting them on a bare instance (``rebuild``): either way the same values in the same slots as
``__setstate__`` sets. Measured the same way: 0.09 ms for the same job and result (``tests/server/test_job_pickle``).

Only classes that keep the dataclass' own pickling are handled; one with its own ``__reduce__`` or ``__getstate__``
is pickled as it says. Nothing pickled here is stored: both ends run the same code (a worker is forked from the
server's own modules), so the format need not outlive a process.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import io
import operator
import pickle
from collections.abc import Callable
from typing import Any

_set_field = object.__setattr__  # how a frozen dataclass' own __init__ and __setstate__ set a field
_Reduction = tuple[Callable[..., object], tuple[object, ...]]
# per class: how to read its fields' values (None: pickled the usual way) and whether its own ``__init__`` rebuilds
# it (``_rebuilt_by_init``); filled on first sight of each class
_READERS: dict[type, tuple[Callable[[object], tuple[object, ...]] | None, bool]] = {}


def dumps(value: object) -> bytes:
    """``value`` pickled with the highest protocol, slots dataclasses by their fields (``rebuild``)."""
    buffer = io.BytesIO()
    _JobPickler(buffer, pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def loads(data: bytes) -> Any:
    """What ``dumps`` pickled (``pickle.loads``: ``rebuild`` is found by name)."""
    return pickle.loads(data)


def rebuild(cls: type, values: tuple[object, ...]) -> object:
    """An instance of the slots dataclass ``cls`` with its fields set to ``values`` (in ``fields`` order), without
    running ``__init__``: what the dataclass' ``__setstate__`` does."""
    instance: object = object.__new__(cls)
    for name, value in zip(_field_names(cls), values, strict=True):
        _set_field(instance, name, value)
    return instance


class _JobPickler(pickle.Pickler):
    """The C pickler, asked first about every object that is not a builtin scalar or container."""

    def reducer_override(self, obj: object) -> _Reduction | Any:
        """Reduce a slots dataclass to ``(class, values)`` where its ``__init__`` takes exactly its fields and does
        nothing else, else to ``(rebuild, (class, values))``; anything else the usual way."""
        cls = type(obj)
        try:
            reader, by_init = _READERS[cls]
        except KeyError:
            reader = _fields_reader(cls)
            by_init = reader is not None and _rebuilt_by_init(cls)
            _READERS[cls] = reader, by_init
        if reader is None:
            return NotImplemented
        if by_init:
            return cls, reader(obj)
        return rebuild, (cls, reader(obj))


def _fields_reader(cls: type) -> Callable[[object], tuple[object, ...]] | None:
    """A C callable giving an instance's fields' values as a tuple, for a slots dataclass whose pickling is the
    dataclass' own; None for any other class."""
    if not (dataclasses.is_dataclass(cls) and "__slots__" in cls.__dict__) or issubclass(cls, BaseException):
        return None  # an exception is made by BaseException.__new__, not object's
    if any(name in cls.__dict__ for name in ("__reduce__", "__reduce_ex__")):
        return None
    getstate = cls.__dict__.get("__getstate__")
    if getstate is None or getattr(getstate, "__module__", None) != "dataclasses":
        return None
    names = _field_names(cls)
    if not names:
        return None
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda obj: (one(obj),)
    reader: Callable[[object], tuple[object, ...]] = operator.attrgetter(*names)
    return reader


def _rebuilt_by_init(cls: type) -> bool:
    """Whether calling the dataclass ``cls(*values)`` sets exactly the fields to ``values`` and nothing else: its
    ``__init__`` is the dataclass' own, taking every field positionally (no keyword-only field, no ``InitVar``, none
    left out of it) and with no ``__post_init__``. It is about twice as quick as ``rebuild`` (one generated
    function)."""
    init = cls.__dict__.get("__init__")  # the generated one is the class' own (an inherited one: not told apart)
    if init is None or hasattr(cls, "__post_init__"):
        return False
    parameters = list(inspect.signature(init).parameters.values())[1:]  # without self
    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return [p.name for p in parameters] == list(_field_names(cls)) and all(p.kind == positional for p in parameters)


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """The names of ``cls``'s fields, in the order ``dataclasses.fields`` (and so ``__getstate__``) gives them."""
    return tuple(field.name for field in dataclasses.fields(cls))

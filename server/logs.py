"""How the server writes its log: one honest line per event, whatever text clients sent, as text or as JSON.

Why a formatter of its own: log lines carry text that came from the network - display names, room codes, refused
messages - and a name with a newline once forged a whole log line. The formatter escapes controls, separators and
bidi characters in every formatted message (``shared.names.printable``); only a traceback, which the server writes
itself, keeps its line breaks.

Why JSON as well (``--log-format json``): a cluster's nodes send their logs to one collector, which indexes fields
rather than parsing prose. Each line is one JSON object - time, level, logger, message, and the context fields
``node``, ``room``, ``match``, ``player`` when known - so "everything about match m-42 on every node" is one query.
Context comes from ``extra={"room": …}`` on a call or from ``bind(room=…)`` around a block of code; the binding is a
``contextvars`` value, so it follows the asyncio task that made it (and the tasks it starts), never another room's.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime
import json
import logging
import math
import types
from collections.abc import Iterator, Mapping

from shared.names import printable

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
FORMATS = ("text", "json")
CONTEXT_FIELDS = ("node", "room", "match", "player")  # the bound fields a JSON line carries when present

_context: contextvars.ContextVar[Mapping[str, object]] = contextvars.ContextVar(
    "sprtec_log_context", default=types.MappingProxyType({})
)


class EscapingFormatter(logging.Formatter):
    """A formatter whose message part is always one printable line."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        """The record's line, its message escaped (``record.message`` is what ``%(message)s`` shows)."""
        record.message = printable(record.message)
        return super().formatMessage(record)


@contextlib.contextmanager
def bind(**fields: object) -> Iterator[None]:
    """Add context fields (``room=``, ``match=``, ``player=``, ``node=``) to every line logged inside the block.

    Fields bound outside stay unless named again; leaving the block restores them. Only CONTEXT_FIELDS are accepted,
    so a typo cannot silently drop a field from every line.
    """
    unknown = sorted(set(fields) - set(CONTEXT_FIELDS))
    if unknown:
        raise ValueError(f"unknown log context field(s) {unknown}; known: {', '.join(CONTEXT_FIELDS)}")
    token = _context.set({**_context.get(), **fields})
    try:
        yield
    finally:
        _context.reset(token)


def bound() -> Mapping[str, object]:
    """The context fields bound where this is called."""
    return _context.get()


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601, ms), level, logger, message, context fields, exception.

    The message is escaped like the text format's (JSON alone would keep a bidi override or a zero-width joiner
    raw); ``extra=`` fields win over bound ones, and a field that is None is left out.
    """

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        line: dict[str, object] = {
            "time": datetime.datetime.fromtimestamp(record.created, tz=datetime.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": printable(record.getMessage()),
        }
        context = _context.get()
        for field in CONTEXT_FIELDS:
            value = getattr(record, field, context.get(field))
            if value is not None:
                line[field] = _field(value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


def _field(value: object) -> object:
    """A context value as JSON keeps it: whole numbers, finite floats and booleans as they are, the rest as text."""
    if isinstance(value, bool | int) or (isinstance(value, float) and math.isfinite(value)):
        return value
    return printable(str(value))


def formatter(fmt: str) -> logging.Formatter:
    """The formatter of ``fmt`` ("text" or "json")."""
    if fmt == "text":
        return EscapingFormatter(TEXT_FORMAT)
    if fmt == "json":
        return JsonFormatter()
    raise ValueError(f"unknown log format {fmt!r}; choose from {', '.join(FORMATS)}")


def configure(level: str, fmt: str = "text") -> None:
    """Log to stderr at ``level`` in ``fmt`` ("text" or "json"); websockets' own chatter only from WARNING."""
    handler = logging.StreamHandler()
    handler.setFormatter(formatter(fmt))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("websockets").setLevel(max(logging.WARNING, logging.getLevelName(level)))

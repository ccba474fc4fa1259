"""A log entry as a stored row - (kind, team, action JSON, elapsed ms) - and back.

Why a module of its own: the log is typed everywhere (``shared.match_log.LogEntry``); only the stores write it as
rows, and the export reads those rows back. The row's JSON is SCENARIOS.md's (``shared.notation``): the row of
kind ``action`` holds the action object, ``timeout`` an optional ``{"kind": K}`` (a choice that timed out),
``forfeit`` and ``resign`` nothing, ``elapse`` only time.
"""

from __future__ import annotations

from typing import Any

from shared import notation
from shared.match_log import LogEntry
from shared.model import Elapse, Forfeit, Timeout

Row = tuple[str, str | None, dict[str, Any] | None, int]  # kind, team, action JSON, elapsed ms


def entry_row(entry: LogEntry) -> Row:
    """The stored form of an entry."""
    item = entry.input
    if item is None:
        return "elapse", None, None, entry.elapsed_ms
    if isinstance(item, Timeout):
        return "timeout", item.team, None if item.kind is None else {"kind": item.kind}, entry.elapsed_ms
    if isinstance(item, Forfeit):
        return ("resign" if item.reason == "RESIGNED" else "forfeit"), item.team, None, entry.elapsed_ms
    return "action", item.team, notation.action_to_json(item), entry.elapsed_ms


def entry_from_row(index: int, kind: str, team: str | None, action: dict[str, Any] | None, elapsed: int) -> LogEntry:
    """The entry a stored row stands for; raises ``notation.NotationError`` for a row no server writes."""
    events = notation.log_entry_events(kind, team, action, elapsed)
    last = events[-1] if events else None
    item = None if last is None or isinstance(last, Elapse) else last
    return LogEntry(index=index, elapsed_ms=elapsed, input=item)

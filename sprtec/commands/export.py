"""``sprtec export --data DIR MATCH``: print a finished or running match as a scenario that ``sprtec scenario`` replays.

Why the export is faithful: the server's engine is pure, and every input of a match is in its log (DESIGN.md:
"the match log (seed, ruleset, actions) is therefore the replay"). A log entry is clock time, then one input
(``server.store.LogEntry``), and ``shared.notation.log_entry_events`` writes each entry as the scenario
entries it stands for: ``{"action": "elapse", "ms": N}`` for the running clock (when N > 0), then the coach's
action, a ``timeout``, or a ``forfeit`` (disconnect grace or resignation). ``sprtec scenario`` applies every
entry through ``shared.match.apply_event`` - ``clock.elapse``, ``apply_action``, ``timeout`` and ``forfeit``,
the same functions the server's ``apply_entry`` folds the log with - starting from the stored initial position
(which carries the ruleset, overrides and seed, so lots and 2.5-D draws repeat). The scenario is ``timed``:
the command then waits out no break on its own, since the ``elapse`` events already say how long each one
lasted. Actions are written exactly (no rounding), so each flick replays to the same move.

MATCH is the 12-hex match id; a room code (``ABC123``, any case, dashes ignored) names the room's latest
match. The database is opened read-only, so exporting beside a running server is safe: a running match
exports as far as its log is committed.

Output: the canonical scenario JSON on standard output, exit 0. An unknown data directory or match prints
``{"format": "sprtec-export-error/1", "error": {"code", "message"}}`` on standard output and exits 2
(``code``: ``NO_DATA``, ``NO_MATCH`` or ``BAD_LOG``).
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared import notation

HELP = "print a finished or running match as a SCENARIOS.md scenario that `sprtec scenario` replays"
ERROR_FORMAT = "sprtec-export-error/1"
DATABASE = "sprtec.sqlite3"  # the file server.store.Store keeps in its data directory
DEFAULT_DATA_DIR = "./data"  # server.constants.DEFAULT_DATA_DIR: where ``sprtec serve`` keeps it
MATCH_ID = re.compile(r"[0-9a-f]{12}")


class ExportError(Exception):
    """Why a match cannot be exported: ``code`` (``NO_DATA``, ``NO_MATCH``, ``BAD_LOG``) and a message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def to_json(self) -> dict[str, str]:
        """The ``error`` object printed on standard output."""
        return {"code": self.code, "message": str(self)}


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """What the export reads of one match: its initial position and its log rows (kind, team, action, ms)."""

    id: str
    initial_position: dict[str, Any]
    log: tuple[tuple[str, str | None, dict[str, Any] | None, int], ...]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--data DIR, MATCH and --pretty."""
    parser.add_argument("--data", type=Path, default=Path(DEFAULT_DATA_DIR), metavar="DIR",
                        help=f"the server's data directory (default {DEFAULT_DATA_DIR})")
    parser.add_argument("match", metavar="MATCH", help="the match id (12 hex digits) or a room code")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")


def run(args: argparse.Namespace) -> int:
    """Read the match, print its scenario; 2 with a JSON error when it cannot be found or read."""
    try:
        scenario = export(args.data, args.match)
    except ExportError as exc:
        _print({"format": ERROR_FORMAT, "error": exc.to_json()}, args.pretty)
        return 2
    _print(notation.scenario_to_json(scenario), args.pretty)
    return 0


def export(data_dir: Path, match: str) -> notation.Scenario:
    """The scenario of ``match`` (an id or a room code) stored under ``data_dir``."""
    stored = read_match(data_dir, match)
    try:
        position = notation.position_from_json(stored.initial_position, path="initial_position")
        entries: list[notation.ScenarioEntry] = []
        for index, (kind, team, action, elapsed_ms) in enumerate(stored.log):
            try:
                entries.extend(notation.log_entry_events(kind, team, action, elapsed_ms))
            except notation.NotationError as exc:
                raise ExportError("BAD_LOG", f"match {stored.id}, log entry {index}: {exc}") from None
    except notation.NotationError as exc:
        raise ExportError("BAD_LOG", f"match {stored.id}: {exc}") from None
    return notation.Scenario(position, tuple(entries), timed=True)


def read_match(data_dir: Path, match: str) -> StoredMatch:
    """The stored match named by ``match``, read through a read-only connection (the server may be running)."""
    path = data_dir / DATABASE
    if not path.is_file():
        raise ExportError("NO_DATA", f"no sprtec database in {data_dir} (expected {path})")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise ExportError("NO_DATA", f"cannot open {path}: {exc}") from None
    try:
        match_id = _match_id(conn, match)
        row = conn.execute("SELECT initial_position FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise ExportError("NO_MATCH", f"no match {match!r} in {path}")
        rows = conn.execute(
            "SELECT kind, team, action, elapsed_ms FROM match_log WHERE match_id = ? ORDER BY idx", (match_id,)
        ).fetchall()
        log = tuple((str(k), t, None if a is None else json.loads(a), int(ms)) for k, t, a, ms in rows)
        return StoredMatch(match_id, json.loads(row[0]), log)
    except sqlite3.Error as exc:
        raise ExportError("NO_DATA", f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ExportError("BAD_LOG", f"match {match!r}: stored JSON is broken: {exc}") from None
    finally:
        conn.close()


def _match_id(conn: sqlite3.Connection, match: str) -> str:
    """``match`` itself when it is a match id, else the latest match of the room with that code."""
    if MATCH_ID.fullmatch(match.strip().lower()):
        return match.strip().lower()
    code = "".join(ch for ch in match.upper() if ch.isalnum())  # as server.tokens.normalise_code stores it
    row = conn.execute(
        "SELECT id FROM matches WHERE room_code = ? ORDER BY started_at DESC, rowid DESC LIMIT 1", (code,)
    ).fetchone()
    if row is None:
        raise ExportError("NO_MATCH", f"no match with id or room code {match!r}")
    return str(row[0])


def _print(value: dict[str, Any], pretty: bool) -> None:
    """One JSON object and a newline on standard output."""
    sys.stdout.write(notation.dumps(value, pretty=pretty) + "\n")
    sys.stdout.flush()

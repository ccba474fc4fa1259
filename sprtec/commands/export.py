"""``sprtec export --data DIR MATCH``: print a finished or running match as a scenario that ``sprtec scenario`` replays.

The scenario is built by ``server.replays.replay_export`` - the same code that answers a client's ``GetReplay`` - so a
replay saved from the results screen and an operator's export are the same document. Why it is faithful (the
log is the match; each entry becomes its clock time, then its input) is explained there and in
docs/SCENARIOS-EXTENSIONS.md.

MATCH is the 12-hex match id; a room code (``ABC123``, any case, dashes ignored) names the room's latest
match. The database is opened read-only, so exporting beside a running server is safe: a running match
exports as far as its log is committed.

Output: the canonical scenario JSON on standard output, exit 0. An unknown data directory or match prints
``{"format": "sprtec-export-error/1", "error": {"code", "message"}}`` on standard output and exits 2
(``code``: ``NO_DATA``, ``NO_MATCH`` or ``BAD_LOG``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from server.replays.replay_export import build_scenario, export
from server.store.match_reads import ExportError
from shared import notation

HELP = "print a finished or running match as a SCENARIOS.md scenario that `sprtec scenario` replays"
ERROR_FORMAT = "sprtec-export-error/1"
DEFAULT_DATA_DIR = "./data"  # server.constants.DEFAULT_DATA_DIR: where ``sprtec serve`` keeps it


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--data DIR (or --postgres URL), MATCH and --pretty."""
    parser.add_argument("--data", type=Path, default=Path(DEFAULT_DATA_DIR), metavar="DIR",
                        help=f"the server's data directory (default {DEFAULT_DATA_DIR})")
    parser.add_argument("--postgres", default=None, metavar="URL",
                        help="a cluster's PostgreSQL store instead of a data directory (read only)")
    parser.add_argument("match", metavar="MATCH", help="the match id (12 hex digits) or a room code")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")


def run(args: argparse.Namespace) -> int:
    """Read the match, print its scenario; 2 with a JSON error when it cannot be found or read."""
    try:
        scenario = export(args.data, args.match) if args.postgres is None else _from_postgres(args.postgres, args.match)
    except ExportError as exc:
        _print({"format": ERROR_FORMAT, "error": exc.to_json()}, args.pretty)
        return 2
    _print(notation.scenario_to_json(scenario), args.pretty)
    return 0


def _from_postgres(url: str, match: str) -> notation.Scenario:
    """The match's scenario from a cluster's store (read only: no migration, no writer)."""
    from server.store.postgres.pg_store import PgStore

    try:
        store = PgStore(url, migrate=False)
    except (OSError, ValueError) as exc:
        raise ExportError("NO_DATA", f"cannot reach the PostgreSQL store: {exc}") from None
    try:
        return build_scenario(store.read_match(match))
    finally:
        store.close()


def _print(value: dict[str, Any], pretty: bool) -> None:
    """One JSON object and a newline on standard output."""
    sys.stdout.write(notation.dumps(value, pretty=pretty) + "\n")
    sys.stdout.flush()

"""``sprtec scenario FILE|-``: run a scenario through the engine and print the result (SCENARIOS.md contract).

Why: a scenario is the project's bug report and rule test in one file; this command is the one way to run one
outside the test suite, and other programs parse its output, so the output is exactly SCENARIOS.md "Result":
one JSON object ``{"format": "sprtec-scenario-result/1", "results": [...]}`` on standard output, exit 0,
whether or not the actions were accepted. A refused action changes nothing; the next one is tried on the same
position.

When the scenario cannot be read (no such file, not JSON, or a position/action that fails validation) the
command prints one JSON object ``{"format": "sprtec-scenario-error/1", "error": {"code", "message", "path",
"body"}}`` - also on **standard output**, so a caller always parses stdout - and exits 2. ``code`` is
``UNREADABLE``, ``INVALID_JSON``, ``INVALID_POSITION``, ``INVALID_ACTION`` or ``INVALID_SCENARIO``; ``path``
names the offending field (``position.stones[3].x``) and ``body`` the offending body (``a2``, ``puck``) where
there is one. A bare position file (``"format": "sprtec-position/1"``) runs as a scenario with no actions.

Beside the actions a scenario may hold clock events (docs/SCENARIOS-EXTENSIONS.md): ``elapse`` (running time
passes), ``timeout`` (a move clock or choice ran out, ruled by the decision ``TIMEOUT`` with the team and the
choice's kind, beyond SCENARIOS.md's list) and ``forfeit`` (house rule: a team loses). Every entry goes through
``shared.match.apply_event``, the same path as the server's log, and gets a result entry of the same shape (a
clock event's ``duration_ms`` is 0). This is what makes ``sprtec export`` replayable here.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from shared import notation

if TYPE_CHECKING:
    from shared.outcome import Decision

HELP = "run a scenario (JSON position + actions, SCENARIOS.md) through the engine and print the result as JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE (or ``-`` for standard input) and the output options."""
    parser.add_argument("file", metavar="FILE", help="the scenario JSON file, or - to read standard input")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")
    parser.add_argument(
        "--no-position", action="store_true", help="leave the position out of each accepted result (shorter output)"
    )


def run(args: argparse.Namespace) -> int:
    """Read, run and print; 0 when the scenario could be read, 2 (with a JSON error) when it could not."""
    try:
        scenario = notation.scenario_from_json(_read(args.file))
    except notation.NotationError as exc:
        return _fail(exc.to_json(), args.pretty)
    except OSError as exc:
        return _fail({"code": "UNREADABLE", "message": f"cannot read {args.file}: {exc.strerror or exc}"}, args.pretty)
    results = run_scenario(scenario, with_position=not args.no_position)
    _print({"format": notation.RESULT_FORMAT, "results": results}, args.pretty)
    return 0


def run_scenario(scenario: notation.Scenario, *, with_position: bool = True) -> list[dict[str, Any]]:
    """Apply the entries in order through ``shared.match.apply_event``; one result entry per action or event.

    Time advances only by moves (SCENARIOS.md) and ``elapse`` events, so in a scenario that is not ``timed`` a
    break would never end: before each coach action the rest of a break is waited out (``clock.wait_out_break``,
    III.5) and its decisions (the next part's ``RESTART``) are reported first in that action's result - or, when
    the action is refused, in the next accepted entry. A clock event never waits: an ``elapse`` runs through the
    break itself, and a forfeit or timeout happens when it happens. A ``timed`` scenario (an export) waits out
    nothing: its ``elapse`` events say exactly how long every break lasted.
    """
    from dataclasses import replace  # the engine is heavy (pymunk); import only when running

    from shared.match import apply_event, settings_of
    from shared.model import SCENARIO_EVENT_TYPES
    from shared.referee import clock

    position = scenario.position
    pending: tuple[Decision, ...] = ()
    results = []
    for index, action in enumerate(scenario.actions):
        is_event = action.action in SCENARIO_EVENT_TYPES
        if not scenario.timed and not is_event:
            position, waited = clock.wait_out_break(position, settings_of(position))
            pending += waited
        result = apply_event(position, action)
        if result.accepted:
            if pending:  # the waited-out break came first; the engine's decisions are already in the referee's order
                result = replace(result, decisions=(*pending, *result.decisions))
                pending = ()
            position = result.position
        results.append(notation.result_to_json(result, index, with_position=with_position))
    return results


def _read(name: str) -> bytes:
    """The bytes of FILE, or of standard input for ``-``."""
    if name == "-":
        return sys.stdin.buffer.read()
    with open(name, "rb") as handle:
        return handle.read()


def _fail(error: dict[str, Any], pretty: bool) -> int:
    """Print the error object and return exit status 2."""
    _print({"format": notation.ERROR_FORMAT, "error": error}, pretty)
    return 2


def _print(value: dict[str, Any], pretty: bool) -> None:
    """One JSON object and a newline on standard output."""
    sys.stdout.write(notation.dumps(value, pretty=pretty) + "\n")
    sys.stdout.flush()

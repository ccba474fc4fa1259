"""A stored match as a SCENARIOS.md scenario: the one builder behind ``sprtec export`` and the server's ``Replay``.

Why one module: the command line (``sprtec export --data DIR MATCH``) and the protocol (``GetReplay``) must hand
out the same scenario for the same match, or a replay saved from the results screen could differ from the one
an operator exports. Both call ``read_match`` then ``build_scenario`` here.

Why the export is faithful: the server's engine is pure, and every input of a match is in its log (docs/ARCHITECTURE.md
"A move is a pure function": the match log is the replay). A log entry is clock time, then one input
(``server.store.sqlite.sqlite_store.LogEntry``), and ``shared.notation.log_entry_events`` writes each entry as the
scenario entries it stands for. The scenario is ``timed`` (docs/SCENARIOS-EXTENSIONS.md) and starts from the stored
initial position, which carries the ruleset, overrides and seed.
The match is read by ``server.store.match_reads``, off the event loop and beside a running server.
"""

from __future__ import annotations

from pathlib import Path

from server.store.match_reads import ExportError, StoredMatch, read_match
from shared import notation


def build_scenario(stored: StoredMatch) -> notation.Scenario:
    """The timed scenario of a stored match: its initial position, then each log entry's events in order."""
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
    return notation.Scenario(position, tuple(entries), timed=True, players=stored.players)


def scenario_text(stored: StoredMatch) -> str:
    """The scenario as canonical JSON text, exactly the line ``sprtec export`` prints (without its newline)."""
    return notation.dumps(notation.scenario_to_json(build_scenario(stored)))


def export(data_dir: Path, match: str) -> notation.Scenario:
    """The scenario of ``match`` (an id or a room code) stored under ``data_dir``."""
    return build_scenario(read_match(data_dir, match))



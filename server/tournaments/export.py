"""A tournament out of a data directory: its file, its standings (JSON and CSV), its audit log, every match's replay.

Why from the data directory and not over the protocol: an organiser exports after the event, with or without a
running server, and what he exports must be what the server recorded - so the log is read read-only (WAL lets it
beside a running server) and folded by the same code the server runs (``server.tournaments.state``). The
tournament file is the contract's canonical file, so ``sprtec tournament standings`` of it prints exactly the
exported ``standings.json``; each match is the scenario ``sprtec export`` would print
(``server.replays.replay_export``).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.replays.replay_export import scenario_text
from server.store.match_reads import ExportError, read_match
from server.store.sqlite.data_reader import NoData, ReadOnlyData
from server.tournaments import tournament_records as records
from server.tournaments.log import TableOpened
from server.tournaments.state import TournamentState, fold
from shared.tournament.course import follow
from shared.tournament.standings import stage_standings, standings
from shared.tournament.table import Standings
from shared.tournament.table import to_json as standings_json
from shared.tournament.writing import dumps

STANDINGS_COLUMNS = ("rank", "shared", "player", "name", "points", "played", "wins", "draws", "losses", "byes",
                     "goals_for", "goals_against", "tiebreaks", "yellow", "red", "suspended_next")
AUDIT_COLUMNS = ("at_ms", "who", "act", "detail", "reason")


class TournamentExportError(Exception):
    """Why a tournament cannot be exported (no data, no such tournament)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Exported:
    """What an export wrote: the tournament's state and every file, in the order written."""

    state: TournamentState
    files: tuple[Path, ...]


def export(data_dir: Path, tournament_id: str, out_dir: Path) -> Exported:
    """Write the tournament's files into ``out_dir`` (created if need be)."""
    try:
        data = ReadOnlyData(data_dir)
    except NoData as exc:
        raise TournamentExportError(str(exc)) from None
    try:
        wanted = tournament_id.strip().upper()
        if records.tournament(data, wanted) is None:
            raise TournamentExportError(f"no tournament {tournament_id!r} in {data_dir}")
        rows = records.log(data, wanted)
    except NoData as exc:
        raise TournamentExportError(str(exc)) from None
    finally:
        data.close()
    state = fold(wanted, rows)
    out_dir.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []

    def write(name: str, text: str) -> None:
        """One file of the export."""
        path = out_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        files.append(path)

    t = state.tournament
    write("tournament.json", dumps(t))
    course = follow(t)
    names = {p.id: p.name for p in t.players}
    write("standings.json", standings_text(standings(course)))
    write("standings.csv", standings_csv(standings(course), names))
    for sc in course.stages:
        table = stage_standings(t, sc, sc.finished, complete=course.complete)
        write(f"standings-stage-{sc.index}.json", standings_text(table))
        write(f"standings-stage-{sc.index}.csv", standings_csv(table, names))
    audit = [{"at_ms": a.at_ms, "who": a.who, "act": a.act, "detail": a.detail, "reason": a.reason}
             for a in state.audit]
    write("audit.json", json.dumps({"tournament": state.id, "audit": audit}, ensure_ascii=False, indent=2) + "\n")
    write("audit.csv", _csv(AUDIT_COLUMNS, [[line[c] for c in AUDIT_COLUMNS] for line in audit]))
    for row in rows:
        event = row.event
        if isinstance(event, TableOpened):
            try:
                text = scenario_text(read_match(data_dir, event.match_id))
            except ExportError:
                continue  # the table's match never started (a no-show, a table reopened after a restart)
            write(f"matches/s{event.stage}-r{event.round}-t{event.table}-{event.match_id}.json", text + "\n")
    return Exported(state=state, files=tuple(files))


def standings_text(table: Standings) -> str:
    """The standings exactly as ``sprtec tournament standings`` prints them: one JSON object and a newline."""
    return json.dumps(standings_json(table), ensure_ascii=False, allow_nan=False) + "\n"


def standings_csv(table: Standings, names: dict[str, str]) -> str:
    """The standings as CSV: the contract's fields, the name beside the player, tie-breaks as name=value."""
    lines: list[list[Any]] = []
    for row in table.rows:
        breaks = " ".join(f"{name}={value}" for name, value in row.tiebreaks)
        lines.append([row.rank, row.shared, row.player, names.get(row.player, ""), row.points, row.played, row.wins,
                      row.draws, row.losses, row.byes, row.goals_for, row.goals_against, breaks, row.yellow, row.red,
                      row.suspended_next])
    return _csv(STANDINGS_COLUMNS, lines)


def _csv(columns: tuple[str, ...], lines: list[list[Any]]) -> str:
    """A CSV text with a header line."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(lines)
    return out.getvalue()

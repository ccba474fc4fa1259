"""A tournament out of a data directory: its file, its standings (JSON and CSV), its final ranking, the association's
sheet, its audit log (each act's time in epoch milliseconds and in local time), every match's replay.

Why from the data directory and not over the protocol: an organiser exports after the event, with or without a
running server, and what he exports must be what the server recorded - so the log is read read-only (WAL lets it
beside a running server) and folded by the same code the server runs (``server.tournaments.state``). The
tournament file is the contract's canonical file, so ``sprtec tournament standings`` of it prints exactly the
exported ``standings.json`` and ``sprtec tournament ranking`` of it exactly the exported ``ranking.json``; the CSV is
for a spreadsheet (``standings_csv``), ``association.xlsx`` for the association (``association_sheet``), and, where
matches are played on boards, ``referees.json`` (``sprtec-referees/1``: what ``import`` writes and ``print``
reads); each match
is the scenario ``sprtec export`` would print (``server.replays.replay_export``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from server.store.sqlite.data_reader import NoData, ReadOnlyData
from server.tournaments import tournament_records as records
from server.tournaments.association_sheet import association_xlsx
from server.tournaments.export_folder import Folder
from server.tournaments.log import Row, TableOpened
from server.tournaments.standings_csv import csv_text, standings_csv
from server.tournaments.state import TournamentState, fold
from server.tournaments.views import refereed_of
from shared.tournament.board_referees import to_json as referees_json
from shared.tournament.course import follow
from shared.tournament.ranking import Ranking, rank_course
from shared.tournament.ranking import to_json as ranking_json
from shared.tournament.standings import stage_standings, standings
from shared.tournament.table import Standings
from shared.tournament.table import to_json as standings_json
from shared.tournament.writing import dumps

AUDIT_COLUMNS = ("at_ms", "at", "who", "act", "detail", "reason")


class TournamentExportError(Exception):
    """Why a tournament cannot be exported (no data, no such tournament)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Exported:
    """What an export wrote: the tournament's state and every file, in the order written."""

    state: TournamentState
    files: tuple[Path, ...]


def read_state(data_dir: Path, tournament_id: str) -> tuple[TournamentState, tuple[Row, ...]]:
    """The tournament as its log folds, and the log, read read-only from the data directory."""
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
    return fold(wanted, rows), tuple(rows)


def export(data_dir: Path, tournament_id: str, out_dir: Path) -> Exported:
    """Write the tournament's files into ``out_dir`` (created if need be)."""
    state, rows = read_state(data_dir, tournament_id)
    folder = Folder(out_dir)
    write = folder.write

    t = state.tournament
    write("tournament.json", dumps(t))
    course = follow(t)
    ranking = rank_course(course)
    refereed = refereed_of(state)  # XVII.1: the boards' referees, where matches are played on boards
    write("standings.json", standings_text(standings(course)))
    write("standings.csv", standings_csv(t, standings(course), ranking, refereed))
    for sc in course.stages:
        table = stage_standings(t, sc, sc.finished, complete=course.complete)
        write(f"standings-stage-{sc.index}.json", standings_text(table))
        write(f"standings-stage-{sc.index}.csv", standings_csv(t, table, ranking, refereed))
    write("ranking.json", ranking_text(ranking))
    if refereed is not None:
        write("referees.json", json.dumps(referees_json(state.referees), ensure_ascii=False, indent=2) + "\n")
    sheet = association_xlsx(t, referees=state.referees if refereed is not None else None, refereed=refereed)
    folder.write_bytes("association.xlsx", sheet)
    audit = [{"at_ms": a.at_ms, "at": local_time(a.at_ms), "who": a.who, "act": a.act, "detail": a.detail,
              "reason": a.reason} for a in state.audit]
    write("audit.json", json.dumps({"tournament": state.id, "audit": audit}, ensure_ascii=False, indent=2) + "\n")
    write("audit.csv", csv_text(AUDIT_COLUMNS, [[line[c] for c in AUDIT_COLUMNS] for line in audit]))
    for row in rows:
        event = row.event
        if isinstance(event, TableOpened):
            folder.replay(data_dir, f"matches/s{event.stage}-r{event.round}-t{event.table}-{event.match_id}.json",
                          event.match_id)
    return Exported(state=state, files=tuple(folder.files))


def local_time(at_ms: int) -> str:
    """An audit line's moment in this machine's local time with its offset (``2026-12-01T10:15:03+01:00``), beside
    the epoch milliseconds the log keeps: the organiser reads the one, a program the other."""
    return datetime.fromtimestamp(at_ms / 1000).astimezone().isoformat(timespec="seconds")


def standings_text(table: Standings) -> str:
    """The standings exactly as ``sprtec tournament standings`` prints them: one JSON object and a newline."""
    return json.dumps(standings_json(table), ensure_ascii=False, allow_nan=False) + "\n"


def ranking_text(ranking: Ranking) -> str:
    """The ranking exactly as ``sprtec tournament ranking`` prints it: one JSON object and a newline."""
    return json.dumps(ranking_json(ranking), ensure_ascii=False, allow_nan=False) + "\n"

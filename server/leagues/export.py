"""A league out of a data directory: its file with every game, its table (JSON and CSV), every online game's replay.

Why from the data directory (as ``server.tournaments.export``): an organiser exports after the match day, with or
without a running server, and what he exports must be what the server recorded - the log read read-only and folded
by the code the server runs (``server.leagues.state``). ``league.json`` is the contract's canonical file, so
``sprtec league table`` of it prints exactly the exported ``table.json``; ``table.csv`` is the table for a
spreadsheet, ``players.csv`` the players' lines; each game played online is the scenario ``sprtec export`` would
print of its match (``server.replays.replay_export``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from server.leagues import league_records as records
from server.leagues.log import GameTableOpened, Row
from server.leagues.state import LeagueState, fold
from server.store.sqlite.data_reader import NoData, ReadOnlyData
from server.tournaments.export_folder import Folder
from server.tournaments.standings_csv import csv_text
from shared.league.players import player_lines
from shared.league.table import league_table_json, table
from shared.league.writing import dumps

TABLE_COLUMNS = ("rank", "shared", "team", "name", "played", "wins", "draws", "losses", "games_for", "games_against",
                 "points")
PLAYER_COLUMNS = ("player", "name", "team", "games", "won", "drawn", "lost")


class LeagueExportError(Exception):
    """Why a league cannot be exported (no data, no such league)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Exported:
    """What an export wrote: the league's state and every file, in the order written."""

    state: LeagueState
    files: tuple[Path, ...]


def read_state(data_dir: Path, league_id: str) -> tuple[LeagueState, tuple[Row, ...]]:
    """The league as its log folds, and the log, read read-only from the data directory."""
    try:
        data = ReadOnlyData(data_dir)
    except NoData as exc:
        raise LeagueExportError(str(exc)) from None
    try:
        wanted = league_id.strip().upper()
        if not any(row.id == wanted for row in records.leagues(data)):
            raise LeagueExportError(f"no league {league_id!r} in {data_dir}")
        rows = records.log(data, wanted)
    except NoData as exc:
        raise LeagueExportError(str(exc)) from None
    finally:
        data.close()
    return fold(wanted, rows), tuple(rows)


def export(data_dir: Path, league_id: str, out_dir: Path) -> Exported:
    """Write the league's files into ``out_dir`` (created if need be)."""
    state, rows = read_state(data_dir, league_id)
    folder = Folder(out_dir)
    write = folder.write

    league = state.league
    write("league.json", dumps(league))
    write("table.json", table_text(state))
    names = {t.id: t.name for t in league.teams}
    write("table.csv", csv_text(TABLE_COLUMNS, [
        [r.rank, "true" if r.shared else "false", r.team, names[r.team], r.played, r.wins, r.draws, r.losses,
         r.games_for, r.games_against, r.points] for r in table(league)]))
    write("players.csv", csv_text(PLAYER_COLUMNS, [
        [p.player, state.name_of(p.player), p.team, p.games, p.won, p.drawn, p.lost] for p in player_lines(league)]))
    for row in rows:
        event = row.event
        if isinstance(event, GameTableOpened):  # a game whose match never started has none
            folder.replay(data_dir, f"games/{event.fixture}-r{event.round}-b{event.board}-{event.match_id}.json",
                          event.match_id)
    return Exported(state=state, files=tuple(folder.files))


def table_text(state: LeagueState) -> str:
    """The table exactly as ``sprtec league table`` prints it of the league's file: one JSON object and a newline."""
    return json.dumps(league_table_json(state.league), ensure_ascii=False, allow_nan=False) + "\n"

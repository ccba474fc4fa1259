"""The standings CSV: a column per field, UTF-8 with a byte-order mark, for a spreadsheet."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from server.tournaments.standings_csv import BOM, standings_columns, standings_csv
from shared.tournament.board_referees import refereed_counts
from shared.tournament.course import follow
from shared.tournament.ranking import rank_course
from shared.tournament.standings import standings
from shared.tournament.turnaj_import import import_save

HERE = Path(__file__).parent


def test_the_standings_csv_has_a_column_per_field_and_a_byte_order_mark() -> None:
    """The text starts with the BOM (EF BB BF as UTF-8); the header names every field, each tie-break, cup points
    and the refereed count; every row has one value per column and Czech and Polish names as they are."""
    imported = import_save((HERE / "turnaj" / "cup24.save.json").read_bytes())
    t = imported.tournament
    course = follow(t)
    table = standings(course)
    text = standings_csv(t, table, rank_course(course), refereed_counts(t, imported.referees))
    assert text.startswith(BOM) and text.encode("utf-8")[:3] == b"\xef\xbb\xbf"
    rows = list(csv.DictReader(io.StringIO(text[1:])))
    assert list(rows[0]) == list(standings_columns(table)) == [
        "rank", "shared", "player", "name", "club", "category", "points", "played", "wins", "draws", "losses", "byes",
        "goals_for", "goals_against", "buchholz", "goals_capped", "buchholz2", "yellow", "red", "suspended_next",
        "cup_points", "refereed"]
    assert rows[0] == {"rank": "1", "shared": "false", "player": "horak-karel", "name": "Karel Horák",
                       "club": "TJ Sokol Bohumín", "category": "V", "points": "15", "played": "5", "wins": "5",
                       "draws": "0", "losses": "0", "byes": "0", "goals_for": "22", "goals_against": "7",
                       "buchholz": "38", "goals_capped": "20", "buchholz2": "224", "yellow": "0", "red": "0",
                       "suspended_next": "false", "cup_points": "157", "refereed": "0"}
    assert "Łukasz Żółć" in [r["name"] for r in rows] and len(rows) == 27


def test_unknown_cup_points_and_refereed_counts_are_empty_cells() -> None:
    """Without a cup, a ranking or referees the columns are there and empty."""
    imported = import_save((HERE / "turnaj" / "midway.save.json").read_bytes())
    t = imported.tournament
    table = standings(follow(t))
    rows = list(csv.DictReader(io.StringIO(standings_csv(t, table)[1:])))
    assert {(r["cup_points"], r["refereed"]) for r in rows} == {("", "")}

"""The association's sheet: the organisers' program's workbook, cell for cell, from a sprtec tournament.

``turnaj/cup24.program.xlsx`` is the workbook the program itself wrote (``resultsExportExcel`` of its app.js, under
node with exceljs 0.8.2) for ``turnaj/cup24.save.json``; the import of that save must give the same workbook but for
the readings named (docs/TOURNAMENT-NOTES.md "The association's sheet").
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from openpyxl import Workbook, load_workbook

from server.tournaments.association_sheet import (
    RESULT_COLUMNS,
    ROUND_COLUMNS,
    Heading,
    association_name,
    association_xlsx,
)
from shared.tournament.board_referees import refereed_counts
from shared.tournament.course import follow
from shared.tournament.reading import parse
from shared.tournament.standings import standings
from shared.tournament.turnaj_import import import_save

HERE = Path(__file__).parent
PROGRAM = HERE / "turnaj" / "cup24.program.xlsx"
GOLDEN = HERE / "golden"


def _ours() -> Workbook:
    """The association's sheet of the imported save, with its venue, organiser, competitions and referees."""
    imported = import_save((HERE / "turnaj" / "cup24.save.json").read_bytes())
    t = imported.tournament
    data = association_xlsx(t, referees=imported.referees, refereed=refereed_counts(t, imported.referees),
                            heading=Heading(venue=imported.venue, host=imported.host, contests=imported.contests))
    return load_workbook(io.BytesIO(data))


def _differences(program: Workbook, ours: Workbook) -> list[tuple[str, str, object, object]]:
    """Every cell whose value differs (an empty string and an empty cell are the same)."""
    out: list[tuple[str, str, object, object]] = []
    for name in program.sheetnames:
        theirs, mine = program[name], ours[name]
        for row in range(1, max(theirs.max_row, mine.max_row) + 1):
            for column in range(1, 18):
                a, b = theirs.cell(row, column).value, mine.cell(row, column).value
                if (a if a != "" else None) != (b if b != "" else None):
                    out.append((name, theirs.cell(row, column).coordinate, a, b))
    return out


def test_the_association_sheet_is_the_programs_workbook_cell_for_cell() -> None:
    """Same sheets, heading, header, rows, round sheets with referees, byes and recorders; the only cells that differ
    are the Buchholz columns (BS, BSS: the program's compensation of missed rounds, which sprtec applies) and the
    program's ``!`` on the first player of the unknown category."""
    program, ours = load_workbook(PROGRAM), _ours()
    assert ours.sheetnames == program.sheetnames == ["Výsledky", "1. kolo", "2. kolo", "3. kolo", "4. kolo", "5. kolo"]
    differing = _differences(program, ours)
    assert {(sheet, cell[0]) for sheet, cell, _, _ in differing} == {("Výsledky", "J"), ("Výsledky", "L"),
                                                                     ("Výsledky", "D")}
    assert [(cell, a, b) for _, cell, a, b in differing if cell[0] == "D"] == [("D30", "?!", "?")]
    for name in program.sheetnames:
        assert sorted(map(str, ours[name].merged_cells.ranges)) == sorted(map(str, program[name].merged_cells.ranges))


def test_the_buchholz_columns_are_sprtecs_standings() -> None:
    """BS and BSS of every row are the imported tournament's Buchholz and Buchholz of Buchholz."""
    imported = import_save((HERE / "turnaj" / "cup24.save.json").read_bytes())
    rows = standings(follow(imported.tournament)).rows
    sheet = _ours()["Výsledky"]
    assert [(sheet.cell(8 + i, 10).value, sheet.cell(8 + i, 12).value) for i in range(len(rows))] == \
        [(r.tiebreak("buchholz"), r.tiebreak("buchholz2")) for r in rows]


def test_the_heading_fonts_widths_and_alignments_are_the_programs() -> None:
    """A1:Q1 in Arial 18 bold, centred; rows 2 and 6 of height 10; the columns' widths and alignments as the program
    declares them."""
    sheet = _ours()["Výsledky"]
    assert (sheet["A1"].value, sheet["A1"].font.name, sheet["A1"].font.size, sheet["A1"].font.b) == \
        ("ČESKÝ POHÁR 24 — BRNO", "Arial", 18, True)
    assert (sheet.row_dimensions[2].height, sheet.row_dimensions[6].height) == (10, 10)
    assert [sheet.cell(7, c).value or "" for c in range(1, 18)] == [title for title, _, _ in RESULT_COLUMNS]
    assert [c[1] for c in RESULT_COLUMNS] == [5, 25, 25, 4, 3, 3, 3, 3, 5, 5, 5, 5, 5, 1, 5, 5, 3]
    assert [c[1] for c in ROUND_COLUMNS] == [25, 25, 4, 1, 4, 25]
    assert [sheet.cell(8, c).alignment.horizontal for c in range(1, 18)] == [side for _, _, side in RESULT_COLUMNS]
    assert (sheet["C3"].value, sheet["L3"].value, sheet["C4"].value, sheet["L5"].value) == \
        ("Sokolovna Líšeň", "22. 11. 2025", "Český pohár 2026, Žákovská tour 2026", "ČP24")


def test_the_association_sheet_names_players_as_the_association_writes_them() -> None:
    """``Jan Novák`` is ``NOVÁK Jan``; a name already so, or of one word, stays."""
    assert association_name("Jan Novák") == "NOVÁK Jan"
    assert association_name("Josef ml. Procházka") == "PROCHÁZKA Josef ml."
    assert association_name("ŻÓŁĆ Łukasz") == "ŻÓŁĆ Łukasz"
    assert association_name("  Bot ") == "Bot"


def test_a_tournament_of_two_stages_is_one_line_per_player_in_the_final_ranking() -> None:
    """A Swiss then a knockout: rows in the final ranking, matches and points summed over both stages, the Swiss
    tie-breaks, a round sheet per round of each stage; without referees column R and the referees are empty."""
    t = parse((GOLDEN / "swiss-then-knockout" / "final.tournament.json").read_bytes())
    book = load_workbook(io.BytesIO(association_xlsx(t)))
    sheet = book["Výsledky"]
    ranking = json.loads((GOLDEN / "swiss-then-knockout" / "final.ranking.json").read_text())["ranking"]
    assert [sheet.cell(8 + i, 2).value for i in range(len(ranking))] == [association_name(r["name"]) for r in ranking]
    assert sheet.cell(8 + len(ranking), 2).value is None
    swiss = json.loads((GOLDEN / "swiss-then-knockout" / "final.standings.json").read_text())
    assert swiss["stage"] == 1
    finalist = ranking[0]["player"]
    played = sum(1 for r in t.results for e in r.matches if finalist in e.players())
    assert sheet.cell(8, 5).value == played
    assert all(sheet.cell(8 + i, 17).value is None for i in range(len(ranking)))
    assert book.sheetnames[1:] == [f"{r.stage + 1}. fáze, {r.round}. kolo" for r in t.results]
    assert all(book[name].cell(2, 6).value is None for name in book.sheetnames[1:])
    assert sheet["L5"].value == "Nezařazeno do ČP"

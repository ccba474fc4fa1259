"""The association's sheet: the tournament as the ``.xlsx`` the organisers' program sends to ČSBH.

Why this layout, cell for cell: the association collects every Czech Cup tournament's results as the workbook the
organisers' program (turnaj-sprtec, ``resultsExportExcel`` in its app.js) writes, so sprtec writes the same one,
with openpyxl (the kept library for the format). Sheet "Výsledky": the tournament's name in capitals over A1:Q1
(Arial 18, bold, centred), a row of height 10, the venue and date, the competitions and discipline, the organiser
and tier (label pairs merged A:B, C:I, J:K, L:Q), a row of height 10, then the header ``'' Hráč Klub K Z V R P B BS
VB BSS BV '' BO ČP R`` and a row per player: place ``1.``, name, club, category (``!`` for a category winner),
matches, wins, draws, losses, points, Buchholz, capped goals, Buchholz of Buchholz, goals for ``:`` against, Czech
Cup points (0 outside the cup) and how often he refereed (``!`` below ⌊played / 2⌋). Then a sheet per round,
"1. kolo": ``Domácí Host Výsledek '' '' Rozhodčí`` and a row per board (the score's two cells around ``:``, the
referee), a blank row, the bye ("Volné kolo:") and the recorders of the referees ("Zapisovatel rozhodčích:").

What sprtec adds or reads its own way (docs/TOURNAMENT-NOTES.md "The association's sheet"): the rows follow the
final ranking (``shared.tournament.ranking``), every stage counted - place, category, category winner and cup
points from the ranking, matches, results, points and goals summed over the stages, the Swiss tie-breaks of the
first stage; a name is written as the association's lists write it, ``NOVÁK Jan`` (``association_name``); a shared
place is written once per player (``5.`` twice); a walkover is its score (5:0); a tournament
of several stages names its round sheets "2. fáze, 1. kolo". The refereed counts and the boards' referees are an
input (``board_referees``) until the server keeps referee duty: without it column R and the referees stay empty.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from babel.dates import format_date
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from shared.tournament.board_referees import Referees, refereed_too_little
from shared.tournament.course import follow
from shared.tournament.model import Bye, Match, Tier, Tournament
from shared.tournament.progress import Course
from shared.tournament.ranking import rank_course
from shared.tournament.standings import stage_standings
from shared.tournament.table import Row

# (header, width, horizontal alignment) of "Výsledky", as resultsExportExcel declares them.
RESULT_COLUMNS: tuple[tuple[str, int, str | None], ...] = (
    ("", 5, "right"), ("Hráč", 25, None), ("Klub", 25, None), ("K", 4, "center"), ("Z", 3, "center"),
    ("V", 3, "center"), ("R", 3, "center"), ("P", 3, "center"), ("B", 5, "center"), ("BS", 5, "center"),
    ("VB", 5, "center"), ("BSS", 5, "center"), ("BV", 5, "right"), ("", 1, "center"), ("BO", 5, "left"),
    ("ČP", 5, "center"), ("R", 3, "center"),
)
ROUND_COLUMNS: tuple[tuple[str, int, str | None], ...] = (
    ("Domácí", 25, None), ("Host", 25, None), ("Výsledek", 4, "right"), ("", 1, "center"), ("", 4, "left"),
    ("Rozhodčí", 25, None),
)
TIER_TITLES: Mapping[Tier, str] = {"expres": "Expres", "cp12": "ČP12", "cp24": "ČP24", "cp36": "ČP36",
                                   "czech_open": "Czech Open"}
NOT_IN_THE_CUP = "Nezařazeno do ČP"
CZECH_CUP = "Český pohár"
DISCIPLINE = "Billiard-hockey šprtec"
HEADING_ROWS = 6  # the rows above the header


@dataclass(frozen=True, kw_only=True, slots=True)
class Heading:
    """What the sheet's heading says that the tournament file does not hold: where and by whom it was played, and
    the competitions it counts for (default: the Czech Cup when the file has a ``cup``)."""

    venue: str = ""
    host: str = ""
    contests: tuple[str, ...] | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class _Totals:
    """A player's counts over every stage."""

    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    goals_for: int = 0
    goals_against: int = 0
    tiebreaks: Mapping[str, int] = field(default_factory=dict)


def association_xlsx(t: Tournament, *, referees: Referees | None = None, refereed: Mapping[str, int] | None = None,
                     heading: Heading | None = None) -> bytes:
    """The workbook's bytes."""
    out = io.BytesIO()
    association_workbook(t, referees=referees, refereed=refereed, heading=heading).save(out)
    return out.getvalue()


def association_workbook(t: Tournament, *, referees: Referees | None = None,
                         refereed: Mapping[str, int] | None = None, heading: Heading | None = None) -> Workbook:
    """The workbook: "Výsledky" and a sheet per round."""
    course = follow(t)
    book = Workbook()
    results = book.active
    assert results is not None
    results.title = "Výsledky"
    _results_sheet(results, course, refereed, heading or Heading())
    names = {p.id: association_name(p.name) for p in t.players}
    for r in t.results:
        title = f"{r.round}. kolo" if len(t.stages) == 1 else f"{r.stage + 1}. fáze, {r.round}. kolo"
        _round_sheet(book.create_sheet(title), t, r.stage, r.round, names, referees or Referees())
    book.properties.creator = "sprtec"
    if t.date is not None:
        moment = datetime.datetime.fromisoformat(t.date)
        book.properties.created = book.properties.modified = moment
    return book


def association_name(name: str) -> str:
    """``Jan Novák`` as the program and the association write it, ``NOVÁK Jan``: the last word is the surname, in
    capitals, before the rest; a single word, or a name already written so (its first word in capitals), stays."""
    words = name.split()
    if len(words) < 2 or (len(words[0]) > 1 and words[0].isupper()):
        return " ".join(words)
    return " ".join((words[-1].upper(), *words[:-1]))


def _results_sheet(sheet: Worksheet, course: Course, refereed: Mapping[str, int] | None, heading: Heading) -> None:
    """The heading, the header and a row per ranked player."""
    t = course.tournament
    _columns(sheet, RESULT_COLUMNS)
    for line in _heading_rows(t, heading):
        sheet.append(line)
    sheet.append([title for title, _, _ in RESULT_COLUMNS])
    totals = _totals(course)
    for r in rank_course(course).rows:
        mine = totals.get(r.player, _Totals())
        count = None if refereed is None else refereed.get(r.player, 0)
        sheet.append([
            f"{r.rank}.", association_name(r.name), r.club, r.category + ("!" if r.category_winner else ""),
            mine.played, mine.wins, mine.draws, mine.losses, mine.points,
            mine.tiebreaks.get("buchholz"), mine.tiebreaks.get("goals_capped"), mine.tiebreaks.get("buchholz2"),
            mine.goals_for, ":", mine.goals_against, r.cup_points or 0,
            None if count is None else (f"{count}!" if refereed_too_little(count, mine.played) else count),
        ])
    _align_columns(sheet, RESULT_COLUMNS, first_row=HEADING_ROWS + 1)
    _style_heading(sheet)


def _heading_rows(t: Tournament, heading: Heading) -> list[list[Any]]:
    """The six rows above the header, as the program splices them in."""
    season = t.season
    contests = heading.contests if heading.contests is not None else ((CZECH_CUP,) if t.cup is not None else ())
    contest_text = ", ".join(f"{c} {season}" if season is not None else c for c in contests)
    day = "" if t.date is None else format_date(datetime.date.fromisoformat(t.date), "medium", locale="cs_CZ")
    tier = NOT_IN_THE_CUP if t.cup is None else TIER_TITLES[t.cup.tier]
    gap = [""] * 6
    return [
        [t.name.upper()],
        [],
        ["Místo konání: ", "", heading.venue, *gap, "Datum: ", "", day, "", "", "", ""],
        ["Soutěž: ", "", contest_text, *gap, "Disciplína: ", "", DISCIPLINE, "", "", "", ""],
        ["Pořadatel: ", "", heading.host, *gap, "Kategorie: ", "", tier, "", "", "", ""],
        [],
    ]


def _style_heading(sheet: Worksheet) -> None:
    """Merges, the title's font, alignments and the two thin rows."""
    sheet.merge_cells("A1:Q1")
    sheet["A1"].font = Font(name="Arial", size=18, bold=True)
    sheet["A1"].alignment = Alignment(horizontal="center")
    for row in (3, 4, 5):
        for span in ("A{0}:B{0}", "C{0}:I{0}", "J{0}:K{0}", "L{0}:Q{0}"):
            sheet.merge_cells(span.format(row))
        for column, side in (("A", "right"), ("C", "left"), ("J", "right"), ("L", "left")):
            sheet[f"{column}{row}"].alignment = Alignment(horizontal=side)
    sheet.row_dimensions[2].height = 10
    sheet.row_dimensions[6].height = 10


def _round_sheet(sheet: Worksheet, t: Tournament, stage: int, number: int, names: Mapping[str, str],
                 referees: Referees) -> None:
    """One round: a row per board, then the bye and the recorders."""
    _columns(sheet, ROUND_COLUMNS)
    sheet.append([title for title, _, _ in ROUND_COLUMNS])
    entries = next(r.matches for r in t.results if (r.stage, r.round) == (stage, number))
    byes = [e.player for e in entries if isinstance(e, Bye)]
    for table, match in enumerate((e for e in entries if isinstance(e, Match)), start=1):
        home, away = _score(match, t.settings.walkover_score)
        referee = referees.referee_of(stage, number, table)
        sheet.append([names[match.home], names[match.away], home, ":", away,
                      None if referee is None else names[referee]])
    sheet.merge_cells("C1:E1")
    sheet["C1"].alignment = Alignment(horizontal="center")
    _align_columns(sheet, ROUND_COLUMNS, first_row=2)
    sheet.append([])
    for player in byes:
        sheet.append(["Volné kolo:", names[player]])
    for player in referees.recorders_of(stage, number):
        sheet.append(["Zapisovatel rozhodčích:", names[player]])


def _score(match: Match, walkover_score: tuple[int, int]) -> tuple[int | None, int | None]:
    """The board's two numbers: its score, a walkover's score for the winner, nothing while it is played."""
    if match.score is not None:
        return match.score
    if match.walkover is not None:
        return walkover_score if match.walkover == "home" else (walkover_score[1], walkover_score[0])
    return None, None


def _totals(course: Course) -> dict[str, _Totals]:
    """Each player's counts summed over the stages' final standings, with the first stage's Swiss tie-breaks."""
    t = course.tournament
    rows: dict[str, list[Row]] = {}
    first: dict[str, Mapping[str, int]] = {}
    for sc in course.stages:
        table = stage_standings(t, sc, sc.finished)
        for row in table.rows:
            rows.setdefault(row.player, []).append(row)
            if sc.index == 0 and sc.stage.system == "swiss":
                first[row.player] = dict(row.tiebreaks)
    return {player: _summed(lines, first.get(player, {})) for player, lines in rows.items()}


def _summed(lines: Sequence[Row], tiebreaks: Mapping[str, int]) -> _Totals:
    """One player's rows of every stage added up."""
    return _Totals(played=sum(r.played for r in lines), wins=sum(r.wins for r in lines),
                   draws=sum(r.draws for r in lines), losses=sum(r.losses for r in lines),
                   points=sum(r.points for r in lines), goals_for=sum(r.goals_for for r in lines),
                   goals_against=sum(r.goals_against for r in lines), tiebreaks=tiebreaks)


def _columns(sheet: Worksheet, columns: Sequence[tuple[str, int, str | None]]) -> None:
    """The columns' widths."""
    for index, (_, width, _) in enumerate(columns, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width


def _align_columns(sheet: Worksheet, columns: Sequence[tuple[str, int, str | None]], *, first_row: int) -> None:
    """Each column's alignment on every cell from ``first_row`` down (exceljs sets it on the whole column)."""
    for index, (_, _, side) in enumerate(columns, start=1):
        if side is None:
            continue
        for (cell,) in sheet.iter_rows(min_row=first_row, max_row=sheet.max_row, min_col=index, max_col=index):
            cell.alignment = Alignment(horizontal=side)

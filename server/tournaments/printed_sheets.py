"""Printed sheets for the wall and the referees: the entry list, a round's sheet, the standings and the final ranking
by category, as one PDF.

Why a PDF made here: a tournament on physical boards still runs on paper - the entry list and the standings on the
wall, a round's sheet for the referees with the boards, the players, the referee and a field to write the score in,
and the final ranking by category for the prize-giving - and whatever printer the organiser has prints a PDF the
same. fpdf2 is the kept library for it: pure Python, small (fontTools subsets the font, so a sheet is tens of
kilobytes), with tables that break across pages and repeat their heading; reportlab would do as well but is
larger and its platypus layer is far more than four tables need. Czech and Polish names (Příliš žluťoučký kůň,
Łódź, Żółć) need a font with Latin Extended-A, and no font is certain on a fresh Windows or Linux machine, so DejaVu
Sans (regular and bold, its licence beside them in ``fonts/``) ships with sprtec as package data.

The sheets speak Czech, as the Czech Cup's and the organisers' program's do. The same tournament gives the same
bytes: the PDF's date is the tournament's day, not the printing's. Referees and refereed counts are an input
(``shared.tournament.board_referees``): a server's tournament on boards gives its own (``served_referees``), a
file gives them beside it; without them the referee's field is
left to be written in by hand.
"""

from __future__ import annotations

import datetime
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from babel.dates import format_date
from fpdf import FPDF
from fpdf.fonts import FontFace
from fpdf.table import Table

from server.tournaments.association_sheet import TIER_TITLES
from server.tournaments.state import TournamentState
from server.tournaments.views import plays_on_boards
from shared.tournament.board_referees import Referees, refereed_counts, refereed_too_little
from shared.tournament.categories import CODES, Category, category_of
from shared.tournament.course import follow
from shared.tournament.model import Bye, Match, Round, Tournament
from shared.tournament.progress import Course
from shared.tournament.ranking import Ranked, rank_course
from shared.tournament.standings import last_stage_with_a_result, stage_standings
from shared.tournament.table import Row

Sheet = Literal["entries", "round", "standings", "ranking"]
SHEETS: tuple[Sheet, ...] = ("entries", "round", "standings", "ranking")
FONTS = Path(__file__).with_name("fonts")
FAMILY = "DejaVu"
CATEGORY_NAMES: Mapping[Category, str] = {"V": "Veteráni", "P": "Ml. žáci", "L": "Ženy", "Z": "St. žáci",
                                          "J": "Junioři", "M": "Muži", "?": "Neznámá"}  # as the program names them
TIEBREAK_TITLES: Mapping[str, str] = {"buchholz": "BS", "goals_capped": "VB", "buchholz2": "BSS",
                                      "mini_points": "VZ", "goal_difference": "±", "goals_for": "BV",
                                      "reached": "Kolo"}
HEADINGS = FontFace(emphasis="BOLD", fill_color=(225, 225, 225))
WINNER = FontFace(emphasis="BOLD")
SCORE_FIELD = "____ : ____"
LINE = "_" * 28


class SheetError(ValueError):
    """A sheet that cannot be printed (a round not paired, a stage not reached)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SheetRequest:
    """Which sheet, of which stage and round (None: the current)."""

    sheet: Sheet
    stage: int | None = None
    round: int | None = None


def print_sheets(data_dir: Path, tournament_id: str, requests: Sequence[SheetRequest], out: Path, *,
                 referees: Referees | None = None) -> Path:
    """The desk's Print: the tournament of the server's data directory, its sheets written to ``out`` (a PDF).
    Raises ``TournamentExportError`` (no data, no such tournament) or ``SheetError``."""
    from server.tournaments.export import read_state

    state, _ = read_state(data_dir, tournament_id)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(sheets_pdf(state.tournament, requests, referees=referees or served_referees(state)))
    return out


def served_referees(state: TournamentState) -> Referees | None:
    """The referees a server's tournament keeps (XVII.1), None where nothing is played on boards."""
    return state.referees if plays_on_boards(state) else None


def sheets_pdf(t: Tournament, requests: Sequence[SheetRequest], *, referees: Referees | None = None) -> bytes:
    """The PDF of the sheets asked for, in that order."""
    course = follow(t)
    pdf = _Document(t)
    refereed = None if referees is None else refereed_counts(t, referees)
    for request in requests:
        if request.sheet == "entries":
            _entries(pdf, t)
        elif request.sheet == "round":
            _round(pdf, course, _paired_round(course, request), referees or Referees())
        elif request.sheet == "standings":
            _standings(pdf, course, _stage(course, request.stage), refereed)
        else:
            _ranking(pdf, course)
    return bytes(pdf.output())


def ready_sheets(t: Tournament) -> list[SheetRequest]:
    """Every sheet ``t`` has by now, in the sheets' order (the current stage and round): before a round is paired
    there is no round's sheet."""
    course = follow(t)
    ready = []
    for sheet in SHEETS:
        request = SheetRequest(sheet=sheet)
        try:
            if sheet == "round":
                _paired_round(course, request)
            elif sheet == "standings":
                _stage(course, request.stage)
        except SheetError:
            continue
        ready.append(request)
    return ready


class _Document(FPDF):
    """A4 pages in DejaVu Sans, the tournament's name and the page number at the foot of each."""

    def __init__(self, t: Tournament) -> None:
        """An empty document of the tournament."""
        super().__init__(orientation="P", unit="mm", format="A4")
        self.tournament = t
        self.add_font(FAMILY, "", str(FONTS / "DejaVuSans.ttf"))
        self.add_font(FAMILY, "B", str(FONTS / "DejaVuSans-Bold.ttf"))
        self.set_font(FAMILY, size=10)
        self.set_auto_page_break(True, margin=15)
        self.set_title(t.name or "sprtec")
        self.set_creator("sprtec")
        day = datetime.date.fromisoformat(t.date) if t.date else datetime.date(2000, 1, 1)
        self.creation_date = datetime.datetime(day.year, day.month, day.day, 12, tzinfo=datetime.UTC)

    def footer(self) -> None:
        """The tournament and the page."""
        self.set_y(-12)
        self.set_font(FAMILY, size=8)
        self.cell(0, 5, f"{self.tournament.name}    strana {self.page_no()}/{{nb}}", align="C")

    def heading(self, title: str, subtitle: str = "") -> None:
        """A new page with the sheet's title, the tournament's name and day."""
        self.add_page()
        self.set_font(FAMILY, "B", 16)
        self.cell(0, 9, title, new_x="LMARGIN", new_y="NEXT")
        self.set_font(FAMILY, size=11)
        day = "" if self.tournament.date is None else _day(self.tournament.date)
        self.cell(0, 6, " · ".join(part for part in (self.tournament.name, day, subtitle) if part),
                  new_x="LMARGIN", new_y="NEXT")
        self.ln(3)
        self.set_font(FAMILY, size=10)

    def text_line(self, text: str, *, bold: bool = False) -> None:
        """A line of text."""
        self.set_font(FAMILY, "B" if bold else "", 10)
        self.multi_cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")
        self.set_font(FAMILY, size=10)


# ------------------------------------------------------------------------------------------------ the sheets


def _entries(pdf: _Document, t: Tournament) -> None:
    """Every entrant in the order of names, with club, category and year of birth."""
    pdf.heading("Listina účastníků", f"celkem hráčů: {len(t.players)}")
    people = sorted(t.players, key=lambda p: (_sort_key(p.name), p.id))
    with pdf.table(col_widths=(10, 62, 55, 35, 18), text_align=("RIGHT", "LEFT", "LEFT", "LEFT", "CENTER"),
                   headings_style=HEADINGS, line_height=6) as table:
        _row(table, ("#", "Hráč", "Klub", "Kategorie", "Ročník"))
        for number, p in enumerate(people, start=1):
            category = category_of(p, t.season)
            _row(table, (f"{number}.", p.name, p.club, f"{category} {CATEGORY_NAMES[category]}",
                         "" if p.year_of_birth is None else str(p.year_of_birth)))


def _round(pdf: _Document, course: Course, r: Round, referees: Referees) -> None:
    """A round's boards: the players, a field for the score (or the score), the referee; then the byes, who is not
    paired and the recorders of the referees."""
    t = course.tournament
    names = {p.id: p.name for p in t.players}
    pdf.heading(f"Zápasy {_round_title(t, r.stage, r.round)}", "")
    with pdf.table(col_widths=(12, 52, 26, 52, 48), text_align=("CENTER", "LEFT", "CENTER", "LEFT", "LEFT"),
                   headings_style=HEADINGS, line_height=8) as table:
        _row(table, ("Stůl", "Domácí", "Skóre", "Hosté", "Rozhodčí"))
        for number, m in enumerate((e for e in r.matches if isinstance(e, Match)), start=1):
            referee = referees.referee_of(r.stage, r.round, number)
            _row(table, (str(number), names[m.home], _score_text(m, t.settings.walkover_score), names[m.away],
                         "" if referee is None else names[referee]))
    pdf.ln(3)
    for entry in r.matches:
        if isinstance(entry, Bye):
            pdf.text_line(f"Volné kolo: {names[entry.player]}", bold=True)
    sc = course.stages[r.stage]
    missing = sc.unavailable[r.round - 1] if r.round - 1 < len(sc.unavailable) else {}
    for player, why in missing.items():
        pdf.text_line(f"Nehraje: {names[player]} ({_WHY[why]})")
    recorders = referees.recorders_of(r.stage, r.round)
    for part, index in (("první", 0), ("druhé", 1)):
        who = names[recorders[index]] if index < len(recorders) else LINE
        pdf.text_line(f"Rozhodčí {part} části kola zapsal: {who}")


def _standings(pdf: _Document, course: Course, stage: int, refereed: Mapping[str, int] | None) -> None:
    """A stage's standings after its last finished round."""
    t = course.tournament
    sc = course.stages[stage]
    table_of = stage_standings(t, sc, sc.finished, complete=course.complete)
    people = {p.id: p for p in t.players}
    breaks = tuple(name for name, _ in table_of.rows[0].tiebreaks) if table_of.rows else ()
    done = sc.complete or course.complete
    stage_text = "" if len(t.stages) == 1 else f"{stage + 1}. fáze, "
    title = "Konečné pořadí" if done else "Průběžné pořadí"
    pdf.heading(title, f"{stage_text}po {table_of.after_round}. kole" if table_of.after_round else "před 1. kolem")
    titles = ("#", "Hráč", "Klub", "K", "Z", "V", "R", "P", "B", *(TIEBREAK_TITLES[b] for b in breaks), "Skóre",
              *(("Roz",) if refereed is not None else ()))
    small = 8.0
    widths = (10, 46, 36, *([small] * 6), *([11] * len(breaks)), 15, *((11,) if refereed is not None else ()))
    aligns = ("RIGHT", "LEFT", "LEFT", *(["CENTER"] * (len(titles) - 3)))
    pdf.set_font(FAMILY, size=9)
    with pdf.table(col_widths=widths, text_align=aligns, headings_style=HEADINGS, line_height=5.5) as table:
        _row(table, titles)
        for row in table_of.rows:
            person = people[row.player]
            _row(table, _standing_cells(row, person.name, person.club, category_of(person, t.season), refereed))
    pdf.set_font(FAMILY, size=10)


def _standing_cells(row: Row, name: str, club: str, category: Category,
                    refereed: Mapping[str, int] | None) -> tuple[str, ...]:
    """One player's line of the standings."""
    cells = (f"{row.rank}.", name, club, category, str(row.played), str(row.wins), str(row.draws), str(row.losses),
             str(row.points), *(str(value) for _, value in row.tiebreaks), f"{row.goals_for}:{row.goals_against}")
    if refereed is None:
        return cells
    count = refereed.get(row.player, 0)
    return (*cells, f"{count}!" if refereed_too_little(count, row.played) else str(count))


def _ranking(pdf: _Document, course: Course) -> None:
    """The final ranking of everybody, then each category's with its winner in bold."""
    ranking = rank_course(course)
    title = "Konečné pořadí" if ranking.complete else "Průběžné pořadí"
    pdf.heading(title, "" if ranking.cup is None else f"{TIER_TITLES[ranking.cup.tier]}, hráčů {ranking.cup.field}")
    cup = ranking.cup is not None
    with pdf.table(col_widths=(12, 64, 56, 16, *((18,) if cup else ())),
                   text_align=("RIGHT", "LEFT", "LEFT", "CENTER", *(("CENTER",) if cup else ())),
                   headings_style=HEADINGS, line_height=6) as table:
        _row(table, ("#", "Hráč", "Klub", "K", *(("ČP",) if cup else ())))
        for r in ranking.rows:
            _row(table, _ranked_cells(r, f"{r.rank}.", r.category, cup), style=WINNER if r.category_winner else None)
    for code in CODES:
        members = [r for r in ranking.rows if r.category == code]
        if not members:
            continue
        pdf.ln(4)
        if pdf.will_page_break(6 * min(len(members) + 2, 5)):
            pdf.add_page()  # a category's heading stays with its first rows
        pdf.text_line(f"{CATEGORY_NAMES[code]} ({code})", bold=True)
        with pdf.table(col_widths=(12, 64, 56, 16, *((18,) if cup else ())),
                       text_align=("RIGHT", "LEFT", "LEFT", "CENTER", *(("CENTER",) if cup else ())),
                       headings_style=HEADINGS, line_height=6) as table:
            _row(table, ("#", "Hráč", "Klub", "Celkově", *(("ČP",) if cup else ())))
            for r in members:
                _row(table, _ranked_cells(r, f"{r.category_rank}.", f"{r.rank}.", cup),
                     style=WINNER if r.category_winner else None)


def _ranked_cells(r: Ranked, place: str, fourth: str, cup: bool) -> tuple[str, ...]:
    """A ranked player's cells: place, name (with "odstoupil" when out), club, the fourth column, cup points."""
    name = f"{r.name} (odstoupil)" if r.out else r.name
    return (place, name, r.club, fourth, *((str(r.cup_points),) if cup else ()))


# ------------------------------------------------------------------------------------------------ helpers


_WHY = {"absent": "nepřítomen", "suspended": "potrestán", "withdrawn": "odstoupil", "disqualified": "vyloučen"}


def _row(table: Table, cells: Sequence[str], style: FontFace | None = None) -> None:
    """One row of an fpdf2 table."""
    row = table.row()
    for text in cells:
        row.cell(text, style=style)


def _paired_round(course: Course, request: SheetRequest) -> Round:
    """The round asked for, or the last one paired of the stage (of the last stage paired)."""
    t = course.tournament
    if not t.results:
        raise SheetError("no round is paired yet")
    stage = t.results[-1].stage if request.stage is None else request.stage
    rounds = [r for r in t.results if r.stage == stage]
    if not rounds:
        raise SheetError(f"stage {stage} has no round paired")
    if request.round is None:
        return rounds[-1]
    for r in rounds:
        if r.round == request.round:
            return r
    raise SheetError(f"stage {stage} round {request.round} is not paired (the last paired is round {rounds[-1].round})")


def _stage(course: Course, stage: int | None) -> int:
    """The stage asked for (default: the last with a result), if the tournament has reached it."""
    chosen = last_stage_with_a_result(course) if stage is None else stage
    if not 0 <= chosen < len(course.stages):
        raise SheetError(f"stage {chosen} has not been reached")
    return chosen


def _round_title(t: Tournament, stage: int, number: int) -> str:
    """``3. kola`` (``2. fáze, 1. kola`` when there are several stages)."""
    return f"{number}. kola" if len(t.stages) == 1 else f"{stage + 1}. fáze, {number}. kola"


def _score_text(m: Match, walkover_score: tuple[int, int]) -> str:
    """The board's result when there is one (a walkover's score marked "kont."), else a field to write it in."""
    if m.walkover is not None:
        home, away = walkover_score if m.walkover == "home" else walkover_score[::-1]
        return f"{home} : {away} kont."
    if m.score is None:
        return SCORE_FIELD
    shootout = "" if m.shootout is None else " sn"
    return f"{m.score[0]} : {m.score[1]}{shootout}"


def _day(date: str) -> str:
    """``2026-05-16`` as Czech writes it, ``16. 5. 2026``."""
    return format_date(datetime.date.fromisoformat(date), "medium", locale="cs_CZ")


def _sort_key(name: str) -> str:
    """Names in alphabetical order, a letter with a diacritic beside its base letter."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))

"""The printed sheets: a PDF whose text reads back (pypdf), in a shipped font that has Czech and Polish letters."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from server.tournaments.printed_sheets import FONTS, SHEETS, SheetError, SheetRequest, ready_sheets, sheets_pdf
from shared.tournament.reading import parse, read_tournament
from shared.tournament.turnaj_import import import_save
from sprtec.cli import main

HERE = Path(__file__).parent
CUP = HERE / "golden" / "czech-cup-24" / "final.tournament.json"
NAMES = ("Příliš žluťoučký kůň", "Łódź Żółć", "Ďábelské Ódy", "Świętosław Wąż")


def _text(pdf: bytes) -> str:
    """Every page's text, page after page."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def _names_tournament() -> bytes:
    """Four players with the letters Czech and Polish need, one round played, one paired."""
    players = [{"id": f"p{i}", "name": name, "club": "Klub Łódź", "year_of_birth": 1990 + i, "sex": "m"}
               for i, name in enumerate(NAMES)]
    value = {"name": "Turnaj Žluťoučký", "date": "2026-03-01", "cup": {"tier": "expres", "season": 2026},
             "players": players, "stages": [{"rounds": 2}],
             "results": [{"round": 1, "matches": [{"home": "p0", "away": "p1", "score": [3, 1]},
                                                  {"home": "p2", "away": "p3", "score": [2, 2]}]},
                         {"round": 2, "matches": [{"home": "p0", "away": "p2"}, {"home": "p3", "away": "p1"}]}]}
    return json.dumps(value).encode()


def test_the_printed_sheets_render_czech_and_polish_names_in_the_shipped_font() -> None:
    """Every sheet's text has the names letter for letter, and the only font embedded is the shipped DejaVu Sans."""
    t = parse(_names_tournament())
    pdf = sheets_pdf(t, [SheetRequest(sheet=s) for s in SHEETS])
    text = _text(pdf)
    for name in NAMES:
        assert text.count(name) >= 4, name
    fonts: set[str] = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        resources: Any = page["/Resources"].get_object()
        fonts |= {str(font.get_object()["/BaseFont"]).split("+")[-1] for font in resources["/Font"].values()}
    assert fonts == {"DejaVuSansBook", "DejaVuSansBold"}
    assert (FONTS / "LICENSE").read_text().startswith("Fonts are (c) Bitstream")


def test_the_entry_list_names_every_entrant_with_club_category_and_year() -> None:
    """All 40 of the Czech Cup example, in the order of names, with their category's name and year of birth."""
    t = parse(CUP.read_bytes())
    text = _text(sheets_pdf(t, [SheetRequest(sheet="entries")]))
    assert "Listina účastníků" in text and "celkem hráčů: 40" in text
    for p in t.players:
        assert p.name in text
    lines = [line for line in text.splitlines() if line[:1].isdigit() and ". " in line[:4]]
    assert len(lines) == 40
    assert "Jan Novák SK Brno M Muži 1988" in text


def test_the_round_sheet_has_boards_players_referee_and_a_field_for_the_score() -> None:
    """A round being played: a row per board with both players and the field to write the score in; the byes,
    who does not play and why, and the recorders of the referees; the referees when they are known."""
    t = parse(_names_tournament())
    text = _text(sheets_pdf(t, [SheetRequest(sheet="round")]))
    assert "Zápasy 2. kola" in text
    assert "1 Příliš žluťoučký kůň ____ : ____ Ďábelské Ódy" in text
    assert "Rozhodčí první části kola zapsal" in text
    imported = import_save((HERE / "turnaj" / "midway.save.json").read_bytes())
    text = _text(sheets_pdf(imported.tournament, [SheetRequest(sheet="round", round=3)], referees=imported.referees))
    assert "1 Tadeáš Malý 0 : 3 Anna Veliká Patrik Vlček" in text
    assert "4 Kryštof Holub ____ : ____ Matěj Šimek Daniel Sýkora" in text
    assert "Volné kolo: Ema Krejčí" in text and "Rozhodčí první části kola zapsal: Ema Krejčí" in text
    away = read_tournament({**json.loads(_names_tournament()), "results": [], "absent": [{"round": 1,
                                                                                           "player": "p3"}]})
    with pytest.raises(SheetError):
        sheets_pdf(away, [SheetRequest(sheet="round")])


def test_the_standings_sheet_is_the_standings_with_the_stages_tie_breaks() -> None:
    """Place, name, club, category, Z V R P B and BS VB BSS, the score; refereed counts when they are known."""
    imported = import_save((HERE / "turnaj" / "cup24.save.json").read_bytes())
    text = _text(sheets_pdf(imported.tournament, [SheetRequest(sheet="standings")], referees=imported.referees))
    assert "Konečné pořadí" in text and "BS VB BSS Skóre Roz" in text
    assert "1. Karel Horák TJ Sokol Bohumín V 5 5 0 0 15 38 20 224 22:7 0!" in text


def test_the_ranking_sheet_lists_every_player_then_each_category_with_its_winner() -> None:
    """The final ranking with categories and cup points, then Veterans, younger pupils, women, older pupils,
    juniors and men, each with its own places and the overall place."""
    t = parse(CUP.read_bytes())
    ranking = json.loads((HERE / "golden" / "czech-cup-24" / "final.ranking.json").read_text())["ranking"]
    text = _text(sheets_pdf(t, [SheetRequest(sheet="ranking")]))
    first = ranking[0]
    assert f"{first['rank']}. {first['name']} {first['club']} {first['category']} {first['cup_points']}" in text
    headings = [line for line in text.splitlines() if line.endswith(")") and line[-3:-2] == "("]
    present = {r["category"] for r in ranking}
    assert headings == [f"{name} ({code})" for code, name in (("V", "Veteráni"), ("P", "Ml. žáci"), ("L", "Ženy"),
                                                                ("Z", "St. žáci"), ("J", "Junioři"), ("M", "Muži"))
                        if code in present]
    for r in ranking:
        assert r["name"] in text


def test_the_same_tournament_prints_the_same_bytes() -> None:
    """No printing date, no random: the PDF of a tournament is one."""
    t = parse(CUP.read_bytes())
    requests = [SheetRequest(sheet=s) for s in SHEETS]
    assert sheets_pdf(t, requests) == sheets_pdf(t, requests)


def test_the_print_command_writes_the_pdf_of_a_file_and_says_why_it_cannot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``sprtec tournament print FILE --sheet … --out F.pdf``, several sheets in one PDF, a round by number; a round
    not paired is refused (exit 1) with the reason."""
    out = tmp_path / "sheets.pdf"
    assert main(["tournament", "print", str(CUP), "--sheet", "round", "--round", "2", "--sheet", "ranking",
                 "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    text = _text(out.read_bytes())
    assert "Zápasy 2. kola" in text and "Konečné pořadí" in text
    assert main(["tournament", "print", str(CUP), "--sheet", "round", "--round", "9", "--out", str(out)]) == 1
    assert "round 9 is not paired" in capsys.readouterr().err


def test_the_sheets_ready_are_those_the_tournament_has_by_now() -> None:
    """Before round 1 every sheet but the round's (none is paired: the standings and the ranking list everyone level);
    at the end all four - each of them printable."""
    first = read_tournament(json.loads((HERE / "golden" / "czech-cup-24" / "before-round-1.tournament.json")
                                       .read_text(encoding="utf-8")))
    final = read_tournament(json.loads(CUP.read_text(encoding="utf-8")))
    assert [r.sheet for r in ready_sheets(first)] == ["entries", "standings", "ranking"]
    assert [r.sheet for r in ready_sheets(final)] == list(SHEETS)
    for t in (first, final):
        assert sheets_pdf(t, ready_sheets(t)).startswith(b"%PDF")

"""The Czech Cup example end to end: 40 bots play the ČP24 tournament on a real server, ``sprtec tournament run``
prints the final ranking of all 40 with categories, category winners and cup points, and the association's sheet
and a printed PDF of the server's data read back (openpyxl, pypdf)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from server.tournaments.association_sheet import association_name
from shared.tournament.cup import cup_points
from sprtec.commands.tournament import ranking_answer

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tournament-czech-cup-24.json"
QUICK_ARGS = ["--setting", "periods=1", "--setting", "period_ms=2000", "--setting", "break_ms=0",
              "--setting", "overtime_ms=1000", "--setting", "shootout_series=1", "--gap-ms", "300"]


@pytest.mark.slow(seconds=35)
def test_the_czech_cup_example_played_by_bots_ends_with_a_ranking_a_sheet_and_a_pdf(tmp_path: Path) -> None:
    """`sprtec tournament run` of the 40-player ČP24 example: exit 0; on standard output the final ranking of all 40,
    complete, with a category for each, a winner of every category present and each place's ČP24 points; the
    export's ranking.json is that ranking and `sprtec tournament ranking` of the exported file; its association.xlsx
    has a row per player in that order; `sprtec tournament print ID --data DIR` prints the ranking and the last
    round, and the PDF's text has every player's name."""
    data, out = tmp_path / "data", tmp_path / "export"
    command = [sys.executable, "-m", "sprtec", "tournament", "run", str(EXAMPLE), "--bots", "--level", "random",
               "--data", str(data), "--out", str(out), "--timeout", "600", *QUICK_ARGS]  # random flicks: no search
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=660)
    assert done.returncode == 0, done.stderr[-2000:]
    ranking = json.loads(done.stdout)
    rows = ranking["ranking"]
    assert ranking["complete"] and ranking["cup"] == {"tier": "cp24", "field": 40} and len(rows) == 40
    players = json.loads(EXAMPLE.read_text(encoding="utf-8"))["players"]
    assert sorted(r["player"] for r in rows) == sorted(p["id"] for p in players)
    categories = {r["category"] for r in rows}
    assert {"M", "J", "L", "V", "P", "Z"} <= categories
    for code in categories - {"?"}:
        assert any(r["category_winner"] for r in rows if r["category"] == code), code
    assert all(r["cup_points"] == cup_points("cp24", r["rank"], 40) for r in rows)
    assert (out / "ranking.json").read_text(encoding="utf-8") == done.stdout
    assert ranking_answer((out / "tournament.json").read_bytes()) == (0, done.stdout)

    sheet = load_workbook(out / "association.xlsx")["Výsledky"]
    assert [sheet.cell(8 + i, 2).value for i in range(40)] == [association_name(r["name"]) for r in rows]
    assert [sheet.cell(8 + i, 16).value for i in range(40)] == [r["cup_points"] for r in rows]
    assert sheet["L5"].value == "ČP24"

    tournament = re.search(r"tournament (\w+)\n", done.stderr)
    assert tournament is not None, done.stderr[-2000:]
    pdf = tmp_path / "sheets.pdf"
    printed = subprocess.run([sys.executable, "-m", "sprtec", "tournament", "print", tournament.group(1), "--data",
                              str(data), "--sheet", "ranking", "--sheet", "round", "--out", str(pdf)],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert printed.returncode == 0, printed.stderr
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.read_bytes())).pages)
    assert "Konečné pořadí" in text and "Zápasy 6. kola" in text
    for p in players:
        assert p["name"] in text, p["name"]

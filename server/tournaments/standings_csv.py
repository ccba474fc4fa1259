"""The standings as CSV for a spreadsheet: one column per field, UTF-8 with a byte-order mark.

Why so: an organiser opens the export's CSV in a spreadsheet, and a spreadsheet shows a column per field only if
every value has its own (the tie-breaks each in theirs, not ``buchholz=10 goals_capped=11`` in one), and shows
Czech and Polish names right only if the file says it is UTF-8: Excel reads a CSV without a byte-order mark in the
system's code page, so "Novák" becomes "NovĂˇk". Besides the contract's fields each row carries the player's name,
club and category (``shared.tournament.categories``), his Czech Cup points in the tournament's ranking (empty
without a cup, or while he is not ranked) and how often he refereed (empty while nobody says: the refereed counts
come with boards played by hand and referee duty; ``board_referees``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from shared.tournament.categories import category_of
from shared.tournament.model import Tournament
from shared.tournament.ranking import Ranking
from shared.tournament.table import Standings

BOM = "\ufeff"
LEADING = ("rank", "shared", "player", "name", "club", "category", "points", "played", "wins", "draws", "losses",
           "byes", "goals_for", "goals_against")
TRAILING = ("yellow", "red", "suspended_next", "cup_points", "refereed")


def standings_columns(table: Standings) -> tuple[str, ...]:
    """The header: the contract's fields, name, club and category, each tie-break of the stage's system, cup points
    and the refereed count."""
    breaks = tuple(name for name, _ in table.rows[0].tiebreaks) if table.rows else ()
    return (*LEADING, *breaks, *TRAILING)


def standings_csv(t: Tournament, table: Standings, ranking: Ranking | None = None,
                  refereed: Mapping[str, int] | None = None) -> str:
    """The CSV text, starting with the byte-order mark (written as UTF-8 it is the three bytes EF BB BF)."""
    people = {p.id: p for p in t.players}
    cup = {} if ranking is None else {r.player: r.cup_points for r in ranking.rows}
    lines: list[Sequence[Any]] = []
    for row in table.rows:
        person = people[row.player]
        points = cup.get(row.player)
        lines.append([
            row.rank, _flag(row.shared), row.player, person.name, person.club, category_of(person, t.season),
            row.points, row.played, row.wins, row.draws, row.losses, row.byes, row.goals_for, row.goals_against,
            *(value for _, value in row.tiebreaks),
            row.yellow, row.red, _flag(row.suspended_next), "" if points is None else points,
            "" if refereed is None else refereed.get(row.player, 0),
        ])
    return BOM + csv_text(standings_columns(table), lines)


def csv_text(columns: Sequence[str], lines: Sequence[Sequence[Any]]) -> str:
    """A CSV text with a header line."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(lines)
    return out.getvalue()


def _flag(value: bool) -> str:
    """true/false as the JSON of the contract writes them."""
    return "true" if value else "false"

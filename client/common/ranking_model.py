"""The final ranking as the client shows it: every player across the stages with his Czech Cup category, his place
in it and his cup points, the whole field or one category at a time, and the category beside a name (pure: no
arcade, no sockets).

Why its own model: the desk, the hall and the player's screen draw the same ranking of a ``TournamentUpdate``
(``ranking``: TOURNAMENT.md's ``sprtec-ranking/1`` rows, worked out by the server) - for the prize-giving the whole
field, then each category with its winner marked. What each line says is words and numbers, tested without a screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from client.common.i18n import N_, _
from shared.protocol import RankingLine, TournamentUpdate

CATEGORY_ORDER = ("V", "P", "L", "Z", "J", "M")  # the order TOURNAMENT.md derives them in (shared.tournament)
CATEGORY_WORDS = {
    "V": N_("veterans"),
    "P": N_("younger pupils"),
    "L": N_("women"),
    "Z": N_("older pupils"),
    "J": N_("juniors"),
    "M": N_("men"),
}
WINNER_MARK = "★"


def category_name(code: str) -> str:
    """A category's name with its code ("juniors (J)"); an unknown code as it is."""
    return _("{name} ({code})").format(name=_(CATEGORY_WORDS[code]), code=code) if code in CATEGORY_WORDS else code


def categories_shown(update: TournamentUpdate | None) -> bool:
    """True when the tournament has Czech Cup categories worth showing beside names: somebody has one of the
    association's (a tournament without years of birth, sexes or codes shows none)."""
    return update is not None and any(e.cup_category in CATEGORY_ORDER for e in update.entries)


def categories_of(update: TournamentUpdate | None) -> dict[str, str]:
    """Each entry's category code ("" where the tournament shows none)."""
    if not categories_shown(update):
        return {}
    assert update is not None
    return {e.entry: e.cup_category for e in update.entries}


def with_category(name: str, code: str) -> str:
    """A name with its category beside it ("Jan Novák · J"; as it is without one)."""
    return f"{name} · {code}" if code else name


def ranking_categories(update: TournamentUpdate | None) -> tuple[str, ...]:
    """The categories with ranked players, in the contract's order (``?`` is no category)."""
    if update is None:
        return ()
    present = {line.category for line in update.ranking}
    return tuple(code for code in CATEGORY_ORDER if code in present)


@dataclass(frozen=True, slots=True, kw_only=True)
class RankingRow:
    """One line of the ranking as drawn: the place (blank when shared with the line above), name, club, category,
    the place in the category, cup points, and the marks of a category winner and of a player who left."""

    rank_text: str
    entry: str
    name: str
    club: str
    category: str
    category_text: str  # "J 1." (his place among the juniors)
    points_text: str  # cup points, "" without a cup
    winner: bool
    out: bool


def ranking_rows(update: TournamentUpdate | None, category: str = "") -> tuple[RankingRow, ...]:
    """The ranking as rows: the whole field, or only ``category``'s players ranked by their place in it."""
    if update is None:
        return ()
    lines: Sequence[RankingLine] = update.ranking
    if category:
        lines = [line for line in lines if line.category == category]
    rows: list[RankingRow] = []
    previous: int | None = None
    for line in lines:
        rank = line.category_rank if category else line.rank
        rows.append(RankingRow(
            rank_text="" if rank == previous else f"{rank}.", entry=line.entry, name=line.name, club=line.club,
            category=line.category,
            category_text=f"{line.category} {line.category_rank}." if line.category in CATEGORY_ORDER else "?",
            points_text="" if line.cup_points is None else str(line.cup_points),
            winner=line.category_winner, out=line.out))
        previous = rank
    return tuple(rows)


def ranking_heading(update: TournamentUpdate | None, category: str = "") -> str:
    """The ranking's title: final or provisional, the whole field or one category, the cup's field."""
    final = update is not None and update.complete
    if category:
        title = _("Final ranking — {category}") if final else _("Ranking so far — {category}")
        title = title.format(category=category_name(category))
    else:
        title = _("Final ranking") if final else _("Ranking so far")
    if update is not None and update.cup_tier is not None and update.cup_field is not None:
        title += "  ·  " + _("Czech Cup {tier}, {n} ranked").format(tier=tier_name(update.cup_tier),
                                                                     n=update.cup_field)
    return title


def tier_name(tier: str) -> str:
    """A Czech Cup tier as the association writes it."""
    return {"expres": "Expres", "cp12": "ČP12", "cp24": "ČP24", "cp36": "ČP36", "czech_open": "Czech Open"}.get(tier,
                                                                                                               tier)


@dataclass(frozen=True, slots=True)
class RankingColumn:
    """A column of the ranking table: its key, head and where it starts (a fraction of the width)."""

    key: str
    heading: str
    start: float


def ranking_columns(cup: bool, categories: bool = True) -> tuple[RankingColumn, ...]:
    """Place, name, club, the category with the place in it (when anybody has one), and the cup points when the
    tournament has a cup."""
    found = [("rank", _("#"), 0.0), ("name", _("Player"), 0.07), ("club", _("Club"), 0.47)]
    if categories:
        found.append(("category", _("Category"), 0.72))
    if cup:
        found.append(("points", _("Cup points"), 0.85))
    return tuple(RankingColumn(key, heading, start) for key, heading, start in found)


def columns_of(update: TournamentUpdate | None) -> tuple[RankingColumn, ...]:
    """The ranking's columns for this tournament: cup points only with a cup, categories only where there are
    some."""
    return ranking_columns(update is not None and update.cup_tier is not None, bool(ranking_categories(update)))


def ranking_cells(row: RankingRow, columns: Sequence[RankingColumn]) -> tuple[str, ...]:
    """The text of each column of ``row``: the winner of a category marked with a star, a player who left marked
    out."""
    name = f"{WINNER_MARK} {row.name}" if row.winner else row.name
    if row.out:
        name = _("{name} (out)").format(name=name)
    values = {"rank": row.rank_text, "name": name, "club": row.club, "category": row.category_text,
              "points": row.points_text}
    return tuple(values.get(column.key, "") for column in columns)


def own_ranking_line(update: TournamentUpdate | None, entry: str | None) -> str:
    """The player's own place in words: overall, in his category, his cup points ("" when he is not ranked)."""
    if update is None or entry is None:
        return ""
    line = next((r for r in update.ranking if r.entry == entry), None)
    if line is None:
        return ""
    text = _("You are {rank}. overall").format(rank=line.rank)
    if line.category in CATEGORY_ORDER:
        text += ", " + _("{rank}. of {category}").format(rank=line.category_rank,
                                                          category=category_name(line.category))
    if line.cup_points is not None:
        text += " — " + _("{n} Czech Cup points").format(n=line.cup_points)
    return text

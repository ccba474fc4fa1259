"""The spectators' hall as plain data: which page the big screen shows — the standings, the round's tables, the
knockout bracket, the cards and suspensions, or one table being played, watched live — and when it moves on
(pure: no arcade, no sockets). At the prize-giving the final ranking and each category's are pages too.

Why a cycle: a screen in a club's hall is left alone. It shows each page for some seconds, then every table being
played for longer (``Watch{room}``: the match itself, live), then the standings again; the pages that have nothing
to show (no bracket outside a knockout, no cards yet) are skipped. A person at the keyboard can pick a page (←/→ or
a number); the cycle then holds it a while before it goes on by itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.common.i18n import N_, _
from client.common.ranking_model import category_name, ranking_categories
from shared.protocol import TournamentUpdate

PAGE_S = 12.0  # a page of the hall is shown this long
TABLE_S = 25.0  # a table being played is watched this long
HOLD_S = 60.0  # a page a person chose stays this long before the cycle goes on
RANKING_ROWS = 18  # lines of the ranking one page of the hall shows (a longer ranking takes several pages)
PAGE_WORDS = {"standings": N_("Standings"), "tables": N_("Tables"), "bracket": N_("Bracket"),
              "cards": N_("Cards and suspensions"), "ranking": N_("Ranking")}


@dataclass(frozen=True, slots=True)
class Shown:
    """A page of the hall: ``standings``, ``tables``, ``bracket``, ``cards``, ``ranking`` (of one ``category``,
    or of everybody), or ``table`` with its ``room``."""

    page: str
    room: str | None = None
    table: int = 0
    category: str = ""
    part: int = 0  # a long ranking's page: its lines part * RANKING_ROWS on

    def title(self) -> str:
        """The page's name in the language in use."""
        if self.page == "table":
            return _("Table {n} — live").format(n=self.table)
        title = _(PAGE_WORDS.get(self.page, self.page))
        if self.page == "ranking" and self.category:
            title = _("Ranking: {category}").format(category=category_name(self.category))
        return f"{title} ({self.part + 1})" if self.part else title

    def short(self) -> str:
        """The page in the header's list of pages: a table by its number, a category by its code."""
        if self.page == "table":
            return f"#{self.table}"
        if self.category:
            return f"{self.category}{self.part + 1}" if self.part else self.category
        return self.title()


def pages_of(update: TournamentUpdate | None) -> list[Shown]:
    """The hall's pages for this state of the tournament, in order: standings, the final ranking and each
    category's (``ranking_shown``), tables (while a round has any), the bracket (a knockout), cards (once there
    are any), then each table being played."""
    if update is None:
        return [Shown("standings")]
    found = [Shown("standings")]
    for category in ("", *ranking_categories(update)) if ranking_shown(update) else ():
        lines = sum(1 for line in update.ranking if not category or line.category == category)
        found += [Shown("ranking", category=category, part=part) for part in range(-(-lines // RANKING_ROWS))]
    if update.tables:
        found.append(Shown("tables"))
    if update.bracket:
        found.append(Shown("bracket"))
    if update.cards or update.suspended:
        found.append(Shown("cards"))
    for line in sorted(update.tables, key=lambda t: t.table):
        if line.status == "playing" and line.room is not None:
            found.append(Shown("table", line.room, line.table))
    return found


def ranking_shown(update: TournamentUpdate) -> bool:
    """The ranking has pages of its own at the end (the prize-giving) and once a later stage is played (it then
    differs from the standings); during a single stage the standings, categories beside the names, say as much."""
    return bool(update.ranking) and (update.complete or update.status in ("finished", "ended")
                                     or update.standings_stage > 0)


class HallCycle:
    """Which page is up and since when; ``tick`` moves on when its time is over."""

    def __init__(self) -> None:
        """The standings first."""
        self.shown = Shown("standings")
        self.since: float | None = None
        self.held_until = 0.0

    def duration(self) -> float:
        """How long the page shown now stays."""
        return TABLE_S if self.shown.page == "table" else PAGE_S

    def tick(self, now: float, update: TournamentUpdate | None) -> Shown:
        """The page to show at ``now``: the next one once this one's time is over (a table that stopped being
        played is left at once); a held page stays."""
        pages = pages_of(update)
        if self.since is None:
            self.since = now
        gone = self.shown not in pages
        if gone or (now >= self.held_until and now - self.since >= self.duration()):
            self._go(self._next(pages), now)
        return self.shown

    def choose(self, step: int, now: float, update: TournamentUpdate | None) -> Shown:
        """A person steps ``step`` pages on (or back): that page is held a while."""
        pages = pages_of(update)
        index = pages.index(self.shown) if self.shown in pages else 0
        self._go(pages[(index + step) % len(pages)], now)
        self.held_until = now + HOLD_S
        return self.shown

    def hold(self, shown: Shown, now: float) -> Shown:
        """A person chose ``shown`` (a table clicked): it is held a while."""
        self._go(shown, now)
        self.held_until = now + HOLD_S
        return self.shown

    def _next(self, pages: list[Shown]) -> Shown:
        """The page after the one shown; after a table that is no longer played, the next table (or the first
        page)."""
        if self.shown in pages:
            return pages[(pages.index(self.shown) + 1) % len(pages)]
        if self.shown.page == "table":
            return self._after_table(pages)
        return pages[0]

    def _after_table(self, pages: list[Shown]) -> Shown:
        """After a table that ended: the next table being played, else the standings."""
        tables = [p for p in pages if p.page == "table" and p.table > self.shown.table]
        return tables[0] if tables else pages[0]

    def _go(self, shown: Shown, now: float) -> None:
        """Show ``shown`` from ``now``."""
        self.shown, self.since = shown, now

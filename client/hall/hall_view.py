"""The spectators' hall, full screen: the standings with tie-breaks, rank changes and points by round, the final
ranking and each category's, the round's tables with live scores, the knockout bracket, the cards and suspensions (a
VIEW module: it imports arcade).

Why one view for the pages: the hall is one picture at a time, chosen by ``client.hall.hall_model.HallCycle``; the
pictures are the shared widgets (``client.common.tournament_widgets``). A table being watched live is the match view
itself, shown by the director (``client.hall.hall_director``) in this view's place.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from client.common import palette
from client.common.help_view import global_key
from client.common.i18n import N_, _
from client.common.ranking_model import columns_of, ranking_heading, ranking_rows
from client.common.tournament_model import (
    Box,
    StandingRow,
    StandingsHistory,
    Tile,
    bracket_layout,
    entry_names,
    next_round_words,
    refereed_shown,
    standing_rows,
    standings_columns,
    status_words,
    tiebreak_names,
    tile_at,
    tile_grid,
    tiles_of,
)
from client.common.tournament_widgets import draw_bracket, draw_ranking, draw_standings, draw_tile
from client.common.widgets import Texts, fit_text
from client.hall.hall_model import RANKING_ROWS, Shown, pages_of
from shared.protocol import TournamentUpdate

HEADER = 96.0
MARGIN = 24.0
CARD_WORDS = {"yellow": N_("Y"), "red": N_("R"), "disqualified": N_("DQ")}  # a card, short


class HallView(arcade.View):
    """One page of the hall; ``tick`` (the director's) says which, ``choose`` takes ←/→ and clicks, ``close`` Esc."""

    def __init__(self, tournament: str, update: Callable[[], TournamentUpdate | None], history: StandingsHistory,
                 shown: Callable[[], Shown], poll: Callable[[], None] | None = None,
                 choose: Callable[[str], None] | None = None, status: Callable[[], str] = str,
                 age: Callable[[], float] = lambda: 0.0, page: str = "") -> None:
        """Show ``tournament`` as ``update()`` has it; ``shown()`` is the page up now; ``status()`` the connection;
        ``age()`` the seconds since the update came (the next round's countdown); ``page`` the tournament's web
        page, written in the footer for the hall's watchers to open on their phones."""
        self.age = age
        self.page = page
        super().__init__()
        self.tournament = tournament
        self.update = update
        self.history = history
        self.shown = shown
        self.poll = poll
        self.choose = choose
        self.status = status
        self.texts = Texts()
        self.tile_boxes: tuple[Box, ...] = ()
        self.tiles: tuple[Tile, ...] = ()
        self.hover: tuple[float, float] | None = None

    def frame_key(self) -> object:
        """What the page shows: the update's number, the page, the size, the pointer, the connection."""
        update = self.update()
        return (self.window.width, self.window.height, None if update is None else update.sequence, self.shown(),
                self.hover, self.status(), next_round_words(update, self.age()))

    def on_update(self, delta_time: float) -> None:
        """Bring in the news and move the cycle on."""
        if self.poll is not None:
            self.poll()

    def on_draw(self) -> None:
        """Paint the page."""
        self.clear(color=palette.BACKGROUND)
        self.draw_at(0.0)

    def draw_at(self, now: float) -> None:
        """The header (name, round, state, the pages with the one shown lit), then the page."""
        width, height = self.window.width, self.window.height
        update = self.update()
        shown = self.shown()
        name = update.name if update is not None and update.name else self.tournament
        fit_text(self.texts, "name", name, MARGIN, height - 50, width * 0.6, palette.TEXT, 30, bold=True)
        state = status_words(update) if update is not None else _("Waiting for the tournament…")
        state = "  ·  ".join(part for part in (state, next_round_words(update, self.age())) if part)
        fit_text(self.texts, "state", state, MARGIN, height - 80, width * 0.6, palette.WARNING, 15)
        pages = pages_of(update)
        fit_text(self.texts, "pages", "   ".join(p.short() for p in pages),
                 width - MARGIN, height - 46, width * 0.38, palette.TEXT_DIM, 13, "right")
        # the standings say their name as their heading ("Standings after round 3"): not twice
        title = "" if shown.page == "standings" and not shown.part else shown.title()
        fit_text(self.texts, "page", title, width - MARGIN, height - 80, width * 0.38, palette.TEXT, 17,
                 "right", bold=True)
        fit_text(self.texts, "status", self.status(), MARGIN, 10, width * 0.5 - MARGIN, palette.TEXT_DIM, 10)
        if self.page:
            fit_text(self.texts, "page-url", _("On your phone: {url}").format(url=self.page), width - MARGIN, 10,
                     width * 0.5 - MARGIN, palette.TEXT_DIM, 12, "right")
        body = Box(MARGIN, 30, width - 2 * MARGIN, height - HEADER - 40)
        self.tile_boxes, self.tiles = (), ()
        if update is None:
            return
        if shown.page == "tables":
            self._tables(body, update)
        elif shown.page == "bracket":
            draw_bracket(self.texts, "bracket", body, bracket_layout(update.bracket, entry_names(update)), 13)
        elif shown.page == "cards":
            self._cards(body, update)
        elif shown.page == "ranking":
            self._ranking(body, update, shown)
        else:
            self._standings(body, update)

    def rows(self, update: TournamentUpdate) -> tuple[StandingRow, ...]:
        """The standings as drawn."""
        return standing_rows(update, self.history)

    def _standings(self, body: Box, update: TournamentUpdate) -> None:
        """The whole standings, large."""
        heading = _("Final standings") if update.complete or update.status in ("finished", "ended") else \
            _("Standings after round {n}").format(n=update.after_round) if update.after_round else _("Entrants")
        fit_text(self.texts, "standings.title", heading, body.left, body.top - 20, body.width, palette.TEXT, 17,
                 bold=True)
        columns = standings_columns(tiebreak_names(update.standings), refereed=refereed_shown(update.standings))
        table = Box(body.left, body.bottom, body.width, body.height - 34)
        rows = self.rows(update)
        size = max(12.0, min(22.0, (table.height - 24) / max(1, len(rows)) / 2.1))  # a short field reads large
        draw_standings(self.texts, "standings", table, rows, columns, size=size)

    def _ranking(self, body: Box, update: TournamentUpdate, shown: Shown) -> None:
        """The final ranking, large: everybody, or one category with its winner in gold (a page of it)."""
        fit_text(self.texts, "ranking.title", ranking_heading(update, shown.category), body.left, body.top - 20,
                 body.width, palette.TEXT, 17, bold=True)
        table = Box(body.left, body.bottom, body.width, body.height - 34)
        rows = ranking_rows(update, shown.category)[shown.part * RANKING_ROWS:(shown.part + 1) * RANKING_ROWS]
        size = max(12.0, min(22.0, (table.height - 30) / max(1, len(rows)) / 2.1))
        draw_ranking(self.texts, "ranking", table, rows, columns_of(update), size=size)

    def _tables(self, body: Box, update: TournamentUpdate) -> None:
        """The round's tables as tiles with live scores (click one to watch it), and the byes."""
        names = entry_names(update)
        byes = ", ".join(names.get(e, e) for e in update.byes)
        heading = _("Round {n} — pairings").format(n=update.round)
        if byes:
            heading += "  ·  " + _("bye: {names}").format(names=byes)
        fit_text(self.texts, "tables.title", heading, body.left, body.top - 20, body.width, palette.TEXT, 17,
                 bold=True)
        self.tiles = tiles_of(update)
        self.tile_boxes = tile_grid(Box(body.left, body.bottom, body.width, body.height - 34), len(self.tiles),
                                    min_width=280.0)
        for i, (box, tile) in enumerate(zip(self.tile_boxes, self.tiles, strict=True)):
            lit = tile.live and self.hover is not None and box.contains(*self.hover)
            draw_tile(self.texts, f"tile{i}", box, tile, lit)

    def _cards(self, body: Box, update: TournamentUpdate) -> None:
        """Every card with its round and reason, and who sits out his next match."""
        names = entry_names(update)
        lines = [(f"{_(CARD_WORDS.get(c.card, c.card))}  {names.get(c.entry, c.entry)}",
                  _("round {n}").format(n=c.round), c.reason, c.card) for c in update.cards]
        y = body.top - 24
        for i, (who, when, why, card) in enumerate(lines[:18]):
            colour = (250, 215, 50) if card == "yellow" else (230, 90, 80)
            arcade.draw_lbwh_rectangle_filled(body.left, y - 6, 14, 20, colour)
            fit_text(self.texts, f"card{i}.who", who, body.left + 24, y, body.width * 0.3, palette.TEXT, 15, bold=True)
            fit_text(self.texts, f"card{i}.when", when, body.left + body.width * 0.34, y, body.width * 0.12,
                     palette.TEXT_DIM, 14)
            fit_text(self.texts, f"card{i}.why", why, body.left + body.width * 0.48, y, body.width * 0.52,
                     palette.TEXT, 14)
            y -= 30
        if update.suspended:
            out = ", ".join(names.get(e, e) for e in update.suspended)
            fit_text(self.texts, "suspended", _("Suspended for the next match: {names}").format(names=out),
                     body.left, y - 16, body.width, palette.WARNING, 15, bold=True)

    # ----------------------------------------------------------------- input
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """The pointer lights a tile."""
        self.hover = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click on a live tile watches that table."""
        tile = tile_at(self.tile_boxes, self.tiles, x, y)
        if tile is not None and tile.live and tile.room is not None and self.choose is not None:
            self.choose(f"watch:{tile.room}:{tile.table}")

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """←/→ step through the pages, Escape closes the hall."""
        page_key(self.window, symbol, modifiers, self.choose)


def page_key(window: arcade.Window, symbol: int, modifiers: int, choose: Callable[[str], None] | None) -> None:
    """A hall's keys: ←/→ (or Space) step through the pages, Escape closes it (after the client's own keys)."""
    if global_key(window, symbol, modifiers) or choose is None:
        return
    if symbol == arcade.key.LEFT:
        choose("previous")
    elif symbol in (arcade.key.RIGHT, arcade.key.SPACE):
        choose("next")
    elif symbol == arcade.key.ESCAPE:
        choose("close")

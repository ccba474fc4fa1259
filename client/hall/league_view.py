"""The spectators' hall of a league, full screen: each team match of the open day as a k × k grid filling with
results, with the team score above it, and the league table (a VIEW module: it imports arcade).

Why a view of its own beside the tournament's hall: a league's pictures are other ones - a square of games per team
match, not tables of a round - and they come from ``client.common.league_model`` (pure, tested); this view only
paints them. The director (``client.hall.league_director``) says which page is up.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from client.common import palette
from client.common.i18n import _
from client.common.league_model import (
    Cell,
    Grid,
    PlayerLine,
    TableLine,
    day_fixtures,
    grid_of,
    match_heading,
    match_state,
    player_lines,
    table_lines,
)
from client.common.tournament_model import Box
from client.common.widgets import Texts, fit_text, shrunk_size
from client.hall.hall_view import page_key
from shared.protocol import LeagueUpdate

HEADER = 96.0
MARGIN = 24.0
HOME_WON = (60, 120, 200, 235)  # the home team's kit blue
AWAY_WON = (190, 60, 60, 235)  # the away team's red
DRAWN = (90, 96, 106, 235)
PLAYING = (70, 60, 30, 235)
EMPTY = (36, 44, 54, 235)
LATER = (30, 36, 44, 200)


def pages_of(update: LeagueUpdate | None) -> list[str]:
    """The hall's pages: each team match of the open day (``match:ID``), then the table."""
    if update is None:
        return ["table"]
    return [f"match:{f.fixture}" for f in day_fixtures(update)] + ["table"]


def page_title(page: str, update: LeagueUpdate | None) -> str:
    """A page's name in the language in use."""
    if page.startswith("match:") and update is not None:
        fixture = next((f for f in update.fixtures if f.fixture == page[6:]), None)
        if fixture is not None:
            names = {t.team: t.name for t in update.teams}
            return f"{names.get(fixture.home, fixture.home)} – {names.get(fixture.away, fixture.away)}"
    return _("League table")


class LeagueHallView(arcade.View):
    """One page of the league's hall; ``choose`` takes ←/→ and Escape."""

    def __init__(self, league: str, update: Callable[[], LeagueUpdate | None], shown: Callable[[], str],
                 poll: Callable[[], None] | None = None, choose: Callable[[str], None] | None = None,
                 status: Callable[[], str] = str) -> None:
        super().__init__()
        self.league = league
        self.update = update
        self.shown = shown
        self.poll = poll
        self.choose = choose
        self.status = status
        self.texts = Texts()

    def on_update(self, delta_time: float) -> None:
        """Bring in the news and move the cycle on."""
        if self.poll is not None:
            self.poll()

    def on_draw(self) -> None:
        """Paint the page."""
        self.clear(color=palette.BACKGROUND)
        self.draw_page()

    def draw_page(self) -> None:
        """The header (the league, its day, the pages), then the page shown."""
        width, height = self.window.width, self.window.height
        update = self.update()
        shown = self.shown()
        name = update.name if update is not None and update.name else self.league
        fit_text(self.texts, "name", name, MARGIN, height - 50, width * 0.6, palette.TEXT, 30, bold=True)
        state = (_("Match day {n}").format(n=update.day) if update.day else _("No match day open yet")) \
            if update is not None else _("Waiting for the league…")
        fit_text(self.texts, "state", state, MARGIN, height - 80, width * 0.6, palette.WARNING, 15)
        fit_text(self.texts, "pages", "   ".join(page_title(p, update) for p in pages_of(update)), width - MARGIN,
                 height - 46, width * 0.38, palette.TEXT_DIM, 13, "right")
        fit_text(self.texts, "page", page_title(shown, update), width - MARGIN, height - 80, width * 0.38,
                 palette.TEXT, 17, "right", bold=True)
        fit_text(self.texts, "status", self.status(), MARGIN, 10, width * 0.5 - MARGIN, palette.TEXT_DIM, 10)
        body = Box(MARGIN, 30, width - 2 * MARGIN, height - HEADER - 40)
        if update is None:
            return
        fixture = next((f for f in update.fixtures if shown == f"match:{f.fixture}"), None)
        if fixture is not None:
            self._grid(body, grid_of(update, fixture))
        else:
            self._table(body, update)

    def _grid(self, body: Box, grid: Grid) -> None:
        """The team score above the k × k squares, A's line-up down the side, B's across, games won at the ends."""
        fit_text(self.texts, "grid.score", match_heading(grid), body.left + body.width / 2, body.top - 34,
                 body.width, palette.TEXT, 30, "center", bold=True)
        fit_text(self.texts, "grid.state", match_state(grid), body.left + body.width / 2, body.top - 62, body.width,
                 palette.TEXT_DIM, 15, "center")
        if not grid.rows:
            fit_text(self.texts, "grid.none", _("The line-ups are shown when both teams have given theirs."),
                     body.left + body.width / 2, body.top - 140, body.width, palette.TEXT, 18, "center")
            return
        k = len(grid.rows)
        name_w = min(260.0, body.width * 0.22)
        area = Box(body.left, body.bottom, body.width, body.height - 90)
        side = min((area.width - name_w - 90) / k, (area.height - 60) / (k + 1))
        left = area.left + (area.width - (name_w + side * k + 70)) / 2 + name_w
        top = area.top - 50
        size = max(10.0, min(22.0, side * 0.3))
        for j, name in enumerate(grid.columns):
            x = left + j * side + side / 2
            small = shrunk_size(self.texts, f"col{j}", name, side - 4, max(9.0, size * 0.6), bold=True)
            fit_text(self.texts, f"col{j}", name, x, top + 8, side - 4, AWAY_WON[:3], small, "center", bold=True)
        fit_text(self.texts, "col.won", _("won"), left + k * side + 35, top + 8, 70, palette.TEXT_DIM, 11, "center")
        for i, name in enumerate(grid.rows):
            y = top - (i + 1) * side
            fit_text(self.texts, f"row{i}", name, left - 12, y + side / 2 - size * 0.35, name_w - 12, HOME_WON[:3],
                     max(10.0, size * 0.75), "right", bold=True)
            for j, cell in enumerate(grid.cells[i]):
                self._square(f"cell{i}.{j}", Box(left + j * side + 2, y + 2, side - 4, side - 4), cell, size)
            fit_text(self.texts, f"row.won{i}", str(grid.row_won[i]), left + k * side + 35,
                     y + side / 2 - size * 0.35, 60, palette.TEXT, size, "center", bold=True)
        bottom = top - (k + 1) * side
        for j, won in enumerate(grid.column_won):
            fit_text(self.texts, f"col.won{j}", str(won), left + j * side + side / 2, bottom + side / 2 - size * 0.35,
                     side, palette.TEXT, size, "center", bold=True)
        fit_text(self.texts, "won.label", _("won"), left - 12, bottom + side / 2 - size * 0.35, name_w - 12,
                 palette.TEXT_DIM, 11, "right")

    def _square(self, key: str, box: Box, cell: Cell, size: float) -> None:
        """One game: coloured by its winner, its score (A's goals first) and its round."""
        colour = {"home": HOME_WON, "away": AWAY_WON, "draw": DRAWN}.get(cell.winner or "", None)
        if colour is None:
            colour = PLAYING if cell.state == "playing" else LATER if cell.state == "later" else EMPTY
        arcade.draw_lbwh_rectangle_filled(box.left, box.bottom, box.width, box.height, colour)
        if cell.state == "playing":
            arcade.draw_lbwh_rectangle_outline(box.left, box.bottom, box.width, box.height, palette.WARNING, 2)
        fit_text(self.texts, f"{key}.text", cell.text, box.left + box.width / 2, box.bottom + box.height / 2 -
                 size * 0.35, box.width - 4, palette.TEXT, size, "center", bold=True)
        fit_text(self.texts, f"{key}.round", str(cell.round), box.left + 5, box.top - 14, box.width / 2,
                 palette.TEXT_DIM, 9)

    def _table(self, body: Box, update: LeagueUpdate) -> None:
        """The league table of the finished team matches, large; under it the players' season lines (the best
        first, as many as fit)."""
        lines = table_lines(update)
        players = player_lines(update)
        share = 1.0 if not players else min(0.55, (len(lines) + 2) * 56.0 / max(1.0, body.height))
        teams_box = Box(body.left, body.top - body.height * share, body.width, body.height * share)
        self._teams(teams_box, lines)
        if players:
            self._players(Box(body.left, body.bottom, body.width, body.height - teams_box.height - 10), players)

    def _players(self, body: Box, players: tuple[PlayerLine, ...]) -> None:
        """The players' season lines in two columns."""
        fit_text(self.texts, "players.title", _("Players"), body.left, body.top - 20, body.width, palette.TEXT, 15,
                 bold=True)
        rows = max(1, int((body.height - 40) // 26))
        half = body.width / 2
        for i, p in enumerate(players[:rows * 2]):
            x = body.left + (i // rows) * half
            y = body.top - 50 - (i % rows) * 26
            cells = (f"{p.place}.", p.name, p.team, str(p.games), p.record)
            for c, (text, place, width) in enumerate(zip(cells, (0.0, 0.06, 0.5, 0.76, 0.84),
                                                         (0.06, 0.43, 0.25, 0.08, 0.16), strict=True)):
                fit_text(self.texts, f"player{i}.{c}", text, x + half * place, y, half * width - 6,
                         palette.TEXT if c != 2 else palette.TEXT_DIM, 13, bold=c == 1)
        fit_text(self.texts, "players.heads", _("games, W-D-L"), body.left + body.width - 10, body.top - 20,
                 half, palette.TEXT_DIM, 11, "right")

    def _teams(self, body: Box, lines: tuple[TableLine, ...]) -> None:
        """The league table of the finished team matches."""
        fit_text(self.texts, "table.title", _("League table"), body.left, body.top - 20, body.width, palette.TEXT,
                 17, bold=True)
        heads = ("#", _("Team"), _("Played"), _("W-D-L"), _("Games"), _("Points"))
        places = (0.0, 0.07, 0.52, 0.64, 0.77, 0.9)
        row = max(30.0, min(56.0, (body.height - 80) / max(1, len(lines) + 1)))
        size = row * 0.42
        y = body.top - 60
        for c, (head, place) in enumerate(zip(heads, places, strict=True)):
            fit_text(self.texts, f"head{c}", head, body.left + body.width * place, y, body.width * 0.12,
                     palette.TEXT_DIM, 13, bold=True)
        for r, line in enumerate(lines):
            y -= row
            if r % 2 == 0:
                arcade.draw_lbwh_rectangle_filled(body.left - 8, y - row * 0.3, body.width + 16, row, EMPTY)
            cells = (line.rank, line.team, str(line.played), line.record, line.games, str(line.points))
            for c, (text, place) in enumerate(zip(cells, places, strict=True)):
                width = body.width * (0.44 if c == 1 else 0.12)
                fit_text(self.texts, f"line{r}.{c}", text, body.left + body.width * place, y, width,
                         palette.WARNING if c == 5 else palette.TEXT, size, bold=c in (1, 5))

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """←/→ step through the pages, Escape closes the hall."""
        page_key(self.window, symbol, modifiers, self.choose)

"""The organiser's desk on screen: the desk's menus as the lobby paints them, each table of the round as a tile with
its coaches, score and time, the standings and the bracket, and the server's address large with its QR code (a VIEW
module: it imports arcade).

Why over the lobby's view: the desk's forms, lists and confirmations are ``client.common.menu`` pages like the lobby's,
so they look and answer the keyboard alike. The tiles, the standings and the bracket are the pictures the player's
screens and the hall show too (``client.common.tournament_widgets``); the QR code is drawn once into a texture from
``client.common.qr_code``'s modules.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade
from PIL import Image

from client.common import buttons, palette
from client.common.menu import Item
from client.common.menu_view import FOOTER, GAP, ITEM_HEIGHT, LobbyView
from client.common.qr_code import qr_pixels
from client.common.ranking_model import categories_of, columns_of, ranking_heading
from client.common.tournament_model import (
    Box,
    StandingsHistory,
    bracket_layout,
    entry_names,
    refereed_shown,
    standing_rows,
    standings_columns,
    tiebreak_names,
    tile_of,
)
from client.common.tournament_widgets import draw_bracket, draw_ranking, draw_standings, draw_tile
from client.common.widgets import fit_text, shrunk_size
from client.desk import desk_cup
from client.desk.desk_model import DeskModel
from shared.protocol import TournamentUpdate

QR_SCALE = 8  # image pixels per module before the texture is drawn at its size on screen
CORNER_QR = 150.0  # the side of the home screen's QR code (px)
PICTURE_SCREENS = ("standings", "bracket", "ranking")


class DeskView(LobbyView):
    """The desk's screens; ``send`` carries a request (or a local act) to the desk's owner."""

    def __init__(self, model: DeskModel, send: Callable[[object], None],
                 poll: Callable[[], None] | None = None) -> None:
        """Show ``model``; ``poll`` brings in the server's news every frame."""
        super().__init__(model, send, poll)
        self.desk = model
        self.history = StandingsHistory()  # the updates seen: rank changes and points by round
        self.absorbed = -1
        self.qr_texture: arcade.Texture | None = None
        self.qr_text = ""

    def draw_at(self, now: float) -> None:
        """The menu, the standings or the bracket, then the QR code: large beside the addresses, small in the corner
        of the home screen."""
        super().draw_at(now)
        self.draw_pictures()
        width, height = self.window.width, self.window.height
        url = self.desk.page_url()
        if self.desk.screen == "address":
            side = min(height - 220.0, (width - 540.0) / 2 - 30, 420.0)
            if side < 120:  # a narrow window: the code under the addresses instead
                side = min(height * 0.4, width - 80.0)
                self.draw_qr(url, (width - side) / 2, 110.0, side)
            else:
                self.draw_qr(url, width - side - 24, (height - side) / 2 - 20, side)
        elif self.corner_qr():
            side = CORNER_QR
            self.draw_qr(url, width - side - 18, height - side - 18, side)
            # the page's address whole under its code: the host and port on one line, the page on the next, each
            # shrunk to fit rather than cut (a cut address cannot be typed)
            host, _sep, page = url.partition("://")[2].partition("/")
            for i, line in enumerate((host, "/" + page if page else "")):
                size = shrunk_size(self.texts, f"qr-url{i}", line, side + 30, 10)
                fit_text(self.texts, f"qr-url{i}", line, width - side / 2 - 18, height - side - 34 - 13 * i,
                         side + 30, palette.TEXT_DIM, size, "center")

    def corner_qr(self) -> bool:
        """Whether the home screen has the page's QR code in its top right corner (a window wide enough)."""
        return self.desk.screen == "home" and self.window.width >= 1100

    def title_room(self) -> float:
        """The tournament's name, centred, kept clear of the corner's QR code on both sides."""
        return super().title_room() - (2 * (CORNER_QR + 18) if self.corner_qr() else 0.0)

    def draw_qr(self, text: str, left: float, bottom: float, side: float) -> None:
        """The QR code of ``text`` in a square of ``side`` pixels (made into a texture once per text)."""
        if self.qr_texture is None or self.qr_text != text:
            size, pixels = qr_pixels(text, QR_SCALE)
            image = Image.new("L", (size, size))
            image.putdata(pixels)
            self.qr_texture = arcade.Texture(image.convert("RGBA"), hash=f"qr:{text}")
            self.qr_text = text
        arcade.draw_texture_rect(self.qr_texture, arcade.LBWH(left, bottom, side, side),
                                 pixelated=True)

    def top(self) -> float:
        """Where the items begin: under the notes, or - on the standings and the bracket, which fill the screen -
        at the bottom, under the picture."""
        if self.desk.screen in PICTURE_SCREENS:
            rows = 0
            group = None
            for item in self.model.items():  # items of one group share a line
                rows += 1 if not item.group or item.group != group else 0
                group = item.group
            return FOOTER + rows * (ITEM_HEIGHT + GAP)
        return super().top()

    def picture_area(self) -> Box:
        """The rectangle the standings or the bracket fill: between the notes and the items."""
        width = self.window.width
        panel = min(width - 40.0, 1100.0)
        bottom = self.top() + 8
        top = super().top() + 10
        return Box((width - panel) / 2, bottom, panel, max(60.0, top - bottom))

    def draw_pictures(self) -> None:
        """The shared standings table (rank changes, tie-breaks, points by round) or the knockout bracket."""
        update = self.desk.update
        if update is None:
            return
        if update.sequence != self.absorbed:
            self.history.absorb(update)
            self.absorbed = update.sequence
        if self.desk.screen == "standings" and update.standings:
            rows = standing_rows(update, self.history)
            draw_standings(self.texts, "standings", self.picture_area(), rows,
                           standings_columns(tiebreak_names(update.standings),
                                            refereed=refereed_shown(update.standings)))
        elif self.desk.screen == "ranking" and update.ranking:
            self.draw_ranking(update)
        elif self.desk.screen == "bracket":
            draw_bracket(self.texts, "bracket", self.picture_area(), bracket_layout(update.bracket,
                                                                                     entry_names(update)))

    def draw_ranking(self, update: TournamentUpdate) -> None:
        """The final ranking, the whole field or the category chosen, its title above it."""
        area = self.picture_area()
        view = self.desk.form["view"]
        fit_text(self.texts, "ranking.title", ranking_heading(update, view), area.left, area.top - 18, area.width,
                 palette.TEXT, 15, bold=True)
        rows = desk_cup.ranking_page(self.desk)
        table = Box(area.left, area.bottom, area.width, area.height - 28)
        size = max(11.0, min(14.0, (table.height - 24) / max(1, len(rows)) / 2.1))
        draw_ranking(self.texts, "ranking", table, rows, columns_of(update), size=size)

    def _item(self, index: int, item: Item, b: buttons.Button, lit: bool) -> None:
        """A table's tile (the shared widget), or any other item as the lobby draws it."""
        if item.kind != "tile":
            super()._item(index, item, b, lit)
            return
        number = int(item.cells[0]) if item.cells else 0
        line = next((t for t in self.desk.tables() if t.table == number), None)
        if line is not None:
            draw_tile(self.texts, f"tile{index}", Box(b.left, b.bottom, b.width, b.height),
                      tile_of(line, categories_of(self.desk.update)), lit,
                      heading=item.label)

"""The organiser's desk on screen: the desk's menus as the lobby paints them, each table of the round as a tile with
its coaches, score and time, and the server's address large with its QR code (a VIEW module: it imports arcade).

Why over the lobby's view: the desk's forms, lists and confirmations are ``client.menu`` pages like the lobby's, so
they look and answer the keyboard alike; this view adds what only the desk shows - the tiles (a click watches the
table) and the QR code, drawn once into a texture from ``client.qr_code``'s modules.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade
from PIL import Image

from client import buttons, palette
from client.desk_model import DeskModel
from client.hud_view import fit_text
from client.lobby_view import LobbyView
from client.menu import Item
from client.qr_code import qr_pixels

QR_SCALE = 8  # image pixels per module before the texture is drawn at its size on screen
TILE_FILL = {"playing": (30, 70, 52, 240), "waiting": (70, 58, 26, 240), "replay": (70, 40, 40, 240)}
TILE_ENDED = (44, 50, 60, 235)


class DeskView(LobbyView):
    """The desk's screens; ``send`` carries a request (or a local act) to the desk's owner."""

    def __init__(self, model: DeskModel, send: Callable[[object], None],
                 poll: Callable[[], None] | None = None) -> None:
        """Show ``model``; ``poll`` brings in the server's news every frame."""
        super().__init__(model, send, poll)
        self.desk = model
        self.qr_texture: arcade.Texture | None = None
        self.qr_text = ""

    def draw_at(self, now: float) -> None:
        """The menu, then the QR code: large beside the addresses, small in the corner of the home screen."""
        super().draw_at(now)
        width, height = self.window.width, self.window.height
        url = self.desk.urls()[0]
        if self.desk.screen == "address":
            side = min(height - 220.0, (width - 540.0) / 2 - 30, 420.0)
            if side < 120:  # a narrow window: the code under the addresses instead
                side = min(height * 0.4, width - 80.0)
                self.draw_qr(url, (width - side) / 2, 110.0, side)
            else:
                self.draw_qr(url, width - side - 24, (height - side) / 2 - 20, side)
        elif self.desk.screen == "home" and width >= 1100:
            side = 150.0
            self.draw_qr(url, width - side - 18, height - side - 18, side)
            fit_text(self.texts, "qr-url", url, width - side / 2 - 18, height - side - 36, side + 20,
                     palette.TEXT_DIM, 10, "center")

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

    def _item(self, index: int, item: Item, b: buttons.Button, lit: bool) -> None:
        """A table's tile, or any other item as the lobby draws it."""
        if item.kind != "tile":
            super()._item(index, item, b, lit)
            return
        home, result, away, state, status = (*item.cells, "", "", "", "", "")[:5]
        fill = TILE_FILL.get(status, TILE_ENDED)
        arcade.draw_lbwh_rectangle_filled(b.left, b.bottom, b.width, b.height, fill)
        edge = palette.TEXT if lit else (110, 130, 160, 255)
        arcade.draw_lbwh_rectangle_outline(b.left, b.bottom, b.width, b.height, edge, 2 if lit else 1)
        key = f"item{index}"
        top = b.bottom + b.height
        home_goals, _sep, away_goals = result.partition(":")
        if not _sep or " " in away_goals:  # a walkover, a shoot-out or no score yet: the result in words below
            home_goals, away_goals = "", ""
        fit_text(self.texts, f"{key}.n", f"{item.label} · {state}", b.left + 10, top - 18, b.width - 20,
                 palette.TEXT_DIM, 10)
        names_width = b.width - 70
        for row, (name, goals) in enumerate(((home, home_goals), (away, away_goals))):
            y = top - 44 - 28 * row
            fit_text(self.texts, f"{key}.name{row}", name, b.left + 10, y, names_width, palette.TEXT, 13, bold=True)
            fit_text(self.texts, f"{key}.goals{row}", goals, b.left + b.width - 14, y - 2, 50, palette.WARNING, 20,
                     "right", bold=True)
        fit_text(self.texts, f"{key}.result", result if not home_goals else "", b.left + b.width - 14,
                 b.bottom + 8, b.width - 20, palette.WARNING, 10, "right")

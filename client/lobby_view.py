"""The lobby screen: a game menu over a dimmed board — quick match, play the bot, create a room, join by code,
watch a match (on a private practice server: only the bot) — by mouse or keyboard (a VIEW module: it imports
arcade).

Why this split: every decision lives in ``client.lobby_model``; this view lays its items out as large
buttons, lights the focused one (hovering moves the focus), and hands requests to the navigator that owns
the connection.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from client import buttons, palette
from client.board_view import draw_board
from client.help_view import global_key
from client.hud_view import Texts
from client.i18n import _
from client.lobby_model import Item, LobbyModel
from client.transform import Transform

ITEM_HEIGHT = 46.0
ROOM_HEIGHT = 34.0
GAP = 10.0
FOOTER = 96.0  # pixels below the items: error, hint, status and key help
KEYS = {arcade.key.UP: "up", arcade.key.DOWN: "down", arcade.key.LEFT: "left", arcade.key.RIGHT: "right",
        arcade.key.ENTER: "enter", arcade.key.RETURN: "enter", arcade.key.NUM_ENTER: "enter",
        arcade.key.ESCAPE: "escape", arcade.key.BACKSPACE: "backspace", arcade.key.TAB: "down"}
FILL = (44, 56, 74, 235)
FILL_LIT = (196, 40, 48, 245)  # the home kit's red: the lit item reads like a jersey
FILL_OFF = (38, 42, 48, 200)
EDGE = (110, 130, 160, 255)


def draw_menu_button(texts: Texts, key: str, b: buttons.Button, lit: bool, label: str, size: float,
                     bold: bool = True) -> None:
    """One large menu button (a lobby item, a results choice): red when lit, dim when disabled, label centred.

    Why here: the lobby and the results screen are the game's two menus and must look alike."""
    fill = FILL_LIT if lit else FILL if b.enabled else FILL_OFF
    arcade.draw_lbwh_rectangle_filled(b.left, b.bottom, b.width, b.height, fill)
    arcade.draw_lbwh_rectangle_outline(b.left, b.bottom, b.width, b.height, palette.TEXT if lit else EDGE,
                                       2 if lit else 1)
    color = palette.TEXT if b.enabled else palette.TEXT_DIM
    text = texts.get(key, label, b.left + b.width / 2, b.bottom + b.height / 2, color, size, "center", "center",
                     bold=bold)
    while text.content_width > b.width - 12 and text.font_size > 8:  # a long line shrinks to fit its button
        text.font_size -= 0.5
    text.draw()


class LobbyView(arcade.View):
    """The menu; ``send`` carries a request (or ``QUIT``) to whoever owns the connection."""

    def __init__(self, model: LobbyModel, send: Callable[[object], None],
                 poll: Callable[[], None] | None = None) -> None:
        """Show ``model``; ``poll`` is called every frame to bring in news from the server."""
        super().__init__()
        self.model = model
        self.send = send
        self.poll = poll
        self.texts = Texts()
        self.hover: tuple[float, float] | None = None
        self.buttons: list[buttons.Button] = []

    # ----------------------------------------------------------------- layout
    def layout(self) -> list[tuple[Item, buttons.Button]]:
        """Each item of the current screen with its rectangle, centred below the title."""
        width, height = self.window.width, self.window.height
        rooms = self.model.screen in ("rooms", "replays")
        panel = min(width - 40.0, 820.0 if rooms else 520.0)
        top = height - min(190.0, height * 0.27)
        items = self.model.items()
        heights = [ROOM_HEIGHT if item.kind == "room" else ITEM_HEIGHT for item in items]
        room_for = top - FOOTER  # the error, the hint and the key help need the rest
        needed = sum(heights) + GAP * (len(items) - 1)
        scale = min(1.0, room_for / needed) if needed > 0 else 1.0
        found = []
        y = top
        for item, h in zip(items, heights, strict=True):
            h = max(24.0, h * scale)
            found.append((item, buttons.Button(item.label, item.command, (width - panel) / 2, y - h, panel, h,
                                               item.enabled)))
            y -= h + GAP * scale
        return found

    def frame_key(self) -> object:
        """Everything the menu shows, cheaply: the picture changes only when this does (``client.app``)."""
        m = self.model
        return (self.window.width, self.window.height, m.screen, m.focus, m.error, m.status_line(), m.first_start,
                tuple((i.label, i.enabled, i.hint) for i in m.items()), self.hover)

    # ----------------------------------------------------------------- loop
    def on_update(self, delta_time: float) -> None:
        """Bring in the server's news."""
        if self.poll is not None:
            self.poll()

    def on_draw(self) -> None:
        """Paint the menu."""
        self.clear(color=palette.BACKGROUND)
        self.draw_at(0.0)

    def draw_at(self, now: float) -> None:
        """The dimmed board, the title, the items, the hint, the status and the key help."""
        width, height = self.window.width, self.window.height
        draw_board(Transform.fit(0, 0, width, height))
        arcade.draw_lrbt_rectangle_filled(0, width, 0, height, (14, 18, 24, 205))
        title_size = 56 if height >= 600 else 38
        self.texts.draw("title", "ŠPRTEC", width / 2, height - 16 - title_size, palette.TEXT, title_size, "center",
                        bold=True)
        self.texts.draw("subtitle", _("billiard-hockey · hokej stołowy  —  {screen}").format(screen=self.model.title()),
                        width / 2, height - 40 - title_size * 1.35, palette.WARNING, 15, "center")
        first = _("New here? Choose How to play — and F1 shows the keys on every screen") \
            if self.model.first_start and self.model.screen == "menu" else ""
        self.texts.draw("first", first, width / 2, height - 40 - title_size * 1.35 - 24, palette.TEXT, 12, "center",
                        bold=True)
        laid = self.layout()
        self.buttons = [b for _, b in laid]
        hint = ""
        for i, (item, b) in enumerate(laid):
            # one lit item: the focus (hovering moves it), so a pointer left over another item after a screen
            # change does not light a second one
            lit = b.enabled and i == self.model.focus
            if lit:
                hint = item.hint
            self._item(i, item, b, lit)
        bottom = laid[-1][1].bottom if laid else height / 2
        if self.model.error:
            self.texts.draw("error", self.model.error, width / 2, bottom - 34, palette.WARNING, 13, "center",
                            bold=True)
        else:
            self.texts.draw("error", "", width / 2, bottom - 34)
        self.texts.draw("hint", hint, width / 2, bottom - 58, palette.TEXT_DIM, 12, "center")
        self.texts.draw("status", self.model.status_line(), 14, 14, palette.TEXT_DIM, 11)
        keys = _("↑↓ choose   Enter select   ←→ change   Esc back   F1 help") if self.model.screen != "join" \
            else _("type the code   Enter join   Esc back")
        self.texts.draw("keys", keys, width - 14, 14, palette.TEXT_DIM, 11, "right")

    def _item(self, index: int, item: Item, b: buttons.Button, lit: bool) -> None:
        """One item as a large button: lit when focused, arrows on a choice."""
        size = 12.5 if item.kind == "room" else 16 if b.height >= 40 else 13
        label = f"◀   {item.label}   ▶" if item.kind == "choice" else item.label
        draw_menu_button(self.texts, f"item{index}", b, lit, label, size, bold=item.kind != "room")

    # ----------------------------------------------------------------- input
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Hovering an item also moves the keyboard focus there."""
        self.hover = (x, y)
        for i, b in enumerate(self.buttons):
            if b.enabled and b.contains(x, y):
                self.model.focus = i

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """Click an item; on a choice the left third steps back, the rest steps forward."""
        hit = buttons.hit(self.buttons, x, y)
        if hit is None:
            return
        if hit.command.startswith("cycle:") and x < hit.left + hit.width / 3:
            self.model.focus = self.buttons.index(hit)
            self.model.key("left")
            return
        self._send(self.model.activate(hit.command))

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Arrows, Enter, Escape, Backspace."""
        if global_key(self.window, symbol, modifiers):
            return
        name = KEYS.get(symbol)
        if name is not None:
            self._send(self.model.key(name))

    def on_text(self, text: str) -> None:
        """Typed characters (the room code)."""
        self.model.type_text(text)

    def _send(self, request: object | None) -> None:
        """Pass a request on."""
        if request is not None:
            self.send(request)

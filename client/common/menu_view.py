"""The lobby screen and every other menu: a game menu over a dimmed board — quick match, play the bot, create a
room, join by code, watch a match (on a private practice server: only the bot); the name entry, the claim code, a
profile and the leaderboard — by mouse or keyboard (a VIEW module: it imports arcade).

Why this split: every decision lives in the menu's model (``client.player.lobby_model``, ``client.player.name_entry``,
``client.player.profile_model``, …: a ``client.common.menu.Menu``); this view lays its items out as large buttons,
table rows and lines of text, lights the focused one (hovering moves the focus), and hands requests to the navigator
that owns the connection.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import arcade

from client.common import buttons, palette
from client.common.board_view import draw_board
from client.common.help_view import global_key
from client.common.menu import TEXT_KINDS, Item, Menu, focusable, text_field
from client.common.transform import Transform
from client.common.widgets import Texts, fit_text, shrunk_size
from client.common.window import FRAME_S

ITEM_HEIGHT = 46.0
ROOM_HEIGHT = 34.0
HEIGHTS = {"room": ROOM_HEIGHT, "text": 26.0, "big": 100.0, "tile": 130.0}  # by kind; the others are ITEM_HEIGHT
GAP = 10.0
ROW_GAP = 4.0  # between the rows of a list
INLINE_GAP = 6.0  # between items side by side
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
    """A menu; ``send`` carries a request (or ``QUIT``) to whoever owns the connection."""

    @property
    def idle_rate(self) -> float:
        """Seconds between the loop's ticks once the menu is still (input and the network's news wake it): the full
        rate while the screen has a field to type into, whose letters must be read as they come (a letter read
        late is looked up in a keymap that may have changed since: xdotool's typing of a letter the map lacks)."""
        return FRAME_S if text_field(self.model) is not None else 0.5

    def __init__(self, model: Menu, send: Callable[[object], None],
                 poll: Callable[[], None] | None = None) -> None:
        """Show ``model``; ``poll`` is called every frame to bring in news from the server."""
        super().__init__()
        self.model = model
        self.send = send
        self.poll = poll
        self.texts = Texts()
        self.hover: tuple[float, float] | None = None
        self.buttons: list[buttons.Button] = []
        self.typing = False  # a field was typed into since the last arrow, click or Enter: the pointer lights
        # nothing else, so Enter submits that field
    # ----------------------------------------------------------------- layout
    def top(self) -> float:
        """Where the items begin: below the title, the subtitle and the notes."""
        height = float(self.window.height)
        notes = len(self.model.notes())
        below_notes = height - 40 - self.title_size() * 1.35 - 24 * notes - 18
        return min(height - min(190.0, height * 0.27), below_notes)

    def title_size(self) -> float:
        """The size of the heading: smaller in a low window."""
        return 56.0 if self.window.height >= 600 else 38.0

    def title_room(self) -> float:
        """How wide the centred heading may be (a long name shrinks to it)."""
        return float(self.window.width) - 40.0

    def layout(self) -> list[tuple[Item, buttons.Button]]:
        """Each item of the current screen with its rectangle, centred below the title; items of one group side by
        side; everything shrunk together when the screen would not hold it."""
        width = self.window.width
        panel = min(width - 40.0, 820.0 if self.model.wide() else 520.0)
        top = self.top()
        items = self.model.items()
        rows: list[list[Item]] = []
        for item in items:
            if rows and item.group and rows[-1][-1].group == item.group:
                rows[-1].append(item)
            else:
                rows.append([item])
        heights = [max(HEIGHTS.get(item.kind, ITEM_HEIGHT) for item in row) for row in rows]
        gaps = [ROW_GAP if row[0].kind in ("room", "text") and following[0].kind in ("room", "text") else GAP
                for row, following in pairwise(rows)]
        room_for = top - FOOTER  # the error, the hint and the key help need the rest
        needed = sum(heights) + sum(gaps)
        scale = min(1.0, room_for / needed) if needed > 0 else 1.0
        found = []
        y = top
        for i, (row, h) in enumerate(zip(rows, heights, strict=True)):
            h = max(20.0 if row[0].kind == "text" else 24.0, h * scale)
            total = sum(item.weight for item in row)
            room = panel - INLINE_GAP * (len(row) - 1)
            x = (width - panel) / 2
            for item in row:
                w = room * item.weight / total
                found.append((item, buttons.Button(item.label, item.command, x, y - h, w, h, focusable(item))))
                x += w + INLINE_GAP
            y -= h + (gaps[i] * scale if i < len(gaps) else 0.0)
        return found

    def frame_key(self) -> object:
        """Everything the menu shows, cheaply: the picture changes only when this does (``client.common.window``)."""
        m = self.model
        return (self.window.width, self.window.height, m.heading(), m.subtitle(), m.notes(), m.focus, m.error,
                m.status_line(), tuple((i.label, i.enabled, i.hint, i.cells) for i in m.items()), self.hover)

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
        title_size = self.title_size()
        heading = self.texts.get("title", self.model.heading(), width / 2, height - 16 - title_size, palette.TEXT,
                                 title_size, "center", bold=True)
        while heading.content_width > self.title_room() and heading.font_size > 16:  # a long name shrinks to fit
            heading.font_size -= 2
        heading.draw()
        subtitle_y = height - 40 - title_size * 1.35
        fit_text(self.texts, "subtitle", self.model.subtitle(), width / 2, subtitle_y, width - 40, palette.WARNING, 15,
                 "center")
        notes = self.model.notes()
        for i in range(max(len(notes), 3)):
            fit_text(self.texts, f"note{i}", notes[i] if i < len(notes) else "", width / 2, subtitle_y - 24 * (i + 1),
                     width - 40, palette.TEXT, 12, "center", bold=True)
        laid = self.layout()
        self.buttons = [b for _, b in laid]
        hint = ""
        for i, (item, b) in enumerate(laid):
            # one lit item: the focus (hovering moves it), so a pointer left over another item after a screen
            # change does not light a second one
            lit = b.enabled and i == self.model.focus
            self._item(i, item, b, lit)
            if lit:
                hint = self.whole_text(i, item) or item.hint
        bottom = laid[-1][1].bottom if laid else height / 2
        if self.model.error:
            fit_text(self.texts, "error", self.model.error, width / 2, bottom - 34, width - 40, palette.WARNING, 13,
                     "center", bold=True)
        else:
            self.texts.draw("error", "", width / 2, bottom - 34, anchor_x="center")  # one anchor for the slot
        self.texts.draw("hint", hint, width / 2, bottom - 58, palette.TEXT_DIM, 12, "center")
        keys = self.texts.get("keys", self.model.keys_help(), width - 14, 14, palette.TEXT_DIM, 11, "right")
        self.texts.show("keys")
        # the status line ends before the key hints (cut, never run into them)
        room = width - keys.content_width - 48
        size = shrunk_size(self.texts, "status", self.model.status_line(), room, 11)  # shrunk before it is cut
        fit_text(self.texts, "status", self.model.status_line(), 14, 14, room, palette.TEXT_DIM, size)

    def whole_text(self, index: int, item: Item) -> str:
        """The whole text of item ``index`` when it was drawn cut short (its row's cells, or its line), else "": the
        lit item's hint line gives it whole, as a tooltip would."""
        keys = [f"item{index}.{cell}" for cell in range(len(item.cells))] if item.cells else [f"item{index}"]
        for key in keys:
            known = self.texts.fitted.get(key)
            if known is not None and known[3] != known[0]:
                return "  ·  ".join(item.cells) if item.cells else item.label
        return ""

    def _item(self, index: int, item: Item, b: buttons.Button, lit: bool) -> None:
        """One item: a large button (lit when focused, arrows on a choice), a row of a table, or a line of text."""
        key = f"item{index}"
        if item.kind == "big":  # a code to read out: shrunk to fit, never cut
            code = self.texts.get(key, item.label, b.left + b.width / 2, b.bottom + b.height / 2 - 20,
                                  palette.WARNING, 56, "center", bold=True)
            while code.content_width > b.width and code.font_size > 16:
                code.font_size -= 2
            self.texts.show(key)
            return
        if item.kind in TEXT_KINDS:
            if item.cells:
                self._cells(key, item, b, palette.TEXT_DIM, 11.5, bold=False)
            else:  # a line of text shrinks to be read whole before it is ever cut
                size = shrunk_size(self.texts, key, item.label, b.width, 13, bold=True)
                fit_text(self.texts, key, item.label, b.left + b.width / 2, b.bottom + b.height / 2 - 4, b.width,
                         palette.TEXT, size, "center", bold=True)
            return
        if item.cells:
            draw_menu_button(self.texts, key, b, lit, "", 12.5)
            # never bold when lit: the red fill marks it, and a bold row would be cut where the plain one fits
            self._cells(key, item, b, palette.TEXT if b.enabled else palette.TEXT_DIM, 12.5, bold=False)
            return
        size = 12.5 if item.kind == "room" else 16 if b.height >= 40 else 13
        label = f"◀   {item.label}   ▶" if item.kind == "choice" else item.label
        draw_menu_button(self.texts, key, b, lit, label, size, bold=item.kind != "room")

    def _cells(self, key: str, item: Item, b: buttons.Button, color: palette.Colour, size: float,
               bold: bool) -> None:
        """A table row's cells, each from its stop to the next (cut short when it would run into it)."""
        stops = [*item.stops, 1.0]
        inner = b.width - 20
        for i, cell in enumerate(item.cells):
            start = stops[i] if i < len(stops) else 1.0
            end = stops[i + 1] if i + 1 < len(stops) else 1.0
            fit_text(self.texts, f"{key}.{i}", cell, b.left + 10 + inner * start, b.bottom + b.height / 2 - size / 2.2,
                     inner * (end - start) - 8, color, size, bold=bold)

    # ----------------------------------------------------------------- input
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Hovering an item also moves the keyboard focus there - unless a field is being typed into (a pointer
        resting on a button must not take Enter from the field)."""
        self.hover = (x, y)
        if self.typing:
            return
        for i, b in enumerate(self.buttons):
            if b.enabled and b.contains(x, y):
                self.model.focus = i

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """Click an item; on a choice the left third steps back, the rest steps forward."""
        hit = buttons.hit(self.buttons, x, y)
        if hit is None:
            return
        self.typing = False
        if hit.command.startswith("cycle:") and x < hit.left + hit.width / 3:
            self.model.focus = self.buttons.index(hit)
            self._send(self.model.key("left"))
            return
        self._send(self.model.activate(hit.command))

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Arrows, Enter, Escape, Backspace."""
        if global_key(self.window, symbol, modifiers):
            return
        name = KEYS.get(symbol)
        if name == "backspace":
            self._to_the_field()
        elif name is not None and name != "enter":
            self.typing = False
        if name is not None:
            self._send(self.model.key(name))
        if name == "enter":
            self.typing = False

    def on_text(self, text: str) -> None:
        """Typed characters (a room code, a name) go into the screen's field, which takes the focus."""
        if text.isprintable():
            self._to_the_field()
        self.model.type_text(text)

    def _to_the_field(self) -> None:
        """Typing: the focus goes to the field typed into, and stays there until an arrow, a click or Enter."""
        field = text_field(self.model)
        if field is not None:
            self.model.focus, self.typing = field, True

    def _send(self, request: object | None) -> None:
        """Pass a request on."""
        if request is not None:
            self.send(request)

"""Text and buttons as every screen of the client paints them: a pool of labels, fitting a line into its width, a
row of buttons, a tooltip and a dialog (a VIEW module: it imports arcade).

Why one module: the match's HUD, the menus, the desk and the hall draw their words the same way, with one cached
``arcade.Text`` per slot so that redrawing every frame is cheap, and a label that must be read whole shrinks
before it is cut.
"""

from __future__ import annotations

from collections.abc import Sequence

import arcade
import pyglet

from client.common import palette
from client.common.buttons import Button

MIN_TEXT_SIZE = 8.0  # a label that must be read whole shrinks down to this


class Texts:
    """A pool of labels keyed by slot name, so each frame only changes text and position."""

    def __init__(self, batched: bool = False) -> None:
        """An empty pool; ``batched`` labels are drawn together by ``flush`` (one call for all), after the shapes
        under them — the match view's dozens of labels cost a few milliseconds a frame one by one."""
        self._pool: dict[str, arcade.Text] = {}
        self.fitted: dict[str, tuple[str, float, float, str]] = {}  # key: (text, width, size) -> the text shown
        self.batch = pyglet.graphics.Batch() if batched else None
        self._shown: set[str] = set()
        self._visible: dict[str, bool] = {}

    def show(self, key: str) -> None:
        """Draw slot ``key`` now, or, batched, at the next ``flush``."""
        if self.batch is None:
            self._pool[key].draw()
        else:
            self._shown.add(key)

    def flush(self) -> None:
        """Batched: draw every label shown since the last flush in one go, and hide the others."""
        if self.batch is None:
            return
        for key, label in self._pool.items():
            visible = key in self._shown
            if self._visible.get(key) != visible:
                label.label.visible = visible
                self._visible[key] = visible
        self._shown.clear()
        self.batch.draw()

    def draw(self, key: str, text: str, x: float, y: float, color: palette.Colour = palette.TEXT, size: float = 12,
             anchor_x: str = "left", anchor_y: str = "baseline", bold: bool = False) -> arcade.Text:
        """Draw ``text`` in slot ``key``."""
        label = self.get(key, text, x, y, color, size, anchor_x, anchor_y, bold)
        self.show(key)
        return label

    def peek(self, key: str) -> arcade.Text | None:
        """The label of slot ``key`` as last drawn (tests measure where text went), or None."""
        return self._pool.get(key)

    def get(self, key: str, text: str, x: float, y: float, color: palette.Colour = palette.TEXT, size: float = 12,
            anchor_x: str = "left", anchor_y: str = "baseline", bold: bool = False) -> arcade.Text:
        """The label of slot ``key`` set to ``text`` without drawing it (to measure it first)."""
        label = self._pool.get(key)
        if label is None:
            label = arcade.Text(text, x, y, color, size, anchor_x=anchor_x, anchor_y=anchor_y, bold=bold,
                                batch=self.batch)
            self._pool[key] = label
        else:
            if label.text != text:
                label.text = text
            if label.x != x or label.y != y:
                label.x, label.y = x, y
            want = tuple(color) if len(color) == 4 else (*color, 255)
            if tuple(label.color) != want:  # (a label reports RGBA: compare like with like, or it re-colours always)
                label.color = color
            if label.font_size != size:
                label.font_size = size
        return label


def fit_text(texts: Texts, key: str, text: str, x: float, y: float, max_width: float,
             color: palette.Colour = palette.TEXT, size: float = 12, anchor_x: str = "left",
             bold: bool = False) -> None:
    """Draw ``text`` cut short with an ellipsis so it never runs wider than ``max_width`` pixels (the cut is
    remembered per slot, so an unchanged line costs no layout)."""
    known = texts.fitted.get(key)
    if known is not None and known[:3] == (text, max_width, size):
        texts.get(key, known[3], x, y, color, size, anchor_x, bold=bold)
        texts.show(key)
        return
    label = texts.get(key, text, x, y, color, size, anchor_x, bold=bold)
    if max_width > 0 and label.content_width > max_width:
        keep = max(1, int(len(text) * max_width / label.content_width) - 1)
        while keep > 1:
            label.text = text[:keep].rstrip() + "…"
            if label.content_width <= max_width:
                break
            keep -= 2
    texts.fitted[key] = (text, max_width, size, label.text)
    texts.show(key)


def shrunk_size(texts: Texts, key: str, text: str, max_width: float, size: float, bold: bool = False) -> float:
    """The font size, from ``size`` down to ``MIN_TEXT_SIZE``, at which ``text`` fits ``max_width`` pixels: a label
    that must be read whole (a button's, a column's head) shrinks rather than runs over its neighbour. Measured on
    a slot of its own, once per text, width and size."""
    memo = f"{key}#size"
    known = texts.fitted.get(memo)
    if known is not None and known[:3] == (text, max_width, size):
        return float(known[3])
    label = texts.get(memo, text, 0, 0, palette.TEXT, size, bold=bold)
    shrunk = size
    while label.content_width > max_width and shrunk > MIN_TEXT_SIZE:
        shrunk -= 0.5
        label.font_size = shrunk
    texts.fitted[memo] = (text, max_width, size, str(shrunk))
    return shrunk


def draw_buttons(texts: Texts, buttons: Sequence[Button], hover: tuple[float, float] | None = None,
                 prefix: str = "btn") -> None:
    """Paint buttons; the hovered one lights up, disabled ones are dim; a label shrinks to fit its button (a row of
    many choices narrows the buttons)."""
    for i, b in enumerate(buttons):
        lit = hover is not None and b.enabled and b.contains(*hover)
        fill = (70, 90, 120, 255) if lit else (48, 60, 78, 255) if b.enabled else (40, 44, 50, 200)
        arcade.draw_lbwh_rectangle_filled(b.left, b.bottom, b.width, b.height, fill)
        arcade.draw_lbwh_rectangle_outline(b.left, b.bottom, b.width, b.height, (120, 140, 170, 255), 1.5)
        color = palette.TEXT if b.enabled else palette.TEXT_DIM
        key = f"{prefix}{i}"
        size = shrunk_size(texts, key, b.label, b.width - 8, 12)
        texts.draw(key, b.label, b.left + b.width / 2, b.bottom + b.height / 2, color, size, "center", "center")


def draw_tooltip(texts: Texts, text: str, x: float, y: float, width: float, height: float) -> None:
    """A tooltip near the pointer (x, y), wrapped to at most 360 px and kept inside the window."""
    if not text:
        texts.draw("tooltip", "", 0, 0)
        return
    box_w = 360.0
    label = texts.get("tooltip", text, 0, 0, palette.TEXT, 10.5)
    label.width = int(box_w - 16)
    label.multiline = True
    box_h = label.content_height + 12
    left = min(max(4.0, x + 14), width - box_w - 4)
    top = y - 14 if y - 14 - box_h > 4 else y + 14 + box_h
    top = min(top, height - 4)
    arcade.draw_lbwh_rectangle_filled(left, top - box_h, box_w, box_h, (8, 10, 14, 240))
    arcade.draw_lbwh_rectangle_outline(left, top - box_h, box_w, box_h, palette.WARNING, 1)
    label.x, label.y = left + 8, top - 6
    label.anchor_y = "top"
    texts.show("tooltip")


def draw_dialog(texts: Texts, title: str, detail: str, options: Sequence[Button], width: float, height: float,
                hover: tuple[float, float] | None) -> None:
    """A modal question over the whole window: the screen dimmed, the title, a line of detail, the buttons."""
    arcade.draw_lrbt_rectangle_filled(0, width, 0, height, (0, 0, 0, 150))
    box_w, box_h = min(width - 40, 560.0), 170.0
    left, bottom = (width - box_w) / 2, (height - box_h) / 2
    arcade.draw_lbwh_rectangle_filled(left, bottom, box_w, box_h, palette.PANEL)
    arcade.draw_lbwh_rectangle_outline(left, bottom, box_w, box_h, palette.WARNING, 2)
    fit_text(texts, "dialog.title", title, width / 2, bottom + box_h - 40, box_w - 24, palette.WARNING, 16, "center",
             bold=True)
    fit_text(texts, "dialog.detail", detail, width / 2, bottom + box_h - 72, box_w - 24, palette.TEXT, 12, "center")
    draw_buttons(texts, options, hover, "dialog")


def dialog_buttons(options: Sequence[tuple[str, str]], width: float, height: float) -> list[Button]:
    """The buttons of a dialog laid out in a row at its foot."""
    from client.common.buttons import row

    box_w = min(width - 40, 560.0)
    right = (width + box_w) / 2 - 16
    return row(options, right, (height - 170.0) / 2 + 18, height=36, char_px=8.5)

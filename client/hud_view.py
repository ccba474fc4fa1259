"""Painting the HUD, the decision banner, the message log and buttons (a VIEW module: it imports arcade).

Why: the words come from ``client.hud_model`` and ``client.state``; this module only decides where
they go and how they look, with one cached ``arcade.Text`` per slot so redrawing every frame is cheap.
"""

from __future__ import annotations

from collections.abc import Sequence

import arcade
import pyglet

from client import palette
from client.buttons import Button
from client.hud_model import Hud, TeamPanel
from client.i18n import _
from client.layout import BOTTOM_BAR, TOP_BAR
from client.state import LogLine

__all__ = ["BOTTOM_BAR", "TOP_BAR", "Texts"]

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


def _panel(texts: Texts, panel: TeamPanel, x: float, top: float, align_right: bool, width: float,
           notes_width: float) -> None:
    """One team's corner of the top bar: kit swatch, name, big score, move clock, notes — each cut to its room
    (``width`` from the window's edge to the middle's part clock, ``notes_width`` beside the status line)."""
    jersey = palette.kit(panel.team)[0]
    anchor = "right" if align_right else "left"
    sign = -1 if align_right else 1
    swatch_x = x + sign * 16
    arcade.draw_circle_filled(swatch_x, top - 24, 13, jersey)
    arcade.draw_circle_outline(swatch_x, top - 24, 13, palette.mix(jersey, (0, 0, 0), 0.4), 2)
    if panel.to_move:
        arcade.draw_circle_outline(swatch_x, top - 24, 17, palette.WARNING, 3)
    score = texts.get(f"{panel.team}.score", str(panel.score), x + sign * (width - 8), top - 40, palette.TEXT, 32,
                      "left" if align_right else "right", bold=True)
    texts.show(f"{panel.team}.score")
    name_room = width - 8 - score.content_width - 16 - 38
    fit_text(texts, f"{panel.team}.name", panel.name, x + sign * 38, top - 31, name_room, palette.TEXT, 16, anchor,
             bold=True)
    clock = _("{time} left to move").format(time=panel.move_clock) if panel.move_clock else (
        _("to move") if panel.to_move else "")
    fit_text(texts, f"{panel.team}.clock", clock, x + sign * 38, top - 52, name_room, palette.WARNING, 12, anchor)
    fit_text(texts, f"{panel.team}.notes", "   ".join(panel.notes), x + sign * 12, top - 72, notes_width,
             palette.TEXT_DIM, 10.5, anchor)


def draw_hud(texts: Texts, hud: Hud, width: float, height: float, left: str = "home") -> None:
    """The top bar: both teams (``left`` is the team whose goal is on the left of the board as drawn), the part
    and its clock in the middle, spectators; the status line. Nothing overlaps down to the minimum window."""
    arcade.draw_lrbt_rectangle_filled(0, width, height - TOP_BAR, height, palette.HUD_BG)
    top = height
    half = width / 2
    part = f"{hud.part}  ·  {hud.spectators}" if hud.spectators else hud.part
    fit_text(texts, "part", part, half, top - 20, 190, palette.TEXT_DIM, 12, "center")
    clock = texts.get("part_clock", hud.part_clock, half, top - 52, palette.TEXT, 26, "center", bold=True)
    texts.show("part_clock")
    status = texts.get("status", hud.status, half, top - 72, palette.WARNING, 11, "center")
    while status.content_width > width * 0.5 and status.font_size > 8:
        status.font_size -= 0.5
    fit_text(texts, "status", hud.status, half, top - 72, width * 0.5, palette.WARNING, status.font_size, "center")
    notes_width = half - min(status.content_width, width * 0.5) / 2 - 24
    side_width = half - max(clock.content_width / 2, 95) - 14
    first, second = (hud.home, hud.away) if left == "home" else (hud.away, hud.home)
    _panel(texts, first, 10, top, False, side_width, notes_width)
    _panel(texts, second, width - 10, top, True, side_width, notes_width)


def draw_banner(texts: Texts, message: str, centre_x: float, y: float, width: float) -> None:
    """The referee's call after a move, large over the board (centred at ``centre_x``, at most ``width`` wide:
    a long call shrinks until it fits)."""
    size = 20 if len(message) < 60 else 15
    label = texts.get("banner", message, centre_x, y, palette.TEXT, size, "center", "center", bold=True)
    while label.content_width > width - 64 and label.font_size > 9:
        label.font_size -= 1
    half = min(width - 16, label.content_width + 48) / 2
    arcade.draw_lrbt_rectangle_filled(centre_x - half, centre_x + half, y - 28, y + 28, (10, 12, 16, 215))
    arcade.draw_lrbt_rectangle_outline(centre_x - half, centre_x + half, y - 28, y + 28, palette.WARNING, 2)
    texts.show("banner")


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


def draw_log(texts: Texts, lines: Sequence[LogLine], left: float, bottom: float, count: int = 4,
             max_width: float = 0.0) -> None:
    """The last ``count`` log lines, newest at the bottom; refusals in amber; cut to ``max_width`` when given."""
    shown = list(lines)[-count:]
    for i, line in enumerate(reversed(shown)):
        color = palette.WARNING if line.kind == "error" else palette.TEXT if i == 0 else palette.TEXT_DIM
        fit_text(texts, f"log{i}", line.text, left, bottom + 8 + i * 20, max_width, color, 11.5 if i == 0 else 10.5)
    for i in range(len(shown), count):
        texts.draw(f"log{i}", "", left, bottom + 8 + i * 20)


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


def draw_power_bar(power: float, x: float, y: float, height: float = 120.0) -> None:
    """A vertical power gauge next to the aimed stone: green for a touch, red for full power."""
    arcade.draw_lbwh_rectangle_filled(x, y, 12, height, (20, 20, 20, 200))
    arcade.draw_lbwh_rectangle_filled(x + 2, y + 2, 8, (height - 4) * power,
                                      palette.mix(palette.POWER_LOW, palette.POWER_HIGH, power))
    arcade.draw_lbwh_rectangle_outline(x, y, 12, height, (230, 230, 230, 255), 1)


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
    from client.buttons import row

    box_w = min(width - 40, 560.0)
    right = (width + box_w) / 2 - 16
    return row(options, right, (height - 170.0) / 2 + 18, height=36, char_px=8.5)

"""Painting the move list beside the board and scrolling it (a VIEW module: it imports arcade).

Why: the words come from ``client.match.move_list``; this panel shows as many of its lines as fit, newest at the
bottom, follows the newest move unless the player scrolled back with the mouse wheel (or PgUp/PgDn), and says
how to get back. Both the match view and the replay view use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import arcade

from client.common import palette
from client.common.i18n import _
from client.common.layout import Rect
from client.common.widgets import Texts, fit_text, shrunk_size
from client.match import move_list

ROW = 16.0
FONT = 9.5
SAMPLE = "Foul (VIII.1a): a3 of Sokol Kraków hit h2 directly — exclusion, privilege"  # to measure a character


class MoveListPanel:
    """The move list's panel: its scroll position and its labels."""

    def __init__(self) -> None:
        """Following the newest move."""
        self.scroll = 0
        self.texts = Texts(batched=True)  # flushed by the view, after the panel's background
        self.rect: Rect | None = None
        self._total = 0
        self._rows = 0

    def _char_px(self) -> float:
        """The average width of a character of the list's font, measured once on a typical ruling."""
        if not hasattr(self, "_char"):
            label = self.texts.get("measure", SAMPLE, 0, 0, palette.TEXT, FONT)
            self._char = label.content_width / len(SAMPLE)
        return self._char

    def rows_in(self, rect: Rect) -> int:
        """How many lines fit in the panel."""
        return max(1, int((rect.height - 34) // ROW))

    def draw(self, rect: Rect, entries: Sequence[move_list.MoveEntry], names: Mapping[str, str]) -> None:
        """The panel: title, the lines that fit (newest at the bottom) and a scroll hint."""
        self.rect = rect
        arcade.draw_lbwh_rectangle_filled(rect.left, rect.bottom, rect.width, rect.height, palette.HUD_BG)
        arcade.draw_lbwh_rectangle_outline(rect.left, rect.bottom, rect.width, rect.height, (90, 100, 116, 255), 1)
        found = move_list.lines(entries, names, int((rect.width - 16) / self._char_px()))
        rows = self.rows_in(rect)
        self._total, self._rows = len(found), rows
        first, last = move_list.window(len(found), rows, self.scroll)
        self.scroll = len(found) - last
        title = _("Moves") if not self.scroll else _("Moves — scrolled back (PgDn or wheel to follow)")
        fit_text(self.texts, "title", title, rect.left + 8, rect.top - 18, rect.width - 14, palette.WARNING, 10.5,
                 bold=True)
        if not found:
            self.texts.draw("empty", _("No moves yet"), rect.left + 8, rect.top - 40, palette.TEXT_DIM, FONT)
        else:
            self.texts.draw("empty", "", 0, 0)
        y = rect.top - 36
        for i, line in enumerate(found[first:last]):
            color = palette.TEXT if line.kind == "head" else palette.TEXT_DIM
            if line.important:
                color = palette.WARNING
            size = shrunk_size(self.texts, f"row{i}", line.text, rect.width - 14, FONT)  # shrunk, never cut
            fit_text(self.texts, f"row{i}", line.text, rect.left + 8, y - ROW * (i + 1) + 4, rect.width - 14, color,
                     size)
        for i in range(last - first, self._rows_drawn()):
            self.texts.draw(f"row{i}", "", 0, 0)
        self._drawn = last - first

    def _rows_drawn(self) -> int:
        """How many row labels the previous frame drew (to blank the ones not needed now)."""
        return getattr(self, "_drawn", 0)

    def scroll_by(self, lines: int) -> None:
        """Scroll ``lines`` back (positive) or forward (negative); 0 follows the newest again."""
        self.scroll = max(0, min(self.scroll + lines, max(0, self._total - self._rows)))

    def on_scroll(self, x: float, y: float, scroll_y: float) -> bool:
        """A mouse wheel over the panel scrolls it; True when it was over the panel."""
        if self.rect is None or not self.rect.contains(x, y):
            return False
        self.scroll_by(round(scroll_y * 3))
        return True

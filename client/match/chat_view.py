"""Painting the room's chat over the board's lower left corner, and what a click on it means (a VIEW module: it
imports arcade).

Why a panel over the board: the bar below the board holds the log and the choices, the right side the move list;
the chat is read between moves, so it opens on demand (``C``, or Enter to type) over the part of the board
farthest from the choices, and closes again. The words and rules are ``client.match.chat``'s; this only lays out the
title, the mute buttons, the newest rows that fit (names in their seat's colour), the quick emotes and the line
being typed.
"""

from __future__ import annotations

from collections.abc import Iterable

import arcade

from client.common import buttons, palette
from client.common.i18n import _
from client.common.layout import Rect
from client.common.widgets import Texts, draw_buttons, fit_text
from client.match import chat
from shared.model import is_team
from shared.protocol.messages import EMOTES

ROW = 15.0
FONT = 9.5
BUTTON_H = 22.0
MAX_MUTE_BUTTONS = 3
SAMPLE = "Jana: dobrý tah, to byl pěkný odraz od mantinelu"  # to measure a character of the font


def panel_rect(board: Rect) -> Rect:
    """Where the panel goes: the board's lower left corner, as wide as a column of text, never past the board and
    below the banner that tells the referee's call (it stands 66 px under the board's top)."""
    width = min(340.0, board.width * 0.48)
    height = min(300.0, board.height - 96)
    return Rect(board.left + 6, board.bottom + 6, width, height)


def seat_colour(seat: str) -> palette.Colour:
    """The colour of a speaker's name: his team's jersey, lightened to read on the dark panel (spectators grey, the
    chat's own notices amber)."""
    if is_team(seat):
        return palette.mix(palette.kit(seat)[0], (255, 255, 255), 0.35)
    return palette.WARNING if not seat else palette.TEXT_DIM


def emote_columns(labels: list[str], width: float) -> int:
    """How many emote buttons go in a row: three while every label fits a third of the panel (a button's label is
    about 8.5 px a character, as ``client.common.buttons.row`` counts), else two."""
    third = (width - 8) / 3
    return 3 if all(len(label) * 8.5 + 16 <= third for label in labels) else 2


class ChatPanel:
    """The chat panel: its rectangle, its buttons and its labels."""

    def __init__(self) -> None:
        """Nothing laid out yet."""
        self.texts = Texts(batched=True)
        self.rect: Rect | None = None
        self.buttons: list[buttons.Button] = []
        self.input: Rect | None = None
        self.emote_rows = 2
        self._drawn = 0

    def _char_px(self) -> float:
        """The average width of a character of the panel's font, measured once."""
        if not hasattr(self, "_char"):
            label = self.texts.get("measure", SAMPLE, 0, 0, palette.TEXT, FONT)
            self._char = label.content_width / len(SAMPLE)
        return self._char

    def layout(self, rect: Rect, log: chat.ChatLog, me: str | Iterable[str] | None, coaches: list[str]) -> None:
        """Place the buttons: mute toggles under the title, the emotes in two rows above the input line."""
        self.rect = rect
        inner_l, inner_r = rect.left + 6, rect.right - 6
        names = log.mutable(me, coaches)[:MAX_MUTE_BUTTONS]
        mutes = [(_("Unmute {name}").format(name=log.shown(n)) if n in log.muted else
                  _("Mute {name}").format(name=log.shown(n)), f"mute:{n}") for n in names]
        top_row = rect.top - 24 - BUTTON_H
        laid = buttons.fit_row(mutes, inner_l, inner_r, top_row, height=BUTTON_H, gap=4) if mutes else []
        self.input = Rect(inner_l, rect.bottom + 6, inner_r - inner_l, 22)
        emotes = [(chat.emote_words(e), f"emote:{e}") for e in EMOTES]
        per_row = emote_columns([label for label, _command in emotes], inner_r - inner_l)
        rows = [emotes[i:i + per_row] for i in range(0, len(emotes), per_row)]
        self.emote_rows = len(rows)
        for n, row in enumerate(reversed(rows)):  # the first emotes on top
            laid += buttons.fit_row(row, inner_l, inner_r, self.input.top + 4 + n * (BUTTON_H + 4), height=BUTTON_H,
                                    gap=4)
        self.buttons = laid

    def draw(self, rect: Rect, log: chat.ChatLog, me: str | Iterable[str] | None, coaches: list[str],
             hover: tuple[float, float] | None) -> None:
        """The whole panel (its labels are drawn at once, at the end)."""
        self.layout(rect, log, me, coaches)
        assert self.input is not None
        arcade.draw_lbwh_rectangle_filled(rect.left, rect.bottom, rect.width, rect.height, (16, 20, 26, 238))
        arcade.draw_lbwh_rectangle_outline(rect.left, rect.bottom, rect.width, rect.height, (90, 100, 116, 255), 1)
        hint = _("Chat — Enter to type, Esc to stop, C hides") if not log.typing else _("Chat — Enter sends, Esc stops")
        fit_text(self.texts, "title", hint, rect.left + 8, rect.top - 17, rect.width - 16, palette.WARNING, 10,
                 bold=True)
        self._draw_rows(rect, log)
        self._draw_input(log)
        draw_buttons(self.texts, self.buttons, hover, "chatbtn")
        self.texts.flush()

    def _draw_rows(self, rect: Rect, log: chat.ChatLog) -> None:
        """The newest rows that fit between the mute buttons and the emotes, names in their seat's colour."""
        assert self.input is not None
        has_mutes = any(b.command.startswith("mute:") for b in self.buttons)
        top = rect.top - 24 - (BUTTON_H + 6 if has_mutes else 0)
        bottom = self.input.top + self.emote_rows * (BUTTON_H + 4) + 6
        count = max(0, int((top - bottom) // ROW))
        found = chat.rows(log.lines, int((rect.width - 16) / self._char_px()))[-count:] if count else []
        if not found:
            self.texts.draw("empty", _("No messages yet — say hello, or send an emote"), rect.left + 8, top - ROW,
                            palette.TEXT_DIM, FONT)
        else:
            self.texts.draw("empty", "", 0, 0)
        for i, row in enumerate(found):  # the newest row lowest, just above the emotes, as chats are read
            y = bottom + ROW * (len(found) - 1 - i) + 3
            x = rect.left + 8
            if row.name:
                label = self.texts.draw(f"name{i}", row.name, x, y, seat_colour(row.seat), FONT, bold=True)
                x += label.content_width
            else:
                self.texts.draw(f"name{i}", "", 0, 0)
            colour = palette.WARNING if not row.seat else palette.TEXT
            fit_text(self.texts, f"row{i}", row.text, x, y, rect.right - 6 - x, colour, FONT)
        for i in range(len(found), self._drawn):
            self.texts.draw(f"name{i}", "", 0, 0)
            self.texts.draw(f"row{i}", "", 0, 0)
        self._drawn = len(found)

    def _draw_input(self, log: chat.ChatLog) -> None:
        """The line being typed, with a caret while typing (its end shown when it is longer than the box)."""
        box = self.input
        assert box is not None
        border = palette.WARNING if log.typing else (90, 100, 116, 255)
        arcade.draw_lbwh_rectangle_filled(box.left, box.bottom, box.width, box.height, (30, 36, 44, 255))
        arcade.draw_lbwh_rectangle_outline(box.left, box.bottom, box.width, box.height, border, 1)
        if log.draft or log.typing:
            shown = log.draft[-max(4, int((box.width - 16) / self._char_px())):]
            text, colour = shown + ("|" if log.typing else ""), palette.TEXT
        else:
            text, colour = _("Press Enter or click here to type"), palette.TEXT_DIM
        self.texts.draw("input", text, box.left + 6, box.bottom + 6, colour, FONT)

    def click(self, x: float, y: float) -> str | None:
        """What a click at (x, y) means: a button's command, ``type`` on the input line, ``panel`` elsewhere on the
        panel (nothing to do, but not for the board either), or None off the panel."""
        if self.rect is None or not self.rect.contains(x, y):
            return None
        hit = buttons.hit(self.buttons, x, y)
        if hit is not None:
            return hit.command
        if self.input is not None and self.input.contains(x, y):
            return "type"
        return "panel"

"""The results screen at the end of a match: who won, the score with both coaches' names, why it ended, what it did
to their ratings, their profiles, and rematch / save replay / back to the lobby (a VIEW module: it imports arcade).

Why over the final position: the coaches still see how the match ended on the board, dimmed, while the
result reads large in front of it. The words come from ``client.player.results_model``. Once "Save replay" is pressed,
one line at the foot of the panel says where the file went and how to replay it (the same line is printed in
the terminal, where it can be copied), or why it was not saved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import arcade

from client.common import buttons, palette
from client.common.board_view import BodyPainter, draw_board
from client.common.help_view import global_key
from client.common.i18n import _
from client.common.menu_view import draw_menu_button
from client.common.transform import Transform, turned_for
from client.common.widgets import Texts, fit_text, shrunk_size
from client.match.replay_saver import not_saved
from client.match.state import MatchState
from client.player import results_model
from shared.match import settings_of
from shared.protocol import MatchEnded

BUTTON_WIDTH = 320.0
PANEL_HEIGHT = 490.0  # the words, the profiles' row and three buttons
SAVED_HEIGHT = 36.0  # the line that tells where the replay was saved


class ResultsView(arcade.View):
    """Shows ``ended`` for ``state``; ``choose`` receives ``rematch``, ``save`` or ``lobby``."""

    def __init__(self, state: MatchState, ended: MatchEnded, choose: Callable[[str], None],
                 rematch: Callable[[], set[str]] = set, poll: Callable[[], None] | None = None,
                 saved: Callable[[], str] = str, ratings: Callable[[], tuple[str, ...]] = tuple, *,
                 table: bool = False) -> None:
        """``rematch`` tells which teams asked for a rematch so far; ``poll`` brings in news every frame;
        ``saved`` tells what became of "Save replay" (empty before it is pressed); ``ratings`` the lines about the
        coaches' ratings (``client.common.rating_text.results_lines``). A ``profile:<name>`` command opens a profile.
        ``table``: the match was a table of the player's tournament (no rematch; leaving goes back to his
        tournament's screen)."""
        super().__init__()
        self.table = table
        self.saved = saved
        self.ratings = ratings
        self.state = state
        self.ended = ended
        self.choose = choose
        self.rematch = rematch
        self.poll = poll
        self.texts = Texts()
        self.painter = BodyPainter()
        self.hover: tuple[float, float] | None = None
        self.buttons: list[buttons.Button] = []

    def results(self) -> results_model.Results:
        """The words of the screen now."""
        e = self.ended
        return results_model.build(e.score.home, e.score.away, e.winner, e.reason, self.state.seat,  # type: ignore
                                   self.state.coaches_named(), self.rematch(), self.saved(), self.ratings(),
                                   table=self.table, back_to_tournament=self.table)

    def frame_key(self) -> object:
        """Everything the screen shows: its words, the pointer and the window's size."""
        return (self.window.width, self.window.height, self.results(), self.hover)

    def on_update(self, delta_time: float) -> None:
        """Bring in news (a rematch offer, the new match)."""
        if self.poll is not None:
            self.poll()

    def on_draw(self) -> None:
        """Paint the screen."""
        self.clear(color=palette.BACKGROUND)
        self.draw_at(0.0)

    def draw_at(self, now: float) -> None:
        """The final position dimmed, then the panel with the result and the buttons."""
        width, height = self.window.width, self.window.height
        position, seat = self.state.position, self.state.seat
        turned = position is not None and seat is not None and turned_for(position.own_end(seat))
        tf = Transform.fit(8, 8, width - 16, height - 16, turned)  # as his match showed it: his goal on his side
        draw_board(tf)
        position = self.state.position
        if position is not None:
            settings = settings_of(position)
            self.painter.draw(tf, self.state.poses(now), self.state.roles(), settings.stone_radius,
                              settings.puck_radius)
        arcade.draw_lrbt_rectangle_filled(0, width, 0, height, (12, 16, 22, 200))
        r = self.results()
        panel_w = min(width - 40.0, 720.0)
        panel_h = min(height - 40.0, PANEL_HEIGHT + (SAVED_HEIGHT if r.saved else 0.0))
        left, bottom = (width - panel_w) / 2, (height - panel_h) / 2
        arcade.draw_lbwh_rectangle_filled(left, bottom, panel_w, panel_h, palette.PANEL)
        arcade.draw_lbwh_rectangle_outline(left, bottom, panel_w, panel_h, palette.WARNING, 2)
        top = bottom + panel_h
        big = 40 if panel_h >= 320 else 28
        self.texts.draw("headline", r.headline, width / 2, top - 24 - big, palette.WARNING, big, "center", bold=True)
        y = top - 70 - big * 1.6
        size = shrunk_size(self.texts, "score", r.score, panel_w - 32, 22, bold=True)  # both names whole: shrunk
        fit_text(self.texts, "score", r.score, width / 2, y, panel_w - 32, palette.TEXT, size, "center", bold=True)
        self.texts.draw("reason", r.reason, width / 2, y - 34, palette.TEXT_DIM, 14, "center")
        for i in range(2):
            line = r.ratings[i] if i < len(r.ratings) else ""
            size = shrunk_size(self.texts, f"ratings{i}", line, panel_w - 32, 13.5, bold=True)  # the numbers stay
            fit_text(self.texts, f"ratings{i}", line, width / 2, y - 62 - 22 * i, panel_w - 32, palette.TEXT, size,
                     "center", bold=True)
        self.texts.draw("rematch", r.rematch, width / 2, y - 112, palette.TEXT, 13, "center")
        profiles = buttons.fit_row(r.profiles, left + 16, left + panel_w - 16, y - 156, height=30.0)
        if profiles:  # the row centred under the words
            shift = (width - (profiles[-1].left + profiles[-1].width - profiles[0].left)) / 2 - profiles[0].left
            profiles = [replace(b, left=b.left + shift) for b in profiles]
        self.buttons = buttons.column(r.options, (width - BUTTON_WIDTH) / 2, y - 166, BUTTON_WIDTH, 44.0)
        for i, b in enumerate(self.buttons):
            lit = self.hover is not None and b.contains(*self.hover)
            draw_menu_button(self.texts, f"button{i}", b, lit, b.label, 15)
        for i, b in enumerate(profiles):
            lit = self.hover is not None and b.contains(*self.hover)
            draw_menu_button(self.texts, f"profile{i}", b, lit, b.label, 12, bold=False)
        self.buttons += profiles
        self._draw_saved(r.saved, left, bottom, panel_w)
        keys = _("S save replay   Esc back to the tournament") if self.table else \
            _("R rematch   S save replay   Esc back to the lobby")
        self.texts.draw("keys", keys, width - 14, 14, palette.TEXT_DIM, 11, "right")

    def _draw_saved(self, saved: str, left: float, bottom: float, panel_w: float) -> None:
        """At the foot of the panel: where the replay went (or why not), shrunk to fit the panel's width."""
        if not saved:
            self.texts.draw("saved", "", 0, 0)
            return
        arcade.draw_line(left + 16, bottom + SAVED_HEIGHT, left + panel_w - 16, bottom + SAVED_HEIGHT,
                         (90, 100, 116, 255), 1)
        colour = palette.WARNING if saved.startswith(not_saved("").rstrip()) else palette.TEXT
        label = self.texts.get("saved", saved, left + 16, bottom + 12, colour, 11.5, bold=True)
        while label.content_width > panel_w - 32 and label.font_size > 7:
            label.font_size -= 0.5
        label.draw()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Light the hovered button."""
        self.hover = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A button."""
        hit = buttons.hit(self.buttons, x, y)
        if hit is not None:
            self.choose(hit.command)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """R asks for (or accepts) the rematch; S saves the replay; Escape goes back to the lobby (or the
        tournament)."""
        if global_key(self.window, symbol, modifiers):
            return
        commands = {c for _, c in self.results().options}
        if symbol == arcade.key.R and "rematch" in commands:
            self.choose("rematch")
        elif symbol == arcade.key.S and "save" in commands:
            self.choose("save")
        elif symbol == arcade.key.ESCAPE:
            self.choose("lobby")

"""The replay screen: the match view driven by a replay cursor, with step keys and a scrub bar
(a VIEW module: it imports arcade).

Why: a coach studies a match move by move — Right/Space plays the next move, Left steps back, Home/End
jump to the ends, and a click on the scrub bar jumps to any move.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import arcade

from client import palette
from client.match_view import MatchView
from client.replay_model import ReplayCursor
from client.sound import Sounds
from client.state import MatchState
from shared.model import Action

SCRUB_HEIGHT = 10.0


class ReplayLink:
    """A link that has nothing to poll and refuses actions: a replay is watched, not played."""

    def poll(self, state: MatchState, now: float) -> None:
        """Nothing arrives in a replay."""

    def send(self, action: Action) -> None:
        """Actions have no effect in a replay."""


class ReplayView(MatchView):
    """The match view plus replay controls."""

    def __init__(self, cursor: ReplayCursor, state: MatchState, sounds: Sounds | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Show the replay from its current cursor position."""
        super().__init__(state, ReplayLink(), sounds, clock)
        self.cursor = cursor

    def scrub_rect(self) -> tuple[float, float, float, float]:
        """The scrub bar: left, bottom, width, height in pixels (just above the log)."""
        return (14.0, 84.0, self.window.width - 28.0, SCRUB_HEIGHT)

    def draw_at(self, now: float) -> None:
        """The match picture, then the scrub bar with the current move marked and the key help."""
        super().draw_at(now)
        left, bottom, width, height = self.scrub_rect()
        arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, (60, 66, 76, 255))
        total = max(1, self.cursor.total)
        done = width * self.cursor.index / total
        arcade.draw_lbwh_rectangle_filled(left, bottom, done, height, palette.BLUE_LINE)
        arcade.draw_circle_filled(left + done, bottom + height / 2, height, palette.TEXT)
        self.texts.draw("replay.info", f"Replay — move {self.cursor.index} of {self.cursor.total}   "
                        "[→/Space] next  [←] back  [Home/End]  click the bar to jump", self.window.width - 14,
                        bottom + 16, palette.TEXT_DIM, 10, "right")

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Step through the replay."""
        now = self.clock()
        if symbol in (arcade.key.RIGHT, arcade.key.SPACE):
            self.cursor.forward(self.state, now)
        elif symbol == arcade.key.LEFT:
            self.cursor.jump(self.state, self.cursor.index - 1, now)
        elif symbol == arcade.key.HOME:
            self.cursor.jump(self.state, 0, now)
        elif symbol == arcade.key.END:
            self.cursor.jump(self.state, self.cursor.total, now)
        else:
            super().on_key_press(symbol, modifiers)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click on the scrub bar jumps to that move; the board takes no aims in a replay."""
        left, bottom, width, height = self.scrub_rect()
        if left <= x <= left + width and bottom - 6 <= y <= bottom + height + 6:
            index = round((x - left) / width * self.cursor.total)
            self.cursor.jump(self.state, index, self.clock())

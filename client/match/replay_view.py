"""The replay screen: the match view driven by a replay cursor — autoplay at a chosen speed, stepping, a scrub bar,
the move list and the coaches' names — by mouse or keyboard (a VIEW module: it imports arcade).

Why: a coach studies a match as on Lichess — press Space (or the play button) and it plays itself, faster or
slower (↑/↓ or the speed button), pause at any move, Right/Left step, Home/End jump to the ends, a click on the
scrub bar jumps anywhere, and the move list beside the board keeps every ruling. Escape closes the replay:
back to the lobby when it was opened from "My replays", else the window.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import arcade

from client.common import buttons, palette
from client.common.help_view import global_key
from client.common.i18n import _
from client.common.sound import Sounds
from client.common.widgets import Texts, draw_buttons
from client.match.match_view import MatchView
from client.match.replay_model import ReplayCursor
from client.match.state import MatchState
from shared.model import Action

SCRUB_HEIGHT = 10.0
SPEEDS = (0.5, 1.0, 2.0, 4.0)
PAUSE_SECONDS = 0.7  # the rest between two moves in autoplay, at 1x


class ReplayLink:
    """A link that has nothing to poll and refuses actions: a replay is watched, not played."""

    def poll(self, state: MatchState, now: float) -> None:
        """Nothing arrives in a replay."""

    def send(self, action: Action) -> None:
        """Actions have no effect in a replay."""


class ReplayView(MatchView):
    """The match view plus replay controls."""

    def __init__(self, cursor: ReplayCursor, state: MatchState, sounds: Sounds | None = None,
                 clock: Callable[[], float] = time.monotonic, close_to: Callable[[], None] | None = None,
                 autoplay: bool = False) -> None:
        """Show the replay from its current cursor position; ``close_to`` runs on Escape (else the window closes);
        ``autoplay`` starts playing at once."""
        super().__init__(state, ReplayLink(), sounds, clock)
        self.cursor = cursor
        self.close_to = close_to
        self.playing = autoplay
        self.speed = 1.0
        self.state.playback_speed = self.speed
        self._next_at = 0.0
        self.controls: list[buttons.Button] = []
        self.show_log = False  # the move list keeps every ruling; the bottom bar holds the controls
        self.controls_texts = Texts()  # drawn after the match view's batch has been flushed
        if cursor.replay.names:
            self.state.names.update(cursor.replay.names)

    def scrub_rect(self) -> tuple[float, float, float, float]:
        """The scrub bar: left, bottom, width, height in pixels (just above the log)."""
        return (14.0, 84.0, self.window.width - 28.0, SCRUB_HEIGHT)

    # ----------------------------------------------------------------- autoplay
    def set_speed(self, speed: float) -> None:
        """Play at ``speed`` times real time (the next move plays back at it)."""
        self.speed = speed
        self.state.playback_speed = speed

    def step_speed(self, step: int) -> None:
        """The next faster (1) or slower (-1) speed of SPEEDS."""
        index = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - self.speed))
        self.set_speed(SPEEDS[max(0, min(len(SPEEDS) - 1, index + step))])

    def toggle(self) -> None:
        """Play or pause (playing from the end starts again from the beginning)."""
        if not self.playing and self.cursor.index >= self.cursor.total:
            self.cursor.jump(self.state, 0, self.clock())
        self.playing = not self.playing
        self._next_at = self.clock()

    def on_update(self, delta_time: float) -> None:
        """Advance the playback; in autoplay, play the next move a short rest after the last one ended."""
        super().on_update(delta_time)
        if not self.playing:
            return
        now = self.clock()
        if self.state.busy:
            self._next_at = now + PAUSE_SECONDS / self.speed
        elif now >= self._next_at:
            if not self.cursor.forward(self.state, now):
                self.playing = False

    def frame_key(self) -> object:
        """The match view's summary plus the replay's place, speed and play state (None while playing)."""
        if self.playing:
            return None
        key = super().frame_key()
        return None if key is None else (key, self.cursor.index, self.speed)

    # ----------------------------------------------------------------- drawing
    def draw_at(self, now: float) -> None:
        """The match picture, then the controls, the scrub bar with the current move marked and the key help."""
        super().draw_at(now)
        left, bottom, width, height = self.scrub_rect()
        arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, (60, 66, 76, 255))
        total = max(1, self.cursor.total)
        done = width * self.cursor.index / total
        arcade.draw_lbwh_rectangle_filled(left, bottom, done, height, palette.BLUE_LINE)
        arcade.draw_circle_filled(left + done, bottom + height / 2, height, palette.TEXT)
        play = _("Pause") if self.playing else _("Play")
        self.controls = buttons.row([("|◀", "start"), ("◀", "back"), (play, "toggle"), ("▶", "next"),
                                     ("▶|", "end"), (f"{self.speed:g}×", "speed")], self.window.width - 14, 40,
                                    height=30, char_px=9.0)
        self.controls = [buttons.Button(b.label, b.command, b.left, b.bottom, max(48.0, b.width - 34), b.height)
                         for b in self.controls]
        self._pack_controls()
        draw_buttons(self.controls_texts, self.controls, self.hover, "replay")
        self.controls_texts.draw("replay.info", _("Replay — move {index} of {total}").format(
            index=self.cursor.index, total=self.cursor.total), 14, bottom - 22, palette.TEXT, 11, bold=True)
        self.controls_texts.draw("replay.keys", _("Space play/pause   ↑↓ speed   ←→ step   Home/End   Esc close"),
                        14, bottom - 40, palette.TEXT_DIM, 10)

    def _pack_controls(self) -> None:
        """Lay the control buttons out from the right edge, side by side."""
        x = self.window.width - 14
        packed = []
        for b in reversed(self.controls):
            x -= b.width
            packed.append(buttons.Button(b.label, b.command, x, b.bottom, b.width, b.height))
            x -= 6
        self.controls = list(reversed(packed))

    # ----------------------------------------------------------------- input
    def control(self, command: str) -> None:
        """A control button's (or key's) command."""
        now = self.clock()
        if command == "toggle":
            self.toggle()
        elif command == "next":
            self.playing = False
            self.cursor.forward(self.state, now)
        elif command == "back":
            self.playing = False
            self.cursor.jump(self.state, self.cursor.index - 1, now)
        elif command == "start":
            self.playing = False
            self.cursor.jump(self.state, 0, now)
        elif command == "end":
            self.playing = False
            self.cursor.jump(self.state, self.cursor.total, now)
        elif command == "speed":
            self.set_speed(SPEEDS[(SPEEDS.index(self.speed) + 1) % len(SPEEDS)] if self.speed in SPEEDS else 1.0)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Step through the replay, play or pause, change the speed, or close it."""
        if global_key(self.window, symbol, modifiers):
            return
        keys = {arcade.key.SPACE: "toggle", arcade.key.RIGHT: "next", arcade.key.LEFT: "back",
                arcade.key.HOME: "start", arcade.key.END: "end"}
        if symbol in keys:
            self.control(keys[symbol])
        elif symbol in (arcade.key.UP, arcade.key.PLUS, arcade.key.EQUAL, arcade.key.NUM_ADD):
            self.step_speed(1)
        elif symbol in (arcade.key.DOWN, arcade.key.MINUS, arcade.key.NUM_SUBTRACT):
            self.step_speed(-1)
        elif symbol == arcade.key.ESCAPE:
            if self.close_to is not None:
                self.close_to()
            else:
                self.window.close()
        else:
            super().on_key_press(symbol, modifiers)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A control button; a click on the scrub bar jumps to that move; the board takes no aims in a replay."""
        hit = buttons.hit(self.controls, x, y)
        if hit is not None:
            self.control(hit.command)
            return
        left, bottom, width, height = self.scrub_rect()
        if left <= x <= left + width and bottom - 6 <= y <= bottom + height + 6:
            self.playing = False
            index = round((x - left) / width * self.cursor.total)
            self.cursor.jump(self.state, index, self.clock())

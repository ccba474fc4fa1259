"""The match screen for players and spectators: the board, the bodies, aiming, HUD, log, banner and prompts
(a VIEW module: it imports arcade).

Why one view for both: a spectator sees exactly what a coach sees, only without input. The view owns no
match logic: facts live in ``client.state.MatchState``; a *link* feeds it (network, local engine or a
replay) and carries the coach's actions away. Input is locked while a move plays back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

import arcade

from client import aiming, buttons, hud_model, palette, prompts
from client.board_view import BodyPainter, draw_board
from client.hud_view import BOTTOM_BAR, TOP_BAR, Texts, draw_banner, draw_buttons, draw_hud, draw_log, draw_power_bar
from client.sound import Sounds
from client.state import MatchState
from client.transform import Transform
from shared.match import legal_stones, settings_of
from shared.model import Action


class Link(Protocol):
    """Where a match view's facts come from and where its actions go (network, local engine, replay)."""

    def poll(self, state: MatchState, now: float) -> None:
        """Move any news into ``state`` (never blocks)."""

    def send(self, action: Action) -> None:
        """Carry a coach's action to the referee."""


class MatchView(arcade.View):
    """Shows one match; lets the seated coach aim and choose."""

    def __init__(self, state: MatchState, link: Link | None = None, sounds: Sounds | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Show ``state``; ``link`` may be None for a still picture (screenshots)."""
        super().__init__()
        self.state = state
        self.link = link
        self.sounds = sounds or Sounds(muted=True)
        self.clock = clock
        self.painter = BodyPainter()
        self.texts = Texts()
        self.aim: aiming.Aim | None = None
        self.hover: tuple[float, float] | None = None
        self.prompt_buttons: list[buttons.Button] = []
        self._choices_for: tuple[int, int] | None = None
        self._choices: tuple[prompts.Choice, ...] = ()

    # ----------------------------------------------------------------- layout
    def transform(self) -> Transform:
        """The board's transform for the current window size."""
        return Transform.fit(8, BOTTOM_BAR, self.window.width - 16, self.window.height - TOP_BAR - BOTTOM_BAR)

    def choices(self, now: float) -> tuple[prompts.Choice, ...]:
        """The coach's pending choices, recomputed when the position changes (their countdown starts then)."""
        position = self.state.position
        if position is None or self.state.busy:
            return ()
        key = (id(position), self.state.version)
        if key != self._choices_for:
            self._choices_for = key
            self._choices = prompts.choices(position, self.state.seat, now)
        return self._choices

    # ----------------------------------------------------------------- loop
    def on_update(self, delta_time: float) -> None:
        """Poll the link, advance playback, play the cues."""
        now = self.clock()
        if self.link is not None:
            self.link.poll(self.state, now)
        for cue in self.state.update(now):
            self.sounds.play(cue)
        if self.state.busy:
            self.aim = None

    def on_draw(self) -> None:
        """Paint the whole screen."""
        self.clear(color=palette.BACKGROUND)
        self.draw_at(self.clock())

    def draw_at(self, now: float) -> None:
        """Paint the screen as it is at ``now`` (also used by screenshots)."""
        width, height = self.window.width, self.window.height
        tf = self.transform()
        draw_board(tf)
        position = self.state.position
        settings = settings_of(position) if position is not None else None
        stone_r = settings.stone_radius if settings else 16.0
        puck_r = settings.puck_radius if settings else 8.5
        poses = self.state.poses(now)
        aimed = {self.aim.stone} if self.aim else set()
        self.painter.draw(tf, poses, self.state.roles(), stone_r, puck_r)
        self._draw_intervention(tf, now)
        self._draw_selectable(tf, stone_r)
        if self.aim is not None and settings is not None and aimed:
            self._draw_aim(tf, settings.flick_speed_min, settings.flick_speed_max, stone_r)
        hud = hud_model.build(self.state, now)
        if hud is not None:
            draw_hud(self.texts, hud, width, height)
        banner = self.state.banner_at(now)
        if banner:
            draw_banner(self.texts, banner, width, height - TOP_BAR - 44)
        arcade.draw_lrbt_rectangle_filled(0, width, 0, BOTTOM_BAR - 4, palette.HUD_BG)
        draw_log(self.texts, self.state.log, 14, 4)
        self._draw_prompts(now, width)

    def _draw_selectable(self, tf: Transform, radius: float) -> None:
        """A soft ring round each stone the coach may flick, when it is his move."""
        if not self.state.my_turn() or self.aim is not None:
            return
        position = self.state.position
        assert position is not None and self.state.seat is not None
        for stone_id in legal_stones(position, self.state.seat):
            stone = position.stone(stone_id)
            if stone is not None:
                arcade.draw_circle_outline(*tf.to_screen(stone.x, stone.y), tf.px(radius) + 4, (255, 255, 255, 150), 2)

    def _draw_intervention(self, tf: Transform, now: float) -> None:
        """The referee's hand during an intervention: a ring and a word, so the player sees why a body jumps."""
        playback = self.state.playback
        if playback is None:
            return
        intervention = playback.intervention_at(now - self.state.playback_started)
        if intervention is None:
            return
        poses = self.state.poses(now)
        pose = poses.get(intervention.body)
        for x, y in ((intervention.x, intervention.y), (pose.x, pose.y) if pose else (intervention.x, intervention.y)):
            arcade.draw_circle_outline(*tf.to_screen(x, y), tf.px(24), palette.WARNING, 3)
        word = "Turned over (VI.4)" if intervention.code == "FLIP" else "Put back (VI.5)" if intervention.reason == \
            "LEFT_BOARD" else "Behind the goal (VI.3)"
        sx, sy = tf.to_screen(intervention.x, intervention.y)
        self.texts.draw("intervention", word, sx, sy + tf.px(30), palette.WARNING, 12, "center", bold=True)

    def _draw_aim(self, tf: Transform, speed_min: float, speed_max: float, radius: float) -> None:
        """The aim line from the stone, the pull-back line to the pointer, and the power bar."""
        aim = self.aim
        assert aim is not None
        shot = aiming.shot_of(aim, speed_min, speed_max)
        sx, sy = tf.to_screen(aim.x, aim.y)
        arcade.draw_circle_outline(sx, sy, tf.px(radius) + 4, palette.SELECT, 2)
        px, py = tf.to_screen(aim.pointer_x, aim.pointer_y)
        arcade.draw_line(sx, sy, px, py, (255, 255, 255, 90), 2)
        if shot is None:
            return
        ex, ey = tf.to_screen(*aiming.aim_line_end(aim, shot))
        color = palette.mix(palette.POWER_LOW, palette.POWER_HIGH, shot.power)
        arcade.draw_line(sx, sy, ex, ey, color, 3)
        arcade.draw_circle_filled(ex, ey, 5, color)
        draw_power_bar(shot.power, sx + tf.px(radius) + 10, sy - 60)
        self.texts.draw("speed", f"{shot.speed / 1000:.2f} m/s", sx + tf.px(radius) + 28, sy, palette.TEXT, 11)

    def _draw_prompts(self, now: float, width: float) -> None:
        """The pending choice (if any): its title, its countdown and one button per option."""
        found = self.choices(now)
        self.prompt_buttons = []
        if not found:
            return
        choice = found[0]
        left = max(0.0, choice.deadline - now)
        self.texts.draw("prompt.title", f"{choice.title} — {left:.0f} s", width - 14, BOTTOM_BAR - 26,
                        palette.WARNING, 12, "right", bold=True)
        self.prompt_buttons = buttons.row(choice.options, width - 14, 12)
        draw_buttons(self.texts, self.prompt_buttons, self.hover, "prompt")

    # ----------------------------------------------------------------- input
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Track the pointer for hovering buttons."""
        self.hover = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A prompt button, or the start of an aim on one of the coach's stones (with the reason if refused)."""
        hit = buttons.hit(self.prompt_buttons, x, y)
        if hit is not None and self.state.seat is not None:
            action = prompts.action_for(hit.command, self.state.seat)
            if action is not None:
                self._send(action)
            return
        position = self.state.position
        if position is None or button != arcade.MOUSE_BUTTON_LEFT:
            return
        wx, wy = self.transform().to_world(x, y)
        stone = aiming.stone_at(position, wx, wy, settings_of(position).stone_radius)
        if stone is None:
            return
        if self.state.busy:
            self.state.note("Wait until the move has been played", "error")
            return
        seat = self.state.seat
        reason = aiming.refusal(position, seat, stone, legal_stones(position, seat) if seat else ())
        if reason is not None:
            self.state.note(reason, "error")
            return
        self.aim = aiming.Aim(stone.id, stone.x, stone.y, wx, wy)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons_: int, modifiers: int) -> None:
        """Pull back to aim."""
        self.hover = (x, y)
        if self.aim is not None:
            self.aim = self.aim.to(*self.transform().to_world(x, y))

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        """Let go: send the flick, or cancel inside the dead zone."""
        if self.aim is None or self.state.position is None or self.state.seat is None:
            return
        aim = self.aim.to(*self.transform().to_world(x, y))
        self.aim = None
        settings = settings_of(self.state.position)
        flick = aiming.flick_of(aim, self.state.seat, settings.flick_speed_min, settings.flick_speed_max)
        if flick is None:
            self.state.note("Flick cancelled — pull back further to shoot")
            return
        self._send(flick)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Escape cancels an aim; M mutes or unmutes the sound."""
        if symbol == arcade.key.ESCAPE and self.aim is not None:
            self.aim = None
        elif symbol == arcade.key.M:
            self.sounds.muted = not self.sounds.muted
            self.state.note("Sound off" if self.sounds.muted else "Sound on")

    def _send(self, action: Action) -> None:
        """Hand an action to the link (or say that this view cannot play)."""
        if self.link is None:
            self.state.note("This view cannot play", "error")
            return
        self.link.send(action)

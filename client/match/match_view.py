"""The match screen for players and spectators: the board, the bodies, aiming, HUD, log, banner and prompts
(a VIEW module: it imports arcade).

Why one view for both: a spectator sees exactly what a coach sees, only without input. The view owns no
match logic: facts live in ``client.match.state.MatchState``; a *link* feeds it (network, local engine or a
replay) and carries the coach's actions away. Input is locked while a move plays back (``MatchState.locked``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

import arcade

from client.common import buttons, palette, tooltips
from client.common.board_view import BodyPainter, draw_board
from client.common.help_view import global_key
from client.common.i18n import _
from client.common.layout import MatchLayout, match_layout
from client.common.playback import poses_from_position
from client.common.sound import Sounds
from client.common.transform import Transform, turned_for
from client.common.widgets import Texts, dialog_buttons, draw_buttons, draw_dialog, draw_tooltip, fit_text
from client.common.window import FRAME_S, IDLE_RATE_S
from client.match import aiming, chat, hud_model, placement, prompts
from client.match.chat_view import ChatPanel, panel_rect
from client.match.hud_view import BOTTOM_BAR, draw_banner, draw_hud, draw_log, draw_power_bar
from client.match.move_list_view import MoveListPanel
from client.match.placement_view import draw_zones
from client.match.state import MatchState
from shared import aim_cast
from shared.match import legal_stones, settings_of
from shared.model import Action, Position, other
from shared.protocol import ClientMessage


@dataclass(frozen=True, slots=True)
class Confirm:
    """A question that must be answered before something that cannot be undone (leaving resigns the match)."""

    title: str
    detail: str
    options: tuple[tuple[str, str], ...]  # (label, command); the last one is the safe answer Escape gives


class Link(Protocol):
    """Where a match view's facts come from and where its actions go (network, local engine, replay)."""

    def poll(self, state: MatchState, now: float) -> None:
        """Move any news into ``state`` (never blocks)."""

    def send(self, action: Action) -> None:
        """Carry a coach's action to the referee."""


Box = tuple[float, float, float, float]  # left, bottom, right, top in pixels


def _backing(left: float, bottom: float, width: float, height: float) -> None:
    """A dark plate behind a word drawn on the board: it keeps its contrast over the wood and the stones."""
    arcade.draw_lrbt_rectangle_filled(left - 6, left + width + 6, bottom - 4, bottom + height + 3, (10, 12, 16, 200))


def _overlap(a: Box, b: Box | None) -> bool:
    """True when two boxes share some pixels."""
    return b is not None and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class MatchView(arcade.View):
    """Shows one match; lets the seated coach aim and choose; coaches and spectators chat (a link with a ``chat``,
    ``client.match.net.NetLink``'s, and a ``request`` to send its lines)."""

    def __init__(self, state: MatchState, link: Link | None = None, sounds: Sounds | None = None,
                 clock: Callable[[], float] = time.monotonic, on_leave: Callable[[], None] | None = None) -> None:
        """Show ``state``; ``link`` may be None for a still picture (screenshots); ``on_leave`` goes to the lobby."""
        super().__init__()
        self.on_leave = on_leave
        self.on_help: Callable[[], None] | None = None  # opens the help screen (the navigator sets it)
        self.arrangement: placement.Arrangement | None = None
        self.confirm: Confirm | None = None
        self.confirm_buttons: list[buttons.Button] = []
        self.corner_buttons: list[buttons.Button] = []
        self._panel_left = 0.0
        self.state = state
        self.link = link
        self.sounds = sounds or Sounds(muted=True)
        self.clock = clock
        self.painter = BodyPainter(batched=True)
        self.texts = Texts(batched=True)  # the screen's labels, drawn in one call after the shapes under them
        self.overlay = Texts()  # the tooltip and the dialog, over everything
        self.aim: aiming.Aim | None = None
        self.hover: tuple[float, float] | None = None
        self.prompt_buttons: list[buttons.Button] = []
        self._choices_for: tuple[int, int, int] | None = None
        self._choices: tuple[prompts.Choice, ...] = ()
        self.moves_panel = MoveListPanel()
        self.list_open = False  # a narrow window: the move list opened over the board (L)
        self.list_wanted = True  # a wide window: the move list beside the board (L hides it)
        self.aim_guide = True  # the player's setting; the strict ruleset never shows the guide
        self.speed_box: Box | None = None  # where the aimed speed was drawn (the guide's word keeps clear of it)
        self.show_log = True  # the last lines of the log under the board (a replay has its controls there)
        self.chat: chat.ChatLog | None = getattr(_net_link(link), "chat", None)  # None: no chat (a replay)
        self.chat_panel = ChatPanel()

    # ----------------------------------------------------------------- layout
    def layout(self) -> MatchLayout:
        """Where the bar, the board, the move list and the bottom bar go in the current window."""
        return match_layout(self.window.width, self.window.height, self.list_open, self.list_wanted)

    def turned(self) -> bool:
        """The board is turned half round for a coach whose own goal is at x > 0: his goal is on his side."""
        position, seat = self.state.position, self.state.seat
        return position is not None and seat is not None and turned_for(position.own_end(seat))

    def left_team(self) -> str:
        """The team whose goal is on the left of the board as drawn (its panel goes left in the top bar)."""
        position = self.state.position
        if position is None:
            return "home"
        left_end = 1 if self.turned() else -1
        return "home" if position.own_end("home") == left_end else "away"

    def transform(self) -> Transform:
        """The board's transform for the current window size (turned for the coach of the x > 0 goal)."""
        board = self.layout().board
        return Transform.fit(board.left, board.bottom, board.width, board.height, self.turned())

    def choices(self, now: float) -> tuple[prompts.Choice, ...]:
        """The coach's pending choices, recomputed when the position changes (their countdown starts then)."""
        position = self.state.position
        if position is None or self.state.locked(now) or self.state.waiting_for_opponent():
            return ()  # nothing to choose before the opponent has come
        key = (id(position), self.state.version, id(self.state.prompt_clocks))
        if key != self._choices_for:
            self._choices_for = key
            self._choices = prompts.choices(position, self.state.seat, now, self.state.prompt_clocks)
        return self._choices

    def frame_key(self) -> object:
        """A cheap summary of the picture (None while something moves: every frame is drawn then)."""
        now = self.clock()
        state = self.state
        if state.busy or self.aim is not None or (self.arrangement is not None and self.arrangement.dragging):
            return None
        choices = tuple((c.kind, c.options, None if c.left(now) is None else round(c.left(now) or 0.0))
                        for c in self.choices(now))
        last = state.log[-1] if state.log else None
        return (self.window.width, self.window.height, hud_model.build(state, now), state.banner_at(now),
                len(state.log), last, len(state.moves), state.version, id(state.position), choices, self.hover,
                self.confirm, self.list_open, self.list_wanted, self.moves_panel.scroll, self.aim_guide,
                self.arrangement is not None and tuple(sorted(self.arrangement.moved.items())), self._chat_key())

    def _chat_key(self) -> object:
        """What of the chat the picture shows (its lines are only ever appended, the oldest dropped)."""
        log = self.chat
        if log is None:
            return None
        return (len(log.lines), log.lines[-1] if log.lines else None, log.draft, log.open, log.typing,
                tuple(sorted(log.muted)), log.unread)

    @property
    def idle_rate(self) -> float:
        """Seconds between the loop's ticks once the picture is still: 10 a second, the full rate while a chat line
        is typed (its letters are read as they come)."""
        return FRAME_S if self.chat is not None and self.chat.typing else IDLE_RATE_S

    def chat_shown(self) -> bool:
        """The chat panel is open in a room (a replay or a still picture without a room has no chat)."""
        return self.chat is not None and self.chat.open and self.state.room is not None

    # ----------------------------------------------------------------- loop
    def on_update(self, delta_time: float) -> None:
        """Poll the link, advance playback, play the cues."""
        now = self.clock()
        if self.link is not None:
            self.link.poll(self.state, now)
        for knock in self.state.due_knocks(now):
            self.sounds.knock(knock.kind, knock.loudness)
        for cue in self.state.update(now):
            self.sounds.play(cue)
        if self.state.locked(now):
            self.aim = None
        if self.arrangement is not None and self.arrangement.start is not self.state.position:
            self.arrangement = None  # the position changed under the coach's hands: start again from it

    def on_draw(self) -> None:
        """Paint the whole screen."""
        self.clear(color=palette.BACKGROUND)
        self.draw_at(self.clock())

    def draw_at(self, now: float) -> None:
        """Paint the screen as it is at ``now`` (also used by screenshots)."""
        width, height = self.window.width, self.window.height
        laid = self.layout()
        tf = self.transform()
        draw_board(tf)
        position = self.state.position
        settings = settings_of(position) if position is not None else None
        stone_r = settings.stone_radius if settings else 16.0
        puck_r = settings.puck_radius if settings else 8.5
        poses = self.state.poses(now)
        if self.arrangement is not None:
            draw_zones(tf, self.arrangement, self.texts)
            poses = poses_from_position(self.arrangement.preview(), self.state.angles)
        aimed = {self.aim.stone} if self.aim else set()
        self.painter.draw(tf, poses, self.state.roles(), stone_r, puck_r)
        self.painter.flush()
        self._draw_intervention(tf, now)
        self._draw_selectable(tf, stone_r, now)
        if self.aim is not None and settings is not None and aimed and position is not None:
            self._draw_aim(tf, position, stone_r)
        if laid.side is not None and laid.side_docked:
            self.moves_panel.draw(laid.side, self.state.moves, self.state.names)
        hud = hud_model.build(self.state, now)
        if hud is not None:
            draw_hud(self.texts, hud, width, height, self.left_team())
        banner = self.state.banner_at(now)
        free_right = laid.side.left if laid.side is not None and not laid.side_docked else laid.board.right
        if banner:
            draw_banner(self.texts, banner, (laid.board.left + free_right) / 2,
                        laid.banner.bottom + laid.banner.height / 2, free_right - laid.board.left,
                        half_height=laid.banner.height / 2 - 2)
        arcade.draw_lrbt_rectangle_filled(0, width, 0, BOTTOM_BAR - 4, palette.HUD_BG)
        self._draw_prompts(now, width)
        log_right = self._panel_left if self.prompt_buttons else width
        if self.show_log:
            draw_log(self.texts, self.state.log, 14, 4, max_width=log_right - 24)
        self._draw_corner(laid)
        self.texts.flush()
        self.moves_panel.texts.flush()
        if laid.side is not None and not laid.side_docked:  # opened over the board: on top of it
            self.moves_panel.draw(laid.side, self.state.moves, self.state.names)
            self.moves_panel.texts.flush()
        if self.chat_shown():
            assert self.chat is not None
            me = {name for name in (self._me(), getattr(_net_link(self.link), "player", None)) if isinstance(name, str)}
            self.chat_panel.draw(panel_rect(laid.board), self.chat, me, list(self.state.names.values()),  # both names
                                 self.hover)
        else:
            self.chat_panel.rect = None
        self._draw_tooltip(tf, width, height)
        if self.confirm is not None:
            self.confirm_buttons = dialog_buttons(self.confirm.options, width, height)
            draw_dialog(self.overlay, self.confirm.title, self.confirm.detail, self.confirm_buttons, width, height,
                        self.hover)
        else:
            self.confirm_buttons = []

    def _draw_corner(self, laid: MatchLayout) -> None:
        """Help and Leave at the board's top right corner (mouse players need a way out besides Escape)."""
        options = [(_("Help"), "help")]
        if self.chat is not None and self.state.room is not None:
            unread = self.chat.unread
            options.insert(0, (_("Chat ({n})").format(n=unread) if unread else _("Chat"), "chat"))
        if self.on_leave is not None:
            options.append((_("Leave"), "leave"))
        right = laid.side.left if laid.side is not None and not laid.side_docked else laid.board.right
        self.corner_buttons = buttons.row(options, right - 4, laid.board.top - 30, height=26, char_px=8)
        draw_buttons(self.texts, self.corner_buttons, self.hover, "corner")

    def _draw_tooltip(self, tf: Transform, width: float, height: float) -> None:
        """The tooltip of the button or stone under the pointer (none while aiming or answering a dialog)."""
        if self.hover is None or self.aim is not None or self.confirm is not None:
            return
        x, y = self.hover
        hit = buttons.hit([*self.prompt_buttons, *self.corner_buttons], x, y)
        text = tooltips.tip(hit.command) if hit is not None else ""
        position = self.state.position
        if hit is None and position is not None and self.layout().board.contains(x, y):
            stone = aiming.stone_at(position, *tf.to_world(x, y), settings_of(position).stone_radius)
            if stone is not None:
                text = tooltips.stone_tip(stone.id, stone.role, self.state.team_label(stone.team), stone.flipped)
        draw_tooltip(self.overlay, text, x, y, width, height)

    def _draw_selectable(self, tf: Transform, radius: float, now: float) -> None:
        """A soft ring round each stone the coach may flick, when it is his move."""
        if not self.state.my_turn(now) or self.aim is not None:
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
        word = _("Turned over (VI.4)") if intervention.code == "FLIP" else _("Put back (VI.5)") \
            if intervention.reason == "LEFT_BOARD" else _("Behind the goal (VI.3)")
        sx, sy = tf.to_screen(intervention.x, intervention.y)
        label = self.texts.get("intervention", word, sx, sy + tf.px(30), palette.WARNING, 12, "center", bold=True)
        _backing(label.x - label.content_width / 2, label.y, label.content_width, label.content_height)
        self.texts.show("intervention")  # on a dark backing: orange reads over the wood

    def guide_shown(self, position: Position) -> bool:
        """The aiming guide is shown when the player wants it and the ruleset allows it (not in ``strict``)."""
        return self.aim_guide and position.ruleset != "strict"

    def _draw_aim(self, tf: Transform, position: Position, radius: float) -> None:
        """The pull-back line to the pointer, the power bar and, with the guide, the stone's path to the first body
        it meets (``shared.aim_cast``: the physics' own shapes) — else a plain aim line."""
        aim = self.aim
        assert aim is not None
        settings = settings_of(position)
        shot = aiming.shot_of(aim, settings.flick_speed_min, settings.flick_speed_max)
        sx, sy = tf.to_screen(aim.x, aim.y)
        arcade.draw_circle_outline(sx, sy, tf.px(radius) + 4, palette.SELECT, 2)
        px, py = tf.to_screen(aim.pointer_x, aim.pointer_y)
        arcade.draw_line(sx, sy, px, py, (255, 255, 255, 90), 2)
        if shot is None:
            self.texts.draw("guide", "", 0, 0)
            return
        color = palette.mix(palette.POWER_LOW, palette.POWER_HIGH, shot.power)
        # the gauge stands behind the pointer, on the side of the pull, away from the path the stone will take
        side = 1 if px >= sx else -1
        bar_x = px + side * 18 - (12 if side < 0 else 0)
        draw_power_bar(shot.power, bar_x, py - 60)
        speed = self.texts.get("speed", f"{shot.speed / 1000:.2f} m/s", bar_x + (18 if side > 0 else -6), py,
                               palette.TEXT, 11, "left" if side > 0 else "right", bold=True)
        left = speed.x if side > 0 else speed.x - speed.content_width
        _backing(left, speed.y, speed.content_width, speed.content_height)
        self.texts.show("speed")
        self.speed_box = (left - 6, speed.y - 4, left + speed.content_width + 6, speed.y + speed.content_height + 3)
        guide = aim_cast.cast(position, aim.stone, shot.vx, shot.vy, settings) if self.guide_shown(position) else None
        if guide is not None:  # after the speed: its word keeps clear of the speed's
            self._draw_guide(tf, guide, radius, color)
        else:
            ex, ey = tf.to_screen(*aiming.aim_line_end(aim, shot))
            arcade.draw_line(sx, sy, ex, ey, color, 3)
            arcade.draw_circle_filled(ex, ey, 5, color)
            self.texts.draw("guide", "", 0, 0)

    def _draw_guide(self, tf: Transform, guide: aim_cast.AimCast, radius: float, color: palette.Colour) -> None:
        """The guide: the path, the stone's ghost where it touches (or stops), the push it gives, and a word."""
        sx, sy = tf.to_screen(guide.start_x, guide.start_y)
        gx, gy = tf.to_screen(guide.x, guide.y)
        arcade.draw_line(sx, sy, gx, gy, (20, 20, 20, 120), 5)  # a dark edge: the path reads on light wood
        arcade.draw_line(sx, sy, gx, gy, color, 3)
        arcade.draw_circle_outline(gx, gy, tf.px(radius), (255, 255, 255, 230), 2)
        if guide.body is not None:
            tx, ty = tf.to_screen(guide.touch_x, guide.touch_y)
            arcade.draw_circle_filled(tx, ty, 4, palette.WARNING)
        if guide.push is not None:
            target_x = guide.touch_x + guide.push[0] * radius * 0.5
            target_y = guide.touch_y + guide.push[1] * radius * 0.5
            ax, ay = tf.to_screen(target_x, target_y)
            bx, by = tf.to_screen(target_x + guide.push[0] * 70, target_y + guide.push[1] * 70)
            arcade.draw_line(ax, ay, bx, by, (255, 255, 255, 170), 2)
        word = guide_words(guide, self.state.seat)
        label = self.texts.get("guide", word, gx, gy + tf.px(radius) + 10, palette.TEXT, 11, "center", bold=True)
        half = label.content_width / 2 + 6
        if _overlap((gx - half, label.y - 4, gx + half, label.y + label.content_height + 3), self.speed_box):
            label.y = gy - tf.px(radius) - 10 - label.content_height  # under the ghost: clear of the speed
        _backing(gx - half + 6, label.y, label.content_width, label.content_height)  # the word reads over wood
        self.texts.show("guide")

    def _draw_prompts(self, now: float, width: float) -> None:
        """The pending choice (or the arrangement in progress) in a panel above the log: title, countdown, buttons."""
        self.prompt_buttons = []
        if self.arrangement is not None:
            problem = self.arrangement.problem()
            title = _("Drag your stones: face-off spots, or your defensive third off the crease (IV.1)")
            options: tuple[tuple[str, str], ...] = ((_("Confirm"), "confirm"), (_("Cancel"), "cancel"))
            self._prompt_panel(title, problem or _("The referee accepts this setup"), None, 0.0, options, width,
                               ok=problem is None, now=now)
            self.prompt_buttons[0] = replace(self.prompt_buttons[0], enabled=problem is None)
            draw_buttons(self.texts, self.prompt_buttons, self.hover, "prompt")
            return
        found = self.choices(now)
        if not found:
            self.texts.draw("prompt.title", "", 0, 0)
            self.texts.draw("prompt.detail", "", 0, 0)
            return
        choice = found[0]
        if choice.deadline is None and len(found) > 1:  # only offers: one panel with every optional action
            options = tuple(option for offer in found for option in offer.options)
            self._prompt_panel(_(prompts.OFFERS_TITLE), "", None, 0.0, options, width, now=now)
        else:
            awaited = sum(1 for c in found if c.deadline is not None)
            more = "  " + _("(+{n} more)").format(n=awaited - 1) if awaited > 1 else ""
            self._prompt_panel(choice.title + more, "", choice.left(now), choice.seconds, choice.options, width,
                               now=now)
        draw_buttons(self.texts, self.prompt_buttons, self.hover, "prompt")

    def _prompt_panel(self, title: str, detail: str, left_s: float | None, seconds: float,
                      options: tuple[tuple[str, str], ...], width: float, now: float, ok: bool = True) -> None:
        """A panel at the bottom right: the title, a detail line or countdown bar, and the option buttons."""
        panel_w = min(width - 28.0, max(500.0, width * 0.46))
        left, bottom, height = width - 14 - panel_w, 6.0, BOTTOM_BAR - 12
        self._panel_left = left
        arcade.draw_lbwh_rectangle_filled(left, bottom, panel_w, height, palette.PANEL)
        arcade.draw_lbwh_rectangle_outline(left, bottom, panel_w, height, palette.WARNING, 2)
        label = self.texts.get("prompt.title", title, left + 10, bottom + height - 22, palette.WARNING, 12, bold=True)
        while label.content_width > panel_w - 20 and label.font_size > 9:
            label.font_size -= 0.5
        fit_text(self.texts, "prompt.title", title, left + 10, bottom + height - 22, panel_w - 20, palette.WARNING,
                 label.font_size, bold=True)
        if left_s is not None:
            share = min(1.0, left_s / seconds) if seconds > 0 else 0.0
            bar_w = panel_w - 80
            arcade.draw_lbwh_rectangle_filled(left + 10, bottom + height - 38, bar_w, 8, (60, 66, 76, 255))
            arcade.draw_lbwh_rectangle_filled(left + 10, bottom + height - 38, bar_w * share, 8,
                                              palette.mix(palette.POWER_HIGH, palette.POWER_LOW, share))
            self.texts.draw("prompt.detail", f"{left_s:.0f} s", left + panel_w - 12, bottom + height - 40,
                            palette.TEXT, 12, "right", bold=True)
        else:
            self.texts.draw("prompt.detail", detail, left + 10, bottom + height - 42,
                            palette.TEXT if ok else palette.WARNING, 10.5)
        self.prompt_buttons = buttons.fit_row(options, left + 10, left + panel_w - 10, bottom + 8, height=30)

    # ----------------------------------------------------------------- input
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Track the pointer for hovering buttons."""
        self.hover = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A dialog's answer, a corner button, a prompt button, a stone to place, or the start of an aim."""
        if self.confirm is not None:
            answer = buttons.hit(self.confirm_buttons, x, y)
            if answer is not None:
                self.answer(answer.command)
            return
        corner = buttons.hit(self.corner_buttons, x, y)
        if corner is not None:
            self.answer(corner.command)
            return
        if self._chat_click(x, y):
            return
        hit = buttons.hit(self.prompt_buttons, x, y)
        if hit is not None and self.state.seat is not None:
            self.command(hit.command)
            return
        position = self.state.position
        if position is None or button != arcade.MOUSE_BUTTON_LEFT:
            return
        wx, wy = self.transform().to_world(x, y)
        if self.arrangement is not None:
            if self.arrangement.pick(wx, wy) is None:
                self.state.note(_("Drag one of your field stones (the goalie stays on its spot)"), "error")
            return
        stone = aiming.stone_at(position, wx, wy, settings_of(position).stone_radius)
        if stone is None:
            return
        if self.state.locked(self.clock()):
            self.state.note(_("Wait until the move has been played"), "error")
            return
        seat = self.state.seat
        reason = aiming.refusal(position, seat, stone, legal_stones(position, seat) if seat else ())
        if reason is not None:
            self.state.note(reason, "error")
            return
        self.aim = aiming.Aim(stone.id, stone.x, stone.y, wx, wy)

    def _me(self) -> str | None:
        """This client's display name (a coach's from his seat, else the name the server welcomed us with)."""
        seat = self.state.seat
        if seat is not None and seat in self.state.names:
            return self.state.names[seat]
        return getattr(_net_link(self.link), "player", None)

    def _chat_click(self, x: float, y: float) -> bool:
        """A click on the open chat panel: an emote, a mute, or the input line; True when the panel took it (a click
        anywhere else stops typing)."""
        log = self.chat
        what = self.chat_panel.click(x, y) if self.chat_shown() else None
        if log is None or what is None:
            if log is not None:
                log.stop_typing()
            return False
        if what == "type":
            log.start_typing()
        elif what.startswith("emote:"):
            self._say(chat.emote_request(what.partition(":")[2]))
        elif what.startswith("mute:"):
            self._say(log.mute_request(what.partition(":")[2]))
        return True

    def _say(self, message: ClientMessage) -> None:
        """Send a chat request through the link (one that cannot chat, or a dropped connection, says so)."""
        request = getattr(_net_link(self.link), "request", None)
        if self.chat is not None and (request is None or not request(message)):
            self.chat.notice(_("Not connected — the line was not sent"))

    def _chat_key_press(self, symbol: int, modifiers: int) -> bool:
        """While typing every key is the chat's (never the match's): Enter sends the line and stops typing, Escape
        stops (the line kept), Backspace deletes;
        otherwise C shows or hides the panel and Enter starts typing. True when the key was the chat's."""
        log = self.chat
        if log is None or self.state.room is None:
            return False
        if log.typing:
            if symbol in (arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER):
                line = log.take_line()
                log.stop_typing()  # the keys are the match's again; Enter types the next line
                if line is not None:
                    self._say(line)
            elif symbol == arcade.key.ESCAPE:
                log.stop_typing()
            elif symbol == arcade.key.BACKSPACE:
                log.backspace()
            return True
        if symbol == arcade.key.C:
            log.toggle()
            return True
        if symbol in (arcade.key.ENTER, arcade.key.RETURN) and self.arrangement is None:
            log.start_typing()
            return True
        return False

    def on_text(self, text: str) -> None:
        """Typed characters go to the chat's line while typing (and nowhere else)."""
        if self.chat is not None and self.chat.typing:
            self.chat.type(text.replace("\r", "").replace("\n", ""))

    def command(self, command: str) -> None:
        """A prompt button's command: open, confirm or cancel the arrangement, or send the chosen action."""
        seat = self.state.seat
        position = self.state.position
        if seat is None or position is None:
            return
        if command == prompts.ARRANGE:
            self.aim = None
            self.arrangement = placement.Arrangement(position, seat)
        elif command == "cancel":
            self.arrangement = None
        elif command == "confirm" and self.arrangement is not None:
            if self.arrangement.problem() is None:
                self._send(self.arrangement.action())
                self.arrangement = None
        else:
            action = prompts.action_for(command, seat)
            if action is not None:
                self._send(action)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons_: int, modifiers: int) -> None:
        """Pull back to aim, or carry a stone being placed."""
        self.hover = (x, y)
        if self.arrangement is not None:
            self.arrangement.drag(*self.transform().to_world(x, y))
        elif self.aim is not None:
            self.aim = self.aim.to(*self.transform().to_world(x, y))

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        """Let go: put the carried stone down, or send the flick (cancelled inside the dead zone)."""
        if self.arrangement is not None:
            self.arrangement.drop(*self.transform().to_world(x, y))
            return
        if self.aim is None or self.state.position is None or self.state.seat is None:
            return
        aim = self.aim.to(*self.transform().to_world(x, y))
        self.aim = None
        settings = settings_of(self.state.position)
        flick = aiming.flick_of(aim, self.state.seat, settings)
        if flick is None:
            self.state.note(_("Flick cancelled — pull back further to shoot"))
            return
        self._send(flick)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Escape cancels an aim or an arrangement, else asks to leave (a running match: leaving resigns it);
        M mutes or unmutes the sound; Enter confirms an arrangement; L shows or hides the move list; F1 or ? help,
        F11 full screen; C shows the chat, Enter types in it (every key is the chat's while typing)."""
        typing = self.chat is not None and self.chat.typing
        if (not typing or symbol in (arcade.key.F1, arcade.key.F11)) and global_key(self.window, symbol, modifiers):
            return
        if self._chat_key_press(symbol, modifiers):
            return
        if symbol == arcade.key.ESCAPE:
            if self.aim is not None or self.arrangement is not None:
                self.aim, self.arrangement = None, None
            else:
                self._escape()
        elif symbol in (arcade.key.ENTER, arcade.key.RETURN) and self.arrangement is not None:
            self.command("confirm")
        elif symbol == arcade.key.M:
            self.sounds.muted = not self.sounds.muted
            self.state.note(_("Sound off") if self.sounds.muted else _("Sound on"))
        elif symbol == arcade.key.L:
            if self.layout().side_docked or not self.list_wanted:
                self.list_wanted = not self.list_wanted
            else:
                self.list_open = not self.list_open
        elif symbol in (arcade.key.PAGEUP, arcade.key.PAGEDOWN):
            step = self.moves_panel.rows_in(self.moves_panel.rect) - 1 if self.moves_panel.rect else 10
            self.moves_panel.scroll_by(step if symbol == arcade.key.PAGEUP else -step)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        """The mouse wheel over the move list scrolls it."""
        self.moves_panel.on_scroll(x, y, scroll_y)

    def _escape(self) -> None:
        """Escape: close an open question, else leave — asking first in a running match, since leaving resigns it."""
        if self.confirm is not None:
            self.confirm = None
            return
        self.answer("leave")

    def running_for_me(self) -> bool:
        """True while this client's coach plays a match that has begun and is not over (leaving would resign it)."""
        position = self.state.position
        return self.state.seat is not None and position is not None and position.result is None \
            and not self.state.waiting_for_opponent()

    def answer(self, command: str) -> None:
        """A corner button's or a dialog's command: help, leave (asked first in a running match), or stay."""
        self.confirm = None if command in ("stay", "leave!") else self.confirm
        if command == "help" and self.on_help is not None:
            self.on_help()
        elif command == "chat" and self.chat is not None:
            self.chat.toggle()
        elif command == "leave" and self.on_leave is not None:
            if self.running_for_me():
                seat = self.state.seat
                assert seat is not None
                winner = self.state.team_name(other(seat))
                self.confirm = Confirm(_("Leave the match?"),
                                       _("Leaving resigns it: {winner} wins.").format(winner=winner),
                                       ((_("Resign and leave"), "leave!"), (_("Keep playing"), "stay")))
            else:
                self.on_leave()
        elif command == "leave!" and self.on_leave is not None:
            self.on_leave()

    def _send(self, action: Action) -> None:
        """Hand an action to the link (or say that this view cannot play)."""
        if self.link is None:
            self.state.note(_("This view cannot play"), "error")
            return
        self.link.send(action)


def _net_link(link: object) -> object:
    """The network link behind a view's link: the link itself (``client.match.net.NetLink``, a test's), or the one the
    navigator polls for every view (its ``link``); the chat and its requests are that link's."""
    if hasattr(link, "chat"):
        return link
    return getattr(link, "link", link)


def guide_words(guide: aim_cast.AimCast, seat: str | None) -> str:
    """What the guide names: the body the stone meets first (an opponent's stone warns of VIII.1a), or that it
    stops short."""
    kind = aim_cast.body_kind(guide.body)
    if kind == "nothing":
        return _("stops here")
    if kind == "puck":
        return _("the puck")
    if kind == "board":
        return _("the board")
    if kind == "frame":
        return _("the goal frame")
    if kind == "net":
        return _("the net")
    body = guide.body or ""
    if seat is not None and not body.startswith(seat[0]):
        return _("{stone} — an opponent: a foul (VIII.1a)").format(stone=body)
    return _("{stone} — your own stone").format(stone=body)

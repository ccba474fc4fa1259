"""Painting the HUD, the decision banner, the message log and the power bar (a VIEW module: it imports arcade).

Why: the words come from ``client.match.hud_model`` and ``client.match.state``; this module only decides where
they go and how they look, with one cached ``arcade.Text`` per slot so redrawing every frame is cheap.
"""

from __future__ import annotations

from collections.abc import Sequence

import arcade

from client.common import palette
from client.common.i18n import _
from client.common.layout import BOTTOM_BAR, TOP_BAR
from client.common.widgets import Texts, fit_text, shrunk_size
from client.match.hud_model import Hud, TeamPanel
from client.match.state import LogLine

__all__ = ["BOTTOM_BAR", "TOP_BAR"]





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
    clock = _("{time} left to move").format(time=move_clock_text(panel.move_clock)) if panel.move_clock else (
        _("to move") if panel.to_move else "")
    fit_text(texts, f"{panel.team}.clock", clock, x + sign * 38, top - 52, name_room, palette.WARNING, 12, anchor)
    fit_text(texts, f"{panel.team}.notes", "   ".join(panel.notes), x + sign * 12, top - 72, notes_width,
             palette.TEXT_DIM, 10.5, anchor)


def move_clock_text(shown: str) -> str:
    """The move clock's time with its unit: "0:20" reads as minutes and seconds, the last ten seconds' tenths
    ("5.7") get an "s" (a bare "5.7" read as nothing)."""
    return shown if ":" in shown else _("{seconds} s").format(seconds=shown)


def draw_hud(texts: Texts, hud: Hud, width: float, height: float, left: str = "home") -> None:
    """The top bar: both teams (``left`` is the team whose goal is on the left of the board as drawn), the part
    and its clock in the middle, spectators; the status line. Nothing overlaps down to the minimum window."""
    arcade.draw_lrbt_rectangle_filled(0, width, height - TOP_BAR, height, palette.HUD_BG)
    top = height
    half = width / 2
    part = f"{hud.part}  ·  {hud.spectators}" if hud.spectators else hud.part
    size = shrunk_size(texts, "part", part, 190, 12)  # shrunk, not cut: the spectators' number stays
    fit_text(texts, "part", part, half, top - 20, 190, palette.TEXT_DIM, size, "center")
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


def draw_banner(texts: Texts, message: str, centre_x: float, y: float, width: float,
                half_height: float = 28.0) -> None:
    """The referee's call after a move, large in the strip above the board (centred at ``centre_x`` and ``y``, at
    most ``width`` wide and ``2 * half_height`` high: a long call shrinks until it fits)."""
    size = min(20 if len(message) < 60 else 15, half_height * 0.8)
    label = texts.get("banner", message, centre_x, y, palette.TEXT, size, "center", "center", bold=True)
    while label.content_width > width - 64 and label.font_size > 9:
        label.font_size -= 1
    half = min(width - 16, label.content_width + 48) / 2
    arcade.draw_lrbt_rectangle_filled(centre_x - half, centre_x + half, y - half_height, y + half_height,
                                      (10, 12, 16, 215))
    arcade.draw_lrbt_rectangle_outline(centre_x - half, centre_x + half, y - half_height, y + half_height,
                                       palette.WARNING, 2)
    texts.show("banner")




def draw_log(texts: Texts, lines: Sequence[LogLine], left: float, bottom: float, count: int = 4,
             max_width: float = 0.0) -> None:
    """The last ``count`` log lines, newest at the bottom; refusals in amber; cut to ``max_width`` when given."""
    shown = list(lines)[-count:]
    for i, line in enumerate(reversed(shown)):
        color = palette.WARNING if line.kind == "error" else palette.TEXT if i == 0 else palette.TEXT_DIM
        fit_text(texts, f"log{i}", line.text, left, bottom + 8 + i * 20, max_width, color, 11.5 if i == 0 else 10.5)
    for i in range(len(shown), count):
        texts.draw(f"log{i}", "", left, bottom + 8 + i * 20)






def draw_power_bar(power: float, x: float, y: float, height: float = 120.0) -> None:
    """A vertical power gauge next to the aimed stone: green for a touch, red for full power."""
    arcade.draw_lbwh_rectangle_filled(x, y, 12, height, (20, 20, 20, 200))
    arcade.draw_lbwh_rectangle_filled(x + 2, y + 2, 8, (height - 4) * power,
                                      palette.mix(palette.POWER_LOW, palette.POWER_HIGH, power))
    arcade.draw_lbwh_rectangle_outline(x, y, 12, height, (230, 230, 230, 255), 1)







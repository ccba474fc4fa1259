"""The help screens — "How to play" and the keys — reachable from every screen with F1 or ? (a VIEW module: it
imports arcade).

Why over the screen it came from: help must never cost a coach his match, so the help view keeps the view it was
opened from and goes back to it on Esc (or a click on Back); that view's clocks and playback go on meanwhile, as
the server's do. Tab or ←/→ switch between the two pages.
"""

from __future__ import annotations

import arcade

from client.common import buttons, help_text, palette
from client.common.board_view import draw_board
from client.common.i18n import _
from client.common.transform import Transform
from client.common.widgets import Texts, draw_buttons, fit_text

PAGES = ("play", "keys")


def is_help_key(symbol: int, modifiers: int) -> bool:
    """F1, or ? (Shift and /), asks for help from any screen."""
    return symbol == arcade.key.F1 or symbol == arcade.key.QUESTION or (
        symbol == arcade.key.SLASH and bool(modifiers & arcade.key.MOD_SHIFT))


def toggle_fullscreen(window: arcade.Window) -> None:
    """F11: full screen on or off; the window's ``on_fullscreen`` hook (the navigator's) keeps the choice."""
    window.set_fullscreen(not window.fullscreen)
    hook = getattr(window, "on_fullscreen", None)
    if callable(hook):
        hook(bool(window.fullscreen))


def global_key(window: arcade.Window, symbol: int, modifiers: int) -> bool:
    """The keys that work on every screen — F1 or ? for help, F11 for full screen; True when ``symbol`` was one."""
    if is_help_key(symbol, modifiers):
        open_help(window, "keys")
        return True
    if symbol == arcade.key.F11:
        toggle_fullscreen(window)
        return True
    return False


def open_help(window: arcade.Window, page: str = "keys") -> None:
    """Show the help over whatever the window shows now; Esc goes back to it."""
    current = window.current_view
    if isinstance(current, HelpView):
        return
    window.show_view(HelpView(current, page))


class HelpView(arcade.View):
    """One of the help pages; remembers the view to go back to."""

    def __init__(self, back_to: arcade.View | None, page: str = "play") -> None:
        """Show ``page`` (``play`` or ``keys``); Esc returns to ``back_to``."""
        super().__init__()
        self.back_to = back_to
        self.page = page if page in PAGES else "play"
        self.texts = Texts()
        self.hover: tuple[float, float] | None = None
        self.buttons: list[buttons.Button] = []

    def sections(self) -> tuple[help_text.Section, ...]:
        """The sections of the page shown."""
        return help_text.how_to_play() if self.page == "play" else help_text.keys()

    def frame_key(self) -> object:
        """The page, the pointer and the size (the language too: a settings change redraws)."""
        from client.common import i18n

        return (self.window.width, self.window.height, self.page, self.hover, i18n.language())

    def on_update(self, delta_time: float) -> None:
        """The screen underneath goes on (its clocks, its playback, the server's news)."""
        if self.back_to is not None:
            self.back_to.on_update(delta_time)

    def on_draw(self) -> None:
        """Paint the page."""
        self.clear(color=palette.BACKGROUND)
        self.draw_at(0.0)

    def draw_at(self, now: float) -> None:
        """The dimmed board, the page's title, its sections, and the buttons."""
        width, height = self.window.width, self.window.height
        draw_board(Transform.fit(0, 0, width, height))
        arcade.draw_lrbt_rectangle_filled(0, width, 0, height, (14, 18, 24, 225))
        title = _("How to play") if self.page == "play" else _("Keys")
        self.texts.draw("title", title, width / 2, height - 48, palette.TEXT, 28, "center", bold=True)
        left, right = max(24.0, width / 2 - 460), min(width - 24.0, width / 2 + 460)
        y = height - 88
        rows = sum(1 + len(s.lines) for s in self.sections())
        step = min(22.0, max(15.0, (height - 170) / max(1, rows + len(self.sections()))))
        size = 12.0 if step >= 20 else 10.5
        index = 0
        for s_index, section in enumerate(self.sections()):
            self.texts.draw(f"h{s_index}", section.heading, left, y, palette.WARNING, size + 2, bold=True)
            y -= step
            for line in section.lines:
                fit_text(self.texts, f"l{index}", line, left + 16, y, right - left - 16, palette.TEXT, size)
                index += 1
                y -= step
            y -= step * 0.5
        for i in range(index, 40):
            self.texts.draw(f"l{i}", "", 0, 0)
        other = _("Keys") if self.page == "play" else _("How to play")
        self.buttons = buttons.row([(other, "page"), (_("Back"), "back")], width / 2 + 160, 24, height=36)
        draw_buttons(self.texts, self.buttons, self.hover, "help")
        self.texts.draw("keys", _("Tab switch page   Esc back"), width - 14, 10, palette.TEXT_DIM, 10, "right")

    def back(self) -> None:
        """Return to the screen help was opened from (or close the window when there is none)."""
        if self.back_to is not None:
            self.window.show_view(self.back_to)
        else:
            self.window.close()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Esc (or F1 again) goes back; Tab or ←/→ switch the page; F11 full screen."""
        if symbol == arcade.key.F11:
            toggle_fullscreen(self.window)
        elif symbol in (arcade.key.ESCAPE, arcade.key.F1):
            self.back()
        elif symbol in (arcade.key.TAB, arcade.key.LEFT, arcade.key.RIGHT):
            self.page = "keys" if self.page == "play" else "play"

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Light the hovered button."""
        self.hover = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """Back, or the other page."""
        hit = buttons.hit(self.buttons, x, y)
        if hit is not None and hit.command == "back":
            self.back()
        elif hit is not None:
            self.page = "keys" if self.page == "play" else "play"

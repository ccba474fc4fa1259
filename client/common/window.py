"""Opening the client's window and taking screenshots (a VIEW module: it imports arcade).

Why: ``sprtec play``, ``watch`` and ``replay`` all open one window with one view, and all accept
``--screenshot PATH`` to save a PNG of that view and exit — on a machine without a screen too, since
arcade renders headless when ``ARCADE_HEADLESS=1`` (set here before arcade is imported).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from client.common import palette

DEFAULT_SIZE = (1280, 760)
FRAME_S = 1 / 60  # the frame rate while anything changes
IDLE_AFTER_FRAMES = 30  # the same picture this many frames: the loop ticks at the view's idle rate
IDLE_RATE_S = 0.1  # ... which is this unless the view says (a menu, woken by input and the network, ticks rarer)


def antialiasing() -> bool:
    """Multisampling, unless software rendering is asked for (``LIBGL_ALWAYS_SOFTWARE``) or ``SPRTEC_NO_MSAA``
    is set: under software rendering 4x multisampling tripled the frame time."""
    return not (os.environ.get("LIBGL_ALWAYS_SOFTWARE") or os.environ.get("SPRTEC_NO_MSAA"))


def software(window) -> bool:  # type: ignore[no-untyped-def]
    """True when the window's OpenGL renders in software (Mesa's llvmpipe, softpipe, swrast)."""
    try:
        renderer = str(window.ctx.info.RENDERER).lower()
    except Exception:  # no context information: assume hardware
        return False
    return any(name in renderer for name in ("llvmpipe", "softpipe", "swrast", "software"))


def prepare(screenshot: Path | None) -> None:
    """Make a screenshot run headless; must be called before anything imports arcade."""
    if screenshot is not None:
        os.environ.setdefault("ARCADE_HEADLESS", "1")


def save_view(window, view, path: Path, now: float | None = None) -> Path:  # type: ignore[no-untyped-def]
    """Draw ``view`` once into ``window`` and save the picture as a PNG at ``path``."""
    import arcade

    window.show_view(view)
    view.on_update(0.0)
    window.clear()
    if now is not None and hasattr(view, "draw_at"):
        view.clear(color=palette.BACKGROUND)
        view.draw_at(now)
    else:
        view.on_draw()
    # the framebuffer's alpha is not the picture's: saved with it, the dimmed menus looked washed out in a viewer
    image = arcade.get_image(0, 0, window.width, window.height).convert("RGB")
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)
    return path


def run(make_view: Callable[[object], object], title: str, screenshot: Path | None = None,
        size: tuple[int, int] = DEFAULT_SIZE, now: float | None = None) -> int:
    """Open the window with the view ``make_view(window)`` builds; with ``screenshot`` save a PNG and exit."""
    window = open_window(title, screenshot, size)
    window.show_view(make_view(window))
    return finish(window, screenshot, now)


if TYPE_CHECKING:  # arcade is imported late at run time (a headless run must say so first)
    import arcade

    _WindowBase = arcade.Window
else:
    _WindowBase = object


class RedrawOnChange(_WindowBase):
    """The client window's drawing policy (mixed into arcade's window by ``window_class``): redraw only when the
    view's picture would change, and tick slowly while it does not.

    Why: arcade redraws 60 times a second whatever happens; under software rendering a menu that nobody
    touches took 35-100 % of a core. Each view offers ``frame_key()``: a cheap summary of everything it would
    draw (None while something moves). The window draws a frame when the key changes (twice, to fill both
    buffers), after a resize or an expose, and skips the draw and the buffer swap otherwise."""

    idle = False  # the picture has not changed for a while: most of the loop's ticks are skipped
    idle_every = 1  # while idle, the ticks carried out: one in this many
    idle_ticks = 0
    last_key: object = None
    same_frames = 0
    drawn = 0
    skipped = 0

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.register_event_type("on_wake")

    def draw(self, dt: float) -> None:
        """Draw the view's frame, unless it is the same picture as the last two; once it has stayed the same
        for ``IDLE_AFTER_FRAMES``, tick at the view's idle rate until something changes."""
        view = self.current_view
        key = view.frame_key() if view is not None and hasattr(view, "frame_key") else None
        if key is not None and key == self.last_key and self.same_frames >= 2:
            self.skipped += 1
            self.same_frames += 1
            if self.same_frames >= IDLE_AFTER_FRAMES and not self.idle:
                self.idle_every = max(1, round(getattr(view, "idle_rate", IDLE_RATE_S) / FRAME_S))
                self.idle = self.idle_every > 1
            return
        if self.idle:
            self.wake()
        self.same_frames = self.same_frames + 1 if key is not None and key == self.last_key else 0
        self.last_key = key
        self.drawn += 1
        super().draw(dt)

    def _dispatch_frame(self, delta_time: float) -> None:
        """arcade's tick (the view's update, then the draw): while idle, only every ``idle_every``-th one is
        carried out - the clock keeps its rate (changing arcade's rates made X read typed letters late)."""
        if self.idle:
            self.idle_ticks += 1
            if self.idle_ticks % self.idle_every:
                return
        super()._dispatch_frame(delta_time)

    def wake(self) -> None:
        """Something may change: every tick is carried out again."""
        self.idle, self.idle_ticks = False, 0

    def wake_soon(self) -> None:
        """``wake`` from another thread (the network's news): posted to the event loop, which it wakes."""
        if self.idle:
            import pyglet

            pyglet.app.platform_event_loop.post_event(self, "on_wake")

    def on_wake(self) -> None:
        """The posted wake-up."""
        self.wake()

    def dispatch_event(self, event_type: str, *args: Any) -> Any:
        """Input - a key, typing, the pointer - wakes the loop before the view takes it."""
        if self.idle and event_type.startswith(("on_key", "on_text", "on_mouse")):
            self.wake()
        return super().dispatch_event(event_type, *args)

    def invalidate(self) -> None:
        """Draw the next frames whatever the key says (a resize, an expose, a new view)."""
        self.last_key, self.same_frames = None, 0
        self.wake()

    def on_resize(self, width: int, height: int) -> None:
        """A new size: draw again."""
        self.invalidate()
        super().on_resize(width, height)

    def on_expose(self) -> None:
        """Uncovered by another window: draw again."""
        self.invalidate()

    def show_view(self, new_view) -> None:  # type: ignore[no-untyped-def]
        """Another screen: draw it."""
        self.invalidate()
        super().show_view(new_view)


def window_class() -> Any:
    """The client's window class (made on first use: it subclasses arcade's, which must be imported late)."""
    global _WINDOW
    if _WINDOW is not None:
        return _WINDOW
    import arcade

    class ClientWindow(RedrawOnChange, arcade.Window):
        """The client's window: arcade's, drawing as ``RedrawOnChange`` says."""

    _WINDOW = ClientWindow
    return _WINDOW


_WINDOW: Any = None


def open_window(title: str, screenshot: Path | None = None, size: tuple[int, int] = DEFAULT_SIZE):  # type: ignore
    """The client's window (hidden for a screenshot run)."""
    prepare(screenshot)

    from client.common.layout import MIN_HEIGHT, MIN_WIDTH

    width, height = max(size[0], MIN_WIDTH), max(size[1], MIN_HEIGHT)
    window = window_class()(width, height, title, resizable=True, visible=screenshot is None,
                            antialiasing=antialiasing())
    if antialiasing() and software(window):  # multisampling in software costs more than the rest of a frame
        window.close()
        window = window_class()(width, height, title, resizable=True, visible=screenshot is None, antialiasing=False)
    window.set_minimum_size(MIN_WIDTH, MIN_HEIGHT)  # below it the HUD and the panels would overlap
    return window


def settle(window, ready: Callable[[], bool], seconds: float) -> bool:  # type: ignore[no-untyped-def]
    """Run the shown view's updates without a screen until ``ready()`` or ``seconds`` pass (screenshots of
    live views: wait for the server's answer first); True when it became ready."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = window.current_view
        if view is not None:
            view.on_update(0.05)
        if ready():
            return True
        time.sleep(0.05)
    return False


def finish(window, screenshot: Path | None, now: float | None = None) -> int:  # type: ignore[no-untyped-def]
    """Save the current view and close (with ``screenshot``), else run the window until it is closed."""
    import arcade

    if screenshot is not None:
        save_view(window, window.current_view, screenshot, now)
        print(f"saved {screenshot}")
        window.close()
        return 0
    arcade.run()
    return 0

"""Opening the client's window and taking screenshots (a VIEW module: it imports arcade).

Why: ``sprtec play``, ``watch`` and ``replay`` all open one window with one view, and all accept
``--screenshot PATH`` to save a PNG of that view and exit — on a machine without a screen too, since
arcade renders headless when ``ARCADE_HEADLESS=1`` (set here before arcade is imported).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from client import palette

DEFAULT_SIZE = (1280, 760)


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
    image = arcade.get_image(0, 0, window.width, window.height)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)
    return path


def run(make_view: Callable[[object], object], title: str, screenshot: Path | None = None,
        size: tuple[int, int] = DEFAULT_SIZE, now: float | None = None) -> int:
    """Open the window with the view ``make_view(window)`` builds; with ``screenshot`` save a PNG and exit."""
    window = open_window(title, screenshot, size)
    window.show_view(make_view(window))
    return finish(window, screenshot, now)


def open_window(title: str, screenshot: Path | None = None, size: tuple[int, int] = DEFAULT_SIZE):  # type: ignore
    """The client's window (hidden for a screenshot run)."""
    prepare(screenshot)
    import arcade

    from client.layout import MIN_HEIGHT, MIN_WIDTH

    window = arcade.Window(max(size[0], MIN_WIDTH), max(size[1], MIN_HEIGHT), title, resizable=True,
                           visible=screenshot is None)
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

"""Clickable rectangles as plain data (pure): where a button is and which command it stands for.

Why: prompts, the lobby and the results view all offer buttons; their layout and hit-testing are the
same and are tested without a screen, while the views only paint them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Button:
    """A button: its label, the command it sends when clicked, and its screen rectangle (pixels)."""

    label: str
    command: str
    left: float
    bottom: float
    width: float
    height: float
    enabled: bool = True

    def contains(self, x: float, y: float) -> bool:
        """True when the pixel (x, y) lies on the button."""
        return self.left <= x <= self.left + self.width and self.bottom <= y <= self.bottom + self.height


def row(items: Sequence[tuple[str, str]], right: float, bottom: float, height: float = 34.0, gap: float = 8.0,
        char_px: float = 8.5) -> list[Button]:
    """Buttons laid out in a row ending at ``right``, each as wide as its label needs."""
    buttons: list[Button] = []
    x = right
    for label, command in reversed(items):
        width = max(90.0, len(label) * char_px + 24.0)
        x -= width
        buttons.append(Button(label, command, x, bottom, width, height))
        x -= gap
    return list(reversed(buttons))


def fit_row(items: Sequence[tuple[str, str]], left: float, right: float, bottom: float, height: float = 34.0,
            gap: float = 6.0) -> list[Button]:
    """Buttons in a row ending at ``right``, as wide as their labels need but narrowed together so that the row
    never starts left of ``left`` (a panel's many choices still fit inside it)."""
    laid = row(items, right, bottom, height, gap)
    if not laid or laid[0].left >= left:
        return laid
    room = right - left - gap * (len(laid) - 1)
    widths = [b.width for b in laid]
    scale = room / sum(widths)
    out: list[Button] = []
    x = left
    for b, width in zip(laid, widths, strict=True):
        out.append(Button(b.label, b.command, x, bottom, width * scale, height, b.enabled))
        x += width * scale + gap
    return out


def column(items: Sequence[tuple[str, str]], left: float, top: float, width: float, height: float = 40.0,
           gap: float = 10.0) -> list[Button]:
    """Buttons stacked downwards from ``top``, all ``width`` wide (menus)."""
    return [Button(label, command, left, top - (i + 1) * height - i * gap, width, height)
            for i, (label, command) in enumerate(items)]


def hit(buttons: Sequence[Button], x: float, y: float) -> Button | None:
    """The enabled button under (x, y), if any."""
    return next((b for b in buttons if b.enabled and b.contains(x, y)), None)

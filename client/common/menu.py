"""A menu screen as plain data: its lines (``Item``), the keyboard's way through them (``Page``), and the requests
its commands give that are not protocol messages (pure: no arcade, no sockets).

Why shared: the lobby, the name entry, the claim code, a profile and the leaderboard are all menus a player drives
with the mouse and the keyboard alike. One view (``client.common.menu_view``) paints any ``Menu``, so they look and
behave alike, and every model is tested without a screen: a command in, a request (or nothing) out.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import Protocol

from shared.protocol import ClientMessage

QUIT = "quit"  # the command and request that closes the window
TEXT_KINDS = ("text", "big")  # lines that only show something: never focused, never clicked


@dataclass(frozen=True, slots=True)
class Item:
    """One line of a menu: a ``button``, a ``choice`` (cycled with ←/→), an ``input``, a ``room`` (a row of a list),
    a ``text`` line or a ``big`` one (a code to read out).

    ``cells`` with ``stops`` (fractions of the row's width where each cell starts) line a table's columns up; items
    side by side share a ``group`` (a row's own button and the buttons after it), each as wide as its ``weight``."""

    label: str
    command: str
    kind: str = "button"
    hint: str = ""
    enabled: bool = True
    _: KW_ONLY
    cells: tuple[str, ...] = ()
    stops: tuple[float, ...] = ()
    group: str = ""
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class Close:
    """Leave this page for the screen it was opened from (not a protocol message)."""


@dataclass(frozen=True, slots=True)
class OpenProfile:
    """Show a player's profile; ``player`` None: one's own (not a protocol message)."""

    player: str | None = None


@dataclass(frozen=True, slots=True)
class OpenLeaderboard:
    """Show the leaderboard of ``ruleset``'s family (not a protocol message)."""

    ruleset: str = "standard"


@dataclass(frozen=True, slots=True)
class OpenClaimCode:
    """Show a claim code that takes this identity to another machine (not a protocol message)."""


@dataclass(frozen=True, slots=True)
class WatchReplay:
    """Fetch a finished match from the server, keep it with the coaches' names and play it (not a protocol
    message: the navigator asks GetReplay and opens the saved file)."""

    match_id: str
    home: str
    away: str


class Menu(Protocol):
    """What the menu view needs of a screen's model."""

    focus: int
    error: str

    def heading(self) -> str:
        """The big line at the top."""

    def subtitle(self) -> str:
        """The line under it: which screen this is."""

    def notes(self) -> tuple[str, ...]:
        """Lines of facts under the subtitle (may be none)."""

    def items(self) -> list[Item]:
        """The lines of the screen, top to bottom."""

    def wide(self) -> bool:
        """True for a list or a table (a wider panel)."""

    def status_line(self) -> str:
        """The bottom line: the server and the connection."""

    def keys_help(self) -> str:
        """The keys this screen takes, for the bottom corner."""

    def key(self, name: str) -> object | None:
        """A key by name; the request it gives."""

    def activate(self, command: str) -> object | None:
        """A command (a click, Enter); the request it gives."""

    def type_text(self, text: str) -> None:
        """Typed characters."""


class LivePage(Menu, Protocol):
    """A menu page over another screen that asks the server for what it shows and takes the answer."""

    def first_request(self) -> ClientMessage | None:
        """What to ask the server for when the page opens."""

    def apply(self, message: object) -> bool:
        """A server message; True when it was this page's."""

    def settle_focus(self) -> None:
        """Put the focus on an item that takes it."""


def focusable(item: Item) -> bool:
    """True for an item the keyboard may stand on."""
    return item.enabled and item.kind not in TEXT_KINDS


def text_field(menu: Menu) -> int | None:
    """The index of the field typed characters go into: the focused field, else the screen's only one (None: the
    screen takes no typing). Typing moves the focus there, so Enter submits the field being typed into - never the
    button the highlight or the pointer happened to be on."""
    found = menu.items()
    if 0 <= menu.focus < len(found) and found[menu.focus].kind == "input":
        return menu.focus
    fields = [i for i, item in enumerate(found) if item.kind == "input" and item.enabled]
    return fields[0] if len(fields) == 1 else None


class Page:
    """The keyboard and the focus of a menu page; a page's model says its items and carries out its commands."""

    def __init__(self) -> None:
        """The focus on the first item that takes it."""
        self.focus = 0
        self.error = ""
        self.status = ""

    def heading(self) -> str:
        """The big line at the top (the game's name unless a page has its own)."""
        return "ŠPRTEC"

    def subtitle(self) -> str:
        """The screen's name (pages override it)."""
        return ""

    def notes(self) -> tuple[str, ...]:
        """No facts under the subtitle unless a page has some."""
        return ()

    def items(self) -> list[Item]:
        """The page's lines (pages override it)."""
        return []

    def wide(self) -> bool:
        """A narrow panel unless a page is a table."""
        return False

    def status_line(self) -> str:
        """The server and the connection, as the page was last told."""
        return self.status

    def keys_help(self) -> str:
        """The usual keys of a menu."""
        from client.common.i18n import _

        return _("↑↓ choose   Enter select   ←→ change   Esc back   F1 help")

    def activate(self, command: str) -> object | None:
        """Carry out a command (pages override it)."""
        return None

    def type_text(self, text: str) -> None:
        """Typed characters go nowhere unless a page has an input."""

    def backspace(self) -> None:
        """Backspace does nothing unless a page has an input."""

    def cycle(self, command: str, step: int) -> object | None:
        """←/→ on a choice (pages with choices override it); the request it gives."""
        return None

    def move_focus(self, step: int) -> None:
        """Up/Down: the next item that takes the focus (wrapping)."""
        found = self.items()
        for _step in range(len(found)):
            self.focus = (self.focus + step) % len(found)
            if focusable(found[self.focus]):
                return

    def settle_focus(self) -> None:
        """Keep the focus on an item that takes it after the items changed."""
        found = self.items()
        if not found:
            self.focus = 0
            return
        self.focus = min(max(self.focus, 0), len(found) - 1)
        if not focusable(found[self.focus]):
            self.move_focus(1)

    def focused(self) -> Item | None:
        """The item the keyboard is on."""
        found = self.items()
        return found[self.focus] if 0 <= self.focus < len(found) else None

    def key(self, name: str) -> object | None:
        """Up/Down move, ←/→ cycle a choice, Enter activates, Escape goes back, Backspace deletes."""
        item = self.focused()
        if name in ("up", "down"):
            self.move_focus(-1 if name == "up" else 1)
        elif name in ("left", "right") and item is not None and item.kind == "choice":
            return self.cycle(item.command, -1 if name == "left" else 1)
        elif name == "enter" and item is not None and focusable(item):
            return self.activate(item.command)
        elif name == "escape":
            return self.activate("back")
        elif name == "backspace":
            self.backspace()
        return None

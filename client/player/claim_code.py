"""Settings → "Use this identity on another machine": a claim code shown large, with its expiry counted down (pure:
no arcade, the time passed in).

Why a code and not the token: the token is the player and stays on this machine (``client.common.identity``); a claim
code (``GetClaimCode`` → ``ClaimCode``) is read off this screen and typed on the other machine's name entry ("I have a
claim code"), works once and for ten minutes, and gives that machine a token of its own (docs/PROTOCOL.md
"Players"). Eight characters are read best in two groups of four.
"""

from __future__ import annotations

from collections.abc import Callable

from client.common.i18n import _
from client.common.menu import Close, Item, Page
from shared.protocol import ClaimCode, Error, GetClaimCode


def spaced(code: str) -> str:
    """A code in groups of four, as it is read out ("K7QZ 3XWA"); typed back, the space is dropped."""
    return " ".join(code[i:i + 4] for i in range(0, len(code), 4))


def countdown(seconds: float) -> str:
    """``m:ss`` left, rounded up (a code is never shown as expired while it still works)."""
    whole = max(0, int(-(-seconds // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


class ClaimPage(Page):
    """The claim code screen: asks once when opened, shows the code and its time left, offers a new one."""

    def __init__(self, clock: Callable[[], float]) -> None:
        """``clock`` is the monotonic time in seconds (the code's expiry counts from its arrival)."""
        super().__init__()
        self.clock = clock
        self.code: str | None = None
        self.expires_at = 0.0
        self.asking = True  # the page asks for a code when it opens (``first_request``)

    def first_request(self) -> GetClaimCode:
        """What the page asks the server for when it opens."""
        return GetClaimCode()

    def left(self) -> float:
        """Seconds the code still works (0 when expired or not there yet)."""
        return max(0.0, self.expires_at - self.clock()) if self.code is not None else 0.0

    def subtitle(self) -> str:
        """Which screen this is."""
        return _("Use this identity on another machine")

    def notes(self) -> tuple[str, ...]:
        """Where the code goes, and what it does."""
        return (_("On the other machine: sprtec play → I have a claim code → type this code"),
                _("It works once; this machine stays yours too"))

    def items(self) -> list[Item]:
        """The code, its time left, a new code, back."""
        if self.code is None:
            code = _("Asking the server…") if self.asking else "—"
            when = ""
        elif self.left() > 0:
            code, when = spaced(self.code), _("Expires in {time}").format(time=countdown(self.left()))
        else:
            code, when = spaced(self.code), _("This code has expired — ask for a new one")
        return [
            Item(code, "none", "big", enabled=False),
            Item(when, "none", "text", enabled=False),
            Item(_("New code"), "new", hint=_("The code shown stops working when it expires"),
                 enabled=not self.asking),
            Item(_("Back"), "back"),
        ]

    def activate(self, command: str) -> object | None:
        """A new code, or back to the settings."""
        self.error = ""
        if command == "back":
            return Close()
        if command == "new" and not self.asking:
            self.asking = True
            return GetClaimCode()
        return None

    def apply(self, message: object) -> bool:
        """The server's answer; True when the message was for this page."""
        if isinstance(message, ClaimCode):
            self.code, self.expires_at, self.asking = message.code, self.clock() + message.expires_ms / 1000, False
            self.settle_focus()
            return True
        if isinstance(message, Error) and message.ref == "GetClaimCode":
            self.asking, self.error = False, message.message
            return True
        return False

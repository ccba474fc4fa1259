"""Who the player is on a server he has never used: a name of his own, a claim code from his other machine, or a
guest (pure: no arcade, no sockets).

Why a screen before the lobby: a display name is unique on a server - no other may even look like it - and stays its
player's (docs/PROTOCOL.md "Players"), so it is chosen once, on purpose, and kept with the token per server
(``client.common.identity``). The name is checked here as the server checks it (``shared.names.clean_name``) before it
is sent; the server's answer decides the rest: ``NAME_TAKEN`` and ``BAD_NAME`` say so and let the player try another,
``BAD_CLAIM`` explains what a claim code is and where a new one comes from. The answer travels as ``Introduce``;
``client.match.net.NetClient.introduce`` says it in the Hello.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.common.i18n import _
from client.common.menu import QUIT, Item, Page
from client.match.net import ConnectionEvent, connection_words
from shared.names import MAX_NAME_CHARS, BadName, clean_name
from shared.protocol import Error, Welcome

CLAIM_CHARS = 16  # the protocol's longest claim code (the server's are 8)


@dataclass(frozen=True, slots=True)
class Introduce:
    """Say Hello as ``name``, with the claim code ``claim``, or (neither) as a guest (not a protocol message)."""

    name: str | None = None
    claim: str | None = None


def typed_code(text: str) -> str:
    """A claim code as typed: letters and digits, upper-cased (spaces and dashes dropped, as room codes are read)."""
    return "".join(char for char in text.upper() if char.isascii() and char.isalnum())


class NameEntry(Page):
    """The name entry screen: ``name`` mode (a name, or a guest) and ``claim`` mode (a code from another machine)."""

    def __init__(self, server: str, suggestion: str = "") -> None:
        """Ask who the player is on ``server``; ``suggestion`` is the name he chose last time anywhere."""
        super().__init__()
        self.server = server
        self.mode = "name"
        self.name = suggestion[:MAX_NAME_CHARS]
        self.code = ""
        self.pending: Introduce | None = None  # said, and not answered yet
        self.welcomed: Welcome | None = None

    # ----------------------------------------------------------------- what to show
    def subtitle(self) -> str:
        """Which question this is."""
        return _("Who are you on this server?") if self.mode == "name" else \
            _("Bring your identity from another machine")

    def notes(self) -> tuple[str, ...]:
        """The server, and what a name (or a claim code) means on it."""
        if self.mode == "name":
            return (_("Server {url}").format(url=self.server),
                    _("Your name is yours on this server: nobody else may use it, nor one that looks like it"))
        return (_("Server {url}").format(url=self.server),
                _("On your other machine: Settings → Use this identity on another machine shows a code"))

    def items(self) -> list[Item]:
        """The input and the ways on."""
        waiting = self.pending is not None
        if self.mode == "claim":
            return [
                Item(_("Claim code: {code}_").format(code=self.code), "input", "input",
                     _("8 letters and digits, valid for 10 minutes, once")),
                Item(_("Use this code"), "claim", enabled=len(self.code) >= 4 and not waiting,
                     hint=_("This machine becomes that player: his name, his ratings, his matches")),
                Item(_("Back"), "back"),
            ]
        shown = " ".join(self.name.split())
        return [
            Item(_("Name: {name}_").format(name=self.name), "input", "input",
                 _("Type your name (up to {n} characters), then Enter").format(n=MAX_NAME_CHARS)),
            Item(_("Play as {name}").format(name=shown) if shown else _("Type a name first"), "submit",
                 enabled=bool(shown) and not waiting, hint=_("The server keeps this name for you")),
            Item(_("Play as a guest"), "guest", enabled=not waiting,
                 hint=_("The server calls you guest-…; choose a name later in Settings")),
            Item(_("I have a claim code"), "screen:claim", hint=_("You play on another machine already")),
            Item(_("Quit"), QUIT),
        ]

    def keys_help(self) -> str:
        """Typing keys."""
        return _("type   Enter go on   ↑↓ choose   Esc back")

    # ----------------------------------------------------------------- input
    def type_text(self, text: str) -> None:
        """Printable characters into the name, letters and digits into the claim code."""
        if self.mode == "claim":
            self.code = (self.code + typed_code(text))[:CLAIM_CHARS]
            return
        self.name = (self.name + "".join(char for char in text if char.isprintable()))[:MAX_NAME_CHARS]

    def backspace(self) -> None:
        """Delete the last character typed."""
        if self.mode == "claim":
            self.code = self.code[:-1]
        else:
            self.name = self.name[:-1]

    def key(self, name: str) -> object | None:
        """Enter on the input goes on with what was typed; the other keys as in every menu."""
        item = self.focused()
        if name == "enter" and item is not None and item.kind == "input":
            return self.activate("claim" if self.mode == "claim" else "submit")
        return super().key(name)

    def activate(self, command: str) -> object | None:
        """Carry out a command; returns ``Introduce``, ``QUIT`` or None."""
        self.error = ""
        if command == QUIT:
            return QUIT
        if command == "screen:claim":
            self.mode, self.focus = "claim", 0
            return None
        if command == "back":
            self.mode, self.focus = "name", 0
            return None
        if self.pending is not None:
            return None  # the first answer is on its way
        if command == "guest":
            self.pending = Introduce()
        elif command == "claim":
            if len(self.code) < 4:
                self.error = _("A claim code has 8 letters and digits")
                return None
            self.pending = Introduce(claim=self.code)
        elif command == "submit":
            try:
                name = clean_name(self.name)
            except BadName as why:
                self.error = _("That name cannot be used: {why}").format(why=why)
                return None
            self.pending = Introduce(name=name)
        return self.pending

    # ----------------------------------------------------------------- server news
    def apply(self, message: object) -> None:
        """The server's answer to the Hello (or news about the connection)."""
        kind = getattr(message, "kind", None)
        if isinstance(message, Welcome):
            self.welcomed, self.pending = message, None
        elif isinstance(message, Error) and message.ref == "Hello":
            said, self.pending = self.pending, None
            if message.code == "NAME_TAKEN":
                self.mode, self.focus = "name", 0
                taken = said.name if said is not None and said.name else self.name
                self.error = _("“{name}” is taken on this server, or looks like a name that is — choose another "
                               "name").format(name=taken)
            elif message.code == "BAD_NAME":
                self.mode, self.focus = "name", 0
                self.error = _("The server refused that name: {why}").format(why=message.message)
            elif message.code == "BAD_CLAIM":
                self.mode = "claim"
                self.error = _("Unknown, used or expired claim code — get a new one in Settings on the other machine")
            else:
                self.error = message.message
        elif isinstance(message, ConnectionEvent) and kind in ("down", "stopped", "failed"):
            self.pending = None
            self.status = connection_words(message)
        elif kind == "up":
            self.status = _("Connected")

"""A room's chat as this client keeps it: the lines heard, the players muted, the line being typed (pure: no arcade).

Why a model of its own: the panel only paints what this holds, and tests check the chat's rules without a screen —
lines bounded (the last ``KEPT_LINES``, each at most the protocol's ``CHAT_CHARS``), a quick emote shown in the
reader's language, the speaker's seat kept for his colour, the server's refusals (CHAT_MUTED, CHAT_CLOSED,
RATE_LIMITED, NO_PLAYER) said plainly in the chat itself, and who is muted on this connection (docs/PROTOCOL.md
"Chat": a mute lasts as long as the connection, so a reconnect forgets it). The line typed is never a match key:
the view hands every keystroke here while ``typing``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from client.common.i18n import N_, _
from shared.protocol import Chat, Error, Mute, Muted, Say
from shared.protocol.messages import CHAT_CHARS, EMOTES

KEPT_LINES = 80  # the chat keeps this many lines; the panel shows the newest that fit
EMOTE_WORDS = {
    "good luck": N_("Good luck!"),
    "well played": N_("Well played!"),
    "nice shot": N_("Nice shot!"),
    "oops": N_("Oops!"),
    "thanks": N_("Thanks!"),
    "wow": N_("Wow!"),
}
REFUSALS = {  # docs/PROTOCOL.md "Chat": the server's word for a line it did not pass on
    "CHAT_MUTED": N_("The organiser has silenced you: your lines are not sent"),
    "CHAT_CLOSED": N_("Spectators' chat is closed in this room"),
    "RATE_LIMITED": N_("Too many lines — wait a few seconds (5 lines per 10 s)"),
    "BAD_MESSAGE": N_("Nothing printable in that line: it was not sent"),
    "NOT_IN_ROOM": N_("Join or watch a room to chat in it"),
}


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line of the chat: who said it from which seat (``home``, ``away``, ``spectator``; ``""`` for the chat's
    own notices), and what (an emote already in words)."""

    player: str
    seat: str
    text: str
    emote: bool = False
    name: str = ""  # the name shown, when it is not the player's server name (a tournament table's entry)


def emote_words(emote: str) -> str:
    """A quick emote in the reader's language (an emote of a newer server reads as its name)."""
    words = EMOTE_WORDS.get(emote)
    return _(words) if words is not None else emote.capitalize()


def printable(text: str) -> str:
    """``text`` without the characters a chat line never carries (control, format and separator characters other
    than the plain space), as the server would strip them."""
    return "".join(c for c in text if c == " " or unicodedata.category(c)[0] not in "CZ")


class ChatLog:
    """The chat of the room this client is in, and the line its player is typing."""

    def __init__(self) -> None:
        """An empty chat, nobody muted, the panel closed."""
        self.lines: list[ChatLine] = []
        self.muted: set[str] = set()  # names whose lines this connection no longer receives
        self.speakers: list[str] = []  # everyone heard in this room, first heard first (the mute buttons' names)
        self.shown_as: dict[str, str] = {}  # a speaker's server name -> the name his seat has here (an entry's)
        self.draft = ""
        self.typing = False  # keystrokes go to the draft, not to the match
        self.open = False  # the panel is shown
        self.unread = 0  # lines heard while the panel was closed

    def hear(self, message: Chat, names: Mapping[str, str] | None = None) -> None:
        """A line of the room's chat; ``names`` are the seats' names (a tournament table's are its entries', which a
        coach's line is shown with - the line carries his server name, which a mute must send)."""
        seated = (names or {}).get(message.seat, "") if message.seat in ("home", "away") else ""
        shown = seated if seated and seated != message.player else ""
        if shown:
            self.shown_as[message.player] = shown
        if message.emote is not None:
            line = ChatLine(message.player, message.seat, emote_words(message.emote), True, shown)
        else:
            line = ChatLine(message.player, message.seat, printable(message.text or "")[:CHAT_CHARS], False, shown)
        self._add(line)
        if message.player not in self.speakers:
            self.speakers.append(message.player)
        if not self.open:
            self.unread += 1

    def notice(self, text: str) -> None:
        """A line of the chat's own (a refusal, a mute): shown in the panel, which opens to show it."""
        self._add(ChatLine("", "", text))
        self.open, self.unread = True, 0

    def _add(self, line: ChatLine) -> None:
        """Keep ``line``, forgetting the oldest beyond ``KEPT_LINES``."""
        self.lines.append(line)
        del self.lines[:-KEPT_LINES]

    def refused(self, error: Error) -> bool:
        """Say a refusal of our Say or Mute in the chat; True when ``error`` was one (the log need not show it)."""
        if error.ref == "Say":
            words = REFUSALS.get(error.code)
            self.notice(_(words) if words is not None else error.message)
            return True
        if error.ref == "Mute":
            self.notice(_("Nobody on this server is called that") if error.code == "NO_PLAYER" else error.message)
            return True
        return False

    def muted_changed(self, message: Muted) -> None:
        """The server's word that a player's lines stop (or start again) reaching us."""
        if message.muted:
            self.muted.add(message.player)
            self.notice(_("{name} is muted: you no longer see their lines").format(name=self.shown(message.player)))
        else:
            self.muted.discard(message.player)
            self.notice(_("{name} is no longer muted").format(name=self.shown(message.player)))

    def mute_request(self, player: str) -> Mute:
        """The request that toggles ``player``'s mute."""
        return Mute(player, player not in self.muted)

    def shown(self, player: str) -> str:
        """The name ``player`` (a server name) is shown with in this room."""
        return self.shown_as.get(player, player)

    def mutable(self, me: str | Iterable[str] | None, coaches: Iterable[str]) -> list[str]:
        """The server names a mute button is offered for: the room's coaches and everyone heard, except ourselves
        (``me``: our name, or our names - the seat's and the server's); a coach known by his seat's name only is
        offered under his server name once he has spoken."""
        mine = {me} if isinstance(me, str) or me is None else set(me)
        server_name = {shown: player for player, shown in self.shown_as.items()}
        names: list[str] = []
        for name in (*(server_name.get(c, c) for c in coaches), *self.speakers):
            if name and name not in mine and self.shown(name) not in mine and name not in names:
                names.append(name)
        return names

    # ----------------------------------------------------------------- typing
    def start_typing(self) -> None:
        """Keystrokes go to the draft from now on (the panel opens)."""
        self.open, self.typing, self.unread = True, True, 0

    def stop_typing(self) -> None:
        """Keystrokes go to the match again; the draft is kept."""
        self.typing = False

    def toggle(self) -> None:
        """Show or hide the panel (hiding it stops typing)."""
        self.open = not self.open
        self.typing = self.typing and self.open
        if self.open:
            self.unread = 0

    def type(self, text: str) -> None:
        """Characters typed into the draft (what cannot be in a line is dropped; the draft stops at the bound)."""
        self.draft = (self.draft + printable(text))[:CHAT_CHARS]

    def backspace(self) -> None:
        """Delete the draft's last character."""
        self.draft = self.draft[:-1]

    def take_line(self) -> Say | None:
        """The draft as a line to send (cleared), or None when it holds nothing but spaces."""
        text = " ".join(self.draft.split())
        self.draft = ""
        return Say(text=text) if text else None

    def leave(self) -> None:
        """Out of the room: its lines and speakers are forgotten (the mutes last with the connection)."""
        self.lines.clear()
        self.speakers.clear()
        self.draft, self.typing, self.unread = "", False, 0


def emote_request(emote: str) -> Say:
    """The request for a quick emote."""
    assert emote in EMOTES
    return Say(emote=emote)


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One printed row of the panel: the speaker's name on a line's first row (empty on the rows that continue it),
    his seat for its colour, and the words."""

    name: str
    seat: str
    text: str


def rows(lines: Iterable[ChatLine], chars: int) -> list[ChatRow]:
    """The chat as rows at most ``chars`` characters wide: "Name: words", the words wrapped and indented."""
    import textwrap

    chars = max(12, chars)
    out: list[ChatRow] = []
    for line in lines:
        head = f"{line.name or line.player}: " if line.player else ""
        width = max(4, chars - round(len(head) * 1.2))  # the name is bold: wider than the average character
        pieces = textwrap.wrap(line.text, width, break_long_words=True) or [""]
        out.append(ChatRow(head, line.seat, pieces[0]))
        rest = " ".join(pieces[1:])
        for piece in textwrap.wrap(rest, chars - 2, break_long_words=True):
            out.append(ChatRow("", line.seat, "  " + piece))
    return out

"""The player's dispute of a result of his in a tournament (XVII; RULES.md 6.1: the organiser decides): the match named,
his reason typed, sent once, and the case number or the refusal said in words (pure: no arcade).

Why a page of its own: a coach who thinks a result is wrong (a walkover he did not deserve, a goal not counted) had no
way to say so from his client: ``FileDispute`` was in the protocol, the desk listed cases, and the player could only
walk to the organiser. The page opens from his tournament screen on the latest decided match of his.
"""

from __future__ import annotations

from client.common.i18n import _
from client.common.menu import Close, Item, Page
from shared.protocol import Error, FileDispute, TournamentDone

REASON_CHARS = 500  # FileDispute's reason


class DisputePage(Page):
    """His dispute of one match: ``where`` is (stage, round, table), ``match`` the match in words."""

    def __init__(self, tournament: str, where: tuple[int, int, int], match: str) -> None:
        """Dispute the match at ``where`` of ``tournament``."""
        super().__init__()
        self.tournament, self.where, self.match = tournament, where, match
        self.reason = ""
        self.sending = False
        self.case: int | None = None  # the case the organiser has, once the server said so

    def first_request(self) -> None:
        """Nothing to ask for when the page opens."""
        return None

    def subtitle(self) -> str:
        """Which screen this is."""
        return _("Dispute a result (XVII)")

    def notes(self) -> tuple[str, ...]:
        """The match, and who decides."""
        return (self.match, _("The organiser decides; the audit log keeps your reason"))

    def items(self) -> list[Item]:
        """The reason, sending it, back (the case number once it is in)."""
        if self.case is not None:
            return [Item(_("The organiser has your dispute: case {n}").format(n=self.case), "none", "text"),
                    Item(_("Back"), "back")]
        return [Item(_("Reason: {reason}_").format(reason=self.reason), "reason", "input",
                     _("Why the result is wrong, as the organiser should read it; then Enter")),
                Item(_("Send the dispute to the organiser"), "send", enabled=bool(self.reason.strip())
                     and not self.sending),
                Item(_("Back"), "back")]

    def activate(self, command: str) -> object | None:
        """Send it (Enter in the reason sends it too), or back to the tournament."""
        if command == "back":
            return Close()
        if command in ("send", "reason") and self.reason.strip() and not self.sending and self.case is None:
            self.sending, self.error = True, ""
            stage, number, table = self.where
            return FileDispute(self.tournament, stage, number, table, self.reason.strip())
        return None

    def type_text(self, text: str) -> None:
        """The reason's letters."""
        if self.case is None and not self.sending:
            self.reason = (self.reason + "".join(c for c in text if c.isprintable()))[:REASON_CHARS]

    def backspace(self) -> None:
        """Delete the reason's last letter."""
        self.reason = self.reason[:-1]

    def apply(self, message: object) -> bool:
        """The server's answer to the dispute; True when it was this page's."""
        if isinstance(message, TournamentDone) and message.ref == "FileDispute" and \
                message.tournament == self.tournament:
            self.sending, self.case = False, message.id if message.id is not None else 0
            self.focus = 1
            return True
        if isinstance(message, Error) and message.ref == "FileDispute":
            from client.player.tournament_session import refusal_words

            self.sending, self.error = False, refusal_words(message)
            return True
        return False

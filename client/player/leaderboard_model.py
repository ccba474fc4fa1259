"""The leaderboard of a rating family — standard or quick — a page at a time: rank, name, rating, RD and rated
matches; a name opens that player's profile (pure: no arcade).

Why paged by the server: ``GetLeaderboard{ruleset, offset, limit}`` → ``Leaderboard{family, offset, total,
players}`` ranks only established players (RD at most 75, as Lichess does) and sends at most 100 a page; the
screen holds ``PAGE`` rows, so each page is asked for when it is shown.
"""

from __future__ import annotations

from client.common.i18n import _
from client.common.menu import Close, Item, OpenProfile, Page
from shared.protocol import Error, GetLeaderboard, Leaderboard

PAGE = 8  # rows a page shows (the screen must hold them at 760 pixels)
FAMILIES = ("standard", "quick")  # standard: standard, ko, final, strict; quick: the quick ruleset
STOPS = (0.0, 0.1, 0.62, 0.76, 0.88)  # rank, player, rating, RD, rated matches


class LeaderboardPage(Page):
    """One family's leaderboard, from ``offset``; ``family`` is changed with ←/→."""

    def __init__(self, ruleset: str = "standard") -> None:
        """The family of ``ruleset``, from the first rank."""
        super().__init__()
        self.family = "quick" if ruleset == "quick" else "standard"
        self.offset = 0
        self.board: Leaderboard | None = None
        self.asking = True

    def request(self) -> GetLeaderboard:
        """The page shown now, as the server is asked for it."""
        return GetLeaderboard(self.family, self.offset, PAGE)

    def first_request(self) -> GetLeaderboard:
        """Ask for the first page."""
        return self.request()

    # ----------------------------------------------------------------- what to show
    def heading(self) -> str:
        """The screen's big line."""
        return _("Leaderboard")

    def subtitle(self) -> str:
        """The family and which ranks are shown."""
        board = self.shown()
        if board is None or not board.players:
            return self.family
        return _("{family} · ranks {first}–{last} of {total}").format(
            family=self.family, first=board.offset + 1, last=board.offset + len(board.players), total=board.total)

    def notes(self) -> tuple[str, ...]:
        """Who is ranked."""
        return (_("Established players only (RD at most 75): a newcomer is ranked after a few rated matches"),)

    def wide(self) -> bool:
        """A table."""
        return True

    def shown(self) -> Leaderboard | None:
        """The page received for the family and offset shown now (None while it is asked for)."""
        board = self.board
        if board is None or board.family != self.family or board.offset != self.offset:
            return None
        return board

    def items(self) -> list[Item]:
        """The family choice, the rows, the pager, back."""
        found = [Item(_("Family: {family}").format(family=self.family), "cycle:family", "choice",
                      _("standard: the standard, ko, final and strict rulesets · quick: the quick ruleset"))]
        board = self.shown()
        if board is None:
            found.append(Item(_("Asking the server…"), "none", "room", enabled=False))
        elif not board.players:
            found.append(Item(_("Nobody is ranked yet — rated matches make the ranking"), "none", "room",
                              enabled=False))
        else:
            head = (_("Rank"), _("Player"), _("Rating"), _("RD"), _("Matches"))
            found.append(Item("  ".join(head), "none", "text", enabled=False, cells=head, stops=STOPS))
            for line in board.players:
                cells = (f"{line.rank}.", line.player, str(line.rating), str(line.rd), str(line.games))
                found.append(Item("  ".join(cells), f"profile:{line.player}", "room",
                                  _("Click for {name}'s profile").format(name=line.player), cells=cells, stops=STOPS))
        total = board.total if board is not None else 0
        found.append(Item(_("◀ Previous page"), "previous", group="pager", enabled=self.offset > 0))
        found.append(Item(_("Next page ▶"), "next", group="pager", enabled=self.offset + PAGE < total))
        found.append(Item(_("Back"), "back"))
        return found

    # ----------------------------------------------------------------- commands
    def cycle(self, command: str, step: int) -> object | None:
        """←/→ on the family: the other family, from its first rank."""
        if command != "cycle:family":
            return None
        self.family = FAMILIES[(FAMILIES.index(self.family) + step) % len(FAMILIES)]
        self.offset = 0
        return self._ask()

    def activate(self, command: str) -> object | None:
        """A page, a family, a profile, or back."""
        self.error = ""
        verb, _sep, arg = command.partition(":")
        if verb == "back":
            return Close()
        if verb == "cycle":
            return self.cycle(command, 1)
        if verb == "profile" and arg:
            return OpenProfile(arg)
        board = self.shown()
        if verb == "next" and board is not None and self.offset + PAGE < board.total:
            self.offset += PAGE
            return self._ask()
        if verb == "previous" and self.offset > 0:
            self.offset = max(0, self.offset - PAGE)
            return self._ask()
        return None

    def _ask(self) -> GetLeaderboard:
        """Ask for the page now shown."""
        self.asking = True
        return self.request()

    # ----------------------------------------------------------------- server news
    def apply(self, message: object) -> bool:
        """A page of the leaderboard, or a refusal; True when the message was this page's."""
        if isinstance(message, Leaderboard):
            self.board, self.asking = message, False
            self.settle_focus()
            return True
        if isinstance(message, Error) and message.ref == "GetLeaderboard":
            self.asking, self.error = False, message.message
            return True
        return False

"""The server's team leagues as a page of the lobby: the list (``ListLeagues``), and for the one chosen: take your
roster place with the code the organiser gave you (pure: no arcade).

Why a page (as ``client.player.tournament_list``): it is a menu opened over the lobby. Once the place is taken the
player need do nothing more: when a round of his starts, the navigator takes him to his table with "Round 2 of
Most–Brno: you play Novák, board 3" in the log under the board.
"""

from __future__ import annotations

from client.common.i18n import N_, _
from client.common.menu import Close, Item, Page
from shared.protocol import Error, JoinLeague, LeagueInfo, LeagueJoined, LeagueList, ListLeagues

CODE_LENGTH = 16  # the protocol's longest code
STOPS = (0.0, 0.5, 0.7)  # name, match day, team matches played
REFUSALS = {  # the server's refusals, in words a player acts on
    "BAD_ENTRY_CODE": N_("Not an open code of this league — the organiser gave you yours"),
    "ALREADY_ENTERED": N_("You have your place in this league already"),
    "LEAGUE_NOT_FOUND": N_("This league is no longer on the server"),
}


def info_cells(info: LeagueInfo) -> tuple[str, ...]:
    """A league of the list: its name, its open match day, its team matches played."""
    day = _("Match day {n}").format(n=info.day) if info.day else _("No match day open yet")
    played = _("{finished} of {fixtures} team matches played").format(finished=info.finished, fixtures=info.fixtures)
    return (info.name or info.league, day, played)


class LeaguesPage(Page):
    """The leagues of this server, then the one chosen."""

    def __init__(self) -> None:
        """Ask for the list when opened."""
        super().__init__()
        self.leagues: tuple[LeagueInfo, ...] = ()
        self.chosen: LeagueInfo | None = None
        self.code = ""
        self.asking = True
        self.pending = False
        self.joined = ""  # the place taken, in words

    def first_request(self) -> ListLeagues:
        """The server's leagues, newest first."""
        return ListLeagues()

    def heading(self) -> str:
        """The league chosen, else the page's name."""
        return self.chosen.name or self.chosen.league if self.chosen is not None else _("Leagues")

    def subtitle(self) -> str:
        """Which part of the page this is."""
        return _("Take your place in this league") if self.chosen is not None else _("Leagues on this server")

    def notes(self) -> tuple[str, ...]:
        """The place taken, the chosen league's state, or that the list is on its way."""
        if self.joined:
            return (self.joined, _("When a round of yours starts you are taken to your table."))
        if self.chosen is not None:
            return (" · ".join(info_cells(self.chosen)[1:]),)
        return (_("Asking the server…"),) if self.asking else ()

    def wide(self) -> bool:
        """The list is a table."""
        return self.chosen is None

    def keys_help(self) -> str:
        """The code is typed on the chosen league's part."""
        if self.chosen is not None:
            return _("type your code   Enter take your place   Esc back")
        return super().keys_help()

    def items(self) -> list[Item]:
        """The list of leagues, or the chosen one's code."""
        if self.chosen is not None:
            return [Item(_("Code: {code}_").format(code=self.code), "input", "input",
                         _("The code the organiser gave you for your place on your team, then Enter")),
                    Item(_("Take my place"), "join", enabled=bool(self.code) and not self.pending and not self.joined),
                    Item(_("Back"), "back")]
        found = [Item(info.name, f"choose:{info.league}", "room", _("Take your place in it"), cells=info_cells(info),
                      stops=STOPS) for info in self.leagues]
        if not found and not self.asking:
            found.append(Item(_("No league on this server yet"), "none", "text", enabled=False))
        return [*found, Item(_("Refresh"), "refresh"), Item(_("Back"), "back")]

    def activate(self, command: str) -> object | None:
        """Choose, take the place, refresh or go back."""
        self.error = ""
        verb, _sep, arg = command.partition(":")
        if verb == "choose":
            self.chosen = next((info for info in self.leagues if info.league == arg), None)
            self.code, self.focus, self.joined = "", 0, ""
            return None
        if verb == "refresh":
            self.asking = True
            return ListLeagues()
        if verb == "back":
            if self.chosen is None:
                return Close()
            self.chosen, self.focus, self.joined = None, 0, ""
            return ListLeagues()
        if verb in ("join", "input") and self.chosen is not None and not self.pending:
            if not self.code:
                self.error = _("Type the code the organiser gave you first")
                return None
            self.pending = True
            return JoinLeague(self.chosen.league, self.code)
        return None

    def type_text(self, text: str) -> None:
        """Letters and digits of the code."""
        if self.chosen is None:
            return
        for char in text.upper():
            if char.isalnum() and len(self.code) < CODE_LENGTH:
                self.code += char

    def backspace(self) -> None:
        """Delete the last character of the code."""
        self.code = self.code[:-1]

    def apply(self, message: object) -> bool:
        """The list, the place taken, or a refusal of ours."""
        if isinstance(message, LeagueList):
            self.leagues, self.asking = message.leagues, False
            self.settle_focus()
            return True
        if isinstance(message, LeagueJoined):
            self.pending = False
            self.joined = _("You play for {team} as {name}").format(team=message.team_name or message.team,
                                                                    name=message.name)
            return True
        if isinstance(message, Error) and message.ref in ("ListLeagues", "JoinLeague"):
            self.pending, self.asking = False, False
            self.error = _(REFUSALS[message.code]) if message.code in REFUSALS else \
                _("Refused: {why}").format(why=message.message)
            return True
        return False

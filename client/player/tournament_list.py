"""The server's tournaments as a page of the lobby: the list (``ListTournaments``), and for the one chosen: enter as
yourself, enter with the code the organiser gave you, or watch it in the hall (pure: no arcade).

Why a page: it is a menu like the profile and the leaderboard (``client.common.menu.Page``), opened over the lobby. Its
requests are protocol messages the navigator sends, or ``OpenTournament`` (the player's tournament screen, once
he is entered) and ``OpenHall`` (the spectators' view of a tournament).
"""

from __future__ import annotations

from dataclasses import dataclass

from client.common.i18n import N_, _, ngettext
from client.common.menu import Close, Item, Page
from client.common.tournament_model import TOURNAMENT_STATUS_WORDS
from shared.protocol import Error, JoinTournament, ListTournaments, TournamentInfo, TournamentJoined, TournamentList

CODE_LENGTH = 16  # the protocol's longest entry code
STOPS = (0.0, 0.45, 0.72)  # name, state, entrants
ENTRY_REFUSALS = {  # the server's refusals of an entry, in words a player acts on
    "BAD_ENTRY_CODE": N_("Not an open entry code of this tournament — the organiser gave you yours (not a claim code)"),
    "ALREADY_ENTERED": N_("You are entered in this tournament already"),
    "TOURNAMENT_CLOSED": N_("This tournament takes no entries now"),
    "TOURNAMENT_NOT_FOUND": N_("This tournament is no longer on the server"),
    "NAME_TAKEN": N_("An entry with your name waits for you: type the entry code the organiser gave you, then Enter"),
}


def sex_words(sex: str | None) -> str:
    """His sex as the page shows it."""
    return {None: _("not given"), "m": _("a man"), "f": _("a woman")}[sex]


def born_ok(text: str) -> bool:
    """An empty year of birth, or four digits of a year not in the future."""
    import datetime

    return text == "" or (len(text) == 4 and 1900 <= int(text) <= datetime.date.today().year)


@dataclass(frozen=True, slots=True)
class OpenTournament:
    """Show the player's screen of this tournament (not a protocol message); ``entry`` None: entered before, on
    another run (the screen finds him by the table he is given)."""

    tournament: str
    entry: str | None = None
    name: str = ""


@dataclass(frozen=True, slots=True)
class OpenHall:
    """Show the spectators' hall of this tournament (not a protocol message)."""

    tournament: str


def info_cells(info: TournamentInfo) -> tuple[str, ...]:
    """A tournament of the list: its name, its state with the round, its entrants and tables being played."""
    state = _(TOURNAMENT_STATUS_WORDS.get(info.status, info.status))
    if info.round > 0:
        state = _("Round {n} — {state}").format(n=info.round, state=state)
    people = ngettext("{n} entrant", "{n} entrants", info.entries).format(n=info.entries)
    if info.playing:
        people += "  ·  " + ngettext("{n} table playing", "{n} tables playing", info.playing).format(n=info.playing)
    return (info.name or info.tournament, state, people)


class TournamentsPage(Page):
    """The tournaments of this server, then the one chosen."""

    def __init__(self) -> None:
        """Ask for the list when opened."""
        super().__init__()
        self.tournaments: tuple[TournamentInfo, ...] = ()
        self.chosen: TournamentInfo | None = None
        self.code = ""
        self.born = ""  # his year of birth and sex when he enters as himself (the Czech Cup's category follows)
        self.sex: str | None = None
        self.myself = False  # the step of entering as himself: his year of birth and sex, then Enter
        self.asking = True
        self.pending = False

    def first_request(self) -> ListTournaments:
        """The server's tournaments, newest first."""
        return ListTournaments()

    def heading(self) -> str:
        """The tournament chosen, else the page's name."""
        return self.chosen.name or self.chosen.tournament if self.chosen is not None else _("Tournaments")

    def subtitle(self) -> str:
        """Which part of the page this is."""
        return _("Enter this tournament or watch it") if self.chosen is not None else _("Tournaments on this server")

    def notes(self) -> tuple[str, ...]:
        """The chosen tournament's state, or that the list is on its way."""
        if self.chosen is not None:
            return (" · ".join(info_cells(self.chosen)[1:]),)
        return (_("Asking the server…"),) if self.asking else ()

    def wide(self) -> bool:
        """The list is a table."""
        return self.chosen is None

    def keys_help(self) -> str:
        """The entry code is typed on the chosen tournament's part."""
        if self.chosen is not None:
            return _("type your entry code   Enter use the code   Esc back")
        return super().keys_help()

    def items(self) -> list[Item]:
        """The list of tournaments, or the chosen one's choices."""
        if self.chosen is not None and self.myself:
            return self._myself_items()
        if self.chosen is not None:
            return self._chosen_items(self.chosen)
        found = [Item(info.name, f"choose:{info.tournament}", "room", _("Enter it, or watch it in the hall"),
                      cells=info_cells(info), stops=STOPS) for info in self.tournaments]
        if not found and not self.asking:
            found.append(Item(_("No tournaments on this server yet"), "none", "text", enabled=False))
        return [*found, Item(_("Refresh"), "refresh"), Item(_("Back"), "back")]

    def _chosen_items(self, info: TournamentInfo) -> list[Item]:
        """The entry code first (a club's organiser prepares the entries and hands out their codes), then entering
        as oneself - not while a code is typed, which would make a second entry beside the prepared one - or
        watching."""
        open_to_entries = info.status in ("registering", "playing", "between")
        ready = open_to_entries and not self.pending
        return [
            Item(_("Entry code: {code}_").format(code=self.code), "input", "input",
                 _("The code the organiser gave you, then Enter")),
            Item(_("Enter with this code"), "join_code", enabled=ready and bool(self.code),
                 hint=_("You take the entry the organiser prepared for you")),
            Item(_("Enter as myself (no code)"), "join", enabled=ready and not self.code,
                 hint=_("Only when the organiser prepared no entry for you: you play under your name on this server")
                 if not self.code else _("Delete the typed code first (Backspace)")),
            Item(_("Watch in the hall"), f"hall:{info.tournament}", hint=_("Standings, tables and the bracket")),
            Item(_("Back"), "back"),
        ]

    def _myself_items(self) -> list[Item]:
        """Entering as himself: his year of birth and sex (the Czech Cup's category follows; both may stay empty),
        then Enter."""
        return [
            Item(_("My year of birth: {year}_").format(year=self.born), "born", "input",
                 _("The Czech Cup's category follows from it (empty: not given)")),
            Item(_("I am: {sex}").format(sex=sex_words(self.sex)), "cycle:sex", "choice",
                 _("Women play in category L")),
            Item(_("Enter as myself"), "join_me", enabled=not self.pending and born_ok(self.born),
                 hint=_("You play under your name on this server")),
            Item(_("Back"), "back"),
        ]

    def activate(self, command: str) -> object | None:
        """Choose, enter, watch or go back."""
        self.error = ""
        verb, _sep, arg = command.partition(":")
        if verb == "choose":
            self.chosen = next((t for t in self.tournaments if t.tournament == arg), None)
            self.code, self.focus, self.myself = "", 0, False
            return None
        if verb == "refresh":
            self.asking = True
            return ListTournaments()
        if verb == "back" and self.myself:
            self.myself, self.focus = False, 0
            return None
        if verb == "back":
            if self.chosen is None:
                return Close()
            self.chosen, self.focus = None, 0
            return ListTournaments()
        if verb == "hall":
            return OpenHall(arg)
        if verb == "cycle":
            return self.cycle(command, 1)
        if verb == "join" and self.chosen is not None and not self.pending and not self.code:
            self.myself, self.focus = True, 0  # his year of birth and sex first
            return None
        if verb in ("join_me", "born") and self.chosen is not None and not self.pending and self.myself:
            if not born_ok(self.born):
                self.error = _("A year of birth of four digits, not in the future")
                return None
            self.pending = True
            return JoinTournament(self.chosen.tournament, None, year_of_birth=int(self.born) if self.born else None,
                                  sex=self.sex)
        if verb in ("join", "join_code", "input") and self.chosen is not None and not self.pending:
            if verb != "join" and not self.code:
                self.error = _("Type the entry code the organiser gave you first")
                return None
            if verb == "join" and self.code:
                return None  # a typed code is never dropped for a second entry under his own name
            self.pending = True
            return JoinTournament(self.chosen.tournament, self.code)
        return None

    def type_text(self, text: str) -> None:
        """Letters and digits of an entry code, or the digits of his year of birth in its step."""
        if self.chosen is None:
            return
        if self.myself:
            self.born = (self.born + "".join(c for c in text if c.isdigit()))[:4]
            return
        for char in text.upper():
            if char.isalnum() and len(self.code) < CODE_LENGTH:
                self.code += char

    def backspace(self) -> None:
        """Delete the last character of the field in use."""
        if self.myself:
            self.born = self.born[:-1]
        else:
            self.code = self.code[:-1]

    def cycle(self, command: str, step: int) -> object | None:
        """←/→ on his sex."""
        if command == "cycle:sex":
            order: tuple[str | None, ...] = (None, "m", "f")
            self.sex = order[(order.index(self.sex) + step) % len(order)]
        return None

    def apply(self, message: object) -> bool:
        """The list, the entry's confirmation, or a refusal of ours."""
        if isinstance(message, TournamentList):
            self.tournaments, self.asking = message.tournaments, False
            if self.chosen is not None:
                self.chosen = next((t for t in message.tournaments if t.tournament == self.chosen.tournament),
                                   self.chosen)
            self.settle_focus()
            return True
        if isinstance(message, TournamentJoined):
            self.pending = False
            return False  # the navigator opens the player's screen
        if isinstance(message, Error) and message.ref in ("ListTournaments", "JoinTournament"):
            self.pending, self.asking = False, False
            self.error = _(ENTRY_REFUSALS[message.code]) if message.code in ENTRY_REFUSALS else \
                _("Refused: {why}").format(why=message.message)
            if message.code in ("NAME_TAKEN", "BAD_ENTRY_CODE"):
                self.myself, self.focus = False, 0  # the code field, to type (again)
            return message.code != "ALREADY_ENTERED"  # already his: the navigator opens his screen
        return False



"""The organiser's desk as plain data: which screen is up, the forms being filled in, the tournament as the server last
told it, and the organiser's acts as protocol requests carrying his secret (pure: no arcade, no sockets, no files).

Why a model: every act of the organiser (docs/PROTOCOL.md "Tournaments") is one request answered by one message, and
every one of them changes a real event, so each goes through a confirmation screen that says what will happen and
whether it can be undone. The screens are ``client.common.menu`` pages painted by ``client.desk.desk_view``; a command
in gives a request (or a local act: watch a table, read a tournament file, export) out, and the server's messages come
back in through ``apply``, so the whole desk is tested against a real server without a window.

What can be undone is what the protocol lets the organiser take back: a registration (the entry is withdrawn again
before round 1), an override (set back to the result it replaced, XVII.5), the automatic start (switched off) and a
coach's mute in the tournament's chat (he is unmuted).
A check-in, a card, a ruling, a round started and the end are kept by the audit log and cannot be taken back; the
confirmation screen says so before the act.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from client.common.i18n import N_, _
from client.common.menu import QUIT, Item, Page, focusable
from client.common.ranking_model import categories_of, with_category
from client.common.tournament_model import clock_text, entered_words
from client.desk import desk_create, desk_cup
from client.desk.desk_create import CREATE_CHOICES, CREATE_HINTS, CREATE_LABELS, minutes_text
from shared.protocol import (
    AutoStartRounds,
    CaseLine,
    CheckIn,
    ClientMessage,
    CreateTournament,
    EndTournament,
    EnterResult,
    EntriesRegistered,
    EntryCode,
    EntryForm,
    EntryLine,
    Error,
    GiveCard,
    MuteEntry,
    OverrideResult,
    PlayOnBoards,
    RegisterEntries,
    ResolveDispute,
    Score,
    SetReferee,
    StartRound,
    TableLine,
    TournamentCreated,
    TournamentDone,
    TournamentUpdate,
    UnlinkEntry,
    WatchTournament,
    Welcome,
    WithdrawEntry,
)
from shared.protocol.web_address import tournament_page, web_base

PAGE_ROWS = 10  # rows of a list screen (entries, standings) per page
ENTRY_STOPS = (0.0, 0.3, 0.52, 0.775)  # an entry's name, club, state, code: the code whole, to hand out
CHAT_STOPS = (0.0, 0.42, 0.7)  # an entry's name, club, whether he may chat
TILES_PER_ROW = 2
MAX_GOALS = 30
LINE_CHARS = 72  # a confirmation's line at most (the wide panel holds ~90 of its bold characters)
TEXT_LIMITS = {"name": 100, "club": 64, "category": 32, "rating": 4, "reason": 200, "path": 400, "out": 400,
               "born": 4}


@dataclass(frozen=True, slots=True)
class WatchTable:
    """Open a spectator's window on a table's room (not a protocol message: the desk's owner starts it)."""

    room: str


@dataclass(frozen=True, slots=True)
class OpenTournamentFile:
    """Read a tournament file and create the tournament from it (not a protocol message: the owner reads the file
    and gives its text to ``DeskModel.file_request``)."""

    path: str


@dataclass(frozen=True, slots=True)
class ExportTournament:
    """Write the tournament's file, standings (JSON, CSV), audit log and replays into ``out`` (not a protocol
    message: the owner reads the server's data directory, as ``sprtec tournament export`` does)."""

    tournament: str
    out: str


@dataclass(frozen=True, slots=True)
class PrintSheets:
    """Write the printed sheets - the entry list, the round's sheet for the referees, the standings, the final
    ranking by category - as one PDF into ``out`` (not a protocol message: the owner reads the server's data
    directory, as ``sprtec tournament print --data`` does)."""

    tournament: str
    out: str


@dataclass(frozen=True, slots=True)
class CloseDesk:
    """Close the desk's window, which stops its server (not a protocol message; asked first)."""


@dataclass(frozen=True, slots=True)
class Pending:
    """An act waiting for the organiser's yes: what it does in words, whether and how it can be undone, the request
    and, when it can be undone, how (a function of the answer that made it, giving the undoing request)."""

    question: str
    undo_note: str
    request: ClientMessage | ExportTournament | PrintSheets | CloseDesk
    undo: Callable[[object], tuple[str, ClientMessage] | None] | None = None


CARDS = {"yellow": N_("yellow card"), "red": N_("red card"), "disqualified": N_("disqualification")}
RULINGS = {"stands": N_("the result stands"), "changed": N_("the result is changed"),
           "replay": N_("the match is played again")}
RESULTS = ("score", "home", "away")  # a result given by hand: a score, or a walkover for home or away
# What a refusal means for the organiser, by the server's code (its message, in English, follows as the detail)
REFUSALS = {
    "BAD_FORMAT": N_("the file or a value is not of the tournament file's form"),
    "BAD_RESULT": N_("that result, card or walkover does not fit the match or round"),
    "BAD_SETTINGS": N_("a stage's settings cannot be played"),
    "UNKNOWN_PLAYER": N_("the tournament has no such player"),
    "DUPLICATE_PLAYER": N_("the tournament has that player already"),
    "PLAYED_TWICE": N_("a player would play twice in one round"),
    "ROUND_ORDER": N_("that cannot come now: a round is still being played"),
    "NOTHING_TO_PAIR": N_("the tournament is complete: there is no next round"),
    "NO_PAIRING": N_("no legal pairing of the next round exists"),
    "NO_CASE": N_("there is no such dispute"),
    "NOT_ORGANISER": N_("the organiser's secret does not match this tournament"),
    "TOURNAMENT_NOT_FOUND": N_("this server has no such tournament"),
    "TOURNAMENT_CLOSED": N_("the tournament has ended"),
    "RATE_LIMITED": N_("too many requests at once: wait a moment"),
    "STORE_UNAVAILABLE": N_("the server cannot save right now: nothing changed"),
    "NOT_ON_BOARD": N_("that table is played online: its result comes from its match"),
    "RESULT_ENTERED": N_("that board has another result already: override it with a reason"),
    "REFEREE_CONFLICT": N_("that referee plays at the board or is of a player's club (XVII.2): only if both "
                           "players agree (XVII.3)"),
    "MATCH_STARTED": N_("that table's match is being played online already"),
}
STATUS_WORDS = {"registering": N_("registration"), "playing": N_("round being played"),
                "between": N_("between rounds"), "finished": N_("finished"), "ended": N_("ended")}


def result_text(table: TableLine) -> str:
    """A table's score or result as a short text."""
    if table.status == "walkover" and table.walkover is not None:
        return _("walkover {side}").format(side=_("home") if table.walkover == "home" else _("away"))
    if table.score is None:
        return "–:–"
    text = f"{table.score.home}:{table.score.away}"
    if table.shootout is not None:
        text += " " + _("(shoot-out {side})").format(side=_("home") if table.shootout == "home" else _("away"))
    return text


class DeskModel(Page):
    """The organiser's desk: the create form, the tournament's home, registration, check-in, the live tables, the
    standings, cards, overrides, disputes, export and the server's address; ``apply`` takes the server's news."""

    def __init__(self, *, server: str, addresses: tuple[str, ...] = (), tournament: str | None = None,
                 secret: str | None = None, seed: int = 1, export_dir: str = "") -> None:
        """A desk for the server at ``server`` (its LAN addresses ``addresses``); ``tournament`` and ``secret``
        reopen a running tournament, else the create form is first. ``seed`` is the new tournament's draw seed."""
        super().__init__()
        self.server = server
        self.addresses = addresses
        self.tournament = tournament
        self.secret = secret
        self.seed = seed
        self.export_dir = export_dir
        self.update: TournamentUpdate | None = None
        self.screen = "home" if tournament else "create"
        self.back_to = "home"
        self.pending: Pending | None = None
        self.sent: ClientMessage | None = None  # the act asked and not answered yet
        self.auto_ms: int | None = None  # the automatic start of rounds set at this desk (None: off or not known)
        self.undo: tuple[str, ClientMessage] | None = None  # the last act that can be taken back: its label, how
        self.codes: dict[str, str] = {}  # entry -> its code, as the server told it (once)
        self.last_code: EntryCode | None = None
        self.created: TournamentCreated | None = None  # the owner keeps its secret
        self.done = ""  # what the last act did
        self.page = 0
        self.connected = False
        self.form: dict[str, Any] = {"name": "", "path": "", "club": "", "category": "", "rating": "",
                                     "reason": "", "out": export_dir, "born": "", "sex": None, "veteran": False,
                                     "first": 0, "second": 1, "view": ""}
        self.form.update({key: choice.options[0] for key, choice in CREATE_CHOICES.items()})
        self.form.update({"entry": 0, "card": "yellow", "table": 0, "board": 0, "referee": 0, "agreed": False,
                          "result": "score", "home": 0, "away": 0, "shootout": None, "case": None, "ruling": "stands"})
        self.status = _("Server {url}").format(url=server)

    # ----------------------------------------------------------------- what the server says
    def first_requests(self) -> list[ClientMessage]:
        """What to ask when the desk connects: the tournament's updates, when there is one."""
        return [WatchTournament(self.tournament)] if self.tournament else []

    def apply(self, message: object) -> list[ClientMessage]:
        """A server message; returns what to ask next (watching a tournament just created)."""
        if isinstance(message, TournamentUpdate) and message.tournament == self.tournament:
            if self.update is None or message.sequence >= self.update.sequence:
                self.update = message
            return []
        if isinstance(message, TournamentCreated) and self.tournament is None:
            self.created = message
            self.tournament, self.secret = message.tournament, message.secret
            self.codes.update({e.entry: e.code for e in message.entries})
            if isinstance(self.sent, CreateTournament):
                self.auto_ms = self.sent.next_round_after_ms
            self.sent, self.screen, self.pending = None, "home", None
            self.done = _("Tournament {id} created").format(id=message.tournament)
            return [WatchTournament(message.tournament)]
        if isinstance(message, EntriesRegistered) and message.tournament == self.tournament:
            self.codes.update({e.entry: e.code for e in message.entries})
            self.last_code = message.entries[0] if message.entries else None
            self._answered(message)
            self.screen = "code" if self.last_code is not None else "home"
            return []
        if isinstance(message, TournamentDone) and message.tournament == self.tournament:
            self._answered(message)
            return []
        if isinstance(message, Error) and self.sent is not None and message.ref in (type(self.sent).__name__, None):
            self.error = refusal_text(message)
            self.sent = None
            return []
        if isinstance(message, Welcome):
            self.connected = True
            self.status = _("Server {url} — connected").format(url=self.server)
        return []

    def _answered(self, answer: object) -> None:
        """The act asked was done: say so, and keep how to take it back when it can be."""
        asked, self.sent = self.sent, None
        self.error = ""
        if asked is None:
            return
        if isinstance(asked, AutoStartRounds):
            self.auto_ms = asked.after_ms
        self.done = _("Done: {act}").format(act=act_name(asked))
        undo = self.pending.undo if self.pending is not None and self.pending.request is asked else None
        self.undo = undo(answer) if undo is not None else None
        self.pending = None

    def file_request(self, text: str) -> ClientMessage:
        """The request that creates a tournament from a file's text (as the owner read it)."""
        self.sent = CreateTournament(file=text)
        return self.sent

    def not_sent(self) -> None:
        """The connection was down: the act asked was not sent (nothing changed on the server)."""
        self.sent, self.pending = None, None
        self.error = _("Not connected to the server: nothing was done — try again in a moment")

    def unreadable(self, path: str, problem: str) -> None:
        """The tournament file could not be read."""
        self.error = _("Cannot read {path}: {problem}").format(path=path, problem=problem)

    def exported(self, files: tuple[str, ...], problem: str = "") -> None:
        """What the export wrote (or why it could not)."""
        self.pending = None
        if problem:
            self.error = _("Export failed: {problem}").format(problem=problem)
        else:
            self.error = ""
            self.done = _("Exported {n} files to {dir}").format(n=len(files), dir=self.form["out"])
        self.screen = "home"

    def printed(self, path: str, sheets: int, problem: str = "") -> None:
        """What the print wrote (the PDF and how many sheets it has), or why it could not."""
        self.pending = None
        if problem:
            self.error = _("Printing failed: {problem}").format(problem=problem)
        else:
            self.error = ""
            self.done = _("{n} sheets to print in {path}").format(n=sheets, path=path)
        self.screen = "home"

    # ----------------------------------------------------------------- the tournament, read
    def entries(self) -> tuple[EntryLine, ...]:
        """The tournament's entrants."""
        return self.update.entries if self.update is not None else ()

    def tables(self) -> tuple[TableLine, ...]:
        """The current round's tables."""
        return self.update.tables if self.update is not None else ()

    def on_boards(self) -> bool:
        """The current stage's matches are played on physical boards."""
        return self.update is not None and self.update.on_boards

    def boards(self) -> tuple[TableLine, ...]:
        """The round's matches on physical boards still without a result (their scores come by hand)."""
        return tuple(t for t in self.tables() if t.on_board and t.status in ("board", "replay"))

    def open_cases(self) -> tuple[CaseLine, ...]:
        """The disputes waiting for the organiser's ruling."""
        cases = self.update.cases if self.update is not None else ()
        return tuple(c for c in cases if c.kind == "dispute" and c.status == "open")

    def entry_name(self, entry: str) -> str:
        """An entry's name."""
        return next((e.name for e in self.entries() if e.entry == entry), entry)

    def entry_label(self, entry: str) -> str:
        """An entry's name with its club and id, which tell apart two entries of alike names (a player's own entry
        beside the one prepared for him) in a question that acts on one of them."""
        line = next((e for e in self.entries() if e.entry == entry), None)
        if line is None:
            return entry
        return f"{line.name} ({line.club}, {entry})" if line.club else f"{line.name} ({entry})"

    def running(self) -> bool:
        """True while the tournament has rounds to come."""
        return self.update is not None and (self.update.status not in ("finished", "ended") or self.registering())

    def registering(self) -> bool:
        """True before round 1. (The server calls a tournament without two players yet ``finished``: its field has
        nothing to pair; before round 1 the desk reads that as registration.)"""
        update = self.update
        return update is not None and update.round == 0 and update.status in ("registering", "finished")

    def urls(self) -> tuple[str, ...]:
        """Every address players may type: each LAN address, or the server's own."""
        return self.addresses or (self.server,)

    def page_url(self) -> str:
        """What the QR code opens on a phone: the tournament's web page on the first address (the server serves it
        on the game's port), or the server's home page before a tournament exists."""
        first = self.urls()[0]
        return tournament_page(first, self.tournament) if self.tournament is not None else web_base(first)

    # ----------------------------------------------------------------- Menu
    def heading(self) -> str:
        """The tournament's name, or the desk's."""
        return self.update.name if self.update is not None else _("Organiser's desk")

    def subtitle(self) -> str:
        """Which screen, and how the tournament stands."""
        titles = {"create": _("Create a tournament"), "register": _("Register a player"),
                  "code": _("The entry code to hand out"), "entries": _("Entries and check-in"),
                  "tables": _("Tables"), "standings": _("Standings"), "bracket": _("Bracket"), "card": _("Give a card"),
                  "override": _("Override a result (XVII.5)"), "disputes": _("Disputes (XVII)"),
                  "board": _("Board results"),
                  "export": _("Export and print"), "end": _("End the tournament"), "confirm": _("Please confirm"),
                  "chat": _("Chat at the tables"), "claims": _("Undo a wrong claim"),
                  "address": _("The server's address"), "ranking": _("Ranking by category"),
                  "round": _("Round: swap or take back")}
        if self.screen in titles:
            return titles[self.screen]
        if self.update is None:
            return _("Tournament {id} — waiting for the server").format(id=self.tournament)
        status = "registering" if self.registering() else self.update.status
        words = _(STATUS_WORDS.get(status, status))
        if self.update.round == 0:  # no round paired yet: "round 0" is no round at all
            return _("Tournament {id} — {status}").format(id=self.tournament, status=words)
        return _("Tournament {id} — round {round}, {status}").format(id=self.tournament, round=self.update.round,
                                                                     status=words)

    def notes(self) -> tuple[str, ...]:
        """The address players connect to, and what the last act did."""
        found = [_("Players connect to {urls}").format(urls="   ".join(self.urls()))]
        if self.update is not None and self.update.next_round_ms is not None and self.screen == "home":
            found.append(_("The next round starts by itself in {time}").format(
                time=clock_text(self.update.next_round_ms)))
        if self.done and self.screen != "confirm":
            found.append(self.done)
        return tuple(found)

    def wide(self) -> bool:
        """Lists, forms and the tables take the wide panel."""
        return self.screen != "address"  # the code's screen too: its instructions are read whole

    def keys_help(self) -> str:
        """The menu's keys."""
        return _("↑↓ choose   Enter select   ←→ change   type into a field   Esc back")

    def items(self) -> list[Item]:
        """The lines of the current screen."""
        screen = getattr(self, f"_items_{self.screen}")
        found: list[Item] = screen()
        return found

    # ----------------------------------------------------------------- screens
    def _input(self, key: str, label: str, hint: str = "") -> Item:
        """A text field."""
        return Item(label.format(value=self.form[key]) + "_", f"field:{key}", "input", hint)

    def _choice(self, key: str, label: str, hint: str = "") -> Item:
        """A choice cycled with ←/→ (or a click)."""
        return Item(label.format(value=self.shown(key)), f"cycle:{key}", "choice", hint)

    def shown(self, key: str) -> str:
        """A form choice's value as shown."""
        return CREATE_CHOICES[key].show(self.form[key]) if key in CREATE_CHOICES else self._shown_act(key)

    def _shown_act(self, key: str) -> str:
        """The value of an act's choice as shown."""
        value = self.form[key]
        if key == "entry":
            found = self._card_entries()
            return found[value % len(found)].name if found else _("nobody")
        if key == "card":
            return _(CARDS[value])
        if key == "referee":
            found = self.referees()
            return found[value % len(found)].name if found else _("nobody")
        if key == "board":
            boards = self.boards()
            if not boards:
                return _("no board waits for its result")
            line = boards[value % len(boards)]
            return _("Board {n}: {home} – {away}").format(n=line.table, home=line.home_name, away=line.away_name)
        if key == "table":
            tables = self.tables()
            if not tables:
                return _("no table")
            table = tables[value % len(tables)]
            return _("table {n}: {home} – {away}").format(n=table.table, home=table.home_name, away=table.away_name)
        if key == "result":
            return {"score": _("a score"), "home": _("walkover for home"), "away": _("walkover for away")}[value]
        if key == "shootout":
            return _("none") if value is None else _("won by {side}").format(
                side=_("home") if value == "home" else _("away"))
        if key == "ruling":
            return _(RULINGS[value])
        return str(value)

    def _items_create(self) -> list[Item]:
        """The create form: name, system and stages, ruleset, points, rounds, walkover and card settings; or a file."""
        found = [self._input("name", _("Name: {value}"), _("The tournament's name as everyone sees it"))]
        keys = [k for k in CREATE_CHOICES if not (k == "rounds" and self.form["system"] != "swiss")
                and not (k == "playoff" and self.form["system"] == "knockout")]
        found += [self._choice(k, _(CREATE_LABELS[k]), _(CREATE_HINTS[k]) if k in CREATE_HINTS else "") for k in keys]
        found.append(Item(_("Create the tournament"), "create", enabled=bool(self.form["name"].strip())
                          and self.sent is None))
        found.append(self._input("path", _("Or a tournament file: {value}"),
                                 _("The path of a tournament file (docs/TOURNAMENT.md), then Open the file")))
        found.append(Item(_("Open the file"), "open-file", enabled=bool(self.form["path"].strip())
                          and self.sent is None, group="file-row"))
        found.append(Item(_("Quit"), "quit", group="file-row"))
        return found

    def _items_home(self) -> list[Item]:
        """The tournament's home: every act of the organiser."""
        on = self.update is not None and self.running()
        registering = self.registering()
        playing = self.update is not None and self.update.status == "playing"
        found = [
            Item(_("Register a player"), "screen:register", enabled=on, group="row1",
                 hint=_("Name, club, category: the player gets an entry code to take his place with")),
            Item(_("Entries and check-in ({n})").format(n=len(self.entries())), "screen:entries", group="row1",
                 hint=_("Check each player in: an entry not checked in is absent from the round")),
            *(self._round_items(on, playing) if on or self.update is None else
              [Item(_("The tournament has ended: see Standings and Export"), "ended", enabled=False,
                    group="row2")]),  # a row of the buttons' height: nothing below moves at the end
            Item(_("Tables ({n})").format(n=len(self.tables())), "screen:tables", group="row3",
                 hint=_("Every table of the round, live: click one to watch it")),
            Item(_("Standings"), "screen:standings", group="row3"),
            Item(_("Ranking by category"), "screen:ranking", group="row3",
                 hint=_("Every player across the stages: categories, their winners and the Czech Cup points")),
            *([Item(_("Bracket"), "screen:bracket", group="row3")] if self.update and self.update.bracket else []),
            Item(_("Physical boards: {state}").format(state=_("yes") if self.on_boards() else _("no")), "boards",
                 enabled=on, group="boards",
                 hint=_("The matches are played on real boards: no rooms, each board's score entered by hand")),
            *([Item(_("Board results ({n})").format(n=len(self.boards())), "screen:board",
                    enabled=bool(self.boards()), group="boards",
                    hint=_("Enter the score of a match played on a physical board, from the referee's sheet"))]
              if any(t.on_board for t in self.tables()) else []),
            Item(_("Give a card"), "screen:card", enabled=on and not registering, group="row4"),
            Item(_("Override a result"), "screen:override", enabled=bool(self.tables()), group="row4"),
            Item(_("Round: swap or take back"), "screen:round", enabled=on and desk_cup.round_untouched(self.update),
                 group="row4", hint=_("Before the round's matches begin: swap two players, or take the round back")),
            Item(_("Disputes ({n})").format(n=len(self.open_cases())), "screen:disputes", group="row4"),
            Item(_("Export, print"), "screen:export", group="row5",
                 hint=_("The tournament file, the standings (JSON, CSV), the audit log and every replay; the "
                        "printed sheets (PDF)")),
            Item(_("The address and QR code"), "screen:address", group="row5"),
            Item(_("End the tournament"), "screen:end", enabled=on, group="row5"),
        ]
        # always there, so no button moves under the pointer when an act becomes undoable
        found.append(Item(_("Undo: {act}").format(act=self.undo[0]) if self.undo is not None else
                          _("Undo (nothing to undo)"), "undo", enabled=self.undo is not None, group="row6",
                          hint=_("Take the last act back (asks first)")))
        found.append(Item(_("Close the desk (stops the server)"), "close", group="row6",
                          hint=_("Asks first: the players' connections close with the server")))
        return found

    def _round_items(self, on: bool, playing: bool) -> list[Item]:
        """Starting the next round, by hand or by itself (while the tournament has rounds to come); during its last
        round, that it is the last."""
        auto = minutes_text(None if self.auto_ms is None else self.auto_ms // 60_000)
        coming = self.coming_round()
        if coming is None:
            start = Item(_("Round {n} is the last").format(n=self.update.round if self.update else 0), "start",
                         enabled=False, group="row2",
                         hint=_("No round is left to start: the standings are final once its matches end"))
        else:
            start = Item(self._start_text(coming), "start", enabled=on and not playing, group="row2",
                         hint=_("Pair the next round and open its tables"))
        return [start, Item(_("Automatic start: {state}").format(state=auto), "auto", enabled=on and coming is not None,
                            group="row2",
                            hint=_("Start each next round by itself a few minutes after the last match ends"))]

    def coming_round(self) -> tuple[int, int] | None:
        """The (stage, round) that Start round pairs, as the server says (``TournamentUpdate.next_stage`` and
        ``next_round``); None once the last round has been paired. Before round 1 always stage 1's first round (a
        field too small to pair yet has no round to come on the server)."""
        update = self.update
        if update is None or self.registering():
            return 0, 1
        if update.next_stage is None or update.next_round is None:
            return None
        return update.next_stage, update.next_round

    def _start_text(self, coming: tuple[int, int], *, asking: bool = False) -> str:
        """The start button's words ("Start round N"), naming the stage when the round is the next stage's first."""
        stage, number = coming
        if self.update is not None and stage != self.update.stage:
            text = _("Start stage {s}, round {n}?") if asking else _("Start stage {s}, round {n}")
            return text.format(s=stage + 1, n=number)
        return (_("Start round {n}?") if asking else _("Start round {n}")).format(n=number)

    def _items_register(self) -> list[Item]:
        """The registration form."""
        return [self._input("name", _("Player: {value}"), _("The player's name as everyone sees it")),
                self._input("club", _("Club: {value}")),
                self._input("category", _("Category: {value}"),
                            _("Empty: from the year of birth and sex; a code P Z J L M V sets it")),
                self._input("rating", _("Rating: {value}"), _("For seeding by rating; empty: none")),
                *desk_cup.register_items(self),
                Item(_("Register"), "register", enabled=bool(self.form["name"].strip()) and self._rating_ok()
                     and desk_cup.born_ok(self.form["born"], this_year())),
                Item(_("Back"), "back")]

    def _items_code(self) -> list[Item]:
        """The entry code just told, large, to hand to the player."""
        code = self.last_code
        found = [Item(_("{name} — entry {entry}").format(name=code.name, entry=code.entry) if code else "", "none",
                      "text"),
                 Item(code.code if code else "", "none", "big"),
                 Item(_("The player: sprtec play → {tournaments} → {tournament}").format(tournaments=_("Tournaments"),
                                                                                           tournament=self.heading()),
                      "none", "text"),
                 Item(_("types this code and presses Enter (the button “{button}”)").format(
                     button=_("Enter with this code")), "none", "text"),
                 Item(_("— not “{button}”, which would make him a second entry").format(
                     button=_("Enter as myself (no code)")), "none", "text"),
                 Item(_("Register another player"), "screen:register"),
                 Item(_("Back"), "back")]
        return found

    def _items_entries(self) -> list[Item]:
        """The entrants, a page at a time: check in, withdraw, each one's code when the desk knows it."""
        entries = self.entries()
        start = self.page * PAGE_ROWS
        found: list[Item] = []
        stops = ENTRY_STOPS
        categories = categories_of(self.update)
        for entry in entries[start:start + PAGE_ROWS]:
            state = _("out") if entry.out else _("checked in") if entry.checked_in else _("not checked in")
            coach = self.codes.get(entry.entry, "") if not entry.claimed else _("claimed")
            found.append(Item(entry.name, "none", "room", enabled=False, cells=(
                with_category(entry.name, categories.get(entry.entry, "")), entry.club, state, coach), stops=stops,
                group=f"e:{entry.entry}", weight=6))
            found.append(Item(_("Check in"), f"checkin:{entry.entry}",
                              enabled=self.running() and not entry.checked_in and not entry.out,
                              group=f"e:{entry.entry}", weight=1.4))
            found.append(Item(_("Withdraw"), f"withdraw:{entry.entry}", enabled=self.running() and not entry.out,
                              group=f"e:{entry.entry}", weight=1.4))
        if not entries:
            found.append(Item(_("Nobody is registered yet"), "none", "text"))
        found += self._pager(len(entries))
        if entries:
            found.append(Item(_("Mute a coach in the chat"), "screen:chat", group="more",
                              hint=_("Silence a coach in the tournament's chat at every table, or let him speak")))
            found.append(Item(_("Undo a wrong claim"), "screen:claims", group="more",
                              hint=_("A player took an entry that is not his: the entry gets a new code")))
        found.append(Item(_("Back"), "back"))
        return found

    def _items_claims(self) -> list[Item]:
        """The entrants a player claimed, a page at a time, each with Unlink (the entry gets a fresh code)."""
        entries = [e for e in self.entries() if e.claimed]
        start = self.page * PAGE_ROWS
        found: list[Item] = []
        for entry in entries[start:start + PAGE_ROWS]:
            state = _("out") if entry.out else _("checked in") if entry.checked_in else _("not checked in")
            found.append(Item(entry.name, "none", "room", enabled=False, cells=(entry.name, entry.club, state),
                              stops=CHAT_STOPS, group=f"u:{entry.entry}", weight=6))
            found.append(Item(_("Unlink"), f"unlink:{entry.entry}", enabled=self.running(),
                              group=f"u:{entry.entry}", weight=1.6))
        if not entries:
            found.append(Item(_("No entry has been claimed yet"), "none", "text"))
        found += self._pager(len(entries))
        found.append(Item(_("Back"), "back"))
        return found

    def _items_chat(self) -> list[Item]:
        """The entrants, a page at a time, each with whether he may chat at the tables and Mute or Unmute."""
        entries = self.entries()
        start = self.page * PAGE_ROWS
        found: list[Item] = []
        for entry in entries[start:start + PAGE_ROWS]:
            state = _("muted in the chat") if entry.chat_muted else _("may chat")
            found.append(Item(entry.name, "none", "room", enabled=False, cells=(entry.name, entry.club, state),
                              stops=CHAT_STOPS, group=f"c:{entry.entry}", weight=6))
            found.append(Item(_("Unmute") if entry.chat_muted else _("Mute"),
                              f"{'unmute' if entry.chat_muted else 'mute'}:{entry.entry}", enabled=self.running(),
                              group=f"c:{entry.entry}", weight=1.6))
        found += self._pager(len(entries))
        found.append(Item(_("Back"), "back"))
        return found

    def _pager(self, total: int, rows: int = PAGE_ROWS) -> list[Item]:
        """Previous and next page buttons, when there is more than a page of ``rows``."""
        if total <= rows:
            return []
        pages = (total + rows - 1) // rows
        return [Item(_("Previous page"), "page:-1", enabled=self.page > 0, group="pager"),
                Item(_("Page {n} of {of}").format(n=self.page + 1, of=pages), "none", "text", group="pager"),
                Item(_("Next page"), "page:1", enabled=self.page + 1 < pages, group="pager")]

    def _items_tables(self) -> list[Item]:
        """A tile per table (the view draws it as ``client.common.tournament_widgets`` does); a click watches it."""
        found = []
        for i, table in enumerate(self.tables()):
            can_watch = table.room is not None and table.status in ("waiting", "playing")
            found.append(Item(_("Table {n}").format(n=table.table), f"watch:{table.room}" if can_watch else "none",
                              "tile", _("Click to watch this match") if can_watch else "",
                              cells=(str(table.table), table.status, result_text(table), table.part or "",
                                     str(table.part_ms), str(table.no_show_ms)),
                              group=f"tiles{i // TILES_PER_ROW}"))
        if len(found) % TILES_PER_ROW:  # the last row's tiles as wide as the others
            found += [Item("", "none", "text", group=found[-1].group)] * (TILES_PER_ROW - len(found) % TILES_PER_ROW)
        if not found:
            found.append(Item(_("No tables: the round has not started"), "none", "text"))
        if self.update is not None and self.update.byes:
            names = ", ".join(self.entry_name(e) for e in self.update.byes)
            found.append(Item(_("Bye: {names}").format(names=names), "none", "text"))
        found.append(Item(_("Back"), "back"))
        return found

    def _items_standings(self) -> list[Item]:
        """The standings are drawn above (the shared standings table); here only the way back."""
        if self.update is None or not self.update.standings:
            return [Item(_("No standings before the first round"), "none", "text"), Item(_("Back"), "back")]
        return [Item(_("Back"), "back")]

    def _items_ranking(self) -> list[Item]:
        """The final ranking is drawn above; here its views: everybody, or one category."""
        return desk_cup.ranking_items(self)

    def _items_round(self) -> list[Item]:
        """The round's tools before its matches begin: swap two players, take the round back."""
        return desk_cup.round_items(self)

    def _items_bracket(self) -> list[Item]:
        """The knockout bracket is drawn above; here only the way back."""
        return [Item(_("Back"), "back")]

    def _items_card(self) -> list[Item]:
        """The card form: who, which card, why."""
        ready = bool(self._card_entries()) and bool(self.form["reason"].strip())
        return [self._choice("entry", _("Coach: {value}")),
                self._choice("card", _("Card: {value}"), _("Cards count for suspensions (TOURNAMENT.md)")),
                self._input("reason", _("Reason: {value}"), _("Why: it is shown to the coach and kept in the log")),
                Item(_("Give the card"), "card", enabled=ready),
                Item(_("Back"), "back")]

    def _result_items(self) -> list[Item]:
        """The fields of a result given by hand: a score (with a shoot-out's winner) or a walkover."""
        found = [self._choice("result", _("Result: {value}"))]
        if self.form["result"] == "score":
            found.append(Item(_("Home goals: {n}").format(n=self.form["home"]), "cycle:home", "choice",
                              group="goals"))
            found.append(Item(_("Away goals: {n}").format(n=self.form["away"]), "cycle:away", "choice",
                              group="goals"))
            found.append(self._choice("shootout", _("Shoot-out: {value}"),
                                      _("Only for a drawn knockout match: who won the shoot-out")))
        return found

    def _items_override(self) -> list[Item]:
        """The override form: which table, the result, why."""
        ready = bool(self.tables()) and bool(self.form["reason"].strip())
        return [self._choice("table", _("Match: {value}")), *self._result_items(),
                self._input("reason", _("Reason: {value}"), _("XVII.5: an override needs a reason; it is logged")),
                Item(_("Set the result"), "override", enabled=ready),
                Item(_("Back"), "back")]

    def _items_board(self) -> list[Item]:
        """The result form of a board: which board (its referee and any coach's entry shown), the result."""
        boards = self.boards()
        found = [Item(self.shown("board"), "cycle:board", "choice",
                      _("The boards of the round still without a result: ←/→ chooses"))]
        if boards:
            line = boards[self.form["board"] % len(boards)]
            referee = _("Referee: {name}").format(name=line.referee_name) if line.referee_name else _(
                "No referee named yet")
            found.append(Item(referee, "none", "text"))
            if line.entered_by is not None:
                found.append(Item(entered_words(line), "none", "text"))
        found += [*self._result_items(),
                  Item(_("Enter the result"), "board", enabled=bool(boards)),
                  Item(_("Referee to name: {name}").format(name=self.shown("referee")), "cycle:referee", "choice",
                       _("XVII.2: never a player of the board, nor of either player's club"), group="referee"),
                  Item(_("Both players agree (XVII.3): {value}").format(
                      value=_("yes") if self.form["agreed"] else _("no")), "cycle:agreed", "choice",
                      group="referee"),
                  Item(_("Name the referee"), "referee", enabled=bool(boards) and bool(self.referees())),
                  Item(_("Back"), "back")]
        return found

    def _items_disputes(self) -> list[Item]:
        """The open disputes; the chosen one's ruling, result and reason."""
        found: list[Item] = []
        for case in self.open_cases():
            chosen = self.form["case"] == case.id
            found.append(Item(_("Case {id}: table {table} of round {round}, by {by}: {reason}").format(
                id=case.id, table=case.table, round=case.round, by=self.entry_name(case.by), reason=case.reason)
                + ("  ✓" if chosen else ""), f"case:{case.id}", "room"))
        if not found:
            return [Item(_("No dispute is waiting for a ruling"), "none", "text"), Item(_("Back"), "back")]
        if self.form["case"] is not None:
            found.append(self._choice("ruling", _("Ruling: {value}")))
            if self.form["ruling"] == "changed":
                found += self._result_items()
            found.append(self._input("reason", _("Reason: {value}")))
            found.append(Item(_("Decide"), "resolve", enabled=bool(self.form["reason"].strip())))
        found.append(Item(_("Back"), "back"))
        return found

    def _items_export(self) -> list[Item]:
        """Where to export."""
        return [self._input("out", _("Folder: {value}"), _("Created if need be")),
                Item(_("Export the file, standings (JSON, CSV), audit log and replays"), "export",
                     enabled=bool(self.form["out"].strip()) and self.tournament is not None),
                Item(_("Print: entries, the round's sheet for the referees, standings, ranking (PDF)"), "print",
                     enabled=bool(self.form["out"].strip()) and self.tournament is not None),
                Item(_("Back"), "back")]

    def _items_end(self) -> list[Item]:
        """Ending the tournament: why."""
        return [Item(_("No more rounds: tables still waiting close, matches being played no longer count"), "none",
                     "text"),
                self._input("reason", _("Reason: {value}")),
                Item(_("End the tournament"), "end", enabled=bool(self.form["reason"].strip())),
                Item(_("Back"), "back")]

    def _items_confirm(self) -> list[Item]:
        """The act in words, whether it can be undone, yes and no."""
        pending = self.pending
        if pending is None:
            return [Item(_("Back"), "back")]
        return [*(Item(line, "none", "text") for line in sentences(pending.question)),
                Item(pending.undo_note, "none", "text"),
                Item(_("Yes, do it"), "yes", group="answer"), Item(_("No, back"), "back", group="answer")]

    def _items_address(self) -> list[Item]:
        """The addresses, large (the view draws the QR code of the first beside them)."""
        found = [Item(url, "none", "big") for url in self.urls()[:3]]
        found.append(Item(_("sprtec play finds this server on the LAN;"), "none", "text"))
        found.append(Item(_("elsewhere, type the address"), "none", "text"))
        found.append(Item(_("A phone scanning the code follows the tournament:") if self.tournament is not None
                          else _("A phone scanning the code opens the pages:"), "none", "text"))
        found.append(Item(self.page_url(), "none", "text"))
        found.append(Item(_("Back"), "back"))
        return found

    # ----------------------------------------------------------------- commands
    def activate(self, command: str) -> object | None:
        """Carry out a command; the request it gives (a confirmation first for every act)."""
        verb, _sep, arg = command.partition(":")
        if command == "quit":
            return QUIT
        if command == "close":
            self.back_to, self.screen = self.screen, "confirm"
            self.pending = Pending(_("Close the desk and stop the server?"),
                                   _("Every player's connection closes and the tables pause; sprtec organise again "
                                     "goes on where it stopped."), CloseDesk())
            self.focus = [item.command for item in self.items()].index("back")
            return None
        if command == "back":
            self.screen = self.back_to if self.screen == "confirm" else ("create" if self.tournament is None
                                                                         else "home")
            self.back_to, self.pending, self.page = "home", None, 0
            self.error = ""
            return None
        if verb == "screen":
            self._open_screen(arg)
            return None
        if verb == "cycle":
            return self.cycle(command, 1)
        if verb == "field":
            self.move_focus(1)
            return None
        if verb == "page":
            self.page = max(0, self.page + int(arg))
            return None
        if verb == "watch":
            return WatchTable(arg)
        if verb in ("case", "view"):  # a dispute chosen, or the ranking's view (everybody or a category)
            self.form[verb] = int(arg) if verb == "case" else arg
            self.page = 0 if verb == "view" else self.page
            return None
        if command == "yes":
            return self._confirmed()
        if command == "open-file":
            return OpenTournamentFile(self.form["path"].strip())
        act = self._act(verb, arg)
        if act is not None:
            self.back_to, self.pending, self.screen = self.screen, act, "confirm"
            self.focus = [item.command for item in self.items()].index("back")  # the safe answer is lit: Enter
            # by habit changes nothing
        return None

    def _open_screen(self, screen: str) -> None:
        """Go to ``screen`` with its form fresh."""
        self.screen, self.page, self.error = screen, 0, ""
        if screen == "register":
            self.form.update(name="", club="", category="", rating="", born="", sex=None, veteran=False)
        if screen in ("card", "override", "end", "disputes", "round"):
            self.form.update(reason="", case=None)
        if screen == "board":  # a fresh sheet: the first board waiting, a score of 0:0
            self.form.update(board=0, result="score", home=0, away=0, shootout=None, referee=0, agreed=False)
        # its first item, never a withdrawal: the focus index of the screen left behind lit any row's button
        found = self.items()
        safe = [i for i, item in enumerate(found) if focusable(item) and not item.command.startswith("withdraw:")]
        self.focus = safe[0] if safe else 0
        self.settle_focus()

    def _confirmed(self) -> object | None:
        """The organiser said yes: send the act (an export is done by the owner)."""
        pending = self.pending
        if pending is None:
            return None
        if isinstance(pending.request, CloseDesk):
            return QUIT
        self.screen = "home" if self.tournament is not None else "create"
        self.back_to = "home"
        if isinstance(pending.request, (ExportTournament, PrintSheets)):
            return pending.request
        if isinstance(pending.request, CreateTournament):
            self.screen = "create"
        self.sent = pending.request
        self.done = ""
        return pending.request

    def cycle(self, command: str, step: int) -> object | None:
        """←/→ on a choice."""
        key = command.partition(":")[2]
        if key in CREATE_CHOICES:
            options = CREATE_CHOICES[key].options
            index = options.index(self.form[key]) if self.form[key] in options else 0
            self.form[key] = options[(index + step) % len(options)]
        elif key in ("home", "away"):
            self.form[key] = (self.form[key] + step) % (MAX_GOALS + 1)
        elif key == "entry":
            self.form[key] = (self.form[key] + step) % max(1, len(self._card_entries()))
        elif key == "table":
            self.form[key] = (self.form[key] + step) % max(1, len(self.tables()))
        elif key == "board":
            self.form[key] = (self.form[key] + step) % max(1, len(self.boards()))
        elif key == "referee":
            self.form[key] = (self.form[key] + step) % max(1, len(self.referees()))
        elif key == "agreed":
            self.form[key] = not self.form[key]
        elif desk_cup.cycle(self, key, step):
            pass
        else:
            options = {"card": tuple(CARDS), "result": RESULTS, "shootout": (None, "home", "away"),
                       "ruling": tuple(RULINGS)}[key]
            self.form[key] = options[(options.index(self.form[key]) + step) % len(options)]
        return None

    def type_text(self, text: str) -> None:
        """Typed characters go into the focused field."""
        item = self.focused()
        if item is None or not item.command.startswith("field:"):
            return
        key = item.command.partition(":")[2]
        typed = "".join(c for c in text if c.isprintable())
        if key in ("rating", "born"):
            typed = "".join(c for c in typed if c.isdigit())
        self.form[key] = (self.form[key] + typed)[:TEXT_LIMITS[key]]

    def backspace(self) -> None:
        """Backspace deletes the focused field's last character."""
        item = self.focused()
        if item is not None and item.command.startswith("field:"):
            key = item.command.partition(":")[2]
            self.form[key] = self.form[key][:-1]

    # ----------------------------------------------------------------- the acts
    def _act(self, verb: str, arg: str) -> Pending | None:
        """The act a command asks for, with its words and how it can be undone (None: not an act)."""
        tid, secret = self.tournament or "", self.secret or ""
        cannot = _("This cannot be undone: the audit log keeps it.")
        if verb == "create":
            return Pending(_("Create the tournament {name}: {summary}?").format(
                name=self.form["name"].strip(), summary=self.summary()),
                _("A tournament cannot be deleted; End the tournament stops it."), self.create_request())
        if verb == "register":
            form = EntryForm(self.form["name"].strip(), self.form["club"].strip(), self.form["category"].strip(),
                             int(self.form["rating"]) if self.form["rating"] else None,
                             year_of_birth=int(self.form["born"]) if self.form["born"] else None,
                             sex=self.form["sex"], veteran=bool(self.form["veteran"]))
            return Pending(_("Register {name} ({club})?").format(name=form.name, club=form.club or "—"),
                           _("Can be undone: the entry is withdrawn again."),
                           RegisterEntries(tid, secret, (form,)), self._undo_registration)
        if verb == "checkin":
            return Pending(_("Check in {name}? He is paired from the next round on.").format(
                name=self.entry_name(arg)),
                _("A check-in cannot be taken back; Withdraw takes the player out after the current round."),
                CheckIn(tid, arg, secret))
        if verb == "withdraw":
            question = (_("Withdraw {name}? No round has started: he plays none.") if self.registering()
                        else _("Withdraw {name} after the current round?"))
            return Pending(question.format(name=self.entry_label(arg)), cannot,
                           WithdrawEntry(tid, arg, secret, _("withdrawn at the desk")))
        if verb == "unlink":
            return Pending(_("Unlink {name} from the player who claimed it? He coaches it no longer; the entry gets "
                             "a new code for its right player.").format(name=self.entry_label(arg)),
                           _("The old code no longer works; the new one is shown to hand out."),
                           UnlinkEntry(tournament=tid, secret=secret, entry=arg, reason=_("claim undone at the desk")))
        if verb in ("mute", "unmute"):
            return self._mute_act(tid, secret, arg, verb == "mute")
        if verb == "start":
            coming = self.coming_round()
            if coming is None:
                return None
            absent = [e.name for e in self.entries() if not e.checked_in and not e.out]
            question = self._start_text(coming, asking=True)
            if absent:
                question += " " + _("Not checked in (absent from it): {names}").format(names=", ".join(absent[:6]))
            return Pending(question, _("A round cannot be taken back once its tables open."),
                           StartRound(tid, secret))
        if verb == "auto":
            minutes = self.form["auto"] or 2
            if self.auto_ms is not None:
                return Pending(_("Switch the automatic start of rounds off?"), _("It can be switched on again."),
                               AutoStartRounds(tid, secret, None))
            return Pending(_("Start each next round by itself {n} min after the last match of a round?").format(
                n=minutes), _("Can be undone: it is switched off again."),
                AutoStartRounds(tid, secret, minutes * 60_000),
                lambda _a: (_("the automatic start"), AutoStartRounds(tid, secret, None)))
        return self._ruling_act(verb, tid, secret, cannot)

    def _ruling_act(self, verb: str, tid: str, secret: str, cannot: str) -> Pending | None:
        """The acts on results and the tournament's end: cards, overrides, rulings, export, end, undo."""
        if verb == "card":
            found = self._card_entries()
            if not found:
                return None
            entry = found[self.form["entry"] % len(found)]
            card, reason = self.form["card"], self.form["reason"].strip()
            return Pending(_("Give {name} a {card}: {reason}?").format(name=entry.name, card=_(CARDS[card]),
                                                                        reason=reason),
                           _("A card cannot be taken back (the audit log keeps it); an override corrects a result."),
                           GiveCard(tournament=tid, secret=secret, entry=entry.entry, card=card, reason=reason))
        if verb == "override":
            return self._override_act(tid, secret)
        if verb == "board":
            return self._board_act(tid, secret)
        if verb == "boards":
            going = not self.on_boards()
            question = (_("Play the matches on physical boards from the next round on? No rooms open; each board's "
                          "score is entered by hand, and every board gets a referee.") if going else
                        _("Play the matches online again from the next round on?"))
            return Pending(question, _("Can be switched back the same way."),
                           PlayOnBoards(tournament=tid, secret=secret, on_board=going,
                                        reason=_("set at the desk")),
                           lambda _a: (_("the boards' setting"), PlayOnBoards(tournament=tid, secret=secret,
                                                                              on_board=not going,
                                                                              reason=_("undone at the desk"))))
        if verb == "referee":
            return self._referee_act(tid, secret)
        if verb == "resolve":
            case, ruling, reason = self.form["case"], self.form["ruling"], self.form["reason"].strip()
            score, walkover, shootout = self._given_result() if ruling == "changed" else (None, None, None)
            return Pending(_("Case {id}: {ruling} — {reason}?").format(id=case, ruling=_(RULINGS[ruling]),
                                                                       reason=reason),
                           _("A ruling cannot be taken back; an override can still correct the result."),
                           ResolveDispute(tournament=tid, secret=secret, case=case, ruling=ruling, reason=reason,
                                          score=score, walkover=walkover, shootout=shootout))
        if verb == "export":
            out = self.form["out"].strip()
            return Pending(_("Export tournament {id} into {dir}?").format(id=tid, dir=out),
                           _("Files of the same names in that folder are replaced."), ExportTournament(tid, out))
        if verb == "print":
            out = self.form["out"].strip()
            return Pending(_("Print the sheets of tournament {id} into {dir}?").format(id=tid, dir=out),
                           _("A PDF of the same name in that folder is replaced."), PrintSheets(tid, out))
        if verb == "end":
            reason = self.form["reason"].strip()
            return Pending(_("End the tournament now: {reason}?").format(reason=reason), cannot,
                           EndTournament(tid, secret, reason))
        cup_act = desk_cup.act(self, verb, cannot)
        if cup_act is not None:
            return cup_act
        if verb == "undo" and self.undo is not None:
            label, request = self.undo
            self.undo = None
            return Pending(_("Undo: {act}?").format(act=label), cannot, request)
        return None

    def _mute_act(self, tid: str, secret: str, entry: str, muted: bool) -> Pending:
        """Silencing a coach in the tournament's chat (undone by unmuting him), or letting him speak again."""
        name = self.entry_name(entry)
        if not muted:
            return Pending(_("Let {name} speak in the tournament's chat again?").format(name=name),
                           _("He can be muted again at any time."),
                           MuteEntry(tournament=tid, secret=secret, entry=entry, muted=False,
                                     reason=_("unmuted at the desk")))
        unmute = MuteEntry(tournament=tid, secret=secret, entry=entry, muted=False, reason=_("mute undone at the desk"))
        return Pending(_("Mute {name} in the tournament's chat? His lines are refused at every table and nobody "
                         "hears them.").format(name=name),
                       _("Can be undone: he is unmuted again."),
                       MuteEntry(tournament=tid, secret=secret, entry=entry, muted=True, reason=_("muted at the desk")),
                       lambda _a: (_("the mute of {name}").format(name=name), unmute))

    def _undo_registration(self, answer: object) -> tuple[str, ClientMessage] | None:
        """A registration is undone by withdrawing the entry again (before round 1 it never plays)."""
        if not isinstance(answer, EntriesRegistered) or not answer.entries or self.tournament is None:
            return None
        entry = answer.entries[0]
        return (_("the registration of {name}").format(name=entry.name),
                WithdrawEntry(self.tournament, entry.entry, self.secret, _("registration undone at the desk")))

    def _override_act(self, tid: str, secret: str) -> Pending | None:
        """An override of a table's result, undone by setting back the result it replaces (when it had one)."""
        tables = self.tables()
        if not tables or self.update is None:
            return None
        table = tables[self.form["table"] % len(tables)]
        score, walkover, shootout = self._given_result()
        reason = self.form["reason"].strip()
        stage, round_no = self.update.stage, self.update.round
        request = OverrideResult(tournament=tid, secret=secret, stage=stage, round=round_no, table=table.table,
                                 reason=reason, score=score, walkover=walkover, shootout=shootout)
        before = table.score if table.status == "ended" else None
        before_walkover = table.walkover if table.status == "walkover" else None
        undo: Callable[[object], tuple[str, ClientMessage] | None] | None = None
        if before is not None or before_walkover is not None:
            back = OverrideResult(tournament=tid, secret=secret, stage=stage, round=round_no, table=table.table,
                                  reason=_("override undone: {reason}").format(reason=reason)[:500], score=before,
                                  walkover=before_walkover, shootout=table.shootout if before is not None else None)
            undo = lambda _a: (_("the override of table {n}").format(n=table.table), back)  # noqa: E731
            note = _("Can be undone: the table's result goes back to {result}.").format(result=result_text(table))
        else:
            note = _("The table had no result yet: an override sets it; another override can change it.")
        return Pending(_("Set table {n} ({home} – {away}) to {result}: {reason}?").format(
            n=table.table, home=table.home_name, away=table.away_name, result=_given_text(score, walkover),
            reason=reason), note, request, undo)

    def _board_act(self, tid: str, secret: str) -> Pending | None:
        """A board's result from the referee's sheet: it stands at once (another result later is an override)."""
        boards = self.boards()
        if not boards or self.update is None:
            return None
        line = boards[self.form["board"] % len(boards)]
        score, walkover, shootout = self._given_result()
        request = EnterResult(tournament=tid, secret=secret, stage=self.update.stage, round=self.update.round,
                              table=line.table, score=score, walkover=walkover, shootout=shootout)
        given = _given_text(score, walkover)
        if score is not None and shootout is not None:
            given += " " + _("(shoot-out {side})").format(side=_("home") if shootout == "home" else _("away"))
        return Pending(_("Board {n} ({home} – {away}): {result}?").format(
            n=line.table, home=line.home_name, away=line.away_name, result=given),
            _("It stands at once; Override a result corrects it later, with a reason."), request)

    def referees(self) -> list[EntryLine]:
        """Who may referee the chosen board: the entrants not out and not playing it."""
        boards = self.boards()
        if not boards:
            return []
        line = boards[self.form["board"] % len(boards)]
        return [e for e in self.entries() if not e.out and e.entry not in (line.home, line.away)]

    def _referee_act(self, tid: str, secret: str) -> Pending | None:
        """A board's referee named by hand (XVII.2; XVII.3 when both players agree to one of their club)."""
        boards, found = self.boards(), self.referees()
        if not boards or not found or self.update is None:
            return None
        line = boards[self.form["board"] % len(boards)]
        referee = found[self.form["referee"] % len(found)]
        agreed = bool(self.form["agreed"])
        request = SetReferee(tournament=tid, secret=secret, stage=self.update.stage, round=self.update.round,
                             table=line.table, referee=referee.entry, agreed=agreed,
                             reason=_("both players agree (XVII.3)") if agreed else _("named at the desk"))
        back = SetReferee(tournament=tid, secret=secret, stage=self.update.stage, round=self.update.round,
                          table=line.table, referee=line.referee, reason=_("undone at the desk"))
        return Pending(_("{name} referees board {n} ({home} – {away})?").format(
            name=referee.name, n=line.table, home=line.home_name, away=line.away_name),
            _("Can be undone: the board's referee goes back."), request,
            lambda _a: (_("the referee of board {n}").format(n=line.table), back))

    def _given_result(self) -> tuple[Score | None, str | None, str | None]:
        """The result the form gives: a score and a shoot-out's winner, or a walkover."""
        if self.form["result"] == "score":
            return Score(self.form["home"], self.form["away"]), None, self.form["shootout"]
        return None, self.form["result"], None

    def _card_entries(self) -> list[EntryLine]:
        """The entrants a card may be given to (not out of the tournament)."""
        return [e for e in self.entries() if not e.out]

    def _rating_ok(self) -> bool:
        """An empty rating, or 0-9999."""
        return self.form["rating"] == "" or int(self.form["rating"]) <= 9999

    # ----------------------------------------------------------------- the tournament file
    def summary(self) -> str:
        """The create form's choices in a few words."""
        return desk_create.summary(self.form)

    def tournament_file(self) -> dict[str, Any]:
        """The create form as a tournament file (docs/TOURNAMENT.md) without players: they are registered after."""
        return desk_create.tournament_file(self.form, self.seed)

    def create_request(self) -> CreateTournament:
        """The CreateTournament of the form: its file, the no-show time and the automatic start."""
        return desk_create.create_request(self.form, self.seed)


def this_year() -> int:
    """The calendar year now (a year of birth after it is refused before it is sent)."""
    import datetime

    return datetime.date.today().year


def sentences(text: str) -> list[str]:
    """A question cut into its sentences, each a line of its own, and a sentence longer than a line (an override's
    reason) wrapped at its words: read whole, never cut short."""
    found: list[str] = []
    for part in text.replace("? ", "?\n").replace(". ", ".\n").splitlines():
        if found and len(found[-1]) + len(part) < 60:
            found[-1] += " " + part
        else:
            found.append(part)
    return [line for sentence in found for line in textwrap.wrap(sentence, LINE_CHARS) or [sentence]]


def _given_text(score: Score | None, walkover: str | None) -> str:
    """A result given at the desk in words: "3:1", or "walkover for home"."""
    if score is not None:
        return f"{score.home}:{score.away}"
    return _("walkover for {side}").format(side=_("home") if walkover == "home" else _("away"))


def refusal_text(error: Error) -> str:
    """A refusal as the organiser reads it: what it means in his language, then the server's own words."""
    meaning = REFUSALS.get(error.code)
    if meaning is None:
        return _("Refused: {code} — {message}").format(code=error.code, message=error.message)
    return _("Refused: {meaning} ({message})").format(meaning=_(meaning), message=error.message)


def act_name(request: object) -> str:
    """A request's act in a few words."""
    names = {"CreateTournament": N_("tournament created"), "RegisterEntries": N_("player registered"),
             "CheckIn": N_("checked in"), "WithdrawEntry": N_("entry withdrawn"), "StartRound": N_("round started"),
             "AutoStartRounds": N_("automatic start changed"), "GiveCard": N_("card given"),
             "MuteEntry": N_("chat mute changed"),
             "OverrideResult": N_("result set"), "ResolveDispute": N_("dispute decided"),
             "EnterResult": N_("board result entered"), "PlayOnBoards": N_("boards' setting changed"),
             "SetReferee": N_("referee named"),
             "EndTournament": N_("tournament ended")}
    name = type(request).__name__
    return _(names[name]) if name in names else name

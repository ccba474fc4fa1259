"""The lobby as plain data: which screen is up, its items, the chosen ruleset and settings, the typed room code,
the room list and the quick-match queue (pure: no arcade, no sockets).

Why a model: the lobby is a game menu driven by mouse and keyboard alike; both end in the same commands
(``activate``), which return the protocol request to send (or ``QUIT``), so every path through the menu
is tested without a screen and the view only paints ``items()``. "Play the bot" returns ``PlayBot``: a
private room to create, for which the navigator then starts the bot (``client.player.bot_process``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from client.common import user_settings
from client.common.i18n import LANGUAGES, N_, _, ngettext
from client.common.menu import QUIT, Item, OpenClaimCode, OpenLeaderboard, OpenProfile, focusable
from client.common.notice_text import notice_text
from client.common.part_text import part_words
from client.common.rating_text import rating_text
from client.common.ruleset_names import ruleset_name, shown_name
from client.match import replay_library
from client.match.net import ConnectionEvent, connection_words
from shared.names import MAX_NAME_CHARS, BadName, clean_name
from shared.protocol import (
    CancelQuickMatch,
    CreateRoom,
    Error,
    JoinRoom,
    Left,
    ListRooms,
    Notice,
    QueueStatus,
    QuickMatch,
    Rename,
    Renamed,
    RoomInfo,
    RoomList,
    SeatInfo,
    Watch,
    Welcome,
)
from shared.rulesets import RULESETS, make_settings

REPLAYS_SHOWN = 10  # the newest saved replays "My replays" lists (the menu must fit the window)
CODE_LENGTH = 16  # the protocol's longest room code
LEVEL_WORDS = {
    "easy": (N_("easy"), N_("A gentle start: the bot thinks little and misses often")),
    "medium": (N_("medium"), N_("A fair game for a club player")),
    "hard": (N_("hard"), N_("The bot at full strength: it rarely misses")),
}
LEVELS = ("easy", "medium", "hard")
RULESET_BLURBS = {
    "standard": N_("Three 6-minute periods; a draw stands"),
    "ko": N_("Knock-out: sudden-death overtime, then a shoot-out of 3"),
    "final": N_("Final: two overtimes, then a shoot-out of 5"),
    "strict": N_("The printed rules: no move clock, no 2.5-D effects"),
    "quick": N_("One 5-minute period — a quick game"),
}
PERIOD_MINUTES = (0.5, 1, 2, 3, 5, 6, 10)  # the lengths offered besides the ruleset's own (0.5: a 30-second blitz)
MOVE_CLOCK_SECONDS = (0, 15, 30, 60)  # 0: no move clock
VOLUMES = tuple(v / 10 for v in range(11))


@dataclass(frozen=True, slots=True)
class PlayBot:
    """Create this private room and start the bot in it once the server seats us (not a protocol message)."""

    create: CreateRoom = field(default_factory=lambda: CreateRoom("quick", {}, True))
    level: str = "medium"  # the bot's strength (shared.ai.LEVELS)


@dataclass(frozen=True, slots=True)
class OpenHelp:
    """Show the "How to play" screen (not a protocol message)."""


@dataclass(frozen=True, slots=True)
class OpenTournaments:
    """Show the server's tournaments (not a protocol message)."""


@dataclass(frozen=True, slots=True)
class OpenLeagues:
    """Show the server's team leagues (not a protocol message)."""


@dataclass(frozen=True, slots=True)
class OpenMyTournament:
    """Show the tournament the player is entered in (not a protocol message)."""


@dataclass(frozen=True, slots=True)
class OpenServers:
    """Show the servers found on the LAN and the manual address field (not a protocol message)."""


@dataclass(frozen=True, slots=True)
class OpenReplay:
    """Open this saved replay in the window (not a protocol message: the navigator shows the replay view)."""

    path: Path


def _step(options: list[Any], current: Any, step: int) -> Any:
    """The option ``step`` places from ``current`` in ``options``, stopping at the ends (arrows go in order)."""
    index = options.index(current) if current in options else options.index(None)
    return options[max(0, min(len(options) - 1, index + step))]


def _minutes(ms: int) -> str:
    """A period length in words."""
    return _("{n} min").format(n=f"{ms / 60000:g}")




STATUS_WORDS = {"waiting": N_("waiting"), "playing": N_("playing"), "ended": N_("ended")}


def room_line(room: RoomInfo) -> str:
    """One room of the list in words: code, ruleset, coaches with their ratings and the score, the part and its time
    left (as the list was made: ``RoomInfo.clocks``), status and spectators."""
    def coach(seat: SeatInfo | None) -> str:
        """A coach's name with his rating beside it ("Jana 1512?"), or the free seat."""
        if seat is None:
            return _("free seat")
        rating = rating_text(seat.rating, seat.provisional)
        return f"{shown_name(seat.name)} {rating}" if rating else shown_name(seat.name)

    home, away = coach(room.seats.home), coach(room.seats.away)
    if room.score is not None:
        match = f"{home} {room.score.home}:{room.score.away} {away}"
    else:
        match = _("{home} v {away}").format(home=home, away=away)
    watching = "  ·  " + _("{n} watching").format(n=room.spectators) if room.spectators else ""
    when = ""
    if room.clocks is not None and room.status == "playing":
        seconds = (room.clocks.part_ms + 999) // 1000
        left = _("{time} left").format(time=f"{seconds // 60}:{seconds % 60:02d}")
        when = f"  ·  {part_words(room.part) + ' ' if room.part else ''}{left}"
    status = _(STATUS_WORDS.get(room.status, room.status))
    return f"{room.code}  {ruleset_name(room.ruleset)}  —  {match}{when}  ({status}{watching})"


@dataclass(frozen=True, slots=True)
class Origin:
    """Which server the lobby is on and how it was found: ``server`` (given, or chosen on the Servers page), ``local``
    (this computer's), ``lan`` (found on the network) or ``practice`` (a private one started for practice); said in
    the player's language each time it is shown (a language changed in the settings follows at once)."""

    kind: str
    url: str = ""
    name: str = ""

    def text(self) -> str:
        """The origin in words."""
        if self.kind == "local":
            return _("Connected to the local server {url}").format(url=self.url)
        if self.kind == "lan":
            return _("Connected to {name} ({url}), found on the LAN").format(name=self.name, url=self.url)
        if self.kind == "practice":
            return _("No server running — practising on a private one")
        return _("Server {name}").format(name=self.name or self.url)


class LobbyModel:
    """The state of the lobby menu."""

    def __init__(self, practice: bool = False, origin: str | Origin = "") -> None:
        """A fresh lobby; ``practice`` offers only the bot, on a private server; ``origin`` says which server."""
        self.practice = practice
        self.origin = origin
        self.screen = "menu"
        self.focus = 0
        self.ruleset = "quick" if practice else "standard"
        self.ruleset_chosen = False  # "Play the bot" offers the quick ruleset until the player picks one
        self.period: float | None = None
        self.move_clock: int | None = None
        self.private = practice
        self.rated = False  # a created room is casual unless the player asks for a rated one
        self.code = ""
        self.rooms: tuple[RoomInfo, ...] = ()
        self.queue: QueueStatus | None = None
        self.connected = False
        self.player: str | None = None
        self.status = _("Starting the practice server…") if practice else _("Connecting…")
        self.error = ""
        self.replays: list[replay_library.ReplayFile] = []
        self.level = "medium"  # the bot's strength for "Play the bot"
        self.quick_ruleset: str | None = None  # None: any ruleset
        self.pending: str | None = None  # the request sent and not yet answered: a second click does nothing
        self.user = user_settings.UserSettings()
        self.on_settings: Callable[[user_settings.UserSettings], None] | None = None  # applies and keeps them
        self.first_start = False  # show the first-start hint (until How to play was opened)
        self.replay_folders: tuple[Path | None, Path | None] = (None, None)  # (home, here): tests point elsewhere
        self.name_draft: str | None = None  # a new name being typed on the settings screen
        self.tournament_name: str | None = None  # the tournament the player is entered in (the navigator's)

    # ----------------------------------------------------------------- what to show
    def heading(self) -> str:
        """The game's name, large at the top."""
        return "ŠPRTEC"

    def subtitle(self) -> str:
        """The game in both languages of its clubs, and the screen shown."""
        return _("billiard-hockey · hokej stołowy  —  {screen}").format(screen=self.title())

    def notes(self) -> tuple[str, ...]:
        """The first-start hint, on the main menu until How to play was opened."""
        if self.first_start and self.screen == "menu":
            return (_("New here? Choose How to play — and F1 shows the keys on every screen"),)
        return ()

    def wide(self) -> bool:
        """The lists (rooms, replays) take a wider panel."""
        return self.screen in ("rooms", "replays")

    def keys_help(self) -> str:
        """The keys of the screen shown."""
        if self.screen == "join":
            return _("type the code   Enter join   Esc back")
        return _("↑↓ choose   Enter select   ←→ change   Esc back   F1 help")

    def title(self) -> str:
        """The heading of the current screen."""
        return {
            "menu": _("Practice") if self.practice else _("Main menu"),
            "create": _("Create a room"),
            "bot": _("Play the bot"),
            "join": _("Join a room by its code"),
            "rooms": _("Rooms on this server"),
            "waiting": _("Quick match"),
            "quick": _("Quick match"),
            "replays": _("My replays"),
            "settings": _("Settings"),
        }[self.screen]

    def status_line(self) -> str:
        """The bottom line: which server this is, and the connection's state."""
        origin = self.origin.text() if isinstance(self.origin, Origin) else self.origin
        return "  ·  ".join(part for part in (origin, self.status) if part)

    def settings(self) -> dict[str, Any]:
        """The setting overrides of the room to create (none where the choice is the ruleset's own)."""
        defaults = make_settings(self.ruleset)
        chosen: dict[str, Any] = {}
        if self.period is not None and self.period * 60_000 != defaults.period_ms:
            chosen["period_ms"] = round(self.period * 60_000)
        if self.move_clock is not None and self.move_clock * 1000 != defaults.move_clock_ms:
            chosen["move_clock_ms"] = self.move_clock * 1000
        return chosen

    def period_choices(self) -> list[float | None]:
        """The period lengths in order of minutes, the ruleset's own (None) in its place among them."""
        own = make_settings(self.ruleset).period_ms / 60_000
        return sorted([None, *[m for m in PERIOD_MINUTES if m != own]],
                      key=lambda m: own if m is None else m)

    def clock_choices(self) -> list[int | None]:
        """The move clocks in order of seconds (off first), the ruleset's own (None) in its place among them."""
        own = make_settings(self.ruleset).move_clock_ms / 1000
        return sorted([None, *[c for c in MOVE_CLOCK_SECONDS if c != own]],
                      key=lambda c: own if c is None else c)

    def period_words(self) -> str:
        """The chosen length of play in words: "One 5-minute period", "Three 2-minute periods"."""
        defaults = make_settings(self.ruleset)
        minutes = defaults.period_ms / 60_000 if self.period is None else self.period
        words = ngettext("One {minutes:g}-minute period", "{count} {minutes:g}-minute periods", defaults.periods)
        text = words.format(count=defaults.periods, minutes=minutes)
        return _("{periods} plus overtime").format(periods=text) if defaults.overtime_ms else text

    def items(self) -> list[Item]:
        """The lines of the current screen, top to bottom."""
        screens: dict[str, Callable[[], list[Item]]] = {
            "menu": self._menu_items, "quick": self._quick_items, "settings": self._settings_items,
            "create": self._create_items, "bot": self._create_items, "join": self._join_items,
            "rooms": self._rooms_items, "replays": self._replays_items}
        return screens.get(self.screen, self._waiting_items)()

    def _menu_items(self) -> list[Item]:
        """The main menu (on a private practice server: the bot, replays, help, settings)."""
        online = self.connected
        bot = Item(_("Play the bot"), "screen:bot", hint=_("A private match against the computer; pick the rules"))
        replays = Item(_("My replays"), "screen:replays", hint=_("Watch the matches you saved"))
        learn = Item(_("How to play"), "help", hint=_("Aiming, turns, the main rules and the keys (F1)"))
        tune = Item(_("Settings"), "screen:settings", hint=_("Your name, sound, full screen, aiming guide, language"))
        servers = Item(_("Servers"), "servers", hint=_("The servers on your network, or one by its address"),
                       group="servers")
        if self.practice:
            return [bot, replays, learn, tune, servers, Item(_("Quit"), QUIT)]
        # the tournament's line keeps its place before it is known (no button moves when it comes)
        mine = [Item(_("Back to {name}").format(name=self.tournament_name), "mytournament",
                     hint=_("Your tournament: your table, the standings"), enabled=online)] \
            if self.tournament_name else [Item(_("Tournaments"), "tournaments", enabled=online,
                                               hint=_("Enter a tournament of this server, or watch one"))]
        return [
            *mine,
            Item(_("Quick match"), "screen:quick", hint=_("Play the next coach who is looking for a game"),
                 enabled=online),
            bot,
            Item(_("Create a room"), "screen:create", hint=_("Choose the rules; a friend joins with the code")),
            Item(_("Join by code"), "screen:join", hint=_("Type the code a friend gave you")),
            Item(_("Watch a match"), "screen:rooms", hint=_("Rooms being played right now"), enabled=online,
                 group="watch"),
            *([Item(_("Tournaments"), "tournaments", hint=_("Enter a tournament of this server, or watch one"),
                    enabled=online, group="watch")] if self.tournament_name else []),
            Item(_("Leagues"), "leagues", hint=_("Take your place on your team in a league of this server"),
                 enabled=online, group="watch"),
            Item(_("My profile"), "profile", hint=_("Your ratings and your last matches"), enabled=online,
                 group="players"),
            Item(_("Leaderboard"), "leaderboard", hint=_("The best rated players of this server"),
                 enabled=online, group="players"),
            replace(replays, group="servers"),
            servers,
            replace(learn, group="help"),
            replace(tune, group="help"),
            Item(_("Quit"), QUIT),
        ]

    def _quick_items(self) -> list[Item]:
        """Quick match: the ruleset wanted, then the queue."""
        ruleset = _("any") if self.quick_ruleset is None else ruleset_name(self.quick_ruleset)
        blurb = _("Whichever rules the next coach wants") if self.quick_ruleset is None else \
            _(RULESET_BLURBS[self.quick_ruleset])
        return [Item(_("Ruleset: {name}").format(name=ruleset), "cycle:quick_ruleset", "choice", blurb),
                Item(_("Find an opponent"), "quick", hint=_("Wait in the queue for the next coach"),
                     enabled=self.connected and self.pending is None),
                Item(_("Back"), "back")]

    def _create_items(self) -> list[Item]:
        """Create a room or play the bot: ruleset, period, move clock, then the bot's level or the room's kind."""
        defaults = make_settings(self.ruleset)
        if self.period is None:
            period = _("{minutes} (ruleset)").format(minutes=_minutes(defaults.period_ms))
        else:
            period = _("{n} min").format(n=f"{self.period:g}")
        clock = _("off") if self.move_clock == 0 else _("{n} s").format(n=self.move_clock)
        if self.move_clock is None:
            clock = _("off (ruleset)") if defaults.move_clock_ms == 0 else \
                _("{n} s (ruleset)").format(n=defaults.move_clock_ms // 1000)
        found = [
            Item(_("Ruleset: {name}").format(name=ruleset_name(self.ruleset)), "cycle:ruleset", "choice",
                 _(RULESET_BLURBS[self.ruleset])),
            Item(_("Period length: {length}").format(length=period), "cycle:period", "choice",
                 self.period_words()),
            Item(_("Move clock: {clock}").format(clock=clock), "cycle:clock", "choice",
                 _("Time for each move (A35)")),
        ]
        ready = self.connected and self.pending is None
        if self.screen == "bot":
            found.append(Item(_("Bot: {level}").format(level=_(LEVEL_WORDS[self.level][0])), "cycle:level",
                              "choice", _(LEVEL_WORDS[self.level][1])))
            found.append(Item(_("Start the match"), "bot", hint=_("The bot joins your private room"),
                              enabled=ready))
        else:
            kind = _("private") if self.private else _("public")
            found.append(Item(_("Room: {kind}").format(kind=kind), "cycle:private", "choice",
                              _("Private rooms are not listed; join by code")))
            found.append(Item(_("Ratings: rated room") if self.rated else _("Ratings: casual room"),
                              "cycle:rated", "choice",
                              _("A rated room's matches change both coaches' ratings; a casual room's do not")))
            found.append(Item(_("Create the room"), "create", enabled=ready))
        found.append(Item(_("Back"), "back"))
        return found

    def _join_items(self) -> list[Item]:
        """Join a room by its code."""
        return [Item(_("Code: {code}_").format(code=self.code), "input", "input", _("Type the code, then Enter")),
                Item(_("Join"), "join", enabled=self.connected and bool(self.code) and self.pending is None),
                Item(_("Back"), "back")]

    def _rooms_items(self) -> list[Item]:
        """The public rooms, each with its coaches' profiles beside it."""
        found = []
        for room in self.rooms:
            free = room.status == "waiting" and (room.seats.home is None or room.seats.away is None)
            found.append(Item(room_line(room), f"{'join' if free else 'watch'}:{room.code}", "room",
                              _("Click to take the free seat") if free else _("Click to watch this match"),
                              group=f"room:{room.code}", weight=6))
            for seat in (room.seats.home, room.seats.away):  # the coaches' profiles, beside their room
                found.append(Item("", "none", "text", enabled=False, group=f"room:{room.code}", weight=1.2)
                             if seat is None else
                             Item(seat.name, f"profile:{seat.name}", "room",
                                  _("{name}'s profile").format(name=seat.name), group=f"room:{room.code}",
                                  weight=1.2))
        if not found:
            found.append(Item(_("No public rooms right now — create one, or refresh"), "none", "room",
                              enabled=False))
        return [*found, Item(_("Refresh"), "refresh", enabled=self.connected), Item(_("Back"), "back")]

    def _replays_items(self) -> list[Item]:
        """The saved replays, newest first."""
        found = [Item(r.label(), f"open:{i}", "room", _("Click to watch this replay"))
                 for i, r in enumerate(self.replays)]
        if not found:
            found.append(Item(_("No saved replays yet — Save replay after a match keeps one"), "none", "room",
                              enabled=False))
        return [*found, Item(_("Back"), "back")]

    def _waiting_items(self) -> list[Item]:
        """In the quick-match queue."""
        waiting = self.queue.waiting if self.queue is not None else 0
        return [Item(_("Looking for an opponent… ({waiting} in the queue)").format(waiting=waiting), "none", "room",
                     enabled=False),
                Item(_("Cancel"), "cancel")]

    # ----------------------------------------------------------------- input
    def move_focus(self, step: int) -> None:
        """Up/Down: the next enabled item (wrapping)."""
        found = self.items()
        for _step in range(len(found)):
            self.focus = (self.focus + step) % len(found)
            if focusable(found[self.focus]):
                return

    def focused(self) -> Item | None:
        """The item the keyboard is on."""
        found = self.items()
        return found[self.focus] if 0 <= self.focus < len(found) else None

    def key(self, name: str) -> object | None:
        """A key by name (``up``, ``down``, ``left``, ``right``, ``enter``, ``escape``, ``backspace``)."""
        item = self.focused()
        if name in ("up", "down"):
            self.move_focus(-1 if name == "up" else 1)
        elif name in ("left", "right") and item is not None and item.kind == "choice":
            self._cycle(item.command.partition(":")[2], -1 if name == "left" else 1)
        elif name == "enter":
            if self.screen == "join":
                return self.activate("join")
            if self.screen == "settings" and item is not None and item.kind == "input":
                return self.activate("rename")
            if item is not None and item.enabled:
                return self.activate(item.command)
        elif name == "escape":
            return self.activate("cancel" if self.screen == "waiting" else "back")
        elif name == "backspace" and self.screen == "join":
            self.code = self.code[:-1]
        elif name == "backspace" and self.screen == "settings" and item is not None and item.kind == "input":
            self.name_draft = self.shown_name()[:-1]
        return None

    def type_text(self, text: str) -> None:
        """Typed characters: letters and digits go into the room code on the join screen, printable characters
        into the name on the settings screen."""
        item = self.focused()
        if self.screen == "settings" and item is not None and item.kind == "input":
            name = self.shown_name() + "".join(c for c in text if c.isprintable())
            self.name_draft = name[:MAX_NAME_CHARS]
            return
        if self.screen != "join":
            return
        for char in text.upper():
            if char.isalnum() and len(self.code) < CODE_LENGTH:
                self.code += char

    def activate(self, command: str) -> object | None:
        """Carry out a command; returns the request to send to the server, ``QUIT`` or None."""
        self.error = ""
        verb, _sep, arg = command.partition(":")
        if verb in ("quick", "create", "bot", "join") and self.pending is not None:
            return None  # the first click already acted: wait for the server's answer
        handlers: dict[str, Callable[[str], object | None]] = {
            "screen": self._show_screen, "back": self._back, "rename": lambda _arg: self._rename(),
            "claimcode": lambda _arg: OpenClaimCode(), "profile": lambda a: OpenProfile(a or None),
            "leaderboard": lambda a: OpenLeaderboard(a or "standard"), "cycle": self._cycle_choice,
            "help": self._help, "quick": self._quick, "cancel": self._cancel, "create": self._create,
            "bot": self._bot, "join": self._join, "watch": Watch, "refresh": lambda _arg: ListRooms(),
            "open": self._open_replay, "tournaments": lambda _arg: OpenTournaments(),
            "leagues": lambda _arg: OpenLeagues(),
            "mytournament": lambda _arg: OpenMyTournament(), "servers": lambda _arg: OpenServers(),
            QUIT: lambda _arg: QUIT}
        handler = handlers.get(verb)
        return None if handler is None else handler(arg)

    def _show_screen(self, screen: str) -> object | None:
        """Another screen of the lobby (the rooms and the replays are looked up on the way)."""
        self._go(screen)
        if screen == "replays":
            self.replays = replay_library.find(*self.replay_folders)[:REPLAYS_SHOWN]
        if screen == "bot" and not self.ruleset_chosen:
            self.ruleset = "quick"
        return ListRooms() if screen == "rooms" else None

    def _back(self, _arg: str) -> None:
        """Back to the main menu (a name being typed is dropped)."""
        self.name_draft = None
        self._go("menu")

    def _cycle_choice(self, what: str) -> None:
        """A click on a choice steps it forward."""
        self._cycle(what, 1)

    def _help(self, _arg: str) -> OpenHelp:
        """How to play (the first-start hint has done its job)."""
        self.first_start = False
        return OpenHelp()

    def _quick(self, _arg: str) -> QuickMatch:
        """Queue for a quick match."""
        self._go("waiting")
        return QuickMatch(self.quick_ruleset)

    def _cancel(self, _arg: str) -> CancelQuickMatch:
        """Leave the queue."""
        self._go("menu")
        return CancelQuickMatch()

    def _create(self, _arg: str) -> CreateRoom:
        """Create the room as chosen."""
        self.pending = "create"
        return CreateRoom(self.ruleset, self.settings(), self.private, rated=self.rated)

    def _bot(self, _arg: str) -> PlayBot:
        """A private room for a match against the bot."""
        self.pending = "bot"
        return PlayBot(CreateRoom(self.ruleset, self.settings(), True), self.level)

    def _join(self, code: str) -> JoinRoom | None:
        """Join the room clicked (``code``) or the one typed."""
        code = code or self.code
        if not code:
            self.error = _("Type the room code first")
            return None
        self.pending = "join"
        return JoinRoom(code)

    def _open_replay(self, index: str) -> OpenReplay | None:
        """Open a saved replay of the list."""
        if index.isdigit() and int(index) < len(self.replays):
            return OpenReplay(self.replays[int(index)].path)
        return None

    def _go(self, screen: str) -> None:
        """Show another screen with the keyboard on its first item."""
        self.screen, self.focus = screen, 0

    def answered(self) -> None:
        """The server answered the pending request (joined, refused, or the connection changed): buttons act again."""
        self.pending = None

    def back_from_match(self) -> None:
        """Back in the menu after a match: no stale error or pending request follows the coach."""
        self.screen, self.focus, self.error, self.pending = "menu", 0, "", None

    # ----------------------------------------------------------------- settings
    def _settings_items(self) -> list[Item]:
        """The settings screen: name, volumes, sound, full screen, aiming guide, language."""
        u = self.user
        language = LANGUAGES.get(u.language, _("System"))

        def on(flag: bool) -> str:
            return _("on") if flag else _("off")

        found = [
            Item(_("Name: {name}_").format(name=self.shown_name()), "input", "input",
                 _("Type a new name, then Enter: the server renames you") if self.name_draft is not None else
                 _("Your name on this server; type to change it")),
            Item(_("Volume: {percent} %").format(percent=round(u.volume * 100)), "cycle:volume", "choice",
                 _("Every sound")),
            Item(_("Effects: {percent} %").format(percent=round(u.effects * 100)), "cycle:effects", "choice",
                 _("Flicks and knocks, part of the volume")),
            Item(_("Sound: {state}").format(state=on(not u.muted)), "cycle:muted", "choice",
                 _("M mutes in a match too")),
            Item(_("Full screen: {state}").format(state=on(u.fullscreen)), "cycle:fullscreen", "choice",
                 _("F11 anywhere")),
            Item(_("Aiming guide: {state}").format(state=on(u.aim_guide)), "cycle:aim_guide", "choice",
                 _("Shows the first body your stone meets (never in the strict ruleset)")),
            Item(_("Language: {language}").format(language=language), "cycle:language", "choice",
                 _("System follows your computer's language")),
        ]
        if not self.practice:  # a private practice server is gone when the window closes
            found.append(Item(_("Use this identity on another machine"), "claimcode",
                              hint=_("A code to type on your other computer: it plays as you there too"),
                              enabled=self.connected))
        return [*found, Item(_("Back"), "back")]

    def shown_name(self) -> str:
        """The name on the settings screen: the one being typed, else the server's name for us."""
        if self.name_draft is not None:
            return self.name_draft
        return self.player or self.user.name

    def _rename(self) -> Rename | None:
        """Enter on the name: ask the server for the typed name (checked as it checks names first)."""
        draft = self.name_draft
        if draft is None or self.pending is not None:
            return None
        try:
            name = clean_name(draft)
        except BadName as why:
            self.error = _("That name cannot be used: {why}").format(why=why)
            return None
        if self.player is not None and name == self.player:
            self.name_draft = None
            return None
        self.pending = "rename"
        return Rename(name)

    def _set(self, **changes: Any) -> None:
        """Change the settings and hand them on to be applied and kept."""
        self.user = self.user.changed(**changes)
        if self.on_settings is not None:
            self.on_settings(self.user)

    def _cycle(self, what: str, step: int) -> None:
        """Step a choice of the create screen."""
        if what == "ruleset":
            self.ruleset_chosen = True
            self.ruleset = RULESETS[(RULESETS.index(self.ruleset) + step) % len(RULESETS)]
        elif what == "period":
            self.period = _step(self.period_choices(), self.period, step)
        elif what == "clock":
            self.move_clock = _step(self.clock_choices(), self.move_clock, step)
        elif what == "private":
            self.private = not self.private
        elif what == "rated":
            self.rated = not self.rated
        elif what == "level":
            self.level = LEVELS[max(0, min(len(LEVELS) - 1, LEVELS.index(self.level) + step))]
        elif what == "quick_ruleset":
            options: list[str | None] = [None, *RULESETS]
            self.quick_ruleset = options[(options.index(self.quick_ruleset) + step) % len(options)]
        elif what in ("volume", "effects"):
            now = getattr(self.user, what)
            index = min(range(len(VOLUMES)), key=lambda i: abs(VOLUMES[i] - now))
            self._set(**{what: VOLUMES[max(0, min(len(VOLUMES) - 1, index + step))]})
        elif what in ("muted", "fullscreen", "aim_guide"):
            self._set(**{what: not getattr(self.user, what)})
        elif what == "language":
            codes = ["", *LANGUAGES]
            self._set(language=codes[(codes.index(self.user.language) + step) % len(codes)])

    # ----------------------------------------------------------------- server news
    def _queue_status(self, message: QueueStatus) -> None:
        """In the queue or out of it: the waiting screen follows (queued again by the server too, when an opponent
        sent from another node never came)."""
        self.queue = message
        if not message.queued and self.screen == "waiting":
            self._go("menu")
        elif message.queued and self.screen == "menu":
            self._go("waiting")

    def apply(self, message: object) -> None:
        """A lobby message from the server (or news about the connection)."""
        kind = getattr(message, "kind", None)
        if isinstance(message, Welcome):
            self.connected, self.player = True, message.player
            self.status = _("Connected as {player}").format(player=message.player)
        elif kind == "up":
            self.connected = True
        elif isinstance(message, ConnectionEvent) and kind in ("down", "stopped", "failed"):
            self.connected, self.pending = False, None
            self.status = connection_words(message)
        elif isinstance(message, RoomList):
            self.rooms = message.rooms
            self.focus = min(self.focus, len(self.items()) - 1)
            if not self.items()[self.focus].enabled:
                self.move_focus(1)
        elif isinstance(message, QueueStatus):
            self._queue_status(message)
        elif isinstance(message, Notice):
            self.status = notice_text(message)
        elif isinstance(message, Renamed):
            self.player, self.name_draft, self.pending = message.name, None, None
            self.status = _("Connected as {player}").format(player=message.name)
            self.error = _("You are {name} on this server now").format(name=message.name)
            if message.name != self.user.name:
                self._set(name=message.name)  # the name offered on the next new server
        elif isinstance(message, Error) and message.ref == "Rename":
            self.pending = None
            taken = _("“{name}” is taken on this server, or looks like a name that is — choose another name")
            self.error = taken.format(name=self.name_draft or "") if message.code == "NAME_TAKEN" else \
                _("The server refused that name: {why}").format(why=message.message)
        elif isinstance(message, Error):
            self.pending = None
            self.error = message.message
            if self.screen == "waiting" and message.ref == "QuickMatch":
                self._go("menu")
        elif isinstance(message, Left):
            self._go("menu")
            self.status = _("Left room {code}").format(code=message.code)

"""The hall's director: follows one tournament over a connection, moves the hall's cycle on, and while a table is
on the big screen watches it live with the match view (a VIEW module: it imports arcade).

Why a director: the hall's pages and the live tables are two kinds of views over one connection. It asks
``WatchTournament`` once, keeps every update (and the standings of each round seen, for the rank changes), and at
each frame asks the cycle (``client.hall.hall_model``) what to show: a page of the hall, or a table — then it sends
``Watch{room}`` and shows the match view, and when the table's time is over (or its match ends) ``Leave`` and
the next page. ``sprtec hall`` runs one on a connection of its own; the lobby's "Watch in the hall" runs one on the
player's connection and gives it back when the hall closes.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import arcade

from client.common.i18n import _
from client.common.sound import Sounds
from client.common.tournament_model import StandingsHistory
from client.hall.hall_model import HallCycle, Shown
from client.hall.hall_view import HallView
from client.match.match_view import MatchView
from client.match.net import ConnectionEvent, NetLink, connection_words
from client.match.state import MatchState
from shared.model import Action
from shared.protocol import (
    Error,
    Leave,
    TournamentUpdate,
    UnwatchTournament,
    Watch,
    WatchTournament,
    Welcome,
)
from shared.protocol.web_address import tournament_page


class HallDirector:
    """Shows ``tournament`` in ``window`` over ``link``; ``on_close`` runs when Escape closes the hall."""

    def __init__(self, window: arcade.Window, link: NetLink, tournament: str,
                 on_close: Callable[[], None] | None = None, sounds: Sounds | None = None,
                 clock: Callable[[], float] = time.monotonic, state: MatchState | None = None,
                 forward: Callable[[object], None] | None = None, page: str | None = None) -> None:
        """Follow ``tournament``; ``state`` is the match state the live tables play into (a fresh one if None);
        ``forward`` hears every other message too (the player's own tournament, on the lobby's connection); ``page``
        the tournament's web page for phones (default: on the server's address as connected)."""
        self.forward = forward
        self.window = window
        self.link = link
        self.tournament = tournament
        self.on_close = on_close
        self.sounds = sounds or Sounds(muted=True)
        self.clock = clock
        self.state = state or MatchState()
        self.update: TournamentUpdate | None = None
        self.update_at = 0.0  # when the latest update came (the next round's countdown runs from it)
        self.history = StandingsHistory()
        self.cycle = HallCycle()
        self.watching: Shown | None = None  # the table on the screen now
        self.asked = False
        self.closed = False  # Escape (or the player's table) closed the hall: it no longer shows anything
        self.shown = False  # the hall is on the screen (``start``); before, it only follows the tournament
        self.problem = ""  # the server's last refusal, said on the status line
        self.connection = ""  # the connection's trouble in words (the server closed, reconnecting); "" when up
        self.view = HallView(tournament, lambda: self.update, self.history, lambda: self.cycle.shown, self.poll,
                             self.choose, self.status, lambda: self.clock() - self.update_at,
                             page=page or tournament_page(link.client.url, tournament))

    def start(self) -> None:
        """Show the hall and ask for the tournament (now if connected, else once welcomed)."""
        self.shown = True
        self.window.show_view(self.view)
        self.follow()

    def follow(self) -> None:
        """Ask for the tournament's updates without showing anything yet (the hall keeps every round it sees)."""
        if self.link.player is not None and not self.asked:
            self.asked = self.link.request(WatchTournament(self.tournament))

    # ----------------------------------------------------------------- the link the views poll
    def poll(self, state: MatchState | None = None, now: float | None = None) -> None:
        """Bring in the news; move the cycle on and switch between the pages and a live table."""
        now = self.clock() if now is None else now
        for message in self.link.client.drain():
            self.link.apply(self.state, message, now)
        self.link.poll(self.state, now)
        news, self.link.other = list(self.link.other), []
        for message in news:
            self._news(message)
            if self.forward is not None:
                self.forward(message)
            if self.closed:
                return
        self.state.update(now)
        if self.shown:
            self._follow(self.cycle.tick(now, self.update), now)

    def _news(self, message: object) -> None:
        """The tournament's updates; the Welcome (ask for the tournament); a refusal said on the status line."""
        if isinstance(message, TournamentUpdate) and message.tournament == self.tournament:
            self.update, self.update_at = message, self.clock()
            self.history.absorb(message)
        elif isinstance(message, Welcome):
            self.asked = False  # a new connection watches nothing yet
            self.follow()
        elif isinstance(message, Error):
            self.problem = message.message
        elif isinstance(message, ConnectionEvent) and (message.kind != "failed" or not self.connection):
            self.connection = "" if message.kind == "up" else connection_words(message)  # a closed server's
            # failed attempts after keep its words

    def status(self) -> str:
        """The status line: the connection's trouble, else the last refusal, else whom the server welcomed us as (in
        the language in use)."""
        if self.connection or self.problem:
            return self.connection or self.problem
        if self.link.player is None:
            return _("Connecting…")
        return _("Connected as {player}").format(player=self.link.player)

    def send(self, action: Action) -> None:
        """The hall only watches: a spectator has no actions."""

    def _follow(self, shown: Shown, now: float) -> None:
        """Watch the table the cycle chose, or leave it for the hall's page."""
        if shown.page == "table" and shown.room is not None:
            if self.watching != shown:
                self._leave_table()
                self.watching = shown
                self.link.request(Watch(shown.room))
            if self.state.position is not None and not isinstance(self.window.current_view, MatchView):
                name = self.update.name if self.update is not None else self.tournament
                self.state.note(f"{shown.title()}  ·  {name}")  # the log under the board says which table this is
                view = MatchView(self.state, self, self.sounds, self.clock, on_leave=self.back_to_pages)
                view.on_help = None
                self.window.show_view(view)
            return
        if self.watching is not None:
            self._leave_table()
        if self.window.current_view is not self.view:
            self.window.show_view(self.view)

    def _leave_table(self) -> None:
        """Stop watching the table on the screen."""
        if self.watching is None:
            return
        self.watching = None
        self.link.request(Leave())
        self.link.leave_room(self.state)

    # ----------------------------------------------------------------- a person at the keyboard
    def choose(self, command: str) -> None:
        """←/→ step the pages, a click on a tile watches that table, Escape closes the hall."""
        now = self.clock()
        if command in ("next", "previous"):
            self.cycle.choose(1 if command == "next" else -1, now, self.update)
        elif command.startswith("watch:"):
            _verb, room, table = command.split(":", 2)
            self.cycle.hold(Shown("table", room, int(table) if table.isdigit() else 0), now)
        elif command == "close":
            self.close()

    def back_to_pages(self) -> None:
        """Escape on a live table: back to the hall's pages (held a while)."""
        self.cycle.choose(1, self.clock(), self.update)
        self._follow(self.cycle.shown, self.clock())

    def close(self) -> None:
        """Stop following the tournament and hand the window back."""
        if self.closed:
            return
        self.closed = True
        self._leave_table()
        self.link.request(UnwatchTournament(self.tournament))
        if self.on_close is not None:
            self.on_close()
        else:
            self.window.close()

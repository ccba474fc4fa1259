"""Which screen is up — lobby, match, results — and the moves between them as the server's news arrives
(a VIEW module: it imports arcade).

Why one owner: the connection (``client.net.NetLink``) outlives every screen. The navigator polls it
once per frame from whichever view is shown, hands lobby news to the lobby model, and switches views:
joined a room → match; the match ended and its last move has played back → results; a rematch's new
snapshot → match again; left the room → lobby. In practice mode it starts the bot for the created room.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import arcade

from client.lobby_model import QUIT, LobbyModel
from client.lobby_view import LobbyView
from client.match_view import MatchView
from client.net import NetLink
from client.practice import Practice
from client.results_view import ResultsView
from client.sound import Sounds
from client.state import MatchState
from shared.model import Action
from shared.protocol import Leave, Rematch, RoomJoined, Welcome


class Navigator:
    """Owns the match state and the lobby model and shows the right view in ``window``."""

    def __init__(self, window: arcade.Window, link: NetLink, lobby: LobbyModel, sounds: Sounds,
                 practice: Practice | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        """Navigate ``window`` for ``link``; ``practice`` starts the bot once a practice room exists."""
        self.window = window
        self.link = link
        self.lobby = lobby
        self.sounds = sounds
        self.practice = practice
        self.clock = clock
        self.state = MatchState()
        self.screen = ""
        self.first_request: object | None = None  # sent once welcomed (``--room``, ``--quick``)

    # ----------------------------------------------------------------- the link every view polls
    def poll(self, state: MatchState | None = None, now: float | None = None) -> None:
        """Bring in the server's news and switch screens when it calls for it (MatchView's link protocol)."""
        now = self.clock() if now is None else now
        for message in self.link.client.drain():
            self.link.apply(self.state, message, now)
            if isinstance(message, Welcome) and self.first_request is not None:
                self.link.request(self.first_request)
                self.first_request = None
            if isinstance(message, RoomJoined) and self.practice is not None and message.seat != "spectator":
                self.practice.start_bot(message.code)
        self.link.poll(self.state, now)
        for message in self.link.other:
            self.lobby.apply(message)
        self.link.other.clear()
        if self.practice is not None and self.practice.bot_failed():
            self.lobby.error = self.practice.bot_failed() or ""
        self._follow()

    def send(self, action: Action) -> None:
        """A coach's action (MatchView's link protocol)."""
        self.link.send(action)

    def _follow(self) -> None:
        """Switch to the screen the state calls for."""
        state = self.state
        if state.position is None:
            if self.screen not in ("lobby", ""):
                self.show_lobby()
        elif self.link.ended is not None and not state.busy:
            if self.screen != "results":
                self.show_results()
        elif self.screen != "match":
            self.show_match()

    # ----------------------------------------------------------------- screens
    def show_lobby(self) -> None:
        """The lobby menu."""
        self.screen = "lobby"
        self.window.show_view(LobbyView(self.lobby, self.lobby_request, self.poll))

    def show_match(self) -> None:
        """The match view for the joined room."""
        self.screen = "match"
        self.window.show_view(MatchView(self.state, self, self.sounds, self.clock, on_leave=self.leave))

    def show_results(self) -> None:
        """The results of the match that just ended."""
        assert self.link.ended is not None
        self.screen = "results"
        self.window.show_view(ResultsView(self.state, self.link.ended, self.choose, lambda: self.link.rematch,
                                          self.poll))

    # ----------------------------------------------------------------- commands
    def lobby_request(self, request: object) -> None:
        """A lobby request: send it, or close the window on ``QUIT``."""
        if request == QUIT:
            self.window.close()
        elif not self.link.request(request):
            self.lobby.error = "Not connected yet — try again in a moment"

    def choose(self, command: str) -> None:
        """A results button: ask for the rematch, or go back to the lobby."""
        if command == "rematch" and self.practice is not None:
            self.leave()  # the bot plays one match: a practice rematch is a new practice room with a new bot
            self.lobby_request(self.lobby.activate("create"))
        elif command == "rematch":
            self.link.request(Rematch())
        elif command == "lobby":
            self.leave()

    def leave(self) -> None:
        """Leave the room and show the lobby (a coach leaving a running match resigns it)."""
        self.link.request(Leave())
        self.link.leave_room(self.state)
        self.lobby.screen, self.lobby.focus = "menu", 0
        self.show_lobby()

"""Which screen is up — lobby, match, results — and the moves between them as the server's news arrives
(a VIEW module: it imports arcade).

Why one owner: the connection (``client.match.net.NetLink``) outlives every screen. The navigator polls it
once per frame from whichever view is shown, hands lobby news to the lobby model, and switches views:
joined a room → match; the match ended and its last move has played back → results; a rematch's new
snapshot → match again; left the room → lobby. When the lobby asks to play the bot (``PlayBot``) it creates
the private room and, once seated there, starts the bot for it (``client.player.bot_process``) — on the private
practice server and on any other server alike — and stops it by pid when the match ends or we leave. The
results screen's "Save replay" goes through ``client.match.replay_saver``, which takes the server's answer here.

A new player meets the name entry first (``client.player.name_entry``), and again whenever the server refuses his Hello;
once welcomed he is in the lobby.

Tournaments: the lobby's "Tournaments" page (``client.player.tournament_list``) enters the player; from then on his
tournament (``client.player.tournament_session``) takes the tournament's news first, and his screen
(``client.player.tournament_view``) is his home between matches: when a round gives him a table he is shown it and taken
there (``JoinRoom``), and after the match he comes back to it. "Watch in the hall" runs the hall's director
(``client.hall.hall_director``) on this connection until Escape. "Servers" (``client.player.servers_page``) lists the
LAN's servers from ``client.common.lan_browser`` and connects to the one chosen (``connect`` makes the connection,
identity per server).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import arcade

from client.common import i18n, user_settings
from client.common.help_view import open_help
from client.common.i18n import _
from client.common.lan_browser import BackgroundBrowser
from client.common.league_model import assignment_words
from client.common.local_server import LocalWatch
from client.common.menu import QUIT, Close, LivePage, OpenClaimCode, OpenLeaderboard, OpenProfile, WatchReplay
from client.common.menu_view import LobbyView
from client.common.rating_text import results_lines
from client.common.sound import Sounds
from client.hall.hall_director import HallDirector
from client.match.match_view import MatchView
from client.match.net import HELLO_REFUSALS, ConnectionEvent, NetClient, NetLink, is_guest
from client.match.replay_saver import ReplaySaver
from client.match.state import MatchState
from client.player.bot_process import BotProcess
from client.player.claim_code import ClaimPage
from client.player.dispute_page import DisputePage
from client.player.leaderboard_model import LeaderboardPage
from client.player.league_list import LeaguesPage
from client.player.lobby_model import (
    LobbyModel,
    OpenHelp,
    OpenLeagues,
    OpenMyTournament,
    OpenReplay,
    OpenServers,
    OpenTournaments,
    Origin,
    PlayBot,
)
from client.player.name_entry import Introduce, NameEntry
from client.player.profile_model import ProfilePage
from client.player.results_view import ResultsView
from client.player.servers_page import ConnectTo, ServersPage
from client.player.tournament_list import OpenHall, TournamentsPage
from client.player.tournament_session import TournamentSession
from client.player.tournament_view import TournamentView
from shared.model import Action
from shared.names import name_key
from shared.protocol import (
    CLIENT_MESSAGES,
    ClientMessage,
    Error,
    JoinRoom,
    LeagueGameAssigned,
    LeagueJoined,
    Leave,
    Rematch,
    Rename,
    RoomJoined,
    TableAssigned,
    TournamentJoined,
    Watch,
    Welcome,
)


class Navigator:
    """Owns the match state and the lobby model and shows the right view in ``window``."""

    def __init__(self, window: arcade.Window, link: NetLink, lobby: LobbyModel, sounds: Sounds,
                 bot: BotProcess | None = None, clock: Callable[[], float] = time.monotonic,
                 user: user_settings.UserSettings | None = None, keep: bool = False) -> None:
        """Navigate ``window`` for ``link``; ``bot`` is the bot process "Play the bot" starts and stops; ``user``
        the player's settings (written to the config directory on every change when ``keep``)."""
        self.window = window
        self.user = user or user_settings.UserSettings()
        self.keep = keep
        lobby.user, lobby.on_settings = self.user, self.apply_settings
        lobby.first_start = not self.user.intro_seen
        self.link = link
        link.client.on_news = getattr(window, "wake_soon", None)  # an idle window ticks again when news comes
        self.lobby = lobby
        self.sounds = sounds
        self.bot = bot or BotProcess()
        self.bot_wanted: PlayBot | None = None  # asked for, waiting for the room to be created
        self.bot_game: PlayBot | None = None  # the bot match now being played (a rematch repeats it)
        self.bot_problem = ""
        self.clock = clock
        self.state = MatchState()
        self.screen = ""
        self.first_request: ClientMessage | None = None  # sent once welcomed (``--room``, ``--quick``)
        self.wanted_name: str | None = None  # ``--name``: a returning player is renamed to it once welcomed
        self.entry: NameEntry | None = None  # the name entry, while the player says who he is
        self.saver = ReplaySaver(self.link.request)  # "Save replay" of the results screen now shown
        self.fetcher = ReplaySaver(self.link.request)  # a profile's "watch this match"
        self.overlays: list[tuple[LivePage | None, arcade.View]] = []  # pages (or a replay) over the screen, and
        # the view each one covers
        self.tournament: TournamentSession | None = None  # the tournament the player is entered in
        self.hall: HallDirector | None = None  # the hall shown on this connection, while it is
        self.browser: BackgroundBrowser | None = None  # the LAN's servers, once "Servers" was opened
        self.local: LocalWatch | None = None  # whether a server runs on this computer, once "Servers" was opened
        self.connect: Callable[[str], NetClient] | None = None  # a connection to another server (``sprtec play``)

    # ----------------------------------------------------------------- the link every view polls
    def poll(self, state: MatchState | None = None, now: float | None = None) -> None:
        """Bring in the server's news and switch screens when it calls for it (MatchView's link protocol)."""
        now = self.clock() if now is None else now
        for message in self.link.client.drain():
            self.link.apply(self.state, message, now)
            if isinstance(message, RoomJoined):
                self.lobby.answered()
            self._identity_news(message)
            if isinstance(message, Welcome) and self.first_request is not None:
                self.link.request(self.first_request)
                self.first_request = None
            self._bot_news(message)
        self.link.poll(self.state, now)
        for message in self.link.other:
            if isinstance(message, Error) and message.ref == "Hello":
                continue  # the name entry's
            if self._tournament_news(message, now) or self._league_news(message):
                continue
            page = self.top_page()
            if page is not None and page.apply(message):
                continue
            if self.fetcher.take(message):
                self._fetched()
            elif not self.saver.take(message):
                self.lobby.apply(message)
        self.link.other.clear()
        self._to_the_table(now)
        problem = self.bot.failed()
        if problem and problem != self.bot_problem:
            self.bot_problem = self.lobby.error = problem
            self.state.note(problem, "error")
        self._follow()

    def _tournament_news(self, message: object, now: float) -> bool:
        """The player's tournament takes its news first; an entry confirmed (or his already) opens his screen, and a
        table given to a returning coach opens his tournament. True when nothing else needs the message."""
        disputing = self.top_page()
        if isinstance(disputing, DisputePage) and disputing.apply(message):
            return True  # the answer to his dispute is the page's, not the tournament screen's
        if isinstance(message, TournamentJoined):
            page = self.top_page()
            if page is not None:
                page.apply(message)
            self.enter_tournament(message.tournament, message.entry, message.name)
            return True
        if isinstance(message, Error) and message.ref == "JoinTournament" and message.code == "ALREADY_ENTERED":
            page = self.top_page()
            chosen = getattr(page, "chosen", None)
            if chosen is not None:
                self.enter_tournament(chosen.tournament, None, self.lobby.player or "")
                return True
        if isinstance(message, TableAssigned) and (self.tournament is None
                                                   or self.tournament.tournament != message.tournament):
            self.enter_tournament(message.tournament, None, self.lobby.player or "", show=False)
        session = self.tournament
        if session is None or not session.apply(message, now):
            return False
        if isinstance(message, TableAssigned) and self.screen not in ("match", "tournament", "hall") and \
                session.phase(now) in ("assigned", "board"):  # his table, or his board's score to enter
            self.show_tournament()
        return True

    def _league_news(self, message: object) -> bool:
        """A league's place taken is said; a league's game assigned takes the player to its table at once, with
        "Round 2 of Most–Brno: you play Novák, board 3" in the log under the board. True when it was one."""
        if isinstance(message, LeagueJoined | Error) and getattr(message, "ref", "JoinLeague") == "JoinLeague":
            page = self.top_page()
            if page is not None and page.apply(message):
                return True
        if isinstance(message, LeagueJoined):
            self.state.note(_("You play for {team} as {name} in league {league}").format(
                team=message.team_name or message.team, name=message.name, league=message.league))
            return True
        if isinstance(message, Error) and message.ref == "JoinLeague":
            self.lobby.error = message.message
            return True
        if not isinstance(message, LeagueGameAssigned):
            return False
        if self.state.room != message.room:
            if self.state.room is not None:
                self._seat(Leave())
            self.state.note(assignment_words(message))
            self.link.request(JoinRoom(message.room))
        return True

    def _to_the_table(self, now: float) -> None:
        """Take the player to his table once its assignment has been read (the session says when); at the table,
        the match's screen counts the no-show walkover down while the opponent has not come."""
        session = self.tournament
        if session is None:
            return
        self.state.no_show_until = session.no_show_deadline(self.state.room)
        for news in session.fresh:  # the organiser's decisions about him reach him at his table too
            self.state.note(news, "error")
        session.fresh.clear()
        for request in session.due(now, self.state.room):
            self._seat(request)

    def _seat(self, request: ClientMessage) -> None:
        """Send a request on the way to the table (leaving a room forgets it here too)."""
        if isinstance(request, Leave):
            if self.bot.plays(self.state.room):
                self.bot.stop()
            self.link.request(request)
            self.link.leave_room(self.state)
        elif not self.link.request(request) and self.tournament is not None:
            self.tournament.taken = False  # not connected: try again on the next frame

    def enter_tournament(self, tournament: str, entry: str | None, name: str, show: bool = True) -> None:
        """Follow the player's tournament from now on, and show his screen (``show``)."""
        if self.tournament is None or self.tournament.tournament != tournament:
            self.tournament = TournamentSession(tournament, entry, name)
            for request in self.tournament.first_requests():
                self.link.request(request)
        elif entry is not None:
            self.tournament.entry, self.tournament.name = entry, name
        self.lobby.tournament_name = self.tournament.title()
        if show:
            self.show_tournament()

    def _identity_news(self, message: object) -> None:
        """The name entry follows the Hello's answer: a refusal shows it (again), the Welcome leaves it for the lobby
        (a name chosen there is proposed on the next new server); ``--name`` renames a returning player."""
        refused = isinstance(message, Error) and message.ref == "Hello" and message.code in HELLO_REFUSALS
        if refused and self.entry is None:
            self.show_entry()
        if self.entry is not None and (refused or isinstance(message, Welcome | Error | ConnectionEvent)):
            self.entry.apply(message)
        if not isinstance(message, Welcome):
            return
        if self.entry is not None:
            self.entry = None
            if not is_guest(message.player) and message.player != self.user.name:
                self.apply_settings(self.user.changed(name=message.player))
            self.show_lobby()
        wanted, self.wanted_name = self.wanted_name, None
        if wanted is not None and name_key(wanted) != name_key(message.player):
            self.link.request(Rename(wanted))

    def _bot_news(self, message: object) -> None:
        """Start the bot once seated in the room created for it; forget the wish if the room was refused."""
        wanted = self.bot_wanted
        if wanted is None:
            return
        if isinstance(message, RoomJoined) and message.seat != "spectator":
            self.bot_wanted, self.bot_game = None, wanted
            self.bot.start(self.link.client.url, message.code, wanted.create.ruleset, wanted.create.settings,
                           wanted.level)
            self.state.against_bot = True
            self.state.note(_("The bot is on its way to your room"))
        elif isinstance(message, Error) and message.ref == "CreateRoom":
            self.bot_wanted = None

    def send(self, action: Action) -> None:
        """A coach's action (MatchView's link protocol)."""
        self.link.send(action)

    def _follow(self) -> None:
        """Switch to the screen the state calls for (a table just given stays on the screen until he is taken there,
        over the results of his last match too)."""
        state = self.state
        session = self.tournament
        if self.screen == "tournament" and session is not None and session.phase(self.clock()) == "assigned":
            return
        if state.position is None:
            if self.screen not in ("lobby", "", "replay", "name", "tournament", "hall"):
                self.show_home()
        elif self.link.ended is not None and not state.busy:
            if self.screen != "results":
                self.show_results()
        elif self.screen != "match":
            self.show_match()

    # ----------------------------------------------------------------- screens
    def show_first(self) -> None:
        """The first screen: the name entry for a new player who has not said who he is, else the lobby."""
        if self.link.client.awaiting_name:
            self.show_entry()
        else:
            self.show_lobby()

    def show_entry(self) -> None:
        """Ask who the player is on this server (the name he chose last is offered)."""
        if self.entry is None:
            self.entry = NameEntry(self.link.client.url, self.user.name)
        self.screen = "name"
        self.overlays.clear()
        self.window.show_view(LobbyView(self.entry, self.entry_request, self.poll))

    def entry_request(self, request: object) -> None:
        """The name entry's answer goes into the Hello; Quit closes the window."""
        if request == QUIT:
            self.window.close()
        elif isinstance(request, Introduce):
            self.link.client.introduce(request.name, request.claim)

    def show_lobby(self) -> None:
        """The lobby menu."""
        self.screen = "lobby"
        self.overlays.clear()
        self.window.show_view(LobbyView(self.lobby, self.lobby_request, self.poll))

    def show_home(self) -> None:
        """Between matches: the player's tournament while it runs, else the lobby."""
        if self.tournament is not None and not self.tournament.finished():
            self.show_tournament()
        else:
            self.show_lobby()

    def show_tournament(self) -> None:
        """The player's tournament screen (his table, the standings, the tables being played)."""
        session = self.tournament
        if session is None:
            self.show_lobby()
            return
        self.screen = "tournament"
        self.overlays.clear()
        self.lobby.tournament_name = session.title()
        self.window.show_view(TournamentView(session, self.tournament_command, self.poll, self.clock))

    def tournament_command(self, command: str) -> None:
        """The tournament screen's buttons: check in, go to the table, watch a table or the hall, the lobby."""
        session = self.tournament
        if session is None:
            self.show_lobby()
            return
        if command == "checkin":
            request = session.check_in()
            if request is not None and not self.link.request(request):
                session.checking_in, session.error = False, _("Not connected yet — try again in a moment")
        elif command == "table":
            for request in session.go_to_table(self.state.room):
                self._seat(request)
        elif command.startswith("score:"):
            _verb, side, by = command.split(":")
            session.draft.step(side, int(by))
        elif command == "shootout":
            session.draft.cycle_shootout()
        elif command == "enter":
            request = session.enter_result()
            if request is not None and not self.link.request(request):
                session.error = _("Not connected yet — try again in a moment")
        elif command == "dispute" and session.disputable() is not None:
            where, match = session.disputable() or ((0, 0, 0), "")
            self.open_page(DisputePage(session.tournament, where, match))
        elif command.startswith("watch:"):
            self.link.request(Watch(command.partition(":")[2]))
        elif command == "hall":
            self.show_hall(session.tournament)
        elif command == "lobby":
            self.lobby.back_from_match()
            self.show_lobby()

    def show_hall(self, tournament: str) -> None:
        """The spectators' hall of ``tournament`` on this connection; Escape comes back here."""
        def closed() -> None:
            """The hall closed: back home."""
            self.hall = None
            self.link.leave_room(self.state)
            self.show_home()

        def forward(message: object) -> None:
            """The player's tournament hears its news in the hall too; his table closes the hall."""
            self._tournament_news(message, self.clock())
            if isinstance(message, TableAssigned) and self.hall is not None:
                self.hall.close()

        self.screen = "hall"
        self.overlays.clear()
        self.hall = HallDirector(self.window, self.link, tournament, on_close=closed, sounds=self.sounds,
                                 clock=self.clock, state=self.state, forward=forward)
        self.hall.start()

    def open_servers(self) -> None:
        """The servers page, the LAN being searched from now on."""
        if self.browser is None:
            self.browser = BackgroundBrowser()
            self.browser.start()
        if self.local is None:
            self.local = LocalWatch()
            self.local.start()
        browser, local = self.browser, self.local
        self.open_page(ServersPage(browser.snapshot, self.link.client.url, lambda: browser.error,
                                   lambda: local.running))

    def switch_server(self, target: ConnectTo) -> None:
        """Connect to another server: a new connection (the identity kept for that server), a fresh lobby."""
        if self.connect is None:
            page = self.top_page()
            if page is not None:
                page.error = _("This window cannot change its server")
            return
        if target.url == self.link.client.url:
            self.close_overlay()
            return
        if self.bot.plays(self.state.room):
            self.bot.stop()
        self.link.client.close()
        self.link.leave_room(self.state)
        client = self.connect(target.url)
        client.on_news = getattr(self.window, "wake_soon", None)
        self.link = NetLink(client)
        self.saver = ReplaySaver(self.link.request)
        self.fetcher = ReplaySaver(self.link.request)
        self.tournament, self.hall = None, None
        self.lobby.tournament_name = None
        self.lobby.practice = False
        self.lobby.connected, self.lobby.player = False, None
        self.lobby.origin = Origin("server", target.url, target.name)
        self.lobby.status = _("Connecting…")
        self.lobby.back_from_match()
        client.start()
        self.show_first()

    def close(self) -> None:
        """Stop searching the LAN (the window is closing)."""
        if self.browser is not None:
            self.browser.close()
            self.browser = None
        if self.local is not None:
            self.local.close()
            self.local = None

    def show_match(self) -> None:
        """The match view for the joined room (a first match marks the first-start hint as seen)."""
        self.screen = "match"
        self.overlays.clear()
        view = MatchView(self.state, self, self.sounds, self.clock, on_leave=self.leave)
        view.aim_guide = self.user.aim_guide
        view.on_help = lambda: open_help(self.window, "play")
        self._seen_intro()
        self.window.show_view(view)

    def show_results(self) -> None:
        """The results of the match that just ended (the bot, its match over, is stopped)."""
        ended = self.link.ended
        assert ended is not None
        self.screen = "results"
        self.overlays.clear()
        if self.bot.plays(self.state.room):
            self.bot.stop()
        self.saver = ReplaySaver(self.link.request, report=self.saver.report)  # a new match: nothing saved yet
        self.window.show_view(ResultsView(self.state, ended, self.choose, lambda: self.link.rematch, self.poll,
                                          lambda: self.saver.status, self.rating_lines,
                                          table=self.at_tournament_table()))

    def at_tournament_table(self) -> bool:
        """Whether the room shown was one of the player's tables in his tournament (no rematch there)."""
        session = self.tournament
        return session is not None and self.state.room is not None and self.state.room in session.table_rooms

    def rating_lines(self) -> tuple[str, ...]:
        """What the match that just ended did to both coaches' ratings ("rating…" until Rated comes)."""
        ended = self.link.ended
        if ended is None:
            return ()
        return results_lines(self.link.room_rated, self.link.rated_news, ended.match_id, self.state.coaches_named(),
                             self.clock() - self.link.ended_at, self.state.coach_moves)

    def show_replay(self, path: Path, over: bool = False) -> None:
        """A saved replay, playing; Escape comes back to the lobby's "My replays" (``over``: to the page it was
        opened from)."""
        from client.match.replay_model import ReplayCursor, load
        from client.match.replay_view import ReplayView
        from shared.notation import NotationError

        try:
            replay = load(path)
        except (OSError, ValueError, NotationError) as exc:
            self.lobby.error = _("Cannot open {name}: {why}").format(name=path.name, why=exc)
            return
        state = MatchState(names={"home": _("Home"), "away": _("Away"), **replay.names})
        cursor = ReplayCursor(replay)
        cursor.jump(state, 0, self.clock())

        def back() -> None:
            """Back to the list of replays."""
            self.screen = "lobby"
            self.window.show_view(LobbyView(self.lobby, self.lobby_request, self.poll))

        if over:
            self._cover(None)
        else:
            self.screen = "replay"
        self.window.show_view(ReplayView(cursor, state, self.sounds, self.clock,
                                         close_to=self.close_overlay if over else back, autoplay=True))

    # ----------------------------------------------------------------- pages over a screen
    def top_page(self) -> LivePage | None:
        """The page shown now over the screen, if any."""
        return self.overlays[-1][0] if self.overlays else None

    def open_page(self, page: LivePage) -> None:
        """Show ``page`` over what the window shows now (Back comes back to it) and ask the server for its news."""
        self._cover(page)
        first = page.first_request()
        if first is not None and not self.link.request(first):
            page.error = _("Not connected yet — try again in a moment")
        page.settle_focus()
        self.window.show_view(LobbyView(page, self.page_request, self.poll))

    def _cover(self, page: LivePage | None) -> None:
        """Remember the view that ``page`` (None: a replay) is about to cover."""
        under = self.window.current_view
        if under is not None:
            self.overlays.append((page, under))

    def close_overlay(self) -> None:
        """Back to the view under the top page (or replay)."""
        if not self.overlays:
            self.show_lobby()
            return
        _page, under = self.overlays.pop()
        self.window.show_view(under)

    def page_request(self, request: object) -> None:
        """A page's request: back, another page, a match's replay, or a message for the server."""
        if isinstance(request, Close):
            self.close_overlay()
        elif isinstance(request, OpenProfile):
            self.open_page(ProfilePage(request.player, self.lobby.player))
        elif isinstance(request, OpenLeaderboard):
            self.open_page(LeaderboardPage(request.ruleset))
        elif isinstance(request, OpenClaimCode):
            self.open_page(ClaimPage(self.clock))
        elif isinstance(request, OpenHall):
            self.show_hall(request.tournament)
        elif isinstance(request, ConnectTo):
            self.switch_server(request)
        elif isinstance(request, WatchReplay):
            self.fetcher.ask(request.match_id, {"home": request.home, "away": request.away})
            page = self.top_page()
            if page is not None:
                page.error = self.fetcher.status
        elif isinstance(request, CLIENT_MESSAGES) and not self.link.request(request):
            page = self.top_page()
            if page is not None:
                page.error = _("Not connected yet — try again in a moment")

    def _fetched(self) -> None:
        """A replay a page asked for has come: open it over the page (or say why it was not saved)."""
        page = self.top_page()
        path, self.fetcher.saved = self.fetcher.saved, None
        if path is None:
            if page is not None:
                page.error = self.fetcher.status
            return
        if page is not None:
            page.error = ""
        self.show_replay(path, over=True)

    # ----------------------------------------------------------------- commands
    def lobby_request(self, request: object) -> None:
        """A lobby request: send it, or close the window on ``QUIT``."""
        if request == QUIT:
            self.window.close()
        elif isinstance(request, OpenReplay):
            self.show_replay(request.path)
        elif isinstance(request, OpenProfile | OpenLeaderboard | OpenClaimCode):
            self.page_request(request)
        elif isinstance(request, OpenHelp):
            self._seen_intro()
            open_help(self.window, "play")
        elif isinstance(request, OpenTournaments):
            self.open_page(TournamentsPage())
        elif isinstance(request, OpenLeagues):
            self.open_page(LeaguesPage())
        elif isinstance(request, OpenMyTournament):
            self.show_tournament()
        elif isinstance(request, OpenServers):
            self.open_servers()
        elif isinstance(request, PlayBot):
            if self.link.request(request.create):
                self.bot_wanted = request
            else:
                self.lobby.error = _("Not connected yet — try again in a moment")
        elif isinstance(request, CLIENT_MESSAGES) and not self.link.request(request):
            self.lobby.error = _("Not connected yet — try again in a moment")

    def choose(self, command: str) -> None:
        """A results button: ask for the rematch, save the replay, open a coach's profile, or go back to the lobby."""
        if command == "rematch" and self.bot.plays(self.state.room) and self.bot_game is not None:
            game = self.bot_game
            self.leave()  # the bot plays one match: a rematch is a new private room with a new bot
            self.lobby_request(game)
        elif command == "rematch":
            self.link.request(Rematch())
        elif command == "save" and self.link.ended is not None:
            names = dict(self.state.names)
            score = self.link.ended.score
            self.saver.ask(self.link.ended.match_id, names, (score.home, score.away))
        elif command == "lobby":
            self.leave()
        elif command.startswith("profile:"):
            self.page_request(OpenProfile(command.partition(":")[2]))

    def leave(self) -> None:
        """Leave the room and show the lobby (a coach leaving a running match resigns it; our bot is stopped); from
        a table of his tournament he goes back to the tournament's screen, its final standings after the last."""
        table = self.at_tournament_table()
        if self.bot.plays(self.state.room):
            self.bot.stop()
        self.link.request(Leave())
        self.link.leave_room(self.state)
        self.lobby.back_from_match()
        if table:
            self.show_tournament()
        else:
            self.show_home()

    # ----------------------------------------------------------------- settings
    def apply_settings(self, user: user_settings.UserSettings) -> None:
        """Apply changed settings at once — sound, full screen, language, the aiming guide — and keep them."""
        self.user = self.lobby.user = user
        self.sounds.configure(user.volume, user.effects, user.muted)
        if bool(self.window.fullscreen) != user.fullscreen:
            self.window.set_fullscreen(user.fullscreen)
        if user.language != i18n.language() or not user.language:
            i18n.set_language(user.language or None)
        if isinstance(self.window.current_view, MatchView):
            self.window.current_view.aim_guide = user.aim_guide
        if self.keep:
            try:
                user_settings.save(user)
            except OSError as exc:
                self.lobby.error = _("Settings not saved: {why}").format(why=exc)

    def _seen_intro(self) -> None:
        """The first-start hint has done its job."""
        self.lobby.first_start = False
        if not self.user.intro_seen:
            self.apply_settings(self.user.changed(intro_seen=True))

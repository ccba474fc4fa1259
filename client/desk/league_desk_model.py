"""The organiser's desk of a league day as plain data: the open match day's team matches, the line-ups still to be
given, each fixture's next round to start (at tables or on boards) and the boards' results to enter, as protocol
requests carrying the league's organiser secret (pure: no arcade, no sockets, no files).

Why a model of its own beside the tournament's desk: a league day is run other than a tournament round - the day is
opened, each team match waits for its two line-ups (given by the captains, or here by the organiser in board order),
and its rounds start one by one - but it is painted the same way (``client.common.menu`` pages, the lobby's view), so
it answers the keyboard as every other screen. Each command gives a request out, the server's messages come back
through ``apply``; a refusal is shown as the server said it.
"""

from __future__ import annotations

from client.common.i18n import _
from client.common.league_model import day_fixtures, grid_of, match_heading, match_state
from client.common.menu import QUIT, Item, Page
from shared.protocol import (
    ClientMessage,
    Error,
    FixtureLine,
    LeagueDone,
    LeagueResult,
    LeagueUpdate,
    OpenMatchDay,
    Score,
    StartLeagueRound,
    SubmitLineup,
    WatchLeague,
    Welcome,
)

MAX_GOALS = 30


class LeagueDeskModel(Page):
    """The desk of one league (``league``, ``secret``) on ``server``; ``screen`` is ``home``, ``lineup`` or
    ``results``."""

    def __init__(self, *, server: str, league: str, secret: str) -> None:
        super().__init__()
        self.server = server
        self.league = league.upper()
        self.secret = secret
        self.update: LeagueUpdate | None = None
        self.screen = "home"
        self.fixture = ""  # the fixture of the line-up or results screen
        self.team = ""  # the team whose line-up is being given
        self.lineup: list[int] = []  # board i: the index in the roster of the player chosen
        self.goals: dict[int, list[int]] = {}  # board -> [home goals, away goals] of the results screen
        self.connected = False
        self.pending: list[ClientMessage] = []  # the results a save sends after its first request

    # ----------------------------------------------------------------- the server
    def first_requests(self) -> list[ClientMessage]:
        """Follow the league once welcomed."""
        return [WatchLeague(self.league)]

    def apply(self, message: object) -> list[ClientMessage]:
        """The server's news: the league's updates, answers and refusals."""
        if isinstance(message, Welcome):
            self.connected = True
            self.status = _("Connected to {server}").format(server=self.server)
        elif isinstance(message, LeagueUpdate) and message.league == self.league:
            self.update = message
        elif isinstance(message, LeagueDone):
            self.error = ""
            if message.ref in ("SubmitLineup", "LeagueResult"):
                self.screen = "home"
        elif isinstance(message, Error) and message.ref in ("OpenMatchDay", "SubmitLineup", "StartLeagueRound",
                                                            "LeagueResult", "WatchLeague"):
            self.error = message.message
        return []

    # ----------------------------------------------------------------- what is shown
    def heading(self) -> str:
        """The league's name."""
        return self.update.name if self.update is not None and self.update.name else self.league

    def subtitle(self) -> str:
        """The screen."""
        if self.screen == "lineup":
            return _("Line-up of {team}").format(team=self._team_name(self.team))
        if self.screen == "results":
            f = self._fixture()
            return _("Results of round {n}").format(n=f.round if f is not None else 0)
        if self.update is None:
            return _("Waiting for the league…")
        return _("Match day {n}").format(n=self.update.day) if self.update.day else _("No match day open yet")

    def notes(self) -> tuple[str, ...]:
        """The screen's facts: the fixture's state on its screens."""
        f = self._fixture()
        if self.screen != "home" and f is not None and self.update is not None:
            grid = grid_of(self.update, f)
            return (match_heading(grid), match_state(grid))
        return ()

    def wide(self) -> bool:
        """The day's fixtures as a table."""
        return True

    def items(self) -> list[Item]:
        """The screen's lines."""
        if self.update is None:
            return [Item(_("Quit"), "quit")]
        if self.screen == "lineup":
            return self._items_lineup()
        if self.screen == "results":
            return self._items_results()
        return self._items_home()

    def _items_home(self) -> list[Item]:
        """Each team match of the open day with its state and its next act; opening the next day."""
        update = self.update
        assert update is not None
        out: list[Item] = []
        for f in day_fixtures(update):
            grid = grid_of(update, f)
            out.append(Item(f"{match_heading(grid)}  ·  {match_state(grid)}", f"fixture:{f.fixture}", "text"))
            out += self._fixture_acts(f, update.team_size)
        days = sorted({f.day for f in update.fixtures})
        later = [d for d in days if d > update.day]
        if later and all(f.finished for f in day_fixtures(update)):
            out.append(Item(_("Open match day {n}").format(n=later[0]), f"day:{later[0]}"))
        out.append(Item(_("Quit"), "quit"))
        return out

    def _fixture_acts(self, f: FixtureLine, size: int) -> list[Item]:
        """A fixture's next act: its missing line-ups, its next round (at tables or on boards), its boards' results."""
        group = f"acts:{f.fixture}"
        if f.finished:
            return []
        if not (f.lineup_home_in and f.lineup_away_in):
            return [Item(_("Line-up of {team}").format(team=self._team_name(team)), f"lineup:{f.fixture}:{team}",
                         group=group) for team, given in ((f.home, f.lineup_home_in), (f.away, f.lineup_away_in))
                    if not given]
        waiting = [g for g in f.games if g.round == f.round and g.status == "waiting" and g.room is None]
        if f.round and waiting:
            return [Item(_("Enter the results of round {n}").format(n=f.round), f"results:{f.fixture}",
                         group=group)]
        if f.round < size and all(g.status in ("ended", "walkover") for g in f.games if g.round == f.round):
            number = f.round + 1
            return [Item(_("Start round {n} at tables").format(n=number), f"start:{f.fixture}", group=group),
                     Item(_("Start round {n} on boards").format(n=number), f"boards:{f.fixture}", group=group)]
        return []

    def _items_lineup(self) -> list[Item]:
        """Board by board, the roster player chosen (←/→), then give it."""
        roster = self._roster(self.team)
        out = [Item(_("Board {n}: {player}").format(n=i + 1, player=roster[choice][1] if roster else ""),
                    f"board:{i}", "choice") for i, choice in enumerate(self.lineup)]
        chosen = [roster[c][0] for c in self.lineup] if roster else []
        twice = len(set(chosen)) != len(chosen)
        out.append(Item(_("Give the line-up"), "give", enabled=not twice,
                        hint=_("A player is named twice") if twice else ""))
        out.append(Item(_("Back"), "back"))
        return out

    def _items_results(self) -> list[Item]:
        """Each game of the round on boards: the home and the away player's goals (←/→), then save them all."""
        f = self._fixture()
        update = self.update
        out: list[Item] = []
        if f is None or update is None:
            return [Item(_("Back"), "back")]
        for g in (g for g in f.games if g.round == f.round and g.status == "waiting"):
            goals = self.goals.setdefault(g.board, [0, 0])
            home, away = update.names.get(g.home, g.home), update.names.get(g.away, g.away)
            out.append(Item(_("Board {n}: {player}").format(n=g.board, player=home) + f"  {goals[0]}",
                            f"goals:{g.board}:0", "choice", group=f"board{g.board}"))
            out.append(Item(f"{goals[1]}  {away}", f"goals:{g.board}:1", "choice", group=f"board{g.board}"))
        out.append(Item(_("Save the results"), "save"))
        out.append(Item(_("Back"), "back"))
        return out

    # ----------------------------------------------------------------- acts
    def activate(self, command: str) -> object | None:
        """A command: a request for the server, a screen, or quitting."""
        verb, _sep, arg = command.partition(":")
        if verb == "quit":
            return QUIT
        if verb == "back":
            self.screen, self.error = "home", ""
            return None
        if verb == "day":
            return OpenMatchDay(self.league, self.secret, int(arg))
        if verb in ("start", "boards"):
            return StartLeagueRound(league=self.league, secret=self.secret, fixture=arg, boards=verb == "boards")
        if verb == "lineup":
            self.fixture, _sep, self.team = arg.partition(":")
            size = self.update.team_size if self.update is not None else 0
            self.lineup = list(range(min(size, len(self._roster(self.team)))))
            self.screen, self.focus = "lineup", 0
            return None
        if verb == "give":
            roster = self._roster(self.team)
            return SubmitLineup(league=self.league, fixture=self.fixture, players=tuple(roster[c][0]
                                                                                       for c in self.lineup),
                                team=self.team, secret=self.secret)
        if verb == "results":
            self.fixture, self.goals, self.screen, self.focus = arg, {}, "results", 0
            return None
        if verb == "save":
            return self._results()
        return None

    def _results(self) -> object | None:
        """Every game of the round shown, one LeagueResult each (the first is given back; the others follow)."""
        f = self._fixture()
        if f is None:
            return None
        for g in f.games:
            if g.round == f.round and g.status == "waiting":
                self.goals.setdefault(g.board, [0, 0])  # a board not touched is a goalless draw, as shown
        requests: list[ClientMessage] = [
            LeagueResult(league=self.league, secret=self.secret, fixture=f.fixture, round=f.round, board=board,
                         score=Score(*goals)) for board, goals in sorted(self.goals.items())]
        self.pending = requests[1:]
        return requests[0] if requests else None

    def take_pending(self) -> list[ClientMessage]:
        """The requests a save gave beyond its first."""
        out, self.pending = self.pending, []
        return out

    def cycle(self, command: str, step: int) -> object | None:
        """←/→: the player of a board, or a side's goals."""
        verb, _sep, arg = command.partition(":")
        if verb == "board":
            roster = self._roster(self.team)
            index = int(arg)
            if roster:
                self.lineup[index] = (self.lineup[index] + step) % len(roster)
        elif verb == "goals":
            board, _sep, side = arg.partition(":")
            goals = self.goals.setdefault(int(board), [0, 0])
            goals[int(side)] = max(0, min(MAX_GOALS, goals[int(side)] + step))
        return None

    # ----------------------------------------------------------------- helpers
    def _fixture(self) -> FixtureLine | None:
        """The fixture of the screen."""
        if self.update is None:
            return None
        return next((f for f in self.update.fixtures if f.fixture == self.fixture), None)

    def _roster(self, team: str) -> list[tuple[str, str]]:
        """A team's roster: (id, name) in the file's order."""
        if self.update is None:
            return []
        line = next((t for t in self.update.teams if t.team == team), None)
        return [] if line is None else list(zip(line.players, line.names, strict=False))

    def _team_name(self, team: str) -> str:
        """A team's name."""
        if self.update is None:
            return team
        return next((t.name for t in self.update.teams if t.team == team), team)

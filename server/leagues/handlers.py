"""The league requests a session routes here: who may ask, and what it does.

Why every check here (as ``server.tournaments.handlers``): a request from the network is hostile until checked. The
organiser's acts need the league's organiser secret (``NOT_ORGANISER``); a line-up needs the team's captain or the
organiser (``NOT_CAPTAIN``); taking a roster place needs its code, a wrong one counting against the address and the
league and answered late (the tournaments' entry-code budget). Creating is the server's policy
(``--tournaments open|named|organisers``: ``NOT_ALLOWED``) and an address creates a few a day (the budget new
tournaments spend). What the contract refuses is the engine's ``LeagueError`` with its code; nothing changes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import wraps
from typing import Any, TypeVar, cast

from server.leagues import league_records as records
from server.leagues.league_core import LeagueCore
from server.leagues.log import ORGANISER, Created, DayOpened, LineupGiven, PlaceTaken, Row
from server.leagues.service import LeagueRun, LeagueService
from server.leagues.state import rounds_started, start
from server.rooms.lobby import Lobby
from server.rooms.room import RoomError
from server.tournaments import credentials
from server.tournaments.creation import Creators
from server.tournaments.entry_names import Field, entry
from server.tournaments.handlers import ENTRY_CODE, NEW_TOURNAMENT, Limits
from server.tournaments.log import Outcome
from shared.league.errors import LeagueError
from shared.league.model import League, Player, Team
from shared.league.reading import parse
from shared.league.writing import to_json
from shared.names import MAX_TOURNAMENT_NAME_CHARS, BadName, clean_name
from shared.protocol import (
    MAX_FIXTURES,
    MAX_LEAGUE_PLAYERS,
    MAX_LEAGUE_TEAMS,
    MAX_TEAM_SIZE,
    NO_SHOW_MS,
    CreateLeague,
    JoinLeague,
    LeagueCreated,
    LeagueDone,
    LeagueJoined,
    LeagueList,
    LeaguePlayerCode,
    LeagueResult,
    ListLeagues,
    OpenMatchDay,
    StartLeagueRound,
    SubmitLineup,
    UnwatchLeague,
    WatchLeague,
)
from shared.tournament.model import Player as EntryPlayer

M = TypeVar("M")
Handler = Callable[[Any, Any], Awaitable[None]]
LEAGUES_LISTED = 200


def refusals(handler: Callable[[Any, Any, M], Awaitable[None]]) -> Callable[[Any, Any, M], Awaitable[None]]:
    """The engine's refusals as the protocol's (``LeagueError`` -> ``RoomError`` with the contract's code)."""

    @wraps(handler)
    async def checked(self: Any, session: Any, message: M) -> None:
        """Run the handler; a contract refusal becomes an Error for the client."""
        try:
            await handler(self, session, message)
        except LeagueError as exc:
            raise RoomError(exc.code, exc.message) from None

    return checked


class LeagueRequests:
    """The requests of players, captains, spectators and organisers about leagues."""

    def __init__(self, service: LeagueService, limits: Limits, creators: Creators | None = None) -> None:
        self.service = service
        self.limits = limits
        self.creators = creators or Creators()

    def handlers(self) -> dict[type, Handler]:
        """Each request type and its answer."""
        table: dict[type, Any] = {
            CreateLeague: self.create, JoinLeague: self.join, OpenMatchDay: self.open_day,
            SubmitLineup: self.lineup, StartLeagueRound: self.start_round, LeagueResult: self.result,
            WatchLeague: self.watch, UnwatchLeague: self.unwatch, ListLeagues: self.list,
        }
        return cast(dict[type, Handler], table)

    # ------------------------------------------------------------------ the organiser
    @refusals
    async def create(self, session: Any, message: CreateLeague) -> None:
        """A new league; its creator gets the organiser secret and every roster player's code."""
        service = self.service
        hasher = service.store.hasher
        refusal = self.creators.refusal(session.name, exempt=session.client.exempt)
        if refusal is not None:
            raise RoomError("NOT_ALLOWED", refusal.replace("tournaments", "tournaments and leagues"))
        self.limits.check(NEW_TOURNAMENT, session.client)
        league = league_of(message)
        league_id = credentials.new_tournament_id()
        while not await service.claim(league_id):  # a cluster: the new league's lease is this node's
            league_id = credentials.new_tournament_id()
        secret = credentials.new_organiser_secret()
        codes = {p.id: credentials.new_entry_code() for t in league.teams for p in t.players}
        created = Created(file=to_json(league), no_show_ms=message.no_show_ms or NO_SHOW_MS,
                                code_hashes={p: credentials.hashed(hasher, c) for p, c in codes.items()},
                                captains=dict(message.captains), settings=dict(message.settings))
        row = Row(index=0, at_ms=service.now_ms(), actor=ORGANISER, event=created)
        state = start(league_id, row)
        stored = records.LeagueRow(id=league_id, name=league.name, secret_hash=credentials.hashed(hasher, secret),
                                   created_at=row.at_ms / 1000)
        await service.store.write(service.fenced(league_id, [records.add_league(stored),
                                                             records.append_event(league_id, row)]))
        service.adopt(LeagueRun(core=LeagueCore(state), secret_hash=stored.secret_hash))
        self.limits.spend(NEW_TOURNAMENT, session.client)
        players = tuple(LeaguePlayerCode(p.id, t.id, p.name[:64], codes[p.id]) for t in league.teams
                        for p in t.players)
        await session.send(LeagueCreated(league_id, secret, players))

    @refusals
    async def open_day(self, session: Any, message: OpenMatchDay) -> None:
        """The organiser opens a match day."""
        run = self._organiser(message.league, message.secret)
        async with run.lock:
            if run.state.day != message.day:
                await self.service.commit(run, [DayOpened(day=message.day)], ORGANISER)
        await session.send(LeagueDone(run.id, "OpenMatchDay", message.day))

    @refusals
    async def start_round(self, session: Any, message: StartLeagueRound) -> None:
        """The organiser starts a fixture's next round, at tables or on boards."""
        run = self._organiser(message.league, message.secret)
        async with run.lock:
            await self.service.transition(run, lambda: run.core.start_round(
                message.fixture, message.boards, ORGANISER, self.service.now_ms()))
            number = rounds_started(run.state.fixture(message.fixture))
        await session.send(LeagueDone(run.id, "StartLeagueRound", number))

    @refusals
    async def result(self, session: Any, message: LeagueResult) -> None:
        """The organiser enters a game's result (a board played at the club) or corrects one."""
        run = self._organiser(message.league, message.secret)
        if (message.score is None) == (message.walkover is None):
            raise LeagueError("BAD_FORMAT", "give either a score or a walkover")
        outcome = Outcome(score=None if message.score is None else (message.score.home, message.score.away),
                          walkover=cast(Any, message.walkover))
        async with run.lock:
            key = (message.fixture, message.round, message.board)
            game = run.state.game(key)
            on_boards = (key[0], key[1]) in run.state.boards
            source = "board" if on_boards and not game.finished else "override"
            await self.service.transition(run, lambda: run.core.record(
                key, outcome, source=source, now=self.service.now_ms(), reason=message.reason, actor=ORGANISER))
        await session.send(LeagueDone(run.id, "LeagueResult"))

    # ------------------------------------------------------------------ captains and players
    @refusals
    async def lineup(self, session: Any, message: SubmitLineup) -> None:
        """A team's line-up: its captain's, or the organiser's naming the team."""
        run = self.service.find(message.league)
        async with run.lock:
            f = run.state.fixture(message.fixture)
            if message.secret is not None:
                run = self._organiser(message.league, message.secret)
                if message.team is None:
                    raise LeagueError("BAD_FORMAT", "the organiser names the team whose line-up this is")
                team, actor = message.team, ORGANISER
            else:
                player = run.state.player_of(session.player_id)
                captain_of = next((t for t, p in run.state.captains.items() if p == player), None)
                if player is None or captain_of is None or (message.team is not None and message.team != captain_of):
                    raise RoomError("NOT_CAPTAIN", f"you are not the captain of {message.team or 'a team'} in "
                                                   f"{run.id}")
                team, actor = captain_of, player
            if team not in (f.home, f.away):
                which = "a team" if message.secret is not None else "your team"
                raise RoomError("NOT_CAPTAIN" if message.secret is None else "BAD_FORMAT",
                                f"fixture {f.id} is {f.home} v {f.away}: {which} {team} does not play it")
            side = "home" if team == f.home else "away"
            await self.service.commit(run, [LineupGiven(fixture=f.id, side=side, players=message.players)], actor)
        await session.send(LeagueDone(run.id, "SubmitLineup"))

    @refusals
    async def join(self, session: Any, message: JoinLeague) -> None:
        """A player takes a roster place with its code; a wrong code counts against his address and the league."""
        run = self.service.find(message.league)
        async with run.lock:
            state = run.state
            own = state.player_of(session.player_id)
            if own is not None:
                raise RoomError("ALREADY_ENTERED", f"you play as {own} in {run.id}")
            self.limits.check(ENTRY_CODE, session.client, run.id)
            player = credentials.entry_with_code(self.service.store.hasher, state.code_hashes, message.code)
            if player is None:
                await self.limits.wrong_guess(ENTRY_CODE, session.client, run.id)
                raise RoomError("BAD_ENTRY_CODE", f"no roster place of {run.id} still to be taken has that code")
            await self.service.commit(run, [PlaceTaken(player=player, player_id=session.player_id,
                                                       name=session.name)], player)
        team = run.state.team_of(player)
        await session.send(LeagueJoined(league=run.id, player=player, team=team, name=run.state.name_of(player)[:64],
                                        captain=run.state.captains.get(team) == player,
                                        team_name=run.state.league.team(team).name[:100]))

    # ------------------------------------------------------------------ anyone
    @refusals
    async def watch(self, session: Any, message: WatchLeague) -> None:
        """Follow a league's updates."""
        await self.service.watch(self.service.find(message.league), session)

    @refusals
    async def unwatch(self, session: Any, message: UnwatchLeague) -> None:
        """Stop following a league."""
        run = self.service.find(message.league)
        run.watchers.pop(session, None)
        await session.send(LeagueDone(run.id, "UnwatchLeague"))

    async def list(self, session: Any, _message: ListLeagues) -> None:
        """The leagues of this server (a cluster: of every node), newest first."""
        await session.send(LeagueList((await self.service.listing())[:LEAGUES_LISTED]))

    # ------------------------------------------------------------------ checks
    def _organiser(self, league_id: str, secret: str | None) -> LeagueRun:
        """The league, when ``secret`` is its organiser secret (NOT_ORGANISER otherwise)."""
        run = self.service.find(league_id)
        if not credentials.is_secret(self.service.store.hasher, run.secret_hash, secret):
            raise RoomError("NOT_ORGANISER", f"only the organiser of {run.id} may do this: the secret is not its")
        return run


def league_of(request: CreateLeague) -> League:
    """The league the request describes, checked as the engine reads a file and playable here: names by the display
    names' rule (``BAD_NAME``, ``NAME_TAKEN`` for two roster players who look alike), the server's bounds, the
    captains roster players of their teams, the ruleset and settings a room accepts (``BAD_SETTINGS``)."""
    league = parse(request.file)
    size = league.settings.team_size
    roster = sum(len(t.players) for t in league.teams)
    if size > MAX_TEAM_SIZE or len(league.teams) > MAX_LEAGUE_TEAMS or roster > MAX_LEAGUE_PLAYERS or \
            len(league.fixtures) > MAX_FIXTURES or any(len(t.players) > 64 for t in league.teams):
        raise LeagueError("BAD_FORMAT", f"this server plays leagues of at most {MAX_LEAGUE_TEAMS} teams of up to 64 "
                                        f"players ({MAX_LEAGUE_PLAYERS} in all), {MAX_FIXTURES} fixtures and a "
                                        f"team_size up to {MAX_TEAM_SIZE}")
    if any(f.games for f in league.fixtures) or any(f.lineups.home or f.lineups.away for f in league.fixtures):
        raise LeagueError("BAD_FORMAT", "a new league's fixtures have neither line-ups nor games yet: they are "
                                        "given and played on the server")
    field = Field(())
    teams = []
    for t in league.teams:
        players = []
        for p in t.players:
            cleaned = entry(EntryPlayer(id=p.id, name=p.name))
            field.admit((cleaned,))
            players.append(Player(id=p.id, name=cleaned.name))
        teams.append(Team(id=t.id, name=_shown(t.name, f"the name of team {t.id}"),
                          club=_shown(t.club, f"the club of team {t.id}", optional=True), players=tuple(players)))
    for team_id, captain in request.captains.items():
        try:
            team = league.team(team_id)
        except KeyError:
            raise LeagueError("BAD_FORMAT", f"captains: the league has no team {team_id!r}") from None
        if captain not in team.player_ids():
            raise LeagueError("UNKNOWN_PLAYER", f"captains: {captain!r} is not a player of {team.name} ({team.id})")
    Lobby.validate(league.settings.ruleset, dict(request.settings))
    return replace(league, name=_shown(league.name, "the league's name", optional=True), teams=tuple(teams))


def _shown(raw: str, what: str, *, optional: bool = False) -> str:
    """A shown name as the display names' rule cleans it (BAD_NAME naming it; '' stays '' when ``optional``)."""
    if optional and not raw.strip():
        return ""
    try:
        return clean_name(raw, MAX_TOURNAMENT_NAME_CHARS)
    except BadName as exc:
        raise RoomError("BAD_NAME", f"{what}: {exc}") from None

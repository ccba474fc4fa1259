"""The tournament requests a session routes here (``server.connections.session.Host.handlers``): who may ask, and what
it does.

Why every check here: a request from the network is hostile until checked. The organiser's acts need the
tournament's organiser secret (compared in constant time with the stored hash; ``NOT_ORGANISER`` otherwise, for a
player and a spectator alike); a coach's acts need his entry (``NOT_ENTERED``) and, for disputes and corrections, a
match of his. What the tournament file allows is the engine's to say: its ``TournamentError`` reaches the client
as an ``Error`` with the contract's code (``BAD_RESULT``, ``ROUND_ORDER``, ...), and nothing changes.

Creating and guessing are limited beyond one connection (``Limits``, ``server.connections.address_budgets``): who may
create is the server's choice (``creation.Creators``: ``NOT_ALLOWED``) and an address creates a few a day; a wrong
entry code counts against its address and its tournament and is answered a second late, and once registration closes
- the tournament's last round has started, or it ended - no code is tried at all (``REGISTRATION_CLOSED``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import wraps
from typing import Any, Protocol, TypeVar, cast

from server.constants import TOURNAMENTS_LISTED
from server.rooms.room import RoomError
from server.tournaments import credentials, entry_names
from server.tournaments import tournament_records as records
from server.tournaments.creation import Creators, tournament_of
from server.tournaments.log import (
    ORGANISER,
    CardGiven,
    ChatMuted,
    CheckedIn,
    Claimed,
    CorrectionAgreed,
    CorrectionProposed,
    Created,
    DisputeFiled,
    DisputeRuled,
    EntryAdded,
    Event,
    Outcome,
    RefereeSet,
    Row,
    Unlinked,
    Withdrawn,
)
from server.tournaments.round_referees import referee_conflict
from server.tournaments.service import Running, TournamentService, new_seed
from server.tournaments.state import TableKey, match_at, start
from server.tournaments.state_snapshot import write_snapshot
from server.tournaments.tournament_core import TournamentCore
from server.tournaments.tournament_records import TournamentRow
from server.tournaments.views import current_round
from shared.protocol import (
    NO_SHOW_MS,
    AutoStartRounds,
    CheckIn,
    ConfirmCorrection,
    CreateTournament,
    EndTournament,
    EnterResult,
    EntriesRegistered,
    EntryCode,
    FileDispute,
    GiveCard,
    JoinTournament,
    ListTournaments,
    MuteEntry,
    OverrideResult,
    PlayOnBoards,
    ProposeCorrection,
    RegisterEntries,
    ResolveDispute,
    Score,
    SetReferee,
    StartRound,
    SwapEntries,
    TakeBackRound,
    TournamentCreated,
    TournamentDone,
    TournamentJoined,
    TournamentList,
    UnlinkEntry,
    UnwatchTournament,
    WatchTournament,
    WithdrawEntry,
)
from shared.tournament.course import follow
from shared.tournament.errors import TournamentError
from shared.tournament.model import Player, Sex, Side
from shared.tournament.writing import to_json

M = TypeVar("M")
Handler = Callable[[Any, Any], Awaitable[None]]
ENTRY_CODE = "entry_code"  # the budgets these requests spend (server.connections.address_budgets)
NEW_TOURNAMENT = "new_tournament"
FINISHED = ("finished", "ended")  # a tournament's statuses once it is over


class Limits(Protocol):
    """The per-address budgets (``server.connections.address_budgets.AddressBudgets``); ``client`` is a session's."""

    def check(self, kind: str, client: Any, scope: str | None = None) -> None:
        """RoomError RATE_LIMITED when the budget is spent."""
        ...

    def spend(self, kind: str, client: Any, scope: str | None = None) -> None:
        """One more act counts."""
        ...

    async def wrong_guess(self, kind: str, client: Any, scope: str | None = None) -> None:
        """A wrong code counts, and its answer waits."""
        ...


def refusals(handler: Callable[[Any, Any, M], Awaitable[None]]) -> Callable[[Any, Any, M], Awaitable[None]]:
    """The engine's refusals as the protocol's (``TournamentError`` -> ``RoomError`` with the contract's code)."""

    @wraps(handler)
    async def checked(self: Any, session: Any, message: M) -> None:
        """Run the handler; a contract refusal becomes an Error for the client."""
        try:
            await handler(self, session, message)
        except TournamentError as exc:
            raise RoomError(exc.code, exc.message) from None

    return checked


class TournamentRequests:
    """The requests of players, spectators and organisers about tournaments."""

    def __init__(self, service: TournamentService, limits: Limits, creators: Creators | None = None) -> None:
        self.service = service
        self.limits = limits
        self.creators = creators or Creators()

    def handlers(self) -> dict[type, Handler]:
        """Each request type and its answer."""
        table: dict[type, Any] = {
            CreateTournament: self.create, RegisterEntries: self.register, JoinTournament: self.join,
            CheckIn: self.check_in, WithdrawEntry: self.withdraw, StartRound: self.start_round,
            AutoStartRounds: self.auto_start, GiveCard: self.give_card, MuteEntry: self.mute,
            UnlinkEntry: self.unlink,
            OverrideResult: self.override, EnterResult: self.enter_result, PlayOnBoards: self.play_on_boards,
            SetReferee: self.set_referee,
            FileDispute: self.dispute, ResolveDispute: self.resolve, ProposeCorrection: self.propose,
            ConfirmCorrection: self.confirm, TakeBackRound: self.take_back, SwapEntries: self.swap,
            EndTournament: self.end, WatchTournament: self.watch,
            UnwatchTournament: self.unwatch, ListTournaments: self.list,
        }
        return cast(dict[type, Handler], table)

    # ------------------------------------------------------------------ the organiser
    @refusals
    async def create(self, session: Any, message: CreateTournament) -> None:
        """A new tournament; its creator gets the organiser secret and the file's entry codes."""
        service = self.service
        hasher = service.store.hasher
        refusal = self.creators.refusal(session.name, exempt=session.client.exempt)
        if refusal is not None:
            raise RoomError("NOT_ALLOWED", refusal)
        self.limits.check(NEW_TOURNAMENT, session.client)
        t = tournament_of(message, seed=new_seed())
        tournament_id = credentials.new_tournament_id()
        while not await service.claim(tournament_id):  # a cluster: the new tournament's lease is this node's
            tournament_id = credentials.new_tournament_id()
        secret = credentials.new_organiser_secret()
        codes = {p.id: credentials.new_entry_code() for p in t.players}
        created = Created(file=to_json(t), no_show_ms=message.no_show_ms or NO_SHOW_MS,
                          next_round_after_ms=message.next_round_after_ms, on_boards=message.on_boards,
                          code_hashes={entry: credentials.hashed(hasher, code) for entry, code in codes.items()})
        row = Row(index=0, at_ms=service.now_ms(), actor=ORGANISER, event=created)
        state = start(tournament_id, row)
        stored = TournamentRow(id=tournament_id, name=t.name, secret_hash=credentials.hashed(hasher, secret), events=1,
                               status="registering", created_at=row.at_ms / 1000)
        await service.store.write(service.fenced(tournament_id, [records.add_tournament(stored, write_snapshot(state)),
                                                                 records.append_event(tournament_id, row)]))
        service.adopt(Running(core=TournamentCore(state), secret_hash=stored.secret_hash))
        self.limits.spend(NEW_TOURNAMENT, session.client)
        entries = tuple(EntryCode(p.id, p.name[:64], codes[p.id]) for p in t.players)
        await session.send(TournamentCreated(tournament_id, secret, entries))

    @refusals
    async def register(self, session: Any, message: RegisterEntries) -> None:
        """The organiser enters players; each entry's code is told to him once."""
        run = self._organiser(message.tournament, message.secret)
        async with run.lock:
            self._open(run)
            taken = set(run.state.tournament.player_ids())
            field = entry_names.Field(run.state.tournament.players)
            events: list[Event] = []
            answer: list[EntryCode] = []
            for form in message.entries:
                entry = form.id or _new_id(form.name, taken)
                taken.add(entry)
                code = credentials.new_entry_code()
                player = entry_names.entry(Player(id=entry, name=form.name, club=form.club, rating=form.rating,
                                                  category=form.category, year_of_birth=form.year_of_birth,
                                                  sex=_sex(form.sex), veteran=form.veteran))
                _born_checked(player, self.service.now_ms())
                field.admit((player,))
                events.append(EntryAdded(player=player, code_hash=credentials.hashed(self.service.store.hasher, code)))
                answer.append(EntryCode(entry, player.name, code))
            await self.service.commit(run, events, ORGANISER)
        await session.send(EntriesRegistered(run.id, tuple(answer)))

    @refusals
    async def start_round(self, session: Any, message: StartRound) -> None:
        """The organiser starts the next round now."""
        run = self._organiser(message.tournament, message.secret)
        async with run.lock:
            number = await self.service.start_round(run, ORGANISER)
        await session.send(TournamentDone(run.id, "StartRound", number))

    @refusals
    async def auto_start(self, session: Any, message: AutoStartRounds) -> None:
        """The organiser lets the rounds start by themselves (or stops them doing so)."""
        run = self._organiser(message.tournament, message.secret)
        async with run.lock:
            await self.service.transition(run, lambda: run.core.set_auto_start(message.after_ms, ORGANISER,
                                                                                self.service.now_ms()))
        await session.send(TournamentDone(run.id, "AutoStartRounds"))

    @refusals
    async def give_card(self, session: Any, message: GiveCard) -> None:
        """The organiser gives a card for a coach's conduct in his match of a round (the current one by default)."""
        run = self._organiser(message.tournament, message.secret)
        async with run.lock:
            stage, number = current_round(run.state.tournament)
            stage = message.stage if message.stage is not None else stage
            number = message.round if message.round is not None else number
            card = CardGiven(stage=stage, round=number, entry=message.entry, card=message.card, reason=message.reason)
            await self.service.commit(run, [card], ORGANISER)
        await session.send(TournamentDone(run.id, "GiveCard"))

    @refusals
    async def mute(self, session: Any, message: MuteEntry) -> None:
        """The organiser silences an entry's coach at every table of the tournament (or lets him speak again)."""
        run = self._organiser(message.tournament, message.secret)
        async with run.lock:
            self._open(run)
            if message.entry not in run.state.tournament.player_ids():
                raise TournamentError("UNKNOWN_PLAYER", f"tournament {run.id} has no entry {message.entry}")
            if (message.entry in run.state.chat_muted) != message.muted:  # muting twice changes nothing
                await self.service.commit(run, [ChatMuted(entry=message.entry, muted=message.muted,
                                                          reason=message.reason)], ORGANISER)
        await session.send(TournamentDone(run.id, "MuteEntry"))

    @refusals
    async def unlink(self, session: Any, message: UnlinkEntry) -> None:
        """The organiser undoes a claim (a player took the wrong entry): the entry loses its coach and gets a fresh
        code, told to him once, for its right player; not while the entry's match is being played."""
        run = self._organiser(message.tournament, message.secret)
        async with run.lock:
            self._open(run)
            state = run.state
            if message.entry not in state.tournament.player_ids():
                raise TournamentError("UNKNOWN_PLAYER", f"tournament {run.id} has no entry {message.entry}")
            if message.entry not in state.coaches:
                raise RoomError("NOT_ENTERED", f"entry {message.entry} of {run.id} has no coach to unlink")
            playing = next((key for key in state.tables
                            if message.entry in (match_at(state.tournament, key).home,
                                                 match_at(state.tournament, key).away)), None)
            if playing is not None:
                raise RoomError("TOURNAMENT_CLOSED", f"entry {message.entry} is playing at table {playing[2]} of "
                                                     f"round {playing[1]}: unlink it once that match is over")
            code = credentials.new_entry_code()
            event = Unlinked(entry=message.entry, code_hash=credentials.hashed(self.service.store.hasher, code),
                             reason=message.reason)
            await self.service.commit(run, [event], ORGANISER)
            name = run.state.name_of(message.entry)
        await session.send(EntriesRegistered(run.id, (EntryCode(message.entry, name, code),)))

    @refusals
    async def override(self, session: Any, message: OverrideResult) -> None:
        """XVII.5: the organiser sets a match's result, with his reason."""
        run = self._organiser(message.tournament, message.secret)
        outcome = _outcome(message.score, message.walkover, message.shootout)
        async with run.lock:
            key = (message.stage, message.round, message.table)
            match_at(run.state.tournament, key)
            await self.service.record(run, key, outcome, source="override", reason=message.reason, actor=ORGANISER)
        await session.send(TournamentDone(run.id, "OverrideResult"))

    @refusals
    async def enter_result(self, session: Any, message: EnterResult) -> None:
        """The result of a match on a board: the organiser's stands, a coach's waits for the other coach's."""
        outcome = _outcome(message.score, message.walkover, message.shootout)
        if message.secret is not None:
            run, by = self._organiser(message.tournament, message.secret), None
        else:
            run, by = self.service.find(message.tournament), None
        async with run.lock:
            key = self._table(run, message.stage, message.round, message.table)
            if message.secret is None:
                by = self._coach_of_match(run, session, key)
            await self.service.transition(run, lambda: run.core.enter_result(key, outcome, by=by,
                                                                              now=self.service.now_ms()))
        await session.send(TournamentDone(run.id, "EnterResult"))

    @refusals
    async def play_on_boards(self, session: Any, message: PlayOnBoards) -> None:
        """The organiser puts the tournament, a stage or a table on physical boards, or back online."""
        run = self._organiser(message.tournament, message.secret)
        async with run.lock:
            table = None
            if message.table is not None:
                table = self._table(run, message.stage, message.round, message.table)
            elif message.round is not None:
                raise TournamentError("BAD_FORMAT", "a round is named only with its table")
            await self.service.transition(run, lambda: run.core.set_boards(
                message.on_board, stage=message.stage, table=table, reason=message.reason, actor=ORGANISER,
                now=self.service.now_ms()))
        await session.send(TournamentDone(run.id, "PlayOnBoards"))

    @refusals
    async def set_referee(self, session: Any, message: SetReferee) -> None:
        """The organiser names a board's referee (XVII.2; XVII.3 with both players' agreement)."""
        run = self._organiser(message.tournament, message.secret)
        async with run.lock:
            self._open(run)
            key = (message.stage, message.round, message.table)
            if not run.state.on_board(key):
                raise RoomError("NOT_ON_BOARD", f"stage {key[0]} round {key[1]} table {key[2]} is played online: the "
                                                "server referees it")
            if message.referee is not None and message.referee in run.state.tournament.player_ids():
                conflict = referee_conflict(run.state, key, message.referee, agreed=message.agreed)
                if conflict is not None:
                    raise RoomError("REFEREE_CONFLICT", conflict)
            await self.service.commit(run, [RefereeSet(stage=key[0], round=key[1], table=key[2],
                                                       referee=message.referee, agreed=message.agreed,
                                                       reason=message.reason)], ORGANISER)
        await session.send(TournamentDone(run.id, "SetReferee"))

    @refusals
    async def resolve(self, session: Any, message: ResolveDispute) -> None:
        """The organiser decides a dispute: the result stands, is changed, or the match is played again."""
        run = self._organiser(message.tournament, message.secret)
        outcome = _outcome(message.score, message.walkover, message.shootout) if message.ruling == "changed" else None
        async with run.lock:
            case = run.state.case(message.case)
            if case is None or case.kind != "dispute" or case.status != "open":
                raise RoomError("NO_CASE", f"tournament {run.id} has no open dispute {message.case}")
            if message.ruling == "stands" and not match_at(run.state.tournament, (case.stage, case.round,
                                                                                  case.table)).finished:
                raise TournamentError("BAD_RESULT", f"case {case.id}: its match has no result that could stand "
                                                    "(the two coaches entered different ones): rule it changed")
            ruled = DisputeRuled(case=case.id, ruling=message.ruling, reason=message.reason, outcome=outcome)
            await self._decided(run, ruled, (case.stage, case.round, case.table), ORGANISER)
        await session.send(TournamentDone(run.id, "ResolveDispute", message.case))

    @refusals
    async def take_back(self, session: Any, message: TakeBackRound) -> None:
        """The organiser takes back a round started by mistake (none of its matches begun or decided)."""
        run = self._organiser(message.tournament, message.secret)
        async with run.lock:
            await self.service.transition(run, lambda: run.core.take_back(
                message.reason, ORGANISER, self.service.now_ms(), stage=message.stage, number=message.round))
        await session.send(TournamentDone(run.id, "TakeBackRound"))

    @refusals
    async def swap(self, session: Any, message: SwapEntries) -> None:
        """The organiser swaps two entries of a round whose matches have not begun."""
        run = self._organiser(message.tournament, message.secret)
        async with run.lock:
            await self.service.transition(run, lambda: run.core.swap(message.first, message.second, message.reason,
                                                                      ORGANISER, self.service.now_ms()))
        await session.send(TournamentDone(run.id, "SwapEntries"))

    @refusals
    async def end(self, session: Any, message: EndTournament) -> None:
        """The organiser ends the tournament: no more rounds; tables still waiting close."""
        run = self._organiser(message.tournament, message.secret)
        async with run.lock:
            await self.service.transition(run, lambda: run.core.end(message.reason, ORGANISER,
                                                                     self.service.now_ms()))
        await session.send(TournamentDone(run.id, "EndTournament"))

    # ------------------------------------------------------------------ players, or the organiser for them
    @refusals
    async def join(self, session: Any, message: JoinTournament) -> None:
        """A player enters as himself, or claims the entry the organiser registered for him (its code), while
        registration is open; a wrong code counts against his address and the tournament and is answered late."""
        run = self.service.find(message.tournament)
        async with run.lock:
            self._open(run)
            self._registering(run)
            state = run.state
            if state.entered(session.player_id) is not None:  # an entry withdrawn holds him no more
                raise RoomError("ALREADY_ENTERED", f"you coach {state.entered(session.player_id)} in {run.id}")
            events: list[Event] = []
            if message.code is not None:
                self.limits.check(ENTRY_CODE, session.client, run.id)
                entry = credentials.entry_with_code(self.service.store.hasher, state.code_hashes, message.code)
                if entry is None:
                    await self.limits.wrong_guess(ENTRY_CODE, session.client, run.id)
                    raise RoomError("BAD_ENTRY_CODE", f"no unclaimed entry of {run.id} has that code")
                file_rating = state.tournament.player(entry).rating
            else:
                alike = entry_names.Field(state.tournament.players).alike(session.name)
                if alike is not None:
                    raise RoomError("NAME_TAKEN", f"entry {alike.id} of {run.id} is called {alike.name!r}: if it is "
                                                  "yours, claim it with the entry code the organiser gave you")
                entry = _new_id(session.name, set(state.tournament.player_ids()))
                file_rating = None
                player = entry_names.entry(Player(id=entry, name=session.name, club=message.club,
                                                  category=message.category, year_of_birth=message.year_of_birth,
                                                  sex=_sex(message.sex), veteran=message.veteran))
                _born_checked(player, self.service.now_ms())
                events.append(EntryAdded(player=player))
            rating = self._rating(run, session.player_id)
            events.append(Claimed(entry=entry, player_id=session.player_id, name=session.name,
                                  rating=rating if rating is not None else file_rating))
            await self.service.commit(run, events, entry)
        await session.send(TournamentJoined(run.id, entry, run.state.name_of(entry)[:64]))

    @refusals
    async def check_in(self, session: Any, message: CheckIn) -> None:
        """A coach checks in his entry, or the organiser any entry."""
        run, entry, actor = self._entry_or_organiser(session, message.tournament, message.entry, message.secret)
        async with run.lock:
            self._open(run)
            if entry not in run.state.checked_in:
                await self.service.commit(run, [CheckedIn(entry=entry)], actor)
        await session.send(TournamentDone(run.id, "CheckIn"))

    @refusals
    async def withdraw(self, session: Any, message: WithdrawEntry) -> None:
        """An entry leaves after the current round (its results stay)."""
        run, entry, actor = self._entry_or_organiser(session, message.tournament, message.entry, message.secret)
        async with run.lock:
            self._open(run)
            sc = follow(run.state.tournament).current
            event = Withdrawn(entry=entry, stage=sc.index, after_round=sc.last_listed, reason=message.reason)
            await self.service.commit(run, [event], actor)
        await session.send(TournamentDone(run.id, "WithdrawEntry"))

    @refusals
    async def dispute(self, session: Any, message: FileDispute) -> None:
        """A coach disputes a match of his; the organiser will decide (XVII)."""
        run = self.service.find(message.tournament)
        async with run.lock:
            key = (message.stage, message.round, message.table)
            entry = self._coach_of_match(run, session, key)
            case = run.state.next_case()
            filed = DisputeFiled(case=case, stage=key[0], round=key[1], table=key[2], by=entry, reason=message.reason)
            await self.service.commit(run, [filed], entry)
        await session.send(TournamentDone(run.id, "FileDispute", case))

    @refusals
    async def propose(self, session: Any, message: ProposeCorrection) -> None:
        """XVII.4: a coach proposes to correct or replay a match of his; the other coach must confirm."""
        run = self.service.find(message.tournament)
        if message.replay and (message.score is not None or message.walkover is not None):
            raise TournamentError("BAD_FORMAT", "a correction either replays the match or sets its result, not both")
        outcome = None if message.replay else _outcome(message.score, message.walkover, message.shootout)
        async with run.lock:
            key = (message.stage, message.round, message.table)
            entry = self._coach_of_match(run, session, key)
            case = run.state.next_case()
            proposed = CorrectionProposed(case=case, stage=key[0], round=key[1], table=key[2], by=entry,
                                          replay=message.replay, outcome=outcome, reason=message.reason)
            await self.service.commit(run, [proposed], entry)
        await session.send(TournamentDone(run.id, "ProposeCorrection", case))

    @refusals
    async def confirm(self, session: Any, message: ConfirmCorrection) -> None:
        """XVII.4: the other coach agrees; the correction is done (a replay opens a new table)."""
        run = self.service.find(message.tournament)
        async with run.lock:
            case = run.state.case(message.case)
            if case is None or case.kind != "correction" or case.status != "open":
                raise RoomError("NO_CASE", f"tournament {run.id} has no open correction {message.case}")
            key = (case.stage, case.round, case.table)
            entry = self._coach_of_match(run, session, key)
            if entry == case.by:
                raise RoomError("NO_CASE", f"case {case.id} is your own proposal: the other coach confirms it")
            await self._decided(run, CorrectionAgreed(case=case.id, by=entry), key, entry)
        await session.send(TournamentDone(run.id, "ConfirmCorrection", message.case))

    # ------------------------------------------------------------------ anyone
    @refusals
    async def watch(self, session: Any, message: WatchTournament) -> None:
        """Follow a tournament's updates."""
        await self.service.watch(self.service.find(message.tournament), session)

    @refusals
    async def unwatch(self, session: Any, message: UnwatchTournament) -> None:
        """Stop following a tournament."""
        run = self.service.find(message.tournament)
        run.watchers.pop(session, None)
        await session.send(TournamentDone(run.id, "UnwatchTournament"))

    async def list(self, session: Any, _message: ListTournaments) -> None:
        """The tournaments of this server: the running ones first (newest first), then those over (newest first), at
        most TOURNAMENTS_LISTED - a flood of new tournaments cannot push the one being played off the list."""
        lines = await self.service.listing()
        running = [line for line in lines if line.status not in FINISHED]
        over = [line for line in lines if line.status in FINISHED]
        await session.send(TournamentList(tuple(running + over)[:TOURNAMENTS_LISTED]))

    # ------------------------------------------------------------------ checks
    def _organiser(self, tournament_id: str, secret: str | None) -> Running:
        """The tournament, when ``secret`` is its organiser secret (NOT_ORGANISER otherwise)."""
        run = self.service.find(tournament_id)
        if not credentials.is_secret(self.service.store.hasher, run.secret_hash, secret):
            raise RoomError("NOT_ORGANISER", f"only the organiser of {run.id} may do this: the secret is not its")
        return run

    def _entry_or_organiser(self, session: Any, tournament_id: str, entry: str | None,
                            secret: str | None) -> tuple[Running, str, str]:
        """The entry a request is about and who acts: the organiser (with the secret) or the entry's coach."""
        if secret is not None:
            run = self._organiser(tournament_id, secret)
            if entry is None:
                raise TournamentError("BAD_FORMAT", "the organiser names the entry")
            if entry not in run.state.tournament.player_ids():
                raise TournamentError("UNKNOWN_PLAYER", f"tournament {run.id} has no entry {entry}")
            return run, entry, ORGANISER
        run = self.service.find(tournament_id)
        own = run.state.entry_of(session.player_id)
        if own is None or (entry is not None and entry != own):
            raise RoomError("NOT_ENTERED", f"you coach no entry {entry or 'at all'} in {run.id}")
        return run, own, own

    def _table(self, run: Running, stage: int | None, number: int | None, table: int) -> TableKey:
        """A table of a round (the current round's when ``stage`` and ``round`` are nil); BAD_RESULT if it has none."""
        current = current_round(run.state.tournament)
        key = (current[0] if stage is None else stage, current[1] if number is None else number, table)
        match_at(run.state.tournament, key)
        return key

    def _coach_of_match(self, run: Running, session: Any, key: TableKey) -> str:
        """The asker's entry, when he coaches the match at ``key`` (NOT_ENTERED otherwise)."""
        entry = run.state.entry_of(session.player_id)
        m = match_at(run.state.tournament, key)
        if entry is None or entry not in (m.home, m.away):
            raise RoomError("NOT_ENTERED", f"stage {key[0]} round {key[1]} table {key[2]} is not a match of yours")
        return entry

    def _open(self, run: Running) -> None:
        """TOURNAMENT_CLOSED once the organiser ended the tournament."""
        if run.state.ended is not None:
            raise RoomError("TOURNAMENT_CLOSED", f"tournament {run.id} has ended ({run.state.ended})")

    def _registering(self, run: Running) -> None:
        """REGISTRATION_CLOSED once the tournament's last round has started (its last stage's last round: no entry
        could play any more) or the tournament is over; entry codes expire with it."""
        board = self.service.board(run)
        last_started = bool(run.state.tournament.results) and board.course.round_to_start is None
        if board.status in FINISHED or last_started:
            raise RoomError("REGISTRATION_CLOSED", f"registration for {run.id} has closed: its last round has "
                                                   "started, and an entry code works no longer")

    def _rating(self, run: Running, player_id: int) -> int | None:
        """The player's rating on this server in the first stage's ruleset family (None: he has none)."""
        if self.service.rating_of is None:
            return None
        found = self.service.rating_of(player_id, run.state.tournament.stages[0].ruleset)
        return None if found is None else found[0]

    async def _decided(self, run: Running, event: DisputeRuled | CorrectionAgreed, key: TableKey, actor: str) -> None:
        """A ruling or an agreement is committed; a replay opens a new table for the match."""
        await self.service.transition(run, lambda: run.core.decided(event, key, actor, self.service.now_ms()))


def _outcome(score: Score | None, walkover: str | None, shootout: str | None) -> Outcome:
    """A result given in a request: a score (and a shoot-out's winner) or a walkover, exactly one of them."""
    if (score is None) == (walkover is None):
        raise TournamentError("BAD_FORMAT", "give either a score or a walkover")
    if walkover is not None and shootout is not None:
        raise TournamentError("BAD_FORMAT", "a walkover has no shoot-out")
    return Outcome(score=None if score is None else (score.home, score.away), walkover=cast(Side | None, walkover),
                   shootout=cast(Side | None, shootout))


def _sex(value: str | None) -> Sex | None:
    """A request's sex as the file's (the codec let only ``m``, ``f`` or nil through)."""
    return cast(Sex | None, value)


def _born_checked(player: Player, now_ms: int) -> None:
    """``BAD_FORMAT`` for a year of birth after this year (the engine refuses one after the tournament's season,
    but a tournament without a season would take it)."""
    this_year = datetime.fromtimestamp(now_ms / 1000, tz=UTC).year
    if player.year_of_birth is not None and player.year_of_birth > this_year:
        raise TournamentError("BAD_FORMAT", f"players ({player.id}).year_of_birth: {player.year_of_birth} is in the "
                                            f"future (this is {this_year})")


def _new_id(name: str, taken: set[str]) -> str:
    """An entry id from a name: its letters and digits without accents, lower case, unique in the tournament."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    base = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:24] or "player"
    entry, number = base, 1
    while entry in taken:
        number += 1
        entry = f"{base}-{number}"
    return entry

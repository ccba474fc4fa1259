"""Players: who a connection is (a name that is his, a token per device, a claim code to move to another machine),
his ratings, his profile and the leaderboards.

Why a service of its own, on the lifecycle bus: a rating changes when a rated match ends, and nothing else should
have to know that - the room publishes ``MatchFinished``, this service rates it (Glicko-2 as Lichess runs it,
``shared.ratings``: every rated match its own rating period), stores the new ratings and what the match did to them,
and tells the room's members and both coaches wherever they are (``Rated``: a coach who resigned by leaving is no
longer in the room). Profiles and leaderboards are reads. A name is a player's alone on a server:
no other may be one that looks like it (``shared.names``: its confusable skeleton, whatever the case); ``guest-<n>``
names are the server's own.

Why a guest is not stored at once: most connections without a token only look - list rooms and tournaments, watch
a table, probe whether a server answers - and a row (and a write) for each of them let anyone fill the database by
reconnecting. A guest is welcomed with an id the store hands out (``Store.new_player_id``) and a token, and kept in
memory only (the latest ``UNSTORED_GUESTS``, so his reconnects know him) until he does something the server must
remember (``keep``: a seat, a name, a claim code, chat, a tournament entry). A named player is stored at once: his
name is his from then on.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.constants import UNSTORED_GUESTS
from server.lifecycle import EventBus, MatchFinished
from server.rooms.room_core import RoomError
from server.store.player_records import PlayerRecords, StoredRating
from server.store.store_port import ConstraintViolation, Store
from server.tokens import check_token, new_secret, player_token
from shared.names import BadName, clean_name, name_key, name_shape
from shared.protocol import (
    BoardLine,
    ClaimCode,
    GetClaimCode,
    GetLeaderboard,
    GetProfile,
    Leaderboard,
    MatchLine,
    Profile,
    Rated,
    RatingChange,
    RatingInfo,
    Rename,
    Renamed,
    Score,
    ServerMessage,
)
from shared.ratings import LOSS, WIN, Rating, family_of, rate_match, rating_at

log = logging.getLogger(__name__)
CLAIM_TTL_S = 600.0  # a claim code works for ten minutes, once
CLAIM_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"  # read aloud and typed, like room codes
CLAIM_LENGTH = 8
LEADERBOARD_MAX_RD = 75.0  # only established players are ranked (Lichess' leaderboard rule)
PROFILE_MATCHES = 20  # the last matches a profile lists
GUEST_PREFIX = "guest-"


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a connection is: the player's id, display name and the token this device holds; ``stored`` False for a
    guest not stored yet (``Players.keep`` stores him)."""

    player_id: int
    name: str
    token: str
    stored: bool = True


def now_ms() -> int:
    """Wall time in ms since the epoch (ratings' RD grows with the days a player stays away)."""
    return int(time.time() * 1000)


def chosen_name(raw: str) -> str:
    """A name a player may choose: a display name (``shared.names``) that is not one of the server's guest names."""
    name = clean_name(raw)
    if name_key(name).startswith(name_key(GUEST_PREFIX)):
        raise BadName(f"names starting with {GUEST_PREFIX!r} are the server's own")
    return name


def profile_of(records: PlayerRecords, player_id: int, now: int | None = None) -> Profile:
    """A player's profile: ratings per family (as they stand at ``now``), totals, the last matches."""
    now = now_ms() if now is None else now
    ratings = tuple(
        RatingInfo(family, shown.shown_rating, shown.shown_rd, shown.provisional, stored.games)
        for family, stored in records.ratings(player_id).items()
        for shown in (rating_at(stored.rating, now),)
    )
    matches = records.matches(player_id)
    won = sum(1 for m in matches if m.winner == m.team)
    drawn = sum(1 for m in matches if m.winner is None)
    last = tuple(
        MatchLine(m.match_id, m.opponent, m.team, Score(*m.score),
                  "draw" if m.winner is None else "win" if m.winner == m.team else "loss", m.reason,
                  family_of(m.ruleset), None if m.rating_change is None else round(m.rating_change),
                  int(m.ended_at * 1000))
        for m in matches[:PROFILE_MATCHES]
    )
    return Profile(records.name(player_id), player_id, ratings, len(matches), won, drawn,
                   len(matches) - won - drawn, last)


class Players:
    """The players of one server (see the module docstring)."""

    def __init__(self, store: Store, bus: EventBus, tell_room: Callable[[str, ServerMessage, tuple[int, ...]], None],
                 clock_ms: Callable[[], int] = now_ms) -> None:
        """``tell_room(code, message, players)`` sends a message to everyone in a room of this server and to each of
        ``players`` connected here but not in it."""
        self.store = store
        self.hasher = store.hasher
        self.records = PlayerRecords(store)
        self._tell_room = tell_room
        self._clock_ms = clock_ms
        self._rating = asyncio.Lock()  # one rated match at a time: two of a player's matches never race
        self._pending: set[asyncio.Task[None]] = set()
        self._unstored: OrderedDict[int, tuple[str, str]] = OrderedDict()  # guest id -> (name, token hash)
        bus.subscribe(MatchFinished, self._match_finished)

    def handlers(self) -> dict[type, Any]:
        """The requests this service answers (``server.connections.session.Host.handlers``)."""
        return {Rename: self._rename, GetClaimCode: self._claim_code, GetProfile: self._profile,
                GetLeaderboard: self._leaderboard}

    # ------------------------------------------------------------------ identity
    def by_token(self, token: str) -> Identity | None:
        """The player this token belongs to (constant-time comparison), or None."""
        head, _dot, secret = token.partition(".")
        unstored = self._unstored.get(int(head)) if head.isascii() and head.isdigit() and len(head) <= 18 else None
        if unstored is not None:
            return Identity(int(head), unstored[0], token, stored=False) \
                if hmac.compare_digest(unstored[1], self.hasher.hash(secret)) else None
        found = check_token(self.records, self.hasher, token)
        return None if found is None else Identity(found[0], found[1], token)

    def new_guest(self) -> Identity:
        """A new guest, ``guest-<id>``, known by his token but not stored (``keep`` stores him)."""
        player_id, secret = self.store.new_player_id(), new_secret()
        name = f"{GUEST_PREFIX}{player_id}"
        self._unstored[player_id] = (name, self.hasher.hash(secret))
        while len(self._unstored) > UNSTORED_GUESTS:
            self._unstored.popitem(last=False)
        return Identity(player_id, name, player_token(player_id, secret), stored=False)

    async def new_player(self, name: str) -> Identity:
        """A new player with his chosen name, stored (RoomError NAME_TAKEN when another has it)."""
        secret = new_secret()
        self._must_be_free(name, None)
        player_id = self.store.new_player_id()
        try:
            await self.store.write(PlayerRecords.add_player(player_id, name, name_key(name), self.hasher.hash(secret),
                                                            name_shape(name)))
        except ConstraintViolation as exc:  # the unique index: the name was taken meanwhile
            if "unique" in str(exc).lower():
                raise RoomError("NAME_TAKEN", f"another player is called {name!r} on this server") from None
            raise
        return Identity(player_id, name, player_token(player_id, secret))

    async def keep(self, identity: Identity) -> Identity:
        """Store a guest welcomed before (the first thing he does that the server must remember); his token and
        name stay what they were."""
        if identity.stored:
            return identity
        secret = identity.token.partition(".")[2]
        await self.store.write(PlayerRecords.add_player(identity.player_id, identity.name, None,
                                                        self.hasher.hash(secret)))
        self._unstored.pop(identity.player_id, None)
        return Identity(identity.player_id, identity.name, identity.token)

    async def claim(self, code: str) -> Identity | None:
        """Take a player's identity on this device with a claim code (one use, unexpired); None if it is not one (a
        wrong code writes nothing)."""
        code_hash, now = self.hasher.hash(code.upper()), time.time()
        if self.records.claim_holder(code_hash, now) is None:
            return None
        secret = new_secret()
        token_hash = self.hasher.hash(secret)
        await self.store.write(PlayerRecords.redeem_claim(code_hash, token_hash, now))
        found = self.records.by_token_hash(token_hash)
        return None if found is None else Identity(found[0], found[1], player_token(found[0], secret))

    def touch(self, player_id: int) -> None:
        """Remember that the player was here now (his connection began or ended)."""
        self.store.write_later([PlayerRecords.touch(player_id)])

    def _must_be_free(self, name: str, player_id: int | None) -> None:
        """NAME_TAKEN when another player's name looks like ``name`` (``player_id``'s own may)."""
        holder = self.records.by_look(name)
        if holder is not None and holder[0] != player_id:
            alike = "" if holder[1] == name else f" (which looks like {holder[1]!r})"
            raise RoomError("NAME_TAKEN", f"another player is called {name!r}{alike} on this server: choose another "
                                          "name")

    async def _rename(self, session: Any, message: Rename) -> None:
        """Rename: another display name, one that looks like nobody else's."""
        try:
            name = chosen_name(message.name)
        except BadName as exc:
            raise RoomError("BAD_NAME", str(exc)) from None
        self._must_be_free(name, session.player_id)
        try:
            await self.store.write([PlayerRecords.rename(session.player_id, name, name_key(name), name_shape(name))])
        except ConstraintViolation as exc:
            if "unique" in str(exc).lower():
                raise RoomError("NAME_TAKEN", f"another player is called {name!r} on this server") from None
            raise
        session.name = name
        await session.send(Renamed(name))

    async def _claim_code(self, session: Any, _message: GetClaimCode) -> None:
        """A one-use claim code for the asker's identity, valid for CLAIM_TTL_S."""
        code = "".join(secrets.choice(CLAIM_ALPHABET) for _ in range(CLAIM_LENGTH))
        await self.store.write([PlayerRecords.add_claim(self.hasher.hash(code), session.player_id,
                                                        time.time() + CLAIM_TTL_S)])
        await session.send(ClaimCode(code, int(CLAIM_TTL_S * 1000)))

    # ------------------------------------------------------------------ ratings
    def rating_of(self, player_id: int, ruleset: str) -> tuple[int, bool] | None:
        """A player's rating in the ruleset's family as shown now (whole number, provisional), or None."""
        stored = self.records.rating(player_id, family_of(ruleset))
        if stored is None:
            return None
        now = rating_at(stored.rating, self._clock_ms())
        return now.shown_rating, now.provisional

    def _match_finished(self, event: MatchFinished) -> None:
        """A match ended: rate it when it counts (rated, and not abandoned before anyone played)."""
        if not event.rated or event.actions == 0 or event.home_player == event.away_player:
            return
        task = asyncio.get_running_loop().create_task(self._rate(event))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _rate(self, event: MatchFinished) -> None:
        """Rate a finished match for both coaches, store it, and tell the room (III, XVI; product decision 5: a
        forfeit or a resignation rates as the result it is)."""
        async with self._rating:
            family = family_of(event.ruleset)
            now = self._clock_ms()
            home = self.records.rating(event.home_player, family) or StoredRating(rating=Rating(), games=0)
            away = self.records.rating(event.away_player, family) or StoredRating(rating=Rating(), games=0)
            score = 0.5 if event.winner is None else WIN if event.winner == "home" else LOSS
            new_home, new_away = rate_match(home.rating, away.rating, score, now)
            statements = []
            changes = []
            for team, player, before, after in (("home", event.home_player, home, new_home),
                                                ("away", event.away_player, away, new_away)):
                statements.append(PlayerRecords.save_rating(player, family,
                                                            StoredRating(rating=after, games=before.games + 1)))
                statements.append(PlayerRecords.add_rating_change(event.match_id, player, family,
                                                                  before.rating.rating, after))
                changes.append(RatingChange(self.records.name(player) or "?", team, family,
                                            before.rating.shown_rating, after.shown_rating, after.shown_rd,
                                            after.provisional))
            try:
                await self.store.write(statements)
            except Exception:
                log.exception("match %s: its ratings could not be saved", event.match_id)
                return
            log.info("match %s rated (%s): %s", event.match_id, family,
                     ", ".join(f"{c.player} {c.before} -> {c.after}" for c in changes))
            self._tell_room(event.room, Rated(event.room, event.match_id, tuple(changes)),
                            (event.home_player, event.away_player))

    async def settled(self) -> None:
        """Wait until every match that ended so far is rated (tests, shutdown)."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    # ------------------------------------------------------------------ profiles and leaderboards
    def profile(self, player_id: int) -> Profile:
        """A player's profile (``profile_of``)."""
        return profile_of(self.records, player_id, self._clock_ms())

    def leaderboard(self, ruleset: str, offset: int, limit: int) -> Leaderboard:
        """The established players of the ruleset's family by rating (RD as it stands now at most 75)."""
        family = family_of(ruleset)
        now = self._clock_ms()
        ranked = []
        for _pid, name, stored in self.records.rated_players(family):
            shown = rating_at(stored.rating, now)
            if shown.rd <= LEADERBOARD_MAX_RD:
                ranked.append((name, shown, stored.games))
        page = tuple(BoardLine(offset + i + 1, name, shown.shown_rating, shown.shown_rd, games)
                     for i, (name, shown, games) in enumerate(ranked[offset:offset + limit]))
        return Leaderboard(family, offset, len(ranked), page)

    async def _profile(self, session: Any, message: GetProfile) -> None:
        """GetProfile: by name, or the asker's own (a guest not stored has played nothing yet)."""
        player_id = session.player_id
        if message.player is None and not session.identity.stored:
            await session.send(Profile(session.name, player_id, (), 0, 0, 0, 0, ()))
            return
        if message.player is not None:
            found = self.records.named(message.player)
            if found is None:
                raise RoomError("NO_PLAYER", f"no player of this server is called {message.player!r}")
            player_id = found[0]
        await session.send(self.profile(player_id))

    async def _leaderboard(self, session: Any, message: GetLeaderboard) -> None:
        """GetLeaderboard: one page."""
        await session.send(self.leaderboard(message.ruleset, message.offset, message.limit))

"""Budgets per address: what many connections from one place may do together - guess codes, add players, create
tournaments, ask the web side (pages, the read API) - beside each connection's own message budget
(``server.connections.ratelimit``).

Why per address and not per connection: reconnecting is free, so a budget a connection holds is no budget at all
(one process tried 8,982 entry codes a second over 10 connections). Each kind of act has a token bucket per address
(``Budgets``), and entry codes one per tournament as well, so many addresses together still guess slowly; a wrong
code is also answered only ``CODE_GUESS_DELAY_S`` later. An exhausted budget refuses with ``RATE_LIMITED`` and says
when to try again (``retry_ms``); the first refusal of a burst is logged at WARNING, once - not every guess.

What an address is: the peer's IP, unless the peer is a proxy the owner trusts (``--trusted-proxy``): then the
client's, the rightmost address of ``X-Forwarded-For`` that is no trusted proxy. A LAN club behind one NAT address
is one address on a server on the internet, so the budgets are sized for 40 players who each need a new player and
mistype a code. Connections from an exempt network (``--exempt``, loopback by default: the server's own machine,
where ``sprtec organise``, ``sprtec tournament run --bots``, the benchmarks and the tests connect dozens of clients)
spend no per-address budget; a connection that came through a proxy the server does not trust is never exempt, so a
proxy on the same machine that forgot ``--trusted-proxy`` shares one budget among all its players instead of
lifting every limit.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from server.constants import (
    BUDGETS_KEPT,
    CLAIM_GUESS_BURST,
    CLAIM_GUESS_WINDOW_S,
    CODE_GUESS_DELAY_S,
    ENTRY_GUESS_BURST,
    ENTRY_GUESS_WINDOW_S,
    NEW_PLAYER_BURST,
    NEW_PLAYER_WINDOW_S,
    TOURNAMENT_BURST,
    TOURNAMENT_GUESS_BURST,
    TOURNAMENT_GUESS_WINDOW_S,
    TOURNAMENT_WINDOW_S,
    WEB_REQUEST_BURST,
    WEB_REQUEST_WINDOW_S,
)
from server.rooms.room import RoomError

log = logging.getLogger(__name__)
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
FORWARDED_HEADER = "X-Forwarded-For"


@dataclass(frozen=True, slots=True)
class Client:
    """Where a connection comes from: its address (see the module docstring) and whether it is exempt."""

    address: str
    exempt: bool = False


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of limited act: its budget per address, and per scope (a tournament) when it has one."""

    name: str  # how callers name it ("entry_code")
    what: str  # what is counted, for the log and the refusal ("wrong entry codes")
    burst: int
    window_s: float
    scope_burst: int = 0  # 0: no budget per scope
    scope_window_s: float = 1.0


ENTRY_CODE = "entry_code"  # a wrong entry code (JoinTournament), per address and per tournament
CLAIM_CODE = "claim_code"  # a wrong claim code (Hello), per address
NEW_PLAYER = "new_player"  # a player row added (a named Hello, a guest's first act that is kept), per address
NEW_TOURNAMENT = "new_tournament"  # a tournament created, per address
WEB_REQUEST = "web_request"  # a request to the web side (server.web), per address
KINDS = {kind.name: kind for kind in (
    Kind(ENTRY_CODE, "wrong entry codes", ENTRY_GUESS_BURST, ENTRY_GUESS_WINDOW_S, TOURNAMENT_GUESS_BURST,
         TOURNAMENT_GUESS_WINDOW_S),
    Kind(CLAIM_CODE, "wrong claim codes", CLAIM_GUESS_BURST, CLAIM_GUESS_WINDOW_S),
    Kind(NEW_PLAYER, "new players", NEW_PLAYER_BURST, NEW_PLAYER_WINDOW_S),
    Kind(NEW_TOURNAMENT, "new tournaments", TOURNAMENT_BURST, TOURNAMENT_WINDOW_S),
    Kind(WEB_REQUEST, "web requests", WEB_REQUEST_BURST, WEB_REQUEST_WINDOW_S),
)}


class _Bucket:
    """One key's tokens, and what its current burst did (for one log line per burst)."""

    __slots__ = ("last", "since", "spent", "tokens", "told")

    def __init__(self, capacity: float, now: float) -> None:
        self.tokens = capacity
        self.last = now
        self.spent = 0  # spent since the bucket was last full
        self.since = now  # when it was last full
        self.told = False  # this burst's refusal was logged


class Budgets:
    """A token bucket per key (an address, a tournament): ``capacity`` tokens refilled over ``window_s``. A key is
    remembered while its bucket is not full; at most ``kept`` keys (the full ones are forgotten first, then the
    oldest)."""

    def __init__(self, capacity: int, window_s: float, now: Callable[[], float], kept: int = BUDGETS_KEPT) -> None:
        self.capacity = float(capacity)
        self.rate = capacity / window_s
        self._now = now
        self._kept = kept
        self._buckets: dict[str, _Bucket] = {}

    def _bucket(self, key: str) -> _Bucket:
        """The key's bucket, refilled to now (a new one is full)."""
        now = self._now()
        bucket = self._buckets.get(key)
        if bucket is None:
            return _Bucket(self.capacity, now)
        bucket.tokens = min(self.capacity, bucket.tokens + (now - bucket.last) * self.rate)
        bucket.last = now
        if bucket.tokens >= self.capacity:
            bucket.spent, bucket.since, bucket.told = 0, now, False
        return bucket

    def wait_s(self, key: str) -> float:
        """Seconds until the key may spend a token (0: now)."""
        bucket = self._bucket(key)
        return 0.0 if bucket.tokens >= 1.0 else (1.0 - bucket.tokens) / self.rate

    def spend(self, key: str) -> None:
        """Spend one of the key's tokens (none left: nothing happens; ``wait_s`` says so before)."""
        bucket = self._bucket(key)
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            bucket.spent += 1
        if key not in self._buckets:
            self._forget_some()
            self._buckets[key] = bucket

    def first_refusal(self, key: str) -> tuple[int, float] | None:
        """(tokens spent, seconds) of the key's burst the first time it is refused, None afterwards (the burst was
        told already) - the burst ends when its bucket is full again."""
        bucket = self._bucket(key)
        if bucket.told or key not in self._buckets:
            return None
        bucket.told = True
        return bucket.spent, bucket.last - bucket.since

    def _forget_some(self) -> None:
        """Make room for one more key: forget every full bucket, then the oldest ones."""
        if len(self._buckets) < self._kept:
            return
        for key in [k for k in self._buckets if self._bucket(k).tokens >= self.capacity]:
            del self._buckets[key]
        while len(self._buckets) >= self._kept:
            del self._buckets[next(iter(self._buckets))]


class AddressBudgets:
    """Every per-address budget of one server, where connections come from, and the delay of a wrong code."""

    def __init__(self, *, exempt: Iterable[str] = (), trusted_proxies: Iterable[str] = (),
                 now: Callable[[], float] = time.monotonic, guess_delay_s: float = CODE_GUESS_DELAY_S,
                 kinds: Mapping[str, Kind] = KINDS) -> None:
        """``exempt``, ``trusted_proxies``: networks (``127.0.0.0/8``, ``::1``, ``10.0.0.0/8``); ``kinds``: the
        budgets (the tests give smaller ones)."""
        self.exempt = networks(exempt)
        self.trusted = networks(trusted_proxies)
        self.guess_delay_s = guess_delay_s
        self.kinds = dict(kinds)
        self._by_address = {name: Budgets(kind.burst, kind.window_s, now) for name, kind in self.kinds.items()}
        self._by_scope = {name: Budgets(kind.scope_burst, kind.scope_window_s, now)
                          for name, kind in self.kinds.items() if kind.scope_burst}

    # ------------------------------------------------------------------ where a connection comes from
    def client_of(self, ws: Any, request: Any = None) -> Client:
        """Where the websocket connection ``ws`` comes from (its peer, and ``X-Forwarded-For`` from a trusted
        proxy); ``request``: the HTTP request when it is not the connection's own yet (the handshake hook's)."""
        remote = getattr(ws, "remote_address", None)
        peer = str(remote[0]) if remote else ""
        request = request if request is not None else getattr(ws, "request", None)
        forwarded = [] if request is None else [
            part.strip() for value in request.headers.get_all(FORWARDED_HEADER) for part in value.split(",")]
        forwarded = [part for part in forwarded if part]
        return self.client_from(peer, forwarded)

    def client_from(self, peer: str, forwarded: list[str]) -> Client:
        """The client of a peer that sent these ``X-Forwarded-For`` addresses (oldest first)."""
        address = peer
        if forwarded and within(peer, self.trusted):
            chain = [peer, *reversed(forwarded)]  # nearest first
            address = next((hop for hop in chain if not within(hop, self.trusted)), chain[-1])
        through_stranger = bool(forwarded) and not within(peer, self.trusted)
        return Client(address, exempt=not through_stranger and within(address, self.exempt))

    # ------------------------------------------------------------------ budgets
    def check(self, kind: str, client: Client, scope: str | None = None) -> None:
        """Refuse (``RoomError`` RATE_LIMITED with ``retry_ms``) when the client's address, or the scope, has no
        budget left for ``kind``; the first refusal of a burst is logged."""
        wait = self.wait_s(kind, client, scope)
        if wait > 0:
            seconds = math.ceil(wait)
            raise RoomError("RATE_LIMITED", f"too many {self.kinds[kind].what} from here: try again in {seconds} s",
                            retry_ms=seconds * 1000)

    def wait_s(self, kind: str, client: Client, scope: str | None = None) -> float:
        """Seconds until the client (and the scope) may do one more act of ``kind``, 0 when it may now; the first
        refusal of a burst is logged."""
        waits: list[tuple[float, Budgets, str]] = []
        if not client.exempt:
            waits.append((self._by_address[kind].wait_s(client.address), self._by_address[kind], client.address))
        if scope is not None and kind in self._by_scope:
            waits.append((self._by_scope[kind].wait_s(scope), self._by_scope[kind], f"tournament {scope}"))
        wait, budgets, key = max(waits, key=lambda w: w[0], default=(0.0, None, ""))
        if wait <= 0 or budgets is None:
            return 0.0
        told = budgets.first_refusal(key)
        if told is not None:
            log.warning("%s: %d %s in %.0f s; refusing more for %.0f s (latest from %s)", key, told[0],
                        self.kinds[kind].what, told[1], wait, client.address)
        return wait

    def spend(self, kind: str, client: Client, scope: str | None = None) -> None:
        """One act of ``kind`` by the client (of the scope) counts against the budgets."""
        if not client.exempt:
            self._by_address[kind].spend(client.address)
        if scope is not None and kind in self._by_scope:
            self._by_scope[kind].spend(scope)

    async def wrong_guess(self, kind: str, client: Client, scope: str | None = None) -> None:
        """A wrong code: it counts, and its answer waits ``guess_delay_s``."""
        self.spend(kind, client, scope)
        await asyncio.sleep(self.guess_delay_s)


def networks(values: Iterable[str]) -> tuple[Network, ...]:
    """Networks from their text (an address alone is a network of one); ValueError names a wrong one."""
    return tuple(ipaddress.ip_network(value.strip(), strict=False) for value in values)


def within(address: str, nets: tuple[Network, ...]) -> bool:
    """True when ``address`` (an IP, possibly IPv4-mapped IPv6) is in one of ``nets``."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in nets)

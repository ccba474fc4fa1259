"""The server process: websockets on a port, the lobby, the store, the worker pool, recovery and shutdown.

Why a class of its own: ``sprtec serve``, the end-to-end tests (in-process, with a fake clock) and the
benchmark all start the same ``Server``. On start it brings every unfinished match of the data
directory back at the position its last log row kept (``server.rooms.rebuild``; ``kill -9`` loses nothing that was
acknowledged); on shutdown it stops
accepting, closes every connection with 1001 and a reason, lets moves in flight finish, and flushes the
store.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import logging
from pathlib import Path
from typing import TYPE_CHECKING

import websockets
from prometheus_client import CollectorRegistry
from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection

from server.clock import MonotonicClock, WallClock
from server.composition import composition_for
from server.connections.address_budgets import AddressBudgets
from server.connections.coalesced_writes import CoalescedConnection
from server.connections.session import Handler, Session
from server.constants import (
    CLOSE_REASON_SHUTDOWN,
    CLOSE_TIMEOUT_S,
    DEFAULT_DATA_DIR,
    DEFAULT_HOST,
    DEFAULT_PORT,
    EXEMPT_NETWORKS,
    LISTEN_BACKLOG,
    MAX_QUEUE,
    OPEN_TIMEOUT_S,
    PING_INTERVAL_S,
    PING_TIMEOUT_S,
    SHUTDOWN_GRACE_S,
    STORE_CLOSE_TIMEOUT_S,
)
from server.lan.announcer import LanAnnouncer, default_server_name
from server.leagues.handlers import LeagueRequests
from server.leagues.resume import resume as resume_leagues
from server.leagues.service import LeagueService
from server.lifecycle import EventBus
from server.ops.agones_link import AgonesLink
from server.ops.http_endpoints import Checks, endpoints, operator_endpoints
from server.ops.instruments import MatchCounters
from server.ops.metrics import PHYSICS_QUEUE, QUICK_MATCH_QUEUE, RESOLVED_WHERE, STORE_QUEUE, new_metrics
from server.players import Players
from server.rooms.lobby import Lobby
from server.rooms.placement import Placement
from server.rooms.rebuild import recover
from server.rooms.registry import Registry
from server.rooms.workers import INLINE_SHARE, Resolver, WorkerPool, default_workers
from server.store.sqlite.sqlite_store import SqliteStore
from server.store.store_port import Health, Store
from server.tournaments.creation import Creators
from server.tournaments.handlers import TournamentRequests
from server.tournaments.resume import resume
from server.tournaments.service import TournamentService
from server.web.routes import chain
from server.web.site import web_table
from server.wire import deliver, outgoing
from shared.matchmaking import PoolRules
from shared.protocol import (
    MAX_LARGE_FRAME,
    CloseCode,
    Rated,
    ServerMessage,
)
from shared.protocol.lan_record import NOT_PLAYERS

if TYPE_CHECKING:  # the clustered mode's modules need its libraries (redis, asyncpg): imported only when used
    from server.cluster.node import ClusterConfig

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True, slots=True)
class ServerConfig:
    """Where to listen, where the data lives, how many physics workers (0: in-line, for tests)."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    data_dir: Path = Path(DEFAULT_DATA_DIR)
    workers: int | None = None
    inline_share: float = INLINE_SHARE  # of the loop's time that may resolve entries in-line (rooms.workers)
    lan: bool = False  # announce the server on the LAN (mDNS/DNS-SD, server/lan/announcer.py)
    name: str = ""  # the name announced on the LAN; empty: "sprtec on <hostname>"
    postgres: str | None = None  # the shared store's URL (server.store.postgres.pg_store); None: SQLite in data_dir
    cluster: ClusterConfig | None = None  # a node of a cluster (server.cluster.node; needs ``postgres``); None: alone
    pool: PoolRules = dataclasses.field(default_factory=PoolRules)  # quick match: how windows widen, the longest wait
    tournaments: str = "named"  # who may create tournaments: open, named, organisers (server.tournaments.creation)
    organisers: tuple[str, ...] = ()  # with "organisers": the names of the players who may
    exempt: tuple[str, ...] = EXEMPT_NETWORKS  # networks no per-address budget applies to (address_budgets)
    trusted_proxies: tuple[str, ...] = ()  # proxies whose X-Forwarded-For names the client
    metrics: tuple[str, int] | None = None  # a listener of its own for /metrics; None: for this machine only


class Server:
    """One sprtec server; ``start`` returns the port it listens on."""

    def __init__(self, config: ServerConfig, clock: WallClock | None = None, announcer: LanAnnouncer | None = None,
                 registry: Registry | None = None) -> None:
        self.config = config
        self.clock = clock or MonotonicClock()
        self.metrics_registry = CollectorRegistry()  # this server's own families, served at /metrics
        self.metrics = new_metrics(self.metrics_registry)
        self.store = SqliteStore(config.data_dir) if config.postgres is None else _shared_store(config.postgres)
        self.store.time_commits(self.metrics.store_commit_latency.observe)
        size = default_workers() if config.workers is None else config.workers
        self.pool: WorkerPool | None = (WorkerPool(size, on_replaced=self.metrics.worker_restarts.inc)
                                        if size > 0 else None)
        resolve_cpu = {where: self.metrics.resolve_cpu.labels(where=where) for where in RESOLVED_WHERE}
        self.resolver = Resolver(self.pool, config.inline_share,
                                 lambda where, seconds: resolve_cpu[where].observe(seconds))
        self.bus = EventBus()
        self.sessions: dict[int, Session] = {}
        self.handlers: dict[type, Handler] = {}  # requests the services answer (server.connections.session.Host)
        self.limits = AddressBudgets(exempt=config.exempt, trusted_proxies=config.trusted_proxies)
        self.players = Players(self.store, self.bus, self._tell_room)
        # alone or a node of a cluster (server.composition): chosen here once, never asked again
        composition = composition_for(config)
        self.lobby = Lobby(store=self.store, resolver=self.resolver, clock=self.clock, bus=self.bus,
                           registry=registry or composition.registry(config, self.store),
                           connection_of=self.sessions.get, rating_of=self.players.rating_of,
                           node=composition.node_id)
        # where rooms are played (server.rooms.placement): this process alone, or a node of a cluster
        self.placement: Placement = composition.placement(self)
        self.handlers.update(self.players.handlers())
        self.tournaments = TournamentService(store=self.store, lobby=self.lobby, bus=self.bus, clock=self.clock,
                                             session_of=self.sessions.get, rating_of=self.players.rating_of)
        creators = Creators.of(config.tournaments, config.organisers)
        self.handlers.update(TournamentRequests(self.tournaments, self.limits, creators).handlers())
        self.leagues = LeagueService(store=self.store, lobby=self.lobby, bus=self.bus, clock=self.clock,
                                     session_of=self.sessions.get)
        self.handlers.update(LeagueRequests(self.leagues, self.limits, creators).handlers())
        composition.place_competitions(self)
        self._ws_server: WsServer | None = None
        self._operators: WsServer | None = None  # the --metrics listener
        self.metrics_port = 0
        self.ready = asyncio.Event()  # set once the unfinished matches are back (start)
        self.draining = False  # set when shutdown begins: the node takes nobody new
        self.match_counters = MatchCounters(self.bus, self.metrics)
        self._measure_queues()
        self.health = self._checks()
        self._recovery: asyncio.Task[None] | None = None
        self.port = 0
        self.announcer = announcer or (LanAnnouncer() if config.lan else None)
        self.agones = AgonesLink.from_environment(self.bus, lambda: self.store.health.ok)  # None outside Agones

    async def start(self) -> int:
        """Listen at once and rebuild the unfinished matches meanwhile (``ready`` is set when they are back);
        returns the actual port (for ``--port 0``). Connections of the first moments are welcomed and wait for
        ``ready`` before anything needs a room, so a restart never refuses a connection."""
        self.store.listen(self._store_changed)
        if self.agones is not None:
            self.agones.start()
        web = web_table(self, self.limits, self.placement.web_elsewhere)
        self.placement.answers_web(web.answer_here)  # a cluster: what other nodes pass on, answered here
        self._ws_server = await websockets.serve(
            self._handle,
            self.config.host,
            self.config.port,
            max_size=MAX_LARGE_FRAME,  # the session holds every other request to MAX_CLIENT_FRAME
            max_queue=MAX_QUEUE,
            compression=None,
            ping_interval=PING_INTERVAL_S,
            ping_timeout=PING_TIMEOUT_S,
            close_timeout=CLOSE_TIMEOUT_S,
            open_timeout=OPEN_TIMEOUT_S,
            backlog=LISTEN_BACKLOG,
            create_connection=CoalescedConnection,  # a turn's frames to one client in one write
            # the operators' table first (/healthz, /readyz, /metrics), then the web's (server.web.site)
            process_request=chain(endpoints(self.health, self.metrics_registry,
                                            metrics_here=self.config.metrics is None),
                                  web),
        )
        self.port = next(iter(self._ws_server.sockets)).getsockname()[1]
        if self.config.metrics is not None:  # /metrics (and the probes) where only the operator reaches
            self._operators = await websockets.serve(_no_websocket, *self.config.metrics,
                                                     process_request=operator_endpoints(self.health,
                                                                                        self.metrics_registry))
            self.metrics_port = next(iter(self._operators.sockets)).getsockname()[1]
        self._recovery = asyncio.get_running_loop().create_task(self._recover_then_ready())
        if self.announcer is not None:
            await self.announcer.start(self.config.name or default_server_name(), self.config.host, self.port)
        return self.port

    def _measure_queues(self) -> None:
        """Rooms and queue lengths are read when /metrics is scraped: nothing to do per move or per request."""
        pool = self.pool
        self.metrics.rooms.set_function(lambda: len(self.lobby.rooms))
        self.metrics.live_matches.set_function(self._live_matches)
        self.metrics.queue_size.labels(queue=QUICK_MATCH_QUEUE).set_function(lambda: self.lobby.queued)
        self.metrics.queue_size.labels(queue=STORE_QUEUE).set_function(lambda: self.store.queued_writes)
        self.metrics.queue_size.labels(queue=PHYSICS_QUEUE).set_function(lambda: pool.waiting if pool else 0)

    def _live_matches(self) -> int:
        """Matches started and not finished in the rooms this node plays now (a room it lost or handed over to
        another node of a cluster is not one of them)."""
        return sum(1 for room in list(self.lobby.rooms.values()) if room.status == "playing" and not room.closed)

    def _checks(self) -> Checks:
        """What /healthz and /readyz ask: a lost database means restart me; recovering, a paused store or a
        shutdown in progress means send nobody here yet."""
        checks = Checks()
        checks.add_liveness("database", lambda: f"lost: {self.store.health.reason}"
                            if self.store.health.lost else None)
        checks.add_readiness("recovery", lambda: None if self.ready.is_set() else "resuming unfinished matches")
        checks.add_readiness("store", lambda: None if self.store.health.ok
                             else f"not committing: {self.store.health.reason}")
        checks.add_readiness("shutdown", lambda: "shutting down" if self.draining else None)
        # a cluster node that cannot reach Redis can neither open nor find rooms
        checks.add_readiness("registry", self.placement.registry_problem)
        return checks

    @property
    def url(self) -> str:
        """The websocket URL clients connect to."""
        return f"ws://{self.config.host}:{self.port}/"

    async def _handle(self, ws: ServerConnection) -> None:
        """One connection's task."""
        await Session(ws, self).run()

    async def register(self, session: Session) -> None:
        """A player is connected here now; an older connection of the same player is closed (REPLACED)."""
        older = self.sessions.get(session.player_id)
        self.sessions[session.player_id] = session
        if self.announcer is not None:
            self.announcer.update(self.players_online(), self.tournaments.running())
        if older is not None and older is not session:
            await older.close(CloseCode.REPLACED, "the same player connected again elsewhere")
        self.tournaments.spawn(self.tournaments.connected(session, self.ready))  # after the Welcome and recovery
        self.leagues.spawn(self.leagues.connected(session, self.ready))
        self.placement.connected(session.player_id)  # a cluster: the tournaments run on other nodes tell him too

    def _tell_room(self, code: str, message: ServerMessage, players: tuple[int, ...] = ()) -> None:
        """Send a message to everyone in one of this server's rooms (a service's news: ratings, tournaments), and to
        each of ``players`` connected here but not in that room (a coach who resigned by leaving it)."""
        room = self.lobby.rooms.get(code)
        if room is not None:
            if isinstance(message, Rated):  # the next Presence shows the new ratings
                for player in room.core.seats.values():
                    if player is not None:
                        room.refresh_rating(player)
            room.tell(message)
        away = [session for player in dict.fromkeys(players) if (session := self.sessions.get(player)) is not None
                and (room is None or session.room is not room)]
        deliver(away, outgoing(message))

    def _store_changed(self, health: Health) -> None:
        """The store stopped or started committing: every room pauses or resumes and tells its members."""
        if health.lost:
            log.critical("the database is gone (%s): every room is paused; restart the server", health.reason)
        for room in list(self.lobby.rooms.values()):
            asyncio.get_running_loop().create_task(room.store_changed(health))

    def unregister(self, session: Session) -> None:
        """Forget a connection that ended."""
        if self.sessions.get(session.player_id) is session:
            del self.sessions[session.player_id]
        self.tournaments.unwatch(session)
        self.leagues.unwatch(session)
        self.placement.gone(session.player_id)
        if self.announcer is not None:
            self.announcer.update(self.players_online(), self.tournaments.running())

    def players_online(self) -> int:
        """The players connected here, as the LAN is told: the organiser's desk and the hall's screen are connections
        but not players (their Hello names them: ``shared.protocol.lan_record.NOT_PLAYERS``)."""
        return sum(1 for session in self.sessions.values() if not session.program.startswith(NOT_PLAYERS))

    # ------------------------------------------------------------------ recovery
    async def public_url(self, configured: str) -> str:
        """Where clients reach this node: ``--public-url`` (``configured``), else the address Agones gave the
        GameServer, else the URL it listens on."""
        found = configured
        if not found and self.agones is not None:
            found = await self.agones.public_url() or ""
        return found or self.url

    async def _recover_then_ready(self) -> None:
        """Rebuild every unfinished match (``server.rooms.rebuild``), then let waiting connections in.

        The cyclic garbage collector neither runs during the recovery nor walks, ever after, what the start and the
        recovery made (the modules, the store, the rebuilt rooms: they live as long as the process or their
        match; ``gc.freeze``): with 1,000 rooms coming back, its full passes over them were a sixth of the
        restart's CPU (``sprtec bench recovery``)."""
        gc.freeze()
        gc.disable()
        try:
            # one process: every stored match and tournament; a cluster node: the rooms nobody owns (all of them when
            # the cluster starts), then the tournaments (server.cluster.leased)
            await self.placement.start()
        finally:
            gc.freeze()
            gc.enable()
            self.ready.set()
        if self.agones is not None:
            await self.agones.ready()

    async def recover_here(self) -> None:
        """A server alone: every unfinished match rebuilt, then the tournaments and leagues resumed."""
        rooms = await recover(self.store, self.pool, self.lobby)
        log.info("%d unfinished matches resumed", len(rooms))
        await resume(self.tournaments)  # after the rooms: tables find their recovered matches
        await resume_leagues(self.leagues)

    # ------------------------------------------------------------------ shutdown
    async def shutdown(self) -> None:
        """Stop accepting, close every connection with 1001 and a reason, finish moves in flight, flush."""
        self.draining = True
        if self.announcer is not None:
            await self.announcer.close()  # the LAN's goodbye first: browsers drop the server at once
        if self._ws_server is not None:
            self._ws_server.close(close_connections=False)
        if self._operators is not None:
            self._operators.close()
        self.lobby.stop()
        if self._recovery is not None and not self._recovery.done():
            await self._recovery  # rooms being rebuilt are closed like the others
        await self.tournaments.stop()
        await self.leagues.stop()
        await self.placement.drain()  # a cluster: the rooms go on elsewhere, their connections with them
        rooms = list(self.lobby.rooms.values())
        grace = SHUTDOWN_GRACE_S if self.store.health.ok else STORE_CLOSE_TIMEOUT_S  # a failed disk finishes nothing
        try:
            await asyncio.wait_for(asyncio.gather(*(room.close() for room in rooms)), grace)
        except TimeoutError:
            log.error("shutdown: some rooms did not finish their move in %s s", grace)
        connections = list(self._ws_server.connections) if self._ws_server is not None else []
        await asyncio.gather(
            *(c.close(CloseCode.GOING_AWAY, CLOSE_REASON_SHUTDOWN) for c in connections), return_exceptions=True
        )
        handlers = asyncio.ensure_future(self._ws_server.wait_closed() if self._ws_server is not None else _done())
        try:  # connections end, their coaches leave their rooms ...
            await asyncio.wait_for(asyncio.shield(handlers), grace)
        except TimeoutError:  # ... unless a room's entry waits for a failed disk: closing the store fails that write
            log.error("shutdown: connections still waiting for the store after %s s; giving up their writes", grace)
        await self.placement.close()
        self.store.close()
        if self.agones is not None:
            await self.agones.stop()
        try:  # the store closed fails every write still waited for: the handlers end now, or never will
            await asyncio.wait_for(handlers, grace)
        except TimeoutError:
            log.error("shutdown: connections did not end %s s after the store closed; stopping without them", grace)
        if self.pool is not None:
            self.pool.close()


def _shared_store(url: str) -> Store:
    """The PostgreSQL store (``server.store.postgres.pg_store``, imported here: asyncpg is the clustered mode's
    library)."""
    from server.store.postgres.pg_store import PgStore

    return PgStore(url)


async def _done() -> None:
    """Nothing to wait for."""


async def _no_websocket(connection: ServerConnection) -> None:
    """The operators' listener answers every request over HTTP (``operator_endpoints``): no handshake reaches this."""
    await connection.close()

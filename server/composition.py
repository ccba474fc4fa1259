"""How a server is put together alone or as a node of a cluster: its rooms' registry, its placement, and how its
tournaments and leagues are placed. Chosen once, from the configuration (``composition_for``), so that neither the
server (``server.app``) nor a session asks which: the single process is the default, the cluster the other
implementation of the same three answers, as Colyseus' ``Presence`` is.

It sits above every layer (the cluster's below the tournaments' and the leagues'), beside ``server.app``; the cluster's
modules are imported only by a node, which has their libraries (redis, asyncpg)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from server.rooms.placement import OneProcess, Placement
from server.rooms.registry import InProcessRegistry, Registry
from shared.protocol import UnwatchLeague, UnwatchTournament, WatchLeague, WatchTournament

if TYPE_CHECKING:
    from server.app import Server, ServerConfig
    from server.cluster.node import ClusterConfig, ClusterNode
    from server.rooms.room import Room
    from server.store.store_port import Store


class Composition(Protocol):
    """What differs between a server alone and a node of a cluster, asked once while the server is built."""

    node_id: str  # the name the rooms' rows and logs give this server

    def registry(self, config: ServerConfig, store: Store) -> Registry:
        """Where room codes, leases and the quick-match queue live."""
        ...

    def placement(self, server: Server) -> Placement:
        """Where rooms are played (``server.rooms.placement``), once the server's lobby has its registry."""
        ...

    def place_competitions(self, server: Server) -> None:
        """Where tournaments and leagues run, and the figures that go with it (once their services exist)."""
        ...


class Alone:
    """A server by itself: its registry in memory, every room and competition played here."""

    node_id = "local"

    def registry(self, config: ServerConfig, store: Store) -> Registry:
        """The codes of the stored rooms stay taken."""
        return InProcessRegistry(config.pool, store.room_codes())

    def placement(self, server: Server) -> Placement:
        """Every room here; a restart rebuilds them all."""
        return OneProcess(server.recover_here)

    def place_competitions(self, server: Server) -> None:
        """Every tournament and league runs here, as its service does by itself."""


class ClusterMember:
    """A node of a cluster: the registry on Redis, rooms and competitions leased among the nodes."""

    def __init__(self, cluster: ClusterConfig) -> None:
        self.cluster = cluster
        self.node_id = cluster.node_id

    def registry(self, config: ServerConfig, store: Store) -> Registry:
        """The cluster's registry on Redis (``server.cluster.node``)."""
        from server.cluster.node import registry_for

        return registry_for(self.cluster, config.pool)

    def placement(self, server: Server) -> Placement:
        """This node's part of the cluster; its data is PostgreSQL's, shared by every node."""
        from server.cluster.node import ClusterNode
        from server.cluster.redis_registry import RedisRegistry
        from server.store.postgres.pg_store import PgStore

        assert isinstance(server.store, PgStore), "a cluster node keeps its data in PostgreSQL (--postgres)"
        registry = server.lobby.registry
        assert isinstance(registry, RedisRegistry), "a cluster node finds rooms through the cluster's registry"
        node = ClusterNode(self.cluster, registry=registry, store=server.store, lobby=server.lobby, pool=server.pool,
                           connection_of=server.sessions.get)
        node.public_url_of = server.public_url
        return node

    def place_competitions(self, server: Server) -> None:
        """A cluster's tournaments and leagues: each runs on one node under a lease and a fence
        (``server.cluster.leased``), taken over from a node that died; a request about one run elsewhere is forwarded
        there and answered through this node (``server.cluster.forwarding``), its players told wherever they are
        connected; its tables' news comes from the nodes that play them."""
        from server.cluster.node import ClusterNode
        from server.leagues.leases import KIND as LEAGUE
        from server.leagues.leases import LeagueLeases
        from server.leagues.leases import read_lines as read_league_lines
        from server.tournaments.leases import KIND, TournamentLeases, read_lines

        node = server.placement
        assert isinstance(node, ClusterNode), "the node's placement is made before its competitions are placed"
        tournaments = TournamentLeases(server.tournaments, lambda tournament, watchers: node.forwarder.moved_watchers(
            KIND, tournament, watchers))
        _place(server, node, server.tournaments, tournaments, read_lines, WatchTournament, UnwatchTournament)
        leagues = LeagueLeases(server.leagues, lambda league, watchers: node.forwarder.moved_watchers(
            LEAGUE, league, watchers))
        _place(server, node, server.leagues, leagues, read_league_lines, WatchLeague, UnwatchLeague)
        _count_leases(server, node)


def composition_for(config: ServerConfig) -> Composition:
    """A node of a cluster when the configuration names one, else a server alone."""
    return Alone() if config.cluster is None else ClusterMember(config.cluster)


def _place(server: Server, cluster: ClusterNode, service: Any, leases: Any, read: Callable[[dict[str, str]], Any],
           watch: type, unwatch: type) -> None:
    """One kind of competition on a cluster node (``leases``: its ``LeasedKind``; ``read``: its listing lines
    as published; ``watch``/``unwatch``: its requests that start and end a watch, the object's id in the field
    named as the kind)."""
    from server.cluster.leased import lease_name

    kind, forwarder, store, lobby = leases.kind, cluster.forwarder, server.store, server.lobby
    service.fenced = lambda object_id, statements: store.fenced(lease_name(kind, object_id), statements)
    service.claim = lambda object_id: cluster.leased.claim(kind, object_id)
    service.rooms_alive = lambda: {row.code for row in store.rooms()} | set(lobby.rooms)
    service.deliver = forwarder.deliver
    service.session_of = forwarder.player

    async def lines_elsewhere() -> Any:
        """The lines the other nodes published of their competitions of this kind."""
        return read(await cluster.leased.lines(kind))

    service.lines_elsewhere = lines_elsewhere
    cluster.leased.add(leases)

    async def publish_lines() -> None:
        """Every beat: this node's lines for every node's list."""
        await cluster.leased.publish_lines(kind, leases.lines())

    async def forget_dead_watchers() -> None:
        """Every beat: the watchers connected to a node that died are watchers no more."""
        for watcher in await forwarder.dead(w for run in service.runs.values() for w in run.watchers):
            service.unwatch(watcher)

    cluster.on_beat += [service.check_tables_elsewhere, publish_lines, forget_dead_watchers]
    cluster.on_table_event.append(service.remote_event)
    forwarder.on_connected.append(service.connected)
    forwarder.on_gone.append(service.unwatch)
    forwarder.watch_request[kind] = watch
    forwarder.watched[kind] = lambda message: isinstance(message, watch)
    forwarder.unwatched[kind] = lambda message: isinstance(message, unwatch)

    def object_of(message: Any) -> tuple[str, str]:
        """The leased object a request is about (``server.cluster.forwarding``)."""
        return kind, str(getattr(message, kind)).strip().upper()

    handlers = server.handlers
    about = {request: object_of for request in handlers if kind in getattr(request, "__slots__", ())}
    # only this kind's own handlers: another kind's here are routed already, and routed again they would loop
    handlers.update(forwarder.route({request: handlers[request] for request in about}, about))


def _count_leases(server: Server, cluster: ClusterNode) -> None:
    """The cluster's figures on /metrics: the leases this node holds (its open rooms, read when scraped) and
    the rooms it took over from others, whose matches are live here again."""
    rooms, metrics = server.lobby.rooms, server.metrics
    metrics.leases_held.set_function(lambda: sum(1 for room in rooms.values() if not room.closed))

    def taken_over(room: Room) -> None:
        """One more room taken over."""
        metrics.lease_takeovers.inc()

    cluster.on_taken_over = taken_over

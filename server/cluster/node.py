"""One node of a cluster: its leases kept alive, the rooms of dead nodes taken over, coaches sent to their room's
owner, and its rooms handed over on a graceful stop.

Why one module beside the server and not inside the lobby: the lobby and the rooms work the same in one process
and in a cluster; what a cluster adds is time-driven and about other nodes - the heartbeat, the scan for rooms
nobody owns, the redirect - and lives here, on ``server.cluster.redis_registry`` (leases, fencing numbers) and
``server.store.postgres.pg_store`` (the shared store, which refuses a former owner's writes).

- **Heartbeat** (every ``lease_ms / 3``): the node's own key (its public URL) and the lease of every room it runs
  are renewed, and the rooms' lines in the shared listing refreshed (score, clocks, seats); a lease it no longer
  holds (it was paused past the TTL and another node took the room, or Redis restarted and forgot every lease) stops
  that room here at once - the store refuses its writes anyway - and its connections are sent on at once, each
  room on its own (``_send_on``): to the room's new owner (``MOVED``), or, when nobody holds the room, the node takes
  it over again and seats them in it without a reconnection. A write the store refuses for a stale fence
  (``RoomLost``: the node learnt it first from the store) is handled the same way. A beat that cannot reach Redis
  makes the node unready (``/readyz`` 503) until one can.
- **Takeover**: every stored room whose lease nobody holds is taken with ``SET NX`` by the first node to see it,
  which draws the room's next fencing number from the store - raising it there, so the former owner can commit
  nothing more - before reading it, then rebuilds it from the store exactly as a restart does
  (``server.rooms.rebuild``: the last kept position, or checkpoint + log fold). A coach landing on a node for such a
  room triggers the same takeover there at once instead of waiting for the scan.
- **Redirect**: a coach's room is played on its owner node; a coach's connection on another node is closed with
  ``MOVED`` (4004) and the owner's URL as the reason, and the client connects there with its token
  (docs/PROTOCOL.md "Clusters").
- **Quick match across nodes**: the queue is shared (``server.cluster.redis_registry``); a node that pairs one of its
  players with a player waiting on another node opens the room with both seats held, seats its own player and
  asks the other node (its pub/sub inbox) to send the other player over with ``MOVED``.
- **Spectators** may watch from any node: the owner publishes its rooms' frames for everyone, and a node relays
  them to its spectators of rooms played elsewhere (``server.cluster.relay``), through a takeover too.
- **Drain**: SIGTERM stops every room after its last commit and releases its lease, so the other nodes take the
  rooms over at their next scan; its connections are sent to the new owners as they appear.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError
from websockets.http11 import Request, Response

from server.cluster.forwarding import EVERYONE, Forwarder
from server.cluster.leased import LeasedObjects
from server.cluster.redis_registry import PREFIX, RedisRegistry, inbox
from server.cluster.relay import Relay, frames_channel
from server.cluster.web_requests import WebRequests
from server.lifecycle import (
    LifecycleEvent,
    MatchFinished,
    MatchStarted,
    MoveApplied,
    PresenceChanged,
    RoomClosed,
    RoomLost,
)
from server.rooms.placement import AnswerHere
from server.rooms.rebuild import recover
from server.rooms.registry import Moved, QueueEntry
from server.rooms.room import Connection, Room, RoomError
from server.store import match_statements
from server.store.postgres.pg_store import PgStore
from server.store.store_port import StoreUnavailable
from server.wire import outgoing
from shared.matchmaking import PoolRules
from shared.protocol import RoomJoined

if TYPE_CHECKING:
    from server.rooms.lobby import Lobby
    from server.rooms.workers import WorkerPool

log = logging.getLogger(__name__)

DEFAULT_LEASE_MS = 3000  # a killed node's rooms are free again after this long at most
DEFAULT_HELD_SEAT_WAIT_MS = 20_000  # a reconnecting client follows MOVED in well under a second; a lost one never
TAKEOVER_GATHER_S = 0.05  # takeover requests this close together become one (see ClusterNode.take_over_many)
MOVED_WAIT_S = 10.0  # how long a connection waits for a room's new owner to appear before it is sent anywhere
INBOX_RETRY_S = 0.5  # the pause before asking Redis again after it failed (a restart drops every connection)
TABLE_EVENTS = PREFIX + "table-events"  # the lifecycle of held rooms (a tournament's tables), for every node
_TABLE_EVENTS: dict[str, type[LifecycleEvent]] = {kind.__name__: kind for kind in (MatchStarted, MoveApplied,
                                                                                    PresenceChanged, MatchFinished)}


@dataclass(frozen=True, slots=True, kw_only=True)
class ClusterConfig:
    """Where the cluster's Redis is, who this node is, and where clients reach it."""

    redis: str
    node_id: str
    public_url: str
    lease_ms: int = DEFAULT_LEASE_MS
    held_seat_wait_ms: int = DEFAULT_HELD_SEAT_WAIT_MS  # a quick-match opponent sent from another node: how long
    # his held seat waits for him before the player here is queued again


REDIS_CONNECTIONS = 64  # Redis connections a node keeps at most (its pub/sub inbox takes one of them)
REDIS_WAIT_S = 10.0  # how long a command waits for a free one before it fails
REDIS_CONNECT_S = 2.0  # how long connecting to Redis, or closing a connection to it, may take


def registry_for(config: ClusterConfig, pool: PoolRules | None = None) -> RedisRegistry:
    """The cluster's registry as this node uses it (``pool``: the quick-match pool's rules)."""
    # A blocking pool: redis-py's default pool fails a command at once ("Too many connections") when 100 are busy,
    # which a node with a few hundred sessions reaches in a burst; here a command waits for a free connection.
    # redis-py bounds a connection's close by its connect timeout, and by nothing when that is None: a node's last
    # pub/sub close could wait for the socket's end forever, the shutdown with it (redis-py issue 3941).
    connections = aioredis.BlockingConnectionPool.from_url(config.redis, max_connections=REDIS_CONNECTIONS,
                                                           timeout=REDIS_WAIT_S, socket_connect_timeout=REDIS_CONNECT_S)
    return RedisRegistry(aioredis.Redis(connection_pool=connections), config.node_id, config.lease_ms, pool)


class ClusterNode:
    """This process as one node of a cluster (see the module docstring): the server's placement
    (``server.rooms.placement.Placement``) when it runs in a cluster."""

    moves_rooms = True  # a room that stopped here goes on on another node

    def __init__(self, config: ClusterConfig, *, registry: RedisRegistry, store: PgStore, lobby: Lobby,
                 pool: WorkerPool | None, connection_of: Callable[[int], Connection | None]) -> None:
        self.config = config
        self.registry = registry
        self.store = store
        # One table of the lease number each room is written under: the registry fills it for every lease this
        # node acquires - a room it opens as much as one it takes over - drawing the numbers from the store, and the
        # store fences every write with it (a room missing from it is not this node's to write)
        store.fences = registry.fences
        registry.draw_fences = store.draw_fences
        self.lobby = lobby
        self.pool = pool
        self._task: asyncio.Task[None] | None = None
        self._taking: dict[str, asyncio.Task[None]] = {}  # rooms being taken over, by code
        self._wanted: dict[str, None] = {}  # codes the gathering batch will take over, in the order asked
        self._gathering: asyncio.Task[None] | None = None  # the batch still gathering codes
        self._rebuilding: set[str] = set()  # rooms whose lease this node acquired and is rebuilding (kept renewed)
        self._scanning: asyncio.Task[None] | None = None  # the heartbeat's scan for orphans, while it runs
        self._chores: asyncio.Task[None] | None = None  # the heartbeat's other jobs, while they run
        self._sending_on: set[asyncio.Task[None]] = set()  # lost rooms whose connections are being sent on
        self._stopping: dict[str, Room] = {}  # lost rooms still finishing their entry in progress, by code
        self._registry_ok_at: float | None = None  # the loop time Redis last answered a heartbeat
        self._draining = False  # set by a graceful stop: from then on this node takes no room over
        self._registry_error = ""  # why the last heartbeat failed
        self.taken_over = 0  # rooms this node took over from others
        self.on_taken_over: Callable[[Room], None] = lambda room: None  # told each room taken over (metrics)
        self._connection_of = connection_of
        self._inbox: asyncio.Task[None] | None = None
        self._pubsub: PubSub | None = None  # the node's inbox and the frames of the rooms it relays
        self.relays: dict[str, Relay] = {}  # rooms played elsewhere that spectators here watch
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()  # frames of our rooms, in order
        self._publisher: asyncio.Task[None] | None = None
        lobby.bus.subscribe(PresenceChanged, self._presence_changed)
        lobby.bus.subscribe(MatchFinished, self._match_finished)
        lobby.bus.subscribe(RoomClosed, self._room_closed)
        lobby.bus.subscribe(RoomLost, self._room_lost)
        lobby.bus.subscribe(MatchStarted, self._table_event)
        lobby.bus.subscribe(MoveApplied, self._table_event)
        lobby.bus.subscribe(PresenceChanged, self._table_event)
        lobby.bus.subscribe(MatchFinished, self._table_event)
        # Objects run on one node at a time besides the rooms (tournaments: server.cluster.leased), the requests about
        # them forwarded to their node (server.cluster.forwarding), what is told of held rooms played here
        # (``on_table_event`` of every other node), and what else each heartbeat does (``on_beat``)
        self.leased = LeasedObjects(registry, registry.url_of)
        self.forwarder = Forwarder(self.leased, self.registry.client.publish, connection_of)
        self.web = WebRequests(self.node, self.registry.client.publish)
        self.on_table_event: list[Callable[[LifecycleEvent], None]] = []
        self.on_beat: list[Callable[[], Awaitable[None]]] = []
        self.public_url_of: Callable[[str], Awaitable[str]] | None = None  # given the configured one, at start
        lobby.call_player = self._call_player
        lobby.held_seat_wait_ms = config.held_seat_wait_ms
        lobby.relay_of = self._relay_of

    @property
    def node(self) -> str:
        """This node's id."""
        return self.config.node_id

    def connected(self, player_id: int) -> None:
        """A player connected here: the tournaments run on other nodes tell him what waits for him."""
        self.forwarder.connected(player_id)

    def gone(self, player_id: int) -> None:
        """A player's connection here ended: the other nodes forget him as a watcher."""
        self.forwarder.gone(player_id)

    async def start(self) -> None:
        """Announce the node, take over every room nobody owns (a cluster's first start: all of them), and keep
        beating."""
        if self.public_url_of is not None:  # where clients reach this node, found as it starts (Agones)
            self.config = dataclasses.replace(self.config, public_url=await self.public_url_of(self.config.public_url))
        await self.registry.announce(self.config.public_url)
        self._registry_ok_at = asyncio.get_running_loop().time()
        self._pubsub = pubsub = self.registry.client.pubsub()
        await pubsub.subscribe(inbox(self.node), EVERYONE, TABLE_EVENTS)
        self._inbox = asyncio.get_running_loop().create_task(self._listen(pubsub))
        self._publisher = asyncio.get_running_loop().create_task(self._publish_frames())
        await self.scan()
        self._task = asyncio.get_running_loop().create_task(self._beat())

    async def _call_player(self, entry: QueueEntry, code: str) -> bool:
        """Ask the node where a paired player waits to send him to room ``code`` here; False when it is not there."""
        node = entry.node
        if not node or node == self.node:
            return False
        message = {"kind": "come", "player": entry.player_id, "url": self.config.public_url, "room": code}
        return bool(await self.registry.client.publish(inbox(node), json.dumps(message)))

    def registry_problem(self) -> str | None:
        """Why this node should take no new players (``/readyz``): Redis has not answered a heartbeat for longer
        than a lease - it cannot open, find or take over rooms, nor pair the queue. None while it answers."""
        if self._registry_ok_at is None:
            return "not connected to Redis yet"
        silent = asyncio.get_running_loop().time() - self._registry_ok_at
        if silent <= self.config.lease_ms / 1000:
            return None
        return f"Redis has not answered for {silent:.0f} s ({self._registry_error or 'no answer'})"

    async def _listen(self, pubsub: PubSub) -> None:
        """The node's subscriptions: its inbox (what other nodes ask or answer) and the frames of relayed rooms.

        A Redis that restarts or cannot be reached drops them: the node listens again (redis-py reconnects and
        subscribes to the same channels again) until it is stopped."""
        try:
            while True:
                try:
                    message = await pubsub.get_message(timeout=1.0)
                except (RedisError, OSError) as exc:
                    log.warning("node %s: its subscriptions were dropped (%s); listening again", self.node, exc)
                    await asyncio.sleep(INBOX_RETRY_S)
                    continue
                if message is None or message.get("type") != "message":
                    continue
                channel = message["channel"].decode()
                if channel in (inbox(self.node), EVERYONE):
                    await self._answer(message["data"])
                elif channel == TABLE_EVENTS:
                    self._heard_table_event(message["data"])
                elif (relay := self.relays.get(channel.rsplit(":", 1)[-1])) is not None:
                    relay.forward(message["data"])
        finally:
            try:  # bounded by the connect timeout (registry_for); a Redis gone meanwhile only says so
                await pubsub.aclose()  # type: ignore[no-untyped-call]
            except (RedisError, OSError) as exc:
                log.warning("node %s: its subscriptions did not close cleanly (%s)", self.node, exc)

    async def _answer(self, data: bytes) -> None:
        """One message of another node: send a paired player over, give a relayed spectator his RoomJoined, or take
        the RoomJoined asked for spectators here."""
        try:
            asked = json.loads(data)
            if self.forwarder.heard(asked) or self.web.heard(asked):
                return
            kind, code = str(asked["kind"]), str(asked["room"])
            if kind == "come":
                connection = self._connection_of(int(asked["player"]))
                moved = getattr(connection, "moved", None)
                if moved is not None:
                    await moved(str(asked["url"]))
            elif kind == "watch" and (room := self.lobby.rooms.get(code)) is not None and not room.closed:
                frame = outgoing(RoomJoined(code, "spectator", None, room.snapshot()))
                answer = {"kind": "joined", "room": code, "frame": frame.hex()}
                await self.registry.client.publish(inbox(str(asked["node"])), json.dumps(answer))
            elif kind == "joined" and (relay := self.relays.get(code)) is not None:
                frame = bytes.fromhex(str(asked["frame"]))
                for connection in relay.waiting():
                    relay.joined(connection, frame)
        except (ValueError, KeyError, TypeError):
            log.warning("node %s: an unreadable message in its inbox: %r", self.node, data)

    def _table_event(self, event: LifecycleEvent) -> None:
        """A held room of ours (a tournament's table) started, moved, changed its presence or ended: every node hears
        it (the tournament may run on another one)."""
        room = self.lobby.rooms.get(event.room)
        if room is None or not room.core.reserved:
            return
        self._outbox.put_nowait((TABLE_EVENTS, json.dumps({"event": type(event).__name__, **asdict(event)}).encode()))

    def _heard_table_event(self, data: bytes) -> None:
        """A held room's lifecycle event published by a node (this one's too: a listener ignores its own rooms)."""
        try:
            fields = json.loads(data)
            kind = _TABLE_EVENTS[fields.pop("event")]
            for name in ("score", "connected"):
                if name in fields:
                    fields[name] = tuple(fields[name])
            event = kind(**fields)
        except (ValueError, KeyError, TypeError):
            log.warning("node %s: an unreadable table event: %r", self.node, data)
            return
        for listener in self.on_table_event:
            listener(event)

    def _relay_of(self, code: str) -> Callable[[bytes], None]:
        """Where room ``code`` (ours) puts its frames for everyone: the outbox, published in order."""

        def put(frame: bytes) -> None:
            """Queue one frame of the room."""
            self._outbox.put_nowait((code, frame))

        return put

    async def _publish_frames(self) -> None:
        """Publish our rooms' frames on their channels, in the order they were sent (one pipeline per batch)."""
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with self.registry.client.pipeline(transaction=False) as pipe:
                    for code, frame in batch:
                        pipe.publish(code if code == TABLE_EVENTS else frames_channel(code), frame)
                    await pipe.execute()
            except Exception:  # a spectator elsewhere resyncs; the room itself goes on
                log.exception("node %s: frames not relayed", self.node)

    # ------------------------------------------------------------------ spectators of rooms played elsewhere
    async def watch_elsewhere(self, connection: Any, code: str) -> bool:
        """A spectator here asks to watch room ``code``: True when the room is played on another node and he now
        watches it through this one (``server.cluster.relay``); False when it is ours (a room nobody owned is taken
        over) or there is no such room."""
        if code in self.lobby.rooms:
            return False
        owner = await self.registry.owner(code)
        if owner is None:
            await self.take_over(code)
            return False
        if owner == self.node:
            return False
        relay = self.relays.get(code)
        if relay is None:
            relay = self.relays[code] = Relay(code)
            assert self._pubsub is not None
            await self._pubsub.subscribe(frames_channel(code))
        relay.add(connection)
        connection.relayed = code
        asyncio.get_running_loop().create_task(self._ask_joined(relay))
        return True

    async def _ask_joined(self, relay: Relay) -> None:
        """Ask the room's owner for its spectators' RoomJoined until every waiting one has it (the owner may die
        meanwhile: the next one answers)."""
        deadline = asyncio.get_running_loop().time() + MOVED_WAIT_S
        while relay.waiting() and asyncio.get_running_loop().time() < deadline:
            owner = await self.registry.owner(relay.code)
            if owner is not None:
                asked = {"kind": "watch", "room": relay.code, "node": self.node}
                await self.registry.client.publish(inbox(owner), json.dumps(asked))
            await asyncio.sleep(0.5)

    async def resync_elsewhere(self, connection: Any) -> None:
        """A relayed spectator missed something: a fresh RoomJoined from the owner."""
        relay = self.relays.get(connection.relayed)
        if relay is not None:
            relay.remove(connection)
            relay.add(connection)
            asyncio.get_running_loop().create_task(self._ask_joined(relay))

    async def unwatch(self, connection: Any) -> None:
        """A relayed spectator left: the node stops listening to a room nobody here watches any more."""
        code, connection.relayed = connection.relayed, None
        relay = self.relays.get(code) if code else None
        if relay is None:
            return
        relay.remove(connection)
        if relay.empty():
            del self.relays[relay.code]
            if self._pubsub is not None:
                await self._pubsub.unsubscribe(frames_channel(relay.code))

    async def _beat(self) -> None:
        """The heartbeat: renew, drop lost rooms, take over orphans (a failure is logged, the next beat tries).

        A lost room's connections are sent on by a task of its own: finding a room's new owner may take a while,
        and the beat must go on renewing the other rooms and scanning meanwhile - it is the scan, here or on another
        node, that gives a lost room its new owner."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.config.lease_ms / 3000)
            try:
                await self.registry.announce(self.config.public_url)
                rooms = [room for room in self.lobby.rooms.values() if not room.closed]
                rebuilding = list(self._rebuilding)  # rooms taken over, still being rebuilt here: renewed too
                lost = [code for code in await self.registry.renew([room.code for room in rooms] + rebuilding)
                        if code not in rebuilding]
                self._registry_ok_at, self._registry_error = loop.time(), ""
                for room in rooms:
                    if room.code in lost:
                        log.warning("node %s lost the lease of room %s: the room stops here", self.node, room.code)
                        self._lost(room)
                await self.registry.update_many([self.lobby.listing(room) for room in rooms if room.code not in lost])
                await self.leased.renew()
                self._scan_soon()  # not awaited: the beat goes on renewing
                if self._chores is None or self._chores.done():  # nor are the chores (they may wait on a lease)
                    self._chores = loop.create_task(self._do_chores())
            except Exception as exc:
                self._registry_error = f"{type(exc).__name__}: {exc}"
                log.exception("node %s: heartbeat failed", self.node)

    async def _do_chores(self) -> None:
        """What each beat also does, off the beat: watches kept through a node whose object changed hands asked again
        (``server.cluster.forwarding``), and the ``on_beat`` jobs (a tournament's tables played elsewhere checked, its
        line listed); a failure is logged, the next beat tries again."""
        try:
            await self.forwarder.rewatch()
            for job in self.on_beat:
                await job()
        except Exception:
            log.exception("node %s: a heartbeat's chore failed", self.node)

    def _scan_soon(self) -> asyncio.Task[None]:
        """The scan for orphans under way, or a new one (one at a time)."""
        if self._scanning is None or self._scanning.done():
            self._scanning = asyncio.get_running_loop().create_task(self.scan())
        return self._scanning

    async def scan(self) -> None:
        """Take over every stored room whose lease nobody holds (all at once: one fence write, one recovery)."""
        if self._draining:
            return
        try:
            codes = [row.code for row in self.store.rooms() if row.code not in self.lobby.rooms]
            await self.take_over_many(await self.registry.unowned(codes))
        except Exception:
            log.exception("node %s: the scan for rooms nobody owns failed", self.node)
        try:  # after the rooms: a tournament taken over finds the matches of its tables rebuilt
            await self.leased.scan()
        except Exception:
            log.exception("node %s: the scan for objects nobody owns failed", self.node)

    async def take_over(self, code: str) -> bool:
        """Take room ``code`` over if nobody owns it: True when this node runs it now (or already did)."""
        await self.take_over_many([code])
        return code in self.lobby.rooms

    async def take_over_many(self, codes: list[str]) -> None:
        """Take over those of ``codes`` nobody owns; a room already being taken over here is waited for.

        Requests arriving together - the coaches of a dead node's rooms reconnecting here within moments of each
        other - are gathered for TAKEOVER_GATHER_S into one takeover: one fence write, one read of their rooms and
        positions, instead of one of each per room.
        """
        waiting = {task for code in codes if (task := self._taking.get(code)) is not None}
        fresh = [code for code in codes if code not in self.lobby.rooms and code not in self._taking]
        if fresh and not self._draining:  # a node stopping would take back the rooms it has just released
            batch = self._gathering
            if batch is None:
                batch = self._gathering = asyncio.get_running_loop().create_task(self._take_over_gathered())
            for code in fresh:
                self._taking[code] = batch
                self._wanted[code] = None
            waiting.add(batch)
        if waiting:
            await asyncio.shield(asyncio.gather(*waiting))

    async def _take_over_gathered(self) -> None:
        """The takeover of every code asked for while this batch gathered them."""
        me = asyncio.current_task()
        await asyncio.sleep(TAKEOVER_GATHER_S)
        codes, self._wanted, self._gathering = list(self._wanted), {}, None
        try:
            await self._take_over(codes)
        finally:
            for code in codes:
                if self._taking.get(code) is me:
                    del self._taking[code]

    async def _take_over(self, codes: list[str]) -> None:
        """Acquire the leases with their fences (drawn from the store, which raises them), rebuild the rooms.

        A room this node has just lost and is taking over again (Redis restarted, nobody holds it) first finishes
        stopping: its entry in progress would otherwise be written under the new lease - the fences are this node's
        by room code - and told, though the room rebuilt here never saw it."""
        await asyncio.gather(*(self._stopping[code].close() for code in codes if code in self._stopping))
        fences = await self.registry.acquire_many(codes)
        if not fences:
            return
        self._rebuilding.update(fences)
        try:
            await self._rebuild(fences)
        finally:
            self._rebuilding.difference_update(fences)

    async def _rebuild(self, fences: dict[str, int]) -> None:
        """The rooms whose leases were just acquired (under ``fences``): the rooms rebuilt from the store."""
        # acquiring drew the fences in the store: the former owner's writes are refused from then on, and what it
        # committed before is read here
        rows = self.store.rooms(list(fences))
        for code in set(fences) - {row.code for row in rows}:  # gone from the store: nothing to run
            await self.registry.remove(code)
            self.registry.fences.pop(code, None)
        began = asyncio.get_running_loop().time()
        rooms = {room.code for room in await recover(self.store, self.pool, self.lobby, rows)}
        log.info("node %s rebuilt %d rooms taken over in %.2f s", self.node, len(rooms),
                 asyncio.get_running_loop().time() - began)
        for row in rows:
            if row.code in rooms:
                self.taken_over += 1
                self.on_taken_over(self.lobby.rooms[row.code])
                log.info("node %s took room %s over (lease %d)", self.node, row.code, fences[row.code])
            else:
                self.registry.fences.pop(row.code, None)

    def _room_lost(self, event: RoomLost) -> None:
        """The store refused a write of a room of ours: another node owns it now (the room has stopped itself)."""
        room = self.lobby.rooms.get(event.room)
        if room is not None and room.closed:  # not a room taken over here again since
            log.warning("node %s: room %s is owned by another node now: the room stops here", self.node, room.code)
            self._lost(room)

    def _lost(self, room: Room) -> None:
        """Another node holds the lease of ``room``, or nobody does: forget it here and send its connections on (a
        task of its own)."""
        self.lobby.let_go(room)
        self.registry.fences.pop(room.code, None)  # nothing more is written for it here: the store would refuse it
        self._stopping[room.code] = room
        task = asyncio.get_running_loop().create_task(self._send_on(room, take_here=True))
        self._sending_on.add(task)
        task.add_done_callback(self._sending_on.discard)

    async def _hand_over(self, room: Room) -> None:
        """Stop ``room`` here (after its entry in progress) and send its connections to the node that owns it next."""
        await self._send_on(room, take_here=False)

    async def _send_on(self, room: Room, *, take_here: bool) -> None:
        """Stop ``room`` here (after its entry in progress) and send each of its connections to where the room is
        played now, at once: ``MOVED`` to its owner's URL; seated again here when this node may and does take the
        room over itself (nobody held it: Redis restarted, or the lease lapsed while this node was paused); ``MOVED``
        to this node (reconnect: the room is looked up again) when no owner appeared in time or Redis cannot say.
        A connection is never left in a room that stopped here."""
        await room.close()
        if self._stopping.get(room.code) is room:
            del self._stopping[room.code]
        members = room.core.members()
        if not members:
            return
        url = await self._where_now(room.code, take_here)
        again = self.lobby.rooms.get(room.code) if url is None and take_here else None
        for member in members:
            if getattr(member, "room", None) is not room:
                continue  # the connection ended or left meanwhile, or a request of its own took it on already
            if again is None or not await self._seat_again(again, room, member):
                moved = getattr(member, "moved", None)
                if moved is not None:
                    await moved(url or self.config.public_url)

    async def _where_now(self, code: str, take_here: bool) -> str | None:
        """The URL of the node that plays room ``code`` now; None when it is this node (``take_here``: it took the
        room over itself if nobody held it) or none was found. Redis failing - the first commands after it restarted
        meet connections it closed - is tried again for a lease's time before the connections are only told to
        reconnect."""
        deadline = asyncio.get_running_loop().time() + self.config.lease_ms / 1000
        while True:
            try:
                if take_here:
                    await self.here(code)
                    return None
                return await self.owner_url(code, MOVED_WAIT_S)
            except Moved as elsewhere:
                return elsewhere.url
            except (RedisError, OSError, StoreUnavailable) as exc:
                if asyncio.get_running_loop().time() >= deadline:
                    log.error("node %s: where room %s is played now could not be found (%s)", self.node, code, exc)
                    return None
                await asyncio.sleep(INBOX_RETRY_S)
            except Exception:  # a bug must not leave the connections in a room that stopped: they reconnect
                log.exception("node %s: where room %s is played now could not be found", self.node, code)
                return None

    async def _seat_again(self, again: Room, before: Room, member: Any) -> bool:
        """Put ``member`` of the stopped room ``before`` into ``again`` (the same room, taken over here): a coach in
        his seat, a spectator watching. False when the room refuses him: he is sent on instead."""
        team = before.core.team_of(member)
        try:
            if team is None:
                await again.watch(member)
            elif again.seat_of_player(member.player_id) == team:
                await again.attach(member, team)
            else:
                return False
        except RoomError as exc:
            log.info("node %s: room %s could not take a connection back (%s)", self.node, again.code, exc.message)
            return False
        return True

    async def web_elsewhere(self, kind: str, ident: str, request: Request) -> Response | None:
        """The answer of the node that runs room or leased object ``ident`` when another node does (a tournament
        nobody runs is taken over here first, as a coach's request would); None when this node answers (also when
        Redis cannot say who runs it)."""
        try:
            owner = await self._web_owner(kind, ident.strip().upper())
        except RedisError:
            log.warning("node %s: where %s %s runs is not known (Redis): answered here", self.node, kind, ident[:16])
            return None
        return None if owner is None else await self.web.ask(owner, request)

    async def _web_owner(self, kind: str, ident: str) -> str | None:
        """The other node that runs ``ident`` of ``kind`` (None: this one, or nobody)."""
        if kind == "room":
            owner = await self.registry.owner(ident)
        elif kind in self.leased.kinds:
            owner = await self.leased.where(kind, ident)
        else:
            return None
        return None if owner is None or owner == self.node else owner

    def answers_web(self, answer_here: AnswerHere) -> None:
        """The server's web table answers the requests other nodes pass on to this one."""
        self.web.answer_here = answer_here

    async def owner_url(self, code: str, wait_s: float = 0.0) -> str | None:
        """The public URL of the node that owns room ``code``, waiting up to ``wait_s`` for an owner to appear."""
        deadline = asyncio.get_running_loop().time() + wait_s
        while True:
            node = await self.registry.owner(code)
            if node is not None and node != self.node:
                url = await self.registry.url_of(node)
                if url is not None:
                    return url
            if asyncio.get_running_loop().time() >= deadline:
                return None
            await asyncio.sleep(0.1)

    async def here(self, code: str) -> None:
        """Make sure room ``code`` is played on this node if it is played anywhere: nothing when it is ours or no
        room has the code, a takeover when nobody owns it, ``Moved`` when another node does.

        A room this node is taking over (its lease ours, the room not rebuilt yet) is waited for. A room whose owner
        has no URL any more - a node that died, its own key lapsed before its rooms' leases - is waited for until
        its lease lapses too (``lease_ms`` at most), and then taken over: the coach is seated, not left waiting.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.lease_ms / 1000 + 1.0
        while True:
            taking = self._taking.get(code)
            if taking is not None:
                await asyncio.shield(taking)
            if code in self.lobby.rooms:
                return
            owner = await self.registry.owner(code)
            if owner is None:
                # an orphan is seldom alone (its node died): take every orphan over at once, then this one if the
                # scan missed it (it lapsed after the scan read the leases)
                await asyncio.shield(self._scan_soon())
                if code in self.lobby.rooms or await self.take_over(code):
                    return
                if self._draining and loop.time() < deadline:  # released here: sent on once another node has it
                    await asyncio.sleep(0.1)
                    continue
                if await self.registry.owner(code) is None or loop.time() >= deadline:
                    return  # no room to take over (it ended, or was never stored)
                continue  # another node was first: it is the owner now
            if owner == self.node:
                if code in self._taking:
                    continue  # taken over here since the wait above: wait for it now
                return  # ours, yet not here: it has just closed
            url = await self.registry.url_of(owner)
            if url is not None:
                raise Moved(url)
            if loop.time() >= deadline:
                return
            left_ms = await self.registry.lease_left_ms(code)  # a dead owner renews nothing: it lapses then
            await asyncio.sleep(min(max(left_ms, 20), self.config.lease_ms) / 1000)

    async def seat_elsewhere(self, player_id: int) -> None:
        """A coach connected here: when he holds a seat in a room played on another node, ``Moved`` to it (a room
        nobody owns is taken over here)."""
        code = await self.registry.seat_of(player_id)
        if code is not None:
            await self.here(code)

    def _room_closed(self, event: RoomClosed) -> None:
        """A room of ours closed (empty): forget its row, so no node takes a closed room over to find it finished."""
        asyncio.get_running_loop().create_task(self._forget(event.room))

    async def _forget(self, code: str) -> None:
        """Delete a closed room's row under its lease's fence (refused, harmlessly, when another node took it)."""
        try:
            await self.store.write(self.store.fenced(code, [match_statements.delete_room(code)]))
        except StoreUnavailable as exc:
            log.info("room %s: its row is left to the node that holds it now (%s)", code, exc)
        finally:
            self.registry.fences.pop(code, None)

    def _match_finished(self, event: MatchFinished) -> None:
        """A match of ours ended: its coaches no longer hold seats a reconnection must be sent to."""
        for player in (event.home_player, event.away_player):
            asyncio.get_running_loop().create_task(self.registry.release_seat(player, event.room))

    def _presence_changed(self, event: PresenceChanged) -> None:
        """Remember in Redis where the coaches of a room of ours hold their seats while its match runs or a held
        seat waits for its coach (a reconnection through another node is sent here)."""
        room = self.lobby.rooms.get(event.room)
        if room is None or not (room.status == "playing" or (room.core.reserved and room.core.phase == "waiting")):
            return
        for player in (event.home_player, event.away_player):
            if player is not None:
                asyncio.get_running_loop().create_task(self.registry.hold_seat(player, event.room))

    async def drain(self) -> None:
        """A graceful stop: every room stops after its last commit and its lease is released for the others, who
        take it over at their next scan; its connections are sent to the new owner."""
        self._draining = True
        await _stopped(self._task, self._scanning, self._chores)
        try:  # the tournaments first: they open and close tables
            await self.leased.drain()
        except Exception:  # Redis gone: the leases lapse by themselves
            log.exception("node %s: its tournaments' leases were not released", self.node)
        # a takeover under way finishes first: the rooms it rebuilds are handed over with the others
        await asyncio.gather(*set(self._taking.values()), return_exceptions=True)
        await asyncio.gather(*set(self._sending_on), return_exceptions=True)
        rooms = list(self.lobby.rooms.values())
        await asyncio.gather(*(room.close() for room in rooms))
        for room in rooms:
            self.lobby.let_go(room)
            await self.registry.release(room.code)
        await asyncio.gather(*(self._hand_over(room) for room in rooms))

    async def close(self) -> None:
        """Stop beating, listening and publishing, and disconnect from Redis."""
        await _stopped(self._task, self._scanning, self._chores, self._inbox, self._publisher)
        try:
            await self.registry.client.aclose()
        except (RedisError, OSError) as exc:  # the node stops all the same
            log.warning("node %s: its Redis connections did not close cleanly (%s)", self.node, exc)


async def _stopped(*tasks: asyncio.Task[None] | None) -> None:
    """Cancel each task still running and wait for it to end."""
    for task in tasks:
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

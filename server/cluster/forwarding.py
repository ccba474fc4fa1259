"""Requests about a leased object run on another node (a tournament), forwarded there; its answers sent back.

Why forward rather than send the client to the owner with ``MOVED`` as a room's coach is: a coach's actions belong
to one match and his connection goes where the match is played, but a tournament is followed from everywhere - an
organiser's desk, the hall's screens, and the coaches themselves, each also seated in a table's room that may be
played on a third node after a takeover. Sending such a connection to the tournament's node would take a coach out of
his room's node (and back again, with ``MOVED``, when his seat is elsewhere). So the rooms' other mechanism is
used, the one that keeps a spectator where he is (``server.cluster.relay``): the node the client is connected to
forwards the request to the node that runs the tournament, which answers it as if the client were its own, and
every message for that client comes back through the node he is connected to. Nothing changes for a client.

On the wire between nodes (each node's pub/sub inbox, ``server.cluster.redis_registry.inbox``, and one channel all
nodes hear, ``EVERYONE``), all JSON:

- ``request``: the client's message (its msgpack frame, hex), who sent it (player id, name, address, whether the
  address is exempt from the address budgets) and the node he is connected to; the owner answers it with a
  ``RemoteClient`` standing for him (``hops`` bounds a request forwarded again by a node that lost the object);
- ``tell``: frames for players (to a node's inbox, or to ``EVERYONE`` when the sender does not know where the player
  is connected: a ``TableAssigned``), delivered to each player's connection on the node that has it;
- ``connected`` / ``gone`` (to ``EVERYONE``): a player connected to a node (the tournaments elsewhere tell him his
  waiting tables), or his connection ended there (the tournaments elsewhere forget him as a watcher).

A watcher stays where he is across a takeover: the node he is connected to remembers what he watches through it and
asks the object's new owner again when its lease changes hands (``rewatch``). Pub/sub delivers at most once: a lost
answer is a request the client sees unanswered, as after any dropped connection; the tournament's state is the
store's either way.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError

from server.cluster.leased import LeasedObjects, lease_name
from server.cluster.redis_registry import PREFIX, inbox, lease_key, node_key
from server.rooms.room import RoomError
from server.store.store_port import StaleLease
from server.wire import deliver, outgoing
from shared.protocol import CLIENT_MESSAGES, MAX_LARGE_FRAME, Error, ProtocolError, ServerMessage, decode, encode

log = logging.getLogger(__name__)
EVERYONE = PREFIX + "everyone"  # the channel every node hears
MAX_HOPS = 2  # a request forwarded on by a node that had just lost the object, at most this often
Handler = Callable[[Any, Any], Awaitable[None]]
Publish = Callable[[str, str], Awaitable[int]]


@dataclass(frozen=True, slots=True)
class Sender:
    """Where a forwarded request came from, as the address budgets read a connection's (``Client``)."""

    address: str
    exempt: bool = False


@dataclass(frozen=True, eq=True)
class RemoteClient:
    """A client connected to another node, as a tournament's handlers and watchers see him: ``send`` goes back
    through that node. Equal for the same player on the same node (a watcher forgotten by a later request)."""

    player_id: int
    node: str
    name: str = field(default="", compare=False)
    client: Sender = field(default=Sender(""), compare=False)
    publish: Publish | None = field(default=None, compare=False, repr=False)
    ws: None = field(default=None, compare=False)  # no connection here: ``deliver`` sends through ``node``

    async def send(self, message: ServerMessage) -> None:
        """Send one message to the player through the node he is connected to."""
        if self.publish is not None:
            await tell(self.publish, inbox(self.node) if self.node else EVERYONE, [self.player_id], outgoing(message))


async def tell(publish: Publish, channel: str, players: list[int], frame: bytes) -> None:
    """Publish ``frame`` for ``players`` on ``channel`` (a node's inbox, or every node's); a failure is logged."""
    try:
        await publish(channel, json.dumps({"kind": "tell", "players": players, "frame": frame.hex()}))
    except (RedisError, OSError) as exc:
        log.warning("a frame for players %s was not sent on (%s)", players, exc)


class Forwarder:
    """This node's side of forwarded requests (see the module docstring)."""

    def __init__(self, leased: LeasedObjects, publish: Publish, connection_of: Callable[[int], Any]) -> None:
        self.leased = leased
        self.publish = publish
        self.connection_of = connection_of  # the player's connection on this node, if any
        self.local: dict[type, Handler] = {}  # the requests this node answers for the objects it runs
        self.object_of: dict[type, Callable[[Any], tuple[str, str]]] = {}  # request type -> (kind, object id)
        self.watching: dict[tuple[int, str, str], str] = {}  # (player, kind, id) watched through an owner: its node
        self.watch_request: dict[str, Callable[[str], Any]] = {}  # kind -> the request that watches an object
        self.watched: dict[str, Callable[[Any], bool]] = {}  # kind -> whether a request starts (True) a watch
        self.unwatched: dict[str, Callable[[Any], bool]] = {}  # kind -> whether a request ends a watch
        self.on_connected: list[Callable[[RemoteClient], Awaitable[None]]] = []
        self.on_gone: list[Callable[[RemoteClient], None]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def node(self) -> str:
        """This node's id."""
        return self.leased.node

    def client(self, player_id: int, node: str, name: str = "", sender: Sender | None = None) -> RemoteClient:
        """A player connected to ``node`` ("" when unknown: every node is asked to deliver)."""
        return RemoteClient(player_id=player_id, node=node, name=name, client=sender or Sender(""),
                            publish=self.publish)

    def route(self, handlers: Mapping[type, Handler], object_of: Mapping[type, Callable[[Any], tuple[str, str]]],
              ) -> dict[type, Handler]:
        """``handlers`` as this node answers them: those of an object run elsewhere are forwarded to its owner."""
        self.local.update(handlers)
        self.object_of.update(object_of)
        return {kind: self._routed(kind) for kind in handlers if kind in object_of}

    def _routed(self, request: type) -> Handler:
        """The handler of ``request`` on this node: here when the object runs here, else on its owner."""

        async def routed(session: Any, message: Any) -> None:
            """Answer here or forward."""
            await self.dispatch(session, message, 0)

        return routed

    async def dispatch(self, session: Any, message: Any, hops: int) -> None:
        """Answer ``message`` here if its object runs here (or nobody's: taken over here), else forward it."""
        kind, object_id = self.object_of[type(message)](message)
        owner = await self._owner(kind, object_id) if hops <= MAX_HOPS else None
        if owner is None:
            try:
                await self.local[type(message)](session, message)
            except StaleLease:  # the store says another node holds the lease now: the object goes on there
                if hops >= MAX_HOPS:
                    raise RoomError("STORE_UNAVAILABLE", f"{kind} {object_id} is moving to another server; try "
                                                         "again", retry_ms=1000) from None
                await self.leased.lost(kind, object_id)
                await self.dispatch(session, message, hops + 1)
                return
            self._follow_watch(session, kind, object_id, message, self.node)
            return
        frame = encode(message, trusted=True)
        sender = getattr(session, "client", None)
        asked = {"kind": "request", "node": getattr(session, "node", "") or self.node, "player": session.player_id,
                 "name": session.name, "address": getattr(sender, "address", ""),
                 "exempt": bool(getattr(sender, "exempt", False)), "frame": frame.hex(), "hops": hops + 1}
        if not await self.publish(inbox(owner), json.dumps(asked)):
            raise RoomError("STORE_UNAVAILABLE", f"the server running {kind} {object_id} did not answer; try again",
                            retry_ms=1000)
        self._follow_watch(session, kind, object_id, message, owner)

    async def _owner(self, kind: str, object_id: str) -> str | None:
        """The node running the object, None when it is this one (taken over here when nobody held it)."""
        try:
            return await self.leased.where(kind, object_id)
        except (RedisError, OSError) as exc:
            raise RoomError("STORE_UNAVAILABLE", f"where {kind} {object_id} runs could not be found ({exc}); "
                                                 "try again", retry_ms=1000) from None

    def _follow_watch(self, session: Any, kind: str, object_id: str, message: Any, owner: str) -> None:
        """Remember what a client connected here watches on another node (asked again there after a takeover)."""
        if isinstance(session, RemoteClient):
            return
        key = (session.player_id, kind, object_id)
        if self.watched.get(kind, _never)(message):
            self.watching[key] = owner
        elif self.unwatched.get(kind, _never)(message):
            self.watching.pop(key, None)

    def moved_watchers(self, kind: str, object_id: str, watchers: Iterable[Any]) -> None:
        """An object stopped here (another node runs it now): its watchers connected here follow it there."""
        for watcher in watchers:
            if not isinstance(watcher, RemoteClient):
                self.watching[(watcher.player_id, kind, object_id)] = self.node

    async def rewatch(self) -> None:
        """The heartbeat's part: each watch kept through a node whose object changed hands is asked again of the
        new owner (or answered here, when this node took it over)."""
        watched = list(self.watching.items())
        if not watched:
            return
        owners = await self.leased.registry.client.mget(
            [lease_key(lease_name(kind, object_id)) for (_, kind, object_id), _ in watched])
        for ((player, kind, object_id), node), found in zip(watched, owners, strict=True):
            owner = found.decode() if isinstance(found, bytes) else found
            here = object_id in self.leased.kinds[kind].running()
            if (owner or "") == node and not (node == self.node and not here):
                continue
            session = self.connection_of(player)
            if session is None or kind not in self.watch_request:
                self.watching.pop((player, kind, object_id), None)
                continue
            try:
                await self.dispatch(session, self.watch_request[kind](object_id), 0)
            except RoomError as exc:
                log.info("node %s: %s %s not watched again yet (%s)", self.node, kind, object_id, exc.message)

    async def dead(self, clients: Iterable[Any]) -> list[RemoteClient]:
        """Of ``clients``, those connected to a node that is gone (its key lapsed: it died): nothing reaches them
        through it any more, and their client reconnects elsewhere and asks again."""
        remote = [client for client in clients if isinstance(client, RemoteClient) and client.node]
        nodes = sorted({client.node for client in remote})
        if not nodes:
            return []
        urls = await self.leased.registry.client.mget([node_key(node) for node in nodes])
        gone = {node for node, url in zip(nodes, urls, strict=True) if url is None}
        return [client for client in remote if client.node in gone]

    # ------------------------------------------------------------------ what other nodes send
    def heard(self, asked: dict[str, Any]) -> bool:
        """One message of the inbox or of ``EVERYONE``: True when it was this module's."""
        kind = asked.get("kind")
        if kind == "request":
            self._spawn(self._answer(asked))
        elif kind == "tell":
            self._deliver(asked)
        elif kind in ("connected", "gone"):
            if asked.get("node") == self.node:
                return True  # its own news, heard on the channel every node hears: this node knew it already
            remote = self.client(int(asked["player"]), str(asked["node"]))
            for listener in self.on_connected if kind == "connected" else ():
                self._spawn(listener(remote))
            for forget in self.on_gone if kind == "gone" else ():
                forget(remote)
        else:
            return False
        return True

    async def _answer(self, asked: dict[str, Any]) -> None:
        """A request forwarded here: answered for the client connected to the node that sent it."""
        remote = self.client(int(asked["player"]), str(asked["node"]), str(asked["name"]),
                             Sender(str(asked["address"]), bool(asked["exempt"])))
        try:
            message = decode(bytes.fromhex(str(asked["frame"])), CLIENT_MESSAGES, MAX_LARGE_FRAME)
        except (ProtocolError, ValueError):
            log.warning("node %s: an unreadable request forwarded from node %s", self.node, remote.node)
            return
        ref = type(message).__name__
        if type(message) not in self.object_of:
            await remote.send(Error("UNKNOWN_MESSAGE", f"{ref} is not forwarded between nodes", ref))
            return
        try:
            await self.dispatch(remote, message, int(asked.get("hops", 1)))
        except RoomError as exc:
            await remote.send(Error(exc.code, exc.message[:500], ref, exc.retry_ms))
        except Exception:  # a bug must not stop the inbox: the client is told, nothing else changes
            log.exception("node %s: a forwarded %s failed", self.node, ref)
            await remote.send(Error("INTERNAL", "the server failed to handle this request; nothing changed", ref))

    def _deliver(self, asked: dict[str, Any]) -> None:
        """Frames for players: each to the player's connection here, if he has one."""
        frame = bytes.fromhex(str(asked["frame"]))
        deliver([self.connection_of(int(player)) for player in asked["players"]], frame)

    # ------------------------------------------------------------------ what this node tells the others
    def deliver(self, watchers: Iterable[Any], frame: bytes) -> None:
        """One frame for many clients: those connected here at once, the others through their nodes (one message
        per node)."""
        here: list[Any] = []
        elsewhere: dict[str, list[int]] = {}
        for watcher in watchers:
            if isinstance(watcher, RemoteClient):
                elsewhere.setdefault(watcher.node, []).append(watcher.player_id)
            else:
                here.append(watcher)
        deliver(here, frame)
        for node, players in elsewhere.items():
            self._spawn(tell(self.publish, inbox(node) if node else EVERYONE, players, frame))

    def player(self, player_id: int) -> Any:
        """The player's connection here, else a client every node is asked to deliver to (he may be on none)."""
        return self.connection_of(player_id) or self.client(player_id, "")

    def connected(self, player_id: int) -> None:
        """A player connected here: the other nodes' tournaments tell him his waiting tables."""
        self._spawn(self._everyone({"kind": "connected", "player": player_id, "node": self.node}))

    def gone(self, player_id: int) -> None:
        """A player's connection here ended: nothing he watched elsewhere is sent for him any more."""
        for key in [key for key in self.watching if key[0] == player_id]:
            del self.watching[key]
        self._spawn(self._everyone({"kind": "gone", "player": player_id, "node": self.node}))

    async def _everyone(self, message: dict[str, Any]) -> None:
        """Publish on the channel every node hears (a failure is logged)."""
        try:
            await self.publish(EVERYONE, json.dumps(message))
        except (RedisError, OSError) as exc:
            log.warning("node %s: %s not told to the other nodes (%s)", self.node, message["kind"], exc)

    def _spawn(self, job: Awaitable[None]) -> None:
        """Run ``job`` in the background, kept until it ends."""
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        """Forget a finished task; a failure is logged."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a forwarded request failed", exc_info=task.exception())


def _never(_message: Any) -> bool:
    """No request of this kind starts or ends a watch."""
    return False

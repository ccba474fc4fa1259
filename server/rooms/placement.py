"""Where rooms are played and how a client reaches his: the placement, one server process by default, a cluster's node
(``server.cluster.node.ClusterNode``) the other.

Why an interface and not ``if cluster is None`` wherever a cluster differs: a session asks the same questions in one
process and in a cluster - is room ``C`` played here (or must this connection go to another server: ``Moved``), does
this returning coach hold a seat elsewhere, is this spectator watching through here a room played elsewhere, may a
room that stopped here go on somewhere else - and the answers of one process are the trivial ones. So the session and
the server talk to a ``Placement`` and are given one, as Colyseus' rooms are given a ``Presence`` whose default is the
single process's. What a placement also does for the server is start (rebuild what it runs: in one process every
stored match and tournament), drain (a graceful stop) and close, and say why it should take nobody new (``/readyz``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from websockets.http11 import Request, Response

AnswerHere = Callable[[Request], Awaitable[Response]]


class ElsewhereUnavailable(Exception):
    """The server that runs what a web request is about did not answer it (the web says 503: ask again)."""


class Placement(Protocol):
    """Where rooms are played (see the module docstring)."""

    @property
    def moves_rooms(self) -> bool:
        """Whether a room that stopped on this server may go on on another (a cluster); a connection in such a room
        is sent where it is played instead of being refused."""
        ...

    async def here(self, code: str) -> None:
        """Make room ``code`` this server's if it is played anywhere and nobody else plays it; ``Moved`` when another
        server plays it."""
        ...

    async def seat_elsewhere(self, player_id: int) -> None:
        """A returning coach holds no seat in a room here: ``Moved`` when he holds one in a room played elsewhere."""
        ...

    async def watch_elsewhere(self, connection: Any, code: str) -> bool:
        """A spectator asks to watch room ``code``: True when it is played elsewhere and he now watches it through this
        server; False when the room is this server's to answer."""
        ...

    async def resync_elsewhere(self, connection: Any) -> None:
        """A spectator of a room played elsewhere missed something: a fresh RoomJoined for him."""
        ...

    async def unwatch(self, connection: Any) -> None:
        """A spectator of a room played elsewhere left, or his connection ended."""
        ...

    def connected(self, player_id: int) -> None:
        """A player connected to this server (what other servers run for him is told to him here)."""
        ...

    def gone(self, player_id: int) -> None:
        """A player's connection to this server ended."""
        ...

    async def web_elsewhere(self, kind: str, ident: str, request: Request) -> Response | None:
        """The answer of the server that runs object ``ident`` of ``kind`` ("room", "tournament", "league") to a web
        ``request`` about it, when that is not this server; None: this server answers it. ``ElsewhereUnavailable``
        when the other server does not answer."""
        ...

    def answers_web(self, answer_here: AnswerHere) -> None:
        """The server's web table, for the requests other servers pass on to this one (answered here, whatever
        runs elsewhere)."""
        ...

    def registry_problem(self) -> str | None:
        """Why this server should take no new players (``/readyz``); None when nothing stands in the way."""
        ...

    async def start(self) -> None:
        """Rebuild and take up what this server runs (the unfinished matches and tournaments)."""
        ...

    async def drain(self) -> None:
        """A graceful stop: hand over what may go on elsewhere."""
        ...

    async def close(self) -> None:
        """Stop every task of the placement."""
        ...


class OneProcess:
    """The placement of a server alone: every room is played here, nothing goes anywhere else."""

    moves_rooms = False

    def __init__(self, recover: Callable[[], Awaitable[None]]) -> None:
        """``recover``: rebuild every stored unfinished match and tournament (the server's restart)."""
        self._recover = recover

    async def here(self, code: str) -> None:
        """Every room is played here."""

    async def seat_elsewhere(self, player_id: int) -> None:
        """There is nowhere else."""

    async def watch_elsewhere(self, connection: Any, code: str) -> bool:
        """Every room is watched here."""
        return False

    async def resync_elsewhere(self, connection: Any) -> None:
        """No spectator watches through here a room played elsewhere."""

    async def unwatch(self, connection: Any) -> None:
        """No spectator watches through here a room played elsewhere."""

    def connected(self, player_id: int) -> None:
        """Nobody else needs to know."""

    def gone(self, player_id: int) -> None:
        """Nobody else needs to know."""

    async def web_elsewhere(self, kind: str, ident: str, request: Request) -> Response | None:
        """Everything is run here."""
        return None

    def answers_web(self, answer_here: AnswerHere) -> None:
        """No other server asks this one."""

    def registry_problem(self) -> str | None:
        """The registry is this process's memory: it always answers."""
        return None

    async def start(self) -> None:
        """Every stored unfinished match and tournament, rebuilt."""
        await self._recover()

    async def drain(self) -> None:
        """Nothing goes on elsewhere: the server closes its connections itself."""

    async def close(self) -> None:
        """Nothing runs."""

"""The server's lifecycle told to Agones: health pings from the start, Ready once its matches are back, Allocated at
its first match, Shutdown when it has drained (``server.ops.agones`` has the SDK and why each call matters).

Why a module of its own: ``server.app`` only says when each moment comes; what Agones makes of it, and that nothing
happens outside Agones (no AGONES_SDK_HTTP_PORT: no link at all, and aiohttp, the clustered mode's library, is not
imported), is here.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from server.constants import AGONES_PORT_VARIABLE
from server.lifecycle import EventBus, MatchStarted

if TYPE_CHECKING:
    from server.ops.agones import GameServerSdk

log = logging.getLogger(__name__)


class AgonesLink:
    """One server's calls to the Agones sidecar (see the module docstring)."""

    def __init__(self, sdk: GameServerSdk, bus: EventBus, healthy: Callable[[], bool]) -> None:
        """Tell ``sdk`` about this server; ``healthy()`` says whether to ping (a server whose store fails is not)."""
        self.sdk = sdk
        self.healthy = healthy
        self.allocated = False
        self._tasks: list[asyncio.Task[None]] = []
        bus.subscribe(MatchStarted, self._match_started)

    @classmethod
    def from_environment(cls, bus: EventBus, healthy: Callable[[], bool]) -> AgonesLink | None:
        """A link when Agones runs this server (AGONES_SDK_HTTP_PORT is set), else None."""
        if os.environ.get(AGONES_PORT_VARIABLE) is None:
            return None
        from server.ops.agones import from_environment

        return cls(from_environment(), bus, healthy)

    def start(self) -> None:
        """Health pings from now on (before Ready: Agones counts them from the container's start)."""
        from server.ops.agones import keep_healthy

        self._spawn(keep_healthy(self.sdk, healthy=self.healthy))

    async def public_url(self) -> str | None:
        """Where players reach this GameServer - ``ws://`` its address and the host port of its ``default`` port -
        or None when the sidecar does not say (a node of a cluster sends coaches to the node of their room there).

        Why: under Agones every node has its own address and a host port Agones picks at random, known only to the
        sidecar; no manifest can give each pod its ``--public-url``.
        """
        from server.ops.agones import AgonesError

        try:
            found = await self.sdk.game_server()
        except AgonesError as problem:
            log.error("agones: cannot read this GameServer's address (%s)", problem)
            return None
        port = found.port() if found is not None else None
        if found is None or not found.address or port is None:
            return None
        host = f"[{found.address}]" if ":" in found.address else found.address
        return f"ws://{host}:{port}/"

    async def ready(self) -> None:
        """The server listens and its matches are back: Agones may send players."""
        await self._call("ready", self.sdk.ready())

    def _match_started(self, event: MatchStarted) -> None:
        """The first match here: Allocated, so a scale-down or a rollout does not remove a node with a live match."""
        if not self.allocated:
            self.allocated = True
            self._spawn(self._call("allocate", self.sdk.allocate()))

    async def stop(self) -> None:
        """The server has drained: stop pinging, tell Shutdown (Agones deletes the pod), close the client."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._call("shutdown", self.sdk.shutdown())
        await self.sdk.close()

    def _spawn(self, work: object) -> None:
        """Run ``work`` beside the server, kept so that ``stop`` ends it."""
        self._tasks.append(asyncio.get_running_loop().create_task(work))  # type: ignore[arg-type]

    @staticmethod
    async def _call(what: str, call: object) -> None:
        """One lifecycle call; a sidecar that refuses it is logged, never the end of the server."""
        from server.ops.agones import AgonesError

        try:
            await call  # type: ignore[misc]
        except AgonesError as exc:
            log.error("Agones: %s failed: %s", what, exc)

"""The server's side of Agones: tell the SDK sidecar when the node is ready, healthy, allocated and shutting down.

Why the REST API and a protocol of our own: Agones has no official Python SDK; its sidecar serves a documented REST
gateway on ``http://localhost:${AGONES_SDK_HTTP_PORT}`` (default 9358) - ``POST /ready``, ``/health``,
``/allocate``, ``/shutdown`` with the body ``{}``, ``GET /gameserver`` - which ``AgonesSdk`` calls with aiohttp.
Outside Agones (a single host, compose, a plain Deployment) the server holds a ``NoAgones`` instead, which does
nothing, so the server's code reads the same either way; ``from_environment`` picks one by whether Agones set
AGONES_SDK_HTTP_PORT.

The lifecycle a node follows under Agones (the server wires it):

1. ``keep_healthy`` from the start: a ``POST /health`` every HEALTH_INTERVAL_S while the node is healthy. Agones
   marks a GameServer Unhealthy (and replaces it) when pings stop for ``failureThreshold`` periods; the pings come
   from the event loop itself, so a wedged loop stops them.
2. ``ready()`` once the node listens and has resumed its matches: Agones may now send players to it.
3. ``allocate()`` when it takes its first match: an Allocated GameServer is not removed when the Fleet scales down
   or rolls out a new version, so no live match is cut.
4. ``shutdown()`` when it has drained (SIGTERM, or its matches ended after a rollout): Agones deletes the pod.

The sidecar may start after the server, so every call but the health ping retries connection failures and 5xx
answers for RETRY_FOR_S (the Agones documentation asks for this); a failed ping is only logged, the next one follows.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp

from server.constants import AGONES_PORT_VARIABLE

log = logging.getLogger(__name__)

PORT_VARIABLE = AGONES_PORT_VARIABLE  # set by Agones in the game server container
# Agones' health window defaults to periodSeconds 5 and failureThreshold 3: a ping every 2 s survives a late one.
HEALTH_INTERVAL_S = 2.0
REQUEST_TIMEOUT_S = 5.0
RETRY_FOR_S = 60.0  # how long ready/allocate/shutdown wait for a sidecar that is not up (yet)
RETRY_FIRST_S, RETRY_MAX_S = 0.1, 2.0  # the wait between attempts doubles from the first to the largest


class AgonesError(Exception):
    """The sidecar refused a call, answered nonsense, or could not be reached within the retry window."""


@dataclass(frozen=True, kw_only=True, slots=True)
class GameServerInfo:
    """What the sidecar says of this GameServer: its name, state and the address and ports players connect to."""

    name: str
    state: str  # Scheduled, RequestReady, Ready, Reserved, Allocated, Shutdown, Unhealthy, ...
    address: str
    ports: tuple[tuple[str, int], ...]

    def port(self, name: str = "default") -> int | None:
        """The host port of the GameServer's port ``name`` (what a node advertises to players), if it has one."""
        return next((number for port_name, number in self.ports if port_name == name), None)


class GameServerSdk(Protocol):
    """The calls a node makes to the platform that hosts it (see the module docstring for when)."""

    async def ready(self) -> None:
        """The node takes players now."""
        ...

    async def health(self) -> None:
        """One health ping."""
        ...

    async def allocate(self) -> None:
        """The node holds a live match: keep it through scale-downs and rollouts."""
        ...

    async def shutdown(self) -> None:
        """The node has drained: it may be deleted."""
        ...

    async def game_server(self) -> GameServerInfo | None:
        """What the platform knows of this node (None where there is no such platform)."""
        ...

    async def close(self) -> None:
        """Release the connection to the platform."""
        ...


class NoAgones:
    """The ``GameServerSdk`` of a node not run by Agones: every call does nothing."""

    async def ready(self) -> None:
        """Nothing to tell."""

    async def health(self) -> None:
        """Nothing to tell."""

    async def allocate(self) -> None:
        """Nothing to tell."""

    async def shutdown(self) -> None:
        """Nothing to tell (the process exits by itself)."""

    async def game_server(self) -> GameServerInfo | None:
        """No platform, no GameServer."""
        return None

    async def close(self) -> None:
        """Nothing to release."""


class AgonesSdk:
    """The ``GameServerSdk`` that talks to the Agones SDK sidecar's REST API at ``base_url``."""

    def __init__(
        self, base_url: str, *, timeout_s: float = REQUEST_TIMEOUT_S, retry_for_s: float = RETRY_FOR_S
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._timeout = aiohttp.ClientTimeout(total=timeout_s)
        self._retry_for_s = retry_for_s
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        """The HTTP session, made on first use (aiohttp wants a running event loop for it)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=self._timeout)
        return self._session

    async def _once(self, method: str, path: str) -> Any:
        """One request; the answer's JSON. Raises AgonesError (``retryable`` set for 5xx and network failures)."""
        url = f"{self.base_url}{path}"
        try:
            # The gateway's POST calls take the empty message as their body: {} as application/json.
            async with self._client().request(method, url, json={} if method == "POST" else None) as response:
                text = await response.text()
                if response.status >= 500:
                    raise _Retryable(f"{method} {url}: {response.status} {text.strip()[:200]}")
                if response.status >= 400:
                    raise AgonesError(f"{method} {url}: {response.status} {text.strip()[:200]}")
                try:
                    return await response.json(content_type=None) if text.strip() else {}
                except ValueError as exc:
                    raise AgonesError(f"{method} {url}: not JSON: {text[:200]!r}") from exc
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise _Retryable(f"{method} {url}: {type(exc).__name__}: {exc}") from exc

    async def _call(self, method: str, path: str) -> Any:
        """A request retried on network failures and 5xx answers until the retry window closes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._retry_for_s
        wait = RETRY_FIRST_S
        while True:
            try:
                return await self._once(method, path)
            except _Retryable as exc:
                if loop.time() + wait > deadline:
                    raise AgonesError(f"the Agones sidecar did not answer within {self._retry_for_s} s: {exc}") from exc
                log.debug("Agones: %s; retrying in %.1f s", exc, wait)
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_MAX_S)

    async def ready(self) -> None:
        """``POST /ready``."""
        await self._call("POST", "/ready")

    async def health(self) -> None:
        """``POST /health``, once: a missed ping is followed by the next one, not by retries."""
        try:
            await self._once("POST", "/health")
        except _Retryable as exc:
            raise AgonesError(str(exc)) from exc

    async def allocate(self) -> None:
        """``POST /allocate``."""
        await self._call("POST", "/allocate")

    async def shutdown(self) -> None:
        """``POST /shutdown``."""
        await self._call("POST", "/shutdown")

    async def game_server(self) -> GameServerInfo:
        """``GET /gameserver``, read defensively (the gateway's proto field names: object_meta, status)."""
        data = await self._call("GET", "/gameserver")
        return game_server_info(data)

    async def close(self) -> None:
        """Close the HTTP session."""
        if self._session is not None:
            await self._session.close()
            self._session = None


class _Retryable(AgonesError):
    """A failure worth another attempt: the sidecar unreachable, timed out, or answering 5xx."""


def game_server_info(data: Any) -> GameServerInfo:
    """The GameServer JSON of ``GET /gameserver`` as a ``GameServerInfo``; AgonesError when it is not one."""
    if not isinstance(data, dict):
        raise AgonesError(f"GET /gameserver: expected an object, got {type(data).__name__}")
    meta, status = data.get("object_meta") or {}, data.get("status") or {}
    if not isinstance(meta, dict) or not isinstance(status, dict):
        raise AgonesError("GET /gameserver: object_meta and status must be objects")
    ports: list[tuple[str, int]] = []
    for port in status.get("ports") or []:
        number = port.get("port") if isinstance(port, dict) else None
        if isinstance(number, str) and number.isdigit():
            number = int(number)  # the gateway may write 64-bit integers as strings
        if not isinstance(number, int) or isinstance(number, bool) or not 0 < number < 65536:
            raise AgonesError(f"GET /gameserver: a port that is not one: {port!r}")
        ports.append((str(port.get("name", "")), number))
    return GameServerInfo(
        name=str(meta.get("name", "")),
        state=str(status.get("state", "")),
        address=str(status.get("address", "")),
        ports=tuple(ports),
    )


def from_environment(environ: Mapping[str, str] | None = None) -> GameServerSdk:
    """``AgonesSdk`` on localhost when AGONES_SDK_HTTP_PORT is set (Agones runs us), else ``NoAgones``."""
    environ = os.environ if environ is None else environ
    value = environ.get(PORT_VARIABLE)
    if value is None:
        return NoAgones()
    if not value.isdigit() or not 0 < int(value) < 65536:
        raise ValueError(f"{PORT_VARIABLE}={value!r} is not a port number")
    return AgonesSdk(f"http://localhost:{int(value)}")


async def keep_healthy(
    sdk: GameServerSdk, *, interval_s: float = HEALTH_INTERVAL_S, healthy: Callable[[], bool] = lambda: True
) -> None:
    """Ping ``sdk.health()`` every ``interval_s`` while ``healthy()``, until cancelled.

    The pings keep a fixed cadence (a slow ping does not push the next ones later); a failed ping is logged and the
    next one follows on time. While ``healthy()`` is false no ping is sent, so Agones replaces the node.
    """
    loop = asyncio.get_running_loop()
    due = loop.time()
    was_healthy = True
    while True:
        is_healthy = healthy()
        if is_healthy != was_healthy:
            log.warning("Agones: %s", "healthy again, health pings resume" if is_healthy else "unhealthy, no pings")
            was_healthy = is_healthy
        if is_healthy:
            try:
                async with asyncio.timeout(interval_s):  # not wait_for: on 3.11 it can swallow a cancellation
                    await sdk.health()
            except (AgonesError, TimeoutError) as exc:
                log.warning("Agones: health ping failed: %s", exc or "timed out")
        due = max(due + interval_s, loop.time())  # after a stall, the next ping now, not a burst to catch up
        await asyncio.sleep(due - loop.time())

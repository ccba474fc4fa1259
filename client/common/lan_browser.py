"""Finding sprtec servers on the LAN (mDNS/DNS-SD browsing with python-zeroconf), without arcade.

Why two classes: ``sprtec servers`` and the tests run an asyncio loop and use ``LanBrowser`` directly; the
arcade client has no asyncio loop in its frame loop, so ``BackgroundBrowser`` runs a ``LanBrowser`` on a
thread of its own and publishes an immutable snapshot the views read each frame without waiting.

zeroconf calls the browse handler from whichever loop runs it and the handler must not block, so the
handler only hands the event to our loop (``call_soon_threadsafe``); resolving the SRV, TXT and A records
is a task there. Records come from anyone on the network: they are read by ``shared.protocol.lan_record``,
an unusable one is ignored, and nothing a record says can raise out of this module.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable
from typing import Literal

import ifaddr
from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from shared.protocol.lan_record import SERVICE_TYPE, FoundServer, found_server

log = logging.getLogger(__name__)

RESOLVE_TIMEOUT_MS = 3000  # how long one server's SRV/TXT/A records may take to arrive
STOP_TIMEOUT_S = 3.0  # how long BackgroundBrowser.close waits for its thread

Change = Literal["added", "updated", "removed"]
ChangeHandler = Callable[[Change, FoundServer], None]


def local_networks() -> list[str]:
    """This machine's IPv4 networks (CIDR), so a server's address on one of them is preferred."""
    networks = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                networks.append(f"{ip.ip}/{ip.network_prefix}")
    return networks


def sorted_servers(servers: dict[str, FoundServer]) -> list[FoundServer]:
    """Servers in the order a person reads a list: by name, then by instance name (unique)."""
    return sorted(servers.values(), key=lambda server: (server.name.casefold(), server.instance))


class LanBrowser:
    """The sprtec servers on the LAN, kept up to date while the event loop runs (start, then close)."""

    def __init__(self, on_change: ChangeHandler | None = None, resolve_timeout_ms: int = RESOLVE_TIMEOUT_MS) -> None:
        self.on_change = on_change
        self.resolve_timeout_ms = resolve_timeout_ms
        self._found: dict[str, FoundServer] = {}  # by full service name
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self._networks: list[str] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._zeroconf: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None

    async def start(self) -> None:
        """Open the mDNS sockets and start browsing ``_sprtec._tcp.local.``."""
        self._loop = asyncio.get_running_loop()
        self._networks = local_networks()
        self._zeroconf = AsyncZeroconf(ip_version=IPVersion.V4Only)
        self._browser = AsyncServiceBrowser(self._zeroconf.zeroconf, SERVICE_TYPE, handlers=[self._on_state_change])

    def servers(self) -> list[FoundServer]:
        """The servers found so far, by name."""
        return sorted_servers(self._found)

    async def close(self) -> None:
        """Stop browsing and close the sockets (events still on their way are dropped)."""
        zeroconf, self._zeroconf = self._zeroconf, None
        for task in list(self._resolving.values()):
            task.cancel()
        await asyncio.gather(*self._resolving.values(), return_exceptions=True)
        self._resolving.clear()
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if zeroconf is not None:
            await zeroconf.async_close()

    # ------------------------------------------------------------------ zeroconf's side
    def _on_state_change(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        """zeroconf's browse handler (its keyword names are zeroconf's): hand the event to our loop, nothing more."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._changed, name, state_change)

    # ------------------------------------------------------------------ our loop's side
    def _changed(self, name: str, state_change: ServiceStateChange) -> None:
        """A service appeared, changed or left: resolve it again, or forget it."""
        if self._zeroconf is None:
            return
        running = self._resolving.pop(name, None)
        if running is not None:
            running.cancel()
        if state_change is ServiceStateChange.Removed:
            self._forget(name)
            return
        task = asyncio.ensure_future(self._resolve(name))
        self._resolving[name] = task
        task.add_done_callback(functools.partial(self._resolved, name))

    def _resolved(self, name: str, task: asyncio.Task[None]) -> None:
        """A resolution ended: forget its task unless a newer one took its place."""
        if self._resolving.get(name) is task:
            del self._resolving[name]

    async def _resolve(self, name: str) -> None:
        """Fetch a service's records and keep it if they make a usable server; never raises."""
        zeroconf = self._zeroconf
        if zeroconf is None:
            return
        try:
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            if not await info.async_request(zeroconf.zeroconf, self.resolve_timeout_ms):
                return  # it did not answer in time: keep what we knew
            server = found_server(
                instance=name[: -len(SERVICE_TYPE) - 1] if name.endswith("." + SERVICE_TYPE) else name,
                addresses=info.parsed_addresses(IPVersion.V4Only),
                port=info.port or 0,
                text=info.text or b"",
                local_networks=self._networks,
            )
        except asyncio.CancelledError:
            raise
        except Exception:  # a record zeroconf itself could not make sense of
            log.warning("LAN: could not read the records of %r", name, exc_info=True)
            return
        if server is None:
            log.debug("LAN: %r does not announce a usable sprtec server; ignored", name)
            self._forget(name)
            return
        known = self._found.get(name)
        if known == server:
            return
        self._found[name] = server
        self._notify("added" if known is None else "updated", server)

    def _forget(self, name: str) -> None:
        """Drop a server from the list (it said goodbye, its records expired or became unusable)."""
        known = self._found.pop(name, None)
        if known is not None:
            self._notify("removed", known)

    def _notify(self, change: Change, server: FoundServer) -> None:
        """Tell the owner; a failing handler is logged, never raised into zeroconf or our loop."""
        if self.on_change is None:
            return
        try:
            self.on_change(change, server)
        except Exception:
            log.exception("LAN: the change handler failed")


class BackgroundBrowser:
    """A ``LanBrowser`` on a thread with its own event loop, for a caller without asyncio (the arcade client).

    ``snapshot()`` returns the servers found so far (an immutable tuple, replaced whole on each change) and
    never waits; ``version`` grows on each change so a view redraws its list only when it changed.
    """

    def __init__(self) -> None:
        self.version = 0
        self.error: str | None = None  # why browsing could not start (no network), for the view to say
        self._snapshot: tuple[FoundServer, ...] = ()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._closed = False
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start browsing on a daemon thread; returns at once."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="sprtec-lan-browser", daemon=True)
        self._thread.start()

    def snapshot(self) -> tuple[FoundServer, ...]:
        """The servers found so far, by name; never blocks."""
        return self._snapshot

    @property
    def running(self) -> bool:
        """Whether the browsing thread is alive (false before start, after close, and when browsing failed)."""
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        """Stop browsing and wait (briefly) for the thread to end."""
        with self._lock:
            self._closed = True
            loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:
                pass  # the loop closed meanwhile
        if self._thread is not None:
            self._thread.join(STOP_TIMEOUT_S)

    def _run(self) -> None:
        """The thread: its own loop, until close."""
        try:
            asyncio.run(self._browse())
        except Exception as error:  # no network, sockets refused: say so, never kill the client
            self.error = str(error) or type(error).__name__
            log.warning("LAN: browsing stopped: %s", self.error)

    async def _browse(self) -> None:
        """Browse until close; each change replaces the snapshot."""
        stop = asyncio.Event()
        with self._lock:
            if self._closed:
                return
            self._loop, self._stop = asyncio.get_running_loop(), stop
        browser = LanBrowser()

        def changed(change: Change, server: FoundServer) -> None:
            self._snapshot = tuple(browser.servers())
            self.version += 1

        browser.on_change = changed
        await browser.start()
        try:
            await stop.wait()
        finally:
            await browser.close()

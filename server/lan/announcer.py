"""Announcing a running server on the LAN with mDNS/DNS-SD (python-zeroconf's asyncio API).

Why: at a club event nobody should type a URL; the organiser runs ``sprtec serve --lan`` and every client on
the network lists the server. The ``Server`` owns one ``LanAnnouncer``: ``start`` registers the service
``_sprtec._tcp.local.`` with the addresses players can reach, ``update`` republishes the TXT record
(``shared.protocol.lan_record``) when players or tournaments change, at most once every
``LAN_UPDATE_INTERVAL_S``, and ``close`` says goodbye (TTL 0), so browsers drop the server at once
instead of after the records' lifetime.

Nothing here blocks the event loop: zeroconf runs on the server's own loop, probing and announcing are
tasks, and a failure of the LAN side is logged and never stops the server.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import socket
import time
from collections.abc import Coroutine, Sequence
from typing import Any

import ifaddr
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from server.constants import LAN_RECORD_TTL_S, LAN_SKIPPED_INTERFACES, LAN_UPDATE_INTERVAL_S
from shared.protocol.lan_record import SERVICE_TYPE, RunningTournament, ServerAnnouncement, encode_txt, instance_name

log = logging.getLogger(__name__)

ALL_INTERFACES = ("", "0.0.0.0")


def default_server_name() -> str:
    """The name announced when none is configured: says what it is and which machine runs it."""
    return f"sprtec on {socket.gethostname()}"


def interface_addresses(skipped: Sequence[str] = LAN_SKIPPED_INTERFACES) -> list[str]:
    """Every IPv4 address of this host players could reach: not loopback, not on a container or VM bridge.

    Why skip bridges: docker0, br-…, virbr0 and the like carry addresses only this host reaches; a client
    that picked one would time out.
    """
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        if adapter.name.startswith(tuple(skipped)):
            continue
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6 (a tuple): not announced
            address = ipaddress.IPv4Address(ip.ip)
            if address.is_loopback or address.is_unspecified or str(address) in found:
                continue
            found.append(str(address))
    return found


async def announced_addresses(host: str) -> list[str]:
    """The addresses to announce for a server listening on ``host``.

    All interfaces (``0.0.0.0``): every reachable IPv4 address of the host (``interface_addresses``); an
    IPv4 address: that one; a host name: its IPv4 addresses, resolved without blocking the loop.
    """
    if host in ALL_INTERFACES:
        return interface_addresses()
    try:
        return [str(ipaddress.IPv4Address(host))]
    except ValueError:
        pass
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, None, family=socket.AF_INET)
    except OSError:
        return []
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def _host_label(port: int) -> str:
    """The mDNS host name of the A records: this machine's name, made a DNS label, with the port.

    Why not the machine's own ``<hostname>.local``: Avahi or Bonjour may announce that name with other
    addresses (the bridges this module leaves out); a name of our own cannot contradict them.
    """
    machine = re.sub(r"[^A-Za-z0-9-]+", "-", socket.gethostname().split(".")[0]).strip("-")[:40] or "host"
    return f"{machine}-sprtec-{port}.local."


class LanAnnouncer:
    """One server's DNS-SD registration: started after the server listens, updated, closed on shutdown."""

    def __init__(self, update_interval_s: float = LAN_UPDATE_INTERVAL_S) -> None:
        self.update_interval_s = update_interval_s
        self.addresses: list[str] = []
        self.instance = ""  # the registered instance name (zeroconf appends -2, -3 … on a conflict)
        self._zeroconf: AsyncZeroconf | None = None
        self._port = 0
        self._wanted: ServerAnnouncement | None = None  # what the TXT record should say
        self._published: ServerAnnouncement | None = None  # what it says on the network
        self._registered = False
        self._last_publish = 0.0  # loop time of the last TXT (re)publication
        self._pending: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        # The TXT record's rev (shared.protocol.lan_record): from the wall clock, so that a restarted server's
        # records never repeat those a crashed one left in browsers' caches.
        self._revision = time.time_ns() // 1_000_000

    async def start(self, name: str, host: str, port: int) -> None:
        """Announce a server called ``name`` listening on ``host``:``port``; returns before probing ends."""
        self.addresses = await announced_addresses(host)
        if not self.addresses:
            log.warning("LAN: no IPv4 address to announce for host %r; the server is not announced", host)
            return
        if any(ipaddress.IPv4Address(a).is_loopback for a in self.addresses):
            log.warning("LAN: announcing a loopback address; only this machine can find the server")
        self._port = port
        self._wanted = ServerAnnouncement(name=name)
        try:
            self._zeroconf = AsyncZeroconf(interfaces=list(self.addresses), ip_version=IPVersion.V4Only)
        except Exception as error:  # no multicast-capable interface, sockets refused: the server runs unannounced
            log.warning("LAN: cannot open the mDNS sockets (%s); the server is not announced", error)
            return
        self.instance = instance_name(name)
        self._spawn(self._register(self._wanted))

    def update(self, players_online: int, tournaments: Sequence[RunningTournament] = ()) -> None:
        """Say ``players_online`` and ``tournaments`` in the TXT record, at most once every update interval."""
        if self._wanted is None:
            return
        wanted = ServerAnnouncement(
            name=self._wanted.name, players_online=players_online, tournaments=tuple(tournaments)
        )
        if wanted == self._wanted:
            return
        self._wanted = wanted
        self._schedule()

    async def close(self) -> None:
        """Say goodbye (the records with TTL 0) and close the mDNS sockets."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        zeroconf, self._zeroconf = self._zeroconf, None
        self._registered = False
        if zeroconf is None:
            return
        try:
            await zeroconf.async_close()  # goodbye for every registered record, then the sockets close
        except Exception:  # the LAN side must never stop a shutdown
            log.exception("LAN: closing the announcement failed")
        else:
            log.info("LAN: %r said goodbye", self.instance)

    # ------------------------------------------------------------------ internals
    def _service_info(self, announcement: ServerAnnouncement) -> AsyncServiceInfo:
        """The service's records (PTR, SRV, TXT, A) for one announcement, with a fresh TXT revision."""
        self._revision += 1
        return AsyncServiceInfo(
            SERVICE_TYPE,
            f"{self.instance}.{SERVICE_TYPE}",
            port=self._port,
            properties=encode_txt(announcement, self._revision),
            server=_host_label(self._port),
            addresses=[socket.inet_aton(a) for a in self.addresses],
            host_ttl=LAN_RECORD_TTL_S,
            other_ttl=LAN_RECORD_TTL_S,
        )

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` as a task the announcer keeps until it ends (and cancels on close)."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _register(self, announcement: ServerAnnouncement) -> None:
        """Probe for the name (renaming on a conflict), then announce; publish what changed meanwhile."""
        assert self._zeroconf is not None
        info = self._service_info(announcement)
        try:
            announcing = await self._zeroconf.async_register_service(info, allow_name_change=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("LAN: registering the service failed; the server is not announced")
            return
        self._registered = True
        self.instance = info.name[: -len(SERVICE_TYPE) - 1]
        self._published = announcement
        self._last_publish = asyncio.get_running_loop().time()
        log.info("LAN: announcing %r at %s port %d", self.instance, ", ".join(self.addresses), self._port)
        if self._wanted != self._published:
            self._schedule()
        await announcing

    def _schedule(self) -> None:
        """Publish the wanted TXT record now or when the update interval has passed since the last one."""
        if not self._registered or self._pending is not None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, self._last_publish + self.update_interval_s - loop.time())
        self._pending = loop.call_later(delay, self._publish)

    def _publish(self) -> None:
        """Republish the TXT record with what the server wants said now."""
        self._pending = None
        if self._zeroconf is None or self._wanted is None or self._wanted == self._published:
            return
        self._published = self._wanted
        self._last_publish = asyncio.get_running_loop().time()
        self._spawn(self._send_update(self._service_info(self._wanted)))

    async def _send_update(self, info: AsyncServiceInfo) -> None:
        """Hand the new records to zeroconf, which rebroadcasts them."""
        assert self._zeroconf is not None
        try:
            await (await self._zeroconf.async_update_service(info))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("LAN: updating the announcement failed")

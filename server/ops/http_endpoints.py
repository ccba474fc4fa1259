"""The operators' HTTP endpoints: /healthz and /readyz on the websocket port, /metrics for the operator only.

Why the probes on the same port, through websockets' ``process_request`` hook: a container orchestrator probes the
port the server listens on, and a second listener would be one more thing to configure, expose and keep alive. The
hook sees every request before the websocket handshake; it answers these paths with a plain HTTP response and
returns None for any other, so the handshake goes on (the game's websocket may use any path).

Why /metrics is not for everyone: the game's port is public - with ``--lan`` on the whole club's network, on the
internet behind a proxy - and the figures (connections, rooms, queues, latencies) are the operator's. On the game
port it answers only the server's own machine (a loopback peer whose request came through no proxy:
``from_this_machine``) and is 404 for everyone else; ``--metrics HOST:PORT`` serves it on a listener of its own
(``operator_endpoints``: the three paths, nothing else), which a Prometheus elsewhere scrapes and no player can reach
when that address is not published (a Kubernetes pod port without a host port or Service).

- ``/healthz`` (liveness): 200 while the process is worth keeping; 503 with the reasons when it should be
  restarted (Kubernetes' livenessProbe, the Dockerfile's HEALTHCHECK). That the event loop answers at all is
  itself the main check.
- ``/readyz`` (readiness): 200 when the node takes new players, 503 with the reasons while it starts, drains or has
  lost its store or registry (a load balancer sends nobody there; Kubernetes' readinessProbe).
- ``/metrics``: the registry's families in Prometheus' text format (``prometheus_client.generate_latest``).

The answers come from a ``HealthSource``; ``Checks`` is one made of named check functions.
"""

from __future__ import annotations

import email.utils
import http
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"
METRICS_PATH = "/metrics"
PATHS = (HEALTH_PATH, READY_PATH, METRICS_PATH)
PROXY_HEADERS = ("X-Forwarded-For", "Forwarded", "X-Real-IP")  # a request that came through a proxy has one


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer of a probe: ``ok``, or the reasons why not (one short line each)."""

    ok: bool
    reasons: tuple[str, ...] = ()


class HealthSource(Protocol):
    """What the endpoints ask: is the process alive (keep it), is it ready (send it players)."""

    def liveness(self) -> Verdict:
        """Whether the process should keep running."""
        ...

    def readiness(self) -> Verdict:
        """Whether the node takes new players now."""
        ...


# A check returns None when all is well, otherwise the reason (one short line, e.g. "store: disk full").
Check = Callable[[], str | None]


class Checks:
    """A ``HealthSource`` made of named checks: alive when every liveness check passes, ready when every check does.

    Readiness includes liveness (a node to be restarted takes nobody). A check that raises counts as failing, with
    the exception as its reason: a probe must answer, not crash the handshake.
    """

    def __init__(self) -> None:
        self._liveness: dict[str, Check] = {}
        self._readiness: dict[str, Check] = {}

    def add_liveness(self, name: str, check: Check) -> None:
        """A check whose failure means the process should be restarted (e.g. the store's file is gone)."""
        self._liveness[name] = check

    def add_readiness(self, name: str, check: Check) -> None:
        """A check whose failure means the node takes no new players for now (starting, draining, store down)."""
        self._readiness[name] = check

    def liveness(self) -> Verdict:
        """Every liveness check, in the order they were added."""
        return _run(self._liveness)

    def readiness(self) -> Verdict:
        """Every liveness check, then every readiness check."""
        return _run({**self._liveness, **self._readiness})


def _run(checks: dict[str, Check]) -> Verdict:
    """Run the checks; the reasons of those that fail, each prefixed by the check's name."""
    reasons = []
    for name, check in checks.items():
        try:
            reason = check()
        except Exception as exc:  # a broken check is a failing check
            reason = f"check failed: {type(exc).__name__}: {exc}"
        if reason is not None:
            reasons.append(f"{name}: {reason}")
    return Verdict(not reasons, tuple(reasons))


def _response(status: http.HTTPStatus, body: bytes, content_type: str) -> Response:
    """A complete HTTP response that closes the connection and is never cached."""
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Cache-Control", "no-store"),
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
        ]
    )
    return Response(status.value, status.phrase, headers, body)


def _probe(verdict: Verdict, ok_text: str) -> Response:
    """200 with ``ok_text``, or 503 with one reason a line."""
    if verdict.ok:
        return _response(http.HTTPStatus.OK, f"{ok_text}\n".encode(), "text/plain; charset=utf-8")
    body = "".join(f"{reason}\n" for reason in verdict.reasons) or "not ok\n"
    return _response(http.HTTPStatus.SERVICE_UNAVAILABLE, body.encode(), "text/plain; charset=utf-8")


def from_this_machine(connection: ServerConnection, request: Request) -> bool:
    """True for a request from the server's own machine: a loopback peer, and no proxy's header (a proxy on the same
    machine passes on requests from anywhere)."""
    remote = connection.remote_address
    try:
        ip = ipaddress.ip_address(str(remote[0]).split("%", 1)[0]) if remote else None
    except ValueError:
        ip = None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # a dual-stack listener's IPv4 peer
    loopback = ip is not None and ip.is_loopback
    return loopback and not any(header in request.headers for header in PROXY_HEADERS)


def endpoints(
    health: HealthSource, registry: CollectorRegistry, *, metrics_here: bool = True
) -> Callable[[ServerConnection, Request], Response | None]:
    """The game port's ``process_request`` hook for ``websockets.asyncio.server.serve``: the probes, /metrics for
    this machine only (404 for others, and for everyone when ``metrics_here`` is False: it has a listener of its
    own), None for the rest."""

    def process_request(connection: ServerConnection, request: Request) -> Response | None:
        """Answer /healthz, /readyz and /metrics (a query string is ignored); let every other path upgrade."""
        path = request.path.split("?", 1)[0]
        if path == HEALTH_PATH:
            return _probe(health.liveness(), "ok")
        if path == READY_PATH:
            return _probe(health.readiness(), "ready")
        if path == METRICS_PATH:
            if metrics_here and from_this_machine(connection, request):
                return _response(http.HTTPStatus.OK, generate_latest(registry), CONTENT_TYPE_LATEST)
            return _not_found()
        return None

    return process_request


def operator_endpoints(
    health: HealthSource, registry: CollectorRegistry
) -> Callable[[ServerConnection, Request], Response]:
    """The hook of the operators' own listener (``--metrics``): the three paths for whoever reaches it, 404 for any
    other - it never upgrades to a websocket."""

    def process_request(connection: ServerConnection, request: Request) -> Response:
        """Answer the operators' paths."""
        path = request.path.split("?", 1)[0]
        if path == HEALTH_PATH:
            return _probe(health.liveness(), "ok")
        if path == READY_PATH:
            return _probe(health.readiness(), "ready")
        if path == METRICS_PATH:
            return _response(http.HTTPStatus.OK, generate_latest(registry), CONTENT_TYPE_LATEST)
        return _not_found()

    return process_request


def _not_found() -> Response:
    """404: there is nothing here for this request."""
    return _response(http.HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

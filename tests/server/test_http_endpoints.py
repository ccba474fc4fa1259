"""/healthz, /readyz and /metrics on a real websockets server on port 0, asked with real HTTP requests (urllib)."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import websockets
from prometheus_client import CollectorRegistry
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.server import Server, ServerConnection

from server.ops.http_endpoints import Checks, endpoints
from server.ops.metrics import QUEUES, Metrics, new_metrics


@dataclass
class Node:
    """A websocket server with the endpoints, its health checks, its metrics and its port."""

    server: Server
    checks: Checks
    metrics: Metrics
    port: int
    state: dict[str, str | None]

    def url(self, path: str) -> str:
        """The HTTP URL of ``path`` on this node."""
        return f"http://127.0.0.1:{self.port}{path}"


async def _echo(connection: ServerConnection) -> None:
    """The websocket handler: send every message back."""
    async for message in connection:
        await connection.send(message)


@pytest.fixture
async def node() -> AsyncIterator[Node]:
    """A server whose readiness follows ``state['starting']`` and liveness ``state['broken']``."""
    state: dict[str, str | None] = {"starting": "starting: recovering matches", "broken": None}
    checks = Checks()
    checks.add_liveness("store", lambda: state["broken"])
    checks.add_readiness("lifecycle", lambda: state["starting"])
    registry = CollectorRegistry()
    metrics = new_metrics(registry)
    server = await websockets.serve(_echo, "127.0.0.1", 0, process_request=endpoints(checks, registry))
    port = next(iter(server.sockets)).getsockname()[1]
    try:
        yield Node(server, checks, metrics, port, state)
    finally:
        server.close()
        await server.wait_closed()


def _get(url: str) -> tuple[int, str, str]:
    """GET ``url``: (status, Content-Type, body), also for an error status."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


async def get(url: str) -> tuple[int, str, str]:
    """``_get`` off the event loop (the server answers on it)."""
    return await asyncio.to_thread(_get, url)


async def test_readyz_is_503_with_the_reason_while_not_ready_then_200(node: Node) -> None:
    """While a readiness check fails /readyz answers 503 naming it; once it passes, 200."""
    status, _, body = await get(node.url("/readyz"))
    assert (status, body) == (503, "lifecycle: starting: recovering matches\n")
    node.state["starting"] = None
    status, content_type, body = await get(node.url("/readyz"))
    assert (status, body) == (200, "ready\n")
    assert content_type.startswith("text/plain")


async def test_healthz_is_200_while_alive_and_503_with_the_reason_when_not(node: Node) -> None:
    """/healthz ignores readiness (a starting node is alive) and fails only on a liveness check."""
    assert await get(node.url("/healthz")) == (200, "text/plain; charset=utf-8", "ok\n")
    node.state["broken"] = "the database file is gone"
    status, _, body = await get(node.url("/healthz"))
    assert (status, body) == (503, "store: the database file is gone\n")


async def test_a_node_that_is_not_alive_is_not_ready_either(node: Node) -> None:
    """A failing liveness check also fails /readyz, listed before the readiness checks."""
    node.state["starting"] = None
    node.state["broken"] = "writer thread died"
    status, _, body = await get(node.url("/readyz"))
    assert (status, body) == (503, "store: writer thread died\n")


async def test_a_check_that_raises_fails_the_probe_and_the_server_keeps_answering(node: Node) -> None:
    """A check raising is reported as a failure with its exception; the next probe is answered as usual."""

    def broken() -> str | None:
        raise RuntimeError("registry unreachable")

    node.checks.add_readiness("registry", broken)
    node.state["starting"] = None
    status, _, body = await get(node.url("/readyz"))
    assert (status, body) == (503, "registry: check failed: RuntimeError: registry unreachable\n")
    assert (await get(node.url("/healthz")))[0] == 200


async def test_a_query_string_does_not_change_the_path(node: Node) -> None:
    """/readyz?verbose=1 is /readyz."""
    node.state["starting"] = None
    assert (await get(node.url("/readyz?verbose=1")))[:1] == (200,)


async def test_metrics_serves_every_family_with_its_help_and_current_values(node: Node) -> None:
    """/metrics is Prometheus text with every sprtec family, its help text, and the values the server set."""
    node.metrics.connections.set(3)
    node.metrics.moves.inc(5)
    node.metrics.move_latency.observe(0.02)
    node.metrics.queue_size.labels(queue="quick_match").set(2)
    node.metrics.lease_takeovers.inc()
    status, content_type, body = await get(node.url("/metrics"))
    assert status == 200 and content_type.startswith("text/plain; version=")
    families = {family.name: family for family in text_string_to_metric_families(body)}
    expected = {
        "sprtec_connections": "gauge",
        "sprtec_rooms": "gauge",
        "sprtec_live_matches": "gauge",
        "sprtec_moves": "counter",
        "sprtec_move_latency_seconds": "histogram",
        "sprtec_store_commit_seconds": "histogram",
        "sprtec_queue_size": "gauge",
        "sprtec_worker_restarts": "counter",
        "sprtec_leases_held": "gauge",
        "sprtec_lease_takeovers": "counter",
    }
    assert {name: families[name].type for name in expected} == expected
    assert all(len(families[name].documentation) > 20 for name in expected)
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value for f in families.values() for s in f.samples}
    assert samples[("sprtec_connections", ())] == 3
    assert samples[("sprtec_moves_total", ())] == 5
    assert samples[("sprtec_move_latency_seconds_count", ())] == 1
    assert samples[("sprtec_move_latency_seconds_bucket", (("le", "0.025"),))] == 1
    assert samples[("sprtec_move_latency_seconds_bucket", (("le", "0.01"),))] == 0
    assert samples[("sprtec_lease_takeovers_total", ())] == 1
    assert {q: samples[("sprtec_queue_size", (("queue", q),))] for q in QUEUES} == {
        "quick_match": 2,
        "store_writes": 0,
        "physics": 0,
    }


async def test_the_websocket_still_upgrades_on_any_other_path(node: Node) -> None:
    """A websocket client on / (and on /play) connects and talks as if the endpoints were not there."""
    for path in ("/", "/play"):
        async with websockets.connect(f"ws://127.0.0.1:{node.port}{path}") as client:
            await client.send(b"\x81\xa4kind\xa5Hello")
            assert await client.recv() == b"\x81\xa4kind\xa5Hello"


async def test_a_plain_http_request_to_another_path_is_left_to_the_handshake(node: Node) -> None:
    """GET /other without an upgrade is not answered by the endpoints: websockets refuses it (426)."""
    status, _, _ = await get(node.url("/other"))
    assert status == 426


def test_each_registry_gets_its_own_metrics() -> None:
    """Two servers in one process count separately; defining the families twice on one registry is refused."""
    first, second = CollectorRegistry(), CollectorRegistry()
    one, two = new_metrics(first), new_metrics(second)
    one.moves.inc(2)
    assert first.get_sample_value("sprtec_moves_total") == 2
    assert second.get_sample_value("sprtec_moves_total") == 0
    assert two.moves is not one.moves
    with pytest.raises(ValueError, match="Duplicated timeseries"):
        new_metrics(first)


def _get_with(url: str, headers: dict[str, str]) -> int:
    """The status of GET ``url`` with these headers."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


async def test_metrics_on_the_game_port_is_for_this_machine_only_not_through_a_proxy(node: Node) -> None:
    """/metrics answers a loopback request; the same request carrying a proxy's header (a proxy on this machine
    passes on the internet's requests) is 404, and so are the probes' neighbours - the probes still answer."""
    assert (await get(node.url("/metrics")))[0] == 200
    for header in ("X-Forwarded-For", "Forwarded", "X-Real-IP"):
        assert await asyncio.to_thread(_get_with, node.url("/metrics"), {header: "203.0.113.5"}) == 404
    assert await asyncio.to_thread(_get_with, node.url("/healthz"), {"X-Forwarded-For": "203.0.113.5"}) == 200


@pytest.mark.parametrize(("peer", "metrics"), [("192.168.1.23", 404), ("10.0.0.8", 404), ("::1", 200),
                                               ("::ffff:127.0.0.1", 200), ("::ffff:192.168.1.23", 404)])
def test_metrics_is_answered_to_this_machine_and_not_to_another_of_the_lan(peer: str, metrics: int) -> None:
    """A peer of the club's network (as in --lan mode, listening on every interface) gets 404 for /metrics; a
    loopback peer, IPv6 or IPv4 on a dual-stack socket, gets it; the probes answer everyone."""
    from websockets.datastructures import Headers
    from websockets.http11 import Request

    hook = endpoints(Checks(), CollectorRegistry())

    class Peer:
        """A connection as the hook sees it: only its peer's address matters."""

        remote_address = (peer, 50123)

    def answer(path: str) -> int:
        response = hook(Peer(), Request(path, Headers()))  # type: ignore[arg-type]
        assert response is not None
        return response.status_code

    assert answer("/metrics") == metrics
    assert answer("/healthz") == 200


async def test_a_metrics_listener_of_its_own_serves_the_operators_paths_and_the_game_port_none(
        tmp_path: Path) -> None:
    """--metrics 127.0.0.1:0: that listener answers /metrics, /healthz and /readyz (404 for anything else, no
    websocket), and the game port no longer answers /metrics even to this machine."""
    from server.app import Server as GameServer
    from server.app import ServerConfig

    game = GameServer(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0, metrics=("127.0.0.1", 0)))
    await game.start()
    await game.ready.wait()
    try:
        operators = f"http://127.0.0.1:{game.metrics_port}"
        status, content_type, body = await get(f"{operators}/metrics")
        assert status == 200 and content_type.startswith("text/plain") and "sprtec_connections" in body
        assert (await get(f"{operators}/healthz"))[0] == 200 and (await get(f"{operators}/readyz"))[0] == 200
        assert (await get(f"{operators}/"))[0] == 404
        assert (await get(f"http://127.0.0.1:{game.port}/metrics"))[0] == 404
        assert (await get(f"http://127.0.0.1:{game.port}/healthz"))[0] == 200
    finally:
        await game.shutdown()

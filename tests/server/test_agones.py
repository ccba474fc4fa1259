"""server.ops.agones against a real local HTTP server that answers like the Agones SDK sidecar's REST gateway.

The sidecar here follows the documented REST API: ``POST /ready``, ``/health``, ``/allocate``, ``/shutdown`` with
the body ``{}`` as application/json answered by ``{}``; ``GET /gameserver`` answered by the GameServer in the
gateway's field names (object_meta, status.state, status.address, status.ports); the state moving from
RequestReady to Ready, Allocated and Shutdown as the calls arrive.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiohttp import web

from server.ops import agones

LIFECYCLE = {"/ready": "Ready", "/allocate": "Allocated", "/shutdown": "Shutdown"}


@dataclass
class Sidecar:
    """A fake of the SDK sidecar: what it was sent, when, and how it should answer."""

    calls: list[tuple[str, str, float]] = field(default_factory=list)  # (method, path, loop time)
    state: str = "RequestReady"
    fail_next: int = 0  # answer this many requests with 503 before answering normally
    broken_bodies: list[str] = field(default_factory=list)  # POST bodies that were not {} as JSON

    def paths(self, method: str | None = None) -> list[str]:
        """The paths called, in order (of one method, if given)."""
        return [path for m, path, _ in self.calls if method is None or m == method]

    def app(self) -> web.Application:
        """The aiohttp application answering the REST gateway's routes."""
        app = web.Application()
        for path in ("/ready", "/health", "/allocate", "/shutdown"):
            app.router.add_post(path, self._post)
        app.router.add_get("/gameserver", self._gameserver)
        return app

    async def _post(self, request: web.Request) -> web.Response:
        """A lifecycle call: the empty message in, the empty message out, the state moved on."""
        self.calls.append(("POST", request.path, asyncio.get_running_loop().time()))
        if self.fail_next > 0:
            self.fail_next -= 1
            return web.json_response({"error": "sdk server not ready", "code": 14}, status=503)
        body = await request.text()
        if request.content_type != "application/json" or json.loads(body or "null") != {}:
            self.broken_bodies.append(f"{request.content_type} {body!r}")
            return web.json_response({"error": "bad body", "code": 3}, status=400)
        self.state = LIFECYCLE.get(request.path, self.state)
        return web.json_response({})

    async def _gameserver(self, request: web.Request) -> web.Response:
        """The GameServer as the gateway writes it."""
        self.calls.append(("GET", request.path, asyncio.get_running_loop().time()))
        return web.json_response(
            {
                "object_meta": {"name": "sprtec-7r8nx", "namespace": "default", "labels": {"agones.dev/fleet": "x"}},
                "status": {"state": self.state, "address": "203.0.113.7", "ports": [{"name": "default", "port": 7351}]},
            }
        )


def _free_port() -> int:
    """A TCP port on 127.0.0.1 nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _start(sidecar: Sidecar, port: int) -> web.AppRunner:
    """Serve ``sidecar`` on 127.0.0.1:``port``."""
    runner = web.AppRunner(sidecar.app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner


@pytest.fixture
async def sidecar() -> AsyncIterator[tuple[Sidecar, agones.AgonesSdk]]:
    """A running fake sidecar on a free port and an AgonesSdk pointed at it."""
    fake, port = Sidecar(), _free_port()
    runner = await _start(fake, port)
    sdk = agones.AgonesSdk(f"http://127.0.0.1:{port}", timeout_s=2.0, retry_for_s=5.0)
    try:
        yield fake, sdk
    finally:
        await sdk.close()
        await runner.cleanup()


async def test_the_lifecycle_calls_reach_the_sidecar_in_order_with_empty_json_bodies(
    sidecar: tuple[Sidecar, agones.AgonesSdk],
) -> None:
    """ready, allocate, shutdown are POSTed in that order with {}; GET /gameserver shows each state they led to."""
    fake, sdk = sidecar
    states = [(await sdk.game_server()).state]
    for call in (sdk.ready, sdk.allocate, sdk.shutdown):
        await call()
        states.append((await sdk.game_server()).state)
    assert fake.paths("POST") == ["/ready", "/allocate", "/shutdown"]
    assert fake.broken_bodies == []
    assert states == ["RequestReady", "Ready", "Allocated", "Shutdown"]


async def test_the_game_server_says_where_players_connect(sidecar: tuple[Sidecar, agones.AgonesSdk]) -> None:
    """GET /gameserver is read into the GameServer's name, address and host port by name."""
    _, sdk = sidecar
    info = await sdk.game_server()
    assert (info.name, info.address, info.port(), info.port("metrics")) == ("sprtec-7r8nx", "203.0.113.7", 7351, None)


async def test_health_pings_keep_their_cadence(sidecar: tuple[Sidecar, agones.AgonesSdk]) -> None:
    """keep_healthy POSTs /health at once and then every interval, without drifting."""
    fake, sdk = sidecar
    interval = 0.2
    task = asyncio.create_task(agones.keep_healthy(sdk, interval_s=interval))
    async with asyncio.timeout(20 * interval):
        while len(fake.paths()) < 6:
            await asyncio.sleep(interval / 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    times = [at for _, path, at in fake.calls if path == "/health"][:6]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert all(interval / 4 < gap < 2 * interval for gap in gaps), gaps
    assert abs((times[-1] - times[0]) - 5 * interval) < interval / 2, gaps  # a fixed cadence: no accumulated delay
    assert fake.broken_bodies == []


async def test_no_health_ping_while_unhealthy_and_pings_resume_after(
    sidecar: tuple[Sidecar, agones.AgonesSdk],
) -> None:
    """While healthy() is false nothing is sent (Agones then replaces the node); pings resume once it is true."""
    fake, sdk = sidecar
    interval, healthy = 0.1, [True]
    task = asyncio.create_task(agones.keep_healthy(sdk, interval_s=interval, healthy=lambda: healthy[0]))
    await asyncio.sleep(2.5 * interval)
    healthy[0] = False
    stopped = asyncio.get_running_loop().time()
    await asyncio.sleep(5 * interval)
    healthy[0] = True
    resumed = asyncio.get_running_loop().time()
    await asyncio.sleep(2.5 * interval)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    times = [at for _, path, at in fake.calls if path == "/health"]
    assert not [at for at in times if stopped + interval / 2 < at < resumed]
    assert len([at for at in times if at < stopped]) >= 2 and len([at for at in times if at >= resumed]) >= 2


async def test_a_failed_ping_is_logged_and_the_next_one_follows(
    sidecar: tuple[Sidecar, agones.AgonesSdk], caplog: pytest.LogCaptureFixture
) -> None:
    """A ping answered 503 is not retried and does not end the loop: the next interval pings again."""
    fake, sdk = sidecar
    fake.fail_next = 2
    with caplog.at_level(logging.WARNING, logger="server.ops.agones"):
        task = asyncio.create_task(agones.keep_healthy(sdk, interval_s=0.1))
        await asyncio.sleep(0.45)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert 4 <= len(fake.paths()) <= 6
    assert sum("health ping failed" in record.getMessage() for record in caplog.records) == 2


async def test_ready_waits_for_a_sidecar_that_starts_after_the_server() -> None:
    """ready() retries while nothing listens and succeeds once the sidecar is up (the Agones docs ask for this)."""
    fake, port = Sidecar(), _free_port()
    sdk = agones.AgonesSdk(f"http://127.0.0.1:{port}", timeout_s=1.0, retry_for_s=10.0)
    ready = asyncio.create_task(sdk.ready())
    await asyncio.sleep(0.6)
    assert not ready.done()
    runner = await _start(fake, port)
    try:
        await asyncio.wait_for(ready, 5.0)
        assert fake.paths() == ["/ready"] and fake.state == "Ready"
    finally:
        await sdk.close()
        await runner.cleanup()


async def test_a_sidecar_answering_503_is_retried_until_it_accepts(sidecar: tuple[Sidecar, agones.AgonesSdk]) -> None:
    """allocate() answered 503 twice is sent a third time and then succeeds."""
    fake, sdk = sidecar
    fake.fail_next = 2
    await sdk.allocate()
    assert fake.paths() == ["/allocate"] * 3 and fake.state == "Allocated"


async def test_a_sidecar_that_never_answers_fails_after_the_retry_window() -> None:
    """With nothing listening, ready() raises AgonesError naming the URL once the retry window has passed."""
    port = _free_port()
    sdk = agones.AgonesSdk(f"http://127.0.0.1:{port}", timeout_s=0.5, retry_for_s=0.5)
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        with pytest.raises(agones.AgonesError, match=f"127.0.0.1:{port}/ready"):
            await sdk.ready()
    finally:
        await sdk.close()
    assert 0.3 < loop.time() - started < 3.0


async def test_a_refused_call_is_not_retried(sidecar: tuple[Sidecar, agones.AgonesSdk]) -> None:
    """A 4xx answer (the call itself is wrong) raises at once instead of being retried."""
    fake, sdk = sidecar
    sdk.base_url += "/no-such-prefix"
    with pytest.raises(agones.AgonesError, match="404"):
        await sdk.ready()
    assert fake.calls == []


@pytest.mark.parametrize(
    "answer",
    [[], {"status": "Ready"}, {"status": {"ports": [{"name": "default", "port": "x"}]}}, {"status": {"ports": [7]}}],
)
def test_a_malformed_game_server_is_an_agones_error(answer: object) -> None:
    """GET /gameserver answers that are not a GameServer raise AgonesError instead of passing nonsense on."""
    with pytest.raises(agones.AgonesError):
        agones.game_server_info(answer)


async def test_the_environment_chooses_the_sdk() -> None:
    """AGONES_SDK_HTTP_PORT selects the REST SDK on localhost at that port; without it the no-op one does nothing."""
    chosen = agones.from_environment({agones.PORT_VARIABLE: "9358"})
    assert isinstance(chosen, agones.AgonesSdk) and chosen.base_url == "http://localhost:9358"
    plain = agones.from_environment({})
    assert isinstance(plain, agones.NoAgones)
    for call in (plain.ready, plain.health, plain.allocate, plain.shutdown, plain.close):
        await asyncio.wait_for(call(), 0.1)
    assert await plain.game_server() is None
    with pytest.raises(ValueError, match="not a port number"):
        agones.from_environment({agones.PORT_VARIABLE: "http://x"})


async def test_a_server_run_by_agones_pings_is_ready_allocated_at_its_first_match_and_shut_down(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With AGONES_SDK_HTTP_PORT set, a real server pings health from its start, says Ready once its matches are
    back, Allocated when its first match starts (once), and Shutdown after it drained."""
    from server.app import Server, ServerConfig
    from shared.protocol import CreateRoom, JoinRoom, RoomJoined, Snapshot
    from tests.server.players import WireClient

    fake, port = Sidecar(), _free_port()
    runner = await _start(fake, port)
    monkeypatch.setenv(agones.PORT_VARIABLE, str(port))
    server = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0))
    try:
        await server.start()
        await asyncio.wait_for(server.ready.wait(), 10)
        for _ in range(100):
            if "/ready" in fake.paths() and "/health" in fake.paths():
                break
            await asyncio.sleep(0.05)
        assert "/ready" in fake.paths() and "/health" in fake.paths()
        assert "/allocate" not in fake.paths()
        ann = await WireClient.connect(server.url, "Ann")
        await ann.send(CreateRoom("quick", {}, True))
        await ann.until(RoomJoined)
        bob = await WireClient.connect(server.url, "Bob")
        await bob.send(JoinRoom(ann.code))
        await bob.until(RoomJoined)
        await ann.until(Snapshot)
        for _ in range(100):
            if "/allocate" in fake.paths():
                break
            await asyncio.sleep(0.05)
        assert fake.paths().count("/allocate") == 1 and fake.state == "Allocated"
    finally:
        await server.shutdown()
        await runner.cleanup()
    assert fake.paths("POST")[-1] == "/shutdown" and not fake.broken_bodies

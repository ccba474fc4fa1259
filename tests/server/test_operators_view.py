"""The running server's /healthz, /readyz and /metrics on its websocket port, after real play over websockets.

Everything here is the real server on port 0: recovery slowed by real data (a crashed server's matches whose log
rows kept no positions, so each is replayed through the physics in a worker process), a database deleted under the
server, two coaches flicking through the protocol, a physics worker killed with SIGKILL. The figures scraped from
/metrics must equal what the test did.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import sqlite3
import time
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from benchmarks.recovery_time import build
from benchmarks.server_load import COMMITS, RESOLVED_IN_WORKERS, RESOLVED_ON_LOOP, histograms
from server.app import Server, ServerConfig
from server.clock import FakeClock
from server.store.sqlite.sqlite_store import DATABASE
from shared.protocol import (
    CancelQuickMatch,
    Leave,
    MovePlayed,
    QueueStatus,
    QuickMatch,
    RoomJoined,
)
from tests.server.players import WireClient, two_coaches
from tests.server.test_http_endpoints import get

SETTINGS = {"period_ms": 600_000, "move_clock_ms": 120_000, "disconnect_grace_ms": 120_000}
MOVES = 6  # flicks the coaches play in the metrics test
RECOVERED = 40  # matches of the crashed server whose recovery the probes watch


def _http(server: Server, path: str) -> str:
    """The HTTP URL of ``path`` on the server's websocket port."""
    return f"http://127.0.0.1:{server.port}{path}"


async def scrape(server: Server) -> dict[str, float]:
    """/metrics parsed by prometheus-client's own parser: every sample by its name and labels."""
    status, content_type, body = await get(_http(server, "/metrics"))
    assert status == 200 and content_type.startswith("text/plain; version=")
    samples = {}
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples


async def _match(server: Server) -> tuple[WireClient, WireClient]:
    """Ann and Bob in a private room whose match has started."""
    return await two_coaches(server.url, "standard", SETTINGS)


async def _until(server: Server, name: str, value: float, within_s: float = 10.0) -> dict[str, float]:
    """Scrape until sample ``name`` has ``value``; the last scrape."""
    deadline = time.monotonic() + within_s
    while True:
        samples = await scrape(server)
        if samples.get(name) == value or time.monotonic() > deadline:
            return samples
        await asyncio.sleep(0.05)


async def test_the_probes_answer_on_the_websocket_port_and_the_game_still_upgrades(tmp_path: Path) -> None:
    """/healthz and /readyz answer 200 on the port a coach connects to, and a websocket there is welcomed."""
    server = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0))
    await server.start()
    try:
        await server.ready.wait()
        assert await get(_http(server, "/healthz")) == (200, "text/plain; charset=utf-8", "ok\n")
        assert (await get(_http(server, "/readyz")))[::2] == (200, "ready\n")
        ann = await WireClient.connect(server.url, "ann")
        assert ann.welcome.player == "ann"
        await ann.close()
    finally:
        await server.shutdown()


async def test_readyz_is_503_while_a_slow_recovery_runs_then_200_with_the_resumed_matches_live(
    tmp_path: Path,
) -> None:
    """A restart on a crashed server's data whose logs must be replayed: /readyz 503 naming the recovery while
    /healthz is 200, then 200 once ready; the resumed matches count as live."""
    data = tmp_path / "data"
    build(data, RECOVERED)
    with sqlite3.connect(data / DATABASE) as conn:  # as an older server wrote them: every match is replayed
        conn.execute("UPDATE match_log SET position = NULL, turn_used = NULL")
    server = Server(ServerConfig(port=0, data_dir=data, workers=1))
    await server.start()
    try:
        status, _, body = await get(_http(server, "/readyz"))
        assert (status, body) == (503, "recovery: resuming unfinished matches\n")
        assert (await get(_http(server, "/healthz")))[0] == 200
        await asyncio.wait_for(server.ready.wait(), 120)
        assert (await get(_http(server, "/readyz")))[::2] == (200, "ready\n")
        samples = await scrape(server)
        assert samples["sprtec_live_matches"] == RECOVERED and samples["sprtec_rooms"] == RECOVERED
    finally:
        await server.shutdown()


async def test_a_database_deleted_under_the_server_fails_both_probes(tmp_path: Path) -> None:
    """The store lost (its file deleted, a move's commit refused): /healthz and /readyz 503 naming the store."""
    data = tmp_path / "data"
    server = Server(ServerConfig(port=0, data_dir=data, workers=0))
    await server.start()
    try:
        ann, bob = await _match(server)
        (data / DATABASE).unlink()
        mover = ann if ann.my_turn() else bob
        await mover.send(mover.flick())
        for _ in range(200):
            if server.store.health.lost:
                break
            await asyncio.sleep(0.02)
        status, _, body = await get(_http(server, "/healthz"))
        assert status == 503 and body.startswith("database: lost: ")
        status, _, body = await get(_http(server, "/readyz"))
        assert status == 503 and body.startswith("database: lost: ") and "\nstore: not committing: " in body
    finally:
        await server.shutdown()


async def test_metrics_after_two_coaches_play_equal_their_moves_connections_and_match(tmp_path: Path) -> None:
    """Two coaches play MOVES flicks: moves_total and the flick latency count are MOVES, connections 2 and one
    live match while they play; a resignation ends the match and their leaving closes the connections."""
    clock = FakeClock()
    server = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0), clock=clock)
    await server.start()
    try:
        ann, bob = await _match(server)
        before = await scrape(server)
        assert (before["sprtec_connections"], before["sprtec_rooms"], before["sprtec_live_matches"]) == (2, 1, 1)
        assert before["sprtec_moves_total"] == 0 and before["sprtec_move_latency_seconds_count"] == 0
        for _ in range(MOVES):
            mover = ann if ann.my_turn() else bob
            await mover.send(mover.flick())
            played = [await coach.until(MovePlayed) for coach in (ann, bob)]
            assert played[0].trajectory is not None
            await clock.advance(played[0].trajectory.duration_ms)  # the board is at rest (D3) on the room's clock
        samples = await scrape(server)
        assert samples["sprtec_moves_total"] == MOVES
        assert samples["sprtec_move_latency_seconds_count"] == MOVES
        assert 0 < samples["sprtec_move_latency_seconds_sum"] < MOVES * 5.0
        assert samples['sprtec_move_latency_seconds_bucket{le=+Inf}'] == MOVES
        assert samples["sprtec_store_commit_seconds_count"] == server.store.commits >= MOVES
        # no workers: every flick was resolved on the event loop, and its CPU there counted
        assert samples["sprtec_resolve_cpu_seconds_count{where=loop}"] == MOVES
        assert 0 < samples["sprtec_resolve_cpu_seconds_sum{where=loop}"] < MOVES * 5.0
        assert samples["sprtec_resolve_cpu_seconds_count{where=worker}"] == 0
        # what ``sprtec bench server`` reads of the same page
        totals = await asyncio.to_thread(histograms, f"ws://127.0.0.1:{server.port}/")
        assert totals is not None
        assert (totals[RESOLVED_ON_LOOP][0], totals[RESOLVED_IN_WORKERS][0]) == (MOVES, 0)
        assert totals[RESOLVED_ON_LOOP][1] == samples["sprtec_resolve_cpu_seconds_sum{where=loop}"]
        assert totals[COMMITS][0] == server.store.commits
        assert (samples["sprtec_connections"], samples["sprtec_live_matches"]) == (2, 1)
        for queue in ("quick_match", "store_writes", "physics"):
            assert samples[f"sprtec_queue_size{{queue={queue}}}"] == 0
        assert (samples["sprtec_worker_restarts_total"], samples["sprtec_leases_held"],
                samples["sprtec_lease_takeovers_total"]) == (0, 0, 0)
        await ann.send(Leave())  # resigns the running match
        assert (await _until(server, "sprtec_live_matches", 0))["sprtec_live_matches"] == 0
        await ann.close()
        await bob.close()
        after = await _until(server, "sprtec_connections", 0)
        assert (after["sprtec_connections"], after["sprtec_moves_total"]) == (0, MOVES)
    finally:
        await server.shutdown()


async def test_the_quick_match_queue_size_follows_players_joining_and_leaving_it(tmp_path: Path) -> None:
    """One player queued for a ruleset nobody else wants: queue_size{quick_match} 1; he cancels: 0; two players
    for the same ruleset are paired at once and leave it at 0."""
    server = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0))
    await server.start()
    try:
        ann = await WireClient.connect(server.url, "ann")
        await ann.send(QuickMatch("ko"))
        assert (await ann.until(QueueStatus)).queued
        assert (await scrape(server))["sprtec_queue_size{queue=quick_match}"] == 1
        await ann.send(CancelQuickMatch())
        assert not (await ann.until(QueueStatus)).queued
        assert (await scrape(server))["sprtec_queue_size{queue=quick_match}"] == 0
        bob = await WireClient.connect(server.url, "bob")
        await ann.send(QuickMatch("quick"))
        await ann.until(QueueStatus)
        assert (await scrape(server))["sprtec_queue_size{queue=quick_match}"] == 1
        await bob.send(QuickMatch("quick"))
        await bob.until(RoomJoined)
        samples = await _until(server, "sprtec_live_matches", 1)
        assert (samples["sprtec_queue_size{queue=quick_match}"], samples["sprtec_live_matches"]) == (0, 1)
    finally:
        await server.shutdown()


async def test_a_physics_worker_killed_is_counted_as_a_restart(tmp_path: Path) -> None:
    """SIGKILL on the server's physics worker between two moves: sprtec_worker_restarts_total becomes 1 and the
    replacement resolves the next move."""
    server = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=1, inline_share=0.0))  # every move there
    await server.start()
    try:
        ann, bob = await _match(server)
        await _play_one(ann, bob)  # the first move started the worker
        (worker,) = [child for child in multiprocessing.active_children() if child.name == "sprtec-physics"]
        assert worker.pid is not None
        os.kill(worker.pid, signal.SIGKILL)
        samples = await _until(server, "sprtec_worker_restarts_total", 1)
        assert samples["sprtec_worker_restarts_total"] == 1
        await _play_one(ann, bob)
        assert (await scrape(server))["sprtec_moves_total"] == 2
    finally:
        await server.shutdown()


async def _play_one(ann: WireClient, bob: WireClient) -> None:
    """The coach to move flicks once the board is at rest; both see the MovePlayed."""
    mover = ann if ann.my_turn() else bob
    await mover.at_rest()
    await mover.send(mover.flick())
    for coach in (ann, bob):
        await coach.until(MovePlayed)

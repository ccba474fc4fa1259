"""LAN discovery for real: a server announced on one host is found from another over multicast DNS-SD.

Every test runs on two network namespaces joined by a veth link (``tests/lan/netns.py``): the server host
(with a docker0 bridge that must not be announced) and the player host.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import sys
import time
from pathlib import Path

import pytest
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from client.common.lan_browser import BackgroundBrowser, LanBrowser
from server.app import Server, ServerConfig
from server.lan.announcer import LanAnnouncer
from shared.protocol import PROTOCOL_VERSION
from shared.protocol.lan_record import SERVICE_TYPE, RunningTournament, ServerAnnouncement, encode_txt
from tests.lan.conftest import FIND_TIMEOUT_S, Changes, StartServer
from tests.lan.netns import Lan
from tests.server.players import WireClient


async def _servers(lan: Lan, *options: str) -> tuple[int | None, str, str]:
    """`sprtec servers OPTIONS` on the player host to its end: (exit status, stdout, stderr)."""
    process = await asyncio.create_subprocess_exec(
        *lan.command(lan.player_host, sys.executable, "-m", "sprtec", "servers", *options),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    return process.returncode, out.decode(), err.decode()


@pytest.mark.slow
async def test_sprtec_serve_lan_is_found_by_sprtec_servers_json(lan: Lan, served: StartServer) -> None:
    """`sprtec serve --lan` on one host is listed by `sprtec servers --json` on another, with its LAN URL only."""
    server = await served("--name", "Klub Šprtec Brno")
    status, out, err = await _servers(lan, "--json", "--wait", "4")
    assert status == 0, err
    assert json.loads(out) == {
        "servers": [
            {
                "name": "Klub Šprtec Brno",
                "url": f"ws://{lan.server_address}:{server.port}/",
                "address": lan.server_address,
                "port": server.port,
                "addresses": [lan.server_address],  # docker0's 198.19.0.1 is not announced
                "instance": "Klub Šprtec Brno",
                "protocol_version": PROTOCOL_VERSION,
                "compatible": True,
                "players_online": 0,
                "tournaments": [],
                "tournaments_running": 0,
            }
        ]
    }


@pytest.mark.slow
async def test_sprtec_servers_prints_a_table_and_says_when_none_is_found(lan: Lan, served: StartServer) -> None:
    """The table names the server and its URL; with no server the command exits 0 and says so on stderr."""
    status, out, err = await _servers(lan, "--wait", "1")
    assert (status, out) == (0, "")
    assert "no sprtec server found on the LAN in 1 s" in err
    server = await served("--name", "Hall B")
    status, out, err = await _servers(lan, "--wait", "3")
    assert status == 0, err
    header, row = out.splitlines()
    assert header.split() == ["NAME", "URL", "PROTOCOL", "PLAYERS", "TOURNAMENTS"]
    assert row.split() == ["Hall", "B", f"ws://{lan.server_address}:{server.port}/", str(PROTOCOL_VERSION), "0", "-"]


async def test_a_shutdown_says_goodbye_and_the_browser_drops_the_server(
    lan: Lan, served: StartServer, player_browser: tuple[LanBrowser, Changes]
) -> None:
    """SIGTERM: the server's goodbye removes it from a running browser at once (not after the records' TTL)."""
    browser, changes = player_browser
    server = await served("--name", "Leaving")
    found = await changes.next(lambda change, s: change == "added" and s.name == "Leaving")
    assert found.url == f"ws://{lan.server_address}:{server.port}/"
    stopped_at = time.monotonic()
    assert await server.stop() == 0
    await changes.next(lambda change, s: change == "removed" and s.name == "Leaving", timeout=10)
    assert time.monotonic() - stopped_at < 10
    assert browser.servers() == []


async def test_players_online_follow_connections_through_the_txt_record(
    lan: Lan, tmp_path: Path, player_browser: tuple[LanBrowser, Changes]
) -> None:
    """A player connecting to the announced URL raises players online in the browser; leaving lowers it again."""
    _, changes = player_browser
    config = ServerConfig(host="0.0.0.0", port=0, data_dir=tmp_path / "data", workers=0, lan=True, name="Club")
    server = Server(config, announcer=LanAnnouncer(update_interval_s=0.5))
    with lan.inside(lan.server_host):
        await server.start()
    try:
        found = await changes.next(lambda change, s: change == "added" and s.name == "Club")
        assert found.players_online == 0
        with lan.inside(lan.player_host):
            player = await WireClient.connect(found.url, name="ada")
        try:
            joined = await changes.next(lambda change, s: change == "updated")
            assert joined.players_online == 1
        finally:
            await player.ws.close()
        left = await changes.next(lambda change, s: change == "updated")
        assert left.players_online == 0
    finally:
        await server.shutdown()
    await changes.next(lambda change, s: change == "removed" and s.name == "Club", timeout=10)


async def test_txt_updates_are_rate_limited_and_the_latest_one_wins(
    lan: Lan, player_browser: tuple[LanBrowser, Changes]
) -> None:
    """Five quick updates reach the network as at most two TXT records, the last one saying the final state."""
    _, changes = player_browser
    announcer = LanAnnouncer(update_interval_s=1.5)
    with lan.inside(lan.server_host):
        await announcer.start("Busy", "0.0.0.0", 8765)
    try:
        await changes.next(lambda change, s: change == "added" and s.name == "Busy")
        cup = (RunningTournament("cup", "Velká cena"),)
        for players in range(1, 6):
            announcer.update(players, cup if players == 5 else ())
        final = await changes.next(lambda change, s: change == "updated" and s.players_online == 5)
        assert final.tournaments == cup and final.tournaments_running == 1
        await asyncio.sleep(2)  # an update sent late would show here
        updates = [s.players_online for change, s in changes.seen if change == "updated"]
        assert updates in ([5], [1, 5]), updates
    finally:
        await announcer.close()


async def test_malformed_txt_records_are_ignored_without_an_exception(
    lan: Lan, player_browser: tuple[LanBrowser, Changes], caplog: pytest.LogCaptureFixture
) -> None:
    """Hostile registrations (no protocol, another layout, port 0, garbage) are not listed; odd values are defaulted."""
    browser, changes = player_browser
    errors: list[dict[str, object]] = []
    asyncio.get_running_loop().set_exception_handler(lambda loop, context: errors.append(context))
    caplog.set_level(logging.WARNING, logger="client.common.lan_browser")
    records = {
        "no-proto": (8765, b"\x0bname=NoProto"),
        "future-layout": (8765, b"\x09txtvers=2\x07proto=1"),
        "port-zero": (0, encode_txt(ServerAnnouncement(name="port-zero"))),
        "garbage": (8765, bytes(range(256))[:200]),
        "defaulted": (8765, b"\x07proto=1\x07name=\xff\xfe\x0cplayers=lots\x0dscheme=gopher\x30t1=short"),
        "good": (8765, encode_txt(ServerAnnouncement(name="Good", players_online=2))),
    }
    with lan.inside(lan.server_host):
        hostile = AsyncZeroconf(interfaces=[lan.server_address], ip_version=IPVersion.V4Only)
    try:
        infos = [
            AsyncServiceInfo(
                SERVICE_TYPE,
                f"{instance}.{SERVICE_TYPE}",
                port=port,
                properties=text,
                server=f"{instance}.local.",
                addresses=[socket.inet_aton(lan.server_address)],
            )
            for instance, (port, text) in records.items()
        ]
        await asyncio.gather(*(hostile.async_register_service(info) for info in infos))
        await changes.next(lambda change, s: {x.instance for x in browser.servers()} >= {"good", "defaulted"})
        await asyncio.sleep(2)  # the ignored ones were announced together with these: time to (not) show up
        listed = {s.instance: s for s in browser.servers()}
        assert sorted(listed) == ["defaulted", "good"]
        assert (listed["good"].name, listed["good"].players_online) == ("Good", 2)
        odd = listed["defaulted"]
        assert (odd.name, odd.players_online, odd.url) == ("defaulted", 0, f"ws://{lan.server_address}:8765/")
        assert odd.tournaments == ()
    finally:
        await hostile.async_close()
    assert errors == []
    assert [r.getMessage() for r in caplog.records] == []


async def test_background_browser_snapshot_never_waits_and_sees_the_server(lan: Lan) -> None:
    """The arcade client's poller: its thread finds the server; each snapshot returns at once; close ends the thread."""
    announcer = LanAnnouncer()
    with lan.inside(lan.server_host):
        await announcer.start("Polled", "0.0.0.0", 8765)
    poller = BackgroundBrowser()
    with lan.inside(lan.player_host):
        poller.start()  # the thread starts on the player host and stays there
    try:
        deadline = time.monotonic() + FIND_TIMEOUT_S
        slowest = 0.0
        while not poller.snapshot() and time.monotonic() < deadline:
            began = time.perf_counter()
            poller.snapshot()
            slowest = max(slowest, time.perf_counter() - began)
            await asyncio.sleep(0.05)  # a frame; the announcer runs on this loop meanwhile
        (found,) = poller.snapshot()
        assert (found.name, found.url) == ("Polled", f"ws://{lan.server_address}:8765/")
        assert poller.version >= 1 and poller.error is None and poller.running
        assert slowest < 0.01
    finally:
        poller.close()
        await announcer.close()
    assert not poller.running

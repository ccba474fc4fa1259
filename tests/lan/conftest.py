"""Fixtures for the LAN tests: two hosts joined by a link, a recorder of a browser's changes, a served process."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from client.common.lan_browser import Change, LanBrowser
from shared.protocol.lan_record import FoundServer
from tests.lan.netns import Lan, two_hosts, unavailable

FIND_TIMEOUT_S = 15.0  # a server is found within about 2 s; the margin is for a loaded machine


@pytest.fixture
def lan() -> Iterator[Lan]:
    """A server host and a player host on one link (skipped, with the reason, where namespaces cannot be made)."""
    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    hosts = two_hosts()
    try:
        made = hosts.__enter__()
    except RuntimeError as error:
        pytest.skip(f"cannot make network namespaces here ({error})")
    try:
        yield made
    finally:
        hosts.__exit__(None, None, None)


class Changes:
    """What a ``LanBrowser`` reported, in order, with a way to wait for the next change that matters."""

    def __init__(self) -> None:
        self.seen: list[tuple[Change, FoundServer]] = []
        self._cursor = 0
        self._arrived = asyncio.Event()

    def __call__(self, change: Change, server: FoundServer) -> None:
        """The browser's ``on_change``."""
        self.seen.append((change, server))
        self._arrived.set()

    async def next(
        self, predicate: Callable[[Change, FoundServer], bool], timeout: float = FIND_TIMEOUT_S
    ) -> FoundServer:
        """The server of the first change after the last one returned for which ``predicate`` holds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            while self._cursor < len(self.seen):
                change, server = self.seen[self._cursor]
                self._cursor += 1
                if predicate(change, server):
                    return server
            self._arrived.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"no such change within {timeout} s; seen: {self.seen}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), remaining)


@pytest.fixture
async def player_browser(lan: Lan) -> AsyncIterator[tuple[LanBrowser, Changes]]:
    """A ``LanBrowser`` on the player host, with the recorder of its changes."""
    changes = Changes()
    browser = LanBrowser(on_change=changes)
    with lan.inside(lan.player_host):
        await browser.start()
    try:
        yield browser, changes
    finally:
        await browser.close()


@dataclass
class Served:
    """A ``sprtec serve --lan`` process on the server host."""

    process: asyncio.subprocess.Process
    port: int
    log: Path

    async def stop(self) -> int:
        """SIGTERM (a graceful shutdown with the LAN's goodbye); its exit status."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.process.wait(), 20)
        except TimeoutError:
            self.process.kill()
            return await self.process.wait()


StartServer = Callable[..., Awaitable[Served]]


@pytest.fixture
async def served(lan: Lan, tmp_path: Path) -> AsyncIterator[StartServer]:
    """Start ``sprtec serve --lan --port 0`` (plus options) on the server host; every one is stopped afterwards."""
    started: list[Served] = []

    async def start(*options: str) -> Served:
        log = tmp_path / f"server-{len(started)}.log"
        with open(log, "w") as sink:
            process = await asyncio.create_subprocess_exec(
                *lan.command(lan.server_host, sys.executable, "-m", "sprtec", "serve", "--lan", "--port", "0"),
                "--data",
                str(tmp_path / f"data-{len(started)}"),
                "--workers",
                "0",
                *options,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=sink,
            )
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode().strip()
        assert line.startswith("ws://"), (line, log.read_text())
        server = Served(process, int(line.rsplit(":", 1)[1].strip("/")), log)
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            await server.stop()

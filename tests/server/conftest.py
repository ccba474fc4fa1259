"""Fixtures for the server tests: an in-process server on port 0 with a short match ruleset."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from server.app import Server, ServerConfig
from server.store.sqlite.sqlite_store import SqliteStore
from server.store.store_port import Store
from tests.cluster.conftest import postgres_server, postgres_url  # noqa: F401 - the PostgreSQL store's fixtures

# A match of one 3-second period, no break: short enough for end-to-end tests on a shared machine.
SHORT = {"period_ms": 3000, "move_clock_ms": 1500, "choice_timeout_ms": 500, "disconnect_grace_ms": 1500}


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest) -> str | None:
    """Which store a server of the test uses: None for SQLite in its data directory, or a PostgreSQL database's URL."""
    return None if request.param == "sqlite" else str(request.getfixturevalue("postgres_url"))


@pytest.fixture(params=["sqlite", "postgres"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    """Opens the same store again on each call: a SQLite data directory, or a PostgreSQL database of the test's own."""
    if request.param == "sqlite":
        return lambda: SqliteStore(tmp_path)
    from server.store.postgres.pg_store import PgStore

    url = request.getfixturevalue("postgres_url")
    return lambda: PgStore(url)


Start = Callable[..., Awaitable[Server]]


@pytest.fixture
async def start_server(tmp_path: Path) -> AsyncIterator[Start]:
    """Starts in-process servers of the test (physics in-line) with ``ServerConfig`` fields of its choice; each is
    shut down after the test."""
    started: list[Server] = []

    async def start(**config: Any) -> Server:
        """One more server, on data of its own unless ``data_dir`` is given."""
        config.setdefault("data_dir", tmp_path / f"data-{len(started)}")
        server = Server(ServerConfig(port=0, workers=0, **config))
        await server.start()
        await server.ready.wait()
        started.append(server)
        return server

    yield start
    for server in reversed(started):
        if not server.draining:  # a test may have shut it down itself (a restart)
            await server.shutdown()

"""Fixtures for the server tests: an in-process server on port 0 with a short match ruleset."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.app import Server, ServerConfig

# A match of one 3-second period, no break: short enough for end-to-end tests on a shared machine.
SHORT = {"period_ms": 3000, "move_clock_ms": 1500, "choice_timeout_ms": 500, "disconnect_grace_ms": 1500}


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    """A running server (physics in-line, real clock) on a free port, shut down after the test."""
    srv = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0))
    await srv.start()
    yield srv
    await srv.shutdown()

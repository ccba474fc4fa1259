"""Fixtures every test folder may use: an in-process server on a free port."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from server.app import Server


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    """A running server (physics in-line, real clock, data in the test's folder) on a free port, shut down after the
    test."""
    from server.app import Server, ServerConfig  # here: the pure core's tests need not import the server

    srv = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0))
    await srv.start()
    yield srv
    await srv.shutdown()

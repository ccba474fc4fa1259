"""Fixtures for the tournament server's tests: an in-process server on port 0, and a tournament with its coaches.

Why in-process here: the flows (walkovers, cards, disputes, permissions) need a real server and real websockets
but no bot's search, so the server runs in the test's loop with its physics in-line; the tests that play whole
tournaments with bots start ``sprtec serve`` as a child instead (the physics is not safe beside the bots' threads).
The PostgreSQL fixtures of the cluster tests are used for the schema's twin.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cluster.conftest import postgres_server, postgres_url  # noqa: F401 - fixtures for test_schema
from tests.server.conftest import start_server  # noqa: F401 - servers with options of a test's own

# One 3-second period, no break: a match that ends quickly when played.
SHORT = {"period_ms": 3000, "move_clock_ms": 1500, "choice_timeout_ms": 500, "break_ms": 0}


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The organiser's secrets go to a folder of the test's own."""
    folder = tmp_path / "config"
    monkeypatch.setenv("SPRTEC_CONFIG_DIR", str(folder))
    return folder

"""Fixtures for the league server's tests: in-process servers on port 0 (``tests.server.conftest``), the organiser's
secrets in a folder of the test's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.conftest import start_server  # noqa: F401 - servers with options of a test's own


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The organiser's secrets go to a folder of the test's own."""
    folder = tmp_path / "config"
    monkeypatch.setenv("SPRTEC_CONFIG_DIR", str(folder))
    return folder

"""Every client test keeps the player's config (identity, settings) in its own temporary directory, never in the
user's real one: ``SPRTEC_CONFIG_DIR`` points there, and child processes inherit it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.common.config_dir import ENV


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh config directory for each test."""
    folder = tmp_path / "config"
    monkeypatch.setenv(ENV, str(folder))
    yield folder


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where a test module's pictures go: ``SPRTEC_SHOTS=DIR`` keeps them there to be looked at, else a temporary
    folder."""
    chosen = os.environ.get("SPRTEC_SHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder

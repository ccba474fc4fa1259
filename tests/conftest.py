"""Fixtures every test folder may use: an in-process server on a free port; and the suite's order, slow tests first."""

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


def _expected_seconds(item: pytest.Item) -> float:
    """How long a slow test takes, as its mark says (``pytest.mark.slow(seconds=60)``), else a few seconds."""
    mark = item.get_closest_marker("slow")
    return float(mark.kwargs.get("seconds", 10)) if mark is not None else 0.0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow run first, the longest first, the others taken in turn from each test folder; then the
    rest as collected. ``make test`` hands tests out one at a time (``--maxschedchunk 1``): the long ones start at once,
    spread over the workers, and the short ones fill the gaps at the end, instead of one worker still playing a
    minute-long match after the others are done (the folders' turns keep the workers on different kinds of work: a
    real window, a cluster, a tournament of bots). Without it xdist would deal them out 150 in a row: all to one."""
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    folders: dict[str, list[pytest.Item]] = {}
    for item in slow:
        folders.setdefault(item.nodeid.split("/")[1] if item.nodeid.count("/") > 1 else "", []).append(item)
    turn = {id(item): (place, index) for index, group in enumerate(folders.values())
            for place, item in enumerate(group)}
    slow.sort(key=lambda item: (-_expected_seconds(item), turn[id(item)]))
    chosen = {id(item) for item in slow}
    items[:] = slow + [item for item in items if id(item) not in chosen]

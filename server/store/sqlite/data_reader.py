"""A server's data directory opened read-only, for the command line's reports (``sprtec players``, ``sprtec
player``) beside a running server or without one.

Also the export's way into a data directory (``server.store.match_reads.read_match``). Why read-only: a report must
never write to a live database (WAL lets it read while the server writes) and must
not create an empty database where none is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

DATABASE = "sprtec.sqlite3"  # the database file of a data directory (``server.store.sqlite.sqlite_store``)


class NoData(Exception):
    """There is no sprtec database in the directory (or it cannot be read)."""


class ReadOnlyData:
    """The database of a data directory, for reading only."""

    def __init__(self, data_dir: Path) -> None:
        path = data_dir / DATABASE
        if not path.is_file():
            raise NoData(f"no sprtec database in {data_dir} (expected {path})")
        self.path = path
        try:
            self._conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise NoData(f"cannot open {path}: {exc}") from None

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read (``server.store.store_port.ReadPort``)."""
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise NoData(f"cannot read {self.path}: {exc}") from None

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()

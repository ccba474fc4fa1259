"""The tournament tables: SQLite's migration to version 5, and its PostgreSQL twin with the same columns."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from server.store.postgres import pg_schema
from server.store.sqlite import sqlite_schema as schema
from server.store.sqlite.sqlite_store import open_database

TABLES = ("tournaments", "tournament_log")


def _sqlite_columns(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """The columns of the tournament tables, in order."""
    return {table: [row[1] for row in conn.execute(f"PRAGMA table_info({table})")] for table in TABLES}


def test_a_version_4_database_migrates_to_5_keeping_its_rows(tmp_path: Path) -> None:
    """A database written at version 4 gains the tournament tables and keeps its players."""
    path = tmp_path / "sprtec.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for script in schema.MIGRATIONS[:4]:
        conn.executescript(script)
    conn.execute("PRAGMA user_version = 4")
    conn.execute("INSERT INTO players (name, token_hash, created_at) VALUES ('ann', 'h', 0)")
    conn.close()
    open_database(tmp_path)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION >= 5
        assert conn.execute("SELECT name FROM players").fetchall() == [("ann",)]
        columns = _sqlite_columns(conn)
    finally:
        conn.close()
    assert columns["tournament_log"] == ["tournament_id", "idx", "kind", "body", "actor", "at"]
    assert columns["tournaments"] == ["id", "name", "secret_hash", "snapshot", "events", "status", "created_at"]


async def test_the_postgresql_twin_has_the_same_tournament_columns(postgres_url: str) -> None:
    """At version 5 PostgreSQL's tournament tables have SQLite's columns."""
    conn = await asyncpg.connect(postgres_url)
    try:
        await pg_schema.migrate(conn, target=5)
        rows = await conn.fetch("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = "
                                "'public' ORDER BY ordinal_position")
    finally:
        await conn.close()
    found: dict[str, list[str]] = {}
    for row in rows:
        if row["table_name"] in TABLES:
            found.setdefault(row["table_name"], []).append(row["column_name"])
    memory = sqlite3.connect(":memory:")
    for script in schema.MIGRATIONS[:5]:
        memory.executescript(script)
    assert found == _sqlite_columns(memory)

"""The shared store's PostgreSQL schema on a real PostgreSQL: migrations from empty and from version 1, once each."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import asyncpg
import pytest

from server.store.postgres import pg_schema
from server.store.sqlite import sqlite_schema as schema

TABLES = ("players", "rooms", "matches", "checkpoints", "match_log", "meta")


async def _columns(conn: asyncpg.Connection) -> dict[str, set[str]]:
    """The columns of the store's tables that exist in the PostgreSQL database."""
    rows = await conn.fetch(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'"
    )
    found: dict[str, set[str]] = {}
    for row in rows:
        if row["table_name"] in TABLES:
            found.setdefault(row["table_name"], set()).add(row["column_name"])
    return found


def _sqlite_columns(steps: int) -> dict[str, set[str]]:
    """The columns of the SQLite store's tables after its first ``steps`` migrations."""
    conn = sqlite3.connect(":memory:")
    try:
        for script in schema.MIGRATIONS[:steps]:
            conn.executescript(script)
        found: dict[str, set[str]] = {}
        for table in TABLES:
            columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            if columns:
                found[table] = columns
        return found
    finally:
        conn.close()


async def _applied(conn: asyncpg.Connection) -> list[int]:
    """The versions recorded in schema_migrations, in order."""
    return [row["version"] for row in await conn.fetch("SELECT version FROM schema_migrations ORDER BY version")]


async def test_an_empty_database_migrates_to_the_latest_version(postgres_url: str) -> None:
    """From nothing, every step runs once: the version is the latest and each step has its row."""
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await pg_schema.version(conn) == 0
        assert await pg_schema.migrate(conn) == 0
        assert await pg_schema.version(conn) == pg_schema.VERSION
        assert await _applied(conn) == list(range(1, pg_schema.VERSION + 1))
        assert set(await _columns(conn)) == set(TABLES)
    finally:
        await conn.close()


async def test_every_version_has_the_sqlite_stores_tables_and_columns(postgres_url: str) -> None:
    """At each version the PostgreSQL tables and columns are the SQLite store's, so both stores hold the same data."""
    assert len(pg_schema.MIGRATIONS) == len(schema.MIGRATIONS)
    conn = await asyncpg.connect(postgres_url)
    try:
        for step in range(1, pg_schema.VERSION + 1):
            await pg_schema.migrate(conn, target=step)
            assert await _columns(conn) == _sqlite_columns(step), f"version {step}"
    finally:
        await conn.close()


async def test_a_database_at_version_1_migrates_to_the_latest_keeping_its_rows(postgres_url: str) -> None:
    """Rows written at version 1 survive the later steps; the new columns are empty and the new table exists."""
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await pg_schema.migrate(conn, target=1) == 0
        assert await pg_schema.version(conn) == 1
        home = await conn.fetchval(
            "INSERT INTO players (name, token_hash, created_at) VALUES ('Jana', 'h1', 1.5) RETURNING id"
        )
        away = await conn.fetchval(
            "INSERT INTO players (name, token_hash, created_at) VALUES ('Petr', 'h2', 2.5) RETURNING id"
        )
        await conn.execute(
            "INSERT INTO matches (id, room_code, seed, ruleset, overrides, initial_position, home_player, away_player,"
            " version_base, started_at) VALUES ('m1', 'ABCD', 7, 'quick', '{}', '{\"x\": 1}', $1, $2, 3, 10.0)",
            home,
            away,
        )
        await conn.execute(
            "INSERT INTO match_log (match_id, idx, kind, team, action, elapsed_ms) VALUES ('m1', 0, 'action', 'home',"
            ' \'{"stone": "a3"}\', 1200)'
        )
        with pytest.raises(asyncpg.UndefinedTableError):
            await conn.execute("SELECT * FROM meta")

        assert await pg_schema.migrate(conn) == 1
        assert await pg_schema.version(conn) == pg_schema.VERSION
        assert await _applied(conn) == list(range(1, pg_schema.VERSION + 1))
        match = await conn.fetchrow("SELECT home_player, seed, score_home, score_away, finished_at FROM matches")
        assert match is not None and tuple(match) == (home, 7, None, None, None)
        assert await conn.fetchval("SELECT last_seen FROM players WHERE id = $1", away) is None
        entry = await conn.fetchrow("SELECT kind, team, action, elapsed_ms FROM match_log WHERE match_id = 'm1'")
        assert entry is not None and tuple(entry) == ("action", "home", '{"stone": "a3"}', 1200)
        await conn.execute("INSERT INTO meta (key, value) VALUES ('id', 'x')")
        indexes = {row["indexname"] for row in await conn.fetch("SELECT indexname FROM pg_indexes")}
        assert {"matches_by_home", "matches_by_away"} <= indexes
    finally:
        await conn.close()


async def test_migrating_an_up_to_date_database_changes_nothing(postgres_url: str) -> None:
    """A second migrate finds the latest version and records no step again."""
    conn = await asyncpg.connect(postgres_url)
    try:
        await pg_schema.migrate(conn)
        assert await pg_schema.migrate(conn) == pg_schema.VERSION
        assert await _applied(conn) == list(range(1, pg_schema.VERSION + 1))
    finally:
        await conn.close()


async def test_nodes_starting_together_apply_each_step_once(postgres_url: str) -> None:
    """Four connections migrating one empty database at once all succeed, and every step is applied exactly once."""
    conns = [await asyncpg.connect(postgres_url) for _ in range(4)]
    try:
        found = await asyncio.gather(*(pg_schema.migrate(conn) for conn in conns))
        assert found.count(0) == 1  # the first to take the lock found it empty; the others found steps done
        assert await _applied(conns[0]) == list(range(1, pg_schema.VERSION + 1))
    finally:
        for conn in conns:
            await conn.close()


async def test_a_database_from_a_newer_program_is_refused_untouched(postgres_url: str) -> None:
    """A version past this program's raises SchemaTooNew and applies nothing."""
    conn = await asyncpg.connect(postgres_url)
    try:
        await pg_schema.migrate(conn, target=1)
        await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", pg_schema.VERSION + 1)
        with pytest.raises(pg_schema.SchemaTooNew, match="upgrade sprtec"):
            await pg_schema.migrate(conn)
        assert await _applied(conn) == [1, pg_schema.VERSION + 1]
        with pytest.raises(asyncpg.UndefinedTableError):
            await conn.execute("SELECT * FROM meta")
    finally:
        await conn.close()


async def test_a_failing_step_leaves_the_database_at_the_version_before(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step that fails halfway is rolled back whole, its version not recorded."""
    broken = "CREATE TABLE half_done (x INTEGER); ALTER TABLE no_such_table ADD COLUMN y INTEGER;"
    monkeypatch.setattr(pg_schema, "MIGRATIONS", (*pg_schema.MIGRATIONS, broken))
    monkeypatch.setattr(pg_schema, "VERSION", len(pg_schema.MIGRATIONS))
    conn = await asyncpg.connect(postgres_url)
    try:
        with pytest.raises(asyncpg.UndefinedTableError):
            await pg_schema.migrate(conn, target=pg_schema.VERSION)
        assert await pg_schema.version(conn) == pg_schema.VERSION - 1
        assert await conn.fetchval("SELECT to_regclass('half_done')") is None
    finally:
        await conn.close()


async def test_json_columns_keep_their_text_byte_for_byte(postgres_url: str) -> None:
    """A position with -0.0 and unsorted keys reads back as written (jsonb would turn it into 0 and reorder it)."""
    position = json.dumps({"z": -0.0, "a": [0.1, 1e-300, 12345678.901234567]})
    conn = await asyncpg.connect(postgres_url)
    try:
        await pg_schema.migrate(conn)
        home = await conn.fetchval(
            "INSERT INTO players (name, token_hash, created_at) VALUES ('a', 'h', 0) RETURNING id"
        )
        await conn.execute(
            "INSERT INTO matches (id, room_code, seed, ruleset, overrides, initial_position, home_player, away_player,"
            " version_base, started_at) VALUES ('m', 'R', 1, 'quick', '{}', $1, $2, $2, 0, 0)",
            position,
            home,
        )
        assert await conn.fetchval("SELECT initial_position FROM matches") == position
    finally:
        await conn.close()


async def test_a_log_entry_needs_a_stored_match(postgres_url: str) -> None:
    """A match_log row or checkpoint of a match nobody stored is refused (a node's bug caught by the database)."""
    conn = await asyncpg.connect(postgres_url)
    try:
        await pg_schema.migrate(conn)
        with pytest.raises(asyncpg.ForeignKeyViolationError):
            await conn.execute(
                "INSERT INTO match_log (match_id, idx, kind, elapsed_ms) VALUES ('missing', 0, 'elapse', 0)"
            )
        with pytest.raises(asyncpg.ForeignKeyViolationError):
            await conn.execute(
                "INSERT INTO checkpoints (match_id, idx, position, turn_used) VALUES ('missing', 20, '{}', 0)"
            )
    finally:
        await conn.close()


async def test_an_unknown_target_version_is_refused(postgres_url: str) -> None:
    """Asking for a version this program does not know raises before touching the database."""
    conn = await asyncpg.connect(postgres_url)
    try:
        with pytest.raises(ValueError, match="no schema version"):
            await pg_schema.migrate(conn, target=pg_schema.VERSION + 1)
        assert await pg_schema.version(conn) == 0
    finally:
        await conn.close()

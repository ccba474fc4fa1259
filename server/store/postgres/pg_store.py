"""The shared store on PostgreSQL (asyncpg): the SQLite store's operations, for several server processes at once.

Why behind the same port as the SQLite store (``server.store.store_port.Store``: awaited writes, synchronous reads)
rather than an asynchronous interface for both: the server reads the store synchronously in some thirty places (the
lobby, the players, recovery, tournaments), and making all of them await would touch most of the server while other
work goes on in it. So asyncpg runs on an event loop of its own in one thread: writes are queued to it and committed as
group commits by the same machine as SQLite's (``server.store.group_commit``, on its event-loop driver
``server.store.commit_drivers.LoopWriter``: one transaction, a savepoint per job), and the awaiting coroutine resumes
after the commit; a read waits for its answer, which on loopback or a LAN takes a fraction
of a millisecond to a millisecond. The statements are the SQLite store's, translated by
``server.store.postgres.pg_dialect``.

What counts as the store failing (a lost connection, the server shutting down, no space): the batch is retried on a
fresh connection with growing pauses while the health listeners hear the store is unavailable (the machine's policy,
the same for both stores). A statement refused for its own data (a constraint, a bad value) fails its own job only;
a constraint's refusal is the store's ``ConstraintViolation``, worded like SQLite's, as from either store.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections.abc import Coroutine, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

import asyncpg

from server.constants import STORE_CLOSE_TIMEOUT_S, WRITER_BATCH
from server.store import hash_key, match_reads
from server.store.commit_drivers import LoopWriter
from server.store.group_commit import Answer, Failure, Job, Outcome
from server.store.name_keys import RULE_KEY, keys_for
from server.store.postgres import pg_dialect, pg_schema
from server.store.store_base import StoreBase
from server.store.store_port import ConstraintViolation, StaleLease, Statement, StoreUnavailable
from server.tokens import Hasher
from shared.names import NAME_RULE

__all__ = ["ConstraintViolation", "PgStore", "StaleLease"]
log = logging.getLogger(__name__)
T = TypeVar("T")
READ_CONNECTIONS = 4  # reads at once (the event loop's, and the threads' of replays and exports)
READ_TIMEOUT_S = 30.0  # a read that takes longer than this is a store that has stopped answering
_STATEMENT_FAULTS = ("22", "23", "42")  # SQLSTATE classes of a statement's own fault: data, constraint, syntax


# The fencing of a cluster's rooms (``server.cluster.redis_registry``): the highest lease number drawn for each room,
# the drawing of the next one, and a check every write of a room runs first in its transaction. The row lock they
# take orders a room's writers and its takeovers; a number below the stored one is a former owner, refused. The
# numbers are drawn here, where they are enforced, so they only ever grow - Redis forgets counters when it restarts
# without persistence. Created beside the migrations (not a schema version: the SQLite store of one process has no
# use for it), under the migrations' lock.
FENCE_OBJECTS = """
CREATE TABLE IF NOT EXISTS room_fences (code TEXT PRIMARY KEY, fence BIGINT NOT NULL);
CREATE OR REPLACE FUNCTION sprtec_take_fence(room TEXT) RETURNS BIGINT LANGUAGE sql AS $$
    INSERT INTO room_fences AS f (code, fence) VALUES (room, 1)
        ON CONFLICT (code) DO UPDATE SET fence = f.fence + 1 RETURNING f.fence
$$;
CREATE OR REPLACE FUNCTION sprtec_fence(room TEXT, lease BIGINT) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE held BIGINT;
BEGIN
    INSERT INTO room_fences AS f (code, fence) VALUES (room, lease)
        ON CONFLICT (code) DO UPDATE SET fence = GREATEST(f.fence, EXCLUDED.fence) RETURNING f.fence INTO held;
    IF held > lease THEN
        RAISE EXCEPTION 'stale lease % of room % (the room is held under lease %)', lease, room, held
            USING ERRCODE = 'SPF01';
    END IF;
END $$;
"""
STALE_LEASE = "SPF01"  # the SQLSTATE of a refused former owner


def _is_store_fault(exc: BaseException) -> bool:
    """True for faults of the store itself (connection, resources, shutdown), not of one statement's data."""
    if isinstance(exc, asyncpg.PostgresError):
        return exc.sqlstate != STALE_LEASE and str(exc.sqlstate or "")[:2] not in _STATEMENT_FAULTS
    return isinstance(exc, OSError | asyncpg.InterfaceError | TimeoutError)


def _statement_error(exc: asyncpg.PostgresError) -> BaseException:
    """A statement's own fault as the store's callers know it."""
    if exc.sqlstate == STALE_LEASE:
        return StaleLease(str(exc))
    if isinstance(exc, asyncpg.UniqueViolationError):
        return ConstraintViolation(f"UNIQUE constraint failed: {exc.constraint_name} ({exc})")
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return ConstraintViolation(f"constraint failed: {exc}")
    return exc


async def _prepare_connection(conn: asyncpg.Connection) -> None:
    """Flags go in as the SQLite store writes them (0/1 or bools) and come back as bools."""
    await conn.set_type_codec("bool", schema="pg_catalog", format="text",
                              encoder=lambda value: "t" if value else "f", decoder=lambda text: text == "t")


class _LoopThread:
    """An event loop running in a thread of its own, where every asyncpg call of the store runs."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="postgres-store", daemon=True)
        self._thread.start()

    def submit(self, coroutine: Coroutine[Any, Any, T]) -> Future[T]:
        """Run ``coroutine`` on the store's loop."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float = READ_TIMEOUT_S) -> T:
        """Run ``coroutine`` on the store's loop and wait for its result (never from the store's own loop)."""
        return self.submit(coroutine).result(timeout)

    def stop(self) -> None:
        """Stop the loop and its thread."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(STORE_CLOSE_TIMEOUT_S)
        if not self._thread.is_alive():
            self.loop.close()


class _Reader:
    """Reads on a pool of connections, answered synchronously (the store's ``read``) or awaited (its own SQL)."""

    def __init__(self, thread: _LoopThread, pool: asyncpg.Pool) -> None:
        self._thread = thread
        self._pool = pool

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one read (the store's SQL, translated) and wait for its rows."""
        try:
            return self._thread.call(self._fetch(pg_dialect.translate(sql), tuple(params)))
        except Exception as exc:
            if _is_store_fault(exc):
                raise StoreUnavailable(f"the database does not answer: {exc}") from exc
            raise

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement in PostgreSQL's own dialect from the caller's event loop (it runs on the store's)."""
        try:
            return await asyncio.wrap_future(self._thread.submit(self._fetch(sql, tuple(params))))
        except Exception as exc:
            if _is_store_fault(exc):
                raise StoreUnavailable(f"the database does not answer: {exc}") from exc
            raise

    async def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The rows as tuples."""
        async with self._pool.acquire() as conn:
            return [tuple(row) for row in await conn.fetch(sql, *params)]

    def close(self) -> None:
        """Close the pool's connections."""
        self._thread.call(self._pool.close(), STORE_CLOSE_TIMEOUT_S)


class _Transactions:
    """The store's one writing connection: how PostgreSQL commits a batch for the group-commit machine
    (``server.store.commit_drivers.LoopWriter``), on the store's loop."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._conn: asyncpg.Connection | None = None

    async def commit(self, batch: tuple[Job, ...]) -> Answer:
        """One transaction for the batch, a savepoint per job; a ``Failure`` when the store itself failed."""
        try:
            if self._conn is None or self._conn.is_closed():
                self._conn = await asyncpg.connect(self._url)
                await _prepare_connection(self._conn)
            conn = self._conn
            outcomes: list[Outcome] = []
            async with conn.transaction():
                for statements, _ in batch:
                    try:
                        async with conn.transaction():  # a savepoint: a job that fails leaves the others
                            outcomes.append([await self._execute(conn, sql, params) for sql, params in statements])
                    except asyncpg.PostgresError as exc:
                        if _is_store_fault(exc):
                            raise
                        outcomes.append(_statement_error(exc))
        # InternalClientError: the connection broke mid-operation and asyncpg cannot use it again ("cannot switch to
        # state 15; another operation (2) is in progress", seen when the server terminated it during a commit)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.exceptions.InternalClientError, OSError,
                TimeoutError) as exc:
            broken, self._conn = self._conn, None  # forgotten: the next attempt opens a fresh one
            if broken is not None:
                broken.terminate()
            return Failure(str(exc))
        return outcomes

    @staticmethod
    async def _execute(conn: asyncpg.Connection, sql: str, params: Sequence[Any]) -> int:
        """Run one statement; its generated id when it inserts into a table that has one (SQLite's lastrowid)."""
        translated = pg_dialect.translate(sql)
        if pg_dialect.returns_id(sql):
            return int(await conn.fetchval(translated + " RETURNING id", *params))
        await conn.execute(translated, *params)
        return 0

    async def close(self) -> None:
        """Close the writing connection (the writer has stopped)."""
        if self._conn is not None:
            await self._conn.close(timeout=STORE_CLOSE_TIMEOUT_S)
            self._conn = None


async def open_database(url: str, migrate: bool = True) -> tuple[asyncpg.Pool, bytes]:
    """Migrate the database at ``url`` (``server.store.postgres.pg_schema``), give it an id, and open the read pool;
    ``migrate`` False (a report, an export) opens the pool only and changes nothing. Also returns the cluster's hash
    key (``server.store.hash_key``; a read-only store of an older database gets one of its own, which checks
    nothing: it is never asked to)."""
    key = await _migrate(url) if migrate else None
    pool = await asyncpg.create_pool(url, min_size=1, max_size=READ_CONNECTIONS, init=_prepare_connection)
    assert pool is not None
    if key is None:
        async with pool.acquire() as conn:
            found = await conn.fetchval("SELECT value FROM meta WHERE key = $1", hash_key.META_KEY)
        key = bytes.fromhex(found) if isinstance(found, str) else hash_key.new_key()
    return pool, key


async def _migrate(url: str) -> bytes:
    """The schema's migrations, the fencing objects, the database's id and the hash key (made by the first node,
    read by the others); returns the key."""
    conn = await asyncpg.connect(url)
    try:
        await pg_schema.migrate(conn)
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", pg_schema.MIGRATION_LOCK)
            await conn.execute(FENCE_OBJECTS)
            key = await _keyed_hashes(conn)
        await conn.execute("INSERT INTO meta (key, value) VALUES ('id', $1) ON CONFLICT (key) DO NOTHING",
                           str(uuid.uuid4()))
        await rekey_names(conn)
    finally:
        await conn.close()
    return key


async def _keyed_hashes(conn: asyncpg.Connection) -> bytes:
    """The cluster's hash key, after the database's hashes are keyed with it (an older database's bare hashes are
    rehashed once, ``server.store.hash_key``). Runs under the migrations' lock: one node does it, the others find
    it done."""
    await conn.execute("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                       hash_key.META_KEY, hash_key.new_key().hex())
    key = bytes.fromhex(await conn.fetchval("SELECT value FROM meta WHERE key = $1", hash_key.META_KEY))
    if await conn.fetchval("SELECT value FROM meta WHERE key = $1", hash_key.SCHEME_KEY) is not None:
        return key
    rows: dict[str, list[tuple[Any, ...]]] = {}
    for sql in hash_key.reads():
        rows[sql] = [tuple(r) for r in await conn.fetch(pg_dialect.translate(sql))]
    for sql, params in hash_key.rehash(lambda q, _a: rows[q], key):
        await conn.execute(pg_dialect.translate(sql), *params)
    await conn.execute("INSERT INTO meta (key, value) VALUES ($1, $2)", hash_key.SCHEME_KEY, hash_key.SCHEME)
    return key


async def rekey_names(conn: asyncpg.Connection) -> None:
    """Compute every player's name keys again when they were computed under another name rule
    (``server.store.name_keys``): once, by one node, under the migrations' lock, in one transaction."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", pg_schema.MIGRATION_LOCK)
        if await conn.fetchval("SELECT value FROM meta WHERE key = $1", RULE_KEY) == NAME_RULE:
            return
        rows = await conn.fetch("SELECT id, name FROM players")
        keyed = keys_for((int(row["id"]), str(row["name"])) for row in rows)
        await conn.execute("UPDATE players SET name_key = NULL, name_shape = NULL")
        await conn.executemany("UPDATE players SET name_key = $1, name_shape = $2 WHERE id = $3",
                               [(k.key, k.shape, k.player_id) for k in keyed if k.key is not None])
        await conn.execute("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET"
                           " value = excluded.value", RULE_KEY, NAME_RULE)


class PgStore(StoreBase):
    """The store of a server process in a cluster: the same operations as the SQLite store, on PostgreSQL."""

    def __init__(self, url: str, migrate: bool = True) -> None:
        """The store on the database at ``url``; ``migrate`` False: for reading only (a writer connects on the first
        write, so none is opened)."""
        self.url = url
        self._thread = _LoopThread()
        try:
            pool, key = self._thread.call(open_database(url, migrate))
        except BaseException:
            self._thread.stop()
            raise
        self.hasher = Hasher(key)  # the cluster's: every node hashes alike (server.store.hash_key)
        self._reader = _Reader(self._thread, pool)
        transactions = _Transactions(url)
        super().__init__(LoopWriter(self._thread.loop, transactions.commit, WRITER_BATCH, transactions.close))
        # Room code -> the lease number this node writes it under. None: the store of one process, whose rooms are
        # all its own (nothing is fenced); a cluster node gives it its registry's table (``server.cluster.node``).
        self.fences: dict[str, int] | None = None

    def fenced(self, code: str, statements: list[Statement]) -> list[Statement]:
        """The statements after the fence check of this node's lease of room ``code`` (``FENCE_OBJECTS``).

        Raises StaleLease for a room whose lease this node does not hold (it lost it, or never took it): such a write
        is refused here, not sent unfenced - a node that has just learnt it lost a room must not write it after all.
        """
        if self.fences is None:
            return statements
        fence = self.fences.get(code)
        if fence is None:
            raise StaleLease(f"this node holds no lease of room {code}")
        return [("SELECT sprtec_fence(?, ?)", (code, fence)), *statements]

    def new_player_id(self) -> int:
        """An id for a player not stored yet, from the players' identity sequence: unique across the nodes."""
        return int(self.read("SELECT nextval(pg_get_serial_sequence('players', 'id'))")[0][0])

    async def draw_fences(self, codes: list[str]) -> dict[str, int]:
        """The next fencing number of each of ``codes``, raised in the store at once (one statement): from then on a
        write carrying an older number - the room's former owner's - is refused. A takeover draws before it reads the
        room, so it sees every write the former owner committed, and the former owner can commit nothing after."""
        if not codes:
            return {}
        rows = await self._reader.fetch("SELECT code, sprtec_take_fence(code) FROM unnest($1::text[]) AS code",
                                      (sorted(codes),))  # sorted: two nodes drawing together lock rows in one order
        return {str(code): int(fence) for code, fence in rows}

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read on the read pool (safe from any thread but the store's own)."""
        return self._reader.read(sql, params)

    def read_match(self, match: str) -> match_reads.StoredMatch:
        """A match as its export reads it, on the read pool (safe from any thread)."""
        return match_reads.read_match_from(self, match, "the PostgreSQL store")

    def close(self, timeout_s: float = STORE_CLOSE_TIMEOUT_S) -> None:
        """Finish every queued write, close the connections and stop the store's thread."""
        self._writer.close(timeout_s)
        self._reader.close()
        self._thread.stop()

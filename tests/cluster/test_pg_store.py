"""The PostgreSQL store on a real PostgreSQL: the SQLite dialect translated, a lost connection survived, a log kept
byte for byte."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import asyncpg
import pytest

from benchmarks import local_services as servers
from server.store import match_statements
from server.store.match_records import MatchStart, RoomRow
from server.store.player_records import PlayerRecords
from server.store.postgres import pg_dialect
from server.store.postgres.pg_store import PgStore, StaleLease
from server.store.store_port import Store
from server.tokens import bare_hash
from shared.formation import basic_setup
from shared.match_log import LogEntry
from shared.model import Flick, Position


def test_the_dialect_numbers_placeholders_and_turns_flags_into_booleans() -> None:
    """``?`` become ``$n`` in order; flag columns compared with 0/1 become FALSE/TRUE; other numbers stay."""
    sql = "UPDATE claim_codes SET used = 1 WHERE code_hash = ? AND m.finished = 0 AND idx = 1 AND x > ?"
    assert pg_dialect.translate(sql) == (
        "UPDATE claim_codes SET used = TRUE WHERE code_hash = $1 AND m.finished = FALSE AND idx = 1 AND x > $2"
    )
    assert pg_dialect.translate("VALUES (?, last_insert_rowid(), ?)") == "VALUES ($1, lastval(), $2)"
    assert pg_dialect.returns_id("INSERT INTO players (name) VALUES (?)")
    assert not pg_dialect.returns_id("INSERT INTO player_tokens (token_hash) VALUES (?)")


async def _start(store: Store, player: int) -> str:
    """A stored match of ``player`` against himself: its id."""
    start = MatchStart(match_id="aaaaaaaaaaaa", room_code="ROOM", seed=2**62, ruleset="quick", overrides={},
                       initial=Position(stones=basic_setup()), home_player=player, away_player=player,
                       version_base=1)
    await store.write([match_statements.add_match(start)])
    return start.match_id


async def test_a_log_entry_is_read_back_bit_for_bit_negative_zero_included(postgres_url: str) -> None:
    """JSON columns are text: a flick's -0.0 and a 63-bit seed come back exactly as written."""
    store = PgStore(postgres_url)
    try:
        player = store.new_player_id()
        await store.write(PlayerRecords.add_player(player, "ann", "ann", bare_hash("t")))
        match_id = await _start(store, player)
        entry = LogEntry(index=0, elapsed_ms=7, input=Flick(team="home", stone="H1", vx=-0.0, vy=1e-300))
        await store.write([match_statements.append_log(match_id, entry)])
        (read,) = store.log(match_id)
        assert read == entry and str(read.input.vx) == "-0.0"  # type: ignore[union-attr]
        stored = store.match(match_id)
        assert stored is not None and stored.seed == 2**62 and not stored.finished
    finally:
        store.close()


async def test_a_database_refusing_connections_pauses_writes_and_loses_none(
    postgres_url: str, postgres_server: servers.Running
) -> None:
    """The store's connections are cut and the database refuses new ones: the store reports unavailable and retries;
    once it accepts connections again every waiting write is committed and the store reports healthy."""
    store = PgStore(postgres_url)
    heard: list[bool] = []
    store.listen(lambda health: heard.append(health.ok))
    database = postgres_url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(postgres_server.url)
    try:
        player = store.new_player_id()
        await store.write(PlayerRecords.add_player(player, "ann", "ann", bare_hash("t")))
        names = [f"p{i}" for i in range(20)]
        ids = [store.new_player_id() for _ in names]  # ids come from a read: before the database refuses them
        await admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS false')
        await admin.execute("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = $1",
                            database)  # waits until each backend is gone
        writes = asyncio.gather(*(store.write(PlayerRecords.add_player(i, n, n, bare_hash(n)))
                                  for i, n in zip(ids, names, strict=True)))
        for _ in range(200):
            if heard:
                break
            await asyncio.sleep(0.05)
        assert heard == [False] and not store.health.ok and not writes.done()
        await admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS true')
        results = await asyncio.wait_for(writes, 30)
        assert all(ids[0] > player for ids in results)
        records = PlayerRecords(store)
        assert all(records.by_name_key(name) is not None for name in names)
        for _ in range(200):  # the recovery is announced from the store's thread: it reaches this loop soon after
            if len(heard) > 1:
                break
            await asyncio.sleep(0.05)
        assert heard == [False, True] and store.health.ok
    finally:
        await admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS true')
        await admin.close()
        store.close()


async def test_a_former_owners_write_is_refused_once_a_newer_lease_wrote_the_room(postgres_url: str) -> None:
    """Node 1 writes room R under lease 1; node 2 takes it over under lease 2; node 1's next write fails with
    StaleLease and changes nothing, node 2's goes through."""
    first, second = PgStore(postgres_url), PgStore(postgres_url)
    try:
        room = RoomRow(code="R", ruleset="quick", overrides={}, private=True, home_player=None, away_player=None,
                       match_id=None)
        first.fences, second.fences = {"R": 1}, {"R": 2}
        await first.write(first.fenced("R", [match_statements.save_room(room)]))
        await second.write(second.fenced("R", []))  # the takeover raises the fence before reading the room
        with pytest.raises(StaleLease):
            await first.write(first.fenced("R", [match_statements.save_room(replace(room, ruleset="standard"))]))
        assert [r.ruleset for r in second.rooms()] == ["quick"]
        await second.write(second.fenced("R", [match_statements.save_room(replace(room, ruleset="standard"))]))
        assert [r.ruleset for r in first.rooms()] == ["standard"]
    finally:
        first.close()
        second.close()


async def test_a_cluster_store_refuses_a_room_write_without_a_lease_instead_of_writing_it_unfenced(
    postgres_url: str,
) -> None:
    """A node's store (fenced: it has a table of leases) asked to write a room whose lease it does not hold - it lost
    it a moment ago, and forgot the number - refuses at once with StaleLease and writes nothing; the store of one
    process (no table) writes its rooms unfenced as before."""
    node, alone = PgStore(postgres_url), PgStore(postgres_url)
    try:
        node.fences = {}
        room = RoomRow(code="LOST", ruleset="quick", overrides={}, private=True, home_player=None, away_player=None,
                       match_id=None)
        with pytest.raises(StaleLease, match="holds no lease of room LOST"):
            await node.write(node.fenced("LOST", [match_statements.save_room(room)]))
        assert node.rooms() == []
        await alone.write(alone.fenced("LOST", [match_statements.save_room(room)]))
        assert [r.code for r in node.rooms()] == ["LOST"]
    finally:
        node.close()
        alone.close()


async def test_fencing_numbers_are_drawn_from_the_store_and_only_grow(postgres_url: str) -> None:
    """Each draw gives a room the next number (1 for a code never drawn), several rooms in one statement; a write
    under the number before the last draw is refused - whatever a Redis forgot, the store's numbers never go back."""
    first, second = PgStore(postgres_url), PgStore(postgres_url)
    try:
        assert await first.draw_fences(["B", "A"]) == {"A": 1, "B": 1}
        assert await second.draw_fences(["A"]) == {"A": 2}
        assert await first.draw_fences([]) == {}
        first.fences, second.fences = {"A": 1}, {"A": 2}
        room = RoomRow(code="A", ruleset="quick", overrides={}, private=True, home_player=None, away_player=None,
                       match_id=None)
        with pytest.raises(StaleLease):
            await first.write(first.fenced("A", [match_statements.save_room(room)]))
        await second.write(second.fenced("A", [match_statements.save_room(room)]))
        assert await first.draw_fences(["A"]) == {"A": 3}
        with pytest.raises(StaleLease):
            await second.write(second.fenced("A", [match_statements.save_room(replace(room, ruleset="standard"))]))
        assert [r.ruleset for r in first.rooms()] == ["quick"]
    finally:
        first.close()
        second.close()

"""The server's small parts: history, token bucket, fake clock, tokens and codes, the store."""

from __future__ import annotations

import asyncio

from server.clock import FakeClock
from server.connections.ratelimit import TokenBucket
from server.rooms.history import History
from server.store import match_statements, position_blob
from server.store.match_records import MatchStart, RoomRow
from server.store.player_records import PlayerRecords
from server.store.store_port import ConstraintViolation
from server.tokens import CODE_ALPHABET, bare_hash, new_room_code, new_secret, normalise_code
from shared.formation import basic_setup
from shared.match_log import LogEntry
from shared.model import Count, Position


def test_history_returns_exactly_the_missing_messages():
    """A client at version v gets the messages after v, in order."""
    history: History[str] = History(3)
    for name in "abcd":
        history.append(lambda v, name=name: f"{name}{v}")
    assert history.version == 4
    assert history.since(2) == ["c3", "d4"]
    assert history.since(4) == []


def test_history_answers_none_when_the_gap_is_older_than_the_window():
    """Messages that fell out of the window force a snapshot."""
    history: History[int] = History(2)
    for _ in range(5):
        history.append(lambda v: v)
    assert history.since(2) is None
    assert history.since(3) == [4, 5]


def test_token_bucket_allows_the_burst_then_the_refill_rate():
    """100 messages pass at once, the 101st is refused, and one more passes after 0.2 s."""
    now = [0.0]
    bucket = TokenBucket(100, 20.0, lambda: now[0])
    assert all(bucket.take() for _ in range(100))
    assert not bucket.take()
    now[0] += 0.2
    assert bucket.take()
    assert not bucket.take()


async def test_fake_clock_wakes_sleepers_in_deadline_order():
    """Sleepers wake when the clock passes their deadline, earliest first, and not before."""
    clock = FakeClock()
    woke: list[int] = []

    async def sleeper(deadline: int) -> None:
        await clock.sleep_until(deadline)
        woke.append(clock.now_ms())

    tasks = [asyncio.create_task(sleeper(d)) for d in (300, 100, 200)]
    await asyncio.sleep(0)
    await clock.advance(150)
    assert woke == [100]
    await clock.advance(1000)
    assert woke == [100, 200, 300]
    await asyncio.gather(*tasks)


def test_tokens_are_unique_and_codes_unambiguous():
    """Tokens differ and hash stably; codes use only the unambiguous alphabet."""
    a, b = new_secret(), new_secret()
    assert a != b and len(a) >= 40
    assert bare_hash(a) == bare_hash(a) != bare_hash(b)
    code = new_room_code(6)
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    assert normalise_code(" ac-d3 ") == "ACD3"


def test_a_secret_never_begins_with_a_dash_so_the_command_line_reads_it_after_secret():
    """One URL-safe secret in 64 began with "-", and ``sprtec organise --secret -…`` read it as an option; 2,000
    fresh secrets (about 31 would have) all begin otherwise, and each still reads as its value on a command line."""
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--secret")
    for _ in range(2000):
        secret = new_secret()
        assert not secret.startswith("-") and len(secret) >= 40
        assert parser.parse_args(["--secret", secret]).secret == secret


async def test_store_commits_before_the_write_returns_and_survives_reopening(open_store):
    """Rows written through the store's writer are there for a fresh connection after close (SQLite, PostgreSQL)."""
    store = open_store()
    player = store.new_player_id()
    await store.write(PlayerRecords.add_player(player, "ann", "ann", bare_hash("t")))
    room = RoomRow(code="ABC", ruleset="quick", overrides={"period_ms": 5000}, private=True, home_player=player,
                   away_player=None, match_id=None)
    await store.write([match_statements.save_room(room)])
    match_id = "m1"
    start = MatchStart(match_id=match_id, room_code="ABC", seed=7, ruleset="quick", overrides={},
                       initial=Position(stones=basic_setup()), home_player=player, away_player=player, version_base=1)
    await store.write([match_statements.add_match(start)])
    entries = [
        LogEntry(index=0, elapsed_ms=120, input=Count("home")),
        LogEntry(index=1, elapsed_ms=5),
    ]
    await store.write([match_statements.append_log(match_id, e) for e in entries])
    store.close()
    again = open_store()
    try:
        assert PlayerRecords(again).by_token_hash(bare_hash("t")) == (player, "ann")
        assert again.rooms()[0].overrides == {"period_ms": 5000}
        assert again.log(match_id) == entries
        stored = again.match(match_id)
        assert stored is not None and stored.seed == 7 and stored.version_base == 1
    finally:
        again.close()


# a statement both dialects run for a good fraction of a second: the writer is busy while a test's jobs arrive
_A_LONG_QUERY = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000) "
                 "SELECT count(*) FROM c",
                 ())


async def test_store_commits_the_entries_of_many_rooms_that_arrive_together_in_few_transactions(open_store):
    """Forty rooms' entries submitted at once are committed in a handful of group commits, each room's entry kept with
    the position it produced (SQLite, PostgreSQL)."""
    store = open_store()
    try:
        player = store.new_player_id()
        await store.write(PlayerRecords.add_player(player, "ann", "ann", bare_hash("t")))
        initial = Position(stones=basic_setup())
        matches = [f"{i:012x}" for i in range(40)]
        await store.write([match_statements.add_match(MatchStart(
            match_id=m, room_code=f"R{i}", seed=i, ruleset="quick", overrides={}, initial=initial, home_player=player,
            away_player=player, version_base=1)) for i, m in enumerate(matches)])
        before = store.commits
        entry = LogEntry(index=0, elapsed_ms=120, input=Count("home"))
        busy = asyncio.ensure_future(store.write([_A_LONG_QUERY]))  # the forty arrive while the writer commits this
        await asyncio.gather(*(store.write([match_statements.append_log(m, entry, position_blob.pack(initial), 7)])
                               for m in matches))
        await busy
        assert store.commits - before == 2  # the long query's, then one for the forty that queued behind it
        assert store.entries_of(matches) == {m: 1 for m in matches}
        assert {m: store.stored_positions(m) for m in matches} == {
            m: [(0, position_blob.pack(initial), 7)] for m in matches}
    finally:
        store.close()


async def test_store_a_failing_job_does_not_lose_the_others(open_store):
    """A constraint violation fails its own write only; the batch around it commits (SQLite, PostgreSQL)."""
    store = open_store()
    try:
        await store.write(PlayerRecords.add_player(store.new_player_id(), "a", "a", "same"))
        results = await asyncio.gather(
            store.write(PlayerRecords.add_player(store.new_player_id(), "b", "b", "same")),
            store.write(PlayerRecords.add_player(store.new_player_id(), "c", "c", "other")),
            return_exceptions=True,
        )
        assert isinstance(results[0], ConstraintViolation)
        assert isinstance(results[1], list)
        assert PlayerRecords(store).by_token_hash("other") is not None
    finally:
        store.close()

"""The data directory is the server's user's alone, and what it keeps of secrets is keyed: file modes whatever the
umask, the hash key, and an older data directory (world-readable, bare SHA-256 hashes) that keeps working."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.app import Server, ServerConfig
from server.store.hash_key import KEY_FILE, SCHEME_KEY
from server.store.sqlite.sqlite_store import DATABASE, MARKER, SqliteStore, StoreOpenError
from server.tokens import Hasher
from shared.protocol import (
    PROTOCOL_VERSION,
    ClaimCode,
    CloseCode,
    CreateTournament,
    EndTournament,
    GetClaimCode,
    Hello,
    JoinTournament,
    TournamentCreated,
    TournamentDone,
    TournamentJoined,
    Welcome,
)
from tests.server.players import WireClient, answer_to
from tests.tournament_server.helpers import expect, file_of


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The most permissive umask while the test runs (files would be created 0666, directories 0777)."""
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def _mode(path: Path) -> int:
    """A file's permission bits."""
    return stat.S_IMODE(path.stat().st_mode)


def _bare(secret: str) -> str:
    """The SHA-256 older servers stored of a secret."""
    return hashlib.sha256(secret.encode()).hexdigest()


async def _server(data: Path) -> Server:
    """A started in-process server on ``data``."""
    server = Server(ServerConfig(port=0, data_dir=data, workers=0))
    await server.start()
    await server.ready.wait()
    return server


async def test_the_data_directory_is_0700_and_every_file_in_it_0600_whatever_the_umask(tmp_path: Path,
                                                                                       open_umask: None) -> None:
    """Under umask 0 the data directory is 0700 and the database, its WAL and shared memory (made by SQLite while
    the server writes), the marker and the hash key are 0600."""
    data = tmp_path / "data"
    server = await _server(data)
    try:
        await WireClient.connect(server.url, "ann")  # a write: the WAL and the shared memory exist now
        files = sorted(p.name for p in data.iterdir())
        assert {DATABASE, f"{DATABASE}-wal", f"{DATABASE}-shm", MARKER, KEY_FILE} <= set(files)
        assert _mode(data) == 0o700
        assert {name: _mode(data / name) for name in files} == {name: 0o600 for name in files}
    finally:
        await server.shutdown()


async def test_a_world_readable_data_directory_of_an_older_server_is_made_private(tmp_path: Path) -> None:
    """A data directory left 0755 with 0644 files (what the server made under the usual umask) is 0700 with 0600
    files as soon as a server opens it."""
    data = tmp_path / "data"
    SqliteStore(data).close()
    os.chmod(data, 0o755)
    for path in data.iterdir():
        os.chmod(path, 0o644)
    SqliteStore(data).close()
    assert _mode(data) == 0o700
    assert all(_mode(path) == 0o600 for path in data.iterdir())


def test_the_hash_key_is_kept_in_the_data_directory_and_the_same_after_a_restart(tmp_path: Path) -> None:
    """A new data directory gets a random 256-bit key in its hash-key file; the next start hashes with it."""
    first = SqliteStore(tmp_path)
    first.close()
    key = bytes.fromhex((tmp_path / KEY_FILE).read_text())
    second = SqliteStore(tmp_path)
    second.close()
    assert len(key) == 32 and first.hasher == second.hasher == Hasher(key)
    other = SqliteStore(tmp_path / "other")
    other.close()
    assert other.hasher != first.hasher


def test_a_database_whose_hash_key_is_gone_is_refused_with_what_to_do(tmp_path: Path) -> None:
    """Without its key no stored token or code could be checked: the store refuses to open and names the file."""
    SqliteStore(tmp_path).close()
    (tmp_path / KEY_FILE).unlink()
    with pytest.raises(StoreOpenError, match=KEY_FILE):
        SqliteStore(tmp_path)


async def test_a_players_token_is_stored_as_an_hmac_under_the_servers_key(tmp_path: Path) -> None:
    """The players row holds HMAC-SHA-256(key, SHA-256(secret)), not the secret's bare SHA-256."""
    server = await _server(tmp_path / "data")
    try:
        ann = await WireClient.connect(server.url, "ann")
        player_id, secret = ann.token.split(".", 1)
        key = bytes.fromhex((tmp_path / "data" / KEY_FILE).read_text())
        with sqlite3.connect(server.config.data_dir / DATABASE) as conn:
            (stored,) = conn.execute("SELECT token_hash FROM players WHERE id = ?", (int(player_id),)).fetchone()
        assert stored == Hasher(key).hash(secret) and stored != _bare(secret)
    finally:
        await server.shutdown()


def _as_an_older_server_left_it(data: Path, secrets: dict[str, str]) -> None:
    """Rewrite a stopped server's data directory as servers before keyed hashes left it: every stored hash the bare
    SHA-256 of its secret (``secrets``: what each hash in the database hides, by the keyed hash now stored), no
    hash key, no scheme row, and the modes of the usual umask."""
    key = bytes.fromhex((data / KEY_FILE).read_text())
    hasher = Hasher(key)
    bare = {hasher.hash(secret): _bare(secret) for secret in secrets.values()}
    with sqlite3.connect(data / DATABASE) as conn:
        for table, column in (("players", "token_hash"), ("player_tokens", "token_hash"),
                              ("claim_codes", "code_hash"), ("tournaments", "secret_hash")):
            for (value,) in conn.execute(f"SELECT {column} FROM {table}").fetchall():
                conn.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (bare[value], value))
        for tid, idx, body in conn.execute("SELECT tournament_id, idx, body FROM tournament_log WHERE kind = "
                                           "'created'").fetchall():
            event = json.loads(body)
            event["code_hashes"] = {entry: bare[h] for entry, h in event["code_hashes"].items()}
            conn.execute("UPDATE tournament_log SET body = ? WHERE tournament_id = ? AND idx = ?",
                         (json.dumps(event, ensure_ascii=False, sort_keys=True), tid, idx))
        conn.execute("DELETE FROM meta WHERE key = ?", (SCHEME_KEY,))
    (data / KEY_FILE).unlink()
    os.chmod(data, 0o755)
    for path in data.iterdir():
        os.chmod(path, 0o644)


async def test_an_older_data_directory_keeps_every_token_and_code_working_once_rehashed(tmp_path: Path) -> None:
    """A database of bare SHA-256 hashes (a player's token, a claim code, an organiser secret, entry codes) is
    rehashed under a new key on start: the token is welcomed as its player, the claim code claims him, the secret
    ends the tournament, an entry code claims its entry - and no bare hash is left in the file."""
    data = tmp_path / "data"
    server = await _server(data)
    try:
        ann = await WireClient.connect(server.url, "ann")
        await ann.send(GetClaimCode())
        claim = await ann.until(ClaimCode)
        organiser = await WireClient.connect(server.url, "organiser")
        await organiser.send(CreateTournament(file=file_of(2)))
        created = await expect(organiser, TournamentCreated)
    finally:
        await server.shutdown()
    hasher = SqliteStore(data).hasher  # opened and closed at once: the key the secrets are hashed with now
    secrets = {"token": ann.token.split(".", 1)[1], "claim": claim.code, "secret": created.secret,
               "organiser": organiser.token.split(".", 1)[1], **{e.entry: e.code for e in created.entries}}
    assert hasher.hash(secrets["token"]) != _bare(secrets["token"])
    _as_an_older_server_left_it(data, secrets)

    server = await _server(data)
    try:
        again = await WireClient.connect(server.url, token=ann.token)
        assert again.welcome.player == "ann"
        moved = await answer_to(server.url, Hello(PROTOCOL_VERSION, "tests", claim=claim.code))
        assert isinstance(moved, Welcome) and moved.player == "ann"
        coach = await WireClient.connect(server.url, "coach")
        await coach.send(JoinTournament(created.tournament, created.entries[0].code))
        assert (await expect(coach, TournamentJoined)).entry == created.entries[0].entry
        boss = await WireClient.connect(server.url, token=organiser.token)
        await boss.send(EndTournament(created.tournament, created.secret, "done"))
        assert (await expect(boss, TournamentDone)).ref == "EndTournament"
        raw = (server.config.data_dir / DATABASE).read_bytes() + (data / f"{DATABASE}-wal").read_bytes()
        assert not any(_bare(secret).encode() in raw for secret in secrets.values())
        assert _mode(data) == 0o700 and _mode(data / KEY_FILE) == 0o600
    finally:
        await server.shutdown()


async def test_a_wrong_secret_still_fails_after_the_rehash(tmp_path: Path) -> None:
    """Keying the hashes accepts nothing new: a token with the right id and a wrong secret closes with 4002."""
    server = await _server(tmp_path / "data")
    try:
        ann = await WireClient.connect(server.url, "ann")
        player_id = ann.token.split(".", 1)[0]
        answer = await answer_to(server.url, Hello(PROTOCOL_VERSION, "tests", token=f"{player_id}.{'x' * 43}"))
        assert answer == CloseCode.BAD_TOKEN
    finally:
        await server.shutdown()


def test_an_older_cluster_database_is_rehashed_once_and_every_node_hashes_alike(postgres_url: str) -> None:
    """PostgreSQL holds a cluster's key: two stores on one database hash alike, a bare hash left by an older
    server becomes the keyed one, and opening again changes nothing."""
    import asyncio

    import asyncpg

    from server.store.postgres.pg_store import PgStore

    first = PgStore(postgres_url)
    first.close()

    async def make_old() -> None:
        conn = await asyncpg.connect(postgres_url)
        try:
            await conn.execute("INSERT INTO players (id, name, token_hash, created_at) VALUES (900, 'old', $1, 0)",
                               _bare("s3cret"))
            await conn.execute("DELETE FROM meta WHERE key = $1", SCHEME_KEY)
        finally:
            await conn.close()

    asyncio.run(make_old())
    second, third = PgStore(postgres_url), PgStore(postgres_url)
    try:
        assert first.hasher == second.hasher == third.hasher
        (stored,) = second.read("SELECT token_hash FROM players WHERE id = 900")[0]
        assert stored == second.hasher.hash("s3cret")
    finally:
        second.close()
        third.close()

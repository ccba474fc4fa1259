"""The server's hash key - where it lives, how it is made - and the one-time rehash of an older database's hashes.

Why a key of the server's own (``server.tokens.Hasher``): the store keeps every secret (tokens, claim codes,
organiser secrets, entry codes) as a hash, and codes of 8 characters are too few to hide behind a bare SHA-256.
Where the key lives decides who can reverse them:

- one server (SQLite): the file ``hash-key`` beside the database, 0600 in a 0700 directory (``KEY_FILE``), so a
  copy of ``sprtec.sqlite3`` alone - a backup, a file attached to a bug report - reveals no code;
- a cluster (PostgreSQL): a row of the ``meta`` table, made by the first node that starts (every node must hash
  alike, and the database is the one thing they all share); a dump of the database then holds the key too and must
  be kept like the database itself.

Older databases stored a bare SHA-256 of each secret. The key is applied to that SHA-256 (``keyed``), so
``rehash`` turns every stored hash into the keyed one without the secrets, once, in one transaction with the
``meta`` row that says it was done (``SCHEME``): every token, claim code, organiser secret and entry code keeps
working, and none stays in the weak form.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from server.tokens import keyed

KEY_FILE = "hash-key"  # in the data directory: 64 hex digits (32 random bytes) and a newline, 0600
KEY_BYTES = 32
SCHEME_KEY = "hashes"  # the meta row naming how the stored secrets are hashed ...
SCHEME = "hmac-sha256/1"  # ... once they are keyed (older databases have no such row: bare SHA-256)
META_KEY = "hash_key"  # the meta row holding a cluster's key (PostgreSQL), hex
PRIVATE_FILE = 0o600

Read = Callable[[str, tuple[Any, ...]], Sequence[tuple[Any, ...]]]  # a read of the database being rehashed
Statement = tuple[str, tuple[Any, ...]]

# Every column that holds the hash of a secret, with its table's key column.
_HASH_COLUMNS = (("players", "id", "token_hash"), ("player_tokens", "token_hash", "token_hash"),
                 ("claim_codes", "code_hash", "code_hash"), ("tournaments", "id", "secret_hash"))


class HashKeyError(Exception):
    """The data directory's key is unreadable or missing while the database was hashed with it."""


def new_key() -> bytes:
    """A fresh key (256 random bits)."""
    return secrets.token_bytes(KEY_BYTES)


def read_key_file(data_dir: Path) -> bytes | None:
    """The key kept in the data directory, None when there is none; ``HashKeyError`` when it is damaged."""
    path = data_dir / KEY_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise HashKeyError(f"cannot read {path}: {exc}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise HashKeyError(f"{path} is not a sprtec hash key ({KEY_BYTES * 2} hex digits)")
    if path.stat().st_mode & 0o777 != PRIVATE_FILE:
        os.chmod(path, PRIVATE_FILE)  # a key copied in with another mode is made private again
    return key


def write_key_file(data_dir: Path, key: bytes) -> None:
    """Keep a new key in the data directory, readable by the server's user only (never over an existing one)."""
    path = data_dir / KEY_FILE
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    try:
        os.fchmod(handle, PRIVATE_FILE)  # whatever the umask
        os.write(handle, key.hex().encode("ascii") + b"\n")
        os.fsync(handle)
    finally:
        os.close(handle)


_LOG_READ = "SELECT tournament_id, idx, kind, body FROM tournament_log WHERE kind IN ('created', 'entry_added')"


def reads() -> tuple[str, ...]:
    """Every read ``rehash`` makes (a driver without synchronous reads runs them first)."""
    return (*(f"SELECT {key_column}, {column} FROM {table}" for table, key_column, column in _HASH_COLUMNS), _LOG_READ)


def rehash(read: Read, key: bytes) -> list[Statement]:
    """The statements that turn an older database's bare SHA-256 hashes into keyed ones: every hash column, and the
    entry codes' hashes inside the tournaments' logs (``created`` and ``entry_added`` events); the tournaments' state
    snapshots, which hold those hashes as well, are dropped."""
    columns, log_read = reads()[:-1], reads()[-1]
    out: list[Statement] = []
    for sql, (table, key_column, column) in zip(columns, _HASH_COLUMNS, strict=True):
        for row_key, bare in read(sql, ()):
            out.append((f"UPDATE {table} SET {column} = ? WHERE {key_column} = ?", (keyed(key, str(bare)), row_key)))
    for tournament, index, kind, text in read(log_read, ()):
        body = json.loads(text)
        if kind == "created":
            body["code_hashes"] = {entry: keyed(key, str(h)) for entry, h in body.get("code_hashes", {}).items()}
        elif body.get("code_hash"):
            body["code_hash"] = keyed(key, str(body["code_hash"]))
        out.append(("UPDATE tournament_log SET body = ? WHERE tournament_id = ? AND idx = ?",
                    (json.dumps(body, ensure_ascii=False, sort_keys=True), tournament, index)))
    # A tournament's state snapshot holds its unclaimed entries' code hashes too: it is dropped (an empty object is
    # no snapshot), so the restart folds the rehashed log whole and the next snapshot is written with the new hashes.
    out.append(("UPDATE tournaments SET snapshot = ?, events = 0", ("{}",)))
    return out

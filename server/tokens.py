"""Unguessable secrets for players, short unambiguous room codes, and the keyed hash every secret is stored as.

Why a token is ``<player id>.<secret>``: whoever holds a player's token is that player (his seats, his name),
so only a hash of the secret part is stored - a copy of the database does not let anyone take a seat - and the
secret is checked against the player named by the id with a constant-time comparison, so no timing of a lookup
tells an attacker how close a guess came. Tokens of older servers (a bare secret) are still recognised by their
hash. Room codes are read aloud and typed, so they avoid look-alike characters (0/O, 1/I/L, 5/S, 2/Z, 8/B).

Why a keyed hash (``Hasher``: HMAC-SHA-256 under the server's own key): an entry or claim code has only about 37
bits, so a bare SHA-256 of it is reversed by trying every code - offline, by anyone who reads a copy of the
database. Under a key the database does not hold (a file of the data directory; a cluster's row in PostgreSQL,
``server.store.hash_key``) a copy of the hashes alone tells nothing. The key is applied to the SHA-256 of the
secret, not to the secret itself, so the bare hashes older servers stored become keyed ones without their secrets
(``server.store.hash_key.rehash``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Protocol

CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"


class TokenStore(Protocol):
    """The two reads a token check needs (``server.store.player_records.PlayerRecords``)."""

    def token_hashes(self, player_id: int) -> tuple[str, list[str]] | None:
        """(name, the stored hashes of every token the player holds)."""
        ...

    def by_token_hash(self, token_hash: str) -> tuple[int, str] | None:
        """(id, name) of the player with this stored hash (tokens of older servers)."""
        ...


def new_secret() -> str:
    """The secret part of a fresh token (256 bits, URL-safe), never beginning with "-": an organiser's secret is typed
    after ``--secret`` on the command line, where a leading dash reads as an option (one secret in 64 did)."""
    while True:
        secret = secrets.token_urlsafe(32)
        if not secret.startswith("-"):
            return secret


def player_token(player_id: int, secret: str) -> str:
    """The token a player is given: his id, a dot, the secret."""
    return f"{player_id}.{secret}"


def bare_hash(secret: str) -> str:
    """SHA-256 of a secret, as older servers stored it (and the input of ``Hasher.hash``)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def keyed(key: bytes, bare: str) -> str:
    """The keyed form of a bare hash: HMAC-SHA-256 of its hex digits under ``key``."""
    return hmac.new(key, bare.encode("ascii"), hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class Hasher:
    """How this server stores a secret (tokens, claim codes, organiser secrets, entry codes): keyed (see above)."""

    key: bytes

    def hash(self, secret: str) -> str:
        """The stored form of ``secret``."""
        return keyed(self.key, bare_hash(secret))

    def matches(self, stored: str, given: str | None) -> bool:
        """True when ``given`` is the secret whose stored form is ``stored`` (constant time; a missing one never
        is)."""
        return given is not None and hmac.compare_digest(stored, self.hash(given))


def check_token(store: TokenStore, hasher: Hasher, token: str) -> tuple[int, str] | None:
    """(player id, name) of the player this token belongs to, or None; the secret is compared in constant time
    with each of the player's tokens (one per device)."""
    head, dot, secret = token.partition(".")
    if dot and head.isascii() and head.isdigit() and len(head) <= 18:
        found = store.token_hashes(int(head))
        if found is None:
            return None
        hashed = hasher.hash(secret)
        matches = [hmac.compare_digest(stored, hashed) for stored in found[1]]  # every one, whatever the first says
        return (int(head), found[0]) if any(matches) else None
    hashed = hasher.hash(token)
    legacy = store.by_token_hash(hashed)
    if legacy is None:
        return None
    stored = store.token_hashes(legacy[0])
    return legacy if stored is not None and any(hmac.compare_digest(h, hashed) for h in stored[1]) else None


def new_room_code(length: int) -> str:
    """A room code of ``length`` characters from the unambiguous alphabet."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def normalise_code(code: str) -> str:
    """A typed room code as stored: upper case, no spaces or dashes."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def new_seed() -> int:
    """A match seed (drives lots and the 2.5-D draws; stored with the match)."""
    return secrets.randbits(31)

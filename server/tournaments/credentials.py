"""The organiser secret and the entry codes: unguessable, told once, stored only as hashes, checked in constant time.

Why like player tokens (``server.tokens``): whoever holds a tournament's organiser secret may register players,
start rounds, give cards, override results and end it, and whoever holds an entry's code becomes that entrant's
coach; so a copy of the database must not let anyone do either (only keyed hashes are kept: ``server.tokens.Hasher``,
whose key the database does not hold - an 8-character code's bare SHA-256 is reversed by trying every code), and
no timing of a comparison may tell an attacker how close a guess came (``hmac.compare_digest``). Entry codes are
read aloud and typed at a club event, so they use the room codes' unambiguous alphabet.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping

from server.tokens import CODE_ALPHABET, Hasher, new_secret

ENTRY_CODE_LENGTH = 8
TOURNAMENT_ID_LENGTH = 6


def new_organiser_secret() -> str:
    """A fresh organiser secret (256 bits, URL-safe)."""
    return new_secret()


def new_entry_code() -> str:
    """A fresh entry code: 8 characters of the unambiguous alphabet (about 37 bits; one use)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(ENTRY_CODE_LENGTH))


def new_tournament_id() -> str:
    """A tournament's id: short, typed and read aloud like a room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(TOURNAMENT_ID_LENGTH))


def hashed(hasher: Hasher, secret: str) -> str:
    """The stored form of a secret or a code (codes are compared in upper case, as typed codes are)."""
    return hasher.hash(secret)


def normal_code(code: str) -> str:
    """A typed entry code as it was issued: upper case, without spaces or dashes."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def is_secret(hasher: Hasher, stored_hash: str, given: str | None) -> bool:
    """True when ``given`` is the secret whose hash is stored (constant time; a missing one never is)."""
    return hasher.matches(stored_hash, given)


def entry_with_code(hasher: Hasher, code_hashes: Mapping[str, str], code: str) -> str | None:
    """The unclaimed entry whose code this is; every stored hash is compared, in constant time each."""
    wanted = hasher.hash(normal_code(code))
    found = None
    for entry, stored in code_hashes.items():
        if hmac.compare_digest(stored, wanted):
            found = entry
    return found

"""Unguessable secrets for seats and players, and short unambiguous room codes.

Why: a seat is held by whoever holds its resume token, so tokens come from ``secrets`` and only
their SHA-256 is stored (a leaked database does not let anyone take a seat). Room codes are read
aloud and typed, so they avoid look-alike characters (0/O, 1/I/L, 5/S, 2/Z, 8/B).
"""

from __future__ import annotations

import hashlib
import secrets

CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"


def new_token() -> str:
    """A fresh resume token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_room_code(length: int) -> str:
    """A room code of ``length`` characters from the unambiguous alphabet."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def normalise_code(code: str) -> str:
    """A typed room code as stored: upper case, no spaces or dashes."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def new_seed() -> int:
    """A match seed (drives lots and the 2.5-D draws; stored with the match)."""
    return secrets.randbits(31)

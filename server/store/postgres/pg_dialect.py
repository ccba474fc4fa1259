"""The store's SQL (written once, for SQLite) as PostgreSQL runs it: placeholders, booleans, the last inserted id.

Why a translation and not a second copy of every statement: the statements and reads live beside the records they
write (``server.store.match_statements``, ``server.store.store_base``, ``server.store.player_records``,
``server.tournaments.tournament_records``) and other code builds them; a second hand-kept PostgreSQL copy of each
would drift. The dialects differ in only a few regular places, all handled here and tested
(tests/cluster/test_pg_store.py):

- ``?`` placeholders are ``$1``, ``$2``, … (no statement of the store has a ``?`` inside a string literal);
- a flag column compared with or set to ``0``/``1`` is a BOOLEAN in PostgreSQL
  (``server.store.postgres.pg_schema``), so the literal becomes ``FALSE``/``TRUE``; flag *parameters* pass
  through asyncpg's boolean codec, which takes 0 and 1;
- ``last_insert_rowid()`` is ``lastval()`` (the identity sequence used last by this session, in the same job);
- ``rowid`` (only ever a tie-break after a time) is ``ctid``, a row's place in its table;
- an ``INSERT`` into a table whose id is generated returns that id (``RETURNING id``), SQLite's ``lastrowid``.
"""

from __future__ import annotations

import re
from functools import lru_cache

FLAG_COLUMNS = ("finished", "used", "private", "rated", "reserved")  # BOOLEAN in PostgreSQL, 0/1 in SQLite
GENERATED_ID_TABLES = ("players",)  # tables whose id PostgreSQL generates (an IDENTITY column)
TRANSLATED = 2048  # statements remembered translated (the store's texts, and its reads' IN lists of each length)

_FLAG_LITERAL = re.compile(r"\b((?:\w+\.)?(?:" + "|".join(FLAG_COLUMNS) + r"))\s*=\s*([01])\b")
_ROWID = re.compile(r"\browid\b")
_INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)


def placeholders(sql: str) -> str:
    """``?`` numbered as ``$1``, ``$2``, … in order."""
    parts = sql.split("?")
    out = [parts[0]]
    for number, part in enumerate(parts[1:], start=1):
        out.append(f"${number}{part}")
    return "".join(out)


@lru_cache(maxsize=TRANSLATED)
def translate(sql: str) -> str:
    """One statement or read of the store in PostgreSQL's dialect (remembered: the store's statements are a few
    hundred texts, each translated once instead of at every commit)."""
    sql = _FLAG_LITERAL.sub(lambda m: f"{m.group(1)} = {'TRUE' if m.group(2) == '1' else 'FALSE'}", sql)
    sql = sql.replace("last_insert_rowid()", "lastval()")
    sql = _ROWID.sub("ctid", sql)
    return placeholders(sql)


@lru_cache(maxsize=TRANSLATED)
def returns_id(sql: str) -> bool:
    """Whether the statement inserts into a table with a generated id (its ``lastrowid`` is wanted)."""
    found = _INSERT_INTO.match(sql)
    return found is not None and found.group(1).lower() in GENERATED_ID_TABLES

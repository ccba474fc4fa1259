"""What the rest of the server knows of a store: the statements it writes, the reads it asks, its health and failures.

Why a port of its own: the server runs on one of two stores - SQLite in a data directory
(``server.store.sqlite.sqlite_store``) or a cluster's PostgreSQL (``server.store.postgres.pg_store``) - and no room,
lobby, service or command should care which. Both write through the same group-commit machine
(``server.store.group_commit``) and read through the same ``ReadPort``; the statements of the store are written once,
in SQLite's dialect, and each store's dialect runs them as its database does (``server.store.postgres.pg_dialect``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the port's own types only: the records' modules build on this one
    from server.store import match_reads
    from server.store.match_records import FinishedMatch, MatchRow, Record, RoomRow
    from server.tokens import Hasher
    from shared.match_log import Checkpoint, LogEntry

Statement = tuple[str, Sequence[Any]]  # one statement of the store's SQL (SQLite's dialect) and its parameters


class StoreUnavailable(Exception):
    """A write that could not be committed because the store stopped (shutdown while it was failing)."""


class StoreLost(StoreUnavailable):
    """The database file was deleted or replaced under the running server: no write can be trusted to it."""


class StaleLease(StoreUnavailable):
    """A write of a room this node no longer owns: another node of the cluster holds its lease under a newer fencing
    number, or this node holds none. Refused without writing anything; the room stops here and its connections go
    to the owner. Only the shared store of a cluster fences (``server.store.postgres.pg_store``); it is defined here,
    beside the store's other failures, so a room recognises it without the cluster's libraries."""


class ConstraintViolation(Exception):
    """A constraint refused a statement (a unique name, a foreign key): its own job fails, the batch commits. The
    message is the database's (a taken name's says ``UNIQUE``), from either store."""


@dataclass(frozen=True, slots=True)
class Health:
    """Whether the store commits: ``ok``; otherwise ``reason`` (the database's error) and ``lost`` (permanent)."""

    ok: bool
    reason: str = ""
    lost: bool = False


class ReadPort(Protocol):
    """Where rows are read: a store, or a data directory opened read-only for a report (``sprtec players``)."""

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read (the store's SQL, in SQLite's dialect)."""
        ...


class Store(ReadPort, Protocol):
    """A server's store: awaited writes committed in group commits, synchronous reads, health and fencing."""

    hasher: Hasher  # how every secret is stored (``server.tokens``; the cluster's key on PostgreSQL)

    @property
    def health(self) -> Health:
        """Whether the store commits now."""
        ...

    @property
    def commits(self) -> int:
        """Transactions committed so far (group commits)."""
        ...

    @property
    def queued_writes(self) -> int:
        """Write jobs waiting for the writer."""
        ...

    def time_commits(self, observer: Callable[[float], None]) -> None:
        """Call ``observer(seconds)`` (from the writer) after every committed transaction."""
        ...

    def listen(self, listener: Callable[[Health], None]) -> None:
        """Call ``listener(health)`` on the running event loop whenever the store's health changes."""
        ...

    async def write(self, statements: list[Statement]) -> list[int]:
        """Commit ``statements`` in one transaction (its own savepoint); each statement's generated id."""
        ...

    def write_later(self, statements: list[Statement]) -> None:
        """Queue statements nobody waits for, committed in order with the others."""
        ...

    def write_sync(self, statements: list[Statement]) -> list[int]:
        """Commit from outside an event loop (start-up, tools); waits for the writer."""
        ...

    def close(self, timeout_s: float = ...) -> None:
        """Finish every queued write and stop; while the store fails, give up after ``timeout_s``."""
        ...

    def new_player_id(self) -> int:
        """An id for a player not stored yet."""
        ...

    def fenced(self, code: str, statements: list[Statement]) -> list[Statement]:
        """Room ``code``'s statements as this process may write them (a cluster's store adds its fence check)."""
        ...

    def statements(self, records: tuple[Record, ...]) -> list[Statement]:
        """The statements that write a room's records, in order, for one transaction."""
        ...

    def read_match(self, match: str) -> match_reads.StoredMatch:
        """A match as its export reads it (safe from any thread)."""
        ...

    def last_finished_match(self, player_id: int, room_code: str | None = None) -> FinishedMatch | None:
        """The player's latest finished match (in room ``room_code`` if given)."""
        ...

    def room_codes(self) -> set[str]:
        """The code of every room a match was ever played in."""
        ...

    def rooms(self, codes: Sequence[str] | None = None) -> list[RoomRow]:
        """Every stored room, or those of ``codes``."""
        ...

    def entries_of(self, match_ids: Sequence[str]) -> dict[str, int]:
        """How many log entries each of ``match_ids`` has."""
        ...

    def actions_of(self, match_ids: Sequence[str]) -> dict[str, int]:
        """How many of each match's entries are the coaches' own actions."""
        ...

    def match(self, match_id: str) -> MatchRow | None:
        """One stored match."""
        ...

    def matches(self, match_ids: Sequence[str]) -> dict[str, MatchRow]:
        """The stored matches of ``match_ids`` by id."""
        ...

    def checkpoint(self, match_id: str) -> Checkpoint | None:
        """A match's latest checkpoint, if it has one."""
        ...

    def resting_points(self, match_ids: Sequence[str] | None = None) -> dict[str, tuple[int, bytes, int]]:
        """For every unfinished match of a stored room: (entries, the last entry's position blob, its move clock)."""
        ...

    def stored_positions(self, match_id: str) -> list[tuple[int, bytes | None, int | None]]:
        """Every entry's (index, stored position blob, move clock used) of a match, in order."""
        ...

    def log(self, match_id: str, since: int = 0) -> list[LogEntry]:
        """A match's entries in order, from index ``since``."""
        ...

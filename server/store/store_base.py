"""What both stores do alike: writes handed to the one writer (``server.store.commit_drivers``) and awaited, and the
reads of rooms and matches over the store's ``read``.

Why a base of both stores rather than the SQLite store as PostgreSQL's: the stores differ in how they connect, commit
a batch and answer a read (``read``, ``read_match``, ``new_player_id``, ``close``, and fencing in a cluster); all the
rest - settling a write on its caller's loop or thread, the health listeners, the SQL of the reads - is one code over
the ``server.store.store_port`` port, here.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from server.constants import IN_LIST_CHUNK
from server.store import match_statements
from server.store.commit_drivers import CommitDriver
from server.store.group_commit import Outcome
from server.store.log_rows import entry_from_row
from server.store.match_records import FinishedMatch, MatchRow, Record, RoomRow
from server.store.store_port import Health, Statement
from shared import notation
from shared.match_log import Checkpoint, LogEntry


class StoreBase:
    """A store's writes through its writer, and its reads of rooms and matches; a store gives ``read``."""

    def __init__(self, writer: CommitDriver) -> None:
        self._writer = writer

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read (each store's own)."""
        raise NotImplementedError

    @property
    def health(self) -> Health:
        """Whether the store commits now."""
        return self._writer.health

    @property
    def commits(self) -> int:
        """Transactions committed so far (group commits)."""
        return self._writer.commits

    @property
    def queued_writes(self) -> int:
        """Write jobs waiting for the writer."""
        return self._writer.queued

    def time_commits(self, observer: Callable[[float], None]) -> None:
        """Call ``observer(seconds)`` (from the writer) after every committed transaction."""
        self._writer.on_commit = observer

    def listen(self, listener: Callable[[Health], None]) -> None:
        """Call ``listener(health)`` on the running event loop whenever the store's health changes."""
        loop = asyncio.get_running_loop()

        def hand_over(health: Health) -> None:
            """From the writer's thread to the loop."""
            loop.call_soon_threadsafe(listener, health)

        self._writer.listen(hand_over)

    # ------------------------------------------------------------------ writing
    async def write(self, statements: list[Statement]) -> list[int]:
        """Commit ``statements`` in one transaction; returns each statement's ``lastrowid``.

        While the store fails this waits for it to recover (nothing is acknowledged before its commit); raises
        ``StoreUnavailable`` when the server stops first, ``StoreLost`` when the database is gone.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[list[int]] = loop.create_future()
        self._writer.submit((statements, _LoopSettler(loop, future)))
        return await future

    def write_later(self, statements: list[Statement]) -> None:
        """Queue statements nobody waits for (a player's last visit): committed in order with the others."""
        self._writer.submit((statements, None))

    def write_sync(self, statements: list[Statement]) -> list[int]:
        """Commit from outside an event loop (start-up, tools); waits for the writer."""
        settler = _ThreadSettler()
        self._writer.submit((statements, settler))
        settler.done.wait()
        if isinstance(settler.outcome, BaseException):
            raise settler.outcome
        assert settler.outcome is not None
        return settler.outcome

    def fenced(self, code: str, statements: list[Statement]) -> list[Statement]:
        """Room ``code``'s statements as this process may write them: one process owns its data, so unchanged (a
        cluster's store refuses writes of a room's former owner: ``server.store.postgres.pg_store``)."""
        return statements

    def statements(self, records: tuple[Record, ...]) -> list[Statement]:
        """The statements that write a room's records (``server.store.match_statements``), for one transaction."""
        return match_statements.statements(records)

    # ------------------------------------------------------------------ reading (rooms and matches)
    def last_finished_match(self, player_id: int, room_code: str | None = None) -> FinishedMatch | None:
        """The player's latest finished match (in room ``room_code`` if given): how a returning coach's match ended."""
        where = "(home_player = ? OR away_player = ?) AND finished = 1"
        params: list[Any] = [player_id, player_id]
        if room_code is not None:
            where += " AND room_code = ?"
            params.append(room_code)
        found = self.read(
            f"SELECT id, room_code, result, score_home, score_away, finished_at, home_player FROM matches WHERE {where}"
            " ORDER BY started_at DESC LIMIT 1",
            params,
        )
        if not found:
            return None
        row = found[0]
        result = json.loads(row[2]) if row[2] else {}
        team = "home" if row[6] == player_id else "away"
        return FinishedMatch(id=row[0], room_code=row[1], winner=result.get("winner"),
                             reason=str(result.get("reason", "")), score=(row[3] or 0, row[4] or 0),
                             finished_at=row[5], team=team)

    def room_codes(self) -> set[str]:
        """The code of every room a match was ever played in (a code is never claimed again: ``Registry.claim``)."""
        return {str(row[0]) for row in self.read("SELECT DISTINCT room_code FROM matches")}

    def rooms(self, codes: Sequence[str] | None = None) -> list[RoomRow]:
        """Every stored room, or those of ``codes`` (a cluster node taking a few rooms over reads only them)."""
        columns = ("SELECT code, ruleset, overrides, private, home_player, away_player, match_id, rated, reserved"
                   " FROM rooms")
        if codes is None:
            rows = self.read(columns + " ORDER BY created_at")
        else:
            rows = [row for chunk in _chunks(codes) for row in self.read(
                f"{columns} WHERE code IN ({_marks(chunk)})", tuple(chunk))]
        return [RoomRow(code=r[0], ruleset=r[1], overrides=json.loads(r[2]), private=bool(r[3]), home_player=r[4],
                        away_player=r[5], match_id=r[6], rated=bool(r[7]), reserved=bool(r[8])) for r in rows]

    def entries_of(self, match_ids: Sequence[str]) -> dict[str, int]:
        """How many log entries each of ``match_ids`` that has any has, in one read per IN_LIST_CHUNK of them."""
        return {str(row[0]): int(row[1]) for chunk in _chunks(match_ids) for row in self.read(
            f"SELECT match_id, COUNT(*) FROM match_log WHERE match_id IN ({_marks(chunk)}) GROUP BY match_id",
            tuple(chunk))}

    def actions_of(self, match_ids: Sequence[str]) -> dict[str, int]:
        """How many of the entries of each of ``match_ids`` that has any are the coaches' own actions (not clock
        events), in one read per IN_LIST_CHUNK of them."""
        return {str(row[0]): int(row[1]) for chunk in _chunks(match_ids) for row in self.read(
            f"SELECT match_id, COUNT(*) FROM match_log WHERE match_id IN ({_marks(chunk)}) AND kind = 'action'"
            " GROUP BY match_id", tuple(chunk))}

    def match(self, match_id: str) -> MatchRow | None:
        """One stored match."""
        return self.matches([match_id]).get(match_id)

    def matches(self, match_ids: Sequence[str]) -> dict[str, MatchRow]:
        """The stored matches of ``match_ids`` by id (one read per IN_LIST_CHUNK of them: recovery reads hundreds)."""
        found: dict[str, MatchRow] = {}
        for chunk in _chunks(match_ids):
            for row in self.read(
                "SELECT id, room_code, seed, ruleset, overrides, initial_position, home_player, away_player,"
                f" version_base, finished FROM matches WHERE id IN ({_marks(chunk)})", tuple(chunk)
            ):
                found[str(row[0])] = MatchRow(
                    id=row[0], room_code=row[1], seed=row[2], ruleset=row[3], overrides=json.loads(row[4]),
                    initial_position=json.loads(row[5]), home_player=row[6], away_player=row[7],
                    version_base=row[8], finished=bool(row[9]))
        return found

    def checkpoint(self, match_id: str) -> Checkpoint | None:
        """A match's latest checkpoint, if it has one."""
        found = self.read("SELECT idx, position, turn_used FROM checkpoints WHERE match_id = ?", (match_id,))
        if not found:
            return None
        row = found[0]
        return Checkpoint(after=row[0], position=notation.position_from_json(json.loads(row[1])), turn_used=row[2])

    def resting_points(self, match_ids: Sequence[str] | None = None) -> dict[str, tuple[int, bytes, int]]:
        """For every unfinished match of a stored room (or those of ``match_ids``): (entries, the last entry's
        position blob, its move clock used) - one read for all of them, where the last entry kept its position."""
        query = ("SELECT l.match_id, l.idx + 1, l.position, l.turn_used FROM match_log l JOIN rooms r ON r.match_id ="
                 " l.match_id JOIN matches m ON m.id = l.match_id WHERE m.finished = 0 AND l.idx = (SELECT MAX(idx)"
                 " FROM match_log WHERE match_id = l.match_id) AND l.position IS NOT NULL")
        if match_ids is None:
            rows = self.read(query)
        else:
            rows = [row for chunk in _chunks(match_ids) for row in self.read(
                f"{query} AND l.match_id IN ({_marks(chunk)})", tuple(chunk))]
        return {str(r[0]): (int(r[1]), bytes(r[2]), int(r[3] or 0)) for r in rows}

    def stored_positions(self, match_id: str) -> list[tuple[int, bytes | None, int | None]]:
        """Every entry's (index, stored position blob, move clock used) of a match, in order (``sprtec verify``)."""
        rows = self.read("SELECT idx, position, turn_used FROM match_log WHERE match_id = ? ORDER BY idx",
                                  (match_id,))
        return [(int(r[0]), None if r[1] is None else bytes(r[1]), r[2]) for r in rows]

    def log(self, match_id: str, since: int = 0) -> list[LogEntry]:
        """A match's entries in order, from index ``since``."""
        rows = self.read(
            "SELECT idx, kind, team, action, elapsed_ms FROM match_log WHERE match_id = ? AND idx >= ? ORDER BY idx",
            (match_id, since),
        )
        return [entry_from_row(r[0], r[1], r[2], None if r[3] is None else json.loads(r[3]), r[4]) for r in rows]


def _chunks(values: Sequence[str]) -> Iterator[Sequence[str]]:
    """``values`` in slices of at most IN_LIST_CHUNK (an empty sequence gives none: no query at all)."""
    for start in range(0, len(values), IN_LIST_CHUNK):
        yield values[start:start + IN_LIST_CHUNK]


def _marks(values: Sequence[str]) -> str:
    """The placeholders of an ``IN`` list of ``values``."""
    return ", ".join("?" * len(values))


class _LoopSettler:
    """Settles a write's future on its own event loop (called from the writer's thread)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[list[int]]) -> None:
        self._loop = loop
        self._future = future

    def settle(self, outcome: Outcome) -> None:
        """Resolve the future on its loop; a loop already closed (shutdown) has nobody to tell."""
        try:
            self._loop.call_soon_threadsafe(_resolve, self._future, outcome)
        except RuntimeError:
            pass


class _ThreadSettler:
    """Settles a synchronous caller's write: the outcome and an event it waits on."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.outcome: Outcome | None = None

    def settle(self, outcome: Outcome) -> None:
        """Keep the outcome and wake the caller."""
        self.outcome = outcome
        self.done.set()


def _resolve(future: asyncio.Future[list[int]], outcome: Outcome) -> None:
    """Resolve a write's future (on its loop)."""
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)

"""After a restart: every tournament folded from its latest snapshot and the log after it, and its tables linked back
to their matches.

Why after the rooms' recovery (``server.rooms.rebuild``): the rooms of running matches are rebuilt first, from their
own logs, with their codes and match ids; a tournament then finds each open table's match by its id. A match that
finished just before the crash - its end committed, its result not yet in the tournament's log - is recorded from
the stored match; a running one goes on in its recovered room; a table whose match never started lost its room
(nobody had played there) and is opened again, as is a match of the current round that had no table yet, with a
fresh no-show time (the coaches need the time to come back). Nothing recorded is lost.

A cluster node taking a tournament over from a node that died (``server.tournaments.leases``) resumes it the same
way, the rooms of its tables being those the cluster's store still holds, wherever they are played.
"""

from __future__ import annotations

from collections.abc import Collection

from server.store.store_port import ReadPort
from server.tournaments import tournament_records as records
from server.tournaments.service import Running, TournamentService
from server.tournaments.state import TournamentState, fold, fold_from
from server.tournaments.state_snapshot import read_snapshot
from server.tournaments.tables import name_seats
from server.tournaments.tournament_core import TournamentCore


async def resume(service: TournamentService, only: Collection[str] | None = None) -> list[Running]:
    """Fold and run every stored tournament (``only``: those with these ids - a cluster node taking them over);
    returns them, oldest first."""
    runs = []
    for row in records.tournaments(service.store):
        if only is not None and row.id not in only:
            continue
        state, snapshot_version = recovered(service.store, row.id)
        run = Running(core=TournamentCore(state, snapshot_version=snapshot_version), secret_hash=row.secret_hash)
        service.adopt(run)  # before any wait: a recovered room's MatchFinished finds its tournament
        runs.append(run)
    for run in runs:
        async with run.lock:
            await _relink(service, run)
    return runs


def recovered(store: ReadPort, tournament_id: str) -> tuple[TournamentState, int]:
    """A stored tournament's state: its latest snapshot and the events logged after it (the whole log when its row
    holds no snapshot of the state); and the snapshot's version (0: none)."""
    text = records.snapshot(store, tournament_id)
    snapshot = None if text is None else read_snapshot(text)
    if snapshot is None:
        return fold(tournament_id, records.log(store, tournament_id)), 0
    return fold_from(snapshot, records.log(store, tournament_id, since=snapshot.version)), snapshot.version


async def _relink(service: TournamentService, run: Running) -> None:
    """Link a tournament's open tables to their matches (as the store has them), record what finished, open again
    what never started (``TournamentCore.relink``)."""
    stored = {t.match_id: records.match_result(service.store, t.match_id) for t in run.state.tables.values()}
    alive = set(service.rooms_alive())  # a cluster: the rooms played on any node, or waiting to be taken over
    name_seats(service.lobby, run.state)
    await service.transition(run, lambda: run.core.relink(stored, alive, service.now_ms()))

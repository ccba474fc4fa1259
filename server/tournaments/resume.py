"""After a restart: every tournament folded from its log, and its tables linked back to their matches.

Why after the rooms' recovery (``server.rooms.rebuild``): the rooms of running matches are rebuilt first, from their
own logs, with their codes and match ids; a tournament then finds each open table's match by its id. A match that
finished just before the crash - its end committed, its result not yet in the tournament's log - is recorded from
the stored match; a running one goes on in its recovered room; a table whose match never started lost its room
(nobody had played there) and is opened again, as is a match of the current round that had no table yet, with a
fresh no-show time (the coaches need the time to come back). Nothing recorded is lost.
"""

from __future__ import annotations

import logging

from server.tournaments import tournament_records as records
from server.tournaments.results import outcome_of
from server.tournaments.service import Running, TournamentService
from server.tournaments.state import TableKey, fold, round_of
from server.tournaments.views import LiveTable, board_of, current_round
from shared.tournament.model import Match

log = logging.getLogger(__name__)


async def resume(service: TournamentService) -> list[Running]:
    """Fold and run every stored tournament; returns them, oldest first."""
    runs = []
    for row in records.tournaments(service.store):
        state = fold(row.id, records.log(service.store, row.id))
        run = Running(state=state, secret_hash=row.secret_hash, board=board_of(state))
        service.adopt(run)  # before any wait: a recovered room's MatchFinished finds its tournament
        runs.append(run)
    for run in runs:
        async with run.lock:
            await _relink(service, run)
    return runs


async def _relink(service: TournamentService, run: Running) -> None:
    """Link a tournament's open tables to their matches, record what finished, reopen what never started."""
    if run.state.ended is not None:
        return
    reopen: list[TableKey] = []
    for key, table in list(run.state.tables.items()):
        stored = records.match_result(service.store, table.match_id)
        if stored is not None and stored.finished:
            knockout = run.state.tournament.stages[key[0]].system == "knockout"
            outcome = outcome_of(score=stored.score, winner=stored.winner, reason=stored.reason, knockout=knockout)
            source = "forfeit" if outcome.walkover is not None else "match"
            await service.record(run, key, outcome, source=source, match_id=table.match_id)
        elif stored is not None and table.room in service.lobby.rooms:
            run.live[table.room] = LiveTable(started=True)
        else:
            reopen.append(key)
    stage, number = current_round(run.state.tournament)
    listed = round_of(run.state.tournament, stage, number)
    matches = [] if listed is None else [e for e in listed.matches if isinstance(e, Match)]
    for table_number, m in enumerate(matches, start=1):
        key = (stage, number, table_number)
        if not m.finished and key not in run.state.tables and key not in reopen:
            reopen.append(key)
    if reopen:
        log.info("tournament %s: reopening %d table(s) after the restart", run.id, len(reopen))
        await service.open_tables(run, sorted(reopen))
    service.round_may_be_over(run)

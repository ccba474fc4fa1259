"""After a restart: every league folded from its log, and its open games' tables linked back to their matches.

Why after the rooms' recovery (as ``server.tournaments.resume``): the rooms of running matches are rebuilt first from
their own logs; a league then finds each open table's match by its id - a match that finished just before the crash
is recorded from the stored match, a running one goes on in its recovered room, and a game whose match never started
(its room lost) is opened again with a fresh no-show time. A day in the middle of a round resumes where it was.

A cluster node taking a league over from a node that died (``server.leagues.leases``) resumes it the same way, the
rooms of its games being those the cluster's store still holds, wherever they are played.
"""

from __future__ import annotations

from collections.abc import Collection

from server.leagues import league_records as records
from server.leagues.league_core import LeagueCore
from server.leagues.service import LeagueRun, LeagueService
from server.leagues.state import fold
from server.tournaments.tournament_core import seat_name
from server.tournaments.tournament_records import match_result


async def resume(service: LeagueService, only: Collection[str] | None = None) -> list[LeagueRun]:
    """Fold and run every stored league (``only``: those with these ids - a cluster node taking them over); returns
    them, oldest first."""
    runs = []
    for row in records.leagues(service.store):
        if only is not None and row.id not in only:
            continue
        state = fold(row.id, records.log(service.store, row.id))
        run = LeagueRun(core=LeagueCore(state), secret_hash=row.secret_hash)
        service.adopt(run)  # before any wait: a recovered room's MatchFinished finds its league
        runs.append(run)
    for run in runs:
        async with run.lock:
            await _relink(service, run)
    return runs


async def _relink(service: LeagueService, run: LeagueRun) -> None:
    """Link a league's open tables to their matches as the store has them (``LeagueCore.relink``)."""
    stored = {t.match_id: match_result(service.store, t.match_id) for t in run.state.tables.values()}
    alive = set(service.rooms_alive())  # a cluster: the rooms played on any node, or waiting to be taken over
    name_seats(service, run)
    await service.transition(run, lambda: run.core.relink(stored, alive, service.now_ms()))


def name_seats(service: LeagueService, run: LeagueRun) -> None:
    """After a restart: the recovered rooms of a league's games name their seats as the roster again (the rooms'
    recovery named them as the players are named on the server)."""
    state = run.state
    for key, table in state.tables.items():
        room = service.lobby.rooms.get(table.room)
        if room is None:
            continue
        game = state.game(key)
        for player in (game.home, game.away):
            coach = state.coaches.get(player)
            if coach is not None:
                room.core.names[coach.player_id] = seat_name(state.name_of(player))

"""Tournaments as a cluster's leased objects: the adapter ``server.cluster.leased`` runs them through.

Why an adapter and not cluster code in the service: what a cluster does with a tournament - lease it, fence its
writes, take it over from a node that died, stop it on a node that lost its lease - is the same for every object that
one node runs at a time (``server.cluster.leased.LeasedKind``: the team league's adapter is the same shape); what is a
tournament's own is only how it is found in the store (its row), read back (``server.tournaments.resume``: its latest
snapshot and the log after it, its tables linked to their matches wherever they are played) and stopped here
(``TournamentService.drop``: its timer ends and it writes nothing more; its watchers here follow it to its new node).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from server.tournaments import tournament_records as records
from server.tournaments.resume import resume
from server.tournaments.service import TournamentService, Watcher
from shared.protocol import SERVER_MESSAGES, ProtocolError, TournamentInfo, TournamentList, decode, encode

KIND = "tournament"


class TournamentLeases:
    """The tournaments of one cluster node (``server.cluster.leased.LeasedKind``)."""

    kind = KIND

    def __init__(self, service: TournamentService,
                 moved: Callable[[str, list[Watcher]], None] = lambda tournament, watchers: None) -> None:
        """``moved(id, watchers)``: a tournament stopped here; its watchers connected here follow it elsewhere."""
        self.service = service
        self.moved = moved

    def running(self) -> list[str]:
        """The tournaments this node runs."""
        return list(self.service.runs)

    def stored(self) -> list[str]:
        """Every tournament the shared store has (over or not: each is run, and listed, by one node)."""
        return [row.id for row in records.tournaments(self.service.store)]

    async def take_over(self, ids: list[str]) -> None:
        """Resume these tournaments here from the store (their leases are this node's now)."""
        await resume(self.service, [i for i in ids if i not in self.service.runs])

    async def lost(self, object_id: str) -> None:
        """Another node runs the tournament now: it stops here at once."""
        self.moved(object_id, self.service.drop(object_id))

    async def stop_all(self) -> list[str]:
        """A graceful stop: every tournament here stops (each write in progress finishes first, under its lock)."""
        ids = list(self.service.runs)
        for tournament_id in ids:
            run = self.service.runs.get(tournament_id)
            if run is not None:
                async with run.lock:
                    self.service.drop(tournament_id)
        return ids

    def lines(self) -> dict[str, str]:
        """The listing line of each tournament here, as every node's ``ListTournaments`` reads it (``read_lines``)."""
        return {tournament_id: json.dumps({"at": at, "line": encode(TournamentList((line,)), trusted=True).hex()})
                for tournament_id, (at, line) in self.service.lines().items()}


def read_lines(stored: dict[str, str]) -> dict[str, tuple[int, TournamentInfo]]:
    """The lines ``TournamentLeases.lines`` published, read back (one that cannot be read is left out)."""
    out = {}
    for tournament_id, text in stored.items():
        try:
            found = json.loads(text)
            message = decode(bytes.fromhex(found["line"]), SERVER_MESSAGES)
        except (ValueError, KeyError, TypeError, ProtocolError):
            continue
        if isinstance(message, TournamentList) and message.tournaments:
            out[tournament_id] = (int(found["at"]), message.tournaments[0])
    return out

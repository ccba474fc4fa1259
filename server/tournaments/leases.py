"""Tournaments as a cluster's leased objects: the adapter ``server.cluster.leased`` runs them through.

Why an adapter and not cluster code in the service: what a cluster does with a tournament - lease it, fence its
writes, take it over from a node that died, stop it on a node that lost its lease - is the same for every object that
one node runs at a time (``server.cluster.leased.LeasedKind``; what the team league's adapter does alike is
``server.tournaments.competition_leases``); what is a tournament's own is only how it is found in the store (its row)
and read back (``server.tournaments.resume``: its latest snapshot and the log after it, its tables linked to their
matches wherever they are played); it is stopped here by ``TournamentService.drop`` (its timer ends and it writes
nothing more; its watchers here follow it to its new node).
"""

from __future__ import annotations

from typing import Any

from server.tournaments import competition_leases
from server.tournaments import tournament_records as records
from server.tournaments.competition import Line
from server.tournaments.competition_leases import CompetitionLeases
from server.tournaments.resume import resume
from server.tournaments.service import TournamentService
from shared.protocol import TournamentList

KIND = "tournament"


class TournamentLeases(CompetitionLeases):
    """The tournaments of one cluster node (``server.cluster.leased.LeasedKind``)."""

    kind = KIND
    listed: Any = TournamentList
    service: TournamentService

    def stored(self) -> list[str]:
        """Every tournament the shared store has (over or not: each is run, and listed, by one node)."""
        return [row.id for row in records.tournaments(self.service.store)]

    async def take_over(self, ids: list[str]) -> None:
        """Resume these tournaments here from the store (their leases are this node's now)."""
        await resume(self.service, [i for i in ids if i not in self.service.runs])


def read_lines(stored: dict[str, str]) -> dict[str, Line]:
    """The lines ``TournamentLeases.lines`` published, read back (one that cannot be read is left out)."""
    return competition_leases.read_lines(stored, TournamentList)

"""Team leagues as a cluster's leased objects: the adapter ``server.cluster.leased`` runs them through, as it runs
tournaments (``server.tournaments.leases``).

Why the tournament's shape (``server.tournaments.competition_leases``): for a cluster a league is what a tournament
is - one node runs it and alone may write it (its rows fenced under the lease ``league:ID``), a killed node's leagues
are taken over by another from the store, a node that lost a league's lease stops it at once. What is a league's own
is only how it is found in the store (its row) and read back (``server.leagues.resume``: its log folded, its open
games linked to their matches wherever they are played).
"""

from __future__ import annotations

from typing import Any

from server.leagues import league_records as records
from server.leagues.resume import resume
from server.leagues.service import LeagueService
from server.tournaments import competition_leases
from server.tournaments.competition import Line
from server.tournaments.competition_leases import CompetitionLeases
from shared.protocol import LeagueList

KIND = "league"


class LeagueLeases(CompetitionLeases):
    """The leagues of one cluster node (``server.cluster.leased.LeasedKind``)."""

    kind = KIND
    listed: Any = LeagueList
    service: LeagueService

    def stored(self) -> list[str]:
        """Every league the shared store has (each is run, and listed, by one node)."""
        return [row.id for row in records.leagues(self.service.store)]

    async def take_over(self, ids: list[str]) -> None:
        """Resume these leagues here from the store (their leases are this node's now)."""
        await resume(self.service, [i for i in ids if i not in self.service.runs])


def read_lines(stored: dict[str, str]) -> dict[str, Line]:
    """The lines ``LeagueLeases.lines`` published, read back (one that cannot be read is left out)."""
    return competition_leases.read_lines(stored, LeagueList)

"""Team leagues as a cluster's leased objects: the adapter ``server.cluster.leased`` runs them through, as it runs
tournaments (``server.tournaments.leases``).

Why the tournament's shape: for a cluster a league is what a tournament is - one node runs it and alone may write it
(its rows fenced under the lease ``league:ID``), a killed node's leagues are taken over by another from the store, a
node that lost a league's lease stops it at once. What is a league's own is only how it is found in the store (its
row), read back (``server.leagues.resume``: its log folded, its open games linked to their matches wherever they are
played) and listed.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from server.leagues import league_records as records
from server.leagues.resume import resume
from server.leagues.service import LeagueService
from server.leagues.views import info_of
from server.tournaments.competition import Watcher
from shared.protocol import SERVER_MESSAGES, LeagueInfo, LeagueList, ProtocolError, decode, encode

KIND = "league"


class LeagueLeases:
    """The leagues of one cluster node (``server.cluster.leased.LeasedKind``)."""

    kind = KIND

    def __init__(self, service: LeagueService,
                 moved: Callable[[str, list[Watcher]], None] = lambda league, watchers: None) -> None:
        """``moved(id, watchers)``: a league stopped here; its watchers connected here follow it elsewhere."""
        self.service = service
        self.moved = moved

    def running(self) -> list[str]:
        """The leagues this node runs."""
        return list(self.service.runs)

    def stored(self) -> list[str]:
        """Every league the shared store has (each is run, and listed, by one node)."""
        return [row.id for row in records.leagues(self.service.store)]

    async def take_over(self, ids: list[str]) -> None:
        """Resume these leagues here from the store (their leases are this node's now)."""
        await resume(self.service, [i for i in ids if i not in self.service.runs])

    async def lost(self, object_id: str) -> None:
        """Another node runs the league now: it stops here at once."""
        self.moved(object_id, self.service.drop(object_id))

    async def stop_all(self) -> list[str]:
        """A graceful stop: every league here stops (each write in progress finishes first, under its lock)."""
        ids = list(self.service.runs)
        for league_id in ids:
            run = self.service.runs.get(league_id)
            if run is not None:
                async with run.lock:
                    self.service.drop(league_id)
        return ids

    def lines(self) -> dict[str, str]:
        """The listing line of each league here, as every node's ``ListLeagues`` reads it (``read_lines``)."""
        return {run.id: json.dumps({"at": run.state.created_at_ms,
                                    "line": encode(LeagueList((info_of(run.state),)), trusted=True).hex()})
                for run in self.service.runs.values()}


def read_lines(stored: dict[str, str]) -> dict[str, tuple[int, LeagueInfo]]:
    """The lines ``LeagueLeases.lines`` published, read back (one that cannot be read is left out)."""
    out = {}
    for league_id, text in stored.items():
        try:
            found = json.loads(text)
            message = decode(bytes.fromhex(found["line"]), SERVER_MESSAGES)
        except (ValueError, KeyError, TypeError, ProtocolError):
            continue
        if isinstance(message, LeagueList) and message.leagues:
            out[league_id] = (int(found["at"]), message.leagues[0])
    return out

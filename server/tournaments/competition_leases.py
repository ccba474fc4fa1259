"""A kind of competition as a cluster's leased objects: the part of its adapter (``server.cluster.leased.LeasedKind``)
that a tournament's (``server.tournaments.leases``) and a league's (``server.leagues.leases``) have alike.

Why shared: for a cluster both are run the same way - one node runs each, stops it at once when its lease is lost
(``CompetitionService.drop``: its watchers here follow it to its new node), stops them all after their writes in
progress on a drain, and publishes each one's line for every node's list. What a kind says for itself is only how its
ids are found in the store and how it is read back (``stored``, ``take_over``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from server.tournaments.competition import CompetitionService, Line, Watcher
from shared.protocol import SERVER_MESSAGES, ProtocolError, decode, encode


class CompetitionLeases:
    """The competitions of one kind on one cluster node; a subclass names the kind, its list message (one line
    published in it) and how its competitions are found in the store and read back."""

    kind = "competition"
    listed: Any = None  # the list message a line is published in (TournamentList, LeagueList)

    def __init__(self, service: CompetitionService[Any],
                 moved: Callable[[str, list[Watcher]], None] = lambda object_id, watchers: None) -> None:
        """``moved(id, watchers)``: a competition stopped here; its watchers connected here follow it elsewhere."""
        self.service = service
        self.moved = moved

    def running(self) -> list[str]:
        """The competitions this node runs."""
        return list(self.service.runs)

    def stored(self) -> list[str]:
        """Every competition of this kind the shared store has (each is run, and listed, by one node)."""
        raise NotImplementedError

    async def take_over(self, ids: list[str]) -> None:
        """Resume these competitions here from the store (their leases are this node's now)."""
        raise NotImplementedError

    async def lost(self, object_id: str) -> None:
        """Another node runs the competition now: it stops here at once."""
        self.moved(object_id, self.service.drop(object_id))

    async def stop_all(self) -> list[str]:
        """A graceful stop: every competition here stops (each write in progress finishes first, under its lock)."""
        ids = list(self.service.runs)
        for object_id in ids:
            run = self.service.runs.get(object_id)
            if run is not None:
                async with run.lock:
                    self.service.drop(object_id)
        return ids

    def lines(self) -> dict[str, str]:
        """The listing line of each competition here, as every node's list reads it (``read_lines``)."""
        return {object_id: json.dumps({"at": line.created_at_ms, "web": line.web,
                                       "line": encode(self.listed((line.info,)), trusted=True).hex()})
                for object_id, line in self.service.lines().items()}


def read_lines(stored: dict[str, str], listed: type) -> dict[str, Line]:
    """The lines ``CompetitionLeases.lines`` published in ``listed`` messages, read back (one that cannot be read is
    left out)."""
    out = {}
    for object_id, text in stored.items():
        try:
            found = json.loads(text)
            message = decode(bytes.fromhex(found["line"]), SERVER_MESSAGES)
        except (ValueError, KeyError, TypeError, ProtocolError):
            continue
        if isinstance(message, listed):
            lines = getattr(message, fields(message)[0].name)
            if lines:
                web = found.get("web") if isinstance(found.get("web"), dict) else {}
                out[object_id] = Line(int(found["at"]), lines[0], {str(k): str(v) for k, v in web.items()})
    return out

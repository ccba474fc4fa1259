"""The metrics fed by the match lifecycle: moves played, counted from the room's own events.

Why from the event bus (``server.lifecycle``): a room publishes when an entry was committed and broadcast; counting
there keeps rooms free of metrics, and every path that plays a move - a coach's flick, a tournament table, a
recovered match - is counted the same. Per move the cost is one comparison and one counter increment. The live
matches are not counted from events but read from the rooms when scraped (``server.app``): a node of a cluster loses
rooms to other nodes without any match ending, and a count of starts and ends stayed at every match it ever had.
"""

from __future__ import annotations

from server.lifecycle import EventBus, MoveApplied
from server.ops.metrics import Metrics

FLICK = "flick"  # MoveApplied.kind of a coach's flick (a move that sends a MovePlayed with a trajectory)


class MatchCounters:
    """Keeps ``moves`` up to date from the bus."""

    def __init__(self, bus: EventBus, metrics: Metrics) -> None:
        self._metrics = metrics
        bus.subscribe(MoveApplied, self._moved)

    def _moved(self, event: MoveApplied) -> None:
        """A flick was committed and broadcast: one move."""
        if event.kind == FLICK:
            self._metrics.moves.inc()

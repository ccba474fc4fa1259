"""The metrics fed by the match lifecycle: moves played and live matches, counted from the room's own events.

Why from the event bus (``server.lifecycle``): a room publishes when a match starts, when an entry was committed and
broadcast, and when a match ends; counting there keeps rooms free of metrics, and every path that plays a move - a
coach's flick, a tournament table, a recovered match - is counted the same. Per move the cost is one comparison and
one counter increment.
"""

from __future__ import annotations

from collections.abc import Iterable

from server.lifecycle import EventBus, MatchFinished, MatchStarted, MoveApplied
from server.ops.metrics import Metrics

FLICK = "flick"  # MoveApplied.kind of a coach's flick (a move that sends a MovePlayed with a trajectory)


class MatchCounters:
    """Keeps ``moves`` and ``live_matches`` up to date from the bus; ``resumed`` adds the matches recovery rebuilt."""

    def __init__(self, bus: EventBus, metrics: Metrics) -> None:
        self._metrics = metrics
        self._live: set[str] = set()  # match ids started (or resumed) and not finished on this node
        bus.subscribe(MatchStarted, self._started)
        bus.subscribe(MoveApplied, self._moved)
        bus.subscribe(MatchFinished, self._finished)

    def resumed(self, match_ids: Iterable[str]) -> None:
        """Matches rebuilt from the store are live again (recovery publishes no MatchStarted)."""
        self._live.update(match_ids)
        self._metrics.live_matches.set(len(self._live))

    def _started(self, event: MatchStarted) -> None:
        """One more live match."""
        self._live.add(event.match_id)
        self._metrics.live_matches.set(len(self._live))

    def _moved(self, event: MoveApplied) -> None:
        """A flick was committed and broadcast: one move."""
        if event.kind == FLICK:
            self._metrics.moves.inc()

    def _finished(self, event: MatchFinished) -> None:
        """One live match fewer."""
        self._live.discard(event.match_id)
        self._metrics.live_matches.set(len(self._live))

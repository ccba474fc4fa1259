"""A room's lifecycle as events on one in-process bus: a match started, a move was played, a match ended, a room
closed, a room was lost to another node of a cluster, who is in a room changed.

Why a bus: ratings, tournaments, metrics and logs all need to know when a match ends (and a few other moments), and
none of them may reach into a room to find out, nor may a room know them. A room publishes; each of them subscribes
to the kinds it cares about. Publishing is synchronous and never fails for the room: a subscriber that raises is
logged and the others still hear the event. A subscriber with I/O to do schedules it itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from shared.model import Team

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchStarted:
    """Both seats are taken and the match's first Snapshot is out."""

    room: str
    match_id: str
    ruleset: str
    overrides: dict[str, object]
    private: bool
    rated: bool
    home_player: int
    away_player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveApplied:
    """A log entry was committed and broadcast at ``version`` (a flick, a choice, a clock event)."""

    room: str
    match_id: str
    version: int
    team: Team
    score: tuple[int, int]
    kind: str  # the entry's input: "flick", another action, "timeout", "forfeit" or "elapse"
    duration_ms: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchFinished:
    """A match ended (committed): its result and reason, the final score and who played it."""

    room: str
    match_id: str
    ruleset: str
    overrides: dict[str, object]
    private: bool
    rated: bool
    home_player: int
    away_player: int
    winner: Team | None
    reason: str
    score: tuple[int, int]
    moves: int  # log entries of the match
    actions: int  # the coaches' own actions among them (0: abandoned at the start)


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomClosed:
    """A room closed (empty without a running match, or the server stopped)."""

    room: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomLost:
    """The store refused a write of a room because another node of the cluster owns it now (a newer lease): the room
    has stopped here, and its connections must be sent to where it is played (``server.cluster.node``)."""

    room: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PresenceChanged:
    """Who is in a room changed: the seats' players and whether they are connected, the spectators' count."""

    room: str
    home_player: int | None
    away_player: int | None
    connected: tuple[Team, ...]
    spectators: int


LifecycleEvent = MatchStarted | MoveApplied | MatchFinished | RoomClosed | RoomLost | PresenceChanged
E = TypeVar("E", MatchStarted, MoveApplied, MatchFinished, RoomClosed, RoomLost, PresenceChanged)


class EventBus:
    """Subscribers by event kind; ``publish`` calls each subscriber of the event's kind, in subscription order."""

    def __init__(self) -> None:
        self._subscribers: dict[type, list[Callable[[object], None]]] = {}

    def subscribe(self, kind: type[E], subscriber: Callable[[E], None]) -> None:
        """Call ``subscriber(event)`` for every published event of ``kind``."""
        self._subscribers.setdefault(kind, []).append(subscriber)  # type: ignore[arg-type]

    def publish(self, event: LifecycleEvent) -> None:
        """Tell every subscriber of the event's kind; one that raises is logged, the others still hear it."""
        for subscriber in self._subscribers.get(type(event), ()):
            try:
                subscriber(event)
            except Exception:
                log.exception("a subscriber of %s failed", type(event).__name__)

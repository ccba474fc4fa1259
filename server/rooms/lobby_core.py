"""The lobby's timing rules without I/O: when the quick-match queue is passed over again, how long a seat held for a
player sent from another node waits for him, and what becomes of a pair the queue made.

Why pure (as ``server.rooms.room_core`` for a room): these are decisions of the time ``now`` and of facts the lobby
passes in - when the pool says two waiting players will next accept each other, when a seat was held, whether the
paired players are connected here - so they are written once here and tested as transitions with the time as an
input; the asyncio ``server.rooms.lobby.Lobby`` keeps one timer at ``next_wake`` and carries out what ``due`` says.

The deadlines, as data: a queue pass at ``pass_at`` (an earlier one replaces a later; a later one never postpones it),
and every held seat's ``deadline`` (``held_seat_wait_ms`` after it was held; a client that follows MOVED takes well
under a second). What a pair becomes (``DISPOSITIONS``): both players here - a room here; one here and the other
waiting on another node of a cluster - a room here with both seats held, the other sent over; anyone gone - the ones
still here wait on, from when they first asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from server.rooms.registry import QueueEntry

HELD_SEAT_WAIT_MS = 20_000  # how long a seat held for a player sent from another node waits for him
Disposition = Literal["here", "across", "requeue"]

# (players of the pair connected here and free, players waiting on another node, a cluster to send them) -> the pair's
# fate. A player connected here but already in a room counts as neither: he left the queue meanwhile.
DISPOSITIONS: dict[tuple[int, int, bool], Disposition] = {
    (2, 0, False): "here",
    (2, 0, True): "here",
    (1, 1, True): "across",
    (1, 1, False): "requeue",  # one process: a player not connected here has gone
    (1, 0, False): "requeue",
    (1, 0, True): "requeue",
    (0, 2, False): "requeue",
    (0, 2, True): "requeue",  # both on other nodes: their own nodes pair them
    (0, 1, False): "requeue",
    (0, 1, True): "requeue",
    (0, 0, False): "requeue",
    (0, 0, True): "requeue",
}


def disposition(here: int, away: int, cluster: bool) -> Disposition:
    """What becomes of a pair with ``here`` of its players free on this node and ``away`` on other nodes."""
    return DISPOSITIONS[(here, away, cluster)]


@dataclass(frozen=True, slots=True, kw_only=True)
class HeldSeat:
    """A room opened here for a pair whose second player waits on another node: the player seated here, his queue
    entry (he goes back to the queue with it if the other never comes) and when the room is given up."""

    room: str
    player_id: int
    entry: QueueEntry
    deadline: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Due:
    """What is due at a moment: a queue pass, and the held seats whose player did not arrive in time."""

    queue_pass: bool = False
    given_up: tuple[HeldSeat, ...] = ()


@dataclass(slots=True)
class LobbyCore:
    """The lobby's deadlines (see the module docstring). Times are the lobby clock's milliseconds."""

    held_seat_wait_ms: int = HELD_SEAT_WAIT_MS
    pass_at: int | None = None
    held: dict[str, HeldSeat] = field(default_factory=dict)  # room code -> its held seat

    def pass_wanted(self, at_ms: int | None) -> bool:
        """The pool says two waiting players accept each other at ``at_ms`` (None: never): True when the next pass
        moves there (nothing was due earlier), False when the one already due no later stays."""
        if at_ms is None or (self.pass_at is not None and self.pass_at <= at_ms):
            return False
        self.pass_at = at_ms
        return True

    def hold(self, room: str, entry: QueueEntry, now: int) -> HeldSeat:
        """A seat is held in ``room`` for the player sent from another node; ``entry`` is the player's here."""
        seat = HeldSeat(room=room, player_id=entry.player_id, entry=entry, deadline=now + self.held_seat_wait_ms)
        self.held[room] = seat
        return seat

    def release(self, room: str) -> None:
        """The held room needs no more waiting (he came, or the room is gone)."""
        self.held.pop(room, None)

    def next_wake(self) -> int | None:
        """The earliest deadline: the next pass or a held seat's (None: nothing is due)."""
        times = [seat.deadline for seat in self.held.values()]
        if self.pass_at is not None:
            times.append(self.pass_at)
        return min(times) if times else None

    def due(self, now: int) -> Due:
        """What falls due by ``now`` (taken off the deadlines): the pass, then the held seats given up, earliest
        first."""
        queue_pass = self.pass_at is not None and self.pass_at <= now
        if queue_pass:
            self.pass_at = None
        late = sorted((s for s in self.held.values() if s.deadline <= now), key=lambda s: (s.deadline, s.room))
        for seat in late:
            del self.held[seat.room]
        return Due(queue_pass=queue_pass, given_up=tuple(late))

    @staticmethod
    def give_up(*, closed: bool, waiting: bool, still_there: bool) -> bool:
        """At its deadline a held room is given up only while it is open, its match has not started (he did not come)
        and the player here is still in it (he did not leave or move on)."""
        return not closed and waiting and still_there

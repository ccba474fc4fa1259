"""The lobby's timing rules as transitions with the time as an input (``server.rooms.lobby_core``): the queue's next
pass, the seats held for a player sent from another node, and what becomes of a pair."""

from __future__ import annotations

import pytest

from server.rooms.lobby_core import DISPOSITIONS, HELD_SEAT_WAIT_MS, LobbyCore, disposition
from server.rooms.registry import QueueEntry

ANN = QueueEntry(player_id=1, ruleset="quick", since_ms=100)


def test_the_first_pass_is_scheduled_when_the_pool_names_a_time():
    """Nothing due: a pass at 5000 is wanted; the core then wakes at 5000 and not before."""
    core = LobbyCore()
    assert core.next_wake() is None and not core.pass_wanted(None)
    assert core.pass_wanted(5000) and core.next_wake() == 5000
    assert not core.due(4999).queue_pass
    assert core.due(5000).queue_pass and core.next_wake() is None


def test_an_earlier_pass_replaces_a_later_one_and_a_later_one_never_postpones_it():
    """Due at 5000: 7000 changes nothing, 5000 changes nothing, 3000 moves the pass earlier."""
    core = LobbyCore()
    core.pass_wanted(5000)
    assert not core.pass_wanted(7000) and not core.pass_wanted(5000) and core.pass_at == 5000
    assert core.pass_wanted(3000) and core.next_wake() == 3000


def test_a_held_seat_is_given_up_exactly_when_its_wait_runs_out():
    """Held at 1000: nothing due before 1000 + the wait; at it, that seat, taken off the deadlines."""
    core = LobbyCore()
    seat = core.hold("ROOM1", ANN, 1000)
    assert seat.deadline == 1000 + HELD_SEAT_WAIT_MS and core.next_wake() == seat.deadline
    assert core.due(seat.deadline - 1).given_up == ()
    due = core.due(seat.deadline)
    assert due.given_up == (seat,) and not due.queue_pass and core.next_wake() is None


def test_the_wait_a_cluster_sets_is_the_held_seats():
    """A cluster node's held_seat_wait_ms is the deadline's distance."""
    core = LobbyCore(held_seat_wait_ms=2000)
    assert core.hold("ROOM1", ANN, 50).deadline == 2050


def test_a_released_seat_is_no_longer_due():
    """The room needs no waiting any more (he came, or it closed): no deadline left for it."""
    core = LobbyCore()
    core.hold("ROOM1", ANN, 0)
    core.release("ROOM1")
    assert core.next_wake() is None and core.due(10**9).given_up == ()


def test_the_next_wake_is_the_earliest_of_the_pass_and_the_held_seats():
    """A pass at 30 s and seats held at 0 and 5 s: the timer wakes for the first seat, then the second, then the
    pass; seats due together come earliest first."""
    core = LobbyCore(held_seat_wait_ms=20_000)
    core.pass_wanted(30_000)
    first = core.hold("B", ANN, 0)
    second = core.hold("A", QueueEntry(player_id=2, ruleset="quick"), 5000)
    assert core.next_wake() == 20_000
    assert core.due(25_000).given_up == (first, second)
    assert core.next_wake() == 30_000 and core.due(30_000).queue_pass


@pytest.mark.parametrize(("closed", "waiting", "still_there", "given_up"), [
    (False, True, True, True),
    (True, True, True, False),  # the room is gone already
    (False, False, True, False),  # he came: the match started
    (False, True, False, False),  # the player here left or was moved on
])
def test_a_held_room_is_given_up_only_while_it_still_waits_with_its_player(closed, waiting, still_there, given_up):
    """At the deadline: an open room still waiting with the player here in it is given up; otherwise nothing."""
    assert LobbyCore.give_up(closed=closed, waiting=waiting, still_there=still_there) is given_up


def test_a_pair_gets_a_room_here_only_when_both_are_here_and_is_sent_across_only_in_a_cluster():
    """Both here: a room here; one here and one on another node: across in a cluster, else he waits on; anyone
    gone: the others wait on."""
    assert disposition(2, 0, False) == disposition(2, 0, True) == "here"
    assert disposition(1, 1, True) == "across"
    assert disposition(1, 1, False) == "requeue"
    assert {fate for (here, _, _), fate in DISPOSITIONS.items() if here < 2} <= {"across", "requeue"}
    assert [key for key, fate in DISPOSITIONS.items() if fate == "across"] == [(1, 1, True)]

"""The room's rules without a socket, a task or a store: each transition of ``server.rooms.room_core`` with explicit
wall times, checked by the effects it returns (like websockets' test_protocol.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.lifecycle import MatchFinished, MatchStarted, MoveApplied, PresenceChanged
from server.rooms.resolve import resolve
from server.rooms.room_core import TRANSITIONS, Broadcast, Effect, EntryPlan, Persist, Publish, RoomCore, RoomError
from server.store.match_records import EntryWrite, MatchStart, RoomRow
from shared.model import Flick, Team
from shared.protocol import (
    SERVER_MESSAGES,
    ClockUpdate,
    MatchEnded,
    MovePlayed,
    Notice,
    Presence,
    RematchOffered,
    RoomJoined,
    Snapshot,
    decode,
)

GRACE, MOVE_CLOCK = 9000, 4000


@dataclass(eq=False)
class Coach:
    """A member: a player id, a name and a token (no socket)."""

    player_id: int
    name: str
    token: str = "t"
    muted: set[int] = field(default_factory=set)


def _core() -> RoomCore:
    """A standard room with a short move clock and grace."""
    return RoomCore(code="ROOM1", ruleset="standard", private=True, match_id="m1", seed=7, history_size=50,
                    overrides={"move_clock_ms": MOVE_CLOCK, "disconnect_grace_ms": GRACE})


def _sent(effects: list[Effect]) -> list[tuple[type, tuple[int, ...]]]:
    """Each broadcast as (message type, player ids it goes to)."""
    return [(type(decode(e.frame, SERVER_MESSAGES)), tuple(m.player_id for m in e.to))
            for e in effects if isinstance(e, Broadcast)]


def _written(effects: list[Effect], now: int) -> list[Effect]:
    """The effects as the shell carries them out when every write succeeds: each Persist, then what its ``then``
    gives once the write is done (at ``now``)."""
    out: list[Effect] = []
    for effect in effects:
        out.append(effect)
        if isinstance(effect, Persist):
            out += _written(effect.then(now), now)
    return out


def _started() -> tuple[RoomCore, Coach, Coach]:
    """A room whose match has started at t = 1000 with Ann home and Bob away."""
    core, ann, bob = _core(), Coach(1, "Ann"), Coach(2, "Bob")
    _written(core.seat(ann, "home", 0), 0)
    _written(core.seat(bob, "away", 1000), 1000)
    return core, ann, bob


def _flick_plan(core: RoomCore, ann: Coach, bob: Coach, now: int) -> EntryPlan:
    """The planned flick of the coach to move (a straight shot of his second stone)."""
    mover = ann if core.match.position.to_move == "home" else bob
    team: Team = "home" if mover is ann else "away"
    stone = "h2" if team == "home" else "a2"
    return core.plan_action(mover, Flick(team, stone, 1500.0 * (1 if team == "home" else -1), 0.0), core.version,
                            now)


def test_a_first_coach_gets_room_joined_then_presence_and_the_room_waits():
    """Seat one coach: RoomJoined to him first, then Presence; no match, no write."""
    core, ann = _core(), Coach(1, "Ann")
    effects = core.seat(ann, "home", 0)
    assert _sent(effects) == [(RoomJoined, (1,)), (Presence, (1,))]
    assert core.phase == "waiting" and not any(isinstance(e, Persist) for e in effects)


def test_the_second_coach_starts_the_match_storing_it_before_its_first_snapshot():
    """waiting -> playing: RoomJoined to Bob, the match and the room written, then the Snapshot to both."""
    core, ann, bob = _core(), Coach(1, "Ann"), Coach(2, "Bob")
    _written(core.seat(ann, "home", 0), 0)
    effects = _written(core.seat(bob, "away", 1000), 1000)
    kinds = [type(e) if not isinstance(e, Broadcast) else type(decode(e.frame, SERVER_MESSAGES)) for e in effects]
    assert kinds[:3] == [RoomJoined, Persist, Snapshot]
    persist = next(e for e in effects if isinstance(e, Persist))
    assert [type(r) for r in persist.records] == [MatchStart, RoomRow]
    assert core.phase == "playing" and core.version == 1 and core.clock.running
    assert any(isinstance(e, Publish) and isinstance(e.event, MatchStarted) for e in effects)


def test_a_coach_who_drops_pauses_the_clock_and_his_seat_waits():
    """playing, coach away: ClockUpdate paused, Presence, and the forfeit is the next clock event (at the grace)."""
    core, _, bob = _started()
    effects = core.detach(bob, 2000)
    assert _sent(effects) == [(ClockUpdate, (1,)), (Presence, (1,))]
    assert not core.clock.running and core.match.absent == {"away": 2000}
    assert core.next_wake() == 2000 + GRACE
    info = core.seats_info(5000).away
    assert info is not None and not info.connected and info.grace_ms == GRACE - 3000


def test_the_grace_running_out_plans_a_forfeit():
    """No plan before the grace ends; at it, a Forfeit of the away team."""
    core, _, bob = _started()
    core.detach(bob, 2000)
    assert core.due(2000 + GRACE - 1) is None
    plan = core.due(2000 + GRACE)
    assert plan is not None and plan.entry.input is not None and plan.entry.input.action == "forfeit"
    assert plan.entry.team == "away"


def test_a_coach_who_comes_back_resumes_the_clock():
    """The coach's return: RoomJoined to him, ClockUpdate running to both, Presence."""
    core, _, bob = _started()
    core.detach(bob, 2000)
    effects = core.attach(bob, "away", 3000)
    assert _sent(effects) == [(RoomJoined, (2,)), (ClockUpdate, (1, 2)), (Presence, (1, 2))]
    assert core.clock.running and not core.match.absent


def test_nobody_may_act_while_a_coach_is_away():
    """Product decision 5: the present coach's action is refused while the other is away."""
    core, ann, bob = _started()
    core.detach(bob, 2000)
    with pytest.raises(RoomError) as refused:
        core.plan_action(ann, Flick("home", "h2", 1500.0, 0.0), core.version, 2500)
    assert refused.value.code == "ACTION_NOT_ALLOWED" and "Bob" in refused.value.message


def test_a_stale_and_a_future_version_are_refused():
    """An action on another version than the room's is STALE_VERSION; a future one says it was never sent."""
    core, ann, _ = _started()
    for version, word in ((0, "older"), (5, "never sent")):
        with pytest.raises(RoomError) as refused:
            core.plan_action(ann, Flick("home", "h2", 1500.0, 0.0), version, 1500)
        assert refused.value.code == "STALE_VERSION" and word in refused.value.message


def test_a_spectator_may_not_act_and_a_coach_only_for_his_team():
    """NOT_A_PLAYER for a spectator, NOT_YOUR_TEAM for the other team's action."""
    core, ann, _ = _started()
    eve = Coach(3, "Eve")
    core.watch(eve, 1000)
    with pytest.raises(RoomError, match="read-only"):
        core.plan_action(eve, Flick("home", "h2", 1500.0, 0.0), core.version, 1500)
    with pytest.raises(RoomError) as refused:
        core.plan_action(ann, Flick("away", "a2", 1500.0, 0.0), core.version, 1500)
    assert refused.value.code == "NOT_YOUR_TEAM"


def test_a_committed_move_is_persisted_then_broadcast_and_locks_input_for_its_playback():
    """plan -> resolve -> commit: the entry written first, then the MovePlayed to everyone; D3 until its end."""
    core, ann, bob = _started()
    plan = _flick_plan(core, ann, bob, 1500)
    resolved = resolve(plan.position, plan.entry, plan.stamp)
    effects = core.commit(plan, resolved)
    assert len(effects) == 1 and isinstance(effects[0], Persist) and isinstance(effects[0].records[0], EntryWrite)
    assert core.version == 1 and core.match.log_len == 0  # nothing changes before the write is done
    effects = _written(effects, 1600)
    assert _sent(effects) == [(MovePlayed, (1, 2))]
    assert any(isinstance(e, Publish) and isinstance(e.event, MoveApplied) for e in effects)
    assert core.version == 2 and core.match.log_len == 1
    team = plan.entry.team
    other = bob if team == "home" else ann
    other_team: Team = "away" if team == "home" else "home"
    with pytest.raises(RoomError) as refused:
        core.plan_action(other, Flick(other_team, "a3", 1500.0, 0.0), core.version, 1601)
    assert refused.value.code == "ACTION_NOT_ALLOWED" and refused.value.retry_ms == resolved.duration_ms - 1


def test_the_move_clock_plans_a_timeout_of_the_team_to_move():
    """A35: nothing due before move_clock_ms after the start; at it, a Timeout of the team to move."""
    core, _, _ = _started()
    assert core.due(1000 + MOVE_CLOCK - 1) is None
    plan = core.due(1000 + MOVE_CLOCK)
    assert plan is not None and plan.entry.input is not None and plan.entry.input.action == "timeout"
    assert plan.entry.team == core.match.position.to_move and plan.entry.elapsed_ms == MOVE_CLOCK


def test_a_forfeit_ends_the_match_and_publishes_it():
    """playing -> ended: the forfeit's MovePlayed, MatchEnded, and MatchFinished on the bus."""
    core, _, bob = _started()
    core.detach(bob, 2000)
    plan = core.due(2000 + GRACE)
    assert plan is not None
    effects = _written(core.commit(plan, resolve(plan.position, plan.entry, plan.stamp)), 2000 + GRACE)
    assert [t for t, _ in _sent(effects)] == [MovePlayed, MatchEnded]
    finished = [e.event for e in effects if isinstance(e, Publish) and isinstance(e.event, MatchFinished)]
    assert len(finished) == 1 and finished[0].winner == "home" and finished[0].reason == "FORFEIT_DISCONNECTED"
    write = next(r for e in effects if isinstance(e, Persist) for r in e.records)
    assert isinstance(write, EntryWrite) and write.end is not None and write.end.winner == "home"
    assert core.phase == "ended" and core.next_wake() is None


def test_a_rematch_needs_both_coaches_and_swaps_the_seats():
    """ended -> playing: RematchOffered for the first ask; on the second a new match with the seats swapped, then
    each coach's RoomJoined with his new seat."""
    core, ann, bob = _started()
    core.detach(bob, 2000)
    plan = core.due(2000 + GRACE)
    assert plan is not None
    _written(core.commit(plan, resolve(plan.position, plan.entry, plan.stamp)), 2000 + GRACE)
    core.attach(bob, "away", 20_000)
    with pytest.raises(RoomError):
        core.ask_rematch(Coach(9, "Eve"), 20_001, "m2", 3)
    assert _sent(core.ask_rematch(ann, 20_001, "m2", 3)) == [(RematchOffered, (1, 2))]
    effects = _written(core.ask_rematch(bob, 20_002, "m2", 3), 20_003)
    assert core.seats == {"home": 2, "away": 1} and core.match.id == "m2" and core.phase == "playing"
    assert [t for t, _ in _sent(effects)] == [RematchOffered, Snapshot, Presence, RoomJoined, RoomJoined]
    start = next(r for e in effects if isinstance(e, Persist) for r in e.records if isinstance(r, MatchStart))
    assert (start.match_id, start.home_player, start.away_player, start.version_base) == ("m2", 2, 1, core.version)


def test_the_store_failing_pauses_the_clock_and_refuses_actions_until_it_recovers():
    """store_changed(False): Notice PLAY_PAUSED and a paused ClockUpdate, STORE_UNAVAILABLE, no clock events;
    store_changed(True): PLAY_RESUMED and the clock runs."""
    core, ann, _ = _started()
    effects = core.store_changed(False, False, "database or disk is full", 2000)
    assert [t for t, _ in _sent(effects)] == [Notice, ClockUpdate]
    assert not core.clock.running and core.next_wake() is None
    with pytest.raises(RoomError) as refused:
        core.plan_action(ann, Flick("home", "h2", 1500.0, 0.0), core.version, 2100)
    assert refused.value.code == "STORE_UNAVAILABLE"
    core.store_changed(True, False, "", 3000)
    assert core.clock.running and core.next_wake() is not None


def test_resync_sends_what_was_missed_or_a_clock_update_or_refuses_a_future_version():
    """Missed versions from the history; nothing missed: ClockUpdate; past the version: STALE_VERSION."""
    core, ann, _ = _started()
    assert _sent(core.resync(ann, 0, 1500)) == [(Snapshot, (1,))]
    assert _sent(core.resync(ann, core.version, 1500)) == [(ClockUpdate, (1,))]
    with pytest.raises(RoomError, match="never sent"):
        core.resync(ann, core.version + 1, 1500)


def test_everyone_leaving_a_waiting_room_makes_it_idle_and_it_closes():
    """waiting -> closed: a coach leaving before the match frees his seat; an empty idle room closes."""
    core, ann = _core(), Coach(1, "Ann")
    _written(core.seat(ann, "home", 0), 0)
    effects = core.detach(ann, 10)
    assert core.seats["home"] is None and core.idle()
    assert any(isinstance(e, Publish) and isinstance(e.event, PresenceChanged) for e in effects)
    core.close()
    assert core.phase == "closed"


def test_a_running_match_is_never_idle_even_when_everyone_is_away():
    """A match whose coaches both dropped waits for them (grace): the room does not close."""
    core, ann, bob = _started()
    core.detach(ann, 2000)
    core.detach(bob, 2000)
    assert not core.idle() and core.phase == "playing"


def test_the_lifecycle_table_has_no_way_out_of_closed():
    """closed is final: the only transition from it is closing again."""
    assert {event for (phase, event) in TRANSITIONS if phase == "closed"} == {"close"}
    with pytest.raises(KeyError):
        TRANSITIONS[("closed", "start")]


def test_a_closed_room_plans_no_entry_and_seats_nobody():
    """Once a room has closed here (the server stops, or a cluster node hands it over) nothing is written for it:
    an action, a resignation, a clock event and a new coach are refused with ROOM_NOT_FOUND, the room unchanged."""
    core, ann, bob = _started()
    mover, team = (ann, "home") if core.match.position.to_move == "home" else (bob, "away")
    core.close()
    version = core.version
    refusals = [
        lambda: core.plan_action(mover, Flick(team, "h2" if team == "home" else "a2", 1500.0, 0.0), version, 1500),
        lambda: core.plan_resign(ann, 1500),
        lambda: core.seat(Coach(3, "Eve"), "home", 1500),
    ]
    for refused_call in refusals:
        with pytest.raises(RoomError) as refused:
            refused_call()
        assert refused.value.code == "ROOM_NOT_FOUND" and "closed" in refused.value.message
    with pytest.raises(RoomError, match="closed"):
        core.due(1000 + MOVE_CLOCK + 1)
    assert core.version == version and core.match.log_len == 0 and core.seats["home"] == 1


def _state(core: RoomCore, member: Coach, now: int) -> tuple[object, ...]:
    """Everything a member can be told of the room at ``now``: its version, phase, snapshot and kept history."""
    kept = [decode(e.frame, SERVER_MESSAGES) for e in core.resync(member, 0, now) if isinstance(e, Broadcast)]
    return (core.version, core.phase, core.match.log_len, core.match.position, core.match.moving_until,
            core.clock.pending, core.clock.anchor, core.next_wake(), core.snapshot(now), kept)


def test_a_refused_entry_write_leaves_the_room_at_the_version_the_store_has():
    """A move whose write is refused (``then`` never called) changes nothing: the version, the position, the clocks,
    the next clock event, the Snapshot and the kept history are what they were - no Resync can tell the move - and
    the same coach may act again on the same version."""
    core, ann, bob = _started()
    before = _state(core, ann, 1500)
    plan = _flick_plan(core, ann, bob, 1500)
    effects = core.commit(plan, resolve(plan.position, plan.entry, plan.stamp))
    assert [type(e) for e in effects] == [Persist]
    assert _state(core, ann, 1500) == before
    again = _flick_plan(core, ann, bob, 1500)
    assert again.entry.index == plan.entry.index and again.stamp.version == plan.stamp.version


def test_a_refused_clock_event_write_changes_nothing_either():
    """The move clock's timeout (the timer's path) planned and resolved, its write refused: the room is as before and
    the same timeout is still due."""
    core, ann, _ = _started()
    plan = core.due(1000 + MOVE_CLOCK)
    assert plan is not None
    before = _state(core, ann, 1000 + MOVE_CLOCK)
    core.commit(plan, resolve(plan.position, plan.entry, plan.stamp))
    assert _state(core, ann, 1000 + MOVE_CLOCK) == before
    still = core.due(1000 + MOVE_CLOCK)
    assert still is not None and still.entry == plan.entry


def test_a_refused_match_start_leaves_the_room_waiting():
    """The second coach sits down and the match's write is refused: the room still waits (no version, no clock, no
    match started) - his RoomJoined, decided before the write, is all that went out."""
    core, ann, bob = _core(), Coach(1, "Ann"), Coach(2, "Bob")
    _written(core.seat(ann, "home", 0), 0)
    effects = core.seat(bob, "away", 1000)
    assert [type(e) for e in effects] == [Broadcast, Persist] and _sent(effects) == [(RoomJoined, (2,))]
    assert core.phase == "waiting" and core.version == 0 and not core.match.started and not core.clock.running
    assert core.status == "waiting" and core.next_wake() is None


def test_a_refused_rematch_write_keeps_the_ended_match_and_the_seats():
    """Both coaches ask for a rematch and the new match's write is refused: the ended match, its seats, its version
    and the offers stand."""
    core, ann, bob = _started()
    core.detach(bob, 2000)
    plan = core.due(2000 + GRACE)
    assert plan is not None
    _written(core.commit(plan, resolve(plan.position, plan.entry, plan.stamp)), 2000 + GRACE)
    core.attach(bob, "away", 20_000)
    core.ask_rematch(ann, 20_001, "m2", 3)
    version = core.version
    effects = core.ask_rematch(bob, 20_002, "m2", 3)
    assert isinstance(effects[-1], Persist)
    assert core.match.id == "m1" and core.phase == "ended" and core.seats == {"home": 1, "away": 2}
    assert core.version == version and core.rematch == {"home", "away"}


@settings(max_examples=25, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=12))
def test_the_room_tells_exactly_the_entries_whose_writes_were_done(writes: list[bool]):
    """Clock events planned one after another, each write done or refused as drawn: the room's version and log
    count only the written ones, and a Resync from the start tells exactly their frames, in order - never one the
    store refused."""
    core, ann, _ = _started()
    now, told = 1000, list[bytes]()
    for done in writes:
        now += MOVE_CLOCK
        plan = core.due(now)
        assert plan is not None and plan.entry.index == len(told)
        resolved = resolve(plan.position, plan.entry, plan.stamp)
        (persist,) = core.commit(plan, resolved)
        assert isinstance(persist, Persist)
        if done:
            persist.then(now)
            assert resolved.frame is not None
            told.append(resolved.frame)
        else:
            now -= MOVE_CLOCK  # the same event is due again at the same moment
    assert core.version == 1 + len(told) and core.match.log_len == len(told)
    resent = [e.frame for e in core.resync(ann, 1, now) if isinstance(e, Broadcast)]
    assert [frame for frame in resent if isinstance(decode(frame, SERVER_MESSAGES), MovePlayed)] == told

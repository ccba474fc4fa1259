"""Room clocks driven by a FakeClock on a real server: move-clock timeout, choice default, disconnect grace."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from server.app import Server, ServerConfig
from server.clock import FakeClock
from server.rooms.room import Room
from shared.protocol import ClockUpdate, Error, MatchEnded, MovePlayed
from shared.referee.adjudicate import judge
from tests.referee.builders import SETTINGS, contact, flick, position, record, stone
from tests.server.players import WireClient, two_coaches

MOVE_MS, CHOICE_MS, GRACE_MS = 4000, 700, 9000
CLOCKED = {
    "period_ms": 600_000,
    "move_clock_ms": MOVE_MS,
    "choice_timeout_ms": CHOICE_MS,
    "disconnect_grace_ms": GRACE_MS,
}


@pytest.fixture
async def clocked(tmp_path: Path) -> AsyncIterator[tuple[Server, FakeClock]]:
    """A server on port 0 whose rooms read a FakeClock (physics in-line)."""
    clock = FakeClock()
    srv = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0), clock=clock)
    await srv.start()
    yield srv, clock
    await srv.shutdown()


async def _match(server: Server, settings: dict[str, int] = CLOCKED) -> tuple[WireClient, WireClient, Room]:
    """Ann and Bob in a private room with the clocked settings; the match has started."""
    ann, bob = await two_coaches(server.url, "standard", settings)
    return ann, bob, server.lobby.find(ann.code)


async def test_the_move_clock_running_out_passes_the_turn(clocked: tuple[Server, FakeClock]):
    """Nothing happens before move_clock_ms; at it, a MovePlayed without action gives the other team the move."""
    server, clock = clocked
    ann, _, room = await _match(server)
    mover = room.match.position.to_move
    await clock.advance(MOVE_MS - 1)
    assert room.match.position.to_move == mover and room.version == ann.version
    assert room.core.next_wake() == clock.now_ms() + 1
    await clock.advance(1)
    played = await ann.until(MovePlayed)
    assert played.action is None and played.team == mover and played.trajectory is None
    assert played.position.to_move != mover


async def test_an_unanswered_choice_gets_its_default_after_the_choice_timeout(clocked: tuple[Server, FakeClock]):
    """A goalie-foul exclusion choice nobody answers is settled by its default (h6) at choice_timeout_ms, told as a
    TIMEOUT ruling in a MovePlayed without action."""
    server, clock = clocked
    ann, _, room = await _match(server)
    field = [stone(f"h{i}", x, y) for i, (x, y) in enumerate(((-100, 0), (-300, 150), (-300, -150), (-200, 0)), 2)]
    start = position(*field, stone("h6", -350, 0), stone("a2", 0, 60), stone("a7", -380, 60))
    prompted = judge(start, flick("h1", 0, 300), record(start, contact(6, "a7", "h1")), SETTINGS).position
    async with room.lock:  # put the room in a position that awaits home's choice
        room.match.position = replace(prompted, to_move="home")
        room.reschedule()
    assert [p["kind"] for p in room.prompts()] == ["choose_exclusion"]
    await clock.advance(CHOICE_MS - 1)
    assert room.prompts() and room.version == ann.version
    await clock.advance(1)
    played = await ann.until(MovePlayed)
    assert played.action is None and played.team == "home"  # the server decided: the default, told as TIMEOUT
    timeout = played.decisions[0]
    assert timeout.code == "TIMEOUT" and dict(timeout.fields) == {"team": "home", "kind": "choose_exclusion"}
    assert played.position.stone("h6") is None, played.decisions  # the default: h6 goes
    assert played.prompts == ()


async def test_a_prompt_says_how_long_until_its_default_and_freezes_while_paused(clocked: tuple[Server, FakeClock]):
    """ms_left is choice_timeout_ms when the prompt appears, counts down with the clock and stops while paused."""
    server, clock = clocked
    ann, bob, room = await _match(server)
    field = [stone(f"h{i}", x, y) for i, (x, y) in enumerate(((-100, 0), (-300, 150), (-300, -150), (-200, 0)), 2)]
    start = position(*field, stone("h6", -350, 0), stone("a2", 0, 60), stone("a7", -380, 60))
    prompted = judge(start, flick("h1", 0, 300), record(start, contact(6, "a7", "h1")), SETTINGS).position
    async with room.lock:
        room.match.position = replace(prompted, to_move="home")
        room.reschedule()
    assert [p["ms_left"] for p in room.snapshot().prompts] == [CHOICE_MS]
    await clock.advance(300)
    assert [p["ms_left"] for p in room.snapshot().prompts] == [CHOICE_MS - 300]
    await bob.close()
    assert (await ann.until(ClockUpdate)).clocks.paused
    await clock.advance(200)
    snapshot = room.snapshot()
    assert snapshot.clocks.paused and [p["ms_left"] for p in snapshot.prompts] == [CHOICE_MS - 300]


async def test_an_absent_coach_pauses_the_clocks_then_forfeits_after_the_grace(clocked: tuple[Server, FakeClock]):
    """While Bob is away no move clock runs out; at disconnect_grace_ms he forfeits the match."""
    server, clock = clocked
    ann, bob, room = await _match(server)
    await bob.close()
    update = await ann.until(ClockUpdate)
    assert update.clocks.paused
    await clock.advance(GRACE_MS - 1)  # far past the move clock: paused, so no timeout
    assert room.match.position.result is None and room.version == ann.version
    await clock.advance(1)
    ended = await ann.until(MatchEnded)
    assert ended.winner == ann.team and ended.reason == "FORFEIT_DISCONNECTED"


async def test_an_action_while_the_board_moves_is_refused_and_changes_nothing_then_accepted_after_it(
    clocked: tuple[Server, FakeClock],
):
    """D3: an action 10 ms into a move's playback gets ACTION_NOT_ALLOWED and changes nothing; at its end it plays."""
    server, clock = clocked
    ann, bob, room = await _match(server)
    first = ann if ann.team == room.match.position.to_move else bob
    await first.send(first.flick())
    played = await first.until(MovePlayed)
    assert played.trajectory is not None and played.trajectory.duration_ms > 10
    duration = played.trajectory.duration_ms
    second = ann if ann.team == played.position.to_move else bob
    while second.version < played.version:
        await second.recv()
    before = (room.version, room.match.log_len, room.match.position)
    await clock.advance(10)
    await second.send(second.flick())
    refused = await second.until(Error)
    assert refused.code == "ACTION_NOT_ALLOWED" and "still moving (D3)" in refused.message and refused.ref == "Act"
    assert refused.retry_ms == duration - 10  # the client holds its input for this long (client.match.net)
    assert (room.version, room.match.log_len, room.match.position) == before
    await clock.advance(duration - 10)
    await second.send(second.flick())
    answered = await second.until(MovePlayed)
    assert answered.version == played.version + 1 and answered.action is not None
    assert answered.team == second.team and room.match.log_len == before[1] + 1


async def test_the_move_clock_does_not_run_in_a_break_and_a_restart_starts_with_a_full_one(
    clocked: tuple[Server, FakeClock],
):
    """A35 / III.5: after a 4 s period and the 30 s break the restarting team has its whole move clock."""
    server, clock = clocked
    ann, bob, room = await _match(server, {"period_ms": 4000})
    full = room.settings.move_clock_ms
    starter = ann if ann.team == room.match.position.to_move else bob
    await starter.send(starter.flick())  # V.2: the other team, to move at the siren, restarts period 2
    await ann.until(MovePlayed)
    await clock.advance(4000)  # period 1 ends: the break begins
    assert (await ann.until(MovePlayed)).position.part.kind == "break" and room.clocks().move_ms == 0
    await clock.advance(room.settings.break_ms)  # period 2: a restart
    part = (await ann.until(MovePlayed)).position.part
    assert (part.kind, part.number) == ("period", 2) and room.match.position.restart
    restarting, version = room.match.position.to_move, room.version
    assert room.clocks().move_ms == full
    await clock.advance(part.clock_ms - 1)  # the whole of period 2 but its last ms: no move clock ran out
    assert room.version == version and room.match.position.to_move == restarting

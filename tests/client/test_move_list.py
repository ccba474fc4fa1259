"""The match record: every move shown becomes one entry with every ruling of that move, in live play (from
MovePlayed) and in replays (rebuilt when jumping); the list wraps and scrolls; the room list shows the score."""

from __future__ import annotations

from client.match import move_list, samples
from client.match.replay_model import ReplayCursor, build
from client.match.state import MatchState
from client.player.lobby_model import room_line
from shared.model import Flick
from shared.outcome import Decision
from shared.protocol import Clocks, MovePlayed, RoomInfo, Score, SeatInfo, Seats
from tests.client.helpers import basic_position
from tests.client.test_net import _joined, _snapshot


def test_every_ruling_of_every_move_is_in_the_move_list():
    """A dozen real moves: twelve entries, and the decisions of each are all written out under it."""
    state = samples.match_state(moves=12)
    assert [e.number for e in state.moves] == list(range(1, 13))
    decisions = sum(1 for line in state.log if line.kind == "decision")
    assert sum(len(e.rulings) for e in state.moves) == decisions > 0
    assert all(e.team in ("home", "away") and " at " in e.what for e in state.moves)


def test_a_move_the_server_decided_is_listed_for_its_team():
    """MovePlayed with a nil action (a move clock ran out) names the team and says the server decided."""
    client, state, link = _joined(_snapshot(5))
    decision = Decision("TIMEOUT", (("team", "home"),))
    client.inbox.put(MovePlayed("ABCD", 6, "home", None, None, (decision,), basic_position(to_move="away"),
                                Clocks(300_000, 30_000, "away", False), ()))
    link.poll(state, now=1.0)
    entry = state.moves[-1]
    assert entry.team == "home" and "server" in entry.what and [r.code for r in entry.rulings] == ["TIMEOUT"]


def test_a_timeout_tells_the_rooms_move_clock_not_the_default():
    """A35 in a room of a 10-second move clock: the log, the banner and the move list say 10 s, not 30 s."""
    client, state, link = _joined(_snapshot(5))
    decision = Decision("TIMEOUT", (("team", "home"),))
    after = basic_position(to_move="away", settings=(("move_clock_ms", 10_000),))
    client.inbox.put(MovePlayed("ABCD", 6, "home", None, None, (decision,), after,
                                Clocks(300_000, 10_000, "away", False), ()))
    link.poll(state, now=1.0)
    said = [line.text for line in state.log if line.kind == "decision"][-1]
    assert "did not move in 10 s" in said and "30 s" not in said
    assert "did not move in 10 s" in state.banner
    assert "did not move in 10 s" in state.moves[-1].rulings[0].text


def test_a_flick_from_the_wire_names_its_stone():
    """A coach's flick is listed with its stone and speed."""
    client, state, link = _joined(_snapshot(5))
    client.inbox.put(MovePlayed("ABCD", 6, "home", Flick("home", "h2", 1500.0, 0.0), None, (),
                                basic_position(to_move="away"), Clocks(300_000, 30_000, "away", False), ()))
    link.poll(state, now=1.0)
    assert state.moves[-1].what == "h2 at 1.5 m/s"


def test_jumping_in_a_replay_rebuilds_the_record_up_to_that_move():
    """Back to move 3 of a replay: three entries, each with the rulings the replay's moves carry."""
    start = samples.new_match()
    replay = build(start, tuple(_actions(start, 8)))
    cursor = ReplayCursor(replay)
    shown = MatchState()
    cursor.jump(shown, 3, 0.0)
    assert len(shown.moves) == 3
    assert [len(e.rulings) for e in shown.moves] == [len(m.decisions) for m in replay.moves[:3]]
    assert any(e.rulings for e in shown.moves) or not any(m.decisions for m in replay.moves[:3])
    cursor.jump(shown, cursor.total, 0.0)
    assert len(shown.moves) == cursor.total == len(replay.moves)


def _actions(start, moves):
    """The flicks the sample player makes from ``start`` (timeouts left out: a replay needs the actions)."""
    from shared.match import apply_action

    found, position = [], start
    for _ in range(moves):
        flick = samples.toward_puck(position, position.to_move)
        if flick is None:
            break
        result = apply_action(position, flick)
        if not result.accepted:
            break
        found.append(flick)
        position = result.position
    return found


def test_lines_wrap_rulings_inside_the_width_and_window_follows_the_newest():
    """No printed line is wider than asked; the window shows the last rows unless scrolled back."""
    state = samples.match_state(moves=12)
    found = move_list.lines(state.moves, state.names, 30)
    assert all(len(line.text) <= 30 for line in found)
    assert move_list.window(len(found), 10, 0) == (len(found) - 10, len(found))
    assert move_list.window(len(found), 10, 10_000) == (0, 10)
    assert move_list.window(3, 10, 5) == (0, 3)


def test_the_room_list_shows_score_part_and_time_left():
    """A playing room reads with its score and the part's time left."""
    seats = Seats(SeatInfo("Jana", True), SeatInfo("Ola", True))
    room = RoomInfo("K7QZ", "quick", seats, 2, "playing", Score(2, 1), Clocks(125_000, 0, "home", False), "period 1")
    line = room_line(room)
    assert "Jana 2:1 Ola" in line and "Period 1 2:05 left" in line and "2 watching" in line



def test_a_narrow_list_keeps_a_speed_with_its_unit_and_every_number() -> None:
    """Wrapped into a narrow panel, a move's speed stays beside its unit and no line is cut: every number of the
    entry is printed."""
    from client.match.move_list import MoveEntry, lines

    entry = MoveEntry(number=12, team="home", what="a2 rychlostí 1.9 m/s", rulings=())
    printed = lines([entry], {"home": "Jana Nováková"}, 22)
    text = " ".join(line.text for line in printed)
    assert "1.9\u00a0m/s" in text and "12." in text
    assert all(len(line.text) <= 22 for line in printed)

"""A tournament's table whose other coach has not come says who is missing and counts the no-show walkover down
(no "Your move", no move clock); a match whose every move timed out says why it was not rated."""

from __future__ import annotations

from client.common import rating_text
from client.match import hud_model, samples
from client.match.state import Clock, MatchState
from client.player.tournament_session import TournamentSession
from shared.protocol import TableAssigned

TABLE = TableAssigned(tournament="ABC123", stage=0, round=1, table=2, room="ROOM77", ruleset="standard",
                      seat="home", opponent="Eva Malá", no_show_ms=300_000)


def _at_the_table() -> MatchState:
    """Jana at her held table before the match: Eva's seat is held, Eva offline, the clocks stopped."""
    state = samples.match_state(moves=0)
    state.room, state.seat = "ROOM77", "home"
    state.names = {"home": "Jana", "away": "Eva Malá"}
    state.offline = {"away"}
    state.part_clock = Clock(600_000, False, 0.0)
    state.move_clock = Clock(30_000, True, 0.0)
    return state


def test_a_table_waiting_for_its_opponent_names_him_and_counts_the_walkover_down() -> None:
    """Not "Your move": who is missing and the time left before he loses by walkover; no move clock."""
    state = _at_the_table()
    session = TournamentSession("ABC123", "p1")
    session.apply(TABLE, 10.0)
    state.no_show_until = session.no_show_deadline("ROOM77")
    hud = hud_model.build(state, 70.0)
    assert hud is not None
    assert hud.status == "Waiting for Eva Malá — if not here within 4:00, you win by walkover"
    assert hud.home.move_clock is None and hud.away.move_clock is None
    assert "Your move" not in hud.status and not hud.home.to_move and not state.my_turn(70.0)


def test_without_a_no_show_time_it_still_says_who_is_missing_and_then_the_match_runs() -> None:
    """Another room's deadline is not this table's; once Eva is there and the match runs, it is Jana's move."""
    state = _at_the_table()
    session = TournamentSession("ABC123", "p1")
    session.apply(TABLE, 10.0)
    assert session.no_show_deadline("OTHER1") is None
    assert hud_model.status_text(state, 20.0) == "Waiting for Eva Malá to come to the table"
    state.offline = set()
    state.part_clock = Clock(600_000, True, 20.0)
    assert hud_model.status_text(state, 21.0).startswith("Your move")


def test_a_match_whose_every_move_timed_out_says_why_it_is_not_rated() -> None:
    """No coach played a move himself: not rated, and the line says so at once."""
    names = {"home": "Jana", "away": "Ola"}
    line = rating_text.results_lines(True, None, "m1", names, 0.0, coach_moves=0)
    assert line == ("Not rated — no coach played a move himself (every move timed out)",)
    assert rating_text.results_lines(True, None, "m1", names, 0.0, coach_moves=3)[0] == "Jana rating…"


def test_moves_the_server_decided_are_not_counted_as_the_coaches_own() -> None:
    """A tournament table where neither coach moved: every MovePlayed came with a nil action (the move clock ran
    out) - none is a coach's move, so the results say why the match is not rated (a live match said only "Not
    rated — no rating changes"); a flick is counted."""
    from shared.model import Flick
    from shared.protocol import Clocks, MovePlayed
    from tests.client.helpers import basic_position
    from tests.client.test_net import _joined, _snapshot

    client, state, link = _joined(_snapshot(1))
    assert state.coach_moves == 0
    client.inbox.put(MovePlayed("ABCD", 2, "home", None, None, (), basic_position(to_move="away"),
                                Clocks(300_000, 30_000, "away", False), ()))
    client.inbox.put(MovePlayed("ABCD", 3, "away", None, None, (), basic_position(to_move="home"),
                                Clocks(296_000, 30_000, "home", False), ()))
    link.poll(state, now=1.0)
    assert state.coach_moves == 0
    names = {"home": "Jana", "away": "Piotr"}
    assert "every move timed out" in rating_text.results_lines(True, None, "m1", names, 9.0, state.coach_moves)[0]
    client.inbox.put(MovePlayed("ABCD", 4, "away", Flick("away", "a2", 1500.0, 0.0), None, (),
                                basic_position(to_move="home"), Clocks(290_000, 30_000, "home", False), ()))
    link.poll(state, now=2.0)
    assert state.coach_moves == 1

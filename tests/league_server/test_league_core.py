"""The league's core as transitions with the time as an input: a round's tables, the no-show walkover for the player
who came, a table's result, a player nobody plays as, recovery's relink - no socket, task or database."""

from __future__ import annotations

import json

import pytest

from server.leagues.league_core import Effect, LeagueCore, OpenedGame, OpenGames, Persist
from server.leagues.log import Created, DayOpened, Event, GameResult, LineupGiven, PlaceTaken, Row
from server.leagues.state import apply, start
from server.tournaments.results import StoredResult
from server.tournaments.tournament_core import Changed, CloseTable, Send
from shared.league.errors import LeagueError
from shared.protocol import LeagueGameAssigned
from tests.league_server.helpers import league_file

T0 = 1_000_000
NO_SHOW = 60_000


def _core(claimed: tuple[str, ...] = ("m1", "m2", "b1", "b2")) -> LeagueCore:
    """A league of 2-player teams, day 1 open, both line-ups of d1f1 in, the players of ``claimed`` taken."""
    rows: list[Event] = [Created(file=json.loads(json.dumps(league_file(size=2))), no_show_ms=NO_SHOW,
                    code_hashes={p: "h" for p in ("m1", "m2", "b1", "b2", "k1", "k2")})]
    rows += [PlaceTaken(player=p, player_id=i, name=p.upper()) for i, p in enumerate(claimed, start=1)]
    rows += [DayOpened(day=1), LineupGiven(fixture="d1f1", side="home", players=("m1", "m2")),
             LineupGiven(fixture="d1f1", side="away", players=("b1", "b2"))]
    state = start("LG", Row(index=0, at_ms=T0, actor="organiser", event=rows[0]))
    for index, event in enumerate(rows[1:], start=1):
        state = apply(state, Row(index=index, at_ms=T0, actor="organiser", event=event))
    return LeagueCore(state)


def _opened(core: LeagueCore, now: int) -> list[Effect]:
    """Start round 1 at tables and give the core its rooms (r1, r2); the effects after."""
    effects = core.start_round("d1f1", False, "organiser", now)
    assert isinstance(effects[0], Persist)
    (tables,) = [e for e in effects if isinstance(e, OpenGames)]
    return core.games_opened([OpenedGame(key=g.key, room=f"r{g.key[2]}", match_id=f"m{g.key[2]}")
                              for g in tables.games], now)


def test_a_rounds_games_get_tables_and_each_player_is_told_his_board_and_opponent() -> None:
    """Round 1: two tables; m1 (board 1, home: A's player is home in odd rounds) is told room r1 and his opponent's
    roster name, b2 room r2 as its away player; the no-show deadlines run from the opening."""
    core = _core()
    effects = _opened(core, T0 + 5)
    told = {e.player_id: e.message for e in effects if isinstance(e, Send) and isinstance(e.message,
                                                                                         LeagueGameAssigned)}
    assert set(told) == {1, 2, 3, 4}
    assert (told[1].room, told[1].board, told[1].seat, told[1].opponent) == ("r1", 1, "home", "SK Brno 1")
    assert (told[4].room, told[4].seat) == ("r2", "away")
    assert core.next_wake() == T0 + 5 + NO_SHOW
    assert isinstance(effects[-1], Changed)


def test_a_table_nobody_started_is_a_walkover_for_the_player_who_came_at_its_no_show() -> None:
    """Nothing is due a millisecond before the no-show; at it, r1 (only b1 there) is a walkover for the away side and
    its room closes, r2 (nobody) for home; a table whose match started has no deadline."""
    core = _core()
    _opened(core, T0)
    core.presence_changed("r1", ("away",))
    assert core.due(T0 + NO_SHOW - 1) == []
    effects = core.due(T0 + NO_SHOW)
    (persist,) = [e for e in effects if isinstance(e, Persist)]
    results = {r.event.board: r.event for r in persist.rows if isinstance(r.event, GameResult)}
    assert results[1].outcome.walkover == "away" and results[2].outcome.walkover == "home"
    assert {e.room for e in effects if isinstance(e, CloseTable)} == {"r1", "r2"}
    assert core.state.tables == {} and core.next_wake() is None


def test_a_finished_match_is_its_games_result_and_a_rematch_in_its_room_is_not() -> None:
    """The match in r1 ends 2:1: board 1's result; a second match in the same room changes nothing."""
    core = _core()
    _opened(core, T0)
    core.match_started("r1")
    effects = core.match_finished("r1", "m1", score=(2, 1), winner="home", reason="time", now=T0 + 10)
    assert isinstance(effects[0], Persist) and not any(isinstance(e, CloseTable) for e in effects)
    assert core.state.game(("d1f1", 1, 1)).score == (2, 1)
    assert core.match_finished("r1", "other", score=(0, 5), winner="away", reason="time", now=T0 + 20) == []


def test_a_player_nobody_plays_as_loses_his_game_at_once() -> None:
    """b2's place is not taken: board 2 of round 1 is a walkover for m2 when the round starts, no table for it."""
    core = _core(claimed=("m1", "m2", "b1"))
    effects = core.start_round("d1f1", False, "organiser", T0)
    (tables,) = [e for e in effects if isinstance(e, OpenGames)]
    assert [g.key for g in tables.games] == [("d1f1", 1, 1)]
    assert core.state.game(("d1f1", 1, 2)).walkover == "home"


def test_the_next_round_waits_for_the_last_result_and_a_refusal_changes_nothing() -> None:
    """ROUND_ORDER while round 1 has a game without a result; the state is the one before."""
    core = _core()
    _opened(core, T0)
    before = core.state
    with pytest.raises(LeagueError) as refused:
        core.start_round("d1f1", False, "organiser", T0 + 1)
    assert refused.value.code == "ROUND_ORDER" and core.state is before


def test_relink_records_a_match_that_finished_and_reopens_a_table_nobody_started() -> None:
    """After a restart: r1's match is stored finished 3:0 (recorded), r2's never started (a new table)."""
    core = _core()
    _opened(core, T0)
    stored = {"m1": StoredResult(finished=True, winner="home", reason="time", score=(3, 0)), "m2": None}
    restarted = LeagueCore(core.state)
    effects = restarted.relink(stored, alive=set(), now=T0 + 100)
    assert restarted.state.game(("d1f1", 1, 1)).score == (3, 0)
    (tables,) = [e for e in effects if isinstance(e, OpenGames)]
    assert [g.key for g in tables.games] == [("d1f1", 1, 2)]

"""Properties of the league's fold: whatever the scores of a team match's games and the order the organiser enters
them in, the league the server keeps is one the engine reads back to the same value, its table is the table of its
written file, and its team score is the count of the games each team won."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.leagues.log import Created, DayOpened, Event, GameResult, LeagueRoundStarted, LineupGiven, PlaceTaken, Row
from server.leagues.state import LeagueState, apply, start
from server.tournaments.log import Outcome
from shared.league.errors import LeagueError
from shared.league.reading import parse
from shared.league.score import team_score
from shared.league.table import table
from shared.league.writing import dumps
from tests.league_server.helpers import league_file

SIZE = 3
GOALS = st.tuples(st.integers(0, 4), st.integers(0, 4))


def _fold(events: list[Event]) -> LeagueState:
    """A league of 3-player teams with day 1 open and d1f1's line-ups in, then ``events``."""
    first = Created(file=json.loads(json.dumps(league_file(size=SIZE))), no_show_ms=60_000)
    state = start("LG", Row(index=0, at_ms=0, actor="organiser", event=first))
    setup: list[Event] = [DayOpened(day=1), LineupGiven(fixture="d1f1", side="home", players=("m1", "m2", "m3")),
                          LineupGiven(fixture="d1f1", side="away", players=("b1", "b2", "b3"))]
    for index, event in enumerate(setup + events, start=1):
        state = apply(state, Row(index=index, at_ms=index, actor="organiser", event=event))
    return state


@settings(max_examples=40, deadline=None)
@given(st.lists(GOALS, min_size=SIZE * SIZE, max_size=SIZE * SIZE), st.randoms(use_true_random=False))
def test_any_results_in_any_order_give_the_files_table_and_the_counted_team_score(scores, rng) -> None:
    """Each round's games entered in a shuffled order (rounds in order, as the server requires)."""
    events: list[Event] = []
    for number in range(1, SIZE + 1):
        events.append(LeagueRoundStarted(fixture="d1f1", round=number, boards=True))
        boards = list(range(1, SIZE + 1))
        rng.shuffle(boards)
        events += [GameResult(fixture="d1f1", round=number, board=b, source="board",
                              outcome=Outcome(score=scores[(number - 1) * SIZE + b - 1])) for b in boards]
    state = _fold(events)
    league = state.league
    assert parse(dumps(league)) == league
    assert table(parse(dumps(league))) == table(league)
    fixture = league.fixture("d1f1")
    assert fixture.finished
    won = [0, 0]
    for g in fixture.games:
        home, away = g.score or (0, 0)
        if home != away:
            a_won = (home > away) == (g.round % 2 == 1)
            won[0 if a_won else 1] += 1
    score = team_score(fixture)
    assert (score.home, score.away) == tuple(won)


def test_a_result_for_a_round_not_started_is_refused_and_the_state_stays() -> None:
    """BAD_RESULT for round 2 while only round 1 has started; the state before stands (values are never changed);
    a place without a code to take it with is refused too."""
    state = _fold([LeagueRoundStarted(fixture="d1f1", round=1, boards=True)])
    with pytest.raises(LeagueError) as refused:
        early = GameResult(fixture="d1f1", round=2, board=1, source="board", outcome=Outcome(score=(1, 0)))
        apply(state, Row(index=state.version, at_ms=9, actor="organiser", event=early))
    assert refused.value.code == "BAD_RESULT"
    assert state.league.fixture("d1f1").games and not any(g.finished for g in state.league.fixture("d1f1").games)
    with pytest.raises(LeagueError):
        apply(state, Row(index=state.version, at_ms=9, actor="organiser",
                         event=PlaceTaken(player="m1", player_id=1, name="x")))  # no code hash: no place to take

"""Properties of the schedule, the team score and the table over random leagues (hypothesis).

A random league has 2-5 teams of team_size 1-4 with one spare player each, and up to seven fixtures between
random teams, each with random line-ups and a random result for every game (a win either way, a draw, a
walkover either way), some fixtures left unfinished (a game still being played, or not listed).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.league.reading import parse, read_league
from shared.league.schedule import schedule
from shared.league.score import team_score
from shared.league.table import league_table_json
from shared.league.writing import dumps
from tests.league.builders import doc, games, roster, team


@st.composite
def leagues(draw: Any) -> dict[str, Any]:
    """A valid league file (see the module docstring)."""
    size = draw(st.integers(1, 4))
    ids = [f"t{n}" for n in range(draw(st.integers(2, 5)))]
    fixtures = []
    for number in range(draw(st.integers(0, 7))):
        home, away = draw(st.permutations(ids))[:2]
        lineup_home = draw(st.permutations(roster(home, size + 1)))[:size]
        lineup_away = draw(st.permutations(roster(away, size + 1)))[:size]
        finished = draw(st.booleans()) or draw(st.booleans())
        marks = st.sampled_from("ABDab" if finished else "ABDab.-")
        outcomes = "".join(draw(st.lists(marks, min_size=size * size, max_size=size * size)))
        fixtures.append({"id": f"m{number}", "day": 1 + number // 3, "home": home, "away": away,
                         "lineups": {"home": lineup_home, "away": lineup_away},
                         "games": games(lineup_home, lineup_away, outcomes)})
    return doc([team(t, size + 1) for t in ids], fixtures, size=size)


@given(st.integers(1, 9))
def test_every_player_of_a_lineup_meets_each_opponent_exactly_once(size: int) -> None:
    """k rounds of k games: every (Ai, Bj) once, every player once a round, A's player home in odd rounds."""
    a, b = roster("a", size), roster("b", size)
    rounds = schedule(a, b)
    met = Counter(frozenset((g.home, g.away)) for r in rounds for g in r.games)
    assert met == Counter(frozenset((x, y)) for x in a for y in b)
    for r in rounds:
        assert sorted(p for g in r.games for p in (g.home, g.away)) == sorted(a + b)
        assert all((g.home in a) == (r.round % 2 == 1) for g in r.games)
        assert [g.board for g in r.games] == list(range(1, size + 1))


@settings(max_examples=150, deadline=None)
@given(leagues(), st.randoms(use_true_random=False))
def test_the_table_is_the_same_whatever_the_order_of_fixtures_and_games(value: dict[str, Any], rnd: Any) -> None:
    """Fixtures, each fixture's games (and the teams) shuffled: the same table and players' lines, to the byte."""
    shuffled = json.loads(json.dumps(value))
    rnd.shuffle(shuffled["fixtures"])
    rnd.shuffle(shuffled["teams"])
    for f in shuffled["fixtures"]:
        rnd.shuffle(f["games"])
    first, second = league_table_json(read_league(value)), league_table_json(read_league(shuffled))
    assert json.dumps(first) == json.dumps(second)


@settings(max_examples=150, deadline=None)
@given(leagues())
def test_team_score_totals_equal_the_number_of_decisive_games(value: dict[str, Any]) -> None:
    """Home team's wins + away team's wins = the games won by someone (walkovers included, draws not)."""
    for f in read_league(value).fixtures:
        score = team_score(f)
        assert score.home + score.away == sum(1 for g in f.games if g.winning_side is not None)


@settings(max_examples=100, deadline=None)
@given(leagues())
def test_a_read_league_writes_and_reads_back_to_the_same_value(value: dict[str, Any]) -> None:
    """``parse(dumps(league)) == league`` for every league the reader returns, and the text is then fixed."""
    league = read_league(value)
    assert parse(dumps(league)) == league
    assert dumps(parse(dumps(league))) == dumps(league)

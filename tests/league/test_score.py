"""A fixture's team score, its points and when it is finished."""

from __future__ import annotations

from shared.league.model import Fixture
from shared.league.reading import read_league
from shared.league.score import TeamScore, fixture_points, team_score
from shared.tournament.model import Points
from tests.league.builders import doc, fixture, team


def _fixture(outcomes: str, size: int = 3) -> Fixture:
    """Fixture m1 (a v b) with these outcomes (tests.league.builders)."""
    league = read_league(doc([team("a", size), team("b", size)], [fixture("m1", "a", "b", outcomes, size=size)],
                             size=size))
    return league.fixture("m1")


def test_team_score_counts_won_games_draws_for_neither_walkovers_for_the_winner() -> None:
    """A A D B a b D D A: the home team won 4 (one by walkover), the away team 2 (one by walkover)."""
    assert team_score(_fixture("AADBabDDA")) == TeamScore(home=4, away=2)


def test_a_game_won_by_its_home_side_counts_for_the_away_team_in_even_rounds() -> None:
    """In round 2 the away team's player is the game's home: his win is the away team's."""
    f = _fixture("DDDBDDDDD")
    (decisive,) = [g for g in f.games if g.winning_side]
    assert decisive.round == 2 and decisive.winning_side == "home"
    assert team_score(f) == TeamScore(home=0, away=1)


def test_fixture_points_compare_the_team_scores() -> None:
    """2/1/0 by default: a win, a draw (also 0:0), a loss; any other numbers as the settings say."""
    default = Points(win=2, draw=1, loss=0)
    assert fixture_points(_fixture("AAABBDDDD"), default) == (2, 0)
    assert fixture_points(_fixture("ABABDDDDD"), default) == (1, 1)
    assert fixture_points(_fixture("DDDDDDDDD"), default) == (1, 1)
    assert fixture_points(_fixture("BBADDDDDD"), default) == (0, 2)
    assert fixture_points(_fixture("BBADDDDDD"), Points(win=3, draw=1, loss=-1)) == (-1, 3)


def test_a_fixture_is_finished_when_all_k_squared_games_have_a_result() -> None:
    """Nine of nine for k = 3; eight, or nine listed with one still being played, is not finished."""
    assert _fixture("ABDABDABD").finished
    assert not _fixture("ABDABDAB").finished
    assert not _fixture("ABDABDAB.").finished
    assert _fixture("A", size=1).finished and len(_fixture("A" * 25, size=5).games) == 25

"""Glicko-2 as Lichess runs it: the paper's worked example, Lichess' own test figures, the time-away RD
growth, the bounds, symmetry and properties over any inputs, and the ruleset families."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.ratings import (
    DRAW,
    LOSS,
    MAX_RATING,
    MAX_RATING_CHANGE,
    MAX_RD,
    MAX_VOLATILITY,
    MIN_RATING,
    MIN_RD,
    MIN_VOLATILITY,
    MS_PER_DAY,
    SCALE,
    SCORES,
    WIN,
    PeriodGame,
    Rating,
    estimated_improvement,
    estimated_variance,
    family_of,
    period_update,
    rate_match,
    rating_at,
    to_glicko2,
)
from shared.rulesets import RULESETS, SettingsError

YEAR_MS = 365 * MS_PER_DAY

# The paper's example: a 1500/200/0.06 player beats a 1400/30, loses to a 1550/100 and to a 1700/300, τ = 0.5.
PAPER_PLAYER = to_glicko2(1500.0, 200.0, 0.06)
PAPER_GAMES = tuple(
    PeriodGame((rating - 1500.0) / SCALE, rd / SCALE, score)
    for rating, rd, score in ((1400.0, 30.0, WIN), (1550.0, 100.0, LOSS), (1700.0, 300.0, LOSS))
)


def test_paper_example_three_games_in_one_period_to_four_decimals() -> None:
    """Glickman's worked example: μ′ = −0.2069, φ′ = 0.8722, σ′ = 0.05999, so r′ = 1464.06 and RD′ = 151.52."""
    after = period_update(PAPER_PLAYER, PAPER_GAMES, tau=0.5, elapsed_periods=1.0)
    assert after.mu == pytest.approx(-0.2069, abs=5e-5)
    assert after.phi == pytest.approx(0.8722, abs=5e-5)
    assert after.sigma == pytest.approx(0.05999, abs=5e-5)
    # Step 8 of the paper converts the 4-decimal μ′ and φ′ back to the rating scale.
    assert round(SCALE * round(after.mu, 4) + 1500.0, 2) == 1464.06
    assert round(SCALE * round(after.phi, 4), 2) == 151.52


def test_paper_example_variance_and_improvement() -> None:
    """Steps 3 and 4 of the example: v = 1.7785 and Δ = −0.4834 (the paper works from 3-decimal E values)."""
    variance = estimated_variance(PAPER_PLAYER.mu, PAPER_GAMES)
    assert variance == pytest.approx(1.7785, abs=1e-3)
    assert estimated_improvement(PAPER_PLAYER.mu, PAPER_GAMES, variance) == pytest.approx(-0.4834, abs=1e-3)


def test_player_who_did_not_compete_only_gains_deviation() -> None:
    """The paper's rule for a player without games in a period: μ and σ stay, φ grows by one period of σ²."""
    after = period_update(PAPER_PLAYER, (), tau=0.5, elapsed_periods=1.0)
    assert (after.mu, after.sigma) == (PAPER_PLAYER.mu, PAPER_PLAYER.sigma)
    assert after.phi == pytest.approx(math.sqrt(PAPER_PLAYER.phi**2 + 0.06**2))


# Lichess' RatingCalculatorTest (lila modules/rating): (white, black, white's score) → expected figures and the
# tolerance of each: rating, RD, volatility for white then black.
POINT_7 = (1.0, 1.0, 1e-7)  # to the point, volatility to 1e-7
POINT_5 = (1.0, 1.0, 1e-5)
TENTH = (0.1, 0.1, 1e-6)
LICHESS_CASES = [
    ((1500, 500, 0.09), (1500, 500, 0.09), WIN, (1741, 396, 0.0899983), (1258, 396, 0.0899983), POINT_7),
    ((1500, 500, 0.09), (1500, 500, 0.09), DRAW, (1500, 396, 0.0899954), (1500, 396, 0.0899954), POINT_7),
    ((1500, 80, 0.06), (1500, 80, 0.06), WIN, (1517, 78, 0.06), (1482, 78, 0.06), POINT_5),
    ((1400, 79, 0.06), (1550, 110, 0.065), WIN, (1422, 77, 0.06), (1506, 105, 0.065), POINT_5),
    ((1400, 79, 0.06), (1550, 110, 0.065), LOSS, (1389, 78, 0.06), (1568, 105, 0.065), POINT_5),
    ((1200, 60, 0.053), (1850, 200, 0.062), WIN, (1216.7, 59.9, 0.053013), (1636, 196.9, 0.062028), TENTH),
    ((1200, 60, 0.053), (1850, 200, 0.062), LOSS, (1199.3, 59.9, 0.052999), (1855.4, 196.9, 0.061999), TENTH),
    ((1200, 60, 0.053), (1850, 200, 0.062), DRAW, (1208.0, 59.9, 0.053002), (1745.7, 196.9, 0.062006), TENTH),
]


@pytest.mark.parametrize(("white", "black", "score", "white_after", "black_after", "tolerance"), LICHESS_CASES)
def test_one_match_rates_as_lichess_calculator(
    white: tuple[float, float, float],
    black: tuple[float, float, float],
    score: float,
    white_after: tuple[float, float, float],
    black_after: tuple[float, float, float],
    tolerance: tuple[float, float, float],
) -> None:
    """A match is its own rating period with no step-6 growth: Lichess' calculator's figures for the same games."""
    w, b = (Rating(rating=r, rd=rd, volatility=vol) for r, rd, vol in (white, black))
    results = rate_match(w, b, score, now_ms=0)
    for rated, expected in zip(results, (white_after, black_after), strict=True):
        for value, figure, tol in zip((rated.rating, rated.rd, rated.volatility), expected, tolerance, strict=True):
            assert value == pytest.approx(figure, abs=tol)


def test_unrated_player_starts_provisional_at_1500() -> None:
    """A newcomer is 1500, RD 500, volatility 0.09, never played, shown as 1500?."""
    newcomer = Rating()
    assert (newcomer.rating, newcomer.rd, newcomer.volatility, newcomer.last_played_ms) == (1500, 500, 0.09, None)
    assert newcomer.provisional
    assert newcomer.display() == "1500?"


def test_provisional_while_rd_at_least_110() -> None:
    """RD 110 is still provisional; RD 109.99 is established and shown without the question mark."""
    assert Rating(rating=1623.9, rd=110.0).display() == "1623?"
    assert Rating(rating=1623.9, rd=109.99).display() == "1623"


def test_shown_values_are_truncated_whole_numbers() -> None:
    """1741.93 / 396.69 show as 1741 / 396, as Lichess truncates them."""
    rating = Rating(rating=1741.93, rd=396.69)
    assert (rating.shown_rating, rating.shown_rd) == (1741, 396)


def test_stored_rating_and_rd_are_rounded_to_hundredths() -> None:
    """A Rating keeps rating and RD to 0.01 whatever it is given, and its volatility as given."""
    rating = Rating(rating=1500.123456, rd=61.98765, volatility=0.0612345678)
    assert (rating.rating, rating.rd, rating.volatility) == (1500.12, 61.99, 0.0612345678)


@pytest.mark.parametrize(
    "fields",
    [
        {"rating": 399.0},
        {"rating": 4000.5},
        {"rating": math.nan},
        {"rd": 44.0},
        {"rd": 500.5},
        {"rd": math.inf},
        {"volatility": 0.0},
        {"volatility": 0.11},
        {"last_played_ms": 1.5},
        {"last_played_ms": True},
    ],
)
def test_rating_outside_the_bounds_is_refused(fields: dict[str, Any]) -> None:
    """A corrupt stored value (out of bounds, NaN, infinite, a non-integer time) is refused, not rated from."""
    with pytest.raises(ValueError):
        Rating(**fields)


def test_rd_back_at_110_after_a_year_away() -> None:
    """A regular at RD 60 with a settled volatility of 0.06 is back at RD ≈ 110 (provisional) after 365 days."""
    regular = Rating(rating=1800.0, rd=60.0, volatility=0.06, last_played_ms=1_000)
    after_a_year = rating_at(regular, 1_000 + YEAR_MS)
    assert after_a_year.rd == pytest.approx(110.0, abs=0.5)
    assert after_a_year.provisional
    assert rating_at(regular, 1_000 + YEAR_MS // 2).rd == pytest.approx(math.sqrt((60**2 + 110**2) / 2), abs=0.5)


def test_time_away_grows_only_the_rd() -> None:
    """rating_at changes neither the rating, the volatility nor the time of the last match."""
    regular = Rating(rating=1800.0, rd=60.0, volatility=0.06, last_played_ms=0)
    later = rating_at(regular, 30 * MS_PER_DAY)
    assert (later.rating, later.volatility, later.last_played_ms) == (1800.0, 0.06, 0)
    assert 60.0 < later.rd < 110.0


def test_time_before_the_last_match_counts_as_no_absence() -> None:
    """A clock that went back does not shrink the RD, and a newcomer has no absence to count."""
    regular = Rating(rating=1800.0, rd=60.0, volatility=0.06, last_played_ms=10_000)
    assert rating_at(regular, 0) == regular
    assert rating_at(Rating(), 10 * YEAR_MS) == Rating()


def test_rd_grows_no_further_than_500() -> None:
    """Twenty years away bring the RD to 500 and no higher."""
    regular = Rating(rating=1800.0, rd=60.0, volatility=0.1, last_played_ms=0)
    assert rating_at(regular, 20 * YEAR_MS).rd == MAX_RD


def test_match_is_rated_from_the_rd_grown_by_the_time_away() -> None:
    """The same win moves a player back from a year away more than one who played yesterday; both end at now."""
    opponent = Rating(rating=1800.0, rd=60.0, volatility=0.06, last_played_ms=YEAR_MS)
    regular = Rating(rating=1800.0, rd=60.0, volatility=0.06, last_played_ms=YEAR_MS - MS_PER_DAY)
    returning = Rating(rating=1800.0, rd=60.0, volatility=0.06, last_played_ms=0)
    regular_after, _ = rate_match(regular, opponent, WIN, now_ms=YEAR_MS)
    returning_after, _ = rate_match(returning, opponent, WIN, now_ms=YEAR_MS)
    assert returning_after.rating - 1800.0 > 1.5 * (regular_after.rating - 1800.0) > 0
    assert regular_after.last_played_ms == returning_after.last_played_ms == YEAR_MS


def test_rd_never_drops_below_45() -> None:
    """Three hundred draws between two regulars bring RD to 45, where the paper's formula alone would go lower."""
    a = b = Rating(rating=1600.0, rd=60.0, volatility=0.06, last_played_ms=0)
    for minute in range(1, 301):
        a, b = rate_match(a, b, DRAW, now_ms=minute * 60_000)
    assert a.rd == b.rd == MIN_RD
    unbounded = period_update(to_glicko2(a.rating, a.rd, a.volatility), (PeriodGame(0.0, MIN_RD / SCALE, DRAW),))
    assert SCALE * unbounded.phi < MIN_RD


def test_volatility_capped_at_lichess_maximum() -> None:
    """A 400 player beating a 4000 one would take volatility past 0.1; it is kept at 0.1."""
    underdog = Rating(rating=400.0, rd=45.0, volatility=0.1)
    favourite = Rating(rating=4000.0, rd=45.0, volatility=0.06)
    unbounded = period_update(to_glicko2(400.0, 45.0, 0.1), (PeriodGame(2500.0 / SCALE, 45.0 / SCALE, WIN),))
    assert unbounded.sigma > MAX_VOLATILITY
    assert rate_match(underdog, favourite, WIN, now_ms=0)[0].volatility == MAX_VOLATILITY


def test_one_match_moves_a_rating_by_at_most_700() -> None:
    """A newcomer beating a settled 4000 would gain about 1400 points; he gains 700."""
    newcomer, champion = Rating(), Rating(rating=4000.0, rd=45.0, volatility=0.06)
    unbounded = period_update(to_glicko2(1500.0, 500.0, 0.09), (PeriodGame(2500.0 / SCALE, 45.0 / SCALE, WIN),))
    assert SCALE * unbounded.mu > 2 * MAX_RATING_CHANGE
    assert rate_match(newcomer, champion, WIN, now_ms=0)[0].rating == 1500.0 + MAX_RATING_CHANGE


def test_rating_never_below_400() -> None:
    """A 400 player who loses again stays at 400."""
    bottom = Rating(rating=400.0, rd=200.0, volatility=0.06)
    assert rate_match(bottom, Rating(rating=450.0), LOSS, now_ms=0)[0].rating == MIN_RATING


def test_draw_between_equals_leaves_both_ratings_unchanged() -> None:
    """Equal ratings drawing keep their ratings exactly; each RD shrinks and the two sides come out alike."""
    a = Rating(rating=1623.41, rd=87.5, volatility=0.061, last_played_ms=0)
    b = Rating(rating=1623.41, rd=87.5, volatility=0.061, last_played_ms=0)
    a_after, b_after = rate_match(a, b, DRAW, now_ms=MS_PER_DAY)
    assert a_after.rating == b_after.rating == 1623.41
    assert a_after.rd == b_after.rd < rating_at(a, MS_PER_DAY).rd
    assert a_after.volatility == b_after.volatility == pytest.approx(0.061, abs=1e-5)


def test_draw_between_equal_ratings_of_unequal_certainty_moves_neither() -> None:
    """Expected score is 0.5 for equal ratings whatever the RDs, so a draw moves neither rating."""
    a_after, b_after = rate_match(Rating(rating=1700.0, rd=300.0), Rating(rating=1700.0, rd=50.0), DRAW, now_ms=0)
    assert a_after.rating == b_after.rating == 1700.0


@pytest.mark.parametrize("score", [0.7, -1.0, 2.0, math.nan])
def test_score_must_be_win_draw_or_loss(score: float) -> None:
    """A score other than 1, 0.5 or 0 is refused."""
    with pytest.raises(ValueError):
        rate_match(Rating(), Rating(), score, now_ms=0)


def test_every_ruleset_belongs_to_a_family() -> None:
    """standard, ko, final and strict rate as standard; quick as quick; every ruleset has a family."""
    assert {ruleset: family_of(ruleset) for ruleset in RULESETS} == {
        "standard": "standard",
        "ko": "standard",
        "final": "standard",
        "strict": "standard",
        "quick": "quick",
    }


def test_unknown_ruleset_has_no_family() -> None:
    """An unknown ruleset name is a settings error, not a silent default family."""
    with pytest.raises(SettingsError):
        family_of("blitz")


# --- properties over any valid inputs --------------------------------------------------------------------

times = st.integers(min_value=0, max_value=50 * YEAR_MS)
ratings = st.builds(
    Rating,
    rating=st.floats(min_value=MIN_RATING, max_value=MAX_RATING),
    rd=st.floats(min_value=MIN_RD, max_value=MAX_RD),
    volatility=st.floats(min_value=MIN_VOLATILITY, max_value=MAX_VOLATILITY),
    last_played_ms=st.none() | times,
)


def _within_bounds(rating: Rating) -> bool:
    """Every stored field finite and within Lichess' bounds."""
    return (
        MIN_RATING <= rating.rating <= MAX_RATING
        and MIN_RD <= rating.rd <= MAX_RD
        and MIN_VOLATILITY <= rating.volatility <= MAX_VOLATILITY
        and all(math.isfinite(x) for x in (rating.rating, rating.rd, rating.volatility))
    )


@given(winner=ratings, loser=ratings, now=times)
def test_a_win_never_lowers_the_winner_nor_raises_the_loser(winner: Rating, loser: Rating, now: int) -> None:
    """Whatever the two ratings and the time, the winner's rating does not go down and the loser's not up."""
    winner_after, loser_after = rate_match(winner, loser, WIN, now_ms=now)
    assert winner_after.rating >= winner.rating
    assert loser_after.rating <= loser.rating


@given(first=ratings, second=ratings, score=st.sampled_from(SCORES), now=times)
def test_outputs_finite_and_within_bounds(first: Rating, second: Rating, score: float, now: int) -> None:
    """Any valid ratings, result and time give finite ratings within the bounds, each moved by at most 700."""
    for before, after in zip((first, second), rate_match(first, second, score, now_ms=now), strict=True):
        assert _within_bounds(after)
        assert abs(round(after.rating * 100) - round(before.rating * 100)) <= MAX_RATING_CHANGE * 100  # 0.01 steps
        assert after.last_played_ms == now
        assert after.rd <= rating_at(before, now).rd


@given(first=ratings, second=ratings, score=st.sampled_from(SCORES), now=times)
def test_swapping_the_sides_swaps_the_results(first: Rating, second: Rating, score: float, now: int) -> None:
    """Rating (a, b, s) and (b, a, 1 − s) give the same two ratings, swapped: neither side is favoured."""
    a_after, b_after = rate_match(first, second, score, now_ms=now)
    assert rate_match(second, first, 1.0 - score, now_ms=now) == (b_after, a_after)


@given(rating=ratings, now=times)
def test_time_away_never_shrinks_rd_and_stays_within_bounds(rating: Rating, now: int) -> None:
    """rating_at keeps every value within the bounds and never lowers the RD."""
    later = rating_at(rating, now)
    assert _within_bounds(later)
    assert later.rd >= rating.rd

"""Glicko-2 ratings as Lichess runs them, written from Glickman's "Example of the Glicko-2 system".

Why Glicko-2 and why Lichess' way (as Lichess, Chess.com and most
online games rate): a
rating carries its own uncertainty (RD), so a newcomer moves fast and a regular slowly, and Lichess has
run these exact choices for years on millions of players:

- every rated match is its own rating period; the passage of time is not a period count but the time a
  player stays away, which grows his RD continuously (``rating_at``); so Glickman's step 6 adds nothing
  when a match is rated (Lichess' ``skipDeviationIncrease``);
- a newcomer starts at rating 1500, RD 500, volatility 0.09; the system constant τ is 0.75;
- RD stays within [45, 500], volatility at most 0.1, the rating within [400, 4000], and one match moves
  a rating by at most 700 points;
- a rating is provisional ("1500?") while its RD is 110 or more.

Two layers: the paper's algorithm on the Glicko-2 scale (``Glicko2``, ``period_update`` and its steps,
reproducible against the paper's worked example), and the policy above on the rating scale (``Rating``,
``rate_match``, ``rating_at``). Everything is a pure function of its arguments: the caller passes the
time (integer milliseconds on any fixed origin, e.g. the Unix epoch); the core reads no clock.

Stored and shown values: a ``Rating`` holds its rating and RD rounded to 0.01 (what Lichess' API
reports) and its volatility as computed; it is shown as whole numbers truncated like Lichess' (1741.93
shows as 1741), with "?" while provisional.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from shared.rulesets import RULESETS, SettingsError

# --- the Glicko-2 scale (paper, step 2) -------------------------------------------------------------
SCALE = 173.7178  # rating points per unit of μ and φ
CENTRE = 1500.0  # the rating that is μ = 0

# --- Lichess' choices ----------------------------------------------------------------------------
DEFAULT_RATING = 1500.0
DEFAULT_RD = 500.0
DEFAULT_VOLATILITY = 0.09
TAU = 0.75  # the system constant: how fast volatility may change
MIN_RD = 45.0
MAX_RD = 500.0
PROVISIONAL_RD = 110.0  # provisional while RD >= this
MIN_RATING = 400.0
MAX_RATING = 4000.0
MAX_RATING_CHANGE = 700.0  # points one match can add or take
MAX_VOLATILITY = 0.1  # "past this, it might not stabilize ever again" (Lichess)
# Lichess sets no floor (its sanity check only asks for > 0); this one keeps step 5's logarithms finite
# for any stored value and is far below anything a real history reaches (volatility moves ~1e-5 a match).
MIN_VOLATILITY = 1e-6
# Rating periods per day of absence: Lichess' constant, chosen so that a regular at RD 60 with a settled
# volatility of 0.06 (Glickman's typical value) is back at RD 110 after 365 days away:
# sqrt(60² + 365 · 0.21436 · (0.06 · 173.7178)²) = 110.0.
RATING_PERIODS_PER_DAY = 0.21436
MS_PER_DAY = 86_400_000

# --- step 5 (Illinois regula falsi) ---------------------------------------------------------------
CONVERGENCE_TOLERANCE = 1e-6  # the paper's ε
MAX_ITERATIONS = 1000  # a guard only: the Illinois iteration converges in a handful of steps

# --- results -------------------------------------------------------------------------------------
WIN = 1.0
DRAW = 0.5
LOSS = 0.0
SCORES = (LOSS, DRAW, WIN)

Family = Literal["standard", "quick"]
# Ratings are kept per ruleset family: the standard-length rulesets measure the same skill, the one-period
# quick game a different one (more luck, less endurance).
FAMILIES: dict[str, Family] = {
    "standard": "standard",
    "ko": "standard",
    "final": "standard",
    "strict": "standard",
    "quick": "quick",
}


def family_of(ruleset: str) -> Family:
    """The rating family a match of ``ruleset`` counts for (``standard`` or ``quick``)."""
    family = FAMILIES.get(ruleset)
    if family is None:
        raise SettingsError(f"unknown ruleset {ruleset!r}; known: {', '.join(RULESETS)}")
    return family


# === the paper's algorithm on the Glicko-2 scale =====================================================


@dataclass(frozen=True, slots=True)
class Glicko2:
    """A player on the Glicko-2 scale (step 2): μ, φ and the volatility σ."""

    mu: float
    phi: float
    sigma: float


@dataclass(frozen=True, slots=True)
class PeriodGame:
    """One game of a rating period from the player's side: the opponent's μ and φ and the player's score."""

    opponent_mu: float
    opponent_phi: float
    score: float


def to_glicko2(rating: float, rd: float, volatility: float) -> Glicko2:
    """Step 2: a rating, RD and volatility on the Glicko-2 scale."""
    return Glicko2((rating - CENTRE) / SCALE, rd / SCALE, volatility)


def g(phi: float) -> float:
    """Step 3's g(φ): how much an opponent's uncertainty damps what a game against him says."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected_score(mu: float, opponent_mu: float, opponent_phi: float) -> float:
    """Step 3's E(μ, μj, φj): the score the player is expected to make against this opponent."""
    return 1.0 / (1.0 + math.exp(-g(opponent_phi) * (mu - opponent_mu)))


def estimated_variance(mu: float, games: Sequence[PeriodGame]) -> float:
    """Step 3's v: the variance of the player's rating estimated from the games alone."""
    information = 0.0
    for game in games:
        expected = expected_score(mu, game.opponent_mu, game.opponent_phi)
        information += g(game.opponent_phi) ** 2 * expected * (1.0 - expected)
    return 1.0 / information


def _outcome_sum(mu: float, games: Sequence[PeriodGame]) -> float:
    """Σ g(φj)·(sj − E): the games' evidence, shared by steps 4 and 7."""
    return math.fsum(
        g(game.opponent_phi) * (game.score - expected_score(mu, game.opponent_mu, game.opponent_phi))
        for game in games
    )


def estimated_improvement(mu: float, games: Sequence[PeriodGame], variance: float) -> float:
    """Step 4's Δ: how far the games alone say the rating should move."""
    return variance * _outcome_sum(mu, games)


def new_volatility(phi: float, sigma: float, variance: float, improvement: float, tau: float) -> float:
    """Step 5's σ′, the root of f by the Illinois variant of regula falsi, exactly as the paper does it."""
    a = 2.0 * math.log(sigma)  # ln(σ²), without squaring a tiny σ to zero
    phi2 = phi * phi
    delta2 = improvement * improvement

    def f(x: float) -> float:
        """The paper's f(x); its root is ln(σ′²)."""
        ex = math.exp(x)
        return ex * (delta2 - phi2 - variance - ex) / (2.0 * (phi2 + variance + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta2 > phi2 + variance:
        high = math.log(delta2 - phi2 - variance)
    else:
        k = 1
        while f(a - k * tau) < 0.0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(MAX_ITERATIONS):
        if abs(high - low) <= CONVERGENCE_TOLERANCE:
            break
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0.0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


def period_update(
    player: Glicko2, games: Sequence[PeriodGame], *, tau: float = TAU, elapsed_periods: float = 0.0
) -> Glicko2:
    """Steps 3 to 7 for one rating period: the player's new μ′, φ′ and σ′ from the games he played in it.

    ``elapsed_periods`` is step 6's count of periods the deviation grows by before the games count: the
    paper's example uses 1; a rated match uses 0, because ``rating_at`` already grew the RD for the time
    away. With no games only step 6 applies (the paper's rule for a player who did not compete).
    """
    if not games:
        return Glicko2(player.mu, math.sqrt(player.phi**2 + elapsed_periods * player.sigma**2), player.sigma)
    variance = estimated_variance(player.mu, games)
    improvement = estimated_improvement(player.mu, games, variance)
    sigma = new_volatility(player.phi, player.sigma, variance, improvement, tau)
    phi_star = math.sqrt(player.phi**2 + elapsed_periods * sigma**2)  # step 6
    phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / variance)  # step 7
    mu = player.mu + phi * phi * _outcome_sum(player.mu, games)
    return Glicko2(mu, phi, sigma)


# === Lichess' policy on the rating scale ===============================================================


def _clamp(value: float, low: float, high: float) -> float:
    """``value`` kept within [low, high]."""
    return min(high, max(low, value))


@dataclass(frozen=True, slots=True, kw_only=True)
class Rating:
    """One player's rating in one family, as stored after his last rated match.

    ``rd`` is the RD as of ``last_played_ms`` (None: never played); ``rating_at`` grows it to any later
    time. Rating and RD are rounded to 0.01 on construction; values outside the bounds are refused.
    """

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY
    last_played_ms: int | None = None

    def __post_init__(self) -> None:
        """Refuse values outside the bounds (a corrupt store must not poison opponents); round to 0.01."""
        for name, value, low, high in (
            ("rating", self.rating, MIN_RATING, MAX_RATING),
            ("rd", self.rd, MIN_RD, MAX_RD),
            ("volatility", self.volatility, MIN_VOLATILITY, MAX_VOLATILITY),
        ):
            if not (isinstance(value, int | float) and low <= value <= high):
                raise ValueError(f"{name} must be a number within [{low}, {high}], not {value!r}")
        if self.last_played_ms is not None and (
            isinstance(self.last_played_ms, bool) or not isinstance(self.last_played_ms, int)
        ):
            raise ValueError(f"last_played_ms must be an integer time or None, not {self.last_played_ms!r}")
        object.__setattr__(self, "rating", round(float(self.rating), 2))
        object.__setattr__(self, "rd", round(float(self.rd), 2))
        object.__setattr__(self, "volatility", float(self.volatility))

    @property
    def provisional(self) -> bool:
        """Too uncertain to rank: RD 110 or more (judge it on ``rating_at(now)``, which counts the time away)."""
        return self.rd >= PROVISIONAL_RD

    @property
    def shown_rating(self) -> int:
        """The rating as a whole number, truncated as Lichess shows it."""
        return int(self.rating)

    @property
    def shown_rd(self) -> int:
        """The RD as a whole number, truncated as Lichess shows it."""
        return int(self.rd)

    def display(self) -> str:
        """``1741``, or ``1500?`` while provisional."""
        return f"{self.shown_rating}{'?' if self.provisional else ''}"


def rd_after_absence(rd: float, volatility: float, elapsed_ms: int) -> float:
    """Step 6 for the time away: RD grown by ``RATING_PERIODS_PER_DAY`` periods per day, within [45, 500]."""
    periods = max(0, elapsed_ms) * RATING_PERIODS_PER_DAY / MS_PER_DAY
    phi = rd / SCALE
    return _clamp(SCALE * math.sqrt(phi * phi + periods * volatility * volatility), MIN_RD, MAX_RD)


def rating_at(rating: Rating, now_ms: int) -> Rating:
    """The rating as it stands at ``now_ms``: its RD grown for the time since the last rated match.

    A view, to show and to rate from; store only what ``rate_match`` returns (growing a stored value and
    storing it again would count the same absence twice). A time before the last match counts as none.
    """
    if rating.last_played_ms is None:
        return rating
    grown = rd_after_absence(rating.rd, rating.volatility, now_ms - rating.last_played_ms)
    return replace(rating, rd=grown)


def _rate_one(player: Rating, opponent: Rating, score: float, now_ms: int) -> Rating:
    """One side of a match: the paper's period update with no extra step-6 growth, then Lichess' caps."""
    before = to_glicko2(player.rating, player.rd, player.volatility)
    other = to_glicko2(opponent.rating, opponent.rd, opponent.volatility)
    game = PeriodGame(other.mu, other.phi, score)
    after = period_update(before, (game,), tau=TAU, elapsed_periods=0.0)
    # The change is added on the rating scale, so a result that moves nothing leaves the rating bit-exact.
    change = _clamp(SCALE * (after.mu - before.mu), -MAX_RATING_CHANGE, MAX_RATING_CHANGE)
    return Rating(
        rating=_clamp(player.rating + change, MIN_RATING, MAX_RATING),
        rd=_clamp(SCALE * after.phi, MIN_RD, MAX_RD),
        volatility=_clamp(after.sigma, MIN_VOLATILITY, MAX_VOLATILITY),
        last_played_ms=now_ms,
    )


def rate_match(first: Rating, second: Rating, first_score: float, now_ms: int) -> tuple[Rating, Rating]:
    """Both players' ratings after a rated match that ended at ``now_ms``.

    ``first_score`` is 1 (first won), 0.5 (draw) or 0 (first lost); a forfeit or a resignation is passed
    as the result it is. Both sides are rated from the pre-match values, each grown for its time away.
    """
    if first_score not in SCORES:
        raise ValueError(f"a score is 1 (win), 0.5 (draw) or 0 (loss), not {first_score!r}")
    first_now, second_now = rating_at(first, now_ms), rating_at(second, now_ms)
    return (
        _rate_one(first_now, second_now, first_score, now_ms),
        _rate_one(second_now, first_now, 1.0 - first_score, now_ms),
    )

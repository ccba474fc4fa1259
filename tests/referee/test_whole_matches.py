"""Whole matches in every ruleset, played by random legal actions through shared.match, run to a result
(III.1-III.4, XVI, XV.16): periods, breaks, overtime, the shoot-out, with prompts, offers and time passing.

Bounded so the suite stays fast: short parts (``period_ms``/``overtime_ms`` overrides), no breaks, and a
cap on the actions; a shoot-out shot is taken either by random flicks or by a scoring recipe, so a series
can be decided."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.match import apply_action, legal_stones, prompts, settings_of
from shared.model import Action, Flick, Position, Team
from shared.outcome import ActionResult
from shared.referee import clock, setup

SHORT: dict[str, dict[str, Any]] = {
    "standard": {"period_ms": 1500},
    "strict": {"period_ms": 1500},
    "quick": {"period_ms": 2500},
    "ko": {"period_ms": 1000, "overtime_ms": [1000]},
    "final": {"period_ms": 1000, "overtime_ms": [1000, 1000], "shootout_series": 3},
}
MAX_ACTIONS = 400


def start(ruleset: str, seed: int) -> Position:
    """A fresh match of ``ruleset`` with short parts and no breaks."""
    overrides = {"effects_2_5d": False, "break_ms": 0, **SHORT[ruleset]}
    base = Position(ruleset=ruleset, seed=seed,
                    settings=tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in overrides.items())))
    started, _ = setup.start_match(base, settings_of(base))
    return started


def scoring_flick(position: Position) -> Flick:
    """A penalty-shot flick of the shooter: out of the circle first, then at the goal beside the goalie."""
    state = position.penalty
    assert state is not None
    attack = -position.own_end(state.team)
    shooter = position.stone(state.shooter)
    assert shooter is not None
    if state.moves == 0:
        return Flick(state.team, state.shooter, 900 * attack, 0)
    px, py = position.puck.x, position.puck.y
    dx, dy = 540 * attack - px, 33 - py
    norm = math.hypot(dx, dy)
    ax, ay = px - dx / norm * 24.5 - shooter.x, py - dy / norm * 24.5 - shooter.y
    size = math.hypot(ax, ay) or 1.0
    return Flick(state.team, state.shooter, ax / size * 1500, ay / size * 1500)


def random_flick(position: Position, rng: random.Random) -> Flick | None:
    """A flick of a legal stone of the team to move, in a random direction at a random legal speed."""
    team = position.to_move
    stones = legal_stones(position, team)
    if not stones:
        return None
    angle = rng.uniform(0, 2 * math.pi)
    if position.penalty is not None:  # forwards, as a shooter would
        angle = rng.uniform(-1.2, 1.2) + (0 if position.own_end(team) < 0 else math.pi)
    speed = rng.uniform(200, 2500)
    return Flick(team, rng.choice(stones), speed * math.cos(angle), speed * math.sin(angle))


def step(position: Position, rng: random.Random) -> ActionResult | None:
    """One random legal thing: a prompt's default, an offer, time passing, or a flick."""
    waiting = prompts(position)
    if waiting and rng.random() < 0.8:
        default = rng.choice(waiting).default
        assert default is not None
        return apply_action(position, default)
    offers = [p for p in prompts(position, offers=True) if p.default is None]
    if offers and rng.random() < 0.15:
        offer = rng.choice(offers)
        action = _offer_action(offer.kind, offer.team, offer.options)
        return apply_action(position, action)
    if position.penalty is not None and position.penalty.in_shootout and rng.random() < 0.5:
        return apply_action(position, scoring_flick(position))
    flick = random_flick(position, rng)
    return apply_action(position, flick) if flick is not None else None


def _offer_action(kind: str, team: Team, options: tuple[str, ...]) -> Action:
    """The action an offer's button sends."""
    from shared.model import ACTION_TYPES

    cls = ACTION_TYPES[kind]
    return cls(team, options[0]) if options else cls(team)


def play(ruleset: str, seed: int) -> tuple[Position, list[str]]:
    """Play a whole match; every decision code in order."""
    rng = random.Random(seed)
    position = start(ruleset, seed)
    settings = settings_of(position)
    seen: list[str] = []
    for _ in range(MAX_ACTIONS):
        if position.result is not None:
            break
        if rng.random() < 0.1:  # aiming time passes (A34)
            position, decisions = clock.elapse(position, rng.choice((100, 400, 2000)), settings)
            seen += [d.code for d in decisions]
            continue
        result = step(position, rng)
        if result is None:  # nothing to flick: the move clock would run out
            position, decisions = clock.elapse(position, 500, settings)
            seen += [d.code for d in decisions]
            continue
        if result.accepted:
            position = result.position
            seen += [d.code for d in result.decisions]
        assert min(position.score) >= 0 and position.part.clock_ms >= 0
    return position, seen


@pytest.mark.parametrize("ruleset", ["standard", "strict", "quick", "ko", "final"])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_III_1_every_ruleset_plays_to_a_result(ruleset: str, seed: int) -> None:
    """III.1-III.4, XVI, XV.16: random legal play ends with exactly one MATCH_ENDED and a result that fits
    the ruleset (a draw only without a shoot-out; a shoot-out only where the ruleset has one)."""
    final, seen = play(ruleset, seed)
    assert final.result is not None and seen.count("MATCH_ENDED") == 1
    has_shootout = settings_of(final).shootout
    if final.result.winner is None:
        assert not has_shootout and final.score[0] == final.score[1]
    if final.result.reason == "SHOOTOUT":
        assert has_shootout and final.score[0] == final.score[1]
    elif final.result.winner is not None:
        assert final.score_of(final.result.winner) > final.score_of("home" if final.result.winner == "away" else "away")


def test_XV_16_a_drawn_ko_match_reaches_the_shootout_and_ends() -> None:
    """XV.16, III.3: a ko match level after overtime is decided by the shoot-out (found among seeded matches)."""
    for seed in range(40):
        final, seen = play("ko", seed)
        if final.result is not None and final.result.reason == "SHOOTOUT":
            assert "PENALTY_SHOT" in seen and final.shootout is not None and final.shootout.shots
            assert final.result.winner == next(t for t, scored in reversed(final.shootout.shots) if scored)
            return
    pytest.fail("no seeded ko match reached a shoot-out")

"""The bot: deterministic, answers prompts, scores outcomes sensibly, and beats random flicks."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from shared.ai import (
    answer_prompt,
    bot_policy,
    choose_action,
    choose_flick,
    evaluate,
    play_match,
    random_flick,
    random_policy,
)
from shared.draws import Stream
from shared.match import apply_action, legal_stones, settings_of
from shared.match_log import new_match
from shared.model import ChooseExclusion, ExclusionChoice, Flick, Position, other
from shared.outcome import ActionResult, Decision

BUDGET = 8


def _start(seed: int = 3, period_ms: int = 30_000) -> Position:
    """A fresh one-period match with a short period."""
    return new_match("quick", {"period_ms": period_ms}, seed)


def test_same_position_same_choice() -> None:
    """The bot draws only from Stream keyed by the position: the same position gives the same flick."""
    position = _start()
    team = position.to_move
    first = choose_flick(position, team, BUDGET)
    assert first is not None
    assert choose_flick(position, team, BUDGET) == first
    assert first.stone in legal_stones(position, team)
    assert apply_action(position, first).accepted


def test_bot_waits_when_not_to_move() -> None:
    """Without a prompt for it and with the other team to move, the bot does nothing."""
    position = _start()
    waiting = other(position.to_move)
    assert choose_action(position, waiting, BUDGET) is None


def test_bot_answers_a_prompt_before_moving() -> None:
    """An awaited exclusion choice is answered (with its default) before any flick."""
    position = _start()
    team = position.to_move
    stones = [s.id for s in position.team_stones(team) if s.role == "field"]
    choice = ExclusionChoice(team, stones[0], tuple(stones[1:3]))
    prompted = replace(position, exclusion_choice=choice)
    assert answer_prompt(prompted, team) == ChooseExclusion(team, stones[0])
    assert choose_action(prompted, team, BUDGET) == ChooseExclusion(team, stones[0])


def test_goals_fouls_and_privileges_are_scored_by_side() -> None:
    """A goal for us beats no goal, a goal against is worst, our foul costs and their foul pays."""
    position = _start()

    def score(*decisions: Decision) -> float:
        return evaluate(position, ActionResult(True, position, decisions), "home")

    nothing = score()
    assert score(Decision.of("GOAL", team="home", own_goal=False)) > nothing
    assert score(Decision.of("GOAL", team="away", own_goal=True)) < nothing
    assert score(Decision.of("FOUL", team="home")) < nothing < score(Decision.of("FOUL", team="away"))
    assert score(Decision.of("PRIVILEGE", team="home", moves=3)) > score(Decision.of("PRIVILEGE", team="home", moves=2))
    refused = ActionResult.refused(position, "NOT_YOUR_TURN", "no")
    assert evaluate(position, refused, "home") == -math.inf


def test_random_flick_is_legal_and_varied() -> None:
    """The baseline flicks a legal stone at a legal speed, and different draws give different flicks."""
    position = _start()
    team = position.to_move
    stream = Stream(1, "test")
    flicks = [random_flick(position, team, stream) for _ in range(5)]
    settings = settings_of(position)
    for flick in flicks:
        assert isinstance(flick, Flick) and flick.stone in legal_stones(position, team)
        assert settings.flick_speed_min <= math.hypot(flick.vx, flick.vy) <= settings.flick_speed_max
    assert len(set(flicks)) == 5


@pytest.mark.slow
def test_bot_beats_random_flicks_in_at_least_80_percent() -> None:
    """Over 12 one-period matches (30 s of play, sides alternating) the bot leads at the end in ≥ 80 %."""
    bot = bot_policy(BUDGET)
    results = []
    for seed in range(12):
        bot_team = "home" if seed % 2 == 0 else "away"
        home, away = (bot, random_policy) if bot_team == "home" else (random_policy, bot)
        report = play_match(_start(seed), home, away)
        results.append((report.leader == bot_team, report.winner == bot_team, report.leader not in (None, bot_team)))
    led = sum(r[0] for r in results)
    won = sum(r[1] for r in results)
    lost = sum(r[2] for r in results)
    assert led >= 0.8 * len(results), results
    assert won >= 0.6 * len(results), results
    assert lost == 0, results

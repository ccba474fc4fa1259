"""The referee's sentences and the HUD's grace countdown in Czech and Polish: every decision code reads in the
language chosen, and keeps its rule id."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from client.common import decision_text, i18n
from client.match import hud_model
from client.match.state import Clock, MatchState
from shared.outcome import Decision

NAMES = {"home": "Novák", "away": "Kowalski"}
RULE_ID = re.compile(r"\b([IVX]+(\.\d+[a-z]?)?|A\d+)\b")

# One decision of every code, with the fields the engine gives it.
SAMPLES = (
    Decision.of("GOAL", team="home", own_goal=False),
    Decision.of("GOAL", team="away", own_goal=True),
    Decision.of("GOAL_DISALLOWED", team="home", reason="GOALIE_MOVE"),
    Decision.of("FOUL", team="home", kind="direct", stone="h6", victim="a3"),
    Decision.of("FOUL", team="away", kind="through_teammate", stone="a2", victim="h4"),
    Decision.of("GOALIE_OUTSIDE_THIRD", team="away"),
    Decision.of("ACTIVITY_FAILED", team="home", stone="h3"),
    Decision.of("EXCLUSION", team="home", stone="h6", deferred=False),
    Decision.of("EXCLUSION", team="home", stone="h6", deferred=True),
    Decision.of("RETURN", team="home", stone="h6"),
    Decision.of("PRIVILEGE", team="away", moves=2),
    Decision.of("PRIVILEGE_CANCELLED", team="away"),
    Decision.of("PENALTY_SHOT", team="away"),
    Decision.of("ADVANTAGE", team="away"),
    Decision.of("PENALTY_SHOT_ENDED", team="away", scored=False, reason="c"),
    Decision.of("ACTIVITY_COUNT", team="home", count=2, limit=5),
    Decision.of("ACTIVITY_ENDED", team="home", reason="PUCK_TOUCHED"),
    Decision.of("POWER_PLAY", team="home", on=True),
    Decision.of("POWER_PLAY", team="home", on=False),
    Decision.of("RESPOT", body="puck", x=1.0, y=2.0, reason="LEFT_BOARD"),
    Decision.of("FLIP", stone="a5"),
    Decision.of("RESTART", team="home"),
    Decision.of("PART_ENDED", part={"kind": "period", "number": 2}),
    Decision.of("MATCH_ENDED", winner="home", reason="REGULAR_TIME"),
    Decision.of("TIMEOUT", team="home"),
    Decision.of("TIMEOUT", team="home", kind="choose_exclusion"),
)


@pytest.fixture(params=["cs", "pl"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """Czech, then Polish; English again afterwards."""
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def _english(decision: Decision) -> str:
    """The sentence in English (the source language)."""
    current = i18n.language()
    i18n.set_language("en")
    try:
        return decision_text.text(decision, NAMES)
    finally:
        i18n.set_language(current)


@pytest.mark.parametrize("decision", SAMPLES, ids=lambda d: d.code)
def test_every_decision_reads_translated_with_its_rule_id(language, decision):
    """Each decision's sentence differs from the English one and names the same rule ids."""
    english = _english(decision)
    translated = decision_text.text(decision, NAMES)
    assert translated != english
    assert {m.group(0) for m in RULE_ID.finditer(translated)} == {m.group(0) for m in RULE_ID.finditer(english)}


def test_the_foul_headline_in_czech():
    """The banner's one sentence for a foul with its sanction, in Czech, rule id kept."""
    i18n.set_language("cs")
    try:
        decisions = SAMPLES[3], SAMPLES[7], SAMPLES[10]
        assert decision_text.headline(decisions, NAMES) == "Faul (VIII.1a): h6 je vyloučen — Kowalski hraje 2 tahy"
    finally:
        i18n.set_language("en")


def test_the_grace_countdown_in_polish():
    """The away coach's time to come back reads in Polish, counted down the same way."""
    state = MatchState(names=dict(NAMES))
    state.grace["home"] = Clock(42_000, True, 0.0)
    assert hud_model.grace_text(state, 0.0) == "Novák disconnected — 0:42 to come back"
    i18n.set_language("pl")
    try:
        assert hud_model.grace_text(state, 0.0) == "Novák się rozłączył — 0:42 na powrót"
    finally:
        i18n.set_language("en")

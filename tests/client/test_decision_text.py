"""Decision messages: every SCENARIOS.md code has a rule id and a readable sentence; the banner merges a foul."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from client.common import decision_text
from shared.outcome import Decision

SCENARIOS = Path("/work/shared/SCENARIOS.md")


def _codes_in_scenarios() -> list[str]:
    """The decision codes listed in the SCENARIOS.md table (the client's contract)."""
    text = SCENARIOS.read_text(encoding="utf-8")
    table = text.split("### Decision codes", 1)[1].split("### Error codes", 1)[0]
    return re.findall(r"^\| `([A-Z_]+)` \|", table, flags=re.M)


@pytest.mark.skipif(not SCENARIOS.exists(), reason="the shared specs are not mounted")
def test_every_scenarios_code_has_a_rule_and_a_writer():
    """No decision code of the contract falls back to the generic text."""
    codes = _codes_in_scenarios()
    assert len(codes) >= 20
    assert set(codes) <= set(decision_text.RULE_OF)
    assert set(codes) <= set(decision_text.WRITERS)


def test_foul_headline_cites_rule_and_sanction():
    """A direct foul with its exclusion and privilege reads as one referee's sentence."""
    decisions = (
        Decision.of("FOUL", team="home", kind="direct", stone="h6", victim="a3"),
        Decision.of("EXCLUSION", team="home", stone="h6", deferred=False),
        Decision.of("PRIVILEGE", team="away", moves=2),
    )
    assert decision_text.headline(decisions) == "Foul (VIII.1a): h6 is excluded — Away plays 2 moves"


def test_foul_through_teammate_cites_viii_1b():
    """The kind of foul picks the sub-rule."""
    line = decision_text.text(Decision.of("FOUL", team="away", kind="through_teammate", stone="a2", victim="h4"))
    assert "VIII.1b" in line and "through a team-mate" in line


def test_goal_beats_other_calls_in_the_headline():
    """A goal is the banner even when a re-spot happened in the same move."""
    decisions = (Decision.of("RESPOT", body="puck", x=1.0, y=2.0, reason="LEFT_BOARD"),
                 Decision.of("GOAL", team="away", own_goal=False))
    assert decision_text.headline(decisions, {"away": "HC Kometa"}) == "Goal (XIV.1): HC Kometa scores"


def test_disallowed_goal_names_its_reason_rule():
    """A goal from the first move after a restart cites V.9."""
    line = decision_text.text(Decision.of("GOAL_DISALLOWED", team="home", reason="FIRST_MOVE_AFTER_RESTART"))
    assert line.startswith("No goal (V.9)")


def test_penalty_shot_ending_letters_map_to_xv_13():
    """Failure reason ``d`` is XV.13d, the puck beside the goal."""
    line = decision_text.text(Decision.of("PENALTY_SHOT_ENDED", team="home", scored=False, reason="d"))
    assert "XV.13d" in line and "failed" in line


def test_a_shoot_out_shot_whose_time_ran_out_says_so_in_words():
    """A shot whose move clock or time ran out (reason ``TIME``, XV.18 / A35) reads in words with its rule: a
    shoot-out of two coaches who did not move listed "Penalty shot failed (XV.13): Ola Nowak — TIME" move after
    move."""
    line = decision_text.text(Decision.of("PENALTY_SHOT_ENDED", team="home", scored=False, reason="TIME"),
                              {"home": "Ola Nowak"})
    assert line == "Penalty shot failed (XV.18): Ola Nowak — the shot's time ran out", line


def test_unknown_code_still_reads():
    """A code added later by the referee is shown with its fields, not dropped."""
    assert decision_text.text(Decision.of("NEW_THING", team="home")) == "New thing (team=home)"


def test_sound_cues():
    """Goals and part ends are recognised for the goal sound and the siren."""
    assert decision_text.is_goal([Decision.of("GOAL", team="home", own_goal=False)])
    assert decision_text.is_siren([Decision.of("PART_ENDED", part={"kind": "period", "number": 1})])
    assert not decision_text.is_siren([Decision.of("GOAL", team="home", own_goal=False)])

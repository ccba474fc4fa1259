"""What the end of a shot, of a part and of the match bring, and in which order a result tells it.

A result may hold several moments - a move, then what its end brings (the part's end, a break or the next
part's restart, the match's end; in a shoot-out the next shot). Within a moment the decisions follow the code
table of SCENARIOS.md; the moments follow each other in time.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from shared import notation
from shared.match import apply_action, prompts, settings_of, timeout
from shared.model import ExclusionChoice, Flick, Part, Position, Result
from shared.referee import clock
from shared.referee.setup import part_starter
from tests.referee.builders import codes, position, stone
from tests.referee.engine_positions import advantage_position, scoring_shot, shootout_start, shot_position

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _missed(start: Position) -> Flick:
    """A shoot-out shooter's first flick that leaves the puck in the centre circle (XV.13a: the shot fails)."""
    state = start.penalty
    assert state is not None
    return Flick(state.team, state.shooter, 300 * start.attack_end(state.team), 0)


def test_XV_16_a_shots_end_comes_before_the_next_shots_award() -> None:
    """XV.16: the referee ends a shoot-out shot, then sets up the next - PENALTY_SHOT_ENDED, then PENALTY_SHOT of the
    other team."""
    started = shootout_start()
    assert started.penalty is not None
    first = started.penalty.team
    missed = apply_action(started, _missed(started))
    assert [(d.code, d.get("team")) for d in missed.decisions] == [
        ("PENALTY_SHOT_ENDED", first), ("PENALTY_SHOT", "away" if first == "home" else "home")]


def test_XV_16_a_shot_ended_by_the_move_clock_or_its_15_s_comes_before_the_next_shot() -> None:
    """XV.16, XV.18, A35: a shot that fails on time (the shooter's move clock, or 15 s after its first flick) is
    told ended before the next shot is awarded."""
    started = shootout_start()
    assert started.penalty is not None
    timed_out = timeout(started, started.penalty.team)
    order = codes(timed_out.decisions)
    assert order.index("PENALTY_SHOT_ENDED") < order.index("PENALTY_SHOT")
    state = started.penalty
    assert state is not None
    moved = apply_action(started, Flick(state.team, state.shooter, 900 * started.attack_end(state.team), 0))
    _expired, decisions = clock.elapse(moved.position, 15_001, settings_of(started))
    assert [d.code for d in decisions] == ["PENALTY_SHOT_ENDED", "PENALTY_SHOT"]


def test_XV_16_each_shot_of_a_whole_shootout_ends_before_the_next_begins() -> None:
    """XV.16: through a shoot-out of missed shots, every result that awards a shot ended the previous one first."""
    current = shootout_start()
    for _ in range(8):
        result = apply_action(current, _missed(current))
        order = codes(result.decisions)
        assert order[0] == "PENALTY_SHOT_ENDED" and order.count("PENALTY_SHOT") <= 1
        if "PENALTY_SHOT" in order:
            assert order.index("PENALTY_SHOT_ENDED") < order.index("PENALTY_SHOT")
        current = result.position


# --------------------------------------------------------------------------- a penalty shot owed at the siren


def _held(**fields: Any) -> Position:
    """Period 1 held at the siren for home's shot: home's advantage became a penalty shot when time ran out (A43)."""
    start = advantage_position(part=Part("period", 1, 100), **fields)
    held, decisions = clock.elapse(start, 100, settings_of(start))
    assert [d.to_json() for d in decisions] == [{"code": "PRIVILEGE_CANCELLED", "team": "home"},
                                                {"code": "PENALTY_SHOT", "team": "home"}]
    assert held.siren and held.part.clock_ms == 0 and held.penalty is not None and held.penalty.after_siren
    return held


def test_XV_10_the_part_ends_with_the_owed_shots_last_move_not_at_the_siren() -> None:
    """XV.10, III.6: time is up but the owed shot is still taken in the part - PART_ENDED comes with the move that
    completes the shot, once; the break begins then."""
    first, second = scoring_shot(_held())
    assert "PART_ENDED" not in codes(first.decisions) and first.position.siren
    assert [d.to_json() for d in second.decisions] == [
        {"code": "GOAL", "team": "home", "own_goal": False},
        {"code": "PENALTY_SHOT_ENDED", "team": "home", "scored": True, "reason": "SCORED"},
        {"code": "PART_ENDED", "part": {"kind": "period", "number": 1}},
    ]
    assert second.position.part == Part("break", 1, 30_000) and not second.position.siren


def test_XV_14_V_2_after_a_shot_taken_after_the_siren_only_the_next_parts_restart_happens() -> None:
    """XV.14 vs V.2: the shot completed after the siren ends the part, so no restart of the penalised team is told
    (it never happens): with a break the next part's RESTART comes at the break's end, without one at once - in
    both cases for the team V.2 names."""
    with_break = scoring_shot(_held())[1]
    assert "RESTART" not in codes(with_break.decisions)
    rules = settings_of(with_break.position)
    started, decisions = clock.elapse(with_break.position, 30_000, rules)
    v2 = part_starter(with_break.position, 1)
    assert [d.to_json() for d in decisions] == [{"code": "RESTART", "team": v2}] and started.to_move == v2
    no_break = scoring_shot(_held(settings=(("effects_2_5d", False), ("break_ms", 0))))[1]
    assert codes(no_break.decisions) == ["GOAL", "PENALTY_SHOT_ENDED", "PART_ENDED", "RESTART"]
    assert no_break.decisions[-1].to_json() == {"code": "RESTART", "team": v2}
    assert no_break.position.part == Part("period", 2, 360_000) and no_break.position.to_move == v2


def test_XV_10_a_shot_after_the_final_siren_ends_the_match_with_the_part() -> None:
    """XV.10, III.1: a goal of the shot owed at the end of period 3 decides the match: PART_ENDED, then MATCH_ENDED,
    and no restart."""
    start = advantage_position(part=Part("period", 3, 100), score=(0, 0))
    held, _ = clock.elapse(start, 100, settings_of(start))
    second = scoring_shot(held)[1]
    assert codes(second.decisions) == ["GOAL", "PENALTY_SHOT_ENDED", "PART_ENDED", "MATCH_ENDED"]
    assert second.position.result == Result("home", "REGULAR_TIME")


def test_A35_an_owed_shot_lost_on_the_move_clock_ends_the_part() -> None:
    """A35, XV.10: the shooter's move clock runs out on the shot owed after the siren - the shot fails and the part
    ends in the same ruling (no restart of the penalised team)."""
    result = timeout(_held(), "home")
    order = codes(result.decisions)
    assert order[order.index("PENALTY_SHOT_ENDED"):] == ["PENALTY_SHOT_ENDED", "PART_ENDED"]
    assert result.position.part == Part("break", 1, 30_000) and not result.position.siren


# --------------------------------------------------------------------------- a move that ends the part


def _goal_at_the_siren(break_ms: int) -> Position:
    """examples/goal.json (home's h2 drives the puck into away's empty goal) with 100 ms left in period 1."""
    data = json.loads((EXAMPLES / "goal.json").read_text(encoding="utf-8"))
    data["position"]["part"] = {"kind": "period", "number": 1, "clock_ms": 100}
    data["position"]["settings"]["break_ms"] = break_ms
    return notation.scenario_from_json(data).position


def test_V_3_a_goal_by_the_move_that_ends_the_part_restarts_nothing_before_the_part_ends() -> None:
    """V.3 vs V.2: the goal counts (XIV.4), but the conceding team's restart never happens - the part ends with the
    move; the next part's restart is V.2's (at once without a break)."""
    start = _goal_at_the_siren(30_000)
    scored = apply_action(start, Flick("home", "h2", 1200.0, 0.0))
    assert scored.duration_ms > 100 and scored.position.score == (1, 0)
    assert codes(scored.decisions) == ["GOAL", "PART_ENDED"] and scored.position.part.kind == "break"
    at_once = apply_action(_goal_at_the_siren(0), Flick("home", "h2", 1200.0, 0.0))
    v2 = part_starter(start, 1)
    assert [d.to_json() for d in at_once.decisions][1:] == [
        {"code": "PART_ENDED", "part": {"kind": "period", "number": 1}}, {"code": "RESTART", "team": v2}]
    assert at_once.position.part.number == 2 and at_once.position.to_move == v2 and at_once.position.restart


def test_X_4_an_exclusion_choice_ends_with_the_part() -> None:
    """X.4, A47: the end of the part cancels every penalty, so a goalie foul's pending exclusion choice is no
    longer asked for in the break."""
    choice = ExclusionChoice("home", "h5", ("h3", "h4"))
    start = replace(position(stone("h5", -300, 0), part=Part("period", 1, 500)), exclusion_choice=choice)
    ended, _ = clock.elapse(start, 500, settings_of(start))
    assert ended.part.kind == "break" and ended.exclusion_choice is None and prompts(ended) == ()


# --------------------------------------------------------------------------- sudden death (XVI.1)


def _overtime_goal(clock_ms: int) -> Position:
    """examples/goal.json in the first overtime of a ko match (3 + goalie a side is not needed for the goal)."""
    data = json.loads((EXAMPLES / "goal.json").read_text(encoding="utf-8"))
    data["position"]["ruleset"] = "ko"
    data["position"]["part"] = {"kind": "overtime", "number": 1, "clock_ms": clock_ms}
    return notation.scenario_from_json(data).position


def test_XVI_1_the_move_that_ends_the_match_in_sudden_death_still_takes_its_time_off_the_clock() -> None:
    """XVI.1, XIV.4, D14: the goal ends the match at once, but the move lasted what it lasted - the overtime clock
    shows the time left when it came to rest; a goal in the move that runs the clock out ends the match alone
    (MATCH_ENDED, no PART_ENDED)."""
    scored = apply_action(_overtime_goal(100_000), Flick("home", "h2", 1200.0, 0.0))
    assert codes(scored.decisions) == ["GOAL", "MATCH_ENDED"]
    assert scored.position.result == Result("home", "SUDDEN_DEATH")
    assert scored.duration_ms > 0 and scored.position.part.clock_ms == 100_000 - scored.duration_ms
    last = apply_action(_overtime_goal(100), Flick("home", "h2", 1200.0, 0.0))
    assert codes(last.decisions) == ["GOAL", "MATCH_ENDED"] and last.position.part.clock_ms == 0


def test_XVI_1_a_shot_goal_after_the_overtimes_siren_ends_the_match_alone() -> None:
    """XVI.1, XV.10: the shot owed at the end of an overtime scores - sudden death ends the match (MATCH_ENDED
    SUDDEN_DEATH), with no PART_ENDED and no restart; the shot's moves took their time off the clock too."""
    start = advantage_position(ruleset="ko", part=Part("overtime", 1, 100))
    held, _ = clock.elapse(start, 100, settings_of(start))
    second = scoring_shot(held)[1]
    assert codes(second.decisions) == ["GOAL", "PENALTY_SHOT_ENDED", "MATCH_ENDED"]
    assert second.position.result == Result("home", "SUDDEN_DEATH") and not second.position.siren
    during = scoring_shot(shot_position(ruleset="ko", part=Part("overtime", 1, 100_000)))
    assert during[1].position.part.clock_ms == 100_000 - during[0].duration_ms - during[1].duration_ms

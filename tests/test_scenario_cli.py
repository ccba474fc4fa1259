"""``sprtec scenario`` end to end (SCENARIOS.md "Result"): examples run, errors exit 2 with JSON naming the body."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shared import notation

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SPEC = ROOT / "docs" / "SCENARIOS.md"
EXAMPLE_FILES = sorted(p for p in EXAMPLES.glob("*.json")  # not TOURNAMENT.md's tournament and league files
                       if not p.name.startswith(("tournament-", "league-")))


def _run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m sprtec scenario ARGS`` as a separate process."""
    return subprocess.run(
        [sys.executable, "-m", "sprtec", "scenario", *args],
        input=stdin, capture_output=True, cwd=ROOT, timeout=120, check=False,
    )


def _results(path: Path) -> list[dict[str, Any]]:
    """The result entries of a scenario file that must run with exit 0."""
    done = _run(str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert list(out) == ["format", "results"] and out["format"] == "sprtec-scenario-result/1"
    return out["results"]


def _spec_blocks() -> list[str]:
    """The ```json blocks of SCENARIOS.md in order: position, scenario, result."""
    return re.findall(r"```json\n(.*?)```", SPEC.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.name for p in EXAMPLE_FILES])
def test_every_example_runs_and_prints_the_contract(path: Path):
    """Exit 0; one entry per action with the contract's keys; every position printed reads back as valid."""
    scenario = notation.scenario_from_json(path.read_bytes())
    results = _results(path)
    assert [r["index"] for r in results] == list(range(len(scenario.actions)))
    for entry in results:
        if entry["accepted"]:
            assert list(entry) == ["index", "accepted", "duration_ms", "decisions", "position"]
            assert isinstance(entry["duration_ms"], int) and entry["duration_ms"] >= 0
            assert all(isinstance(d["code"], str) for d in entry["decisions"])
            again = notation.position_from_json(entry["position"])
            assert notation.position_to_json(again) == entry["position"]
        else:
            assert list(entry) == ["index", "accepted", "error"]
            assert set(entry["error"]) == {"code", "message"} and entry["error"]["message"]


def test_spec_examples_are_the_example_files():
    """examples/spec-position.json and spec-scenario.json are the SCENARIOS.md examples and read."""
    position, scenario, _ = _spec_blocks()
    assert json.loads((EXAMPLES / "spec-position.json").read_text()) == json.loads(position)
    filled = json.loads(scenario.replace('{ "...": "a position as above" }', position))
    assert json.loads((EXAMPLES / "spec-scenario.json").read_text()) == filled
    assert notation.scenario_from_json(filled).position == notation.position_from_json(position)


def test_refused_action_changes_nothing_and_the_next_is_tried():
    """NOT_YOUR_TURN for away, then home's flick is accepted from the same position."""
    results = _results(EXAMPLES / "wrong-team.json")
    assert results[0]["accepted"] is False and results[0]["error"]["code"] == "NOT_YOUR_TURN"
    assert results[1]["accepted"] is True


def test_speed_out_of_range_both_ways():
    """Too fast and too slow flicks are SPEED_OUT_OF_RANGE; a legal one afterwards is accepted."""
    results = _results(EXAMPLES / "speed-out-of-range.json")
    assert [r.get("error", {}).get("code") for r in results] == ["SPEED_OUT_OF_RANGE", "SPEED_OUT_OF_RANGE", None]


def test_direct_foul_example_is_judged_a_foul():
    """VIII.1a: h2 flicked straight into a2 is a direct foul with an exclusion and a privilege for away."""
    codes = [d["code"] for d in _results(EXAMPLES / "direct-foul.json")[0]["decisions"]]
    assert codes[:3] == ["FOUL", "EXCLUSION", "PRIVILEGE"]


def test_goal_example_scores():
    """XIV.1: the puck pushed into the away goal is a goal for home."""
    decisions = _results(EXAMPLES / "goal.json")[0]["decisions"]
    assert {"code": "GOAL", "team": "home", "own_goal": False} in decisions


def test_invalid_position_exits_2_naming_the_body():
    """Overlapping bodies: exit 2, one JSON error on stdout naming the offending body and its path."""
    doc = {"position": {"stones": [{"id": "h2", "x": -100, "y": 0}, {"id": "a2", "x": -90, "y": 0}]}}
    done = _run("-", stdin=json.dumps(doc).encode())
    assert done.returncode == 2
    out = json.loads(done.stdout)
    assert out["format"] == "sprtec-scenario-error/1"
    assert out["error"]["code"] == "INVALID_POSITION" and out["error"]["body"] == "a2"
    assert out["error"]["path"] == "position.stones[1]"


@pytest.mark.parametrize(
    ("stdin", "code"),
    [(b"{not json", "INVALID_JSON"), (b'{"actions": [{"team": "home", "action": "dance"}]}', "INVALID_ACTION")],
)
def test_unreadable_input_exits_2(stdin: bytes, code: str):
    """Bad JSON and unknown actions exit 2 with the matching error code."""
    done = _run("-", stdin=stdin)
    assert done.returncode == 2 and json.loads(done.stdout)["error"]["code"] == code


def test_missing_file_exits_2():
    """A file that does not exist is UNREADABLE, exit 2."""
    done = _run(str(EXAMPLES / "no-such-file.json"))
    assert done.returncode == 2 and json.loads(done.stdout)["error"]["code"] == "UNREADABLE"


def test_pretty_and_no_position_options():
    """--pretty indents the same object; --no-position leaves positions out and nothing else."""
    path = str(EXAMPLES / "spec-scenario.json")
    plain = json.loads(_run(path).stdout)
    pretty = _run(path, "--pretty").stdout
    assert b"\n  " in pretty and json.loads(pretty) == plain
    short = json.loads(_run(path, "--no-position").stdout)
    for full, brief in zip(plain["results"], short["results"], strict=True):
        full.pop("position", None)
        assert full == brief


def test_long_scenario_file_is_the_generator_output():
    """examples/long-80-hard-flicks.json is exactly what make_long_scenario.py writes: 80 hard alternating flicks."""
    spec = importlib.util.spec_from_file_location("make_long_scenario", EXAMPLES / "make_long_scenario.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    generated = module.long_scenario()
    assert json.loads((EXAMPLES / "long-80-hard-flicks.json").read_text()) == generated
    actions = generated["actions"]
    assert len(actions) == 80 and [a["team"] for a in actions[:2]] == ["home", "away"]
    assert all(2500 <= (a["vx"] ** 2 + a["vy"] ** 2) ** 0.5 <= 3000 for a in actions)


def test_long_scenario_shows_interventions_and_is_deterministic():
    """VI.3-VI.5: 80 hard flicks with 2.5-D effects produce RESPOT/FLIP decisions, byte-identical in two runs."""
    path = str(EXAMPLES / "long-80-hard-flicks.json")
    first, second = _run(path), _run(path)
    assert first.returncode == 0 and first.stdout == second.stdout
    results = json.loads(first.stdout)["results"]
    codes = [d["code"] for r in results if r["accepted"] for d in r["decisions"]]
    assert {"RESPOT", "FLIP"} & set(codes)


def _codes(entry: dict[str, Any]) -> list[str]:
    """The decision codes of one accepted result entry."""
    return [d["code"] for d in entry["decisions"]]


def test_XV_12_penalty_shot_example_scores_with_the_second_move():
    """examples/penalty-shot.json: take_penalty (IX.3), the goalie placed (A33), a goal with move 2 (XV.12)."""
    results = _results(EXAMPLES / "penalty-shot.json")
    assert [r["accepted"] for r in results] == [True, True, True, True]
    assert _codes(results[0]) == ["PENALTY_SHOT"]
    assert _codes(results[3]) == ["GOAL", "PENALTY_SHOT_ENDED", "RESTART"]
    assert results[3]["position"]["score"] == {"home": 1, "away": 0}


def test_XII_2_goalie_reset_example_places_the_goalie_and_then_says_why_not():
    """examples/goalie-reset.json: a reset out of turn is refused, on turn it counts as a move, and a second
    reset names the failing condition (XII.2)."""
    results = _results(EXAMPLES / "goalie-reset.json")
    assert [r["accepted"] for r in results] == [False, True, True, False]
    assert results[0]["error"]["code"] == "NOT_YOUR_TURN"
    goalie = next(s for s in results[1]["position"]["stones"] if s["id"] == "h1")
    assert (goalie["x"], goalie["y"]) == (-498.0, 0.0) and results[1]["position"]["move_number"] == 1
    assert "already on its basic spot" in results[3]["error"]["message"]


def test_XI_9_activity_count_example_fails_on_the_limit():
    """examples/activity-count.json: declaration 0 of 2, a counted move, then the 2nd uncleared move fails
    (ACTIVITY_FAILED, the stone excluded, two moves for the counting team)."""
    results = _results(EXAMPLES / "activity-count.json")
    assert results[0]["decisions"] == [{"code": "ACTIVITY_COUNT", "team": "away", "count": 0, "limit": 2}]
    assert results[1]["position"]["activity"]["count"] == 1
    assert _codes(results[4]) == ["ACTIVITY_FAILED", "EXCLUSION", "PRIVILEGE"]


def test_XI_3_count_after_the_first_move_example_counts_that_move_as_1():
    """XI.3: examples/count-after-the-first-move.json - away counts right after home's first move (1 of 5), then
    home's next move (2 of 5)."""
    results = _results(EXAMPLES / "count-after-the-first-move.json")
    assert all(r["accepted"] for r in results)
    counts = [d for r in results for d in r["decisions"]]
    assert counts == [{"code": "ACTIVITY_COUNT", "team": "away", "count": n, "limit": 5} for n in (1, 2)]


def test_XV_10_shot_after_the_siren_example_ends_the_part_with_the_shot_and_restarts_for_V_2():
    """XV.10, XV.14 vs V.2, IX.8, A43: examples/shot-after-the-siren.json - the advantage's move runs the clock out
    (PRIVILEGE_CANCELLED, PENALTY_SHOT), the shot's goal ends period 1 (PART_ENDED, no restart), and the first move
    of period 2 is home's, after away started period 1 (first_starter)."""
    results = _results(EXAMPLES / "shot-after-the-siren.json")
    assert [_codes(r) for r in results] == [["PRIVILEGE_CANCELLED", "PENALTY_SHOT"], [],
                                            ["GOAL", "PENALTY_SHOT_ENDED", "PART_ENDED"], ["RESTART"]]
    assert results[2]["position"]["part"]["kind"] == "break" and results[2]["position"]["score"]["home"] == 1
    assert results[3]["decisions"] == [{"code": "RESTART", "team": "home"}]
    assert results[3]["position"]["part"]["number"] == 2 and results[3]["position"]["first_starter"] == "away"


def test_III_5_a_scenario_crossing_a_period_end_continues_after_the_break():
    """III.5: time runs only by moves, so the scenario waits out the break before the next action; the next
    part's RESTART is reported first in that action's result."""
    from sprtec.commands.scenario import run_scenario

    text = (EXAMPLES / "goal.json").read_text()
    data = json.loads(text)
    data["position"]["part"] = {"kind": "period", "number": 1, "clock_ms": 100}
    first = data["actions"][0]
    data["actions"] = [first, {"team": "away", "action": "flick", "stone": "a2", "vx": 0.0, "vy": -300.0},
                       {"team": "home", "action": "flick", "stone": "h2", "vx": 300.0, "vy": 0.0}]
    results = run_scenario(notation.scenario_from_json(json.dumps(data)))
    assert "PART_ENDED" in _codes(results[0]) and results[0]["position"]["part"]["kind"] == "break"
    starter = results[0]["position"]["to_move"]
    mover = next(r for r in results[1:] if r["accepted"])
    assert _codes(mover)[0] == "RESTART" and mover["position"]["part"]["kind"] == "period"
    assert mover["position"]["part"]["number"] == 2 and starter in ("home", "away")


def test_XV_16_a_shootout_shot_after_a_waited_out_break_tells_its_end_before_the_next_shot():
    """XV.16: an untimed scenario waits out the break before the shoot-out (its first PENALTY_SHOT comes first in
    the shot's result); the missed shot is then told ended before the next shot's PENALTY_SHOT."""
    from shared.match import settings_of
    from shared.referee import clock
    from sprtec.commands.scenario import run_scenario

    level = {"ruleset": "ko", "seed": 5, "settings": {"effects_2_5d": False, "break_ms": 2000},
             "part": {"kind": "overtime", "number": 1, "clock_ms": 100}}
    last = {"team": "home", "action": "flick", "stone": "h2", "vx": 0.0, "vy": 200.0}
    scenario = {"format": "sprtec-scenario/1", "position": level, "actions": [last]}
    (ended,) = run_scenario(notation.scenario_from_json(json.dumps(scenario)))
    assert ended["position"]["part"]["kind"] == "break"
    in_break = notation.position_from_json(ended["position"])
    shot, _ = clock.wait_out_break(in_break, settings_of(in_break))
    state = shot.penalty
    assert state is not None and state.in_shootout
    missed = {"team": state.team, "action": "flick", "stone": state.shooter,
              "vx": 300.0 * shot.attack_end(state.team), "vy": 0.0}
    scenario["actions"] = [last, missed]
    done = _run("-", "--no-position", stdin=json.dumps(scenario).encode())
    results = json.loads(done.stdout)["results"]
    assert [(d["code"], d.get("team")) for d in results[1]["decisions"]] == [
        ("PENALTY_SHOT", state.team), ("PENALTY_SHOT_ENDED", state.team),
        ("PENALTY_SHOT", "away" if state.team == "home" else "home")]


# -------------------------------------------------------------------------- clock events (docs/SCENARIOS-EXTENSIONS.md)

CLOCKED = {"ruleset": "standard", "settings": {"period_ms": 5000, "break_ms": 2000}, "to_move": "home",
           "part": {"kind": "period", "number": 1, "clock_ms": 3000}}


def _clocked(*entries: dict[str, Any], timed: bool = False) -> list[dict[str, Any]]:
    """Run the entries from CLOCKED (period 1 with 3 s left) through ``sprtec scenario -``."""
    scenario = {"format": "sprtec-scenario/1", "position": CLOCKED, "actions": list(entries), "timed": timed}
    done = _run("-", stdin=json.dumps(scenario).encode())
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)["results"]


def test_clock_events_run_through_the_command_with_the_result_shape_of_an_action():
    """elapse, timeout and forfeit each give index, accepted, duration_ms 0, decisions and a valid position."""
    results = _clocked({"action": "elapse", "ms": 1000}, {"team": "home", "action": "timeout"},
                       {"team": "home", "action": "forfeit", "reason": "RESIGNED"})
    assert [r["index"] for r in results] == [0, 1, 2]
    for entry in results:
        assert list(entry) == ["index", "accepted", "duration_ms", "decisions", "position"]
        assert entry["accepted"] is True and entry["duration_ms"] == 0
        assert notation.position_to_json(notation.position_from_json(entry["position"])) == entry["position"]
    assert results[0]["position"]["part"]["clock_ms"] == 2000 and results[0]["decisions"] == []


def test_elapse_across_a_period_end_ends_the_part_and_runs_on_into_the_break_and_the_next_period():
    """III.1, III.5, A34: 4 s from 3 s left ends period 1 and leaves 1 s gone of the break; 1.5 s more ends the
    break (RESTART) and runs 0.5 s of period 2."""
    results = _clocked({"action": "elapse", "ms": 4000}, {"action": "elapse", "ms": 1500})
    assert results[0]["decisions"] == [{"code": "PART_ENDED", "part": {"kind": "period", "number": 1}}]
    assert results[0]["position"]["part"] == {"kind": "break", "number": 1, "clock_ms": 1000}
    assert _codes(results[1]) == ["RESTART"]
    assert results[1]["position"]["part"] == {"kind": "period", "number": 2, "clock_ms": 4500}


def test_one_elapse_through_the_last_period_ends_the_match_by_time():
    """Every part ended by one long elapse: PART_ENDED and RESTART per part, then MATCH_ENDED (REGULAR_TIME or a
    DRAW at 0:0); time after the end changes nothing and is still accepted."""
    results = _clocked({"action": "elapse", "ms": 60_000}, {"action": "elapse", "ms": 1000})
    codes = _codes(results[0])
    assert codes.count("PART_ENDED") == 3 and codes.count("RESTART") == 2 and codes[-1] == "MATCH_ENDED"
    assert results[0]["position"]["result"] == {"winner": None, "reason": "DRAW"}
    assert results[1]["accepted"] and results[1]["decisions"] == []
    assert results[1]["position"] == results[0]["position"]


def test_a_move_clock_timeout_passes_the_turn_and_only_the_team_to_move_can_time_out():
    """A35 house rule: home's move clock runs out (ruled TIMEOUT home), away is to move, the move number stays;
    away's own timeout then passes it back, while a second home timeout in a row is refused NOT_YOUR_TURN."""
    results = _clocked({"team": "home", "action": "timeout"}, {"team": "home", "action": "timeout"},
                       {"team": "away", "action": "timeout"})
    assert results[0]["position"]["to_move"] == "away"
    assert results[0]["decisions"] == [{"code": "TIMEOUT", "team": "home", "kind": None}]
    assert results[0]["position"]["move_number"] == 0
    assert results[1]["accepted"] is False and results[1]["error"]["code"] == "NOT_YOUR_TURN"
    assert results[2]["position"]["to_move"] == "home"


def test_a_choice_timeout_applies_the_prompts_default():
    """XV.11, A33: the goalie's and the shooter's setup choices time out (kind "setup", each ruled TIMEOUT with its
    team and kind); the defaults are placed and the shot can be taken. A kind nobody is asked for is refused."""
    data = json.loads((EXAMPLES / "penalty-shot.json").read_text())
    data["actions"] = [data["actions"][0], {"team": "away", "action": "timeout", "kind": "count"},
                       {"team": "away", "action": "timeout", "kind": "setup"},
                       {"team": "home", "action": "timeout", "kind": "setup"}]
    done = _run("-", stdin=json.dumps(data).encode())
    results = json.loads(done.stdout)["results"]
    assert results[1]["accepted"] is False and results[1]["error"]["code"] == "ACTION_NOT_ALLOWED"
    assert results[2]["accepted"] and results[2]["position"]["penalty"]["goalie_set"] is True
    assert results[3]["accepted"] and results[3]["position"]["penalty"]["shooter_set"] is True
    assert [r["decisions"] for r in results[2:]] == [[{"code": "TIMEOUT", "team": "away", "kind": "setup"}],
                                                     [{"code": "TIMEOUT", "team": "home", "kind": "setup"}]]


def test_a_forfeit_ends_the_match_with_the_other_team_as_winner_and_nothing_follows():
    """Product decision 5: away forfeits (disconnected) - MATCH_ENDED home; a flick and a second forfeit after it
    are refused MATCH_OVER and change nothing."""
    results = _clocked({"team": "away", "action": "forfeit"},
                       {"team": "home", "action": "flick", "stone": "h4", "vx": 500.0, "vy": 0.0},
                       {"team": "home", "action": "forfeit", "reason": "RESIGNED"})
    assert results[0]["decisions"] == [{"code": "MATCH_ENDED", "winner": "home", "reason": "FORFEIT_DISCONNECTED"}]
    assert results[0]["position"]["result"] == {"winner": "home", "reason": "FORFEIT_DISCONNECTED"}
    assert results[0]["position"]["score"] == {"home": 0, "away": 0}
    assert [r["error"]["code"] for r in results[1:]] == ["MATCH_OVER", "MATCH_OVER"]


@pytest.mark.parametrize("timed", [False, True])
def test_only_an_untimed_scenario_waits_out_a_break_before_an_action(timed: bool):
    """Untimed (SCENARIOS.md): a flick in the break waits it out and is played in period 2, reporting RESTART first.
    Timed (an export): the break still runs, so the flick is refused; an elapse ends the break instead."""
    flick = {"team": "home", "action": "flick", "stone": "h2", "vx": -500.0, "vy": 0.0}  # V.7: the centre forward
    results = _clocked({"action": "elapse", "ms": 3000}, flick, timed=timed)
    if not timed:
        assert results[1]["accepted"] and _codes(results[1])[0] == "RESTART"
        assert results[1]["position"]["part"]["number"] == 2
    else:
        assert results[1]["accepted"] is False and results[1]["error"]["code"] == "ACTION_NOT_ALLOWED"
        assert "break" in results[1]["error"]["message"]


def test_the_extensions_doc_example_runs_with_every_entry_accepted():
    """docs/SCENARIOS-EXTENSIONS.md's timed scenario reads and runs: period end, break, RESTART, a move, RESIGNED."""
    text = (ROOT / "docs" / "SCENARIOS-EXTENSIONS.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```json\n(.*?)```", text, flags=re.S)
    assert notation.scenario_from_json(block).timed is True
    done = _run("-", "--no-position", stdin=block.encode())
    results = json.loads(done.stdout)["results"]
    assert all(r["accepted"] for r in results)
    assert [_codes(r) for r in results] == [[], ["TIMEOUT"], ["PART_ENDED"], ["RESTART"], [], [], ["MATCH_ENDED"]]
    assert results[-1]["decisions"][0] == {"code": "MATCH_ENDED", "winner": "away", "reason": "RESIGNED"}


def test_docs_scenarios_copy_equals_the_contract():
    """docs/SCENARIOS.md is a verbatim copy of the contract handed beside the repository, when it is there."""
    import pytest

    contract = ROOT.parent / "shared" / "SCENARIOS.md"
    if not contract.exists():
        pytest.skip("no ../shared/SCENARIOS.md beside this checkout")
    assert SPEC.read_bytes() == contract.read_bytes(), "cp ../shared/SCENARIOS.md docs/SCENARIOS.md"

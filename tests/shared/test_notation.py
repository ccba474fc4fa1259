"""The JSON notation of SCENARIOS.md: defaults, validation errors, canonical writing and round trips."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared import formation, notation
from shared.model import (
    ALL_STONE_IDS,
    TEAMS,
    ClockEvent,
    Elapse,
    ExclusionChoice,
    Flick,
    Forfeit,
    GoalieReset,
    Part,
    Placement,
    Position,
    Privilege,
    Puck,
    Result,
    Setup,
    Stone,
    Team,
    Timeout,
)
from shared.notation import NotationError, ScenarioEntry
from shared.outcome import ActionResult, Decision

SPEC = Path(__file__).resolve().parents[2] / "docs" / "SCENARIOS.md"


def _spec_examples() -> list[str]:
    """The ```json blocks of SCENARIOS.md, in order (position, scenario, result)."""
    return re.findall(r"```json\n(.*?)```", SPEC.read_text(encoding="utf-8"), flags=re.S)


def _error(data: dict[str, Any] | str) -> NotationError:
    """The NotationError reading ``data`` as a position raises."""
    with pytest.raises(NotationError) as info:
        notation.position_from_json(data)
    return info.value


# --------------------------------------------------------------------------- defaults


def test_empty_position_takes_every_default():
    """{} is the standard ruleset's basic setup: period 1 at full time, home to move, puck on the centre spot."""
    p = notation.position_from_json({})
    assert p.ruleset == "standard" and p.settings == () and p.seed == 0 and p.move_number == 0
    assert p.home_end == -1 and p.to_move == "home" and p.score == (0, 0) and not p.restart
    assert p.part == Part("period", 1, 360_000)
    assert p.stones == formation.basic_setup(-1, 5)
    assert p.puck == Puck(0.0, 0.0) and p.excluded == ((), ()) and p.deferred == (0, 0) and p.privilege is None


def test_V_2_a_missing_first_starter_is_the_opening_mover_else_the_seeds_lot():
    """V.2, SCENARIOS.md: without ``first_starter`` an opening face-off (period 1, restart, move 0) names the team
    to move, any other position the seed's lot, and the reading writes it back; a given team is kept. ``null``
    (a position made in code that records none) reads back as none, which the referee resolves by the same rule."""
    from shared.referee.setup import first_period_starter

    lot = {seed: first_period_starter(Position(seed=seed)) for seed in range(12)}
    assert set(lot.values()) == {"home", "away"}
    for seed, drawn in lot.items():
        opening = notation.position_from_json({"seed": seed, "to_move": "away", "restart": True})
        assert opening.first_starter == "away" and notation.position_to_json(opening)["first_starter"] == "away"
        assert notation.position_from_json({"seed": seed, "restart": True, "move_number": 1}).first_starter == drawn
        assert notation.position_from_json({"seed": seed, "part": {"kind": "period", "number": 2},
                                            "restart": True}).first_starter == drawn
        kept = notation.position_from_json({"seed": seed, "first_starter": "home", "to_move": "away", "restart": True})
        assert kept.first_starter == "home" and notation.position_to_json(kept)["first_starter"] == "home"
        unrecorded = notation.position_from_json({"seed": seed, "to_move": "away", "restart": True,
                                                  "first_starter": None})
        assert unrecorded.first_starter is None and first_period_starter(unrecorded) == "away"


def test_the_documented_fields_are_the_field_table_of_scenarios_md():
    """The writer's documented fields are the rows of SCENARIOS.md's position table, in its order."""
    table = SPEC.read_text(encoding="utf-8").split("## Position", 1)[1].split("## Scenario", 1)[0]
    assert tuple(re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M)) == notation.DOCUMENTED_FIELDS


def test_default_part_clock_follows_the_ruleset():
    """A missing part is period 1 with the ruleset's full time (quick: 5 minutes)."""
    assert notation.position_from_json({"ruleset": "quick"}).part.clock_ms == 300_000
    p = notation.position_from_json({"settings": {"period_ms": 1000}, "part": {"kind": "period", "number": 2}})
    assert p.part == Part("period", 2, 1000)


def test_default_overtime_clock_and_setup():
    """XVI.2: a ko overtime part without stones starts 3 + goalie per team, with the overtime's full time."""
    p = notation.position_from_json({"ruleset": "ko", "part": {"kind": "overtime", "number": 1}})
    assert p.part.clock_ms == 180_000
    assert [s.id for s in p.stones] == ["h1", "h2", "h3", "h5", "a1", "a2", "a3", "a5"]
    assert "overtime" in str(_error({"part": {"kind": "overtime", "number": 1}}))  # standard has no overtime


def test_default_stones_follow_home_end_and_field_stones_setting():
    """home_end +1 mirrors the setup; the field_stones setting leaves positions out by IV.4's order."""
    p = notation.position_from_json({"home_end": 1, "settings": {"field_stones": 4}})
    home = {s.id: s for s in p.team_stones("home")}
    assert sorted(home) == ["h1", "h2", "h3", "h4", "h5"] and home["h1"].x == 498.0


def test_stone_team_and_role_default_from_the_id():
    """A stone without team or role takes its id's team, and goalie for h1/a1, field otherwise."""
    p = notation.position_from_json({"stones": [{"id": "a1", "x": 498, "y": 0}, {"id": "h3", "x": -100, "y": 0}]})
    assert [(s.id, s.team, s.role) for s in p.stones] == [("h3", "home", "field"), ("a1", "away", "goalie")]
    assert isinstance(p.stones[0].x, float)


def test_spec_position_example_reads():
    """The position example of SCENARIOS.md reads with its values."""
    p = notation.position_from_json(_spec_examples()[0])
    assert p.seed == 7 and p.setting_overrides() == {"effects_2_5d": False}
    assert [s.id for s in p.stones] == ["h1", "h2", "a1", "a2"]


def test_spec_scenario_example_reads_with_the_position_example():
    """The scenario example of SCENARIOS.md reads once its placeholder position is the position example."""
    raw = json.loads(_spec_examples()[1].replace('{ "...": "a position as above" }', _spec_examples()[0]))
    scenario = notation.scenario_from_json(raw)
    assert scenario.actions == (Flick("home", "h2", 1500.0, 0.0), GoalieReset("away"))
    assert scenario.position == notation.position_from_json(_spec_examples()[0])


def test_bare_position_reads_as_a_scenario_without_actions():
    """A document with the position format is a scenario with no actions."""
    scenario = notation.scenario_from_json({"format": "sprtec-position/1", "seed": 3})
    assert scenario.position.seed == 3 and scenario.actions == ()


# --------------------------------------------------------------------------- validation


def test_overlapping_stones_name_the_body():
    """Two stones overlapping by more than the tolerance are refused, naming the later stone."""
    stones = [{"id": "h2", "x": -100, "y": 0}, {"id": "a2", "x": -80, "y": 0}]
    err = _error({"stones": stones})
    assert err.body == "a2" and "overlaps h2" in str(err) and err.code == "INVALID_POSITION"


def test_touching_within_tolerance_is_accepted():
    """Stones touching, or pressed together by less than OVERLAP_TOLERANCE, are accepted."""
    notation.position_from_json({"stones": [{"id": "h2", "x": -100, "y": 0}, {"id": "a2", "x": -68.2, "y": 0}]})
    err = _error({"stones": [{"id": "h2", "x": -100, "y": 0}, {"id": "a2", "x": -68.3, "y": 0}]})
    assert err.body == "a2"


def test_stone_overlapping_the_puck_is_refused():
    """The puck is a body too: a stone on it is refused, naming the puck (checked after the stones)."""
    err = _error({"stones": [{"id": "h2", "x": 10, "y": 0}]})
    assert err.body == "puck" and "overlaps h2" in str(err)


def test_body_outside_the_board_is_refused():
    """A puck pressing into a board beyond the tolerance, or in a rounded corner, is refused."""
    assert _error({"stones": [], "puck": {"x": 600, "y": 0}}).body == "puck"
    notation.position_from_json({"stones": [], "puck": {"x": 599.5, "y": 0}})
    assert _error({"stones": [{"id": "h3", "x": -592, "y": 282}]}).body == "h3"


def test_body_inside_a_goal_frame_is_refused():
    """A stone on a goal's side frame or back is refused; the goal interior and behind the goal are free."""
    assert "frame of goal -1" in str(_error({"stones": [{"id": "h4", "x": -520, "y": 50}]}))
    assert _error({"stones": [{"id": "h4", "x": -552, "y": 0}]}).body == "h4"
    notation.position_from_json({"stones": [{"id": "h4", "x": -520, "y": 0}]})  # inside the goal
    notation.position_from_json({"stones": [{"id": "h4", "x": -585, "y": 0}]})  # behind the goal
    notation.position_from_json({"stones": [{"id": "h4", "x": -520, "y": 60}]})  # touching the side frame


@pytest.mark.parametrize(
    ("stones", "needle", "body"),
    [
        ([{"id": "h8", "x": 0, "y": 100}], "unknown stone id", "h8"),
        ([{"id": "a3", "x": 0, "y": 100}, {"id": "a3", "x": 0, "y": 200}], "duplicate", "a3"),
        ([{"id": "h3", "team": "away", "x": 0, "y": 100}], "belongs to home", "h3"),
        ([{"id": "h3", "role": "defender", "x": 0, "y": 100}], "expected one of", None),
        ([{"id": "h1", "x": -498, "y": 0}, {"id": "h2", "role": "goalie", "x": 0, "y": 100}], "more than one goalie",
         "h2"),
        ([{"id": "h3", "x": "0", "y": 100}], "expected a number", None),
        ([{"id": "h3", "x": 0, "y": 100, "speed": 3}], "unknown field 'speed'", None),
        ([{"id": "h3", "x": 0}], "missing field 'y'", None),
        ([{"id": "h3", "x": 0, "y": 100, "flipped": 1}], "true or false", None),
    ],
)
def test_bad_stones_are_refused(stones: list, needle: str, body: str | None):
    """Unknown, duplicate, wrong-team, wrong-role, mistyped and incomplete stones give a clear error."""
    err = _error({"stones": stones})
    assert needle in str(err) and err.body == body and err.path.startswith("stones")


@pytest.mark.parametrize(
    ("position", "path"),
    [
        ({"ruleset": "blitz"}, "ruleset"),
        ({"settings": {"no_such": 1}}, "settings.no_such"),
        ({"settings": {"effects_2_5d": "maybe"}}, "settings.effects_2_5d"),
        ({"settings": []}, "settings"),
        ({"seed": 1.5}, "seed"),
        ({"seed": True}, "seed"),
        ({"move_number": -1}, "move_number"),
        ({"home_end": 0}, "home_end"),
        ({"to_move": "both"}, "to_move"),
        ({"first_starter": "both"}, "first_starter"),
        ({"first_starter": 1}, "first_starter"),
        ({"score": {"home": 1, "guests": 2}}, "score"),
        ({"score": [1, 2]}, "score"),
        ({"deferred": {"home": -1}}, "deferred.home"),
        ({"part": {"kind": "half"}}, "part.kind"),
        ({"privilege": {"team": "home", "remaining": 3, "total": 2}}, "privilege"),
        ({"excluded": {"home": ["a3"]}}, "excluded.home[0]"),
        ({"excluded": {"home": ["h2"]}}, "excluded.home[0]"),
        ({"puck": {"x": 1e999, "y": 0}}, "puck.x"),
        ({"moves": 3}, ""),
        ({"format": "sprtec-position/2"}, "format"),
    ],
)
def test_bad_fields_are_refused_naming_the_field(position: dict, path: str):
    """Unknown rulesets and settings, wrong types, out-of-range values and unknown fields name their field."""
    assert _error(position).path == path


def test_non_finite_numbers_in_text_are_refused():
    """NaN and Infinity literals in JSON text are refused before anything else."""
    err = _error('{"puck": {"x": NaN, "y": 0}}')
    assert err.code == "INVALID_JSON" and "NaN" in str(err)
    assert _error('{"seed": 1, "seed": 2}').code == "INVALID_JSON"
    assert _error("[1, 2]").code == "INVALID_POSITION"
    assert _error("{nope").code == "INVALID_JSON"


# --------------------------------------------------------------------------- actions


def test_actions_round_trip_exactly():
    """Every action kind writes as SCENARIOS.md shows and reads back equal, numbers unquantised."""
    actions = [
        Flick("home", "h2", 1500.123456, -0.5),
        GoalieReset("away"),
        Setup("home", (Placement("h5", -300.0, 20.0), Placement("h6", -250.5, -40.0))),
    ]
    for action in actions:
        assert notation.action_from_json(notation.action_to_json(action)) == action
    assert notation.action_to_json(actions[0]) == {
        "team": "home", "action": "flick", "stone": "h2", "vx": 1500.123456, "vy": -0.5,
    }
    assert notation.action_to_json(actions[2])["stones"][1] == {"id": "h6", "x": -250.5, "y": -40.0}


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        ({"team": "home", "action": "shoot"}, "unknown action"),
        ({"team": "home"}, "unknown action"),
        ({"team": "home", "action": "flick", "stone": "h2", "vx": 10.0}, "missing field 'vy'"),
        ({"team": "home", "action": "flick", "stone": "h2", "vx": 10.0, "vy": "fast"}, "expected a number"),
        ({"team": "home", "action": "count", "stone": "h2"}, "unknown field 'stone'"),
        ({"team": "visitors", "action": "count"}, "expected one of"),
        ({"team": "home", "action": "setup", "stones": [{"id": "h5", "x": 1.0}]}, "missing field 'y'"),
    ],
)
def test_bad_actions_are_refused(raw: dict, needle: str):
    """Unknown action names, missing or unknown fields and wrong types give INVALID_ACTION naming the field."""
    with pytest.raises(NotationError) as info:
        notation.action_from_json(raw)
    assert needle in str(info.value) and info.value.code == "INVALID_ACTION"


def test_scenario_errors_name_the_action_index():
    """A bad action inside a scenario names its index; a non-object action and non-list actions are refused."""
    with pytest.raises(NotationError) as info:
        notation.scenario_from_json({"actions": [{"team": "home", "action": "count"}, {"team": "home"}]})
    assert info.value.path == "actions[1].action"
    for bad in ({"actions": [3]}, {"actions": {}}, {"position": [], "actions": []}, {"extra": 1}):
        with pytest.raises(NotationError):
            notation.scenario_from_json(bad)


# -------------------------------------------------------------------------- clock events (docs/SCENARIOS-EXTENSIONS.md)


CLOCK_EVENTS = [
    (Elapse(12_345), {"action": "elapse", "ms": 12345}),
    (Timeout("away"), {"team": "away", "action": "timeout"}),
    (Timeout("home", "exclusion"), {"team": "home", "action": "timeout", "kind": "exclusion"}),
    (Forfeit("home", "RESIGNED"), {"team": "home", "action": "forfeit", "reason": "RESIGNED"}),
    (Forfeit("away"), {"team": "away", "action": "forfeit", "reason": "FORFEIT_DISCONNECTED"}),
]


@pytest.mark.parametrize(("event", "raw"), CLOCK_EVENTS, ids=[repr(e) for e, _ in CLOCK_EVENTS])
def test_clock_events_write_as_documented_and_read_back(event: ClockEvent, raw: dict):
    """elapse, timeout (kind only when given) and forfeit: the written object, and reading it gives the event."""
    assert notation.event_to_json(event) == raw
    assert notation.event_from_json(raw) == event


def test_a_forfeit_without_reason_is_the_disconnect_forfeit():
    """product decision 5: a forfeit event without ``reason`` reads as FORFEIT_DISCONNECTED."""
    assert notation.event_from_json({"team": "home", "action": "forfeit"}) == Forfeit("home", "FORFEIT_DISCONNECTED")


def test_event_from_json_reads_actions_too_and_action_from_json_refuses_events():
    """A scenario entry may be an action; a coach action (what the protocol reads) is never a clock event."""
    flick = {"team": "home", "action": "flick", "stone": "h2", "vx": 10.5, "vy": 0.0}
    assert notation.event_from_json(flick) == Flick("home", "h2", 10.5, 0.0)
    for _, raw in CLOCK_EVENTS:
        with pytest.raises(NotationError, match="unknown action") as info:
            notation.action_from_json(raw)
        assert info.value.code == "INVALID_ACTION"


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        ({"action": "elapse", "ms": -1}, "cannot run backwards"),
        ({"action": "elapse", "ms": 2.5}, "expected a whole number"),
        ({"action": "elapse"}, "missing field 'ms'"),
        ({"team": "home", "action": "elapse", "ms": 10}, "unknown field 'team'"),
        ({"action": "timeout"}, "missing field 'team'"),
        ({"team": "home", "action": "forfeit", "reason": "BORED"}, "expected one of"),
        ({"team": "home", "action": "rewind"}, "unknown action"),
    ],
)
def test_bad_clock_events_are_refused_naming_the_field(raw: dict, needle: str):
    """Negative or fractional time, missing or unknown fields and unknown reasons give INVALID_ACTION."""
    with pytest.raises(NotationError) as info:
        notation.event_from_json(raw)
    assert needle in str(info.value) and info.value.code == "INVALID_ACTION"


def test_a_scenario_with_clock_events_round_trips_and_timed_is_written_only_when_true():
    """Actions and clock events keep their order; ``timed`` reads back; a plain scenario has no ``timed`` key."""
    entries = (Elapse(800), Flick("home", "h4", 900.0, 12.25), Timeout("away"), Forfeit("home", "RESIGNED"))
    scenario = notation.Scenario(notation.position_from_json({}), entries, timed=True)
    written = notation.scenario_to_json(scenario)
    assert written["timed"] is True and [a["action"] for a in written["actions"]] == [
        "elapse", "flick", "timeout", "forfeit"]
    assert notation.scenario_from_json(notation.dumps(written)) == scenario
    plain = notation.scenario_to_json(notation.Scenario(scenario.position, entries))
    assert "timed" not in plain and notation.scenario_from_json(plain).timed is False
    with pytest.raises(NotationError, match="expected true or false"):
        notation.scenario_from_json({"timed": "yes"})


@pytest.mark.parametrize(
    ("kind", "team", "action", "elapsed", "events"),
    [
        ("action", "home", {"team": "home", "action": "count"}, 40, "elapse 40, count"),
        ("action", "away", {"team": "away", "action": "goalie_reset"}, 0, "goalie_reset"),
        ("timeout", "away", None, 30000, "elapse 30000, timeout away"),
        ("timeout", "home", {"kind": "count"}, 20000, "elapse 20000, timeout home count"),
        ("elapse", None, None, 5000, "elapse 5000"),
        ("elapse", None, None, 0, ""),
        ("forfeit", "home", None, 10, "elapse 10, forfeit home FORFEIT_DISCONNECTED"),
        ("resign", "away", None, 0, "forfeit away RESIGNED"),
    ],
)
def test_log_entries_become_clock_time_then_their_input(kind: str, team: str | None, action: dict | None,
                                                       elapsed: int, events: str):
    """Each server log kind maps to elapse (only when time passed) followed by its action or clock event."""

    def show(event: ScenarioEntry) -> str:
        if isinstance(event, Elapse):
            return f"elapse {event.ms}"
        if isinstance(event, Timeout):
            return f"timeout {event.team}" + (f" {event.kind}" if event.kind is not None else "")
        if isinstance(event, Forfeit):
            return f"forfeit {event.team} {event.reason}"
        return event.action

    got = notation.log_entry_events(kind, team, action, elapsed)
    assert ", ".join(show(e) for e in got) == events


def test_log_entries_that_cannot_be_replayed_are_refused():
    """An unknown kind, a timeout without a team or with anything but ``{"kind": K}``, and an action entry without
    its action are NotationErrors."""
    for kind, team, action in (("rewind", "home", None), ("timeout", None, None), ("action", "home", None),
                               ("timeout", "home", {"kind": 3}), ("timeout", "home", {"kind": "count", "x": 1}),
                               ("forfeit", "home", {"kind": "count"})):
        with pytest.raises(NotationError):
            notation.log_entry_events(kind, team, action, 0)


# --------------------------------------------------------------------------- canonical writing


def test_writer_order_and_shapes():
    """Documented fields first in SCENARIOS.md order, then further Position fields; pairs as team objects."""
    stones = [{"id": "a2", "x": 100, "y": 0, "flipped": True}, {"id": "h2", "x": -100, "y": 0}]
    p = notation.position_from_json(
        {"score": {"away": 2}, "excluded": {"away": ["a6"]}, "settings": {"effects_2_5d": False}, "stones": stones}
    )
    out = notation.position_to_json(p)
    assert list(out)[: len(notation.DOCUMENTED_FIELDS) + 1] == ["format", *notation.DOCUMENTED_FIELDS]
    assert out["score"] == {"home": 0, "away": 2} and out["excluded"] == {"home": [], "away": ["a6"]}
    assert out["settings"] == {"effects_2_5d": False}
    assert out["stones"] == [
        {"id": "h2", "team": "home", "role": "field", "x": -100.0, "y": 0.0},
        {"id": "a2", "team": "away", "role": "field", "x": 100.0, "y": 0.0, "flipped": True},
    ]


def test_extra_fields_follow_in_dataclass_order():
    """Every Position field beyond SCENARIOS.md is written after the documented ones, in dataclass order."""
    import dataclasses

    out = notation.position_to_json(Position())
    extra = [f.name for f in dataclasses.fields(Position) if f.name not in notation.DOCUMENTED_FIELDS]
    assert list(out) == ["format", *notation.DOCUMENTED_FIELDS, *extra]


def test_floats_are_quantised_to_a_hundredth_of_a_millimetre():
    """Coordinates are read and written on the 0.01 mm grid; -0.0 is written as 0.0."""
    p = notation.position_from_json({"stones": [], "puck": {"x": 12.3456, "y": -0.001}})
    assert p.puck == Puck(12.35, 0.0)
    assert json.dumps(notation.position_to_json(p)["puck"]) == '{"x": 12.35, "y": 0.0}'


def test_referee_state_fields_round_trip():
    """Nested referee state (a result, an exclusion choice with an optional spot) survives a round trip."""
    p = Position(
        stones=formation.basic_setup(),
        first_starter="away",
        result=Result(None, "TIME"),
        exclusion_choice=ExclusionChoice("home", "h5", ("h3", "h4"), (-120.5, 33.25)),
        privilege=Privilege("home", 1, 2, ("a3",)),
    )
    assert notation.position_from_json(notation.position_to_json(p)) == p


def test_result_entries():
    """An accepted result carries duration, decisions and position; a refused one only its error."""
    p = notation.position_from_json({})
    accepted = notation.result_to_json(ActionResult(True, p, (Decision.of("FLIP", stone="h2"),)), 0)
    assert list(accepted) == ["index", "accepted", "duration_ms", "decisions", "position"]
    assert accepted["decisions"] == [{"code": "FLIP", "stone": "h2"}] and accepted["duration_ms"] == 0
    refused = notation.result_to_json(ActionResult.refused(p, "NOT_YOUR_TURN", "home is to move"), 1)
    assert refused == {"index": 1, "accepted": False, "error": {"code": "NOT_YOUR_TURN", "message": "home is to move"}}
    assert "position" not in notation.result_to_json(ActionResult(True, p), 2, with_position=False)


# --------------------------------------------------------------------------- round-trip property

_CELLS = [(x, y) for x in range(-450, 451, 50) for y in range(-250, 251, 50)]
_jitter = st.integers(-800, 800)  # hundredths of a mm: up to 8 mm of jitter keeps cells 34 mm apart


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Valid quantised positions: bodies on distinct cells of a 50 mm grid, jittered, plus random state."""
    ids = draw(st.lists(st.sampled_from(["h1", "h2", "h3", "h4", "h5", "h6", "h7", "a1", "a2", "a3", "a4", "a5",
                                         "a6", "a7"]), unique=True, max_size=14))
    cells = draw(st.lists(st.sampled_from(_CELLS), unique=True, min_size=len(ids) + 1, max_size=len(ids) + 1))
    bodies = [((x * 100 + draw(_jitter)) / 100, (y * 100 + draw(_jitter)) / 100) for x, y in cells]
    stones = tuple(
        Stone(i, "home" if i[0] == "h" else "away", "goalie" if i[1] == "1" else "field", bx, by, draw(st.booleans()))
        for i, (bx, by) in zip(ids, bodies, strict=False)
    )
    stones = tuple(sorted(stones, key=lambda s: ALL_STONE_IDS.index(s.id)))
    off = [i for i in ("h3", "h4", "a5", "a6") if i not in ids]
    team: st.SearchStrategy[Team] = st.sampled_from(TEAMS)
    return Position(
        ruleset=draw(st.sampled_from(["standard", "ko", "final", "strict", "quick"])),
        settings=tuple(sorted(draw(st.fixed_dictionaries(
            {}, optional={"effects_2_5d": st.booleans(), "activity_limit": st.integers(1, 9)})).items())),
        seed=draw(st.integers(0, 2**40)),
        move_number=draw(st.integers(0, 500)),
        home_end=draw(st.sampled_from([-1, 1])),
        to_move=draw(team),
        score=(draw(st.integers(0, 20)), draw(st.integers(0, 20))),
        part=Part(draw(st.sampled_from(["period", "break", "shootout"])), draw(st.integers(1, 3)),
                  draw(st.integers(0, 360_000))),
        restart=draw(st.booleans()),
        privilege=draw(st.one_of(st.none(), st.builds(Privilege, team, st.just(1), st.sampled_from([2, 3])))),
        stones=stones,
        puck=Puck(*bodies[-1]),
        excluded=(tuple(i for i in off if i[0] == "h"), tuple(i for i in off if i[0] == "a")),
        deferred=(draw(st.integers(0, 3)), draw(st.integers(0, 3))),
        first_starter=draw(st.one_of(st.none(), team)),
        result=draw(st.one_of(st.none(), st.builds(Result, st.one_of(st.none(), team),
                                                   st.sampled_from(["TIME", "FORFEIT"])))),
        penalty_shot=draw(st.one_of(st.none(), team)),
    )


@settings(max_examples=150, deadline=None)
@given(positions())
def test_round_trip_read_write(p: Position):
    """read(write(p)) == p for any valid position, through JSON text too, and writing is idempotent."""
    written = notation.position_to_json(p)
    text = notation.dumps(written)
    again = notation.position_from_json(text)
    assert again == p
    assert notation.position_to_json(again) == written
    assert notation.dumps(notation.position_to_json(notation.position_from_json(text))) == text

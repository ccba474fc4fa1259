"""The part clock (III, D14, XIV.4, IX.8, X.4, XVI.2): periods, breaks, overtime, the siren and the match end."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.model import Part, Position, Privilege
from shared.outcome import Decision
from shared.referee.clock import after_move, can_move, elapse, part_index, schedule, wait_out_break
from shared.referee.setup import start_match
from shared.rulesets import Settings, make_settings

STANDARD = make_settings("standard")


def _started(rules: Settings = STANDARD, seed: int = 7) -> Position:
    """A match just started under ``rules``."""
    return start_match(Position(seed=seed), rules)[0]


def _codes(decisions: tuple[Decision, ...]) -> list[str]:
    """The decision codes in order."""
    return [d.code for d in decisions]


def _to_end_of_part(position: Position, rules: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """Let the current part's clock run out exactly."""
    return elapse(position, position.part.clock_ms, rules)


# --------------------------------------------------------------------------- III.1 and the match result


def test_III_1_three_periods_of_six_minutes() -> None:
    """III.1: the standard schedule is three periods of 6 minutes and nothing else."""
    assert schedule(STANDARD) == (Part("period", 1, 360_000), Part("period", 2, 360_000), Part("period", 3, 360_000))


def test_III_1_match_ends_after_last_period_with_winner() -> None:
    """III.1: after three periods the team ahead wins; MATCH_ENDED names it, the result is stored."""
    position = replace(_started(), score=(2, 1))
    position, decisions = elapse(position, 3 * 360_000 + 2 * 30_000, STANDARD)
    assert _codes(decisions).count("PART_ENDED") == 3
    assert decisions[-1].to_json() == {"code": "MATCH_ENDED", "winner": "home", "reason": "REGULAR_TIME"}
    assert position.result is not None and position.result.winner == "home"


def test_III_1_draw_stands_without_overtime() -> None:
    """III.1: a level score after regular time is a draw (winner null) when the ruleset has no overtime."""
    position, decisions = elapse(replace(_started(), score=(1, 1)), 3 * 360_000 + 2 * 30_000, STANDARD)
    assert decisions[-1].to_json() == {"code": "MATCH_ENDED", "winner": None, "reason": "DRAW"}
    assert position.result is not None and position.result.winner is None


def test_III_2_level_score_goes_to_overtime() -> None:
    """III.2, A18: in ko a level score after regular time goes to a break and then a 3-minute overtime part."""
    rules = make_settings("ko")
    position, decisions = elapse(_started(rules), 3 * 360_000 + 3 * 30_000, rules)
    assert "MATCH_ENDED" not in _codes(decisions)
    assert position.part == Part("overtime", 1, 180_000)
    assert decisions[-1].code == "RESTART"


def test_III_2_lead_after_regular_time_skips_overtime() -> None:
    """III.2: overtime is only played when the score is level."""
    rules = make_settings("ko")
    position, decisions = elapse(replace(_started(rules), score=(0, 1)), 3 * 360_000 + 2 * 30_000, rules)
    assert decisions[-1].to_json() == {"code": "MATCH_ENDED", "winner": "away", "reason": "REGULAR_TIME"}
    assert position.part == Part("period", 3, 0)


def test_III_3_undecided_overtime_leads_to_shootout_part() -> None:
    """III.3: still level after overtime, the shoot-out part follows (run by the shoot-out module)."""
    rules = make_settings("ko")
    position, decisions = elapse(_started(rules), 3 * 360_000 + 180_000 + 4 * 30_000, rules)
    assert position.part.kind == "shootout" and position.result is None
    assert {"kind": "overtime", "number": 1} in [d.get("part") for d in decisions]
    assert can_move(position) is None


def test_III_4_final_has_two_overtime_parts() -> None:
    """III.4: the final schedules 3 and then 6 minutes of overtime after the periods."""
    rules = make_settings("final")
    assert schedule(rules)[3:] == (Part("overtime", 1, 180_000), Part("overtime", 2, 360_000))
    position, _ = elapse(_started(rules), 3 * 360_000 + 180_000 + 4 * 30_000, rules)
    assert position.part == Part("overtime", 2, 360_000)


def test_III_2_overtime_without_shootout_ends_drawn() -> None:
    """III.2: a ruleset with overtime but no shoot-out ends drawn when overtime stays level."""
    rules = make_settings("standard", {"overtime_ms": [60_000]})
    position, decisions = elapse(_started(rules), 3 * 360_000 + 60_000 + 3 * 30_000, rules)
    assert decisions[-1].to_json() == {"code": "MATCH_ENDED", "winner": None, "reason": "DRAW"}
    assert position.part == Part("overtime", 1, 0)


def test_III_2_lead_at_end_of_overtime_wins() -> None:
    """III.2, XVI.1: a team ahead when an overtime part ends wins (sudden death normally ends it sooner)."""
    rules = make_settings("final")
    position, _ = elapse(_started(rules), 3 * 360_000 + 3 * 30_000, rules)
    position, decisions = _to_end_of_part(replace(position, score=(3, 2)), rules)
    assert decisions[-1].to_json() == {"code": "MATCH_ENDED", "winner": "home", "reason": "OVERTIME"}


# --------------------------------------------------------------------------- III.5, III.6: breaks and the siren


def test_III_5_break_between_periods_then_ends_swap() -> None:
    """III.5: the siren starts a 30 s break; at its end the ends swap and period 2 starts."""
    start = _started()
    position, decisions = _to_end_of_part(start, STANDARD)
    assert position.part == Part("break", 1, 30_000)
    assert position.home_end == start.home_end
    position, decisions = elapse(position, 29_999, STANDARD)
    assert decisions == () and position.part.clock_ms == 1
    position, decisions = elapse(position, 1, STANDARD)
    assert position.part == Part("period", 2, 360_000)
    assert position.home_end == -start.home_end
    assert all(s.x * position.own_end(s.team) > 0 for s in position.stones)


def test_III_5_no_move_during_break() -> None:
    """III.5: during a break no move may begin (ACTION_NOT_ALLOWED)."""
    position, _ = _to_end_of_part(_started(), STANDARD)
    error = can_move(position)
    assert error is not None and error.code == "ACTION_NOT_ALLOWED" and "break" in error.message


def test_III_5_zero_break_starts_next_part_at_once() -> None:
    """III.5: with break_ms 0 the next period starts right at the siren."""
    rules = make_settings("standard", {"break_ms": 0})
    position, decisions = _to_end_of_part(_started(rules), rules)
    assert _codes(decisions) == ["PART_ENDED", "RESTART"]
    assert position.part == Part("period", 2, 360_000)


def test_III_5_wait_out_break() -> None:
    """III.5: waiting out a break (scenarios, where only moves take time) starts the next part."""
    position, _ = _to_end_of_part(_started(), STANDARD)
    position, decisions = wait_out_break(position, STANDARD)
    assert _codes(decisions) == ["RESTART"] and position.part.number == 2
    assert wait_out_break(position, STANDARD) == (position, ())


def test_III_6_part_ended_is_the_siren_signal() -> None:
    """III.6: the end of each part is signalled by exactly one PART_ENDED naming the part."""
    _, decisions = _to_end_of_part(_started(), STANDARD)
    assert [d.to_json() for d in decisions] == [{"code": "PART_ENDED", "part": {"kind": "period", "number": 1}}]


def test_III_7_ready_check_is_a_server_concern() -> None:
    """III.7 (A60): the core has no ready check; a break ends by time alone, whoever is back."""
    position, _ = _to_end_of_part(_started(), STANDARD)
    position, decisions = elapse(position, STANDARD.break_ms, STANDARD)
    assert position.part.kind == "period" and _codes(decisions) == ["RESTART"]


# --------------------------------------------------------------------------- D14 / A34, XIV.4


def test_D14_running_clock_counts_down() -> None:
    """D14, A34: time passing while aiming or setting up runs the part clock down."""
    position, decisions = elapse(_started(), 12_345, STANDARD)
    assert decisions == () and position.part.clock_ms == 360_000 - 12_345


def test_D14_no_move_once_clock_is_zero() -> None:
    """D14: no move may begin in a part whose clock stands at 0."""
    position = replace(_started(), part=Part("period", 1, 0))
    error = can_move(position)
    assert error is not None and error.code == "ACTION_NOT_ALLOWED"


def test_D14_elapse_ends_a_part_already_at_zero() -> None:
    """D14: a period whose clock already stands at 0 ends at the next clock update, even of 0 ms."""
    position, decisions = elapse(replace(_started(), part=Part("period", 1, 0)), 0, STANDARD)
    assert _codes(decisions) == ["PART_ENDED"] and position.part.kind == "break"


def test_XIV_4_move_past_siren_is_judged_then_part_ends() -> None:
    """XIV.4: a move begun with time left ends the part after it is judged; a goal in it already counted."""
    position = replace(_started(), part=Part("period", 2, 1_000), score=(1, 0))
    position, decisions = after_move(position, 2_400, STANDARD)
    assert _codes(decisions) == ["PART_ENDED"]
    assert position.score == (1, 0)
    assert position.part == Part("break", 2, STANDARD.break_ms)  # the overrun is not charged to the break


def test_XIV_4_move_within_time_only_runs_clock() -> None:
    """XIV.4, D14: a move that ends before the siren just takes its duration off the clock."""
    position, decisions = after_move(_started(), 1_840, STANDARD)
    assert decisions == () and position.part.clock_ms == 360_000 - 1_840


def test_XIV_4_last_period_move_past_siren_decides_match() -> None:
    """XIV.4: a goal by a move made before the final siren counts towards the result."""
    position = replace(_started(), part=Part("period", 3, 500), score=(1, 2))
    position, decisions = after_move(position, 900, STANDARD)
    assert decisions[-1].to_json() == {"code": "MATCH_ENDED", "winner": "away", "reason": "REGULAR_TIME"}


def test_MATCH_OVER_no_move_after_match() -> None:
    """III.1: after MATCH_ENDED every move is refused with MATCH_OVER and the clock stands still."""
    position, _ = elapse(_started(), 3 * 360_000 + 2 * 30_000, STANDARD)
    error = can_move(position)
    assert error is not None and error.code == "MATCH_OVER"
    assert elapse(position, 50_000, STANDARD) == (position, ())
    assert after_move(position, 50_000, STANDARD) == (position, ())


# --------------------------------------------------------------------------- IX.8, X.4, V.2, XVI.2 at part ends


def test_IX_8_siren_clears_privilege() -> None:
    """IX.8: a privilege not yet played (or interrupted) when the siren sounds is cleared."""
    position = replace(_started(), privilege=Privilege("away", 2, 2))
    position, _ = _to_end_of_part(position, STANDARD)
    assert position.privilege is None


def test_XV_10_owed_penalty_shot_holds_the_part_until_taken() -> None:
    """XV.8, XV.10: with a penalty shot owed at the siren the part is held at 0 and its moves may begin; the part
    has not ended yet, so nothing is announced."""
    position = replace(_started(), penalty_shot="away")
    position, decisions = _to_end_of_part(position, STANDARD)
    assert decisions == ()
    assert position.part == Part("period", 1, 0) and position.siren is True
    assert can_move(position) is None
    assert elapse(position, 5_000, STANDARD) == (position, ())
    assert after_move(position, 2_000, STANDARD) == (position, ())


def test_XV_10_part_ends_with_the_clock_update_after_the_shot() -> None:
    """XV.10, III.6: once the shot has ended, the next clock update ends the part (its one PART_ENDED) and starts
    the break."""
    held, _ = _to_end_of_part(replace(_started(), penalty_shot="home"), STANDARD)
    taken = replace(held, penalty_shot=None, score=(1, 0))
    ended = [Decision.of("PART_ENDED", part={"kind": "period", "number": 1})]
    position, decisions = after_move(taken, 1_500, STANDARD)
    assert list(decisions) == ended and position.part == Part("break", 1, STANDARD.break_ms) and not position.siren
    position, decisions = elapse(taken, 10_000, STANDARD)
    assert list(decisions) == ended and position.part == Part("break", 1, STANDARD.break_ms - 10_000)


def test_XV_10_shot_after_final_siren_decides_the_match() -> None:
    """XV.10: a goal from a shot completed after the final siren counts towards the result."""
    last = replace(_started(), part=Part("period", 3, 100), penalty_shot="away", score=(1, 1))
    held, decisions = elapse(last, 100, STANDARD)
    assert "MATCH_ENDED" not in _codes(decisions)
    position, decisions = elapse(replace(held, penalty_shot=None, score=(1, 2)), 0, STANDARD)
    assert [d.to_json() for d in decisions] == [{"code": "PART_ENDED", "part": {"kind": "period", "number": 3}},
                                                {"code": "MATCH_ENDED", "winner": "away", "reason": "REGULAR_TIME"}]
    assert position.result is not None and not position.siren


def test_A43_advantage_at_siren_becomes_penalty_shot() -> None:
    """IX.8 with A43: an advantage pending at the siren becomes a penalty shot, which holds the part."""
    position = replace(_started(), advantage="home", privilege=Privilege("home", 1, 2))
    position, decisions = _to_end_of_part(position, STANDARD)
    assert [d.to_json() for d in decisions] == [
        {"code": "PRIVILEGE_CANCELLED", "team": "home"},
        {"code": "PENALTY_SHOT", "team": "home"},
    ]
    assert position.advantage is None and position.penalty_shot == "home" and position.privilege is None


def test_X_4_next_part_starts_with_complete_teams() -> None:
    """X.4: exclusions and deferred penalties of a period are cancelled; the next starts with complete teams."""
    start = _started()
    position = replace(
        start,
        stones=tuple(s for s in start.stones if s.id not in ("h3", "h4")),
        excluded=(("h3", "h4"), ()),
        deferred=(1, 0),
    )
    position, _ = elapse(position, 360_000 + 30_000, STANDARD)
    assert position.excluded == ((), ()) and position.deferred == (0, 0)
    assert len(position.team_stones("home")) == 6 and position.stone("h3") is not None


def test_V_2_parts_alternate_starting_team() -> None:
    """V.2: the starting team alternates from part to part, overtime included."""
    rules = make_settings("final")
    position = _started(rules)
    starters = [position.to_move]
    for _ in range(4):  # periods 2, 3 and two overtime parts
        position, decisions = elapse(position, position.part.clock_ms + rules.break_ms, rules)
        starters.append(decisions[-1].get("team"))
        assert position.to_move == starters[-1]
    first = starters[0]
    other = "away" if first == "home" else "home"
    assert starters == [first, other, first, other, first]


def test_XVI_2_overtime_restart_with_three_field_stones() -> None:
    """XVI.2: the overtime part starts with three field stones and the goalie for each team."""
    rules = make_settings("ko")
    position, _ = elapse(_started(rules), 3 * 360_000 + 3 * 30_000, rules)
    assert position.part.kind == "overtime"
    assert sorted(len(position.team_stones(t)) for t in ("home", "away")) == [4, 4]


def test_A18_ends_swap_before_every_part() -> None:
    """A18, III.5: the ends swap at every part start, overtime parts included."""
    rules = make_settings("ko")
    position = _started(rules)
    ends = [position.home_end]
    for _ in range(3):
        position, _ = elapse(position, position.part.clock_ms + rules.break_ms, rules)
        ends.append(position.home_end)
    assert ends == [ends[0], -ends[0], ends[0], -ends[0]]


def test_part_index_orders_every_kind() -> None:
    """V.2 bookkeeping: part_index places periods, overtime parts, breaks and the shoot-out in sequence."""
    rules = make_settings("final")
    assert [part_index(p, rules) for p in schedule(rules)] == [0, 1, 2, 3, 4]
    assert part_index(Part("break", 3, 0), rules) == 2
    assert part_index(Part("shootout", 1, 0), rules) == 5


# --------------------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None)
@given(
    ruleset=st.sampled_from(["standard", "ko", "final", "quick"]),
    score=st.tuples(st.integers(0, 2), st.integers(0, 2)),
    steps=st.lists(st.integers(0, 400_000), min_size=1, max_size=25),
)
def test_D14_property_clock_never_negative_parts_in_order_match_ends_once(
    ruleset: str, score: tuple[int, int], steps: list[int]
) -> None:
    """D14, III: any elapse sequence keeps clocks >= 0, advances parts in order and ends the match once."""
    rules = make_settings(ruleset)
    position = replace(_started(rules), score=score)
    last = part_index(position.part, rules)
    ended = 0
    for ms in steps:
        position, decisions = elapse(position, ms, rules)
        assert position.part.clock_ms >= 0
        index = part_index(position.part, rules)
        assert index >= last
        last = index
        ended += _codes(decisions).count("MATCH_ENDED")
        ended_parts = [d.get("part") for d in decisions if d.code == "PART_ENDED"]
        assert len(ended_parts) == len({(p["kind"], p["number"]) for p in ended_parts})
    assert ended == (1 if position.result is not None else 0)
    position, decisions = elapse(position, 10**9, rules)
    assert ended + _codes(decisions).count("MATCH_ENDED") == (0 if position.part.kind == "shootout" else 1)

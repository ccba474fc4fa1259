"""What the end of a shot, of a part and of the match bring, and in which order a result tells it.

A result may hold several moments - a move, then what its end brings (the part's end, a break or the next
part's restart, the match's end; in a shoot-out the next shot). Within a moment the decisions follow the code
table of SCENARIOS.md; the moments follow each other in time.
"""

from __future__ import annotations

from shared.match import apply_action, settings_of, timeout
from shared.model import Flick, Position
from shared.referee import clock
from tests.referee.test_part2_engine import codes, shootout_start


def _missed(start: Position) -> Flick:
    """A shoot-out shooter's first flick that leaves the puck in the centre circle (XV.13a: the shot fails)."""
    state = start.penalty
    assert state is not None
    return Flick(state.team, state.shooter, 300 * start.attack_end(state.team), 0)


def test_XV_16_a_shots_end_comes_before_the_next_shots_award() -> None:
    """XV.16: the referee ends a shoot-out shot, then sets up the next - PENALTY_SHOT_ENDED, then PENALTY_SHOT of the
    other team."""
    started = shootout_start()
    first = started.penalty.team  # type: ignore[union-attr]
    missed = apply_action(started, _missed(started))
    assert [(d.code, d.get("team")) for d in missed.decisions] == [
        ("PENALTY_SHOT_ENDED", first), ("PENALTY_SHOT", "away" if first == "home" else "home")]


def test_XV_16_a_shot_ended_by_the_move_clock_or_its_15_s_comes_before_the_next_shot() -> None:
    """XV.16, XV.18, A35: a shot that fails on time (the shooter's move clock, or 15 s after its first flick) is
    told ended before the next shot is awarded."""
    started = shootout_start()
    timed_out = timeout(started, started.penalty.team)  # type: ignore[union-attr]
    order = codes(timed_out)
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
        order = codes(result)
        assert order[0] == "PENALTY_SHOT_ENDED" and order.count("PENALTY_SHOT") <= 1
        if "PENALTY_SHOT" in order:
            assert order.index("PENALTY_SHOT_ENDED") < order.index("PENALTY_SHOT")
        current = result.position

"""Replays of exported matches, which carry clock events beside the coaches' actions."""

from __future__ import annotations

from client.match.replay_model import build
from shared.match import legal_stones
from shared.model import Elapse, Flick, Forfeit, Position
from shared.referee import setup
from shared.rulesets import make_settings


def _start() -> Position:
    base = Position(ruleset="quick", settings=(("period_ms", 4000),), seed=3)
    started, _ = setup.start_match(base, make_settings("quick", {"period_ms": 4000}))
    return started


def test_replay_steps_through_a_part_end_and_a_forfeit():
    """An elapse that ends the part and a forfeit are steps with their rulings; a quiet elapse is not."""
    start = _start()
    team = start.to_move
    stone = legal_stones(start, team)[0]
    events = (
        Elapse(500),  # aiming time: no ruling, no step
        Flick(team, stone, 900.0, 0.0),
        Elapse(10_000),  # the siren: PART_ENDED / MATCH_ENDED
        Forfeit(team),  # refused: the match is already over
    )
    replay = build(start, events)
    codes = [[d.code for d in move.decisions] for move in replay.moves]
    assert len(replay.moves) == 2
    assert isinstance(replay.moves[0].action, Flick)
    assert replay.moves[1].trajectory is None
    assert "MATCH_ENDED" in codes[1]
    assert [index for index, _ in replay.refused] == [3]

"""The match so far for a late arrival: the running match's replay re-run up to the position the client joined at,
the moves seen live numbered on after it, and the spectator's screen with the whole record, scrolled back."""

from __future__ import annotations

import json
import os
import time

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import palette  # noqa: E402
from client.match import (  # noqa: E402
    match_history,
    samples,
)
from client.match.match_view import MatchView  # noqa: E402
from client.match.replay_model import build  # noqa: E402
from client.match.state import MatchState  # noqa: E402
from shared.notation import Scenario, scenario_to_json  # noqa: E402
from tests.client.test_move_list import _actions  # noqa: E402

NAMES = dict(samples.NAMES)


def _scenario(moves: int) -> tuple[str, list[object]]:
    """A real match's scenario text after ``moves`` sample flicks, and its actions."""
    start = samples.new_match()
    actions = list(_actions(start, moves))
    return json.dumps(scenario_to_json(Scenario(start, tuple(actions)))), actions


def test_the_history_stops_at_the_position_joined_at():
    """The replay ran on past the snapshot (moves played while it was read): only the moves up to the snapshot's
    position are history, each with the words the move list gives it live."""
    text, actions = _scenario(10)
    replay = build(samples.new_match(), tuple(actions))
    joined_at = replay.position_at(6)
    history = match_history.earlier_moves(text, joined_at, NAMES)
    assert history is not None and [e.number for e in history] == [1, 2, 3, 4, 5, 6]
    live = MatchState(names=dict(NAMES))
    for move in replay.moves[:6]:
        live.record_move(move.before.to_move, move.action, move.decisions)
    assert history == live.moves


def test_a_position_the_replay_never_reaches_gives_no_history():
    """A snapshot of another match (or of a state the replay does not hold) is not matched to any move."""
    text, _ = _scenario(4)
    _other, other_actions = _scenario(8)
    elsewhere = build(samples.new_match(), tuple(other_actions)).position_at(8)
    assert match_history.earlier_moves(text, elsewhere, NAMES) is None
    assert match_history.earlier_moves("{not json", elsewhere, NAMES) is None


def test_moves_seen_live_are_numbered_after_the_history():
    """merged keeps the history's numbers and numbers the live moves on from it."""
    text, actions = _scenario(5)
    replay = build(samples.new_match(), tuple(actions))
    history = match_history.earlier_moves(text, replay.position_at(3), NAMES)
    assert history is not None
    live = MatchState(names=dict(NAMES))
    for move in replay.moves[3:]:
        live.record_move(move.before.to_move, move.action, move.decisions)
    assert [e.number for e in live.moves] == [1, 2]
    merged = match_history.merged(history, live.moves)
    assert [e.number for e in merged] == [1, 2, 3, 4, 5]
    assert [e.what for e in merged[3:]] == [e.what for e in live.moves]


def test_rebuilding_a_long_match_takes_little_time():
    """Forty moves re-run in well under the time a spectator would notice (the figure is printed)."""
    text, actions = _scenario(40)
    joined_at = build(samples.new_match(), tuple(actions)).position_at(40)
    started = time.perf_counter()
    history = match_history.earlier_moves(text, joined_at, NAMES)
    took = time.perf_counter() - started
    print(f"rebuilt {len(history or [])} moves in {took * 1000:.0f} ms")
    assert history is not None and len(history) == 40 and took < 30.0


def test_a_spectator_arriving_mid_match_sees_the_match_so_far(shots):
    """A spectator who came after sixteen moves has all of them in the move list, and scrolls back to the first."""
    text, actions = _scenario(16)
    joined_at = build(samples.new_match(), tuple(actions)).position_at(16)
    state = MatchState(seat=None, names=dict(NAMES), room="KL7R", spectators=3)
    state.load(joined_at, 17)
    state.set_clocks(joined_at.part.clock_ms, True, 30_000, 0.0)
    state.moves[:] = match_history.earlier_moves(text, joined_at, NAMES) or []
    window = arcade.Window(1280, 760, "history", visible=False)
    try:
        view = MatchView(state, clock=lambda: 0.0)
        window.show_view(view)
        view.clear(color=palette.BACKGROUND)
        view.draw_at(0.0)
        view.moves_panel.scroll_by(10_000)
        view.clear(color=palette.BACKGROUND)
        view.draw_at(0.0)
        arcade.get_image(0, 0, window.width, window.height).convert("RGB").save(shots / "spectator-mid-match.png")
        rows = [view.moves_panel.texts.peek(f"row{i}") for i in range(60)]
        shown = [r.text for r in rows if r is not None and r.text]
        assert shown[0].startswith("1. ") and view.moves_panel.scroll > 0
        assert len(state.moves) == 16
    finally:
        window.close()

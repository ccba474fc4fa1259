"""Positions reached through the engine (shared.match) that several test modules start from: an advantage, a
penalty shot set up by ``take_penalty``, a shoot-out started by the clock, and flicks aimed through the puck.

Why a module of its own: the penalty-shot, part-end, activity and timeout tests all begin from these, and the
real engine (not hand-made state) must have built them."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from shared.match import apply_action, settings_of
from shared.model import Flick, Part, Position, Privilege, TakePenalty
from shared.outcome import ActionResult
from shared.referee import clock
from tests.referee.builders import position, stone


def advantage_position(**fields: Any) -> Position:
    """Home plays an advantage with two privileged moves left; away's a2 stands in its own half."""
    start = position(stone("h2", 100, 0), stone("a2", 300, 100), to_move="home",
                     privilege=Privilege("home", 2, 2), advantage="home")
    return replace(start, **fields) if fields else start


def shot_position(**fields: Any) -> Position:
    """Home's penalty shot, set up with the defaults by ``take_penalty``."""
    result = apply_action(advantage_position(**fields), TakePenalty("home"))
    assert result.accepted
    return result.position


def aimed(position: Position, stone_id: str, target: tuple[float, float], speed: float) -> Flick:
    """A flick of ``stone_id`` that strikes the puck towards ``target`` (contact on the line through both)."""
    shooter = position.stone(stone_id)
    assert shooter is not None
    px, py = position.puck.x, position.puck.y
    dx, dy = target[0] - px, target[1] - py
    norm = math.hypot(dx, dy)
    cx, cy = px - dx / norm * 24.5, py - dy / norm * 24.5
    ax, ay = cx - shooter.x, cy - shooter.y
    size = math.hypot(ax, ay)
    return Flick(shooter.team, stone_id, ax / size * speed, ay / size * speed)


def scoring_shot(start: Position) -> list[ActionResult]:
    """The two flicks of a penalty-shot goal: the puck out of the circle, then past the centred goalie."""
    state = start.penalty
    assert state is not None
    attack = -start.own_end(state.team)
    first = apply_action(start, Flick(state.team, state.shooter, 900 * attack, 0))
    assert first.accepted and first.position.penalty is not None
    second = apply_action(first.position, aimed(first.position, state.shooter, (540 * attack, 33), 1500))
    return [first, second]


def shootout_start() -> Position:
    """A ko match level after its overtime: the clock starts the shoot-out."""
    start = replace(position(stone("h2", -100, 0), stone("a2", 100, 0)), ruleset="ko",
                    part=Part("overtime", 1, 50), settings=(("effects_2_5d", False), ("break_ms", 0)))
    started, decisions = clock.elapse(start, 50, settings_of(start))
    assert [d.code for d in decisions] == ["PART_ENDED", "PENALTY_SHOT"]
    return started

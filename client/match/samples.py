"""Real match states for screenshots and view tests, made by playing moves through the engine (no arcade).

Why not hand-made data: a picture of the match or results view is only worth looking at if the position
in it could really happen, so these states come from ``shared.match`` — a new match through the
referee's setup, then flicks of the stone nearest the puck straight at it — exactly as a server would
play them, with their trajectories for playback.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from client.match.state import MatchState
from shared.match import apply_action, legal_stones, settings_of, timeout
from shared.model import Flick, Position, Team
from shared.protocol import MatchEnded, Score
from shared.protocol.trajectory import Trajectory
from shared.referee.setup import start_match
from shared.rulesets import make_settings

NAMES = {"home": "HC Kladno", "away": "Sokol Kraków"}
SEED = 7


def new_match(ruleset: str = "quick", seed: int = SEED, **overrides: object) -> Position:
    """The first position of a match, set up by the referee (as ``server.engine.new_match`` does)."""
    settings = make_settings(ruleset, overrides)
    changed = settings.to_overrides(make_settings(ruleset))
    base = Position(ruleset=ruleset, settings=tuple(sorted(changed.items())), seed=seed)
    return start_match(base, settings)[0]


def toward_puck(position: Position, team: Team, speed: float = 1900.0) -> Flick | None:
    """A legal flick: the selectable stone nearest the puck, straight at it."""
    best = None
    for stone_id in legal_stones(position, team):
        stone = position.stone(stone_id)
        if stone is None:
            continue
        distance = math.hypot(position.puck.x - stone.x, position.puck.y - stone.y)
        if distance > 0 and (best is None or distance < best[0]):
            best = (distance, stone)
    if best is None:
        return None
    distance, stone = best
    settings = settings_of(position)
    speed = min(max(speed, settings.flick_speed_min), settings.flick_speed_max)
    return Flick(team, stone.id, (position.puck.x - stone.x) / distance * speed,
                 (position.puck.y - stone.y) / distance * speed)


def play(position: Position, moves: int, state: MatchState | None = None, now: float = 0.0) -> Position:
    """Play up to ``moves`` flicks toward the puck (a team that cannot flick is timed out), feeding ``state``."""
    version = state.version if state is not None else 0
    for _ in range(moves):
        if position.result is not None:
            break
        mover = position.to_move
        flick = toward_puck(position, mover)
        result = apply_action(position, flick) if flick is not None else timeout(position, mover)
        if not result.accepted:
            result, flick = timeout(position, mover), None
        position = result.position
        version += 1
        if state is not None:
            record = Trajectory.from_record(result.record) if result.record is not None else None
            state.add_move(record, result.decisions, position, version, now - 3600.0,  # long over, also on the server
                           team=mover, action=flick)
            state.update(now + 3600.0)  # played back at once: the picture shows the position at rest
    return position


def match_state(moves: int = 6, seat: Team | None = "home") -> MatchState:
    """A match after ``moves`` real moves, seen from ``seat`` (None: a spectator)."""
    state = MatchState(seat=seat, names=dict(NAMES), room="KL7R", spectators=2)
    state.load(new_match(), 1)
    play(state.position, moves, state)  # type: ignore[arg-type]
    state.set_clocks(state.position.part.clock_ms, True, 30_000, 0.0)  # type: ignore[union-attr]
    return state


@dataclass(frozen=True, slots=True)
class Ended:
    """A finished match: the client state at its end and the MatchEnded the server would send."""

    state: MatchState
    ended: MatchEnded


def ended_match(seat: Team | None = "home", period_ms: int = 4000, limit: int = 200) -> Ended:
    """A whole (short) match played to its end through the engine, with its MatchEnded."""
    state = MatchState(seat=seat, names=dict(NAMES), room="KL7R")
    state.load(new_match(period_ms=period_ms), 1)
    position = play(state.position, limit, state)  # type: ignore[arg-type]
    if position.result is None:
        raise RuntimeError(f"the sample match did not end within {limit} moves")
    ended = MatchEnded("KL7R", "sample", Score(*position.score), position.result.winner, position.result.reason)
    return Ended(state, ended)

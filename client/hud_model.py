"""What the heads-up display says, as plain strings built from the client state (pure, no arcade).

Why separate from drawing: the HUD must render only what the position carries (score, part and clock,
move clock, turn, privilege, exclusions, power play, penalty shot, spectators) and tests check those
words without a screen. Fields the engine does not carry yet simply produce no line.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.state import MatchState
from shared.model import Position, Team

PART_NAMES = {"period": "Period", "break": "Break", "overtime": "Overtime", "shootout": "Shoot-out"}


@dataclass(frozen=True, slots=True)
class TeamPanel:
    """One side of the top bar: name, goals, whether it is to move, its move clock and its notes."""

    team: Team
    name: str
    score: int
    to_move: bool
    move_clock: str | None
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Hud:
    """The whole HUD: two team panels, the part and its clock, and the status line below."""

    home: TeamPanel
    away: TeamPanel
    part: str
    part_clock: str
    status: str
    spectators: str | None


def clock_text(ms: int) -> str:
    """``m:ss`` for a clock; the last ten seconds show tenths (``9.4``) as on a rink's scoreboard."""
    if ms < 10_000:
        return f"{ms // 1000}.{(ms % 1000) // 100}"
    seconds = (ms + 999) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def part_text(position: Position) -> str:
    """The current part in words (III): ``Period 2``, ``Overtime 1``, ``Shoot-out``."""
    name = PART_NAMES.get(position.part.kind, position.part.kind.capitalize())
    return name if position.part.kind == "shootout" else f"{name} {position.part.number}"


def power_play(position: Position, team: Team) -> bool:
    """XIII: the team plays without its goalie (no goalie of its own on the board)."""
    return not any(s.team == team and s.role == "goalie" for s in position.stones)


def team_notes(position: Position, team: Team) -> tuple[str, ...]:
    """The short facts under a team's name: privilege, exclusions, power play, penalty shot, advantage."""
    notes: list[str] = []
    privilege = position.privilege
    if privilege is not None and privilege.team == team:
        notes.append(f"Privilege: {privilege.remaining} of {privilege.total} moves left (IX)")
    excluded = position.excluded_of(team)
    if excluded:
        notes.append("Excluded: " + ", ".join(excluded))
    deferred = position.deferred_of(team)
    if deferred:
        notes.append(f"Deferred penalties: {deferred}")
    if position.stones and power_play(position, team):
        notes.append("Power play — no goalie (XIII)")
    if getattr(position, "penalty_shot", None) == team:
        notes.append("Penalty shot awarded (XV.1)")
    if getattr(position, "advantage", None) == team:
        notes.append("Advantage: play on or take the penalty (IX.3)")
    counting = getattr(position, "activity", None)
    if counting is not None and getattr(counting, "team", None) == team:
        notes.append(f"Counting {getattr(counting, 'count', '?')} of {getattr(counting, 'limit', '?')} (XI)")
    return tuple(notes)


def grace_text(state: MatchState, now: float) -> str | None:
    """Product decision 5: an away coach's time to come back before he forfeits, counted down
    ("Novák disconnected — 0:42 to come back"); None while both coaches are connected."""
    lines = []
    for team in ("home", "away"):
        clock = state.grace.get(team)
        if clock is None:
            continue
        name = state.team_name(team)  # type: ignore[arg-type]
        seconds = (clock.at(now) + 999) // 1000
        lines.append(f"{name} disconnected — {seconds // 60}:{seconds % 60:02d} to come back")
    return "   ·   ".join(lines) or None


def status_text(state: MatchState, now: float) -> str:
    """One line under the bar: what happens now, from this client's seat (an away coach's grace first)."""
    position = state.position
    if position is None:
        return "Waiting for the match…"
    away = grace_text(state, now) if position.result is None else None
    if away is not None:
        return away
    if position.result is not None:
        winner = position.result.winner
        return "Match over — a draw" if winner is None else f"Match over — {state.team_label(winner)} wins"
    if state.waiting_for_opponent() and state.against_bot:
        return "Waiting for the bot to join…"
    if state.waiting_for_opponent():
        return f"Waiting for an opponent — give them the room code {state.room}"
    if state.locked(now):
        return "The move is being played…"
    if position.part.kind == "break":
        return "Break — ends change (III.5)"
    mover = state.team_label(position.to_move)
    if state.seat is None:  # a spectator in a room, or a replay (no room)
        return f"{mover} to move" + (" (spectating)" if state.room else "")
    if position.to_move == state.seat:
        if position.restart:
            return "Your move — start with the centre forward (V.7)"
        return "Your move — press one of your stones and pull back to aim"
    return f"{mover} to move"


def build(state: MatchState, now: float) -> Hud | None:
    """The HUD for ``state`` at ``now``; None before the first position arrives."""
    position = state.position
    if position is None:
        return None
    # no move clock runs for a host whose opponent has not come yet (the match has not begun)
    waiting = state.waiting_for_opponent()
    move_ms = state.move_clock.at(now) if state.move_clock is not None and not waiting else None

    def panel(team: Team) -> TeamPanel:
        moving = position.to_move == team and position.result is None
        clock = clock_text(move_ms) if moving and move_ms else None
        name = state.team_label(team) + (" (you)" if state.seat == team else "")
        return TeamPanel(team, name, position.score_of(team), moving, clock,
                         team_notes(position, team))

    part_ms = state.part_clock.at(now) if state.part_clock is not None else position.part.clock_ms
    spectators = f"{state.spectators} watching" if state.spectators else None
    return Hud(panel("home"), panel("away"), part_text(position), clock_text(part_ms), status_text(state, now),
               spectators)

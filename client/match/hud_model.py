"""What the heads-up display says, as plain strings built from the client state (pure, no arcade).

Why separate from drawing: the HUD must render only what the position carries (score, part and clock,
move clock, turn, privilege, exclusions, power play, penalty shot, spectators) and the coaches' names with their
ratings, and tests check those words without a screen. Fields the engine does not carry yet simply produce no line.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.common.i18n import N_, _
from client.common.rating_text import rating_text
from client.match.state import MatchState
from shared.model import Position, Team

PART_NAMES = {"period": N_("Period {n}"), "break": N_("Break {n}"), "overtime": N_("Overtime {n}"),
              "shootout": N_("Shoot-out")}


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
    name = PART_NAMES.get(position.part.kind, position.part.kind.capitalize() + " {n}")
    return _(name).format(n=position.part.number)


def power_play(position: Position, team: Team) -> bool:
    """XIII: the team plays without its goalie (no goalie of its own on the board)."""
    return not any(s.team == team and s.role == "goalie" for s in position.stones)


def team_notes(position: Position, team: Team) -> tuple[str, ...]:
    """The short facts under a team's name: privilege, exclusions, power play, penalty shot, advantage."""
    notes: list[str] = []
    privilege = position.privilege
    if privilege is not None and privilege.team == team:
        notes.append(_("Privilege: {left} of {total} moves left (IX)").format(left=privilege.remaining,
                                                                               total=privilege.total))
    excluded = position.excluded_of(team)
    if excluded:
        notes.append(_("Excluded: {stones}").format(stones=", ".join(excluded)))
    deferred = position.deferred_of(team)
    if deferred:
        notes.append(_("Deferred penalties: {n}").format(n=deferred))
    if position.stones and power_play(position, team):
        notes.append(_("Power play — no goalie (XIII)"))
    if getattr(position, "penalty_shot", None) == team:
        notes.append(_("Penalty shot awarded (XV.1)"))
    if getattr(position, "advantage", None) == team:
        notes.append(_("Advantage: play on or take the penalty (IX.3)"))
    counting = getattr(position, "activity", None)
    if counting is not None and getattr(counting, "team", None) == team:
        notes.append(_("Counting {count} of {limit} (XI)").format(count=getattr(counting, "count", "?"),
                                                                   limit=getattr(counting, "limit", "?")))
    return tuple(notes)


def grace_text(state: MatchState, now: float) -> str | None:
    """Product decision 5: an away coach's time to come back before he forfeits, counted down
    ("Novák disconnected — 0:42 to come back"); None while both coaches are connected."""
    lines = []
    for team in ("home", "away"):
        clock = state.grace.get(team)
        if clock is None:
            continue
        name = state.team_name(team)
        seconds = (clock.at(now) + 999) // 1000
        lines.append(_("{name} disconnected — {left} to come back").format(
            name=name, left=f"{seconds // 60}:{seconds % 60:02d}"))
    return "   ·   ".join(lines) or None


def missing_text(state: MatchState, name: str, now: float) -> str:
    """A tournament's table whose other coach has not come: who is missing, and the no-show walkover counted down."""
    if state.no_show_until is None:
        return _("Waiting for {name} to come to the table").format(name=name)
    left = max(0, int((state.no_show_until - now) * 1000))
    if left == 0:
        return _("{name} did not come — the walkover is being recorded").format(name=name)
    return _("Waiting for {name} — if not here within {time}, you win by walkover").format(
        name=name, time=clock_text(left))


def status_text(state: MatchState, now: float) -> str:
    """One line under the bar: what happens now, from this client's seat (an away coach's grace first)."""
    position = state.position
    if position is None:
        return _("Waiting for the match…")
    away = grace_text(state, now) if position.result is None else None
    if away is not None:
        return away
    if position.result is not None:
        winner = position.result.winner
        return _("Match over — a draw") if winner is None else \
            _("Match over — {team} wins").format(team=state.team_label(winner))
    if state.waiting_for_opponent() and state.against_bot:
        return _("Waiting for the bot to join…")
    missing = state.missing_opponent()
    if missing is not None:
        return missing_text(state, missing, now)
    if state.waiting_for_opponent():
        return _("Waiting for an opponent — give them the room code {code}").format(code=state.room)
    if state.locked(now):
        return _("The move is being played…")
    if position.part.kind == "break":
        return _("Break — ends change (III.5)")
    mover = state.team_label(position.to_move)
    if state.seat is None:  # a spectator in a room, or a replay (no room)
        return _("{team} to move (spectating)").format(team=mover) if state.room else \
            _("{team} to move").format(team=mover)
    if position.to_move == state.seat:
        if position.restart:
            return _("Your move — start with the centre forward (V.7)")
        return _("Your move — press one of your stones and pull back to aim")
    return _("{team} to move").format(team=mover)


def build(state: MatchState, now: float) -> Hud | None:
    """The HUD for ``state`` at ``now``; None before the first position arrives."""
    position = state.position
    if position is None:
        return None
    # no move clock runs for a host whose opponent has not come yet (the match has not begun)
    waiting = state.waiting_for_opponent()
    move_ms = state.move_clock.at(now) if state.move_clock is not None and not waiting else None

    def panel(team: Team) -> TeamPanel:
        moving = position.to_move == team and position.result is None and not waiting
        clock = clock_text(move_ms) if moving and move_ms else None
        label = state.team_label(team)
        name = _("{name} (you)").format(name=label) if state.seat == team else label
        rated = state.ratings.get(team)
        if rated is not None:  # the coach's rating beside his name (SeatInfo.rating, "?" while provisional)
            name = f"{name}  {rating_text(*rated)}"
        return TeamPanel(team, name, position.score_of(team), moving, clock,
                         team_notes(position, team))

    part_ms = state.part_clock.at(now) if state.part_clock is not None else position.part.clock_ms
    spectators = _("{n} watching").format(n=state.spectators) if state.spectators else None
    return Hud(panel("home"), panel("away"), part_text(position), clock_text(part_ms), status_text(state, now),
               spectators)

"""Aiming a flick with the mouse, as pure functions: which stone is under the pointer, may it be played, and
what velocity a drag gives (no arcade).

Convention — the slingshot of flick games (Soccer Stars, the speed-capped slingshot of RULES.md §2 [S18]):
press on one of your stones and pull *back*; the stone will travel the opposite way of the pull, faster the
further you pull, up to ``settings.flick_speed_max`` at ``FULL_POWER_MM`` of pull. Release to flick; release
inside the dead zone (or press Escape) to cancel. Distances are in board millimetres, so the feel is the same
in any window size.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

from client.common.i18n import _, team_word
from shared.model import Flick, Position, Stone, Team, other
from shared.rulesets import Settings

FULL_POWER_MM = 150.0  # a pull this long gives the maximum speed
DEAD_ZONE_MM = 8.0  # a pull shorter than this cancels the flick (a click is not a move)
PICK_SLACK_MM = 4.0  # a press this close to a stone's edge still picks it
AIM_LINE_MM = 260.0  # the aim line's length at full power
WIRE_DECIMALS = 2  # a flick's components are sent rounded to 0.01 mm/s
# Rounding both components to 0.01 moves the speed by at most 0.005·√2 ≈ 0.0071 mm/s: aiming this far inside the
# allowed range keeps the rounded flick inside it (D3: the referee refuses a flick outside the range).
RANGE_MARGIN = 0.01


@dataclass(frozen=True, slots=True)
class Shot:
    """The flick a drag describes: velocity in mm/s, and power as a fraction of the allowed range."""

    vx: float
    vy: float
    power: float

    @property
    def speed(self) -> float:
        """The flick's speed in mm/s."""
        return math.hypot(self.vx, self.vy)


@dataclass(frozen=True, slots=True)
class Aim:
    """A drag in progress: the stone being aimed, its centre, and where the pointer is now (all mm)."""

    stone: str
    x: float
    y: float
    pointer_x: float
    pointer_y: float

    def to(self, pointer_x: float, pointer_y: float) -> Aim:
        """The same aim with the pointer moved."""
        return Aim(self.stone, self.x, self.y, pointer_x, pointer_y)


def shot_of(aim: Aim, speed_min: float, speed_max: float) -> Shot | None:
    """The flick of a slingshot drag (opposite to the pull), or None inside the dead zone."""
    dx, dy = aim.x - aim.pointer_x, aim.y - aim.pointer_y
    pull = math.hypot(dx, dy)
    if pull < DEAD_ZONE_MM:
        return None
    power = min(1.0, (pull - DEAD_ZONE_MM) / (FULL_POWER_MM - DEAD_ZONE_MM))
    speed = speed_min + power * (speed_max - speed_min)
    return Shot(dx / pull * speed, dy / pull * speed, power)


def sendable_speed(speed: float, settings: Settings) -> float:
    """``speed`` brought inside the referee's range (D3: ``flick_speed_min`` .. ``flick_speed_max``) with the
    margin that survives rounding the components for the wire."""
    low = settings.flick_speed_min + RANGE_MARGIN
    high = settings.flick_speed_max - RANGE_MARGIN
    if low > high:  # a range narrower than the margins: its middle
        return (settings.flick_speed_min + settings.flick_speed_max) / 2
    return min(max(speed, low), high)


def flick_of(aim: Aim, team: Team, settings: Settings) -> Flick | None:
    """The Flick action to send for this aim, or None when the drag is cancelled; its speed always lies in the
    ruleset's range (D3), even at full power after rounding."""
    shot = shot_of(aim, settings.flick_speed_min, settings.flick_speed_max)
    if shot is None:
        return None
    speed = shot.speed or 1.0
    scale = sendable_speed(shot.speed, settings) / speed
    vx, vy = round(shot.vx * scale, WIRE_DECIMALS) + 0.0, round(shot.vy * scale, WIRE_DECIMALS) + 0.0
    return Flick(team=team, stone=aim.stone, vx=vx, vy=vy)


def aim_line_end(aim: Aim, shot: Shot) -> tuple[float, float]:
    """Where the aim line ends: from the stone's centre in the flick's direction, longer with more power."""
    speed = shot.speed or 1.0
    length = AIM_LINE_MM * (0.15 + 0.85 * shot.power)
    return (aim.x + shot.vx / speed * length, aim.y + shot.vy / speed * length)


def stone_at(position: Position, x: float, y: float, radius: float) -> Stone | None:
    """The stone under the point (x, y) mm, the nearest one if two are close; None on empty board."""
    best: tuple[float, Stone] | None = None
    for stone in position.stones:
        d = math.hypot(stone.x - x, stone.y - y)
        if d <= radius + PICK_SLACK_MM and (best is None or d < best[0]):
            best = (d, stone)
    return best[1] if best else None


def refusal(position: Position, seat: Team | None, stone: Stone, legal: Collection[str]) -> str | None:
    """Why the coach in ``seat`` may not aim ``stone`` now (a sentence citing the rule), or None if he may."""
    if seat is None:
        return _("Spectators watch; they cannot play")
    if position.result is not None:
        return _("The match is over")
    if position.to_move != seat:
        if position.privilege is not None and position.privilege.team == other(seat):
            return _("{team} is playing a privilege of {n} moves (IX)").format(
                team=team_word(other(seat)).capitalize(), n=position.privilege.total)
        return _("It is {team}'s move (VI.1)").format(team=team_word(other(seat)))
    if stone.team != seat:
        return _("{stone} is not your stone").format(stone=stone.id)
    if stone.id in legal:
        return None
    if position.restart:
        return _("Only the centre forward may start (V.7)")
    if position.penalty_shot is not None:
        return _("Only the shooter plays in a penalty shot (XV.12)")
    if stone.flipped:
        return _("{stone} lies upside down until the referee turns it (VI.4)").format(stone=stone.id)
    return _("{stone} cannot be played now").format(stone=stone.id)

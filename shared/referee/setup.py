"""Restarts from the basic setup and the coaches' setups (IV, V.1-V.6, D13, X.4 at part starts).

Why a module of its own: every way play starts - the match, each part, after a goal (valid or not), after a
penalty shot, a special case - ends in the same restart: stones on their basic spots, the puck on the
centre spot, the starting team to move with its centre forward (V.7, judged by the engine). This module
decides who starts (V.2-V.6), builds the restart position from the spots of ``shared.formation`` and
accepts or refuses a coach's ``setup`` action (IV.1, IV.2, IV.5).

Setups (D13): the server places the goalie, the forwards and the default defender formation. Each coach
may then send one or more ``setup`` actions moving his defenders (and the 6th stone in power play)
anywhere legal, as long as the restart's first move has not been made (``restart`` is true). When a coach
sends nothing - the timeout default - the default formation stands: nothing needs doing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from shared import formation, geometry
from shared.draws import lot
from shared.model import TEAMS, Part, Position, Privilege, Puck, Setup, Stone, Team, other, team_of_id
from shared.outcome import Decision, RuleError
from shared.referee import overtime
from shared.rulesets import Settings

# --------------------------------------------------------------------------- who starts (V.2-V.6)


def is_opening(position: Position) -> bool:
    """The opening face-off: period 1, a restart, no move played yet (SCENARIOS.md ``first_starter``)."""
    part = position.part
    return part.kind == "period" and part.number == 1 and position.restart and position.move_number == 0


def first_period_starter(position: Position) -> Team:
    """V.2: the team that starts (or started) the 1st period - the one the position records; else, at the opening
    face-off, the team to move (it is starting it); else the lot drawn from the match seed.

    SCENARIOS.md gives an absent ``first_starter`` exactly this default, and ``shared.notation`` fills it in
    from here when it reads a position, so a position keeps the starter of its match once read: later parts
    alternate from it (``part_starter``) instead of drawing it again.
    """
    if position.first_starter is not None:
        return position.first_starter
    if is_opening(position):
        return position.to_move
    return lot(position.seed, "V.2 first period", *TEAMS)


def part_starter(position: Position, index: int) -> Team:
    """V.2: the team starting the play part at 0-based ``index``: the teams alternate across every part."""
    first = first_period_starter(position)
    return first if index % 2 == 0 else other(first)


def starter_after_goal(scoring_team: Team) -> Team:
    """V.3, XIV.7: after a goal (own goals included) the team that conceded it starts."""
    return other(scoring_team)


def starter_after_disallowed_goal(would_have_scored: Team) -> Team:
    """V.4, V.9, XII.9-XII.10: after a disallowed goal the team that scored it starts."""
    return would_have_scored


def starter_after_penalty_shot(awarded_against: Team) -> Team:
    """V.5, XV.14: after a penalty shot the team against which it was awarded starts."""
    return awarded_against


def starter_by_lot(position: Position, purpose: str) -> Team:
    """V.6: in a special case (an admin or referee restart) the starting team is drawn by a seeded lot.

    The lot is keyed by the match seed, ``purpose`` and the move number, so two special restarts of one
    match draw independently and a replay draws the same.
    """
    return lot(position.seed, f"V.6 {purpose} {position.move_number}", *TEAMS)


# --------------------------------------------------------------------------- restarts (D13, V.1, IV.1-IV.4)


def _slot_rank(stone_id: str) -> int:
    """Where a stone's conventional slot comes in ``KEEP_ORDER``, so each stone keeps its usual spot when it can."""
    number = int(stone_id[1:])
    slot = next(name for name, n in formation.SLOT_NUMBER.items() if n == number)
    return formation.KEEP_ORDER.index(slot) if slot in formation.KEEP_ORDER else -1


def _team_restart(position: Position, team: Team, lineup: tuple[str, ...]) -> tuple[Stone, ...]:
    """IV.1, IV.2, IV.4, XIII.3: ``team``'s stones of ``lineup`` on their basic spots at its own end.

    The team's goalie id in the lineup stands on the goalie spot; without it the team sets up in power play
    (up to six field stones, the sixth placed like the defenders). Field stones fill ``kept_slots`` - the
    centre forward always, so the starting team's centre-forward spot is never left empty (IV.4) - each
    keeping its conventional slot where it can.
    """
    goalie_id = formation.default_stone_id(team, "goalie")
    field_ids = sorted((i for i in lineup if i != goalie_id), key=_slot_rank)
    return formation.team_setup(
        team, position.own_end(team), len(field_ids), field_ids=field_ids, goalie=goalie_id in lineup
    )


def restart(
    position: Position,
    starting_team: Team,
    *,
    privilege: Privilege | None = None,
    returning: tuple[str, ...] = (),
    lineups: Mapping[Team, tuple[str, ...]] | None = None,
) -> Position:
    """D13, V.1, IV.1-IV.4: the position of a restart from the basic setup, ``starting_team`` to move.

    * IV.3: the puck on the centre spot; IV.1-IV.2: each team's stones on their basic spots at its end
      (``shared.formation``), flipped stones righted; excluded stones stay off (IV.4 leaves their slots
      empty, never the centre forward).
    * X.3: ``returning`` names excluded stones that come back with this restart; they leave the exclusion
      queue and take part in the setup.
    * ``lineups`` (power play at restarts, XIII.3 and XIII.5): the ids of each team's stones that set
      up; a lineup without the goalie sets up in power play. Default: the stones on the board.
    * The privilege is replaced by ``privilege``: one awarded by the move that caused the restart (e.g. a
      void goal of XII.9 with two moves for the opponent) survives; otherwise it is cleared.
    * ``restart`` is true until the first move (V.7, V.9 are judged by the engine from it).

    The spots come from ``shared.formation``.
    """
    home_queue, away_queue = position.excluded
    excluded = (tuple(i for i in home_queue if i not in returning), tuple(i for i in away_queue if i not in returning))
    stones: list[Stone] = []
    for team in TEAMS:
        base = lineups[team] if lineups is not None else tuple(s.id for s in position.team_stones(team))
        off = excluded[TEAMS.index(team)]
        joining = tuple(i for i in returning if team_of_id(i) == team and i not in base)
        stones.extend(_team_restart(position, team, tuple(i for i in base + joining if i not in off)))
    stones.sort(key=lambda s: (TEAMS.index(s.team), s.id))
    return replace(
        position,
        stones=tuple(stones),
        puck=Puck(*formation.PUCK_SPOT),  # IV.3
        excluded=excluded,
        restart=True,
        to_move=starting_team,
        privilege=privilege,
        last_mover=None,  # A48: a restart is nobody's move
        activity_offer=None,  # XI: a restart leaves no move to count
    )


def complete_lineup(team: Team, field_count: int) -> tuple[str, ...]:
    """X.4, XVI.2: a complete team at a part start - the goalie and ``field_count`` field stones."""
    slots = ("goalie", *formation.kept_slots(field_count))
    return tuple(formation.default_stone_id(team, slot) for slot in slots)


def begin_part(
    position: Position, part: Part, starting_team: Team, settings: Settings
) -> tuple[Position, tuple[Decision, ...]]:
    """X.4, XVI.2, V.1: a new part starts with complete teams, no penalties and a restart by ``starting_team``.

    X.4 cancels every exclusion, deferred penalty, privilege (IX.8), advantage, pending penalty shot and
    exclusion choice; the activity count and any power play end with the part (the teams are complete).
    A period sets up ``field_stones`` field stones, an overtime part ``overtime_field_stones`` (XVI.2). A
    shoot-out part only gets the cleared state: the clock then sets up its shots (``shots.begin_shootout``),
    so no restart is made and no RESTART is announced.
    """
    cleared = replace(
        position,
        part=part,
        excluded=((), ()),
        deferred=(0, 0),
        privilege=None,
        advantage=None,
        penalty_shot=None,
        exclusion_choice=None,
        restart=False,
        siren=False,
        penalty=None,
        activity=None,
        activity_offer=None,
        power_play=(),
        shootout=None,
        last_mover=None,
    )
    if part.kind == "shootout":
        return cleared, ()
    lineups = {team: complete_lineup(team, overtime.field_stones(part, settings)) for team in TEAMS}  # XVI.2
    started = restart(cleared, starting_team, lineups=lineups)
    return started, (Decision.of("RESTART", team=starting_team),)


def start_match(position: Position, settings: Settings) -> tuple[Position, tuple[Decision, ...]]:
    """V.2, III.1: the match starts - the lot names the 1st-period starter, period 1 starts from the basic setup."""
    first = first_period_starter(position)
    drawn = replace(position, first_starter=first)
    return begin_part(drawn, Part("period", 1, settings.period_ms), first, settings)


# --------------------------------------------------------------------------- the setup action (IV.1, IV.2, IV.5)


def _placement_problem(stone: Stone, x: float, y: float, settings: Settings, end: int) -> str | None:
    """IV.1: why a field stone cannot stand at (x, y) at all, in words, or None (the formation judges the rest)."""
    r = settings.stone_radius
    if not (math.isfinite(x) and math.isfinite(y)):
        return f"{stone.id}: ({x}, {y}) is not a place on the board"
    if stone.role == "goalie" or formation.forward_slot(x, y, end) is not None:
        return None
    where = f"{stone.id} at ({x:g}, {y:g})"
    if not geometry.disc_inside_board(x, y, r):
        return f"{where} lies off the board (IV.1)"
    if not geometry.in_defensive_third(x, y, r, end):
        return f"{where} is outside its defensive third and not on a face-off spot (IV.1)"
    if geometry.in_crease(x, y, r, end):
        return f"{where} touches the crease (IV.1: defenders may not even touch it)"
    return None


def apply_setup(position: Position, action: Setup, settings: Settings) -> Position | RuleError:
    """IV.1, IV.2, IV.5 (digital), D13: a coach moves his stones before the first move after a restart.

    Allowed only while ``restart`` is true (before the restart's first move) and never after the match.
    Each placement must name a stone of the coach's team on the board. The team's resulting formation must
    be a legal basic setup (``formation.setup_problems``): the goalie on its spot, field stones on face-off
    spots or legal defender spots (own defensive third, touching the blue line allowed, not touching the
    crease, on the board), at most two defenders (three in power play), the centre-forward spot taken by
    the starting team, no overlaps. Any illegal placement refuses the whole setup with INVALID_SETUP naming
    the stone and why (IV.5: the opponent never needs to protest). Sending nothing keeps the default
    formation (the timeout default).
    """
    if position.result is not None:
        return RuleError("MATCH_OVER", "the match is over: no more setups")
    if not position.restart:
        return RuleError("ACTION_NOT_ALLOWED", "a setup is only allowed before the first move after a restart (D13)")
    team, end = action.team, position.own_end(action.team)
    moved: dict[str, tuple[float, float]] = {}
    problems: list[str] = []
    for placement in action.stones:
        stone = position.stone(placement.id)
        if stone is None or stone.team != team:
            problems.append(f"{placement.id} is not a stone of {team} on the board")
        elif placement.id in moved:
            problems.append(f"{placement.id} is placed twice")
        else:
            moved[placement.id] = (placement.x, placement.y)
            problem = _placement_problem(stone, placement.x, placement.y, settings, end)
            if problem is not None:
                problems.append(problem)
    stones = tuple(s.at(*moved[s.id]) if s.id in moved else s for s in position.stones)
    if not problems:
        problems.extend(
            formation.setup_problems(
                stones, team, end, settings.stone_radius, starts=position.to_move == team,
                puck=(position.puck.x, position.puck.y), puck_radius=settings.puck_radius,
            )
        )
    if problems:
        return RuleError("INVALID_SETUP", "; ".join(problems))
    return replace(position, stones=stones)

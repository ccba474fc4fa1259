"""V.7, VI.1, IX (turn order), D12: who moves next and with which stones.

Why a module of its own: the turn state machine is small but used by every action - validating a flick,
passing the turn on a move-clock timeout (A35), and computing the next mover after a ruling.

The privilege encoding (D12): ``Position.privilege`` names the team that will play ``remaining`` of
its ``total`` consecutive moves. When ``to_move`` is that team, each of its moves uses one. When
``to_move`` is the other team, the privilege is *pending*: the other team first makes its single move
(the restart move after a goal or a void goal, A14, VII.3), then the privileged team starts. The
snapshot of the opponent's penalty-position stones (IX.3-IX.5, XV.1) is taken when it starts.
"""

from __future__ import annotations

from dataclasses import replace

from shared import geometry
from shared.model import Position, Privilege, Team, other
from shared.referee.penalty import penalty_positions
from shared.rulesets import Settings


def has_privilege(position: Position, team: Team) -> bool:
    """D12: ``team`` is now playing a privilege (its privileged moves are under way)."""
    privilege = position.privilege
    return privilege is not None and privilege.team == team and position.to_move == team


def centre_forward(position: Position, team: Team, stone_radius: float) -> str | None:
    """V.7: ``team``'s stone covering its centre-forward spot (G12, on its own half), if any."""
    spot = geometry.faceoff_spots(position.own_end(team))[0]
    for stone in position.team_stones(team):
        if stone.role == "field" and geometry.discs_overlap(stone.x, stone.y, stone_radius, spot[0], spot[1], 0.0):
            return stone.id
    return None


def legal_stones(position: Position, team: Team, settings: Settings) -> tuple[str, ...]:
    """D3, V.7: the stones ``team`` may flick now, in position order (none when it is not its turn).

    Every own stone on the board, except at a restart, where only the centre forward may start (V.7), and in
    a penalty shot, where only the shooter moves (XV.11-XV.12).
    """
    if position.result is not None or position.to_move != team:
        return ()
    shot = position.penalty
    if shot is not None:
        return (shot.shooter,) if team == shot.team and shot.moves < settings.penalty_moves else ()
    if position.penalty_shot is not None:
        return ()
    if position.restart:
        forward = centre_forward(position, team, settings.stone_radius)
        return (forward,) if forward is not None else ()
    return tuple(s.id for s in position.team_stones(team))


def with_snapshot(position: Position, settings: Settings) -> Position:
    """D12, IX.3-IX.5: a privilege that starts with the next move gets the snapshot of the opponent's
    stones in a penalty position now."""
    privilege = position.privilege
    if privilege is None or position.to_move != privilege.team or privilege.remaining != privilege.total:
        return position
    snapshot = penalty_positions(position, other(privilege.team), settings.stone_radius)
    return replace(position, privilege=replace(privilege, snapshot=snapshot))


def pass_turn(position: Position, mover: Team, settings: Settings) -> Position:
    """VI.1, D12: after ``mover``'s move with no new penalty, whose turn is it?

    A running privilege of the mover loses one move (the mover keeps the turn while moves remain);
    otherwise the turn alternates, and a pending privilege of the other team starts.
    """
    privilege = position.privilege
    if privilege is not None and privilege.team == mover and position.to_move == mover:
        if privilege.remaining > 1:
            return replace(position, privilege=replace(privilege, remaining=privilege.remaining - 1))
        return replace(position, privilege=None, to_move=other(mover), advantage=None)
    return with_snapshot(replace(position, to_move=other(mover)), settings)


def privilege_granted(position: Position, team: Team, moves: int) -> Privilege:
    """VIII.1, D12: the privilege ``team`` holds once granted ``moves`` consecutive moves; a privilege it already
    holds pending is not lost (the larger one stands, capped by VIII.7 through ``moves``)."""
    current = position.privilege
    if current is not None and current.team == team:
        moves = max(moves, current.remaining)
    return Privilege(team, moves, moves)


def cap_moves(moves: list[int], settings: Settings) -> int:
    """VIII.7, A51: penalties add up, but one move gives at most ``privilege_cap`` consecutive moves."""
    return min(settings.privilege_cap, sum(moves)) if moves else 0

"""The match so far, for a client that arrives in the middle of it: the move list's earlier entries rebuilt from the
server's replay of the running match (pure: no arcade, no sockets).

Why from the replay: a spectator who comes in late, or a coach whose client restarted, gets a Snapshot of the
position only, yet the record of what happened is the point of the move list (issue "the match record"). The
server already hands a running match's replay to its room (``GetReplay`` → ``Replay``, docs/PROTOCOL.md
"Replay"); the engine is pure, so re-running that scenario (``client.match.replay_model.build``) gives every move's
rulings exactly as the referee gave them. The replay may run past the position the client joined at (moves played
while it was being read), so the history stops at that position; the moves seen live follow it, numbered on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from client.match import move_list
from client.match.replay_model import build
from shared.model import Position
from shared.notation import NotationError, scenario_from_json


def earlier_moves(scenario: str, joined_at: Position, names: Mapping[str, str]) -> list[move_list.MoveEntry] | None:
    """The move list's entries up to ``joined_at`` (the position the client joined at), from the replay's
    ``scenario`` text; None when the scenario cannot be read or never reaches that position."""
    try:
        parsed = scenario_from_json(scenario)
        replay = build(parsed.position, tuple(parsed.actions))
    except (NotationError, ValueError, TypeError, KeyError):
        return None
    reached = [i for i in range(len(replay.moves) + 1) if replay.position_at(i) == joined_at]
    if not reached:
        return None
    entries = []
    for number, move in enumerate(replay.moves[: reached[-1]], start=1):
        team = move_list.team_of(move.action, move.before.to_move)
        entries.append(move_list.entry(number, team, move.action, move.decisions, names))
    return entries


def merged(history: Sequence[move_list.MoveEntry], live: Sequence[move_list.MoveEntry]) -> list[move_list.MoveEntry]:
    """The earlier moves, then the ones seen live numbered on after them."""
    return [*history, *(replace(e, number=len(history) + i) for i, e in enumerate(live, start=1))]

"""The referee state of part 2 (issue #4): penalty shots, the activity count, power play, the shoot-out.

Why a module of its own: these values must survive between moves, so they become fields of
``shared.model.Position`` when the engine wires part 2 in, and ``shared.notation`` writes every
position field generically. They are therefore frozen dataclasses with defaults whose fields are only
JSON-friendly values (ints, strs, bools, tuples, None), and they carry no behaviour: the rules that
change them live in the chapter modules (``penalty_shot``, ``activity``, ``power_play``, ``shootout``).

Intended Position fields (all defaulting to "nothing running"):

* ``penalty: PenaltyShotState | None`` - a penalty shot being set up or taken (XV.10-XV.14);
* ``activity: ActivityCount | None`` - the activity rule running (XI);
* ``power_play: tuple[PowerPlayState, ...]`` - the teams playing without their goalie (XIII), home first;
* ``shootout: ShootoutState | None`` - the deciding shoot-out (XV.16-XV.18).
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.model import Team


@dataclass(frozen=True, slots=True)
class PenaltyShotState:
    """XV.10-XV.14: a penalty shot of ``team`` (the shooting team) against ``against``.

    ``shooter`` is the shooting team's stone, ``goalie`` the defending goalie. ``moves`` counts the
    shooter's moves made so far (XV.12: at most ``penalty_moves``). ``after_siren`` is XV.10: the shot
    is completed even though the part's clock has run out, so the clock must let its moves begin.
    ``in_shootout`` marks a shot of the deciding shoot-out (XV.16), whose 15 s limit (XV.18) is kept in
    ``shot_ms``: the time since the first flick of this shot.
    """

    team: Team
    against: Team
    shooter: str
    goalie: str
    moves: int = 0
    after_siren: bool = False
    in_shootout: bool = False
    shot_ms: int = 0


@dataclass(frozen=True, slots=True)
class ActivityCount:
    """XI: team ``counting`` (C) counts the moves of ``obliged`` (O), who must clear the puck.

    ``limit`` is frozen when counting starts (XI.1-XI.2, A20). ``count`` is the number of O moves made
    since counting started, ``confirmed`` how many of them C has counted aloud (XI.3: C must count each
    one before its own next action; in the auto-count variant every move is counted for it).
    ``pushed`` holds C stones O pushed out of C's retreat zone (XI.8), which C's next move must bring
    back. ``last_stone`` is the stone of O's last counted move (XI.9), ``last_goalie`` whether that move
    was made with the goalie or was a goalie hand reset (A25).
    """

    counting: Team
    obliged: Team
    limit: int
    count: int = 0
    confirmed: int = 0
    pushed: tuple[str, ...] = ()
    last_stone: str | None = None
    last_goalie: bool = False


@dataclass(frozen=True, slots=True)
class PowerPlayState:
    """XIII: ``team`` plays without its goalie ``goalie``; ``substitute`` is the field stone that replaced it.

    ``candidates`` are the team's stones touching its crease at the rest of its last own move (XIII.4,
    A49); ``waited`` turns true once the opponent has moved since then, so one of them may be swapped
    back for the goalie at the start of the team's next turn.
    """

    team: Team
    goalie: str
    substitute: str
    candidates: tuple[str, ...] = ()
    waited: bool = False


@dataclass(frozen=True, slots=True)
class ShootoutState:
    """XV.16: the deciding shoot-out. ``starter`` won the lot; ``shots`` lists (team, scored) in order.

    ``series`` is the size of the first series (``shootout_series``: 3, or 5 in the final, III.4).
    """

    starter: Team
    series: int
    shots: tuple[tuple[Team, bool], ...] = ()

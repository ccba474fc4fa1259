"""Product decision 5 (house rule of online play): a coach forfeits the match - disconnected too long, or resigned.

Why in ``shared`` and not in the server: the forfeit is part of the match, so a match log (and the scenario
``sprtec export`` makes of it) must replay to the same result anywhere. The server decides *when* (the
disconnect grace ran out, the coach left); this module decides *what*: the team loses, the score stays as it
is (the rules of the original know no forfeit score), the match is over, and nothing else of the position
changes, so the position still shows where play stopped.
"""

from __future__ import annotations

from dataclasses import replace

from shared.model import ForfeitReason, Position, Result, Team, other
from shared.outcome import ActionResult, Decision

__all__ = ["FORFEIT_REASONS", "forfeit"]

# The MATCH_ENDED reasons of a forfeit (docs/SCENARIOS-EXTENSIONS.md, additions to SCENARIOS.md's codes).
FORFEIT_REASONS: tuple[ForfeitReason, ...] = ("FORFEIT_DISCONNECTED", "RESIGNED")


def forfeit(position: Position, team: Team, reason: ForfeitReason = "FORFEIT_DISCONNECTED") -> ActionResult:
    """``team`` loses the match for ``reason``: ``MATCH_ENDED`` with the other team as winner.

    A match already over is refused (``MATCH_OVER``) and changes nothing: the first ending stands.
    """
    if reason not in FORFEIT_REASONS:
        raise ValueError(f"unknown forfeit reason {reason!r}; expected one of {', '.join(FORFEIT_REASONS)}")
    if position.result is not None:
        return ActionResult.refused(position, "MATCH_OVER", f"the match is already over ({position.result.reason});"
                                    f" {team} cannot forfeit it")
    winner = other(team)
    ended = replace(position, result=Result(winner, reason))
    return ActionResult(True, ended, (Decision.of("MATCH_ENDED", winner=winner, reason=reason),))

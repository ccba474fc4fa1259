"""A finished match as a tournament result: the score, the shoot-out's winner, or a walkover.

Why a module of its own: the room says how a match ended (``MatchFinished``: the score, the winner, the reason)
and TOURNAMENT.md says how a result is written, and the two differ in three places. A knockout match decided by
a shoot-out keeps its drawn score and names the shoot-out's winner (the shoot-out's goals do not change the
score, XV.16); a forfeit - a coach away past the disconnect grace (product decision 5, III.7 after a break) or
one who resigned - is a walkover with the contract's walkover score, not the score at the moment he left; and a
drawn match outside a knockout stage stands as a draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from server.tournaments.log import Outcome
from shared.referee.forfeit import FORFEIT_REASONS
from shared.tournament.model import Side


@dataclass(frozen=True, kw_only=True, slots=True)
class StoredResult:
    """How a stored match ended: finished or not, the winner (None: a draw), the reason, the score."""

    finished: bool
    winner: str | None
    reason: str
    score: tuple[int, int]


def outcome_of(*, score: tuple[int, int], winner: str | None, reason: str, knockout: bool) -> Outcome:
    """The tournament result of a match that ended with ``score``, ``winner`` (None: a draw) and ``reason``."""
    if reason in FORFEIT_REASONS and winner is not None:
        return Outcome(walkover=cast(Side, winner))
    drawn = score[0] == score[1]
    if drawn and knockout and winner is not None:
        return Outcome(score=score, shootout=cast(Side, winner))
    return Outcome(score=score)


def no_show_winner(present: tuple[str, ...]) -> Side:
    """Who wins a table nobody played at: the coach who came; when neither came, home - the better placed or
    seeded, as the contract gives a knockout match both of whose players are out (TOURNAMENT-NOTES 18)."""
    if present == ("away",):
        return "away"
    return "home"

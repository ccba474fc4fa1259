"""The order of a result's decisions: SCENARIOS.md lists them "in the order the referee takes them".

Why a module of its own: one result may tell several moments one after the other - a move; then what its end
brings (the siren, the end of the part, a break or the next part's restart, the end of the match); in a shoot-out
the next shot. Within one moment the referee takes its rulings in the order of the contract's code table (a foul
before its exclusion before the privilege it gives). The moments themselves follow each other in time: the next
shot's ``PENALTY_SHOT`` comes after the last shot's ``PENALTY_SHOT_ENDED``, the next part's ``RESTART`` after the
``PART_ENDED`` of the part before. Every module that puts a result together orders it here, so the rule is
written once.
"""

from __future__ import annotations

from collections.abc import Iterable

from shared.outcome import Decision

# SCENARIOS.md "Decision codes": the order of the codes within one moment.
DECISION_ORDER: tuple[str, ...] = (
    "GOAL", "GOAL_DISALLOWED", "FOUL", "GOALIE_OUTSIDE_THIRD", "ACTIVITY_FAILED", "EXCLUSION", "RETURN",
    "PRIVILEGE", "PRIVILEGE_CANCELLED", "PENALTY_SHOT", "ADVANTAGE", "PENALTY_SHOT_ENDED", "ACTIVITY_COUNT",
    "ACTIVITY_ENDED", "POWER_PLAY", "RESPOT", "FLIP", "RESTART", "PART_ENDED", "MATCH_ENDED",
)


def in_contract_order(decisions: Iterable[Decision]) -> tuple[Decision, ...]:
    """One moment's decisions sorted by the code table's order; one code keeps its own order (stable)."""
    return tuple(sorted(decisions, key=lambda d: DECISION_ORDER.index(d.code)))


def in_moments(*moments: Iterable[Decision]) -> tuple[Decision, ...]:
    """The decisions of consecutive moments: each moment in the code table's order, the moments in time order."""
    return tuple(d for moment in moments for d in in_contract_order(moment))

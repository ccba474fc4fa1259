"""The standings table: typed rows, shared ranks, and the ``sprtec-standings/1`` JSON of TOURNAMENT.md.

Why apart from the systems: every system ends the same way. It orders the players into groups that are
equal on every criterion ("tiers", best first); a group of several shares a rank, written as the first
place of the group with ``shared`` on each (two players tied for 5th are both 5, the next is 7). The
rows then carry the counts, the system's tie-break values and the discipline ledger.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shared.tournament.discipline import Ledger
from shared.tournament.model import STANDINGS_FORMAT
from shared.tournament.tally import Line


@dataclass(frozen=True, kw_only=True, slots=True)
class Row:
    """One player's line of the standings, fields in the contract's order."""

    rank: int
    shared: bool
    player: str
    points: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    goals_for: int
    goals_against: int
    tiebreaks: tuple[tuple[str, int], ...]
    yellow: int
    red: int
    suspended_next: bool

    def tiebreak(self, name: str) -> int:
        """One tie-break value by its contract name."""
        return dict(self.tiebreaks)[name]


@dataclass(frozen=True, kw_only=True, slots=True)
class Standings:
    """The standings of one stage after one round."""

    stage: int
    after_round: int
    complete: bool
    rows: tuple[Row, ...]

    def places(self) -> tuple[str, ...]:
        """The players from the top down (shared ranks in the order the seed gave them)."""
        return tuple(row.player for row in self.rows)


def build_rows(
    tiers: Sequence[Sequence[str]],
    lines: Mapping[str, Line],
    tiebreaks: Mapping[str, tuple[tuple[str, int], ...]],
    ledger: Ledger,
) -> tuple[Row, ...]:
    """Rows from tiers (groups equal on every criterion, best first), counts and tie-break values."""
    rows: list[Row] = []
    for tier in tiers:
        rank = len(rows) + 1
        for player in tier:
            line = lines[player]
            record = ledger.of(player)
            rows.append(
                Row(
                    rank=rank,
                    shared=len(tier) > 1,
                    player=player,
                    points=line.points,
                    played=line.played,
                    wins=line.wins,
                    draws=line.draws,
                    losses=line.losses,
                    byes=line.byes,
                    goals_for=line.goals_for,
                    goals_against=line.goals_against,
                    tiebreaks=tiebreaks[player],
                    yellow=record.yellow,
                    red=record.red,
                    suspended_next=record.pending > 0,
                )
            )
    return tuple(rows)


def tiers_of(ordered: Sequence[str], criteria: Mapping[str, tuple[int, ...]]) -> list[list[str]]:
    """Split players already in order into runs that are equal on ``criteria``."""
    tiers: list[list[str]] = []
    for player in ordered:
        if tiers and criteria[tiers[-1][-1]] == criteria[player]:
            tiers[-1].append(player)
        else:
            tiers.append([player])
    return tiers


def to_json(standings: Standings) -> dict[str, Any]:
    """The ``sprtec-standings/1`` object."""
    return {
        "format": STANDINGS_FORMAT,
        "stage": standings.stage,
        "after_round": standings.after_round,
        "complete": standings.complete,
        "standings": [_row(row) for row in standings.rows],
    }


def _row(row: Row) -> dict[str, Any]:
    """One row, keys in the contract's order."""
    return {
        "rank": row.rank,
        "shared": row.shared,
        "player": row.player,
        "points": row.points,
        "played": row.played,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
        "byes": row.byes,
        "goals_for": row.goals_for,
        "goals_against": row.goals_against,
        "tiebreaks": dict(row.tiebreaks),
        "yellow": row.yellow,
        "red": row.red,
        "suspended_next": row.suspended_next,
    }

"""Where a tournament stands: per stage reached, its field, schedule, checked rounds and discipline snapshots.

Why a value of its own: standings, pairing and the tournament's events all need the same facts derived
from the file (who is in a stage, what the Berger table or the bracket schedules, who cannot play a round
and why), and ``course`` derives them once, in order, while checking the file. This module only holds the
types, so that the standings (which ``course`` needs to seed the next stage) can read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from shared.tournament.berger import BergerRound
from shared.tournament.bracket import BracketRound
from shared.tournament.discipline import Ledger
from shared.tournament.model import Bye, Match, Round, Stage, Tournament

Reason = Literal["absent", "suspended", "withdrawn", "disqualified"]
REASONS: tuple[Reason, ...] = ("absent", "suspended", "withdrawn", "disqualified")


@dataclass(frozen=True, kw_only=True, slots=True)
class StageCourse:
    """One stage reached by the tournament.

    ``field`` is the stage's players: for a knockout in seed order (best first), otherwise in the order of
    the file's ``players``. ``rounds`` are the stage's listed rounds, all checked, the last possibly
    unfinished; the first ``finished`` of them are finished. ``unavailable[r - 1]`` says who cannot play
    round r and why, for every round listed and the next one to pair. ``ledgers[k]`` is the discipline
    ledger after round k (``ledgers[0]``: as the stage began). ``brackets[r - 1]`` is a knockout's round r
    as scheduled, for the rounds known; ``berger`` a round robin's whole table (numbers are positions in
    ``field``, from 1).
    """

    index: int
    stage: Stage
    field: tuple[str, ...]
    total: int
    rounds: tuple[Round, ...]
    finished: int
    unavailable: tuple[Mapping[str, Reason], ...]
    ledgers: tuple[Ledger, ...]
    brackets: tuple[BracketRound, ...] = ()
    berger: tuple[BergerRound, ...] = ()

    @property
    def complete(self) -> bool:
        """Every round of the stage is finished."""
        return self.finished >= self.total

    @property
    def last_listed(self) -> int:
        """The number of the last round with an entry in ``results`` (0 before the first)."""
        return len(self.rounds)

    def berger_round(self, number: int) -> tuple[tuple[tuple[str, str], ...], str | None]:
        """A round robin's round ``number`` as (home, away) ids in table order, and the bye's id."""
        table = self.berger[number - 1]
        pairs = tuple((self.field[h - 1], self.field[a - 1]) for h, a in table.pairs)
        return pairs, None if table.bye is None else self.field[table.bye - 1]

    def matches_until(self, after_round: int) -> tuple[tuple[int, Match | Bye], ...]:
        """Every entry of rounds 1..after_round with its round number."""
        return tuple((r.round, e) for r in self.rounds[:after_round] for e in r.matches)


@dataclass(frozen=True, kw_only=True, slots=True)
class Course:
    """The checked tournament and the stages it has reached, in order."""

    tournament: Tournament
    stages: tuple[StageCourse, ...]

    @property
    def complete(self) -> bool:
        """The last stage is reached and finished, or the organiser ended the tournament."""
        if self.tournament.ended is not None:
            return True
        return len(self.stages) == len(self.tournament.stages) and self.stages[-1].complete

    @property
    def current(self) -> StageCourse:
        """The last stage reached."""
        return self.stages[-1]

    @property
    def round_to_start(self) -> tuple[int, int] | None:
        """The (stage, round) the next StartRound pairs: the current stage's next round, else the next stage's
        first; None once the last stage's last round is listed, or the organiser ended the tournament."""
        if self.tournament.ended is not None:
            return None
        current = self.current
        if current.last_listed < current.total:
            return current.index, current.last_listed + 1
        if current.index + 1 < len(self.tournament.stages):
            return current.index + 1, 1
        return None

"""The tournament's events: the small set of pure operations that change a tournament value.

Why events: the server will run a live tournament as an event log folded by this engine, the way a match is
a fold of its moves, so that the log is the tournament's history and replaying it rebuilds the tournament.
Each event is something the file already expresses (TOURNAMENT.md): a late entry, an absence, a withdrawal,
a result (a score, a walkover, a shoot-out's winner, a bye), a card, the next round's pairing applied
(its matches added as a round without results), and the organiser's early end (``ended``). ``apply``
returns a new value or raises the contract's ``TournamentError``; the old value is never changed. Every new
value is checked as a whole file would be (read back through ``reading`` and followed by ``course``), so no
sequence of events can build a tournament that ``sprtec tournament`` would refuse.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from shared.tournament.course import follow
from shared.tournament.errors import TournamentError
from shared.tournament.model import (
    Absence,
    Bye,
    Card,
    CardKind,
    Ended,
    Match,
    Player,
    Round,
    Side,
    Tournament,
    Withdrawal,
)
from shared.tournament.pairing import Pairing
from shared.tournament.reading import read_tournament
from shared.tournament.writing import to_json


@dataclass(frozen=True, kw_only=True, slots=True)
class AddPlayer:
    """A late entry: the player joins the current stage from its next round (earlier rounds are unplayed)."""

    player: Player


@dataclass(frozen=True, kw_only=True, slots=True)
class MarkAbsent:
    """The player will not come to this round (Swiss: not paired; round robin and knockout: walkover)."""

    stage: int = 0
    round: int
    player: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Withdraw:
    """The player leaves the tournament after ``after_round`` of ``stage``; his results stay."""

    stage: int = 0
    player: str
    after_round: int


@dataclass(frozen=True, kw_only=True, slots=True)
class RecordResult:
    """The result of a listed match: ``score`` (and ``shootout`` for a drawn knockout match) or ``walkover``."""

    stage: int = 0
    round: int
    home: str
    away: str
    score: tuple[int, int] | None = None
    walkover: Side | None = None
    shootout: Side | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class RecordBye:
    """A bye added to a listed round."""

    stage: int = 0
    round: int
    player: str


@dataclass(frozen=True, kw_only=True, slots=True)
class GiveCard:
    """A card for the player's conduct in his match of this round."""

    stage: int = 0
    round: int
    player: str
    card: CardKind
    reason: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class ApplyPairing:
    """The next round's pairing becomes a round of the file: its matches without results (walkovers already
    set stay), its byes."""

    pairing: Pairing


@dataclass(frozen=True, kw_only=True, slots=True)
class End:
    """The organiser ends the tournament after round ``after_round`` of stage ``after_stage``: it is complete."""

    after_stage: int = 0
    after_round: int
    reason: str = ""


Event = AddPlayer | MarkAbsent | Withdraw | RecordResult | RecordBye | GiveCard | ApplyPairing | End


def apply(t: Tournament, event: Event) -> Tournament:
    """The tournament after ``event``; raises ``TournamentError`` when the contract refuses it."""
    if isinstance(event, AddPlayer):
        changed = replace(t, players=(*t.players, event.player))
    elif isinstance(event, MarkAbsent):
        changed = replace(t, absent=(*t.absent, Absence(stage=event.stage, round=event.round, player=event.player)))
    elif isinstance(event, Withdraw):
        withdrawal = Withdrawal(stage=event.stage, player=event.player, after_round=event.after_round)
        changed = replace(t, withdrawn=(*t.withdrawn, withdrawal))
    elif isinstance(event, RecordResult):
        changed = _record_result(t, event)
    elif isinstance(event, RecordBye):
        r = _round(t, event.stage, event.round)
        changed = _replace_round(t, replace(r, matches=(*r.matches, Bye(player=event.player))))
    elif isinstance(event, GiveCard):
        card = Card(stage=event.stage, round=event.round, player=event.player, card=event.card, reason=event.reason)
        changed = replace(t, discipline=(*t.discipline, card))
    elif isinstance(event, End):
        changed = replace(t, ended=Ended(after_stage=event.after_stage, after_round=event.after_round,
                                         reason=event.reason))
    else:
        changed = _apply_pairing(t, event.pairing)
    return _checked(changed)


def fold(t: Tournament, events: Iterable[Event]) -> Tournament:
    """The tournament after every event in order."""
    for event in events:
        t = apply(t, event)
    return t


def _record_result(t: Tournament, event: RecordResult) -> Tournament:
    """Set the result of one listed match (a result already there is corrected)."""
    r = _round(t, event.stage, event.round)
    for index, entry in enumerate(r.matches):
        if isinstance(entry, Match) and (entry.home, entry.away) == (event.home, event.away):
            result = Match(home=entry.home, away=entry.away, score=event.score, walkover=event.walkover,
                           shootout=event.shootout)
            matches = (*r.matches[:index], result, *r.matches[index + 1:])
            return _replace_round(t, replace(r, matches=matches))
    raise TournamentError(
        "BAD_RESULT", f"stage {event.stage} round {event.round} has no match {event.home} v {event.away}"
    )


def _apply_pairing(t: Tournament, pairing: Pairing) -> Tournament:
    """Add the pairing's round (its matches in table order, then its byes)."""
    if any((r.stage, r.round) == (pairing.stage, pairing.round) for r in t.results):
        raise TournamentError("ROUND_ORDER", f"stage {pairing.stage} round {pairing.round} is already paired")
    matches: list[Match | Bye] = [Match(home=m.home, away=m.away, walkover=m.walkover) for m in pairing.matches]
    matches += [Bye(player=p) for p in pairing.byes]
    added = Round(stage=pairing.stage, round=pairing.round, matches=tuple(matches))
    return replace(t, results=(*t.results, added))


def _round(t: Tournament, stage: int, number: int) -> Round:
    """A listed round (``BAD_RESULT`` when it is not paired yet)."""
    for r in t.results:
        if (r.stage, r.round) == (stage, number):
            return r
    raise TournamentError("BAD_RESULT", f"stage {stage} round {number} has not been paired")


def _replace_round(t: Tournament, changed: Round) -> Tournament:
    """The tournament with one round replaced."""
    rounds = tuple(changed if (r.stage, r.round) == (changed.stage, changed.round) else r for r in t.results)
    return replace(t, results=rounds)


def _checked(t: Tournament) -> Tournament:
    """The value as the file it writes reads back (normalised), once the whole tournament checks out."""
    normal = read_tournament(to_json(t))
    follow(normal)
    return normal

"""The tournament's events: the small set of pure operations that change a tournament value.

Why events: the server will run a live tournament as an event log folded by this engine, the way a match is
a fold of its moves, so that the log is the tournament's history and replaying it rebuilds the tournament.
Each event is something the file already expresses (TOURNAMENT.md): a late entry, an absence, a withdrawal,
a result (a score, a walkover, a shoot-out's winner, a bye), a card, the next round's pairing applied
(its matches added as a round without results), the last round taken back off the file, and the organiser's early
end (``ended``). ``apply``
returns a new value or raises the contract's ``TournamentError``; the old value is never changed. Every new
value is the one the whole file would be read back as (``reading``, then ``course``), with the same refusals, so
no sequence of events can build a tournament that ``sprtec tournament`` would refuse.

Why ``advance`` checks only what an event changes: a server applies an event per act of a running tournament, and
reading the whole file back and following it again per event cost a 200-player round milliseconds per absence. An
event changes one item of the file, so only that item is read (``reading.read_added``), put where the reader would
put it (absences, withdrawals and cards are kept sorted), and checked where the course depends on it: a pairing is
the stage's next round and is checked as that round alone, a result in the round being played re-checks that round,
an absence from the next round changes only who cannot play it; anything that can reach rounds already checked (a
correction of an earlier round, a late entry, a withdrawal, an early end, a round finished by it) follows the
tournament again from the stage it changes (``course.follow_from``). The result always equals following the changed
file whole (tests/tournament/test_events_incremental.py).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, replace

from shared.tournament import reading
from shared.tournament.course import check_cards_have_rounds, check_round, follow, follow_from, next_round_reasons
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
from shared.tournament.progress import Course, StageCourse
from shared.tournament.writing import (
    absence_to_json,
    card_to_json,
    ended_to_json,
    entry_to_json,
    player_to_json,
    round_to_json,
    withdrawal_to_json,
)


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


@dataclass(frozen=True, kw_only=True, slots=True)
class TakeBack:
    """The last listed round is taken off the file (a round started by mistake, or one the organiser did not let
    finish before he ended the tournament): its matches and byes, its cards, and the absences ``absent`` marked to
    pair it go; the round can be paired again."""

    stage: int = 0
    round: int
    absent: tuple[str, ...] = ()


Event = AddPlayer | MarkAbsent | Withdraw | RecordResult | RecordBye | GiveCard | ApplyPairing | End | TakeBack


def apply(t: Tournament, event: Event) -> Tournament:
    """The tournament after ``event``; raises ``TournamentError`` when the contract refuses it."""
    return advance(follow(t), event).tournament


def fold(t: Tournament, events: Iterable[Event]) -> Tournament:
    """The tournament after every event in order."""
    course = follow(t)
    for event in events:
        course = advance(course, event)
    return course.tournament


def advance(course: Course, event: Event) -> Course:
    """The course of the tournament after ``event`` (see the module docstring): equal to following the changed file
    whole, refusing what that refuses with the same code and message."""
    if isinstance(event, MarkAbsent):
        return _mark_absent(course, event)
    if isinstance(event, ApplyPairing):
        return _apply_pairing(course, event.pairing)
    if isinstance(event, RecordResult):
        return _record_result(course, event)
    if isinstance(event, GiveCard):
        return _give_card(course, event)
    t = course.tournament
    if isinstance(event, AddPlayer):
        player = reading.read_added(t, "players", player_to_json(event.player))
        return follow(replace(t, players=(*t.players, player)))  # stage 0's field, hence everything, may change
    if isinstance(event, Withdraw):
        withdrawal = Withdrawal(stage=event.stage, player=event.player, after_round=event.after_round)
        withdrawal = reading.read_added(t, "withdrawn", withdrawal_to_json(withdrawal))
        if any(w.player == withdrawal.player for w in t.withdrawn):
            raise TournamentError("BAD_FORMAT", f"withdrawn: {withdrawal.player} is withdrawn twice")
        withdrawn = sorted((*t.withdrawn, withdrawal), key=lambda w: w.player)
        return follow_from(course, replace(t, withdrawn=tuple(withdrawn)), withdrawal.stage)
    if isinstance(event, RecordBye):
        r = _round(t, event.stage, event.round)
        bye = reading.read_added_entry(t, r, len(r.matches), entry_to_json(Bye(player=event.player)))
        return follow_from(course, _replace_round(t, replace(r, matches=(*r.matches, bye))), r.stage)
    if isinstance(event, TakeBack):
        return _take_back(course, event)
    end = Ended(after_stage=event.after_stage, after_round=event.after_round, reason=event.reason)
    return follow(replace(t, ended=reading.read_ended(t, ended_to_json(end))))


def _take_back(course: Course, event: TakeBack) -> Course:
    """Remove the last listed round (``ROUND_ORDER`` for any other: a later round was paired on its results)."""
    t = course.tournament
    r = _round(t, event.stage, event.round)
    if t.results[-1] is not r:
        raise TournamentError("ROUND_ORDER", f"stage {r.stage} round {r.round} is not the last round paired")
    gone = set(event.absent)
    changed = replace(
        t,
        results=t.results[:-1],
        absent=tuple(a for a in t.absent if (a.stage, a.round) != (r.stage, r.round) or a.player not in gone),
        discipline=tuple(c for c in t.discipline if (c.stage, c.round) != (r.stage, r.round)),
    )
    return follow_from(course, changed, r.stage)


def _mark_absent(course: Course, event: MarkAbsent) -> Course:
    """An absence: only who cannot play the next round changes, unless it names a round already listed."""
    t = course.tournament
    absence = Absence(stage=event.stage, round=event.round, player=event.player)
    absence = reading.read_added(t, "absent", absence_to_json(absence))
    if absence in t.absent:
        return course
    keys = [(a.stage, a.round, a.player) for a in t.absent]
    at = bisect_right(keys, (absence.stage, absence.round, absence.player))
    changed = replace(t, absent=(*t.absent[:at], absence, *t.absent[at:]))
    if absence.stage >= len(course.stages):
        return replace(course, tournament=changed)  # a stage not reached: nothing known of it changes
    sc = course.stages[absence.stage]
    if absence.round <= sc.last_listed:
        return follow_from(course, changed, absence.stage)
    if absence.round != len(sc.unavailable):
        return replace(course, tournament=changed)  # a round after the next one: not worked out yet
    stage = replace(sc, unavailable=(*sc.unavailable[:-1], next_round_reasons(changed, sc)))
    return _with_stage(course, changed, stage)


def _apply_pairing(course: Course, pairing: Pairing) -> Course:
    """Add the pairing's round (its matches in table order, then its byes); the stage's next round is checked as
    that round alone."""
    t = course.tournament
    if any((r.stage, r.round) == (pairing.stage, pairing.round) for r in t.results):
        raise TournamentError("ROUND_ORDER", f"stage {pairing.stage} round {pairing.round} is already paired")
    matches: list[Match | Bye] = [Match(home=m.home, away=m.away, walkover=m.walkover) for m in pairing.matches]
    matches += [Bye(player=p) for p in pairing.byes]
    added = reading.read_added(t, "results", round_to_json(Round(stage=pairing.stage, round=pairing.round,
                                                                  matches=tuple(matches))))
    results = sorted((*t.results, added), key=lambda r: (r.stage, r.round))
    changed = replace(t, results=tuple(results))
    sc = course.current
    if (t.ended is not None or added.stage != sc.index or added.round != sc.last_listed + 1
            or sc.finished != sc.last_listed or added.round > sc.total or results[-1] is not added):
        return follow_from(course, changed, added.stage)  # not the stage's next round: follow says why
    if check_round(changed, sc, added):
        return follow_from(course, changed, added.stage)  # finished at once (all walkovers): the course moves on
    return _with_stage(course, changed, replace(sc, rounds=(*sc.rounds, added)))


def _record_result(course: Course, event: RecordResult) -> Course:
    """Set the result of one listed match (a result already there is corrected); a result in the round being played
    re-checks that round."""
    t = course.tournament
    r = _round(t, event.stage, event.round)
    for index, entry in enumerate(r.matches):
        if isinstance(entry, Match) and (entry.home, entry.away) == (event.home, event.away):
            given = Match(home=entry.home, away=entry.away, score=event.score, walkover=event.walkover,
                          shootout=event.shootout)
            result = reading.read_added_entry(t, r, index, entry_to_json(given))
            played = replace(r, matches=(*r.matches[:index], result, *r.matches[index + 1:]))
            changed = _replace_round(t, played)
            sc = _playing(course, r)
            if sc is None or check_round(changed, sc, played):
                return follow_from(course, changed, r.stage)
            return _with_stage(course, changed, replace(sc, rounds=(*sc.rounds[:-1], played)))
    raise TournamentError(
        "BAD_RESULT", f"stage {event.stage} round {event.round} has no match {event.home} v {event.away}"
    )


def _give_card(course: Course, event: GiveCard) -> Course:
    """A card: in the round being played it only has to belong to a player of that round (it counts once the round
    is finished); in an earlier round it changes the ledger from there on."""
    t = course.tournament
    card = Card(stage=event.stage, round=event.round, player=event.player, card=event.card, reason=event.reason)
    card = reading.read_added(t, "discipline", card_to_json(card))
    at = bisect_right([(c.stage, c.round) for c in t.discipline], (card.stage, card.round))
    changed = replace(t, discipline=(*t.discipline[:at], card, *t.discipline[at:]))
    r = next((r for r in t.results if (r.stage, r.round) == (card.stage, card.round)), None)
    sc = None if r is None else _playing(course, r)
    if r is None or sc is None:
        return follow_from(course, changed, card.stage)
    check_round(changed, sc, r)
    check_cards_have_rounds(changed, course)
    return replace(course, tournament=changed)


def _playing(course: Course, r: Round) -> StageCourse | None:
    """The current stage when ``r`` is its round being played (listed last, unfinished), else None."""
    sc = course.current
    if r.stage == sc.index and r.round == sc.last_listed and sc.finished < r.round:
        return sc
    return None


def _with_stage(course: Course, t: Tournament, stage: StageCourse) -> Course:
    """The course of ``t`` with one stage replaced."""
    stages = tuple(stage if s.index == stage.index else s for s in course.stages)
    return Course(tournament=t, stages=stages)


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

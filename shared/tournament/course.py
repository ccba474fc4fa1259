"""Following a tournament in order: each stage's field, schedule and rounds, checked as the file goes.

Why one walk: whether a result is valid depends on what came before it (who advanced into the stage, the
bracket the earlier rounds made, who is suspended this round because of a card two rounds ago), so the
engine reads the file the way it happened: stage by stage, round by round. Per round it first works out who
cannot play and why (disqualified, withdrawn, absent, suspended; a pending suspension is served by the
player's next scheduled match), then checks the round's entries, then adds the round's cards to the
ledger. It raises the contract's codes:

- ``ROUND_ORDER``: a round listed after a missing or unfinished one, more rounds than the stage has, or a
  stage's results while the previous stage is unfinished;
- ``UNKNOWN_PLAYER``: a player in a round of a stage he is not in;
- ``PLAYED_TWICE``: a player twice in one round (or against himself);
- ``BAD_RESULT``: a match the Berger table or the bracket does not schedule, a knockout match without a
  winner, a shoot-out outside a knockout, a player who plays (or gets a bye) in a round he is absent,
  suspended, withdrawn or disqualified for (he may only lose it by walkover), or a card for a round in
  which the player has no match.

A later stage's field is the ``advance`` best of the previous stage's final standings (all when ``advance``
is null), leaving out players withdrawn or disqualified by then (a withdrawal after round 0 of the stage
itself included: he left before it began), so the next best take their places.

A tournament the organiser ``ended`` stops there: its later stages are not reached, a round listed after
the end is ``ROUND_ORDER``, and so is an end that names a round not finished.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from shared.tournament import draws
from shared.tournament.berger import BergerRound, berger_rounds
from shared.tournament.bracket import BracketMatch, BracketRound, next_round, opening_round, rounds_total
from shared.tournament.discipline import Ledger
from shared.tournament.errors import TournamentError
from shared.tournament.model import Bye, Card, Ended, Match, Round, Stage, Tournament
from shared.tournament.progress import Course, Reason, StageCourse
from shared.tournament.standings import stage_standings


def follow(t: Tournament) -> Course:
    """Check the whole tournament and return where it stands; raises ``TournamentError``."""
    return _follow(t, (), Ledger())


def follow_from(before: Course, t: Tournament, stage: int) -> Course:
    """The course of ``t``, a tournament that differs from ``before.tournament`` only in what stage ``stage`` and
    the later ones depend on: the stages before it are kept as ``before`` found them, the rest is followed again.

    Why: an event changes one stage (a result, a pairing, an absence, a card, a withdrawal), and what came before
    it stays as it was checked, so following the whole file again would redo the same checks for the same answer.
    The checks that span the whole file (the end, the cards' rounds) are made again. Equal to ``follow(t)``.
    """
    start = min(stage, len(before.stages))
    kept = before.stages[:start]
    if start < len(before.stages):
        ledger = before.stages[start].ledgers[0]
    else:
        ledger = kept[-1].ledgers[-1] if kept else Ledger()
    return _follow(t, kept, ledger)


def _follow(t: Tournament, kept: tuple[StageCourse, ...], ledger: Ledger) -> Course:
    """Follow the stages after ``kept`` (already checked, ``ledger`` as the next one begins), then the checks that
    span the whole file."""
    if t.ended is not None:
        _check_nothing_after_the_end(t, t.ended)
    by_stage: dict[int, list[Round]] = {}
    for r in t.results:
        by_stage.setdefault(r.stage, []).append(r)
    cards = cards_by_round(t)
    absent = absences(t)
    withdrawn = withdrawals(t)
    reached: list[StageCourse] = list(kept)
    for index in range(len(kept), len(t.stages)):
        stage = t.stages[index]
        if t.ended is not None and index > t.ended.after_stage:
            break
        listed = by_stage.get(index, [])
        if reached and not reached[-1].complete:
            if listed:
                previous = reached[-1]
                raise TournamentError(
                    "ROUND_ORDER",
                    f"stage {index} round {listed[0].round} has results but stage {previous.index} is not finished "
                    f"({previous.finished} of its {previous.total} rounds)",
                )
            break
        field = _field(t, index, stage, reached[-1] if reached else None, withdrawn, ledger)
        course, ledger = _follow_stage(t, index, stage, field, listed, ledger, absent, withdrawn, cards)
        reached.append(course)
    if t.ended is not None:
        _check_the_end_is_reached(t.ended, reached)
    _check_cards_have_rounds(t, reached)
    return Course(tournament=t, stages=tuple(reached))


def cards_by_round(t: Tournament) -> dict[tuple[int, int], list[Card]]:
    """The discipline's cards by (stage, round), in the order given."""
    cards: dict[tuple[int, int], list[Card]] = {}
    for card in t.discipline:
        cards.setdefault((card.stage, card.round), []).append(card)
    return cards


def absences(t: Tournament) -> set[tuple[int, int, str]]:
    """Every absence as (stage, round, player)."""
    return {(a.stage, a.round, a.player) for a in t.absent}


def withdrawals(t: Tournament) -> dict[str, tuple[int, int]]:
    """Every withdrawn player and the (stage, round) he left after."""
    return {w.player: (w.stage, w.after_round) for w in t.withdrawn}


def _check_nothing_after_the_end(t: Tournament, end: Ended) -> None:
    """No round is listed after the round the organiser ended the tournament after."""
    for r in t.results:
        if (r.stage, r.round) > (end.after_stage, end.after_round):
            raise TournamentError(
                "ROUND_ORDER", f"stage {r.stage} round {r.round} is listed, but the tournament ended after stage "
                               f"{end.after_stage} round {end.after_round}"
            )


def _check_the_end_is_reached(end: Ended, reached: Sequence[StageCourse]) -> None:
    """The round the tournament ended after is finished (round 0: the stage has begun, its field is known)."""
    where = f"ended: the tournament ended after stage {end.after_stage} round {end.after_round}"
    if end.after_stage >= len(reached):
        before = reached[-1]
        raise TournamentError("ROUND_ORDER", f"{where}, but stage {before.index} is not finished "
                                             f"({before.finished} of its {before.total} rounds)")
    sc = reached[end.after_stage]
    if end.after_round > sc.total:
        raise TournamentError("ROUND_ORDER", f"{where}, but the stage has {sc.total} rounds")
    if sc.finished < end.after_round:
        raise TournamentError("ROUND_ORDER", f"{where}, which is not finished ({sc.finished} of its rounds are)")


def swiss_rounds(stage: Stage, field_size: int) -> int:
    """A Swiss stage's rounds: ``rounds``, or by the field: up to 32 players 5, up to 64 6, more 7 (none without
    players: an empty stage is complete)."""
    if field_size == 0:
        return 0
    if stage.rounds is not None:
        return stage.rounds
    return 5 if field_size <= 32 else 6 if field_size <= 64 else 7


def stage_rounds(stage: Stage, field_size: int) -> int:
    """How many rounds a stage with ``field_size`` players has, in its system."""
    if stage.system == "swiss":
        return swiss_rounds(stage, field_size)
    if stage.system == "round_robin":
        return len(berger_rounds(field_size, double=stage.double))
    return rounds_total(field_size)


# ------------------------------------------------------------------------------------------------ fields


def _field(
    t: Tournament,
    index: int,
    stage: Stage,
    previous: StageCourse | None,
    withdrawn: Mapping[str, tuple[int, int]],
    ledger: Ledger,
) -> tuple[str, ...]:
    """The stage's players: everyone for the first stage; the ``advance`` best of the previous one after it."""
    if previous is None:
        ranked = list(t.player_ids())
    else:
        table = stage_standings(t, previous, previous.finished)
        gone = {p for p, (s, after) in withdrawn.items() if s < index or (s == index and after == 0)}
        gone |= {p for p, record in ledger.records.items() if record.disqualified_at is not None}
        ranked = [row.player for row in table.rows if row.player not in gone]
        if previous.stage.advance is not None:
            ranked = ranked[: previous.stage.advance]
    if stage.system == "knockout":
        return _seeds(t, index, stage, ranked, by_order=previous is not None)
    chosen = set(ranked)
    return tuple(p for p in t.player_ids() if p in chosen)


def _seeds(t: Tournament, index: int, stage: Stage, ranked: Sequence[str], *, by_order: bool) -> tuple[str, ...]:
    """A knockout's seeds: by rating when asked, else the previous stage's order, else drawn by the seed."""
    if stage.seeding == "rating":
        return rating_order(t, index, ranked)
    if by_order:
        return tuple(ranked)
    return tuple(sorted(ranked, key=lambda p: (draws.seeding_key(t.seed, index, p), p)))


def rating_order(t: Tournament, index: int, players: Sequence[str]) -> tuple[str, ...]:
    """Players by rating, best first; unrated players after the rated, equal ratings in the seed's order."""

    def key(player: str) -> tuple[int, int, float, str]:
        """Rated first, higher rating first, then the draw."""
        rating = t.player(player).rating
        return (0 if rating is not None else 1, -(rating or 0), draws.seeding_key(t.seed, index, player), player)

    return tuple(sorted(players, key=key))


# ------------------------------------------------------------------------------------------------ one stage


def _follow_stage(
    t: Tournament,
    index: int,
    stage: Stage,
    field: tuple[str, ...],
    listed: Sequence[Round],
    ledger: Ledger,
    absent: set[tuple[int, int, str]],
    withdrawn: Mapping[str, tuple[int, int]],
    cards: Mapping[tuple[int, int], Sequence[Card]],
) -> tuple[StageCourse, Ledger]:
    """Walk one stage's rounds; returns the stage and the ledger as the stage ends."""
    total = stage_rounds(stage, len(field))
    for position, r in enumerate(listed):
        if r.round != position + 1:
            raise TournamentError(
                "ROUND_ORDER", f"stage {index} round {r.round} has results but round {position + 1} is missing"
            )
    if len(listed) > total:
        raise TournamentError(
            "ROUND_ORDER", f"stage {index} has {total} rounds, but results list round {listed[total].round}"
        )
    berger = berger_rounds(len(field), double=stage.double) if stage.system == "round_robin" else ()
    members = set(field)
    unavailable: list[Mapping[str, Reason]] = []
    ledgers = [ledger]
    brackets: list[BracketRound] = []
    finished = 0
    for number in range(1, total + 1):
        scheduled: tuple[tuple[str, str], ...] | None = None
        byes: tuple[str, ...] = ()
        if stage.system == "knockout":
            bracket = _bracket_round(stage, field, brackets, listed, total)
            brackets.append(bracket)
            scheduled = tuple((m.home, m.away) for m in bracket.matches)
            byes = bracket.byes
        elif stage.system == "round_robin":
            scheduled, byes = _berger_schedule(field, berger[number - 1])
        reasons, ledger = _reasons(index, number, field, scheduled, ledger, absent, withdrawn)
        unavailable.append(MappingProxyType(reasons))
        if number > len(listed):
            break
        r = listed[number - 1]
        done = _check_round(stage, r, members, scheduled, byes, reasons)
        _check_cards(r, cards.get((index, number), ()))
        if not done:
            if number < len(listed):
                raise TournamentError(
                    "ROUND_ORDER",
                    f"stage {index} round {number + 1} has results but round {number} is unfinished"
                    f"{_unfinished(r, scheduled)}",
                )
            break
        ledger = ledger.add_cards(cards.get((index, number), ()), t.settings)
        ledgers.append(ledger)
        finished = number
    course = StageCourse(
        index=index,
        stage=stage,
        field=field,
        total=total,
        rounds=tuple(listed),
        finished=finished,
        unavailable=tuple(unavailable),
        ledgers=tuple(ledgers),
        brackets=tuple(brackets),
        berger=berger,
    )
    return course, ledgers[-1]


def _berger_schedule(field: tuple[str, ...], table: BergerRound) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """A Berger round as (home, away) ids and its bye."""
    pairs = tuple((field[h - 1], field[a - 1]) for h, a in table.pairs)
    return pairs, () if table.bye is None else (field[table.bye - 1],)


def schedule_of(sc: StageCourse, number: int) -> tuple[tuple[tuple[str, str], ...] | None, tuple[str, ...]]:
    """What the stage's system schedules for round ``number`` (one the course knows): the (home, away) pairs and
    the byes of the Berger table or the bracket; None for a Swiss round, which is paired rather than scheduled."""
    if sc.stage.system == "knockout":
        bracket = sc.brackets[number - 1]
        return tuple((m.home, m.away) for m in bracket.matches), bracket.byes
    if sc.stage.system == "round_robin":
        return _berger_schedule(sc.field, sc.berger[number - 1])
    return None, ()


def next_round_reasons(t: Tournament, sc: StageCourse) -> Mapping[str, Reason]:
    """Who cannot play the stage's next round to pair (``finished + 1``, listed or not) and why, from the ledger
    after its last finished round - what ``follow`` finds for it, worked out for that round alone."""
    number = sc.finished + 1
    scheduled, _ = schedule_of(sc, number)
    reasons, _ = _reasons(sc.index, number, sc.field, scheduled, sc.ledgers[number - 1], absences(t), withdrawals(t))
    return MappingProxyType(reasons)


def check_round(t: Tournament, sc: StageCourse, r: Round) -> bool:
    """Check round ``r`` of the stage as ``follow`` checks it, the stage's earlier rounds being finished; True when
    the round is finished (``follow`` would then go on to the next one)."""
    scheduled, byes = schedule_of(sc, r.round)
    done = _check_round(sc.stage, r, set(sc.field), scheduled, byes, sc.unavailable[r.round - 1])
    _check_cards(r, cards_by_round(t).get((sc.index, r.round), ()))
    return done


def check_cards_have_rounds(t: Tournament, course: Course) -> None:
    """Every card names a round that has been paired (``BAD_RESULT`` otherwise), as ``follow`` checks last."""
    _check_cards_have_rounds(t, course.stages)


def _bracket_round(
    stage: Stage, seeds: tuple[str, ...], known: Sequence[BracketRound], listed: Sequence[Round], total: int
) -> BracketRound:
    """Round ``len(known) + 1`` of the bracket: the opening round, or the winners of the round before."""
    if not known:
        return opening_round(seeds)
    previous = known[-1]
    results = {frozenset(e.players()): e for e in listed[previous.number - 1].matches if isinstance(e, Match)}

    def winner(m: BracketMatch) -> str:
        """The winner of a scheduled match, from its listed result (checked finished before this is called)."""
        played = results[frozenset((m.home, m.away))]
        assert played.winner is not None
        return played.winner

    return next_round(previous, winner, seeds, total=total, third_place=stage.third_place)


def _reasons(
    index: int,
    number: int,
    field: tuple[str, ...],
    scheduled: tuple[tuple[str, str], ...] | None,
    ledger: Ledger,
    absent: set[tuple[int, int, str]],
    withdrawn: Mapping[str, tuple[int, int]],
) -> tuple[dict[str, Reason], Ledger]:
    """Who of the stage cannot play this round and why; pending suspensions served by a scheduled match.

    Swiss (``scheduled`` is None): a player present for the round serves a pending suspension by not being
    paired. Round robin and knockout: the player's next scheduled match serves it, whatever else keeps him
    from playing it.
    """
    playing = None if scheduled is None else {p for pair in scheduled for p in pair}
    moment = (index, number)
    reasons: dict[str, Reason] = {}
    for player in field:
        record = ledger.of(player)
        if record.disqualified_at is not None and moment > record.disqualified_at:
            reasons[player] = "disqualified"
            continue
        if player in withdrawn and moment > withdrawn[player]:
            reasons[player] = "withdrawn"
            continue
        away = (index, number, player) in absent
        has_match = (not away) if playing is None else player in playing
        if has_match and record.pending > 0:
            ledger = ledger.serve(player)
            reasons[player] = "suspended"
        if away:
            reasons[player] = "absent"
    return reasons, ledger


def _check_round(
    stage: Stage,
    r: Round,
    members: set[str],
    scheduled: tuple[tuple[str, str], ...] | None,
    byes: tuple[str, ...],
    reasons: Mapping[str, Reason],
) -> bool:
    """Check one round's entries; True when the round is finished."""
    label = f"stage {r.stage} round {r.round}"
    seen: dict[str, int] = {}
    wanted = None if scheduled is None else {frozenset(pair): pair for pair in scheduled}
    present: set[frozenset[str]] = set()
    for position, entry in enumerate(r.matches, start=1):
        where = f"{label}, match {position}"
        for player in entry.players():
            if player not in members:
                raise TournamentError("UNKNOWN_PLAYER", f"{where}: {player} is not in stage {r.stage}")
        if isinstance(entry, Match):
            where = f"{where} ({entry.home} v {entry.away})"
            if entry.home == entry.away:
                raise TournamentError("PLAYED_TWICE", f"{where}: {entry.home} cannot play himself")
        for player in entry.players():
            if player in seen:
                raise TournamentError("PLAYED_TWICE",
                                      f"{where}: {player} is already in match {seen[player]} of {label}")
            seen[player] = position
        if isinstance(entry, Bye):
            if wanted is not None and entry.player not in byes:
                raise TournamentError("BAD_RESULT", f"{where}: {entry.player} has no bye in this round's schedule")
            if wanted is None and entry.player in reasons:  # a Swiss bye is a win; a scheduled one is nothing
                why = reasons[entry.player]
                raise TournamentError("BAD_RESULT", f"{where}: {entry.player} is {why} and gets no bye")
            continue
        if wanted is not None:
            pair = frozenset(entry.players())
            if pair not in wanted:
                system = "bracket" if stage.system == "knockout" else "Berger table"
                raise TournamentError("BAD_RESULT", f"{where}: the {system} does not pair them in this round")
            present.add(pair)
        _check_result(stage, entry, where)
        _check_availability(entry, where, reasons)
    if wanted is not None and stage.system == "knockout" and len(present) < len(wanted):
        return False
    return r.finished


def _check_result(stage: Stage, match: Match, where: str) -> None:
    """A knockout match has a winner (a shoot-out after a drawn score); other systems have no shoot-out."""
    if match.shootout is not None and stage.system != "knockout":
        raise TournamentError("BAD_RESULT", f"{where}: only a knockout match is decided by a shoot-out")
    if stage.system == "knockout" and match.finished and match.winner is None:
        raise TournamentError("BAD_RESULT", f"{where}: a knockout match needs a winner (a drawn score, a shootout)")


def _check_availability(match: Match, where: str, reasons: Mapping[str, Reason]) -> None:
    """A player who cannot play the round may only appear as the loser of a walkover."""
    out = [p for p in match.players() if p in reasons]
    if not out or (match.walkover is not None and (len(out) == 2 or match.loser == out[0])):
        return
    player = out[0]
    raise TournamentError("BAD_RESULT", f"{where}: {player} is {reasons[player]} in this round and can only lose it "
                                        f"by walkover")


def _check_cards(r: Round, cards: Sequence[Card]) -> None:
    """Each card of the round belongs to a player who has a match in it."""
    in_matches = {p for e in r.matches if isinstance(e, Match) for p in e.players()}
    for card in cards:
        if card.player not in in_matches:
            raise TournamentError(
                "BAD_RESULT", f"discipline: {card.player} has no match in stage {r.stage} round {r.round} for his "
                              f"{card.card} card"
            )


def _check_cards_have_rounds(t: Tournament, reached: Sequence[StageCourse]) -> None:
    """A card names a round that has been paired."""
    for card in t.discipline:
        listed = reached[card.stage].last_listed if card.stage < len(reached) else 0
        if card.round > listed:
            raise TournamentError(
                "BAD_RESULT",
                f"discipline: {card.player}'s {card.card} card names stage {card.stage} round {card.round}, "
                f"which has no matches yet",
            )


def _unfinished(r: Round, scheduled: tuple[tuple[str, str], ...] | None) -> str:
    """Which match of an unfinished round has no result (or is missing), for the message."""
    for entry in r.matches:
        if isinstance(entry, Match) and not entry.finished:
            return f" ({entry.home} v {entry.away} has no result)"
    listed = {frozenset(e.players()) for e in r.matches if isinstance(e, Match)}
    for home, away in scheduled or ():
        if frozenset((home, away)) not in listed:
            return f" ({home} v {away} is not listed)"
    return ""

"""The tournament's events: each returns a new value or refuses with the contract's code; the old value stays."""

from __future__ import annotations

import pytest

from shared.tournament.course import follow
from shared.tournament.errors import TournamentError
from shared.tournament.events import (
    AddPlayer,
    ApplyPairing,
    End,
    GiveCard,
    MarkAbsent,
    RecordBye,
    RecordResult,
    Withdraw,
    apply,
    fold,
)
from shared.tournament.model import Bye, Match, Player, Stage, Tournament
from shared.tournament.pairing import pair
from shared.tournament.standings import standings
from shared.tournament.table import Row


def _start() -> Tournament:
    """Five players, a three-round Swiss."""
    return Tournament(seed=11, players=tuple(Player(id=p, name=p.upper()) for p in "abcde"), stages=(Stage(rounds=3),))


def _row(t: Tournament, player: str) -> Row:
    """The player's standings row."""
    return next(r for r in standings(follow(t)).rows if r.player == player)


def test_applying_the_pairing_adds_the_round_without_results_and_keeps_the_old_value() -> None:
    """ApplyPairing lists the pairing's matches (no results) and its bye; the tournament it was applied to is
    unchanged."""
    t = _start()
    p = pair(t)
    after = apply(t, ApplyPairing(pairing=p))
    assert t.results == ()
    (r,) = after.results
    assert [(e.home, e.away, e.finished) for e in r.matches if isinstance(e, Match)] == [
        (x.home, x.away, False) for x in p.matches
    ]
    assert [e.player for e in r.matches if isinstance(e, Bye)] == list(p.byes)
    with pytest.raises(TournamentError) as caught:
        apply(after, ApplyPairing(pairing=p))
    assert caught.value.code == "ROUND_ORDER"


def test_recording_results_finishes_the_round_and_a_wrong_match_is_refused() -> None:
    """RecordResult sets a listed match's score or walkover; a match that is not listed is BAD_RESULT."""
    t = apply(_start(), ApplyPairing(pairing=pair(_start())))
    first, second = [e for e in t.results[0].matches if isinstance(e, Match)]
    t = apply(t, RecordResult(round=1, home=first.home, away=first.away, score=(2, 1)))
    t = apply(t, RecordResult(round=1, home=second.home, away=second.away, walkover="away"))
    assert t.results[0].finished
    assert _row(t, first.home).points == 3 and _row(t, second.away).goals_for == 5
    with pytest.raises(TournamentError) as caught:
        apply(t, RecordResult(round=1, home=first.away, away=first.home, score=(1, 0)))
    assert caught.value.code == "BAD_RESULT"


def test_a_late_entry_is_paired_from_the_next_round() -> None:
    """AddPlayer after round 1: paired (or given the bye) in round 2; round 1 is unplayed for him."""
    t = _start()
    p = pair(t)
    t = apply(t, ApplyPairing(pairing=p))
    for x in p.matches:
        t = apply(t, RecordResult(round=1, home=x.home, away=x.away, score=(1, 0)))
    t = apply(t, AddPlayer(player=Player(id="late", name="Late")))
    assert (_row(t, "late").played, _row(t, "late").points) == (0, 0)
    second = pair(t)
    assert "late" in {q for x in second.matches for q in (x.home, x.away)} | set(second.byes)
    with pytest.raises(TournamentError) as caught:
        apply(t, AddPlayer(player=Player(id="late", name="Again")))
    assert caught.value.code == "DUPLICATE_PLAYER"


def test_absence_withdrawal_card_and_bye_events() -> None:
    """MarkAbsent, Withdraw, GiveCard and RecordBye change what the next pairing does, or are refused."""
    t = _start()
    with pytest.raises(TournamentError) as caught:
        apply(t, MarkAbsent(round=1, player="ghost"))
    assert caught.value.code == "UNKNOWN_PLAYER"
    t = fold(t, [MarkAbsent(round=1, player="a"), Withdraw(player="b", after_round=0)])
    p = pair(t)
    assert {(u.player, u.why) for u in p.not_paired} == {("a", "absent"), ("b", "withdrawn")}
    t = apply(t, ApplyPairing(pairing=p))
    (x,) = p.matches
    t = apply(t, RecordResult(round=1, home=x.home, away=x.away, score=(0, 0)))
    t = apply(t, GiveCard(round=1, player=x.home, card="red", reason="abuse"))
    assert _row(t, x.home).red == 1 and _row(t, x.home).suspended_next
    with pytest.raises(TournamentError) as caught:
        apply(t, GiveCard(round=1, player="a", card="yellow"))
    assert caught.value.code == "BAD_RESULT"
    with pytest.raises(TournamentError) as caught:
        apply(t, RecordBye(round=1, player="a"))
    assert caught.value.code == "BAD_RESULT"  # a was absent in round 1


def test_an_event_that_breaks_the_file_is_refused_whole() -> None:
    """A result for a round that is not paired yet: BAD_RESULT, nothing changes."""
    t = _start()
    with pytest.raises(TournamentError) as caught:
        apply(t, RecordResult(round=1, home="a", away="b", score=(1, 0)))
    assert caught.value.code == "BAD_RESULT"
    assert t == _start()


def test_ending_the_tournament_completes_it_and_an_end_not_reached_is_refused() -> None:
    """End after round 1 of three: complete, nothing more to pair; an end after round 2 (not played) is
    ROUND_ORDER and leaves the tournament as it was."""
    t = _start()
    p = pair(t)
    t = fold(t, [ApplyPairing(pairing=p), *[RecordResult(round=1, home=x.home, away=x.away, score=(1, 0))
                                            for x in p.matches]])
    with pytest.raises(TournamentError) as caught:
        apply(t, End(after_round=2))
    assert caught.value.code == "ROUND_ORDER" and t.ended is None
    ended = apply(t, End(after_round=1, reason="the hall closes"))
    assert follow(ended).complete and ended.ended is not None and ended.ended.reason == "the hall closes"
    with pytest.raises(TournamentError) as caught:
        pair(ended)
    assert caught.value.code == "NOTHING_TO_PAIR"

"""The engine's ``TakeBack``: the round last listed goes off the file with its cards and the absences named with it,
equal to following the changed file whole (TOURNAMENT-NOTES 46)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared.tournament import events
from shared.tournament.course import follow
from shared.tournament.errors import TournamentError
from shared.tournament.pairing import pair_course
from shared.tournament.progress import Course
from shared.tournament.reading import read_tournament
from shared.tournament.writing import to_json


def _two_rounds() -> Course:
    """Six players; round 1 played, p6 absent from round 2 (the start marked him) and p5 (the file said so before),
    round 2 paired with a card in it."""
    t = read_tournament({"seed": 4, "stages": [{"system": "swiss", "rounds": 3}],
                         "players": [{"id": f"p{i}", "name": f"P{i}"} for i in range(1, 7)],
                         "absent": [{"round": 2, "player": "p5"}]})
    course = follow(t)
    course = events.advance(course, events.ApplyPairing(pairing=pair_course(course)))
    for m in pair_course(follow(replace(course.tournament, results=()))).matches:
        course = events.advance(course, events.RecordResult(round=1, home=m.home, away=m.away, score=(2, 1)))
    course = events.advance(course, events.MarkAbsent(round=2, player="p6"))
    course = events.advance(course, events.ApplyPairing(pairing=pair_course(course)))
    home = course.tournament.results[-1].matches[0].players()[0]
    return events.advance(course, events.GiveCard(round=2, player=home, card="yellow", reason="stalling"))


def test_take_back_removes_the_last_round_its_cards_and_the_absences_named_with_it() -> None:
    """Round 2 goes, its card too, p6's absence (named) goes and p5's (not named) stays; the course is the one the
    changed file follows to, and round 2 can be paired again."""
    course = _two_rounds()
    back = events.advance(course, events.TakeBack(round=2, absent=("p6",)))
    t = back.tournament
    assert [r.round for r in t.results] == [1] and t.discipline == ()
    assert [(a.round, a.player) for a in t.absent] == [(2, "p5")]
    assert to_json(follow(read_tournament(to_json(t))).tournament) == to_json(t)
    assert back.current.finished == 1 and pair_course(back).round == 2


def test_only_the_round_last_listed_is_taken_back() -> None:
    """ROUND_ORDER for an earlier round; BAD_RESULT for a round not paired."""
    course = _two_rounds()
    with pytest.raises(TournamentError) as refused:
        events.advance(course, events.TakeBack(round=1))
    assert refused.value.code == "ROUND_ORDER"
    with pytest.raises(TournamentError) as refused:
        events.advance(course, events.TakeBack(round=3))
    assert refused.value.code == "BAD_RESULT"


def test_an_end_after_a_round_taken_back_is_after_the_round_before() -> None:
    """The round the organiser did not let finish is taken back, then the end is after round 1: complete."""
    course = events.advance(_two_rounds(), events.TakeBack(round=2, absent=("p6",)))
    ended = events.advance(course, events.End(after_round=1, reason="the hall closes"))
    assert ended.complete and ended.tournament.ended is not None

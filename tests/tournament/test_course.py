"""Following a file in order: round order, players twice in a round, who may play, and stages feeding stages."""

from __future__ import annotations

from typing import Any

from shared.tournament.course import follow
from shared.tournament.reading import read_tournament
from tests.tournament.builders import Doc, bye, doc, m, order, pairing_of, pairs, players, refusal, rounds, standings_of


def _four(*matches_per_round: list[dict[str, Any]]) -> Doc:
    """Four players a-d with these rounds."""
    return doc(players("a", "b", "c", "d"), results=rounds(*matches_per_round))


def test_results_after_an_unfinished_round_are_round_order() -> None:
    """Round 2 has results while round 1 still has a match without one."""
    code, message = refusal(_four([m("a", "b", (1, 0)), m("c", "d")], [m("a", "c", (1, 0))]), "follow")
    assert code == "ROUND_ORDER" and "round 1 is unfinished" in message and "c v d" in message


def test_results_after_a_missing_round_are_round_order() -> None:
    """Round 2 listed without round 1."""
    d = doc(players("a", "b"), results=[{"round": 2, "matches": [m("a", "b", (1, 0))]}])
    code, message = refusal(d, "follow")
    assert code == "ROUND_ORDER" and "round 1 is missing" in message


def test_more_rounds_than_the_stage_has_are_round_order() -> None:
    """A Swiss of one round with results for round 2."""
    d = doc(players("a", "b", "c", "d"), stages=[{"rounds": 1}],
            results=rounds([m("a", "b", (1, 0)), m("c", "d", (1, 0))], [m("a", "c", (1, 0)), m("b", "d", (1, 0))]))
    assert refusal(d, "follow")[0] == "ROUND_ORDER"


def test_a_later_stage_before_the_earlier_one_is_finished_is_round_order() -> None:
    """Stage 1 results while stage 0 has rounds to play."""
    d = doc(players("a", "b", "c", "d"), stages=[{"rounds": 2}, {"system": "knockout"}],
            results=[*rounds([m("a", "b", (1, 0)), m("c", "d", (1, 0))]),
                     {"stage": 1, "round": 1, "matches": [m("a", "c", (1, 0))]}])
    code, message = refusal(d, "follow")
    assert code == "ROUND_ORDER" and "stage 0 is not finished" in message


def test_pairing_while_a_round_is_being_played_is_round_order() -> None:
    """The last round has a match without a result: pair answers ROUND_ORDER naming it."""
    code, message = refusal(_four([m("a", "b", (1, 0)), m("c", "d")]))
    assert code == "ROUND_ORDER" and "c v d has no result" in message


def test_a_player_twice_in_one_round_is_played_twice() -> None:
    """In two matches, against himself, or in a match and a bye."""
    assert refusal(_four([m("a", "b", (1, 0)), m("a", "c", (1, 0))]), "follow")[0] == "PLAYED_TWICE"
    assert refusal(_four([m("a", "a", (1, 0))]), "follow")[0] == "PLAYED_TWICE"
    code, message = refusal(_four([m("a", "b", (1, 0)), bye("b")]), "follow")
    assert code == "PLAYED_TWICE" and "b is already in match 1" in message


def test_an_absent_player_may_only_lose_by_walkover() -> None:
    """Absent in round 1 but playing: BAD_RESULT; the same match as a walkover for his opponent is fine."""
    d = _four([m("a", "b", (1, 0)), m("c", "d", (1, 0))])
    d["absent"] = [{"round": 1, "player": "b"}]
    code, message = refusal(d, "follow")
    assert code == "BAD_RESULT" and "b is absent" in message
    d["results"][0]["matches"][0] = m("a", "b", walkover="away")
    assert refusal(d, "follow")[0] == "BAD_RESULT"  # he cannot win it either
    d["results"][0]["matches"][0] = m("a", "b", walkover="home")
    assert standings_of(d).after_round == 1


def test_a_withdrawn_player_is_not_paired_after_his_round_and_gets_no_bye() -> None:
    """Withdrawn after round 1: not paired in round 2 (withdrawn), and a bye for him in round 2 is BAD_RESULT."""
    d = doc(players("a", "b", "c", "d", "e"), results=rounds([m("a", "b", (1, 0)), m("c", "d", (1, 0)), bye("e")]),
            withdrawn=[{"player": "e", "after_round": 1}])
    assert [(u.player, u.why) for u in pairing_of(d).not_paired] == [("e", "withdrawn")]
    d["results"].append({"round": 2, "matches": [m("a", "c", (1, 0)), bye("e")]})
    assert refusal(d, "follow")[0] == "BAD_RESULT"


def test_a_player_outside_the_stage_is_unknown_there() -> None:
    """A knockout of the Swiss's best two: a match of the third in it is UNKNOWN_PLAYER naming him and the stage."""
    d = doc(players("a", "b", "c", "d"), stages=[{"rounds": 1, "advance": 2}, {"system": "knockout"}],
            results=[*rounds([m("a", "b", (3, 0)), m("c", "d", (2, 0))]),
                     {"stage": 1, "round": 1, "matches": [m("a", "b", (1, 0))]}])
    code, message = refusal(d, "follow")
    assert code == "UNKNOWN_PLAYER" and "b is not in stage 1" in message


def test_the_next_stage_takes_the_advance_best_in_order_of_the_standings() -> None:
    """Four players, the best two advance: the knockout is their final, the Swiss winner at home."""
    d = doc(players("a", "b", "c", "d"), stages=[{"rounds": 1, "advance": 2}, {"system": "knockout"}],
            results=rounds([m("a", "b", (3, 0)), m("c", "d", (2, 0))]))
    assert order(standings_of(d))[:2] == ["a", "c"]
    p = pairing_of(d)
    assert (p.stage, p.round, [(x.home, x.away, x.kind) for x in p.matches]) == (1, 1, [("a", "c", "final")])


def test_withdrawn_and_disqualified_players_do_not_advance() -> None:
    """The Swiss's first is disqualified and its second withdrew: the next two best advance instead."""
    d = doc(players("a", "b", "c", "d", "e", "f"), stages=[{"rounds": 1, "advance": 2}, {"system": "knockout"}],
            results=rounds([m("a", "b", (5, 0)), m("c", "d", (4, 0)), m("e", "f", (3, 0))]),
            withdrawn=[{"player": "c", "after_round": 1}],
            discipline=[{"round": 1, "player": "a", "card": "disqualified"}])
    assert order(standings_of(d))[:3] == ["a", "c", "e"]
    p = pairing_of(d)
    assert [(x.home, x.kind) for x in p.matches] == [("e", "final")]
    assert p.matches[0].away in ("b", "d", "f")


def test_a_withdrawal_during_a_later_stage_names_that_stage() -> None:
    """``{"stage": 1, "after_round": 1}``: he plays the semi-final, then loses the final by walkover."""
    d = doc(players("a", "b", "c", "d"), stages=[{"rounds": 1}, {"system": "knockout"}],
            results=rounds([m("a", "b", (3, 0)), m("c", "d", (2, 0))]),
            withdrawn=[{"stage": 1, "player": "a", "after_round": 1}])
    semis = pairing_of(d).matches
    assert "a" in (semis[0].home, semis[0].away) and semis[0].walkover is None
    d["results"].append({"stage": 1, "round": 1, "matches": [m(x.home, x.away, (1, 0)) for x in semis]})
    (final,) = pairing_of(d).matches
    assert (final.home, final.away, final.walkover) == ("a", "c", "away")


def test_a_withdrawal_before_a_later_stage_begins_gives_his_place_to_the_next_best() -> None:
    """``{"stage": 1, "after_round": 0}`` (he left before stage 1's first round): he does not advance, the
    next best of stage 0 plays instead."""
    d = doc(players("a", "b", "c", "d"), stages=[{"rounds": 1, "advance": 2}, {"system": "knockout"}],
            results=rounds([m("a", "b", (3, 0)), m("c", "d", (2, 0))]),
            withdrawn=[{"stage": 1, "player": "a", "after_round": 0}])
    table = order(standings_of(d))
    p = pairing_of(d)
    assert [(x.home, x.away, x.walkover) for x in p.matches] == [(table[1], table[2], None)]


def test_a_later_swiss_stage_starts_afresh() -> None:
    """A second Swiss stage pairs its round 1 from level standings; byes and meetings of stage 0 do not count."""
    d = doc(players("a", "b", "c"), stages=[{"rounds": 3}, {"rounds": 1}],
            results=rounds([m("a", "b", (1, 0)), bye("c")], [m("c", "a", (1, 0)), bye("b")],
                           [m("b", "c", (1, 0)), bye("a")]))
    p = pairing_of(d)
    assert (p.stage, p.round, len(p.matches), len(p.byes)) == (1, 1, 1, 1)
    table = standings_of(d)
    assert table.stage == 0 and table.after_round == 3


def test_standings_of_a_stage_not_begun_and_of_a_stage_that_does_not_exist() -> None:
    """--stage 1 while stage 0 runs is ROUND_ORDER; --stage 5 of a two-stage file is BAD_FORMAT."""
    from shared.tournament.course import follow
    from shared.tournament.errors import TournamentError
    from shared.tournament.reading import read_tournament
    from shared.tournament.standings import standings

    course = follow(read_tournament(doc(players("a", "b"), stages=[{}, {"system": "knockout"}])))
    for stage, code in ((1, "ROUND_ORDER"), (5, "BAD_FORMAT")):
        try:
            standings(course, stage)
        except TournamentError as exc:
            assert exc.code == code
        else:
            raise AssertionError(stage)


def test_a_tournament_without_players_has_nothing_to_pair() -> None:
    """No players: every stage is complete at once."""
    assert refusal(doc([]))[0] == "NOTHING_TO_PAIR"


def test_the_default_stage_of_the_standings_is_the_last_with_a_result() -> None:
    """Stage 1 paired but without results: the standings stay on stage 0; with one result they move to stage 1."""
    d = doc(players("a", "b", "c", "d"), stages=[{"rounds": 1}, {"system": "knockout"}],
            results=rounds([m("a", "b", (3, 0)), m("c", "d", (2, 0))]))
    semis = [m(x.home, x.away) for x in pairing_of(d).matches]
    d["results"].append({"stage": 1, "round": 1, "matches": semis})
    assert (standings_of(d).stage, standings_of(d).after_round) == (0, 1)
    semis[0]["score"] = [2, 0]
    assert (standings_of(d).stage, standings_of(d).after_round) == (1, 0)


def test_an_ended_tournament_is_complete_and_has_nothing_to_pair() -> None:
    """A Swiss of five rounds ended after round 2: the standings after round 2 are complete, ``pair`` answers
    NOTHING_TO_PAIR (naming the reason)."""
    d = {**_four([m("a", "b", (1, 0)), m("c", "d", (2, 0))], [m("a", "c", (1, 1)), m("b", "d", (0, 1))]),
         "stages": [{"rounds": 5}], "ended": {"after_round": 2, "reason": "the hall closes"}}
    table = standings_of(d)
    assert (table.after_round, table.complete) == (2, True)
    code, message = refusal(d)
    assert code == "NOTHING_TO_PAIR" and "the hall closes" in message


def test_a_round_after_the_end_and_an_end_not_yet_reached_are_round_order() -> None:
    """Results of round 2 in a file that ended after round 1; an end after round 2 while round 2 is still
    being played, or after a round beyond the stage, or in a stage not yet begun."""
    two = _four([m("a", "b", (1, 0)), m("c", "d", (2, 0))], [m("a", "c", (1, 1)), m("b", "d")])
    assert refusal({**two, "ended": {"after_round": 1}}, "follow")[0] == "ROUND_ORDER"
    assert refusal({**two, "ended": {"after_round": 2}}, "follow")[0] == "ROUND_ORDER"
    one = _four([m("a", "b", (1, 0)), m("c", "d", (2, 0))])
    assert refusal({**one, "stages": [{"rounds": 1}], "ended": {"after_round": 2}}, "follow")[0] == "ROUND_ORDER"
    staged = {**one, "stages": [{"rounds": 2}, {"system": "knockout"}], "ended": {"after_stage": 1, "after_round": 0}}
    code, message = refusal(staged, "follow")
    assert code == "ROUND_ORDER" and "stage 0 is not finished" in message


def test_an_end_after_a_stage_leaves_the_later_stages_unplayed() -> None:
    """Ended after the Swiss (stage 0 round 1) of a Swiss and a knockout: standings of stage 0, complete;
    ``--stage 1`` is ROUND_ORDER (not played), ``pair`` NOTHING_TO_PAIR."""
    from shared.tournament.course import follow
    from shared.tournament.errors import TournamentError
    from shared.tournament.reading import read_tournament
    from shared.tournament.standings import standings

    d = doc(players("a", "b", "c", "d"), stages=[{"rounds": 1, "advance": 2}, {"system": "knockout"}],
            results=rounds([m("a", "b", (3, 0)), m("c", "d", (2, 0))]), ended={"after_stage": 0, "after_round": 1})
    table = standings_of(d)
    assert (table.stage, table.after_round, table.complete) == (0, 1, True)
    assert refusal(d)[0] == "NOTHING_TO_PAIR"
    course = follow(read_tournament(d))
    assert len(course.stages) == 1 and course.complete
    try:
        standings(course, 1)
    except TournamentError as exc:
        assert exc.code == "ROUND_ORDER" and "ended" in exc.message
    else:
        raise AssertionError("standings of a stage never played")


def _round_to_start(d: Doc) -> tuple[int, int] | None:
    return follow(read_tournament(d)).round_to_start


def test_the_round_to_start_is_the_stages_next_then_the_next_stages_first_then_none() -> None:
    """Two Swiss rounds then a knockout: round 1, round 2 (also while round 1 is played), the knockout's round 1 from
    the moment the Swiss' last round is paired, and none once the final is paired."""
    stages = [{"rounds": 2, "advance": 2}, {"system": "knockout"}]
    swiss = [[m("a", "b", (1, 0)), m("c", "d", (1, 0))], [m("a", "c", (1, 0)), m("b", "d", (1, 0))]]
    assert _round_to_start(doc(players("a", "b", "c", "d"), stages=stages)) == (0, 1)
    assert _round_to_start(doc(players("a", "b", "c", "d"), stages=stages,
                               results=rounds([m("a", "b"), m("c", "d")]))) == (0, 2)
    assert _round_to_start(doc(players("a", "b", "c", "d"), stages=stages, results=rounds(swiss[0]))) == (0, 2)
    assert _round_to_start(doc(players("a", "b", "c", "d"), stages=stages,
                               results=rounds(swiss[0], [m("a", "c"), m("b", "d")]))) == (1, 1)
    played = doc(players("a", "b", "c", "d"), stages=stages, results=rounds(*swiss))
    assert _round_to_start(played) == (1, 1)
    (home, away), = pairs(pairing_of(played))
    final = {"stage": 1, "round": 1, "matches": [m(home, away)]}
    assert _round_to_start({**played, "results": [*rounds(*swiss), final]}) is None


def test_no_round_is_to_start_in_a_tournament_the_organiser_ended() -> None:
    """Ended after round 1 of 2: nothing is left to pair."""
    d = doc(players("a", "b", "c", "d"), stages=[{"rounds": 2}],
            results=rounds([m("a", "b", (1, 0)), m("c", "d", (1, 0))]),
            ended={"after_stage": 0, "after_round": 1, "reason": "the hall closed"})
    assert _round_to_start(d) is None

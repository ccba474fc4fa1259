"""Round robin: Berger tables, the mini-table applied once, byes, walkovers set in the pairing."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from shared.tournament.berger import BergerRound, berger_rounds
from tests.tournament.builders import bye, doc, m, order, pairing_of, pairs, players, refusal, row, standings_of

RR = [{"system": "round_robin"}]


def _table(rounds_: tuple[BergerRound, ...]) -> list[str]:
    """A Berger table as text, e.g. ['1-4 2-3', '4-3 1-2', '2-4 3-1']."""
    return [" ".join(f"{h}-{a}" for h, a in r.pairs) for r in rounds_]


def test_berger_tables_for_four_and_six_are_the_printed_ones() -> None:
    """The FIDE handbook's tables for four and six players."""
    assert _table(berger_rounds(4)) == ["1-4 2-3", "4-3 1-2", "2-4 3-1"]
    assert _table(berger_rounds(6)) == ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]


def test_an_odd_field_is_the_table_of_one_more_whose_opponent_has_the_bye() -> None:
    """Five players play the FIDE table of six: whoever meets player 6 has the round's bye."""
    six = berger_rounds(6)
    for five, full in zip(berger_rounds(5), six, strict=True):
        (dummy,) = [pair for pair in full.pairs if 6 in pair]
        assert five.bye == (dummy[0] if dummy[1] == 6 else dummy[1])
        assert five.pairs == tuple(pair for pair in full.pairs if 6 not in pair)
    assert [r.bye for r in berger_rounds(5)] == [1, 4, 2, 5, 3]


@pytest.mark.parametrize("n", range(2, 21))
def test_everyone_meets_everyone_once_and_plays_once_a_round(n: int) -> None:
    """Every pair exactly once; nobody twice in a round; with an odd field exactly one bye per round, once each."""
    table = berger_rounds(n)
    assert len(table) == (n - 1 if n % 2 == 0 else n)
    met = [frozenset(pair) for r in table for pair in r.pairs]
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, combinations(range(1, n + 1), 2))))
    for r in table:
        seen = [p for pair in r.pairs for p in pair] + ([r.bye] if r.bye is not None else [])
        assert sorted(seen) == list(range(1, n + 1))
    byes = [r.bye for r in table]
    if n % 2 == 0:
        assert byes == [None] * len(table)
    else:
        assert sorted(b for b in byes if b is not None) == list(range(1, n + 1))


@pytest.mark.parametrize("n", [3, 4, 7, 8])
def test_double_is_a_second_cycle_in_the_same_order_with_home_and_away_swapped(n: int) -> None:
    """Rounds n'..2(n'-1) repeat the first cycle's pairs with the other player at home."""
    single, double = berger_rounds(n), berger_rounds(n, double=True)
    assert double[: len(single)] == single
    assert [[(a, h) for h, a in r.pairs] for r in double[len(single):]] == [list(r.pairs) for r in single]


def test_players_are_numbered_in_the_order_of_the_file() -> None:
    """Round 1 of four players is 1-4 and 2-3 in the order of ``players``."""
    p = pairing_of(doc(players("w", "x", "y", "z"), stages=RR))
    assert sorted(pairs(p)) == [("w", "z"), ("x", "y")]


def test_an_odd_field_has_one_bye_a_round_worth_nothing() -> None:
    """Five players: one bye per round, no points, no goals, not played, counted in ``byes``."""
    d = doc(players("a", "b", "c", "d", "e"), stages=RR)
    p = pairing_of(d)
    assert len(p.matches) == 2 and len(p.byes) == 1
    (resting,) = p.byes
    played = [m(x.home, x.away, (1, 0)) for x in p.matches] + [bye(resting)]
    table = standings_of({**d, "results": [{"round": 1, "matches": played}]})
    r = row(table, resting)
    assert (r.points, r.played, r.wins, r.byes, r.goals_for) == (0, 0, 0, 1, 0)
    unlisted = standings_of({**d, "results": [{"round": 1, "matches": played[:-1]}]})
    assert unlisted == table  # the bye comes from the table whether or not the file lists it


def _berger_results(ids: list[str], scores: dict[tuple[str, str], tuple[int, int]]) -> list[dict[str, Any]]:
    """Results for every round of the Berger table of ``ids``, each pair's score looked up by hand."""
    out = []
    for number, r in enumerate(berger_rounds(len(ids)), start=1):
        matches = []
        for h, a in r.pairs:
            home, away = ids[h - 1], ids[a - 1]
            if (home, away) in scores:
                matches.append(m(home, away, scores[(home, away)]))
            else:
                hs, as_ = scores[(away, home)]
                matches.append(m(home, away, (as_, hs)))
        out.append({"round": number, "matches": matches})
    return out


def test_the_mini_table_decides_before_goal_difference() -> None:
    """b and d on 6: d beat b (d above despite a worse goal difference); a and c on 3: c beat a."""
    ids = ["a", "b", "c", "d"]
    scores = {("a", "d"): (5, 0), ("b", "c"): (2, 0), ("d", "c"): (3, 0), ("a", "b"): (0, 1),
              ("b", "d"): (0, 2), ("c", "a"): (1, 0)}
    table = standings_of(doc(players(*ids), stages=RR, results=_berger_results(ids, scores)))
    assert order(table) == ["d", "b", "c", "a"]
    assert row(table, "d").tiebreaks == (("mini_points", 3), ("goal_difference", 0), ("goals_for", 5))
    assert row(table, "b").tiebreaks == (("mini_points", 0), ("goal_difference", 1), ("goals_for", 3))
    assert row(table, "a").tiebreaks == (("mini_points", 0), ("goal_difference", 3), ("goals_for", 5))


def test_the_mini_table_is_applied_once_not_again_to_a_subgroup() -> None:
    """x, y, w, z on 7: mini-table z 7, w 4, x 3, y 3; x beat y, but goal difference (y +5, x 0) decides."""
    ids = ["x", "y", "w", "z", "e", "f"]
    scores = {
        ("x", "y"): (1, 0), ("x", "w"): (0, 1), ("x", "z"): (0, 1), ("y", "w"): (3, 0), ("y", "z"): (0, 1),
        ("w", "z"): (1, 1), ("x", "e"): (1, 0), ("x", "f"): (0, 0), ("y", "f"): (4, 0), ("y", "e"): (0, 0),
        ("w", "e"): (1, 0), ("w", "f"): (0, 1), ("z", "e"): (0, 1), ("z", "f"): (0, 1), ("e", "f"): (0, 0),
    }
    table = standings_of(doc(players(*ids), stages=RR, results=_berger_results(ids, scores)))
    assert {p: row(table, p).points for p in ids} == {"x": 7, "y": 7, "w": 7, "z": 7, "e": 5, "f": 8}
    assert {p: row(table, p).tiebreak("mini_points") for p in ids} == {"x": 3, "y": 3, "w": 4, "z": 7, "e": 0, "f": 0}
    assert order(table) == ["f", "z", "w", "y", "x", "e"]
    assert row(table, "y").tiebreak("goal_difference") == 5 and row(table, "x").tiebreak("goal_difference") == 0


def test_players_equal_on_everything_share_the_rank() -> None:
    """Two players who drew and scored alike share their rank."""
    table = standings_of(doc(players("a", "b"), stages=RR, results=[{"round": 1, "matches": [m("a", "b", (2, 2))]}]))
    assert [(r.rank, r.shared) for r in table.rows] == [(1, True), (1, True)]


def test_a_suspended_player_s_match_is_listed_with_the_walkover_already_set() -> None:
    """A red card in round 1: round 2's match of that player is a walkover for his opponent."""
    d = doc(players("a", "b", "c", "d"), stages=RR,
            results=[{"round": 1, "matches": [m("a", "d", (1, 0)), m("b", "c", (0, 0))]}],
            discipline=[{"round": 1, "player": "c", "card": "red"}])
    p = pairing_of(d)
    assert {(x.home, x.away, x.walkover) for x in p.matches} == {("d", "c", "home"), ("a", "b", None)}
    assert p.not_paired == ()


def test_both_players_out_drops_the_match_and_lists_both_as_not_paired() -> None:
    """Both players of a scheduled match absent: nobody gets the walkover, both are not_paired."""
    d = doc(players("a", "b", "c", "d"), stages=RR,
            absent=[{"round": 1, "player": "a"}, {"round": 1, "player": "d"}])
    p = pairing_of(d)
    assert pairs(p) == [("b", "c")]
    assert sorted((u.player, u.why) for u in p.not_paired) == [("a", "absent"), ("d", "absent")]


def test_results_must_follow_the_berger_table_either_way_round() -> None:
    """A pair the table does not schedule this round is BAD_RESULT; home and away swapped is accepted."""
    wrong = doc(players("a", "b", "c", "d"), stages=RR,
                results=[{"round": 1, "matches": [m("a", "b", (1, 0)), m("c", "d", (1, 0))]}])
    code, message = refusal(wrong, "follow")
    assert code == "BAD_RESULT" and "Berger" in message and "a v b" in message
    swapped = doc(players("a", "b", "c", "d"), stages=RR,
                  results=[{"round": 1, "matches": [m("d", "a", (1, 0)), m("c", "b", (1, 0))]}])
    assert standings_of(swapped).after_round == 1


def test_a_complete_round_robin_has_nothing_to_pair() -> None:
    """After the last Berger round: NOTHING_TO_PAIR."""
    ids = ["a", "b", "c"]
    results = []
    for number, r in enumerate(berger_rounds(3), start=1):
        results.append({"round": number, "matches": [m(ids[h - 1], ids[a - 1], (1, 0)) for h, a in r.pairs]})
    d = doc(players(*ids), stages=RR, results=results)
    assert refusal(d)[0] == "NOTHING_TO_PAIR"
    assert standings_of(d).complete


def test_a_scheduled_match_left_out_of_a_round_is_simply_not_played() -> None:
    """Round 1 lists one of its two Berger matches: the round is finished and round 2 is paired."""
    d = doc(players("a", "b", "c", "d"), stages=RR, results=[{"round": 1, "matches": [m("a", "d", (1, 0))]}])
    assert standings_of(d).after_round == 1
    assert pairing_of(d).round == 2


def test_a_late_entry_cannot_join_a_round_robin_that_has_begun() -> None:
    """A fifth player changes the Berger table, so the round already played no longer fits it: BAD_RESULT."""
    d = doc(players("a", "b", "c", "d"), stages=RR,
            results=[{"round": 1, "matches": [m("a", "d", (1, 0)), m("b", "c", (1, 0))]}])
    d["players"].append({"id": "e", "name": "E"})
    assert refusal(d, "follow")[0] == "BAD_RESULT"

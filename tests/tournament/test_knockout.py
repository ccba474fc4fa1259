"""Knockout: the standard bracket order, byes to the top seeds, places from the last matches, the final's ruleset."""

from __future__ import annotations

import pytest

from shared.draws import draw
from shared.tournament.bracket import bracket_size, opening_round, rounds_total
from shared.tournament.pairing import pair
from shared.tournament.reading import read_tournament
from tests.tournament.builders import Doc, bye, doc, m, order, pairing_of, pairs, players, refusal, row, standings_of

SEEDS = [f"s{i}" for i in range(1, 17)]
RATED: dict[str, int | None] = {f"s{i}": 2000 - 10 * i for i in range(1, 17)}


def test_the_bracket_of_sixteen_is_in_the_standard_order() -> None:
    """1-16, 8-9, 5-12, 4-13, 3-14, 6-11, 7-10, 2-15 (better seed at home)."""
    first = opening_round(SEEDS)
    assert [(x.home, x.away) for x in first.matches] == [
        ("s1", "s16"), ("s8", "s9"), ("s5", "s12"), ("s4", "s13"),
        ("s3", "s14"), ("s6", "s11"), ("s7", "s10"), ("s2", "s15"),
    ]


@pytest.mark.parametrize("n", range(2, 33))
def test_missing_places_are_byes_for_the_top_seeds(n: int) -> None:
    """In a bracket of the next power of two, the byes are exactly seeds 1..(size - n)."""
    first = opening_round([f"s{i}" for i in range(1, n + 1)])
    size = bracket_size(n)
    assert size >= n > size // 2
    assert sorted(first.byes, key=lambda s: int(s[1:])) == [f"s{i}" for i in range(1, size - n + 1)]
    assert 2 * len(first.matches) + len(first.byes) == n
    assert 2 ** rounds_total(n) == size


def test_rating_seeding_and_the_first_round_by_seed() -> None:
    """seeding: rating puts the best rated first: eight players meet 1-8, 4-5, 3-6, 2-7 in that bracket order."""
    ids = SEEDS[:8]
    d = doc(players(*ids, ratings=RATED), stages=[{"system": "knockout", "seeding": "rating"}])
    assert sorted(pairs(pairing_of(d))) == sorted([("s1", "s8"), ("s4", "s5"), ("s3", "s6"), ("s2", "s7")])


def test_a_first_stage_knockout_is_drawn_by_the_seed() -> None:
    """Without rating seeding the seeds are the players in the order of the documented draw."""
    ids = SEEDS[:4]
    d = doc(players(*ids), seed=42, stages=[{"system": "knockout"}])
    seeds = sorted(ids, key=lambda p: draw(42, "tournament", "seeding", 0, p))
    assert sorted(pairs(pairing_of(d))) == sorted([(seeds[0], seeds[3]), (seeds[1], seeds[2])])


def _six() -> Doc:
    """Six seeded players with a match for third place, through round 2 (semi-finals)."""
    return doc(
        players(*SEEDS[:6], ratings=RATED),
        stages=[{"system": "knockout", "seeding": "rating", "third_place": True}],
        results=[
            {"round": 1, "matches": [bye("s1"), m("s4", "s5", (2, 2), shootout="away"), m("s3", "s6", (0, 1)),
                                     bye("s2")]},
            {"round": 2, "matches": [m("s1", "s5", (3, 1)), m("s2", "s6", (1, 1), shootout="home")]},
        ],
    )


def test_the_last_round_has_the_final_at_table_one_and_the_match_for_third_place() -> None:
    """Final s1-s2 under the final ruleset at table 1; s5-s6 for third place under the knockout ruleset."""
    p = pairing_of(_six())
    assert [(x.table, x.home, x.away, x.kind, x.ruleset) for x in p.matches] == [
        (1, "s1", "s2", "final", "final"), (2, "s5", "s6", "third_place", "ko")
    ]


def test_knockout_places_come_from_the_last_matches_then_the_round_reached() -> None:
    """s2 beat s1 in the final, s5 beat s6 for third; the first-round losers s3 and s4 share 5th."""
    d = _six()
    d["results"].append({"round": 3, "matches": [m("s1", "s2", (0, 2)), m("s5", "s6", (1, 0))]})
    table = standings_of(d)
    assert table.complete and table.after_round == 3
    assert [(r.rank, r.shared, r.player) for r in table.rows] == [
        (1, False, "s2"), (2, False, "s1"), (3, False, "s5"), (4, False, "s6"), (5, True, "s3"), (5, True, "s4")
    ]
    assert {r.player: r.tiebreak("reached") for r in table.rows} == {
        "s2": 3, "s1": 3, "s5": 2, "s6": 2, "s3": 1, "s4": 1
    }
    s2, s5 = row(table, "s2"), row(table, "s5")
    assert (s2.played, s2.wins, s2.losses, s2.byes, s2.draws, s2.points) == (2, 2, 0, 1, 0, 6)
    assert (s5.played, s5.wins, s5.losses, s5.goals_for, s5.goals_against) == (3, 2, 1, 4, 5)


def test_without_a_match_for_third_place_the_semi_final_losers_share_third() -> None:
    """Four players, no third_place: the two semi-final losers are both 3rd."""
    d = doc(players(*SEEDS[:4], ratings=RATED), stages=[{"system": "knockout", "seeding": "rating"}],
            results=[{"round": 1, "matches": [m("s1", "s4", (1, 0)), m("s3", "s2", (2, 0))]},
                     {"round": 2, "matches": [m("s1", "s3", (0, 1))]}])
    table = standings_of(d)
    assert [(r.rank, r.player) for r in table.rows] == [(1, "s3"), (2, "s1"), (3, "s2"), (3, "s4")]


def test_while_the_knockout_runs_the_players_still_in_share_the_top_rank() -> None:
    """After round 1 of six: the four still in share rank 1 (by seed), the two out share rank 5."""
    d = _six()
    d["results"] = d["results"][:1]
    table = standings_of(d)
    assert [(r.rank, r.player) for r in table.rows] == [
        (1, "s1"), (1, "s2"), (1, "s5"), (1, "s6"), (5, "s3"), (5, "s4")
    ]
    assert row(table, "s1").tiebreak("reached") == 2


def test_an_absent_player_loses_his_match_by_walkover_in_the_pairing() -> None:
    """s6 absent in round 2: his semi-final is listed with the walkover for s2."""
    d = _six()
    d["results"] = d["results"][:1]
    d["absent"] = [{"round": 2, "player": "s6"}]
    p = pairing_of(d)
    assert ("s2", "s6", "home") in {(x.home, x.away, x.walkover) for x in p.matches}


def test_a_drawn_knockout_match_needs_a_shootout() -> None:
    """A knockout score without a winner is BAD_RESULT; a shoot-out in a Swiss match too."""
    d = doc(players("a", "b"), stages=[{"system": "knockout"}],
            results=[{"round": 1, "matches": [m("a", "b", (1, 1))]}])
    code, message = refusal(d, "follow")
    assert code == "BAD_RESULT" and "winner" in message
    swiss = doc(players("a", "b"), results=[{"round": 1, "matches": [m("a", "b", (1, 1), shootout="home")]}])
    assert refusal(swiss, "follow")[0] == "BAD_RESULT"


def test_results_must_follow_the_bracket() -> None:
    """A round-2 match between players the bracket does not pair is BAD_RESULT."""
    d = _six()
    d["results"][1]["matches"] = [m("s1", "s6", (1, 0)), m("s2", "s5", (1, 0))]
    code, message = refusal(d, "follow")
    assert code == "BAD_RESULT" and "bracket" in message


def test_a_round_missing_a_bracket_match_is_unfinished() -> None:
    """Round 2 listing only one semi-final: the round is not finished, so pairing is ROUND_ORDER."""
    d = _six()
    d["results"][1]["matches"] = d["results"][1]["matches"][:1]
    code, message = refusal(d)
    assert code == "ROUND_ORDER" and "still being played" in message


def test_the_champion_of_a_finished_knockout_leaves_nothing_to_pair() -> None:
    """After the final: NOTHING_TO_PAIR."""
    d = doc(players("a", "b"), stages=[{"system": "knockout"}],
            results=[{"round": 1, "matches": [m("a", "b", (0, 3))]}])
    assert refusal(d)[0] == "NOTHING_TO_PAIR"
    assert order(standings_of(d)) == ["b", "a"]
    assert pair(read_tournament(doc(players("a", "b"), stages=[{"system": "knockout"}]))).matches[0].kind == "final"


def test_when_both_players_of_a_knockout_match_are_out_the_better_seed_gets_the_walkover() -> None:
    """Both finalists absent: the final is listed with the walkover for the home player (the better seed)."""
    d = doc(players("a", "b"), stages=[{"system": "knockout"}],
            absent=[{"round": 1, "player": "a"}, {"round": 1, "player": "b"}])
    (final,) = pairing_of(d).matches
    assert final.walkover == "home" and pairing_of(d).not_paired == ()

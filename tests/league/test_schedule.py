"""The schedule of a team match: the rotation of TOURNAMENT.md, home and away by the round's parity, boards."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from shared.league.errors import LeagueError
from shared.league.reading import read_league
from shared.league.schedule import ScheduledRound, opponent_index, schedule, team_match, to_json
from tests.league.builders import doc, fixture, roster, team

A5, B5 = roster("a", 5), roster("b", 5)


def _pairs(rounds: Sequence[ScheduledRound]) -> list[list[tuple[str, str]]]:
    """Each round's (home, away) pairs in board order."""
    return [[(g.home, g.away) for g in r.games] for r in rounds]


def test_round_r_pairs_ai_with_b_of_i_plus_r_minus_2_mod_k_plus_1() -> None:
    """The contract's formula, for every board and round of a 5×5 match (25 games)."""
    rounds = schedule(A5, B5)
    assert [r.round for r in rounds] == [1, 2, 3, 4, 5]
    for r in rounds:
        for g in r.games:
            a = A5[g.board - 1]
            b = B5[(g.board + r.round - 2) % 5]
            assert {g.home, g.away} == {a, b}
            assert opponent_index(g.board, r.round, 5) == B5.index(b) + 1
    assert sum(len(r.games) for r in rounds) == 25


def test_the_three_player_schedule_is_the_rotation_written_out() -> None:
    """3×3, by hand: round 1 A1-B1 A2-B2 A3-B3; round 2 (B home) B2-A1 B3-A2 B1-A3; round 3 A1-B3 A2-B1 A3-B2."""
    assert _pairs(schedule(["a1", "a2", "a3"], ["b1", "b2", "b3"])) == [
        [("a1", "b1"), ("a2", "b2"), ("a3", "b3")],
        [("b2", "a1"), ("b3", "a2"), ("b1", "a3")],
        [("a1", "b3"), ("a2", "b1"), ("a3", "b2")],
    ]


def test_odd_rounds_have_as_player_home_and_even_rounds_bs() -> None:
    """In rounds 1, 3, 5 the home team's player is home; in rounds 2 and 4 the away team's."""
    for r in schedule(A5, B5):
        homes = {g.home for g in r.games}
        assert homes == (set(A5) if r.round % 2 == 1 else set(B5))


def test_board_i_is_the_ith_player_of_the_home_lineup_in_every_round() -> None:
    """Board numbers follow A's line-up, whoever is home in the round."""
    lineup = ["a3", "a1", "a5", "a2", "a4"]
    for r in schedule(lineup, B5):
        assert [g.board for g in r.games] == [1, 2, 3, 4, 5]
        assert [g.home if r.round % 2 == 1 else g.away for g in r.games] == lineup


def test_lineups_of_different_lengths_have_no_schedule() -> None:
    """A team match needs two line-ups of k players."""
    with pytest.raises(ValueError, match="two of k"):
        schedule(A5, B5[:4])


def test_the_team_match_object_is_the_contracts() -> None:
    """``sprtec-team-match/1``: format, fixture, home, away, rounds of {round, games of {board, home, away}}."""
    league = read_league(doc([team("most"), team("brno")], [fixture("m1", "most", "brno", "")]))
    printed = to_json(team_match(league, "m1"))
    assert list(printed) == ["format", "fixture", "home", "away", "rounds"]
    assert (printed["format"], printed["fixture"], printed["home"], printed["away"]) == (
        "sprtec-team-match/1", "m1", "most", "brno")
    assert printed["rounds"][0] == {"round": 1, "games": [{"board": n, "home": f"most{n}", "away": f"brno{n}"}
                                                          for n in range(1, 6)]}


def test_an_unknown_fixture_is_unknown_fixture_and_one_without_both_lineups_has_no_schedule_yet() -> None:
    """``UNKNOWN_FIXTURE`` naming the id; a fixture whose line-ups are not both given is ``ROUND_ORDER``."""
    league = read_league(doc([team("a"), team("b")], [fixture("m1", "a", "b")]))
    with pytest.raises(LeagueError) as unknown:
        team_match(league, "m7")
    assert unknown.value.code == "UNKNOWN_FIXTURE" and "'m7'" in unknown.value.message
    with pytest.raises(LeagueError) as early:
        team_match(league, "m1")
    assert early.value.code == "ROUND_ORDER" and "not given" in early.value.message

"""Referee duty's pure assignment (XVII.1-XVII.3): properties over random fields and rounds, and one test per rule."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.tournament.referee_duty import Board, assign_referees, halves


@st.composite
def _rounds(draw: st.DrawFn) -> tuple[list[str], dict[str, str], list[list[str]], frozenset[int]]:
    """Players with clubs (some without), and several rounds each a shuffled field paired in order (a bye when
    odd), and tables whose players agreed to a clubmate."""
    n = draw(st.integers(4, 24))
    players = [f"p{i}" for i in range(n)]
    clubs = {p: draw(st.sampled_from(["", "A", "B", "C", "D", "E"])) for p in players}
    rounds = [draw(st.permutations(players)) for _ in range(draw(st.integers(1, 7)))]
    agreed = frozenset(draw(st.sets(st.integers(1, n // 2), max_size=2)))
    return players, clubs, [list(r) for r in rounds], agreed


@settings(max_examples=60, deadline=None)
@given(_rounds())
def test_XVII_2_referees_never_play_their_board_nor_its_half_nor_share_a_club_unless_agreed(case) -> None:
    """XVII.1-XVII.3 hold for every assignment; nobody referees twice in a round."""
    players, clubs, rounds, agreed = case
    refereed = {p: 0 for p in players}
    played = {p: 0 for p in players}
    for order in rounds:
        boards = [Board(table=i + 1, home=order[2 * i], away=order[2 * i + 1]) for i in range(len(order) // 2)]
        chosen = assign_referees(boards, order, clubs=clubs, refereed=refereed, played=played, agreed=agreed)
        assert len(set(chosen.values())) == len(chosen)
        assert any(all(halves(boards, first).get(referee, 2) != (0 if table <= first else 1)
                       for table, referee in chosen.items())
                   for first in ((len(boards) + 1) // 2, len(boards) // 2))  # one split of the round holds
        for b in boards:
            referee = chosen.get(b.table)
            if referee is None:
                continue
            assert referee not in (b.home, b.away)
            if clubs[referee] and b.table not in agreed:
                assert clubs[referee] not in (clubs[b.home], clubs[b.away])
        for referee in chosen.values():
            refereed[referee] += 1
        for p in order[: 2 * len(boards)]:
            played[p] += 1


@settings(max_examples=40, deadline=None)
@given(st.integers(8, 40).filter(lambda n: n % 2 == 0), st.integers(2, 7), st.randoms(use_true_random=False))
def test_everyone_referees_about_half_as_often_as_he_plays(n, rounds, rng) -> None:
    """Without clubs in the way, every board gets a referee and after each round every player's refereed count is
    within one of half his played rounds - never below the program's floor by more than one."""
    players = [f"p{i}" for i in range(n)]
    refereed = {p: 0 for p in players}
    played = {p: 0 for p in players}
    for _ in range(rounds):
        order = players[:]
        rng.shuffle(order)
        boards = [Board(table=i + 1, home=order[2 * i], away=order[2 * i + 1]) for i in range(n // 2)]
        chosen = assign_referees(boards, order, clubs={}, refereed=refereed, played=played)
        assert sorted(chosen) == [b.table for b in boards]
        for referee in chosen.values():
            refereed[referee] += 1
        for p in players:
            played[p] += 1
        for p in players:
            assert abs(2 * refereed[p] - played[p]) <= 2, (p, refereed[p], played[p])


def test_the_assignment_is_a_pure_function_of_the_round_and_the_counts() -> None:
    """The same input twice gives the same referees, whatever was asked in between."""
    boards = [Board(table=i + 1, home=f"p{2 * i}", away=f"p{2 * i + 1}") for i in range(6)]
    candidates = [f"p{i}" for i in range(12)] + ["bye"]
    clubs = {f"p{i}": "ABC"[i % 3] for i in range(12)}
    first = assign_referees(boards, candidates, clubs=clubs, refereed={}, played={})
    assign_referees(boards[::-1], candidates[::-1], clubs={}, refereed={}, played={})
    assert assign_referees(boards, candidates, clubs=clubs, refereed={}, played={}) == first


def test_XVII_1_a_player_without_a_match_in_the_round_referees_any_board() -> None:
    """A final alone: its referee is a player who does not play in the round."""
    chosen = assign_referees([Board(table=1, home="a", away="b")], ["a", "b", "c"], clubs={}, refereed={},
                             played={})
    assert chosen == {1: "c"}


def test_XVII_2_a_board_only_clubmates_could_referee_is_left_for_the_organiser() -> None:
    """The only free player is of home's club: no referee (the organiser names one, XVII.3)."""
    chosen = assign_referees([Board(table=1, home="a", away="b")], ["a", "b", "c"], clubs={"a": "X", "c": "X"},
                             refereed={}, played={})
    assert chosen == {}


def test_XVII_3_agreed_players_take_a_clubmate() -> None:
    """The same board whose players agreed: the clubmate referees it."""
    chosen = assign_referees([Board(table=1, home="a", away="b")], ["a", "b", "c"], clubs={"a": "X", "c": "X"},
                             refereed={}, played={}, agreed={1})
    assert chosen == {1: "c"}


def test_the_player_furthest_behind_on_refereeing_is_taken_first() -> None:
    """Two free players: the one who refereed less for what he played referees."""
    chosen = assign_referees([Board(table=1, home="a", away="b")], ["a", "b", "c", "d"], clubs={},
                             refereed={"c": 2, "d": 0}, played={"c": 4, "d": 4})
    assert chosen == {1: "d"}

"""Swiss standings, checked against numbers worked out by hand from TOURNAMENT.md (3/1/0, bye and walkover 5:0,
goals capped at 5 unless a test says otherwise)."""

from __future__ import annotations

from tests.tournament.builders import bye, doc, m, order, players, rounds, row, standings_of


def test_buchholz_counts_an_opponents_unplayed_round_as_a_draw() -> None:
    """e plays round 1 and is absent in round 2: for c, who beat e, e's points count 0 + 1 (a draw)."""
    d = doc(
        players("a", "b", "c", "d", "e"),
        results=rounds([m("a", "b", (2, 0)), m("c", "e", (4, 1)), bye("d")],
                       [m("a", "c", (1, 1)), m("b", "d", (0, 2))]),
        absent=[{"stage": 0, "round": 2, "player": "e"}],
    )
    table = standings_of(d)
    # points: a 3+1, b 0, c 3+1, d bye 3 + 3, e 0 (one round unplayed: counts 1 for Buchholz)
    assert {p: row(table, p).points for p in "abcde"} == {"a": 4, "b": 0, "c": 4, "d": 6, "e": 0}
    assert {p: row(table, p).tiebreak("buchholz") for p in "abcde"} == {"a": 4, "b": 10, "c": 5, "d": 0, "e": 4}
    assert {p: row(table, p).tiebreak("goals_capped") for p in "abcde"} == {"a": 3, "b": 0, "c": 5, "d": 7, "e": 1}
    assert {p: row(table, p).tiebreak("buchholz2") for p in "abcde"} == {"a": 15, "b": 4, "c": 8, "d": 10, "e": 5}
    # a and c drew, so their head-to-head decides nothing: c's Buchholz 5 beats a's 4; b and e never met
    assert order(table) == ["d", "c", "a", "b", "e"]
    assert [r.rank for r in table.rows] == [1, 2, 3, 4, 5] and not any(r.shared for r in table.rows)


def test_counting_of_byes_walkovers_and_unplayed_rounds() -> None:
    """A bye is a played win 5:0, an absent round is unplayed with 0 points."""
    d = doc(
        players("a", "b", "c", "d", "e"),
        results=rounds([m("a", "b", (2, 0)), m("c", "e", (4, 1)), bye("d")],
                       [m("a", "c", (1, 1)), m("b", "d", (0, 2))]),
        absent=[{"stage": 0, "round": 2, "player": "e"}],
    )
    table = standings_of(d)
    dd, e = row(table, "d"), row(table, "e")
    assert (dd.played, dd.wins, dd.draws, dd.losses, dd.byes, dd.goals_for, dd.goals_against) == (2, 2, 0, 0, 1, 7, 0)
    assert (e.played, e.wins, e.draws, e.losses, e.byes, e.goals_for, e.goals_against) == (1, 0, 0, 1, 0, 1, 4)


def test_capped_goals_cap_a_match_a_bye_and_a_walkover_win_and_give_a_walkover_loss_nothing() -> None:
    """goals_cap 3, bye 4:0, walkover 5:0: 7:2 counts 3 and 2, the bye 3, the walkover win 3, its loss 0."""
    d = doc(
        players("a", "b", "c", "d", "e"),
        results=rounds([m("a", "b", (7, 2)), m("c", "d", walkover="home"), bye("e")]),
        settings={"goals_cap": 3, "bye_score": [4, 0], "walkover_score": [5, 0]},
    )
    table = standings_of(d)
    assert {p: row(table, p).tiebreak("goals_capped") for p in "abcde"} == {"a": 3, "b": 2, "c": 3, "d": 0, "e": 3}
    c, dd, e = row(table, "c"), row(table, "d"), row(table, "e")
    assert (c.points, c.wins, c.goals_for, c.goals_against, c.played) == (3, 1, 5, 0, 1)
    assert (dd.points, dd.losses, dd.goals_for, dd.goals_against, dd.played) == (0, 1, 0, 5, 1)
    assert (e.goals_for, e.goals_against, e.byes) == (4, 0, 1)


def test_a_walkover_loss_is_a_played_round_with_no_opponent_for_buchholz() -> None:
    """c beat a by walkover: a's Buchholz counts only b, and a's walkover round is not an unplayed one."""
    d = doc(
        players("a", "b", "c", "d", "e", "f"),
        results=rounds([m("a", "b", (1, 0)), m("c", "d", (0, 0)), m("e", "f", (2, 2))],
                       [m("a", "c", walkover="away"), m("b", "e", (3, 0)), m("d", "f", (1, 1))]),
    )
    table = standings_of(d)
    assert row(table, "a").tiebreak("buchholz") == 3  # b's 3 points; c came by walkover
    assert row(table, "b").tiebreak("buchholz") == 4  # a 3 + e 1
    assert row(table, "c").tiebreak("buchholz") == 2  # d's 2; a came by walkover
    assert (row(table, "a").played, row(table, "a").losses) == (2, 1)


def test_head_to_head_between_exactly_two_overrides_buchholz() -> None:
    """a and b alone on 3 points, a beat b: a is placed above b although b's Buchholz (4) beats a's (3)."""
    d = doc(
        players("a", "b", "c", "d", "e", "f"),
        results=rounds([m("a", "b", (1, 0)), m("c", "d", (0, 0)), m("e", "f", (2, 2))],
                       [m("a", "c", walkover="away"), m("b", "e", (3, 0)), m("d", "f", (1, 1))]),
    )
    table = standings_of(d)
    # c 4; a, b 3; d, f 2 (they drew: Buchholz d 4+2=6, f 1+2=3); e 1
    assert order(table) == ["c", "a", "b", "d", "f", "e"]
    assert not row(table, "a").shared and not row(table, "b").shared


def test_head_to_head_is_not_used_when_more_than_two_are_level() -> None:
    """Four players on 3 points: a beat b, but b (Buchholz 6) stays above a (Buchholz 3)."""
    d = doc(
        players("a", "b", "c", "d", "e", "f"),
        results=rounds([m("a", "b", (1, 0)), m("c", "d", (1, 0)), m("e", "f", (1, 0))],
                       [m("a", "c", walkover="away"), m("b", "e", (1, 0)), m("d", "f", (1, 0))]),
    )
    table = standings_of(d)
    # Buchholz: a 3 (b), b 6 (a 3 + e 3), d 6 (c 6 + f 0), e 3 (f 0 + b 3); capped goals all 1;
    # Buchholz of Buchholz: b 3 + 3 = 6, d 3 + 6 = 9 (c's Buchholz counts only d: a came by walkover), a 6, e 12
    assert order(table) == ["c", "d", "b", "e", "a", "f"]
    assert row(table, "d").tiebreak("buchholz2") == 9 and row(table, "b").tiebreak("buchholz2") == 6


def test_buchholz_of_buchholz_decides_when_points_buchholz_and_goals_are_level() -> None:
    """x and y: 6 points, Buchholz 4, capped goals 2; their opponents' Buchholz sums are 19 and 13."""
    d = doc(
        players("x", "y", "p", "q", "r", "t", "s1", "u1", "s2", "u2"),
        results=rounds(
            [m("x", "p", (1, 0)), m("y", "r", (1, 0)), m("q", "s1", (1, 1)), m("t", "u1", (1, 1)),
             m("s2", "u2", (1, 0))],
            [m("x", "q", (1, 0)), m("y", "t", (1, 0)), m("p", "s2", (1, 0)), m("r", "u2", (1, 0)),
             m("s1", "u1", (1, 0))],
        ),
    )
    table = standings_of(d)
    x, y = row(table, "x"), row(table, "y")
    assert (x.points, x.tiebreak("buchholz"), x.tiebreak("goals_capped")) == (6, 4, 2)
    assert (y.points, y.tiebreak("buchholz"), y.tiebreak("goals_capped")) == (6, 4, 2)
    assert (x.tiebreak("buchholz2"), y.tiebreak("buchholz2")) == (19, 13)
    assert (x.rank, y.rank) == (1, 2)


def test_players_equal_on_every_criterion_share_the_first_place_of_their_group() -> None:
    """Three on 6 points equal on everything share rank 1, the next three share rank 4."""
    d = doc(
        players("a", "b", "c", "d", "e", "f"),
        results=rounds([m("a", "b", (1, 0)), m("c", "d", (1, 0)), m("e", "f", (1, 0))],
                       [m("a", "d", (1, 0)), m("c", "f", (1, 0)), m("e", "b", (1, 0))]),
    )
    table = standings_of(d)
    assert [r.rank for r in table.rows] == [1, 1, 1, 4, 4, 4]
    assert all(r.shared for r in table.rows)
    assert set(order(table)[:3]) == {"a", "c", "e"}


def test_two_players_tied_for_fifth_are_both_fifth_and_the_next_is_seventh() -> None:
    """b and d lost to a and c by one goal each way round: equal on every criterion, they share 5th."""
    d = doc(
        players("a", "b", "c", "d", "e", "f", "g"),
        results=rounds([m("a", "b", (3, 0)), m("c", "d", (2, 0)), m("e", "f", walkover="home"), bye("g")]),
        settings={"bye_score": [4, 0]},
    )
    table = standings_of(d)
    # 3 points each: e (walkover, capped 5), g (bye, capped 4), a (3), c (2); b and d: 0 points, Buchholz 3,
    # capped 0, Buchholz of Buchholz 0; f lost by walkover: Buchholz 0
    assert order(table)[:4] == ["e", "g", "a", "c"] and order(table)[6] == "f"
    assert [r.rank for r in table.rows] == [1, 2, 3, 4, 5, 5, 7]
    assert [r.shared for r in table.rows] == [False, False, False, False, True, True, False]


def test_standings_count_finished_rounds_only() -> None:
    """A round with a match still being played is not counted yet: after_round stays at the last finished one."""
    d = doc(players("a", "b", "c", "d"),
            results=rounds([m("a", "b", (1, 0)), m("c", "d", (1, 0))], [m("a", "c", (2, 0)), m("b", "d")]))
    table = standings_of(d)
    assert table.after_round == 1
    assert row(table, "a").points == 3 and row(table, "a").played == 1


def test_a_walkover_counts_as_its_score_for_the_loser_but_nothing_toward_capped_goals() -> None:
    """walkover_score 3:1: the loser has 1 goal for and 3 against, but 0 capped goals."""
    d = doc(players("a", "b"), results=rounds([m("a", "b", walkover="home")]), settings={"walkover_score": [3, 1]})
    table = standings_of(d)
    loser = row(table, "b")
    assert (loser.goals_for, loser.goals_against, loser.tiebreak("goals_capped")) == (1, 3, 0)
    assert row(table, "a").tiebreak("goals_capped") == 3


def test_a_file_with_a_rematch_is_read_and_head_to_head_counts_decisive_wins() -> None:
    """a and b met twice (1:0, 0:3): one win each is no head-to-head; capped goals put b (3) above a (1)."""
    d = doc(players("a", "b"), results=rounds([m("a", "b", (1, 0))], [m("b", "a", (3, 0))]))
    table = standings_of(d)
    assert order(table) == ["b", "a"]
    assert row(table, "a").tiebreak("buchholz") == row(table, "b").tiebreak("buchholz") == 6


def test_card_totals_are_those_at_the_moment_of_the_standings() -> None:
    """A yellow in stage 1 does not show in the standings of stage 0 (--stage 0), and does in stage 1's."""
    d = doc(players("a", "b"), stages=[{"rounds": 1}, {"system": "knockout"}],
            results=[*rounds([m("a", "b", (1, 0))]), {"stage": 1, "round": 1, "matches": [m("a", "b", (2, 0))]}],
            discipline=[{"stage": 1, "round": 1, "player": "b", "card": "yellow"}])
    assert row(standings_of(d, 0), "b").yellow == 0
    assert row(standings_of(d), "b").yellow == 1

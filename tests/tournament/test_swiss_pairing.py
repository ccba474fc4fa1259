"""Swiss pairing by hand-worked cases: the bye rules, home and away, tables, round 1 random or seeded by rating."""

from __future__ import annotations

from shared.draws import draw
from shared.tournament.course import swiss_rounds
from shared.tournament.model import Stage
from tests.tournament.builders import Doc, bye, doc, m, order, pairing_of, pairs, players, refusal, rounds, standings_of


def _strict_five() -> Doc:
    """Six players after round 1 with strict standings e, a, c, f, b, d; f then withdraws."""
    return doc(
        players("a", "b", "c", "d", "e", "f"),
        results=rounds([m("a", "b", (3, 1)), m("c", "d", (2, 0)), m("e", "f", (4, 3))]),
        withdrawn=[{"player": "f", "after_round": 1}],
    )


def test_the_bye_goes_to_the_lower_half_but_not_to_the_last_place() -> None:
    """Five present, nobody has had a bye: the lower half is 4th and 5th, 5th is last, so 4th (b) gets it."""
    d = _strict_five()
    assert order(standings_of(d)) == ["e", "a", "c", "f", "b", "d"]
    p = pairing_of(d)
    assert p.byes == ("b",)
    assert [(u.player, u.why) for u in p.not_paired] == [("f", "withdrawn")]
    # e a c d: c and d met, so the two best pairings cost 4 (e-c, a-d or e-d, a-c)
    assert {frozenset(x) for x in pairs(p)} in ({frozenset("ec"), frozenset("ad")}, {frozenset("ed"), frozenset("ac")})


def test_the_bye_is_drawn_by_the_seed_among_the_lower_half() -> None:
    """Seven level players in round 1: the bye goes to 5th or 6th place, the one with the smaller documented draw."""
    d = doc(players("a", "b", "c", "d", "e", "f", "g"), seed=99)
    places = order(standings_of(d))
    candidates = places[4:6]
    expected = min(candidates, key=lambda p: draw(99, "tournament", "bye", 0, 1, p))
    assert pairing_of(d).byes == (expected,)


def test_the_candidates_widen_upwards_when_the_lower_half_has_had_byes_and_home_goes_to_fewer_home_matches() -> None:
    """Order a e c d b: d (4th) had a bye and b is last, so 3rd place c gets it; e and d have fewer home matches."""
    d = doc(
        players("a", "b", "c", "d", "e"),
        results=rounds([m("a", "b", (1, 0)), m("c", "d", (1, 0)), bye("e")],
                       [m("a", "c", (1, 0)), m("b", "e", (0, 1)), bye("d")]),
    )
    assert order(standings_of(d)) == ["a", "e", "c", "d", "b"]
    p = pairing_of(d)
    assert p.byes == ("c",)
    # a was home twice, e never: e is home; d was never home, b once: d is home
    assert pairs(p) == [("e", "a"), ("d", "b")]
    assert [x.table for x in p.matches] == [1, 2]


def test_the_last_place_gets_the_bye_when_nobody_else_is_without_one() -> None:
    """Four players had byes in round 1 (a file may list several); only e, last, has none: e gets it."""
    d = doc(players("a", "b", "c", "d", "e"), results=rounds([bye("a"), bye("b"), bye("c"), bye("d")]))
    assert order(standings_of(d))[-1] == "e"
    assert pairing_of(d).byes == ("e",)


def test_a_walkover_counts_as_a_home_match() -> None:
    """a won round 1 by walkover at home, c won away: in round 2 c (no home match) is home against a."""
    d = doc(players("a", "b", "c", "d"), results=rounds([m("a", "b", walkover="home"), m("d", "c", (0, 1))]))
    assert order(standings_of(d))[:2] == ["a", "c"]
    assert pairs(pairing_of(d)) == [("c", "a"), ("b", "d")]


def test_a_bye_is_not_a_home_match() -> None:
    """a had a bye (no home match), b one home match: a is home although b is placed above him."""
    d = doc(players("a", "b", "c", "d", "e"),
            results=rounds([bye("a"), m("b", "c", (6, 0)), m("d", "e", (0, 0))]),
            settings={"bye_score": [1, 0]})
    assert order(standings_of(d))[:2] == ["b", "a"]
    p = pairing_of(d)
    assert pairs(p)[0] == ("a", "b")


def test_equal_home_matches_put_the_better_placed_player_at_home() -> None:
    """Round 1: nobody has played, so the better placed of each pair (by the seed's order) is home."""
    d = doc(players("a", "b", "c", "d", "e", "f"), seed=5)
    places = order(standings_of(d))
    p = pairing_of(d)
    for match in p.matches:
        assert places.index(match.home) < places.index(match.away)


def test_round_one_is_drawn_from_the_seed_and_pairs_neighbours_of_that_draw() -> None:
    """A random pairing from the seed: players ordered by the documented draw, then 1-2, 3-4, 5-6."""
    d = doc(players("a", "b", "c", "d", "e", "f"), seed=2024)
    drawn = sorted("abcdef", key=lambda p: draw(2024, "tournament", "place", 0, 0, p))
    assert pairs(pairing_of(d)) == [(drawn[0], drawn[1]), (drawn[2], drawn[3]), (drawn[4], drawn[5])]
    other = pairs(pairing_of(doc(players("a", "b", "c", "d", "e", "f"), seed=2025)))
    assert other != pairs(pairing_of(d))


def test_rating_seeding_pairs_the_top_half_against_the_bottom_half() -> None:
    """Six rated players: 1-4, 2-5, 3-6 by rating, the higher rated at home."""
    ratings: dict[str, int | None] = {"a": 1500, "b": 1900, "c": 1700, "d": 1600, "e": 1800, "f": 1400}
    d = doc(players(*ratings, ratings=ratings), stages=[{"system": "swiss", "seeding": "rating"}])
    assert pairs(pairing_of(d)) == [("b", "d"), ("e", "a"), ("c", "f")]


def test_rating_seeding_puts_unrated_players_last_and_the_bye_in_the_lower_half() -> None:
    """1800 1700 1600 1500 and one unrated: the bye goes to 1500 (4th; the unrated is last), then halves."""
    ratings: dict[str, int | None] = {"a": 1600, "b": 1800, "c": None, "d": 1500, "e": 1700}
    d = doc(players(*ratings, ratings=ratings), stages=[{"system": "swiss", "seeding": "rating"}])
    p = pairing_of(d)
    assert p.byes == ("d",)
    assert pairs(p) == [("b", "a"), ("e", "c")]


def test_tables_are_numbered_from_the_top_of_the_standings() -> None:
    """Table 1 holds the pair with the best-placed player, and so on down."""
    d = doc(players(*"abcdefgh"),
            results=rounds([m("a", "b", (5, 0)), m("c", "d", (4, 0)), m("e", "f", (3, 0)), m("g", "h", (2, 0))]))
    places = order(standings_of(d))
    best = [min(places.index(x.home), places.index(x.away)) for x in pairing_of(d).matches]
    assert best == sorted(best)


def test_later_rounds_pair_neighbours_in_the_standings_without_rematches() -> None:
    """After round 1 (a c e g won), the cheapest rematch-free pairing is 1-2, 3-4, 5-6, 7-8 of the standings."""
    d = doc(players(*"abcdefgh"),
            results=rounds([m("a", "b", (5, 0)), m("c", "d", (4, 0)), m("e", "f", (3, 0)), m("g", "h", (2, 0))]))
    places = order(standings_of(d))
    assert places[:4] == ["a", "c", "e", "g"]
    got = {frozenset(x) for x in pairs(pairing_of(d))}
    assert got == {frozenset(places[i:i + 2]) for i in (0, 2, 4, 6)}


def test_no_pairing_when_everyone_has_met_everyone() -> None:
    """Four players after three rounds have all met: a fourth round has no legal pairing."""
    d = doc(players("a", "b", "c", "d"),
            results=rounds([m("a", "b", (1, 0)), m("c", "d", (1, 0))], [m("a", "c", (1, 0)), m("b", "d", (1, 0))],
                           [m("a", "d", (1, 0)), m("b", "c", (1, 0))]))
    code, message = refusal(d)
    assert code == "NO_PAIRING" and "round 4" in message


def test_a_walkover_counts_as_a_meeting() -> None:
    """a and b met only by walkover: the second round does not pair them again."""
    d = doc(players("a", "b", "c", "d"), results=rounds([m("a", "b", walkover="home"), m("c", "d", (1, 0))]))
    got = {frozenset(x) for x in pairs(pairing_of(d))}
    assert frozenset("ab") not in got and frozenset("cd") not in got


def test_absent_and_late_players() -> None:
    """An absent player is not paired (not_paired: absent); a late entry is paired from his first round."""
    d = doc(players("a", "b", "c", "d", "late"),
            results=rounds([m("a", "b", (1, 0)), m("c", "d", (1, 0))]),
            absent=[{"round": 2, "player": "c"}])
    p = pairing_of(d)
    assert [(u.player, u.why) for u in p.not_paired] == [("c", "absent")]
    assert "late" in {x for pair in pairs(p) for x in pair} | set(p.byes)


def test_rounds_follow_the_field_size_unless_given() -> None:
    """5 rounds up to 32 players, 6 up to 64, 7 beyond; an explicit ``rounds`` wins; no players, no rounds."""
    assert [swiss_rounds(Stage(), n) for n in (1, 32, 33, 64, 65, 200)] == [5, 5, 6, 6, 7, 7]
    assert swiss_rounds(Stage(rounds=3), 100) == 3
    assert swiss_rounds(Stage(), 0) == 0


def test_home_matches_count_across_the_tournament_while_meetings_count_within_the_stage() -> None:
    """a was home against b in stage 0; stage 1 (a new Swiss) pairs them again with b at home."""
    d = doc(players("a", "b"), stages=[{"rounds": 1}, {"rounds": 1}], results=rounds([m("a", "b", (1, 0))]))
    p = pairing_of(d)
    assert (p.stage, pairs(p)) == (1, [("b", "a")])

"""Categories (TOURNAMENT.md "Categories"): each derivation rule, the explicit codes, and places within a category."""

from __future__ import annotations

from typing import Any

import pytest

from shared.tournament.berger import berger_rounds
from shared.tournament.categories import category_of
from shared.tournament.model import Player, Sex
from shared.tournament.ranking import rank
from shared.tournament.reading import read_tournament
from tests.tournament.builders import doc, m, rounds


def _player(*, category: str = "", born: int | None = None, sex: Sex | None = None, veteran: bool = False) -> Player:
    """A player with these category fields."""
    return Player(id="p", name="P", category=category, year_of_birth=born, sex=sex, veteran=veteran)


@pytest.mark.parametrize("born, sex, veteran, expected", [
    (1950, "m", True, "V"),  # veteran first
    (2016, "f", True, "V"),  # a veteran even when young
    (None, None, True, "V"),  # without a year: a veteran is V
    (2015, "m", False, "P"),  # age 11
    (2016, "f", False, "P"),  # a girl of 10: P before L
    (2012, "f", False, "L"),  # a woman of 14: L before Z
    (1990, "f", False, "L"),
    (None, "f", False, "L"),  # without a year: a woman is L
    (2014, "m", False, "Z"),  # age 12
    (2012, None, False, "Z"),  # age 14
    (2011, "m", False, "J"),  # age 15
    (2009, "m", False, "J"),  # age 17
    (2008, "m", False, "M"),  # age 18
    (1980, None, False, "M"),  # a year, no sex
    (None, "m", False, "?"),  # without a year anyone else is ?
    (None, None, False, "?"),
    (2026, "m", False, "P"),  # born in the season: age 0
])
def test_the_category_is_derived_in_the_contract_s_order(born: int | None, sex: Sex | None, veteran: bool,
                                                         expected: str) -> None:
    """V, then P (< 12), then L, then Z (< 15), then J (< 18), then M with a known year, else ?: age = 2026 - year."""
    assert category_of(_player(born=born, sex=sex, veteran=veteran), 2026) == expected


@pytest.mark.parametrize("code", ["P", "Z", "J", "L", "M", "V"])
def test_an_explicit_code_wins_over_what_would_be_derived(code: str) -> None:
    """A ``category`` that is one of the codes is the category, even without a season."""
    assert category_of(_player(category=code, born=1950, sex="f", veteran=True), 2026) == code
    assert category_of(_player(category=code), None) == code


@pytest.mark.parametrize("text", ["men", "m", "women", "v", "?", "juniors", " M", "MM"])
def test_anything_else_in_category_is_free_text_and_the_category_is_derived(text: str) -> None:
    """Only the exact upper-case letters are codes: ``"m"`` for a woman of 1990 is L, ``"?"`` for a man of 1980
    is M."""
    assert category_of(_player(category=text, born=1990, sex="f"), 2026) == "L"
    assert category_of(_player(category=text, born=1980, sex="m"), 2026) == "M"


def test_without_a_season_only_an_explicit_code_gives_a_category() -> None:
    """No cup.season and no date: a veteran, a woman and a man of 1980 are all ?."""
    for player in (_player(veteran=True), _player(sex="f"), _player(born=1980, sex="m")):
        assert category_of(player, None) == "?"


def test_the_season_is_the_cup_s_else_the_year_of_the_date_for_the_categories() -> None:
    """Born 2010: in the season 2026 (cup.season) a junior of 16; by the date 2022 alone a pupil of 12."""
    born: list[dict[str, Any]] = [{"id": "a", "name": "A", "year_of_birth": 2010, "sex": "m"}, {"id": "b", "name": "B"}]
    played: dict[str, Any] = {"stages": [{"rounds": 1}], "results": rounds([m("a", "b", (1, 0))])}
    by_cup = rank(read_tournament(doc(born, date="2022-05-01", cup={"tier": "expres", "season": 2026}, **played)))
    by_date = rank(read_tournament(doc(born, date="2022-05-01", **played)))
    assert (by_cup.season, by_cup.rows[0].category) == (2026, "J")
    assert (by_date.season, by_date.rows[0].category) == (2022, "Z")


def test_category_rank_counts_the_players_of_the_category_placed_strictly_above() -> None:
    """A round robin of four, all drawn: everyone shares 1st, so two men share category rank 1 and both win
    it; a ? player is ranked among the ? players and never wins."""
    people: list[dict[str, Any]] = [{"id": "m1", "name": "M1", "year_of_birth": 1980},
                                    {"id": "m2", "name": "M2", "year_of_birth": 1981},
                                    {"id": "f1", "name": "F1", "sex": "f"}, {"id": "u1", "name": "U1"}]
    ids = [p["id"] for p in people]
    results = [{"round": n, "matches": [m(ids[h - 1], ids[a - 1], (1, 1)) for h, a in r.pairs]}
               for n, r in enumerate(berger_rounds(4), start=1)]
    r = rank(read_tournament(doc(people, stages=[{"system": "round_robin"}], results=results, date="2026-01-01")))
    assert {x.player: (x.rank, x.shared, x.category, x.category_rank, x.category_winner) for x in r.rows} == {
        "m1": (1, True, "M", 1, True), "m2": (1, True, "M", 1, True), "f1": (1, True, "L", 1, True),
        "u1": (1, True, "?", 1, False),
    }


def test_category_rank_below_the_first_place_of_a_category() -> None:
    """A Swiss round of four men and a woman: the men are M 1-4 down the ranking, the woman (sharing 4th with
    a man) is L 1 and wins her category."""
    people: list[dict[str, Any]] = [
        {"id": i, "name": i.upper(), "year_of_birth": 1990, "sex": "f" if i == "w" else "m"} for i in "abcdw"
    ]
    d = doc(people, stages=[{"rounds": 1}], date="2026-01-01",
            results=rounds([m("a", "b", (4, 0)), m("c", "w", (1, 0)), {"bye": "d"}]))
    r = rank(read_tournament(d))
    by_player = {x.player: x for x in r.rows}
    men = [x.player for x in r.rows if x.category == "M"]
    assert [by_player[p].category_rank for p in men] == list(range(1, 5))
    assert (by_player["w"].category, by_player["w"].category_rank, by_player["w"].category_winner) == ("L", 1, True)

"""Swiss pairing and standings against brute force, over random histories (hypothesis).

A history is any file: random pairings (rematches included, as a file from elsewhere may have), random
results and walkovers, byes, absences. For small fields every perfect matching is enumerated, so the
engine's answer is checked against the contract's definition itself, not against a second implementation.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.tournament import draws
from shared.tournament.errors import TournamentError
from shared.tournament.pairing import pair
from shared.tournament.pairing_swiss import _pairs
from shared.tournament.reading import read_tournament
from shared.tournament.standings_swiss import head_to_head
from shared.tournament.writing import dumps
from tests.tournament.builders import Doc, doc, order, players, standings_of


@st.composite
def histories(draw: Any, smallest: int = 2, largest: int = 9, most_rounds: int = 4) -> dict[str, Any]:
    """A Swiss file of 2-9 players after 0-4 rounds of arbitrary pairings, and absences for the next round."""
    n = draw(st.integers(smallest, largest))
    ids = [f"p{i}" for i in range(n)]
    results = []
    played = draw(st.integers(0, most_rounds))
    for number in range(1, played + 1):
        shuffled = draw(st.permutations(ids))
        paired = draw(st.integers(0, n // 2))
        entries: list[dict[str, Any]] = []
        for i in range(paired):
            home, away = shuffled[2 * i], shuffled[2 * i + 1]
            if draw(st.integers(0, 9)) == 0:
                entries.append({"home": home, "away": away, "walkover": draw(st.sampled_from(["home", "away"]))})
            else:
                score = [draw(st.integers(0, 4)), draw(st.integers(0, 4))]
                entries.append({"home": home, "away": away, "score": score})
        for player in shuffled[2 * paired:]:
            if draw(st.booleans()):
                entries.append({"bye": player})
        results.append({"round": number, "matches": entries})
    absent = [{"round": played + 1, "player": p} for p in draw(st.lists(st.sampled_from(ids), max_size=2, unique=True))]
    return doc(players(*ids), seed=draw(st.integers(0, 2**32)), results=results, absent=absent,
               stages=[{"system": "swiss", "rounds": max(5, played + 1)}])


def _met(d: dict[str, Any]) -> set[frozenset[str]]:
    """Every pair that met in the file (a walkover is a meeting)."""
    return {frozenset((e["home"], e["away"])) for r in d["results"] for e in r["matches"] if "home" in e}


def _byes(d: dict[str, Any]) -> dict[str, int]:
    """Byes per player in the file."""
    out: dict[str, int] = {}
    for r in d["results"]:
        for e in r["matches"]:
            if "bye" in e:
                out[e["bye"]] = out.get(e["bye"], 0) + 1
    return out


def _matchings(people: list[str]) -> Iterator[list[tuple[str, str]]]:
    """Every perfect matching of an even list."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for i, other in enumerate(rest):
        for tail in _matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *tail]


def _best_cost(people: list[str], met: set[frozenset[str]]) -> int | None:
    """The smallest sum of place differences over rematch-free perfect matchings (None: there is none)."""
    place = {p: i for i, p in enumerate(people)}
    costs = [sum(abs(place[a] - place[b]) for a, b in mt) for mt in _matchings(people)
             if all(frozenset(x) not in met for x in mt)]
    return min(costs) if costs else None


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_pairing_is_rematch_free_complete_and_cheapest_whenever_a_rematch_free_pairing_exists(d: Doc) -> None:
    """Never a rematch while a rematch-free pairing exists; every present player paired but the bye; minimum cost."""
    present = [p for p in order(standings_of(d)) if p not in {a["player"] for a in d["absent"]}]
    met = _met(d)
    feasible: dict[str | None, int | None] = {None: _best_cost(present, met)}
    if len(present) % 2:
        feasible = {b: _best_cost([p for p in present if p != b], met) for b in present}
    try:
        p = pair(read_tournament(d))
    except TournamentError as exc:
        assert exc.code == "NO_PAIRING"
        assert all(cost is None for cost in feasible.values())
        return
    matched = [x for match in p.matches for x in (match.home, match.away)]
    assert sorted(matched + list(p.byes)) == sorted(present)
    assert all(frozenset((x.home, x.away)) not in met for x in p.matches)
    rest = [q for q in present if q not in p.byes]
    place = {q: i for i, q in enumerate(rest)}
    assert sum(abs(place[x.home] - place[x.away]) for x in p.matches) == feasible[p.byes[0] if p.byes else None]
    assert {u.player for u in p.not_paired} == {a["player"] for a in d["absent"]}


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_byes_go_to_the_fewest_byes_never_the_last_place_and_the_lower_half_first(d: Doc) -> None:
    """The bye: fewest byes first, the lower half before the upper, the last place only when nobody else can."""
    present = [p for p in order(standings_of(d)) if p not in {a["player"] for a in d["absent"]}]
    if len(present) % 2 == 0:
        return
    try:
        p = pair(read_tournament(d))
    except TournamentError:
        return
    met, byes = _met(d), _byes(d)
    (chosen,) = p.byes

    def works(candidate: str) -> bool:
        """The rest can be paired without a rematch when this candidate has the bye."""
        return _best_cost([q for q in present if q != candidate], met) is not None

    fewest = min(byes.get(q, 0) for q in present)
    if byes.get(chosen, 0) > fewest:
        assert not any(works(q) for q in present if byes.get(q, 0) == fewest)
        return
    peers = [q for q in present if byes.get(q, 0) == fewest and q != chosen and works(q)]
    if chosen == present[-1]:
        assert not peers, "the last place got the bye while another candidate could take it"
    lower = present[len(present) - len(present) // 2:]
    if any(q in lower and q != present[-1] for q in peers) or (chosen in lower and chosen != present[-1]):
        assert chosen in lower


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_standings_are_ordered_by_the_criteria(d: Doc) -> None:
    """Points, then (unless exactly two met decisively) Buchholz, capped goals, Buchholz of Buchholz; shared ranks
    exactly for players equal on all of them, numbered by the first place of their group."""
    from shared.tournament.course import follow

    t = read_tournament(d)
    sc = follow(t).current
    table = standings_of(d)
    rows = table.rows
    key = {r.player: (r.points, r.tiebreak("buchholz"), r.tiebreak("goals_capped"), r.tiebreak("buchholz2"))
           for r in rows}
    by_points: dict[int, list[str]] = {}
    for r in rows:
        by_points.setdefault(r.points, []).append(r.player)
    for upper, lower in pairwise(rows):
        assert upper.points >= lower.points
        group = by_points[upper.points]
        if upper.points == lower.points and len(group) == 2 and head_to_head(sc, table.after_round, group):
            assert head_to_head(sc, table.after_round, group) == upper.player
            assert upper.rank != lower.rank
            continue
        if upper.points == lower.points:
            assert key[upper.player] >= key[lower.player]
        assert (upper.rank == lower.rank) == (key[upper.player] == key[lower.player])
    for index, r in enumerate(rows):
        assert r.rank == 1 + next(i for i, q in enumerate(rows) if q.rank == r.rank)
        assert r.rank <= index + 1
        assert r.shared == (sum(1 for q in rows if q.rank == r.rank) > 1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(smallest=10, largest=40, most_rounds=6), st.integers(0, 2**32))
def test_leaving_out_the_pairs_no_optimal_pairing_can_use_changes_nothing(d: Doc, seed: int) -> None:
    """The pruned graph gives the same pairing as the full graph of allowed pairs with the same weights."""
    people = [p["id"] for p in d["players"]]
    if len(people) % 2:
        people = people[:-1]
    met = _met(d)
    n = len(people)
    scale = (1 << draws.TIE_BITS) * (n // 2 + 1)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            if frozenset((people[i], people[j])) not in met:
                tie = draws.pairing_tie(seed, 0, 9, people[i], people[j])
                graph.add_edge(i, j, weight=(n - (j - i)) * scale + tie)
    full = nx.max_weight_matching(graph, maxcardinality=True)
    pruned = _pairs(people, met, seed, 0, 9, False)
    if 2 * len(full) != n:
        assert pruned is None
        return
    assert pruned is not None
    assert {frozenset(x) for x in pruned} == {frozenset((people[a], people[b])) for a, b in full}


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_pair_is_a_pure_function_of_the_file(d: Doc) -> None:
    """The same file (also after a round trip through its canonical text) pairs to the same value."""
    t = read_tournament(d)
    again = read_tournament(json.loads(dumps(t)))
    assert again == t
    try:
        first = pair(t)
    except TournamentError as exc:
        try:
            pair(again)
        except TournamentError as other:
            assert (other.code, other.message) == (exc.code, exc.message)
            return
        raise AssertionError("the second pairing succeeded") from None
    assert pair(again) == first

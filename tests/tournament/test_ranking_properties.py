"""The final ranking and the season over random tournaments (hypothesis).

A random tournament is one or two stages (Swiss, round robin or knockout after a Swiss) played round by
round through ``pair`` with random scores, random withdrawals and disqualifications, and stopped at a
random moment, so unfinished and finished tournaments, players out and shared ranks all occur. The
properties are the contract's: every ranked player is listed once; Czech Cup points never rise as the rank
falls; the first block is the standings of the last stage with a finished round; a season does not depend
on the order of its files except where the contract names that order.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.tournament.course import follow
from shared.tournament.errors import TournamentError
from shared.tournament.model import TIERS, Tournament
from shared.tournament.pairing import pair
from shared.tournament.ranking import rank
from shared.tournament.reading import read_tournament
from shared.tournament.season import Season, standings
from shared.tournament.standings import stage_standings
from tests.tournament.builders import Doc, doc

STAGES = [
    [{"rounds": 3}],
    [{"system": "round_robin"}],
    [{"system": "knockout"}],
    [{"rounds": 2, "advance": 4}, {"system": "knockout", "third_place": True}],
    [{"rounds": 2, "advance": 3}, {"system": "round_robin"}],
    [{"rounds": 1}, {"rounds": 2}],
]
POOL = [f"p{i}" for i in range(12)]


def _play_round(draw: Any, d: Doc) -> bool:
    """Pair and play the next round with random results (and maybe a withdrawal or a disqualification); False
    when there is nothing more to play."""
    t = read_tournament(d)
    try:
        p = pair(t)
    except TournamentError as exc:
        assert exc.code in ("NOTHING_TO_PAIR", "NO_PAIRING")
        return False
    knockout = t.stages[p.stage].system == "knockout"
    matches: list[dict[str, Any]] = []
    for x in p.matches:
        entry: dict[str, Any] = {"home": x.home, "away": x.away}
        if x.walkover is not None:
            entry["walkover"] = x.walkover
        elif draw(st.integers(0, 15)) == 0:
            entry["walkover"] = draw(st.sampled_from(["home", "away"]))
        else:
            entry["score"] = [draw(st.integers(0, 3)), draw(st.integers(0, 3))]
            if knockout and entry["score"][0] == entry["score"][1]:
                entry["shootout"] = draw(st.sampled_from(["home", "away"]))
        matches.append(entry)
    matches += [{"bye": b} for b in p.byes]
    d["results"].append({"stage": p.stage, "round": p.round, "matches": matches})
    played = [x.home for x in p.matches] + [x.away for x in p.matches]
    out = {w["player"] for w in d["withdrawn"]} | {c["player"] for c in d["discipline"]}
    choice = draw(st.integers(0, 9))
    candidates = sorted(set(played) - out)
    if choice == 0 and candidates:
        d["withdrawn"].append({"stage": p.stage, "player": draw(st.sampled_from(candidates)), "after_round": p.round})
    elif choice == 1 and candidates:
        d["discipline"].append({"stage": p.stage, "round": p.round, "player": draw(st.sampled_from(candidates)),
                                "card": "disqualified"})
    return True


@st.composite
def tournaments(draw: Any, *, complete: bool = False, ids: list[str] | None = None) -> Tournament:
    """A random tournament of 2-9 players (``ids`` drawn from when given) after a random number of rounds (all
    of them when ``complete``)."""
    chosen = ids or [f"p{i}" for i in range(draw(st.integers(2, 9)))]
    people = [{"id": pid, "name": pid.upper(), "year_of_birth": draw(st.one_of(st.none(), st.integers(1950, 2020))),
               "sex": draw(st.sampled_from([None, "m", "f"])), "veteran": draw(st.booleans())} for pid in chosen]
    d = doc(people, seed=draw(st.integers(0, 2**31)), stages=draw(st.sampled_from(STAGES)), results=[],
            withdrawn=[], discipline=[], cup={"tier": draw(st.sampled_from(TIERS)), "season": 2026},
            date=draw(st.sampled_from(["2026-03-01", "2026-06-01", "2026-09-01", None])))
    budget = 99 if complete else draw(st.integers(0, 8))
    for _ in range(budget):
        if not _play_round(draw, d):
            break
    t = read_tournament(d)
    if complete and not follow(t).complete:
        sc = follow(t).current
        t = read_tournament({**d, "ended": {"after_stage": sc.index, "after_round": sc.finished}})
    return t


def _played_somewhere(t: Tournament) -> set[str]:
    """Players with a played round: over the board, a walkover, a Swiss or knockout bye (finished rounds)."""
    course = follow(t)
    found: set[str] = set()
    for sc in course.stages:
        for row in stage_standings(t, sc, sc.finished).rows:
            if row.played > 0 or (sc.stage.system == "knockout" and row.byes > 0):
                found.add(row.player)
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(t=tournaments())
def test_the_ranking_lists_each_ranked_player_exactly_once(t: Tournament) -> None:
    """Every player with a played round once, nobody else; ranks follow 1 + the players above."""
    r = rank(t)
    listed = [x.player for x in r.rows]
    assert Counter(listed) == Counter(_played_somewhere(t))
    for index, x in enumerate(r.rows):
        first = next(i for i, y in enumerate(r.rows) if y.rank == x.rank)
        assert x.rank == first + 1
        assert x.shared == (sum(1 for y in r.rows if y.rank == x.rank) > 1)
        assert index == 0 or r.rows[index - 1].rank <= x.rank
    assert r.cup is not None and r.cup.field == len(listed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(t=tournaments())
def test_cup_points_never_rise_as_the_rank_falls(t: Tournament) -> None:
    """Down the ranking the points fall or stay (shared ranks keep them), and are at least 1."""
    points = [x.cup_points for x in rank(t).rows]
    assert all(p is not None and p >= 1 for p in points)
    assert all(a >= b for a, b in pairwise(points))  # type: ignore[operator]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(t=tournaments())
def test_the_first_block_is_the_last_stage_s_standings(t: Tournament) -> None:
    """The ranking begins with the ranked players of the last stage that has a finished round, in its
    standings' order (a knockout's by its ranks: equal ranks are then ordered, not shared)."""
    course = follow(t)
    r = rank(t)
    begun = [sc for sc in course.stages if sc.finished >= 1]
    if not begun:
        assert r.rows == ()
        return
    last = begun[-1]
    table = stage_standings(t, last, last.finished)
    ranked = {x.player for x in r.rows}
    expected = [row for row in table.rows if row.player in ranked]
    block = [x.player for x in r.rows[: len(expected)]]
    if last.stage.system == "knockout":
        stage_rank = {row.player: row.rank for row in expected}
        assert sorted(block) == sorted(stage_rank)
        assert [stage_rank[p] for p in block] == sorted(stage_rank[p] for p in block)
        assert not any(x.shared for x in r.rows[: len(expected)])
    else:
        assert block == [row.player for row in expected]


def _season_view(s: Season) -> tuple[Any, ...]:
    """What a season says that does not depend on the order of its files."""
    rows = sorted(
        (r.player, r.rank, r.shared, r.points, r.played, tuple(sorted((x.rank, x.cup_points) for x in r.results)),
         tuple(sorted(x.cup_points for x in r.results if x.counted)))
        for r in s.rows
    )
    categories = sorted((code, tuple((r.player, r.rank, r.shared, r.points) for r in rows_))
                        for code, rows_ in s.categories)
    tournaments = sorted((t.name, t.date or "", t.tier, t.field) for t in s.tournaments)
    return s.season, s.best, tuple(rows), tuple(categories), tuple(tournaments)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), best=st.one_of(st.none(), st.integers(1, 3)))
def test_a_season_is_the_same_whatever_the_order_of_its_files(data: Any, best: int | None) -> None:
    """Three or four finished tournaments over one pool of ids, in two orders: the same ranks, points,
    counted sums and categories; names, clubs and categories too when no two files share a date."""
    count = data.draw(st.integers(3, 4))
    files = [data.draw(tournaments(complete=True, ids=data.draw(st.lists(st.sampled_from(POOL), min_size=2,
                                                                         max_size=6, unique=True))))
             for _ in range(count)]
    shuffled = data.draw(st.permutations(files))
    first, second = standings(files, best), standings(shuffled, best)
    dates = [f.date for f in files]
    if len(set(dates)) == len(dates):
        assert sorted((r.player, r.name, r.club, r.category) for r in first.rows) == sorted(
            (r.player, r.name, r.club, r.category) for r in second.rows)
        assert _season_view(first) == _season_view(second)
    else:
        assert _without_categories(first) == _without_categories(second)


def _without_categories(s: Season) -> tuple[Any, ...]:
    """The season's view without what the latest file decides (a player's category, hence ``categories``)."""
    season, best, rows, _, tournaments = _season_view(s)
    return season, best, rows, tournaments

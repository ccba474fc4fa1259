"""The quick-match pool: windows that widen with waiting, closest-first pairing, the maximum-wait guarantee,
keys that must match, deterministic tie-breaks and the same pairs in any order and any process."""

from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.matchmaking import (
    Pairing,
    PoolEntry,
    PoolRound,
    PoolRules,
    accepts,
    compatible,
    pair_pool,
    pool_key,
    wait_needed_ms,
    waited_ms,
    window,
)

ROOT = Path(__file__).resolve().parents[2]
RULES = PoolRules()  # 100 points at once, +10 a second, anyone after 30 s
QUICK = pool_key("quick", {})


def entry(player_id: str, rating: int, since_ms: int = 0, key: str = QUICK) -> PoolEntry:
    """A waiting player of the quick pool."""
    return PoolEntry(player_id=player_id, rating=rating, waiting_since_ms=since_ms, key=key)


def paired_ids(result: PoolRound) -> list[tuple[str, str]]:
    """The pairs as (first id, second id), in the order they were made."""
    return [(p.first.player_id, p.second.player_id) for p in result.pairs]


def waiting_ids(result: PoolRound) -> list[str]:
    """The ids of those who keep waiting, in order."""
    return [e.player_id for e in result.waiting]


def test_window_widens_with_waiting_time() -> None:
    """100 points at once, 10 more a second (by the millisecond, rounded down), unlimited from 30 s on."""
    assert [window(ms, RULES) for ms in (0, 99, 100, 999, 10_000, 29_999)] == [100, 100, 101, 109, 200, 399]
    assert window(30_000, RULES) == float("inf")
    assert window(5_000, PoolRules(start_window=50, widen_per_second=4, max_wait_ms=60_000)) == 70


def test_wait_needed_inverts_the_window() -> None:
    """A difference of 200 needs 10 s, 201 needs 10.1 s, 100 none, and anything past 400 the maximum wait."""
    assert [wait_needed_ms(d, RULES) for d in (0, 100, 101, 200, 201, 399, 400, 3000)] == [
        0, 0, 100, 10_000, 10_100, 29_900, 30_000, 30_000
    ]
    assert wait_needed_ms(150, PoolRules(widen_per_second=0)) == 30_000
    assert wait_needed_ms(150, PoolRules(max_wait_ms=0)) == 0


def test_pair_made_when_both_windows_reach_the_difference() -> None:
    """Two players 200 apart who joined together wait until 10 s, when both windows are 200, as announced."""
    pool = [entry("ana", 1500), entry("ben", 1700)]
    early = pair_pool(pool, now_ms=9_999)
    assert early.pairs == ()
    assert early.next_pass_ms == 10_000
    assert paired_ids(pair_pool(pool, now_ms=10_000)) == [("ana", "ben")]


def test_no_next_pass_when_no_two_waiting_share_a_key() -> None:
    """A lone player in his key (or an empty pool) has nobody to wait for."""
    assert pair_pool([entry("a", 1500)], now_ms=0).next_pass_ms is None
    assert pair_pool([entry("a", 1500, key="x"), entry("b", 1500, key="y")], now_ms=0).next_pass_ms is None
    assert pair_pool([], now_ms=0) == PoolRound((), (), None)


def test_the_shorter_wait_decides() -> None:
    """A player past the maximum wait is not forced on a newcomer 300 away until the newcomer's window is 300."""
    pool = [entry("old", 1500, since_ms=0), entry("new", 1800, since_ms=60_000)]
    assert pair_pool(pool, now_ms=60_000).pairs == ()
    assert pair_pool(pool, now_ms=79_999).pairs == ()
    assert paired_ids(pair_pool(pool, now_ms=80_000)) == [("old", "new")]


def test_closest_ratings_paired_first() -> None:
    """Of 1500, 1510, 1600, 1620 the 10-point pair goes first, then the 20-point pair; nobody is left."""
    pool = [entry("a", 1600), entry("b", 1500), entry("c", 1620), entry("d", 1510)]
    result = pair_pool(pool, now_ms=0)
    assert paired_ids(result) == [("b", "d"), ("a", "c")]
    assert result.waiting == ()


def test_closest_pair_taken_even_when_it_leaves_two_waiting() -> None:
    """1100-1180 is the closest pair, so 1000 and 1280 keep waiting rather than both pairs being 100 apart."""
    pool = [entry("a", 1000), entry("b", 1100), entry("c", 1180), entry("d", 1280)]
    result = pair_pool(pool, now_ms=1_000)  # windows of 110
    assert paired_ids(result) == [("b", "c")]
    assert waiting_ids(result) == ["a", "d"]


def test_equal_differences_go_to_the_longest_waiting() -> None:
    """Two opponents 50 away from the longest waiter: the one who waited longer gets him."""
    pool = [entry("late", 1450, since_ms=10), entry("first", 1500, since_ms=0), entry("early", 1550, since_ms=5)]
    result = pair_pool(pool, now_ms=10)
    assert paired_ids(result) == [("first", "early")]
    assert waiting_ids(result) == ["late"]


def test_equal_differences_and_waits_go_by_player_id() -> None:
    """With equal differences and equal waiting times the smaller player id goes first."""
    pool = [entry("c", 1550), entry("b", 1500), entry("a", 1450)]
    assert paired_ids(pair_pool(pool, now_ms=0)) == [("a", "b")]


def test_first_of_a_pair_is_the_longer_waiting() -> None:
    """A pair lists the player who waited longer first, whatever the ratings or ids."""
    pool = [entry("zed", 1500, since_ms=0), entry("amy", 1520, since_ms=3_000)]
    assert paired_ids(pair_pool(pool, now_ms=3_000)) == [("zed", "amy")]


def test_after_max_wait_any_compatible_opponent_is_acceptable() -> None:
    """Two players 3000 points apart are paired once both have waited 30 s, not a millisecond sooner."""
    pool = [entry("low", 400, since_ms=0), entry("high", 3400, since_ms=1_000)]
    assert pair_pool(pool, now_ms=30_999).pairs == ()
    assert paired_ids(pair_pool(pool, now_ms=31_000)) == [("low", "high")]


def test_incompatible_keys_never_paired() -> None:
    """Equal ratings under different rulesets or overrides keep waiting, however long."""
    pool = [
        entry("q", 1500, key=QUICK),
        entry("s", 1500, key=pool_key("standard", {})),
        entry("t", 1500, key=pool_key("quick", {"period_ms": 30_000})),
    ]
    result = pair_pool(pool, now_ms=10**9)
    assert result.pairs == ()
    assert sorted(waiting_ids(result)) == ["q", "s", "t"]


def test_a_wait_that_starts_in_the_future_counts_as_zero() -> None:
    """A waiting time that starts after ``now`` (a clock step) counts as zero: the window never shrinks below 100."""
    early = entry("x", 1500, since_ms=5_000)
    assert waited_ms(early, now_ms=1_000) == 0
    assert paired_ids(pair_pool([early, entry("y", 1600)], now_ms=1_000)) == [("y", "x")]


def test_a_player_waits_at_most_once() -> None:
    """The same player id twice in the pool is refused."""
    with pytest.raises(ValueError):
        pair_pool([entry("a", 1500), entry("a", 1600)], now_ms=0)


def test_a_player_never_accepts_himself() -> None:
    """accepts() refuses one entry against itself."""
    a = entry("a", 1500)
    assert not accepts(a, a, 0, RULES)


@pytest.mark.parametrize(
    "fields",
    [
        {"player_id": ""},
        {"rating": 1500.5},
        {"rating": True},
        {"waiting_since_ms": None},
        {"key": 7},
    ],
)
def test_malformed_entry_refused(fields: dict[str, Any]) -> None:
    """An entry without an id, or with a rating, time or key of the wrong type, is refused."""
    values: dict[str, Any] = {"player_id": "a", "rating": 1500, "waiting_since_ms": 0, "key": QUICK}
    with pytest.raises(ValueError):
        PoolEntry(**(values | fields))


@pytest.mark.parametrize("fields", [{"start_window": -1}, {"widen_per_second": 0.5}, {"max_wait_ms": -30}])
def test_malformed_rules_refused(fields: dict[str, Any]) -> None:
    """Rules with a negative or non-integer number are refused."""
    with pytest.raises(ValueError):
        PoolRules(**fields)


def test_pool_key_is_canonical() -> None:
    """The same overrides in any order give one key; another value or ruleset gives another."""
    assert pool_key("quick", {"period_ms": 30_000, "effects_2_5d": False}) == pool_key(
        "quick", {"effects_2_5d": False, "period_ms": 30_000}
    )
    assert pool_key("quick", {"period_ms": 30_000}) != pool_key("quick", {"period_ms": 40_000})
    assert pool_key("quick", {}) != pool_key("standard", {})


def test_a_player_open_to_any_key_pairs_with_a_later_named_one() -> None:
    """An open player (standard's key, also quick's) who waited first is paired with a quick player who came later,
    as with one who came before; he is never paired with quick-with-overrides."""
    open_first = PoolEntry(player_id="o", rating=1500, waiting_since_ms=0, key=OPEN[0], also=OPEN[1])
    later = entry("q", 1500, since_ms=5_000)
    assert [(p.first.player_id, p.second.player_id) for p in pair_pool([open_first, later], 6_000).pairs] == [
        ("o", "q")]
    earlier = entry("q", 1500, since_ms=0)
    opened_later = PoolEntry(player_id="o", rating=1500, waiting_since_ms=5_000, key=OPEN[0], also=OPEN[1])
    assert [(p.first.player_id, p.second.player_id) for p in pair_pool([opened_later, earlier], 6_000).pairs] == [
        ("q", "o")]
    fixed = entry("f", 1500, key=pool_key("quick", {"period_ms": 30_000}))
    result = pair_pool([open_first, fixed], 100_000)
    assert result.pairs == () and result.next_pass_ms is None


def test_two_open_players_who_share_several_keys_are_paired_once() -> None:
    """Two players open to the same keys meet in each key's group but make one pair."""
    a = PoolEntry(player_id="a", rating=1500, waiting_since_ms=0, key=OPEN[0], also=OPEN[1])
    b = PoolEntry(player_id="b", rating=1510, waiting_since_ms=0, key=OPEN[0], also=OPEN[1])
    assert len(pair_pool([a, b], 0).pairs) == 1


# --- properties over random pools and times ----------------------------------------------------------------

KEYS = (QUICK, pool_key("standard", {}), pool_key("quick", {"period_ms": 30_000}))
OPEN: tuple[str, tuple[str, ...]] = (pool_key("standard", {}), (QUICK,))  # open to any ruleset: standard, quick
CHOICES: list[tuple[str, tuple[str, ...]]] = [(key, ()) for key in KEYS] + [OPEN]  # a key, and the keys also taken


@st.composite
def pools(draw: st.DrawFn) -> tuple[list[PoolEntry], int, PoolRules]:
    """A pool of up to 24 players over a few keys (some open to two), a time after some or all joined, and random
    rules."""
    count = draw(st.integers(min_value=0, max_value=24))
    ids = draw(st.lists(st.text("abcdefgh", min_size=1, max_size=3), min_size=count, max_size=count, unique=True))
    pool = []
    for player_id in ids:
        key, also = draw(st.sampled_from(CHOICES))
        pool.append(PoolEntry(player_id=player_id, rating=draw(st.integers(min_value=400, max_value=3000)),
                              waiting_since_ms=draw(st.integers(min_value=0, max_value=120_000)), key=key, also=also))
    rules = PoolRules(
        start_window=draw(st.integers(min_value=0, max_value=300)),
        widen_per_second=draw(st.integers(min_value=0, max_value=50)),
        max_wait_ms=draw(st.integers(min_value=0, max_value=90_000)),
    )
    return pool, draw(st.integers(min_value=0, max_value=200_000)), rules


@given(pools())
def test_after_max_wait_no_two_compatible_players_both_wait(case: tuple[list[PoolEntry], int, PoolRules]) -> None:
    """Whatever the pool and time, no two compatible players who have both waited the maximum keep waiting."""
    pool, now, rules = case
    overdue = [e for e in pair_pool(pool, now, rules).waiting if waited_ms(e, now) >= rules.max_wait_ms]
    assert not any(compatible(a, b) for i, a in enumerate(overdue) for b in overdue[i + 1:])


@given(pools())
def test_every_pair_acceptable_and_every_player_placed_once(case: tuple[list[PoolEntry], int, PoolRules]) -> None:
    """Each pair shares a key and sits within both windows; each entry is in exactly one pair or waits."""
    pool, now, rules = case
    result = pair_pool(pool, now, rules)
    assert all(accepts(p.first, p.second, now, rules) for p in result.pairs)
    placed = [e for p in result.pairs for e in (p.first, p.second)] + list(result.waiting)
    assert sorted(placed, key=lambda e: e.player_id) == sorted(pool, key=lambda e: e.player_id)


@given(pools())
def test_no_acceptable_pair_left_waiting(case: tuple[list[PoolEntry], int, PoolRules]) -> None:
    """The pass is maximal: among those who keep waiting, no two accept each other."""
    pool, now, rules = case
    waiting = pair_pool(pool, now, rules).waiting
    assert not any(accepts(a, b, now, rules) for i, a in enumerate(waiting) for b in waiting[i + 1 :])


@given(pools())
def test_pairs_closest_first(case: tuple[list[PoolEntry], int, PoolRules]) -> None:
    """Pairs come out in order of rating difference, and no waiting pair is closer than one that was made
    from a player it could have had instead."""
    pool, now, rules = case
    result = pair_pool(pool, now, rules)
    differences = [abs(p.first.rating - p.second.rating) for p in result.pairs]
    assert differences == sorted(differences)
    for made in result.pairs:
        for player in (made.first, made.second):
            for other in result.waiting:
                if accepts(player, other, now, rules):
                    assert abs(player.rating - other.rating) >= abs(made.first.rating - made.second.rating)


@given(pools())
def test_next_pass_is_the_first_time_a_waiting_pair_accepts(case: tuple[list[PoolEntry], int, PoolRules]) -> None:
    """At ``next_pass_ms`` two of those waiting accept each other, a millisecond earlier none do."""
    pool, now, rules = case
    result = pair_pool(pool, now, rules)
    waiting = result.waiting

    def acceptable_at(t: int) -> bool:
        """Whether any two waiting entries accept each other at ``t``."""
        return any(accepts(a, b, t, rules) for i, a in enumerate(waiting) for b in waiting[i + 1 :])

    if result.next_pass_ms is None:
        assert len({e.key for e in waiting}) == len(waiting)
    else:
        assert result.next_pass_ms > now
        assert acceptable_at(result.next_pass_ms)
        assert not acceptable_at(result.next_pass_ms - 1)


@given(pools(), st.randoms(use_true_random=False))
def test_same_pool_in_any_order_gives_the_same_pairs(
    case: tuple[list[PoolEntry], int, PoolRules], shuffler: random.Random
) -> None:
    """The entries' order changes nothing: the same pool and time give the same pairs and the same waiting list."""
    pool, now, rules = case
    shuffled = list(pool)
    shuffler.shuffle(shuffled)
    assert pair_pool(shuffled, now, rules) == pair_pool(pool, now, rules)


_SCRIPT = """
import random, sys
sys.path.insert(0, {root!r})
from shared.matchmaking import PoolEntry, pair_pool, pool_key
rng = random.Random(7)
keys = [pool_key(r, o) for r in ("quick", "standard") for o in ({{}}, {{"period_ms": 30000}})]
pool = [PoolEntry(player_id=f"p{{i}}", rating=rng.randint(800, 2200), waiting_since_ms=rng.randint(0, 60000),
                  key=rng.choice(keys)) for i in range(300)]
result = pair_pool(pool, now_ms=45000)
print(([(p.first.player_id, p.second.player_id) for p in result.pairs], [e.player_id for e in result.waiting]))
"""


def _pairs_in_subprocess(hash_seed: str) -> str:
    """The pairs of a fixed 300-player pool as printed by a fresh interpreter with PYTHONHASHSEED=hash_seed."""
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT.format(root=str(ROOT))], env=env, capture_output=True, text=True, check=True,
        cwd=ROOT,
    )
    return out.stdout.strip()


def test_same_pairs_in_processes_with_different_hash_seeds() -> None:
    """Neither dict nor set order leaks into the pairs: two interpreters with other hash seeds agree."""
    first, second = _pairs_in_subprocess("1"), _pairs_in_subprocess("4242")
    assert first == second
    pairs, waiting = ast.literal_eval(first)
    assert len(pairs) > 100 and 2 * len(pairs) + len(waiting) == 300


def test_pairing_returns_pairings_of_the_given_entries() -> None:
    """The pairs hold the very entries given, so the caller gets back each player's key and rating."""
    a, b = entry("a", 1500), entry("b", 1540)
    assert pair_pool([a, b], now_ms=0).pairs == (Pairing(a, b),)

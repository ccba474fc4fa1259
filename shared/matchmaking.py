"""The quick-match pool by rating, like Lichess' pool: who plays whom now, and who keeps waiting.

Why a pure function of the waiting entries and ``now``: the server (one process or many behind a shared
registry, docs/ARCHITECTURE.md "Scale") calls it on every change of the pool or on a timer, and any process given the
same pool and time makes the same pairs; tests use explicit times instead of a clock.

The rules, and why greedy closest-first pairing meets them:

- Only compatible entries are paired: equal ``key``, or a key one of them also accepts (``also``). The key
  stands for everything both must agree on: the ruleset and the setting overrides (``pool_key`` builds a
  canonical one); a player who left the ruleset open accepts the plain key of every ruleset, so he pairs
  with a later player who named one as readily as with an earlier one.
- Each player accepts a rating difference up to his *window*, which widens with his waiting time:
  ``start_window + widen_per_second · ms waited // 1000`` (whole points, widening by the millisecond),
  and is unlimited once he has waited ``max_wait_ms``. A pair is acceptable when the difference is
  within *both* windows (Lichess, likewise, lets the shorter wait decide).
- The closest ratings are paired first: every acceptable pair is taken in order of rating difference,
  and kept when neither player is taken yet. Ties go to the pair whose longest-waiting player waited
  longest, then to its other player's waiting time, then to the player ids - a total order, so the result
  never depends on the order of the entries nor on dict or set order.
- The maximum-wait guarantee: the greedy pass leaves no acceptable pair with both players waiting (such a
  pair, considered when both were free, would have been taken). Two compatible players who have both
  waited ``max_wait_ms`` accept each other, so they never both keep waiting - provided the pool is run
  again at ``PoolRound.next_pass_ms`` (and whenever someone joins).

Why closest-first rather than Lichess' maximum matching: it is what the rules ask, its order is ours to
define (a blossom matching breaks ties its own way), and it costs a sort of the acceptable pairs. It can
leave two players waiting where a maximum matching would pair everyone (1000, 1100, 1180, 1280 with
110-point windows: 1100-1180 goes first); their windows widen and the next pass takes them.
A pass costs O(acceptable pairs); run on every join, the pool stays small (two overdue players of one
key never survive a pass), and 1000 players all past the maximum wait take about a second.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class PoolEntry:
    """A player waiting for a quick match: his shown rating in the key's family and when he started waiting."""

    player_id: str
    rating: int
    waiting_since_ms: int
    key: str
    also: tuple[str, ...] = ()  # further keys this player accepts (one who asked for any ruleset)

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key this player accepts, his own first, each once."""
        return tuple(dict.fromkeys((self.key, *self.also)))

    def __post_init__(self) -> None:
        """Refuse what the pool cannot order: an empty id, a rating or time that is not an integer."""
        if not isinstance(self.player_id, str) or not self.player_id:
            raise ValueError(f"player_id must be a non-empty string, not {self.player_id!r}")
        for name, value in (("rating", self.rating), ("waiting_since_ms", self.waiting_since_ms)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be an integer, not {value!r}")
        if not isinstance(self.key, str):
            raise ValueError(f"key must be a string, not {self.key!r}")
        if not isinstance(self.also, tuple) or not all(isinstance(k, str) for k in self.also):
            raise ValueError(f"also must be a tuple of strings, not {self.also!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class PoolRules:
    """How fast a waiting player's acceptable rating difference widens, and when it stops mattering."""

    start_window: int = 100  # rating points accepted at once (≈ a 64 % expected score)
    widen_per_second: int = 10  # points added per second of waiting: 400 after 30 s
    max_wait_ms: int = 30_000  # after this wait any compatible opponent is acceptable

    def __post_init__(self) -> None:
        """Refuse negative or non-integer rules (a window must not shrink, nor a wait be negative)."""
        for name in ("start_window", "widen_per_second", "max_wait_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, not {value!r}")


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players to start a match: ``first`` is the one who waited longer (ties: the smaller player id)."""

    first: PoolEntry
    second: PoolEntry


@dataclass(frozen=True, slots=True)
class PoolRound:
    """One pass over the pool: the pairs to make, closest first, and who keeps waiting, longest first.

    ``next_pass_ms`` is the earliest time two of those waiting will accept each other (None: no two are
    compatible); run the pool again then, or sooner when someone joins, and no wait runs past its rules.
    """

    pairs: tuple[Pairing, ...]
    waiting: tuple[PoolEntry, ...]
    next_pass_ms: int | None


def pool_key(ruleset: str, overrides: Mapping[str, object]) -> str:
    """The canonical key of a ruleset and its setting overrides: equal choices give equal keys."""
    return json.dumps([ruleset, dict(overrides)], sort_keys=True, separators=(",", ":"), allow_nan=False)


def waited_ms(entry: PoolEntry, now_ms: int) -> int:
    """How long ``entry`` has waited at ``now_ms`` (a start after ``now_ms`` counts as no wait)."""
    return max(0, now_ms - entry.waiting_since_ms)


def window(wait_ms: int, rules: PoolRules) -> float:
    """The rating difference a player accepts after waiting ``wait_ms``: widening, unlimited past the maximum."""
    if wait_ms >= rules.max_wait_ms:
        return math.inf
    return rules.start_window + rules.widen_per_second * wait_ms // 1000


def wait_needed_ms(difference: int, rules: PoolRules) -> int:
    """How long a player must wait before his window covers ``difference`` (the inverse of ``window``)."""
    needed = difference - rules.start_window
    if needed <= 0 or rules.max_wait_ms == 0:
        return 0
    if rules.widen_per_second == 0:
        return rules.max_wait_ms
    return min(-(-needed * 1000 // rules.widen_per_second), rules.max_wait_ms)


def compatible(a: PoolEntry, b: PoolEntry) -> bool:
    """Whether ``a`` and ``b`` agree on what to play: a key both accept."""
    return any(key in b.keys for key in a.keys)


def accepts(a: PoolEntry, b: PoolEntry, now_ms: int, rules: PoolRules) -> bool:
    """Whether ``a`` and ``b`` may be paired at ``now_ms``: compatible, and the difference within both windows."""
    if not compatible(a, b) or a.player_id == b.player_id:
        return False
    difference = abs(a.rating - b.rating)
    return difference <= window(waited_ms(a, now_ms), rules) and difference <= window(waited_ms(b, now_ms), rules)


def _seniority(entry: PoolEntry) -> tuple[int, str]:
    """Who waited longer comes first; equal starts go by player id."""
    return (entry.waiting_since_ms, entry.player_id)


def _acceptable_pairs(
    group: Sequence[PoolEntry], now_ms: int, rules: PoolRules
) -> list[tuple[int, tuple[int, str], tuple[int, str], PoolEntry, PoolEntry]]:
    """Every acceptable pair of one key's entries with its sort key (difference, then seniorities)."""
    by_rating = sorted(group, key=lambda e: (e.rating, _seniority(e)))
    windows = [window(waited_ms(e, now_ms), rules) for e in by_rating]
    found = []
    for i, low in enumerate(by_rating):
        for j in range(i + 1, len(by_rating)):
            difference = by_rating[j].rating - low.rating
            if difference > windows[i]:
                break  # sorted by rating: everyone further up is further away
            if difference <= windows[j]:
                high = by_rating[j]
                senior, junior = sorted((low, high), key=_seniority)
                found.append((difference, _seniority(senior), _seniority(junior), senior, junior))
    return found


def pair_pool(entries: Sequence[PoolEntry], now_ms: int, rules: PoolRules | None = None) -> PoolRound:
    """The pairs to make from the waiting ``entries`` at ``now_ms``, closest ratings first, and who keeps waiting."""
    rules = rules if rules is not None else PoolRules()
    ids = [e.player_id for e in entries]
    if len(set(ids)) != len(ids):
        raise ValueError("a player waits in the pool at most once")
    groups: dict[str, list[PoolEntry]] = {}
    for entry in entries:
        for key in entry.keys:
            groups.setdefault(key, []).append(entry)
    found = {(c[3].player_id, c[4].player_id): c for group in groups.values()
             for c in _acceptable_pairs(group, now_ms, rules)}  # two open players meet in every group: once
    candidates = sorted(found.values(), key=lambda c: (c[0], c[1], c[2]))
    taken: set[str] = set()
    pairs = []
    for _difference, _senior_rank, _junior_rank, senior, junior in candidates:
        if senior.player_id not in taken and junior.player_id not in taken:
            taken.update((senior.player_id, junior.player_id))
            pairs.append(Pairing(senior, junior))
    waiting = sorted((e for e in entries if e.player_id not in taken), key=_seniority)
    return PoolRound(tuple(pairs), tuple(waiting), _next_pass_ms(waiting, rules))


def _next_pass_ms(waiting: Sequence[PoolEntry], rules: PoolRules) -> int | None:
    """The earliest time any two compatible waiting entries accept each other (both windows cover them)."""
    earliest: int | None = None
    for i, a in enumerate(waiting):
        for b in waiting[i + 1 :]:
            if compatible(a, b):
                # Both must have waited what the difference needs (never 0 here: such a pair was paired).
                at = max(a.waiting_since_ms, b.waiting_since_ms) + wait_needed_ms(abs(a.rating - b.rating), rules)
                earliest = at if earliest is None else min(earliest, at)
    return earliest

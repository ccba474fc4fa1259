"""Swiss pairing: the bye first, then a maximum-cardinality minimum-cost matching without rematches.

Why a matching: TOURNAMENT.md asks, among all pairings in which nobody meets an opponent a second time, for
the one minimising the sum over pairs of |place(a) - place(b)|, every present player paired except the bye.
That is a minimum-cost perfect matching on the graph of allowed pairs, solved by networkx's blossom
algorithm (``max_weight_matching`` with ``maxcardinality=True``) with integer weights
``(n - cost) * SCALE + tie``: among the matchings of maximum size the heaviest is the cheapest, and ``tie``
(``draws.pairing_tie``, 24 bits, whose sum over a whole pairing stays below ``SCALE``) breaks ties between
equally good pairings by the seed and never outweighs one place of cost. Nodes are places 0..n-1 (integers,
so nothing depends on string hashing) added with their edges in a fixed order.

Which pairs can be left out of the graph (this is what keeps a 200-player round well under a second): in an
optimal pairing a pair of places a < b always has b - a - 1 <= 2 * inside + outside, where ``inside`` counts
the earlier meetings of a or b with players placed between them and ``outside`` those of a with players
above a and of b with players below b. Proof: every player x between a and b is paired either with a y also
between them (a nested pair x < y), or with a y below b, or with a y above a. For a nested pair, a-x with
y-b is strictly cheaper; for a y below b, a-x with b-y; for a y above a, y-a with x-b. An optimal pairing
cannot have a cheaper exchange, so each of these needs a meeting that forbids it, a different one each time:
a nested pair (two players between) needs an ``inside`` meeting, any other x (one player) an ``inside`` or
an ``outside`` one. The pruned graph therefore holds every optimal pairing (and has a perfect matching
exactly when the full graph has one), and networkx finds the same pairing on it.

The bye (odd number n of players to pair) is chosen first: among those with the fewest byes in the stage,
drawn by the seed from the lower half (the last n // 2 places) but not the last place, then upwards place
by place, then the last place. If the rest cannot be paired without a rematch the next candidate takes
the bye; only when no candidate works is there ``NO_PAIRING``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Mapping, Sequence, Set
from typing import TYPE_CHECKING

from shared.tournament import draws
from shared.tournament.errors import TournamentError

if TYPE_CHECKING:
    import networkx as nx


def pair_swiss(
    order: Sequence[str],
    met: Set[frozenset[str]],
    byes_had: Mapping[str, int],
    *,
    seed: int,
    stage: int,
    round_number: int,
    top_half_against_bottom: bool = False,
) -> tuple[list[tuple[str, str]], str | None]:
    """Pairs (better placed first, best pair first) and the bye for players listed by place.

    ``top_half_against_bottom`` (round 1 seeded by rating) pairs place i with place i + m/2 instead of
    matching by cost.
    """
    if len(order) % 2 == 0:
        pairs = _pairs(order, met, seed, stage, round_number, top_half_against_bottom)
        if pairs is None:
            raise TournamentError(
                "NO_PAIRING", f"stage {stage} round {round_number}: the {len(order)} players cannot all be paired "
                              f"without someone meeting an opponent again"
            )
        return pairs, None
    for candidate in bye_candidates(order, byes_had, seed, stage, round_number):
        rest = [p for p in order if p != candidate]
        pairs = _pairs(rest, met, seed, stage, round_number, top_half_against_bottom)
        if pairs is not None:
            return pairs, candidate
    raise TournamentError(
        "NO_PAIRING", f"stage {stage} round {round_number}: whoever gets the bye, the other {len(order) - 1} players "
                      f"cannot all be paired without someone meeting an opponent again"
    )


def bye_candidates(
    order: Sequence[str], byes_had: Mapping[str, int], seed: int, stage: int, round_number: int
) -> Iterator[str]:
    """Every player, in the order the bye rules prefer them (fewest byes first; see the module docstring)."""
    n = len(order)
    lower_start = n - n // 2
    last = order[-1]
    for count in sorted({byes_had.get(p, 0) for p in order}):
        eligible = [p for p in order if byes_had.get(p, 0) == count]
        lower = [p for p in order[lower_start:] if p in eligible and p != last]
        yield from sorted(lower, key=lambda p: (draws.bye_key(seed, stage, round_number, p), p))
        yield from [p for p in reversed(order[:lower_start]) if p in eligible and p != last]
        if last in eligible:
            yield last


def _pairs(
    order: Sequence[str], met: Set[frozenset[str]], seed: int, stage: int, round_number: int, halves: bool
) -> list[tuple[str, str]] | None:
    """The best pairing of an even list of players by place, or None when no rematch-free pairing exists."""
    n = len(order)
    if halves:
        half = n // 2
        pairs = [(order[i], order[i + half]) for i in range(half)]
        if all(frozenset(pair) not in met for pair in pairs):
            return pairs
    place = {p: i for i, p in enumerate(order)}
    partners: list[list[int]] = [[] for _ in order]  # the places of the players each one has met
    for pair in met:
        if len(pair) == 2 and all(p in place for p in pair):
            a, b = (place[p] for p in pair)
            partners[a].append(b)
            partners[b].append(a)
    for places in partners:
        places.sort()
    most_from = [len(p) for p in partners]  # most_from[j]: the most any player from place j down has met
    for j in range(n - 2, -1, -1):
        most_from[j] = max(most_from[j], most_from[j + 1])
    import networkx as nx  # here, not at the top: importing it costs a starting server ~0.1 s it needs only to pair

    scale = (1 << draws.TIE_BITS) * (n // 2 + 1)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            if j - i - 1 > 2 * (len(partners[i]) + most_from[j]):
                break  # no pair further down can be in an optimal pairing
            if j in partners[i] or not _may_be_optimal(i, j, partners[i], partners[j]):
                continue
            tie = draws.pairing_tie(seed, stage, round_number, order[i], order[j])
            graph.add_edge(i, j, weight=(n - (j - i)) * scale + tie)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n:
        return None
    matched: list[tuple[int, int]] = sorted((min(u, v), max(u, v)) for u, v in matching)
    return [(order[u], order[v]) for u, v in matched]


def _may_be_optimal(a: int, b: int, met_a: Sequence[int], met_b: Sequence[int]) -> bool:
    """Whether places a < b can be paired in an optimal pairing: b - a - 1 <= 2 * inside + outside, where
    ``inside`` counts the meetings of a or b with players between them and ``outside`` those of a with players
    above a and of b with players below b (the module docstring's exchange argument)."""
    a_inside = bisect_left(met_a, b) - bisect_right(met_a, a)
    b_inside = bisect_left(met_b, b) - bisect_right(met_b, a)
    outside = bisect_left(met_a, a) + len(met_b) - bisect_right(met_b, b)
    return b - a - 1 <= 2 * (a_inside + b_inside) + outside

"""Referee duty for a round played on physical boards (XVII.1-XVII.3): who referees which board.

Why a pure function of the round and the counts so far: the referees are part of what the round is (they are on its
printed sheet, on the players' screens and in the association's sheet's column R), so the same tournament must give
the same referees on any machine and after a restart; the server logs what this gives when a round starts.

The reading (docs/TOURNAMENT-NOTES.md, "Referee duty"): every board gets a referee (XVII.1) from the players at the
venue who do not play it; a round's boards are played in two halves - the upper half of its boards (the first ⌈m/2⌉
or ⌊m/2⌋ of m, the top of the standings) while the lower half referees, then the other way round - so a player who
plays may referee only a board of the other half, and one who does not play in the round (a bye, a player out of a
later stage) any board. Never a player of either player's club (XVII.2; no club is nobody's club) unless both
players of that board agreed to it (XVII.3). Among the assignments that give the most boards a referee, the one that
favours the players whose refereed count lags furthest behind half their played rounds - so that everyone referees
about half as often as he plays (the program's warning is below ⌊played / 2⌋) - as a maximum-weight matching of
boards and candidates (networkx); equal needs are taken in the order of ``candidates``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shared.tournament.model import Bye, Match, Tournament

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True, kw_only=True, slots=True)
class Board:
    """A match of the round on a physical board: its table number and its two players."""

    table: int
    home: str
    away: str


def halves(boards: Sequence[Board], first: int | None = None) -> dict[str, int]:
    """The half of the round each board's players play in: 0 for the first ``first`` boards (default ⌈m/2⌉), 1 for
    the rest."""
    first = (len(boards) + 1) // 2 if first is None else first
    return {player: 0 if i < first else 1 for i, b in enumerate(boards) for player in (b.home, b.away)}


def may_referee(candidate: str, board: Board, *, half_of: Mapping[str, int], board_half: int,
                clubs: Mapping[str, str], agreed: bool) -> bool:
    """XVII.2-XVII.3: whether ``candidate`` may referee ``board`` (played in ``board_half``)."""
    if candidate in (board.home, board.away) or half_of.get(candidate, board_half + 1) == board_half:
        return False
    club = clubs.get(candidate, "")
    if not club or agreed:
        return True
    return club not in (clubs.get(board.home, ""), clubs.get(board.away, ""))


def assign_referees(boards: Sequence[Board], candidates: Sequence[str], *, clubs: Mapping[str, str],
                    refereed: Mapping[str, int], played: Mapping[str, int],
                    agreed: Collection[int] = ()) -> dict[int, str]:
    """Each board's referee (table -> player) among ``candidates`` (the players at the venue, in a fixed order);
    a board nobody may referee is left out (the organiser names one). ``refereed`` and ``played``: the counts so far;
    ``agreed``: the tables whose players accept a referee of their club (XVII.3).

    With an odd number of boards the middle one may be played in either half: the split that serves the needier
    players better is taken (the upper half the larger one when both serve alike)."""
    needs = {c: played.get(c, 0) - 2 * refereed.get(c, 0) for c in candidates}
    lowest = min(needs.values(), default=0)
    weights = {c: (needs[c] - lowest + 1) * (len(candidates) + 1) + len(candidates) - order
               for order, c in enumerate(candidates)}
    splits = sorted({(len(boards) + 1) // 2, len(boards) // 2}, reverse=True)
    best: tuple[int, int, dict[int, str]] | None = None
    for first in splits:
        chosen = _matching(boards, candidates, first, clubs=clubs, agreed=agreed, weights=weights)
        score = (len(chosen), sum(weights[c] for c in chosen.values()))
        if best is None or score > best[:2]:
            best = (*score, chosen)
    return {} if best is None else best[2]


def _matching(boards: Sequence[Board], candidates: Sequence[str], first: int, *, clubs: Mapping[str, str],
              agreed: Collection[int], weights: Mapping[str, int]) -> dict[int, str]:
    """The maximum-weight matching of boards and candidates with the first ``first`` boards in the upper half."""
    half_of = halves(boards, first)
    import networkx as nx  # here, not at the top: it costs a starting server ~0.14 s it needs only for a round

    graph: nx.Graph[int] = nx.Graph()
    for i, board in enumerate(boards):
        board_half = 0 if i < first else 1
        for order, c in enumerate(candidates):
            if may_referee(c, board, half_of=half_of, board_half=board_half, clubs=clubs,
                           agreed=board.table in agreed):
                graph.add_edge(i, len(boards) + order, weight=weights[c])  # integer nodes: no string hashing
    out: dict[int, str] = {}
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        board_node, player_node = min(a, b), max(a, b)
        out[boards[board_node].table] = candidates[player_node - len(boards)]
    return dict(sorted(out.items()))


def played_rounds(t: Tournament) -> dict[str, int]:
    """How many rounds each player has played so far (a finished match or a bye), over every stage."""
    counts = {p.id: 0 for p in t.players}
    for r in t.results:
        for e in r.matches:
            if isinstance(e, Bye):
                counts[e.player] = counts.get(e.player, 0) + 1
            elif isinstance(e, Match) and e.finished:
                for player in e.players():
                    counts[player] = counts.get(player, 0) + 1
    return counts

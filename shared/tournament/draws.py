"""Every draw of the tournament engine, derived from the file's ``seed`` and what the draw is for.

Why a list in one place: TOURNAMENT.md promises that the same file pairs to the same bytes, and an organiser
must be able to check a draw. Each draw is ``shared.draws.draw(seed, "tournament", purpose, *indices)``, a
number in [0, 1) that is a hash of its key (BLAKE2b of the key's ``repr``), so it depends on nothing but the
key: not on global random state, not on PYTHONHASHSEED, not on which other draws were made before.

=========  ==========================================  ===================================================
purpose    key after (seed, "tournament", purpose)     what it decides
=========  ==========================================  ===================================================
place      stage, after_round, player                  order of players sharing a rank (Swiss, round
                                                       robin), so "place" 1, 2, 3 ... has no gaps; round 1
                                                       of a Swiss stage (all level) is therefore random
bye        stage, round, player                        which lower-half candidate gets the bye (smallest
                                                       draw first)
pairing    stage, round, lower id, higher id           a pair's tie-break weight when pairings are equally
                                                       good (24 bits, never outweighing one place)
seeding    stage, player                               a knockout first stage's random seeds, and the order
                                                       of equal or missing ratings under rating seeding
=========  ==========================================  ===================================================
"""

from __future__ import annotations

from shared.draws import draw

TIE_BITS = 24


def place_key(seed: int, stage: int, after_round: int, player: str) -> float:
    """Where ``player`` stands among the players he shares a rank with after ``after_round`` (smaller first)."""
    return draw(seed, "tournament", "place", stage, after_round, player)


def bye_key(seed: int, stage: int, round_number: int, player: str) -> float:
    """The order of bye candidates for ``round_number`` (smaller first)."""
    return draw(seed, "tournament", "bye", stage, round_number, player)


def pairing_tie(seed: int, stage: int, round_number: int, a: str, b: str) -> int:
    """An integer in [0, 2**TIE_BITS) that breaks ties between equally good pairings, the same for (a, b) and (b, a)."""
    low, high = (a, b) if a < b else (b, a)
    return int(draw(seed, "tournament", "pairing", stage, round_number, low, high) * (1 << TIE_BITS))


def seeding_key(seed: int, stage: int, player: str) -> float:
    """A knockout first stage's random seed order and the order of equal ratings (smaller first)."""
    return draw(seed, "tournament", "seeding", stage, player)

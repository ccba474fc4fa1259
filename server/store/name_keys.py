"""The stored keys of players' names, computed again whenever the name rule changes.

Why not in a schema migration: whether a name is taken is decided on its keys (``shared.names.name_key`` and
``name_shape``: UTS #39 confusable skeletons), which SQL cannot compute, and which change when the rule or Unicode's
confusables data does - a database written under an older rule must compare its names under the new one. So each
store keeps the rule its keys were computed under (``meta``, ``RULE_KEY``) and, when it opens under another one,
computes every player's keys again in one transaction (``keys_for``, the same for SQLite and PostgreSQL).

Two players whose names the new rule finds alike keep their names - a name is never taken from anyone - but only
the earlier player (the smaller id) keeps the keys: nobody new can take a name like theirs, and the later one is
found by his exact name until he renames himself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from shared.names import name_key, name_shape

RULE_KEY = "name_rule"  # the meta row naming the rule the stored keys were computed under


@dataclass(frozen=True, slots=True, kw_only=True)
class NameKeys:
    """A player's stored keys (None: a guest, or a name an earlier player's looks like)."""

    player_id: int
    key: str | None
    shape: str | None


def keys_for(players: Iterable[tuple[int, str]]) -> list[NameKeys]:
    """Every player's keys under the current rule, from (id, name) rows: guests (``guest-<id>``) have none, and of
    players whose names look alike the one with the smallest id keeps them."""
    taken_keys: set[str] = set()
    taken_shapes: set[str] = set()
    found = []
    for player_id, name in sorted(players):
        if name == f"guest-{player_id}":
            found.append(NameKeys(player_id=player_id, key=None, shape=None))
            continue
        key, shape = name_key(name), name_shape(name)
        if key in taken_keys or shape in taken_shapes:
            found.append(NameKeys(player_id=player_id, key=None, shape=None))
            continue
        taken_keys.add(key)
        taken_shapes.add(shape)
        found.append(NameKeys(player_id=player_id, key=key, shape=shape))
    return found

"""Stored name keys follow the name rule: a store opened under a newer rule computes every player's keys again, the
earlier of two look-alike names keeping them (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable

from server.store.name_keys import RULE_KEY, keys_for
from server.store.player_records import PlayerRecords
from server.store.store_port import Store
from shared.names import NAME_RULE, name_key, name_shape

CYRILLIC_NOVAK = "N\u043ev\u00e1k"  # a Cyrillic о: accepted by the first name rule, a look-alike under this one


def test_of_look_alike_names_the_earlier_player_keeps_the_keys_and_guests_have_none():
    """Keys are given in the order of ids whatever the order of the rows: Novák (1) keeps his, Nоvák (3) gets none,
    guest-2 none; Jana's are her own."""
    keyed = keys_for([(3, CYRILLIC_NOVAK), (2, "guest-2"), (4, "Jana"), (1, "Novák")])
    assert [(k.player_id, k.key, k.shape) for k in keyed] == [
        (1, name_key("Novák"), name_shape("Novák")), (2, None, None), (3, None, None),
        (4, name_key("Jana"), name_shape("Jana"))]


async def test_a_store_opened_under_a_new_name_rule_computes_the_keys_again(open_store: Callable[[], Store]):
    """Players keyed under an older rule (NFKC and case only) get skeleton keys when the store opens again: the
    look-alike who came second keeps his name and is found by it, the first is found by any look-alike."""
    store = open_store()
    try:
        for number, (name, old_key) in enumerate((("Novák", "novák"), (CYRILLIC_NOVAK, CYRILLIC_NOVAK.casefold()),
                                                  ("guest-3", None)), start=1):
            await store.write(PlayerRecords.add_player(store.new_player_id(), name, old_key, f"token {number}"))
        await store.write([("UPDATE meta SET value = ? WHERE key = ?", ("sprtec-names/1", RULE_KEY))])
    finally:
        store.close()
    again = open_store()
    try:
        records = PlayerRecords(again)
        rows = again.read("SELECT id, name, name_key, name_shape FROM players ORDER BY id")
        assert [tuple(r) for r in rows] == [(1, "Novák", name_key("Novák"), name_shape("Novák")),
                                            (2, CYRILLIC_NOVAK, None, None), (3, "guest-3", None, None)]
        assert again.read("SELECT value FROM meta WHERE key = ?", (RULE_KEY,)) == [(NAME_RULE,)]
        assert records.by_look("NOVÁK") == (1, "Novák")
        assert records.named(CYRILLIC_NOVAK) == (2, CYRILLIC_NOVAK)
    finally:
        again.close()

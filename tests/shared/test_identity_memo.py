"""``IdentityMemo``: found by the object itself, the oldest dropped first, the object held while remembered."""

from __future__ import annotations

from shared.identity_memo import IdentityMemo


def test_a_value_is_found_for_the_same_object_only_not_an_equal_one() -> None:
    memo: IdentityMemo[tuple[int, ...], str] = IdentityMemo(4)
    key = tuple(range(3))
    memo.put(key, "converted")
    assert memo.get(key) == "converted"
    assert memo.get(tuple(range(3))) is None  # equal, another object


def test_beyond_its_size_the_oldest_is_dropped_first() -> None:
    memo: IdentityMemo[object, int] = IdentityMemo(2)
    first, second, third = object(), object(), object()
    for i, key in enumerate((first, second, third)):
        memo.put(key, i)
    assert len(memo) == 2
    assert (memo.get(first), memo.get(second), memo.get(third)) == (None, 1, 2)


def test_a_remembered_object_is_held_so_its_id_is_not_reused_by_another() -> None:
    memo: IdentityMemo[object, int] = IdentityMemo(8)
    key = object()
    remembered = id(key)
    memo.put(key, 1)
    del key
    newcomers = [object() for _ in range(100)]
    assert all(memo.get(other) is None for other in newcomers)
    assert all(id(other) != remembered for other in newcomers)

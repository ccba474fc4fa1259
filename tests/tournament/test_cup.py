"""Czech Cup points: the tier tables are the contract's, and the (n - L) formula of TOURNAMENT.md."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.tournament.cup import TABLES, cup_points
from shared.tournament.model import TIERS, Tier

CONTRACT = Path(__file__).resolve().parents[2] / "docs" / "TOURNAMENT.md"
ITEM = re.compile(r"- ((?:`[a-z0-9_]+`(?: and )?)+) \(L = (\d+)\):([\d\s]+)")


def contract_tables() -> dict[str, tuple[int, tuple[int, ...]]]:
    """Each tier's L and table as docs/TOURNAMENT.md prints them ("Czech Cup points")."""
    text = CONTRACT.read_text(encoding="utf-8")
    start = text.index("- **Czech Cup points**")
    section = text[start:text.index("With n the number of ranked players", start)]
    found: dict[str, tuple[int, tuple[int, ...]]] = {}
    for names, length, numbers in ITEM.findall(section):
        for name in re.findall(r"`([a-z0-9_]+)`", names):
            found[name] = (int(length), tuple(int(n) for n in numbers.split()))
    return found


def test_the_tier_tables_are_the_contract_s_tables_number_for_number() -> None:
    """Parsed from docs/TOURNAMENT.md: the same tiers, each table equal to the code's and of length L."""
    printed = contract_tables()
    assert sorted(printed) == sorted(TIERS) == sorted(TABLES)
    for tier in TIERS:
        length, table = printed[tier]
        assert len(table) == length, tier
        assert TABLES[tier] == table, tier


@pytest.mark.parametrize("tier", TIERS)
def test_every_table_falls_place_by_place(tier: Tier) -> None:
    """T[1] > T[2] > ... > T[L] >= 1: a lower place is never worth more."""
    table = TABLES[tier]
    assert all(a > b for a, b in pairwise(table)) and table[-1] >= 1


def test_the_points_of_a_place_follow_the_field_size() -> None:
    """r <= L: T[r] + (n - L); r > L: T[L] + n - r (the contract's example: 1st of 12 in an Expres gets 32)."""
    assert cup_points("expres", 1, 12) == 40 + 12 - 20 == 32
    assert cup_points("expres", 12, 12) == 9 - 8 == 1
    assert cup_points("expres", 20, 40) == 1 + 20
    assert cup_points("expres", 21, 40) == 1 + 40 - 21
    assert cup_points("expres", 40, 40) == 1
    assert cup_points("cp24", 70, 70) == 11 and cup_points("cp24", 71, 80) == 11 + 80 - 71
    assert cup_points("czech_open", 2, 6) == cup_points("cp36", 2, 6) == 325 + 6 - 128


@given(tier=st.sampled_from(TIERS), field=st.integers(1, 300))
def test_the_last_of_any_field_has_at_least_one_point_and_points_never_rise_as_the_rank_falls(
    tier: Tier, field: int
) -> None:
    """For every field size: the points of ranks 1..n fall strictly, the last gets at least 1."""
    points = [cup_points(tier, r, field) for r in range(1, field + 1)]
    assert all(a > b for a, b in pairwise(points))
    assert points[-1] >= 1

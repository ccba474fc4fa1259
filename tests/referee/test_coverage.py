"""docs/rules-coverage.md: the committed table is current and every rule the engine implements has a test."""

from __future__ import annotations

import pytest

from tools import coverage

needs_rules = pytest.mark.skipif(not coverage.RULES.exists(), reason="docs/RULES.md is missing")
PRODUCT_RULES = coverage.ROOT.parent / "shared" / "RULES.md"


@pytest.mark.skipif(not PRODUCT_RULES.exists(), reason="no ../shared/RULES.md beside this checkout")
def test_docs_rules_copy_equals_the_product_rulebook() -> None:
    """docs/RULES.md is a verbatim copy of the rulebook handed beside the repository (re-copy it when it changes)."""
    assert coverage.RULES.read_bytes() == PRODUCT_RULES.read_bytes(), "cp ../shared/RULES.md docs/RULES.md"


def test_parse_rules_reads_ids_sub_items_and_tags() -> None:
    """The parser finds rule bullets, lettered sub-items, and tags (a sub-item inherits its rule's tag)."""
    text = (
        "## 3. Rules\n"
        "* **VIII.1** A **FOUL** is:\n"
        "  * **a) DIRECT** foul.\n"
        "    * **[ENGINE]** D5-D7.\n"
        "  * **c) STICK** foul. **[OFFLINE]** No stick.\n"
        "* **VIII.2** Neutral. **[ENGINE]** (D2).\n"
        "## 4. Events\n"
        "* **IX.1** not a rule here\n"
    )
    rules = coverage.parse_rules(text)
    assert [(r.id, r.tags) for r in rules] == [
        ("VIII.1", ("ENGINE", "OFFLINE")),
        ("VIII.1a", ("ENGINE",)),
        ("VIII.1c", ("OFFLINE",)),
        ("VIII.2", ("ENGINE",)),
    ]


def test_covering_matches_whole_ids_only() -> None:
    """``V_1`` is not covered by ``XV_1`` or ``V_10`` tests; a parent is covered through its sub-items."""
    rules = [coverage.Rule("V.1", ("ENGINE",)), coverage.Rule("VIII.1", ("ENGINE",)),
             coverage.Rule("VIII.1b", ("ENGINE",))]
    names = ["test_XV_1_x", "test_V_10_y", "test_V_1_z", "test_VIII_1b_chain"]
    assert coverage.covering(rules[0], names, rules) == ["test_V_1_z"]
    assert coverage.covering(rules[1], names, rules) == ["test_VIII_1b_chain"]


@needs_rules
def test_committed_rules_coverage_table_is_current() -> None:
    """The committed docs/rules-coverage.md equals what the generator makes now (regenerate if not)."""
    assert coverage.TABLE.read_text(encoding="utf-8") == coverage.build(), "run: python -m tools.coverage"


REFEREED_CHAPTERS = ("III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI")


@needs_rules
def test_every_engine_and_digital_rule_of_chapters_III_to_XVI_has_a_test() -> None:
    """Every [ENGINE] or [DIGITAL] rule id of chapters III-XVI (the match and its referee) is named by a test."""
    rules = coverage.parse_rules(coverage.RULES.read_text(encoding="utf-8"))
    names = coverage.test_names(coverage.ROOT / "tests")
    missing = [r.id for r in rules if r.chapter in REFEREED_CHAPTERS and ({"ENGINE", "DIGITAL"} & set(r.tags))
               and not coverage.covering(r, names, rules)]
    assert missing == []

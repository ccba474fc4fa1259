"""docs/settings.md: generated from the settings and the choice list, current, and documenting everything."""

from __future__ import annotations

from dataclasses import fields

from shared import rulesets
from tools import rulesets_doc


def test_committed_settings_table_is_current() -> None:
    """The committed docs/settings.md equals what the generator makes now (run python -m tools.rulesets_doc)."""
    assert rulesets_doc.TABLE.read_text(encoding="utf-8") == rulesets_doc.render()


def test_every_setting_has_a_meaning() -> None:
    """Product decision 2: each setting's field carries a comment that the table shows as its meaning."""
    meaning = rulesets_doc.meanings(rulesets_doc.SOURCE.read_text(encoding="utf-8"))
    assert [f.name for f in fields(rulesets.Settings) if not meaning.get(f.name)] == []


def test_rulesets_table_shows_each_rulesets_defaults() -> None:
    """Product decision 6: the table's ruleset columns are the rulesets' own values (ko overtime, strict no clock)."""
    rows = {line.split(" | ")[0]: line.split(" | ") for line in rulesets_doc.render().splitlines()
            if line.startswith("| `")}
    assert rows["| `overtime_ms`"][1:6] == ["[]", "[180000]", "[180000, 360000]", "[]", "[]"]
    assert rows["| `move_clock_ms`"][1:6] == ["30000", "30000", "30000", "0", "30000"]
    assert rows["| `shootout_series`"][3] == "5"

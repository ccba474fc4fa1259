"""Names: the characters a name may hold, trimming, length, visibility, and the keys that decide whether two names
look alike (UTS #39 confusable skeletons, whatever the case)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.names import (
    MAX_ENTRY_NAME_CHARS,
    MAX_NAME_CHARS,
    BadName,
    clean_name,
    look_alike,
    name_key,
    name_shape,
    printable,
)


def test_a_name_is_trimmed_and_inner_spaces_collapse():
    """Leading, trailing and repeated spaces go; the letters stay as typed."""
    assert clean_name("  Jan   Novák ") == "Jan Novák"


@pytest.mark.parametrize(
    "raw",
    ["", "   ", "a\nb", "a\rb", "a\x00b", "a\tb", "\u202eevil", "a\u2066b", "zero\u200bwidth", "x" * 25, "a\u2028b"],
)
def test_names_with_controls_separators_bidi_or_too_long_are_refused(raw: str):
    """Newlines, NUL, tabs, bidi overrides and isolates, zero-width characters and 25 characters are refused."""
    with pytest.raises(BadName):
        clean_name(raw)


def test_a_name_of_the_maximum_length_with_accents_is_accepted():
    """24 characters, counted after NFC normalisation (a decomposed accent is one character)."""
    assert clean_name("Ł" * MAX_NAME_CHARS) == "Ł" * MAX_NAME_CHARS
    assert clean_name("Nova\u0301k") == "Novák"


def test_names_that_differ_only_in_case_or_encoding_share_a_key():
    """NOVÁK, novák and a decomposed novák are one name on a server; Novak without the accent is another."""
    assert name_key(clean_name("NOVÁK")) == name_key(clean_name("novák")) == name_key(clean_name("nova\u0301k"))
    assert name_key("Novak") != name_key("Novák")


@given(st.text(max_size=40))
def test_a_cleaned_name_is_always_one_printable_line_within_the_limit(raw: str):
    """Whatever is typed, an accepted name is 1-24 characters with no controls or separators and no outer spaces."""
    try:
        name = clean_name(raw)
    except BadName:
        return
    assert 1 <= len(name) <= MAX_NAME_CHARS and name == name.strip() and printable(name) == name


def test_printable_escapes_what_would_forge_a_log_line():
    """A newline or a bidi override in client text is written as an escape, so a log line stays one line."""
    assert printable("bob\n2026 INFO forged") == "bob\\n2026 INFO forged"
    assert printable("a\u202eb") == "a\\u202eb"


@pytest.mark.parametrize("raw", ["\u0301\u0308", "\u0301x", "Jan \u0301", "a\u0301\u0302\u0303\u0304", "!!!", "-",
                                 "\u3164", "Jan\ufe0f", "\u115f\u1160", "a\u034fb"])
def test_names_that_show_nothing_or_hide_letters_are_refused(raw: str):
    """Combining marks alone or without a letter under them, a stack of three marks, a name of no letter or digit,
    and invisible characters that are not format characters (the Hangul fillers, a variation selector, the
    combining grapheme joiner) are refused."""
    with pytest.raises(BadName):
        clean_name(raw)


@pytest.mark.parametrize("raw", ["Jiří Šťastný", "Łukasz Żółć", "Nguyễn Văn An", "Δημήτρης", "Иван", "R2", "7"])
def test_czech_polish_and_other_scripts_stay_allowed(raw: str):
    """Names of Czech, Polish, Vietnamese, Greek and Cyrillic letters, and names of digits, are names."""
    assert clean_name(raw) == raw


def test_czech_and_polish_names_stay_distinct_from_each_other_and_from_their_plain_letters():
    """Jiří Šťastný and Łukasz Żółć are two names, and neither is the same name as its letters without accents."""
    names = ["Jiří Šťastný", "Łukasz Żółć", "Jiri Stastny", "Lukasz Zolc"]
    assert not any(look_alike(a, b) for i, a in enumerate(names) for b in names[i + 1:])


def test_a_cyrillic_look_alike_has_the_key_of_the_latin_name():
    """Nоvák with a Cyrillic о (U+043E) and аda with Cyrillic а (U+0430) are the names they look like."""
    assert name_key("N\u043ev\u00e1k") == name_key("Novák")
    assert look_alike("\u0430d\u0430", "ada")


def test_a_capital_i_and_a_small_l_look_alike_as_written():
    """Ivan and lvan fold apart but look the same: their shapes match, so the one is taken when the other is."""
    assert name_key("Ivan") != name_key("lvan") and name_shape("Ivan") == name_shape("lvan")
    assert look_alike("Ivan", "lvan") and not look_alike("ivan", "lvan")


def test_the_case_insensitive_key_holds_for_letters_the_skeleton_maps_by_case():
    """The skeleton maps a small m to rn but not a capital M: KAMIL and Kamil still share their key."""
    assert name_key("KAMIL") == name_key("Kamil") and look_alike("KAMIL", "kamil")


def test_an_entry_name_follows_the_same_rule_with_its_own_length():
    """A tournament entry's name may be 64 characters; the characters allowed are a display name's."""
    assert clean_name("Jan Novák (SK Brno)", MAX_ENTRY_NAME_CHARS) == "Jan Novák (SK Brno)"
    with pytest.raises(BadName):
        clean_name("x" * (MAX_ENTRY_NAME_CHARS + 1), MAX_ENTRY_NAME_CHARS)
    with pytest.raises(BadName):
        clean_name("Jan\u202eNovák", MAX_ENTRY_NAME_CHARS)


@given(st.text(max_size=30), st.text(max_size=30))
def test_look_alike_is_symmetric_and_every_name_looks_like_itself(a: str, b: str):
    """Whether two names look alike does not depend on their order, and a name always looks like itself."""
    assert look_alike(a, b) == look_alike(b, a)
    assert look_alike(a, a)

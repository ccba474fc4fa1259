"""Display names: the characters a name may hold, trimming, length, and the case-insensitive key."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.names import MAX_NAME_CHARS, BadName, clean_name, name_key, printable


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

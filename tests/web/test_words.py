"""The pages' catalogue: extracted from the scripts and shells as they are, and complete in Czech and Polish."""

from __future__ import annotations

import re

from server.web.web_words import TEMPLATE, TRANSLATED, extract, read, template_text, untranslated, words


def test_the_template_holds_every_word_the_pages_say() -> None:
    """web.pot is what Babel extracts from the scripts and shells now (python -m server.web.web_words extract)."""
    assert TEMPLATE.read_bytes() == template_text(extract())


def test_every_word_is_translated_in_czech_and_polish() -> None:
    """No word of the template is left untranslated (python -m server.web.web_words check)."""
    assert untranslated() == {language: [] for language in TRANSLATED}


def test_a_translation_keeps_every_field_and_rule_id_of_its_word() -> None:
    """{fields} and rule ids such as (VIII.1a) survive translation, so the pages fill them and players see them."""
    template = [str(m.id) for m in read(TEMPLATE) if m.id]
    for language in TRANSLATED:
        said = words(language)
        for message in template:
            fields = sorted(re.findall(r"\{\w+\}", message))
            rules = sorted(re.findall(r"\b[IVX]+\.\d+[a-z]?\b|\bA\d+\b", message))
            assert sorted(re.findall(r"\{\w+\}", said[message])) == fields, (language, message)
            assert sorted(re.findall(r"\b[IVX]+\.\d+[a-z]?\b|\bA\d+\b", said[message])) == rules, (language, message)

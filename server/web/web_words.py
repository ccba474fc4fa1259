"""The pages' words in English, Czech and Polish: the web's own gettext catalogue, extracted and read with Babel.

Why a catalogue of its own: the pages' words are the browser's (its scripts call ``_("…")``) and the page shells'
(``N_`` here and in ``server.web.pages``), not the desktop client's, and the server may not import the client; but
they are extracted, kept and checked the client's way (``client.common.catalogues``): Babel's extraction writes
``server/web/locale/web.pot`` (its JavaScript extractor reads the scripts), each language's ``.po`` is the kept
source, and a test fails while a catalogue lags behind the code or leaves a word untranslated. A page gets its
language's words as one JSON object (English is the source language: its words are the keys).

``python -m server.web.web_words extract`` rewrites the template and updates each catalogue (new words empty, gone
ones dropped); ``check`` lists what is untranslated.
"""

from __future__ import annotations

import functools
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

DOMAIN = "web"
PACKAGE = Path(__file__).resolve().parent  # server/web: its scripts, its modules and its locale/
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
LANGUAGES = {"en": "English", "cs": "Čeština", "pl": "Polski"}
TRANSLATED = ("cs", "pl")
DEFAULT = "en"
KEYWORDS = {"_": None, "N_": None}
COOKIE = "sprtec_lang"  # the language a visitor chose with the pages' switch


def N_(message: str) -> str:
    """``message`` itself, marked for the catalogue."""
    return message


def po_path(language: str) -> Path:
    """The ``.po`` of ``language``."""
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract(source: Path = PACKAGE) -> Catalog:
    """Every word of the pages' scripts and shells, as a template catalogue (Babel's extraction)."""
    catalog = Catalog(project="sprtec", domain=DOMAIN, charset="utf-8")
    found = extract_from_dir(str(source), method_map=[("static/vendor/**", "ignore"), ("static/**.js", "javascript"),
                                                      ("**.py", "python")],
                             options_map={"static/**.js": {"parse_template_string": True}},
                             keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def read(path: Path) -> Catalog:
    """A ``.po`` or ``.pot`` file as a catalogue."""
    with path.open("rb") as handle:
        return read_po(handle)


@functools.cache
def words(language: str) -> dict[str, str]:
    """The translated words of ``language`` by their English text (empty for English and unknown languages)."""
    if language not in TRANSLATED:
        return {}
    catalog = read(po_path(language))
    return {str(m.id): str(m.string) for m in catalog if m.id and isinstance(m.id, str) and m.string}


def choose(query: str | None, cookie_header: str, accept_language: str) -> str:
    """The page's language: ``?lang=``, else the visitor's choice (the cookie), else the browser's first language we
    have (Accept-Language by its q-values), else English."""
    if query in LANGUAGES:
        return query
    for part in cookie_header.split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE and value in LANGUAGES:
            return value
    ranked = []
    for order, item in enumerate(accept_language.split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        ranked.append((-quality, order, tag.strip().split("-")[0].lower()))
    for quality, _order, code in sorted(ranked):
        if quality < 0 and code in LANGUAGES:
            return code
    return DEFAULT


def _update(template: Catalog) -> None:
    """Update every language's catalogue to the template: new words empty, gone ones dropped."""
    for language in TRANSLATED:
        path = po_path(language)
        catalog = read(path) if path.exists() else Catalog(locale=language, domain=DOMAIN)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=120, omit_header=False, sort_output=False)


def template_text(catalog: Catalog) -> bytes:
    """The template's bytes as written (no creation date: the same words give the same file)."""
    out = io.BytesIO()
    write_po(out, catalog, width=120, omit_header=True, sort_output=False)
    return out.getvalue()


def untranslated() -> dict[str, list[str]]:
    """Per language, the words of the template it does not translate."""
    template = read(TEMPLATE)
    missing = {}
    for language in TRANSLATED:
        have = words.__wrapped__(language)
        missing[language] = [str(m.id) for m in template if m.id and m.id not in have]
    return missing


def main(argv: list[str]) -> int:
    """``extract`` or ``check``."""
    if argv[:1] == ["extract"]:
        template = extract()
        TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
        TEMPLATE.write_bytes(template_text(template))
        _update(template)
        return 0
    if argv[:1] == ["check"]:
        missing = untranslated()
        for language, ids in missing.items():
            for message in ids:
                print(f"{language}: {message}")
        return 1 if any(missing.values()) else 0
    print("usage: python -m server.web.web_words extract|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

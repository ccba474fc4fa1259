"""The translation catalogues: extracting the client's strings with Babel into ``client/locale/sprtec.pot``,
compiling each ``.po`` to its ``.mo``, and checking that every catalogue is complete (no arcade).

Why a module with a command line: the ``.po`` files (en, cs, pl) are the sources kept in the repository; the
``.mo`` files are built from them — at first use by ``client.common.i18n`` when missing or older than the ``.po``, or
by ``python -m client.common.catalogues compile`` — and never committed. ``python -m client.common.catalogues extract``
rewrites the template after strings change (pybabel's extraction with the keywords ``_``, ``ngettext``, ``N_``)
and updates every catalogue to it (new strings empty, gone ones dropped); ``check`` lists what is untranslated.
A test fails while the template or a catalogue lags behind the code.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import Translations

DOMAIN = "sprtec"
PACKAGE = Path(__file__).resolve().parents[1]  # client/: its locale/ and every application's strings
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
TRANSLATED = ("cs", "pl")  # English is the source language: its catalogue is the identity
KEYWORDS = {"_": None, "ngettext": (1, 2), "N_": None}


def po_path(language: str) -> Path:
    """The ``.po`` of ``language``."""
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract(source: Path = PACKAGE) -> Catalog:
    """Every translatable string of the client's modules, as a template catalogue (Babel's extraction)."""
    catalog = Catalog(project="sprtec", domain=DOMAIN, charset="utf-8")
    found = extract_from_dir(str(source), method_map=[("**.py", "python")], keywords=KEYWORDS,
                             comment_tags=("TRANSLATORS:",), strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def read(path: Path) -> Catalog:
    """A ``.po`` or ``.pot`` file as a catalogue."""
    with path.open("rb") as handle:
        return read_po(handle)


def compile_catalog(language: str) -> bytes:
    """The ``.mo`` bytes of ``language``'s catalogue."""
    out = io.BytesIO()
    write_mo(out, read(po_path(language)), use_fuzzy=False)
    return out.getvalue()


def translations(language: str) -> Translations:
    """The compiled translations of ``language``: its ``.mo``, rebuilt first when missing or older than the ``.po``
    (read from memory when the package directory is not writable)."""
    po = po_path(language)
    mo = po.with_suffix(".mo")
    try:
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            mo.write_bytes(compile_catalog(language))
        with mo.open("rb") as handle:
            return Translations(handle, domain=DOMAIN)
    except OSError:
        return Translations(io.BytesIO(compile_catalog(language)), domain=DOMAIN)


def missing(language: str, template: Catalog | None = None) -> list[str]:
    """The template's messages that ``language``'s catalogue lacks, leaves empty or marks fuzzy."""
    catalog = read(po_path(language))
    wanted = template if template is not None else read(TEMPLATE)
    gaps = []
    for message in wanted:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        strings = found.string if found is not None else None
        values = strings if isinstance(strings, tuple | list) else (strings,)
        if found is None or found.fuzzy or not all(values):
            gaps.append(message.id if isinstance(message.id, str) else message.id[0])
    return gaps


def write_template(catalog: Catalog, path: Path = TEMPLATE) -> None:
    """Write the template (no dates or line numbers, so it only changes when the strings do)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, omit_header=True, no_location=True, sort_output=True, width=120)


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write a language's catalogue (header kept, no line numbers, sorted: it changes only with its strings)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, no_location=True, sort_output=True, width=120)


def update(language: str, template: Catalog | None = None) -> None:
    """Bring ``language``'s catalogue up to the template: new strings added empty, gone ones dropped."""
    catalog = read(po_path(language))
    catalog.update(template if template is not None else read(TEMPLATE), no_fuzzy_matching=True)
    catalog.obsolete.clear()
    write_catalog(catalog, po_path(language))


def msgids(catalog: Iterable[object]) -> set[object]:
    """The message ids of a catalogue (the header's empty id left out)."""
    return {m.id for m in catalog if m.id}  # type: ignore[attr-defined]


def main(argv: list[str]) -> int:
    """``extract`` (rewrite the template and update every catalogue to it), ``compile`` (build every .mo) or
    ``check`` (report gaps)."""
    command = argv[0] if argv else "check"
    if command == "extract":
        template = extract()
        write_template(template)
        print(f"wrote {TEMPLATE}")
        for language in TRANSLATED:
            if po_path(language).exists():
                update(language, read(TEMPLATE))
                print(f"updated {po_path(language)}")
        return 0
    if command == "compile":
        for language in TRANSLATED:
            po_path(language).with_suffix(".mo").write_bytes(compile_catalog(language))
            print(f"compiled {language}")
        return 0
    gaps = {language: missing(language) for language in TRANSLATED}
    for language, lacking in gaps.items():
        for message in lacking:
            print(f"{language}: untranslated: {message}")
    return 1 if any(gaps.values()) else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))

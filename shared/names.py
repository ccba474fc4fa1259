"""Display names: what a player may be called, checked the same way by the server, the client and the tools.

Why one module: a name is shown to everyone — on the board, in room lists, standings and log lines — so a name
that carries a newline forges log lines, a bidi override turns "Novák" into something else on screen, and two
names that differ only in case or in how an accent is encoded look like one person. The server refuses such
names at the edge (``Hello``), the client checks before it sends, and uniqueness on a server is decided on
``name_key``, never on the raw text.
"""

from __future__ import annotations

import unicodedata

MAX_NAME_CHARS = 24

# Unicode categories no name may contain: controls (newline, NUL, tab), format characters (bidi overrides and
# isolates, zero-width joiners), line and paragraph separators, surrogates, private use and unassigned points.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


class BadName(ValueError):
    """A display name that cannot be used, with the reason a person understands."""


def clean_name(raw: str) -> str:
    """The display name ``raw`` stands for: NFC-normalised, trimmed, inner runs of spaces made one.

    Raises ``BadName`` unless the result is 1 to ``MAX_NAME_CHARS`` printable characters.
    """
    text = unicodedata.normalize("NFC", raw)
    for char in text:
        if unicodedata.category(char) in _FORBIDDEN_CATEGORIES:
            raise BadName(f"a name may not contain the character U+{ord(char):04X}")
        if char.isspace() and char != " ":
            raise BadName(f"a name may not contain the space character U+{ord(char):04X}")
    name = " ".join(part for part in text.split(" ") if part)
    if not name:
        raise BadName("a name needs at least one visible character")
    if len(name) > MAX_NAME_CHARS:
        raise BadName(f"a name is at most {MAX_NAME_CHARS} characters, not {len(name)}")
    return name


def name_key(name: str) -> str:
    """The form two names are compared in: names equal here are the same name on a server (case-insensitive,
    compatibility-normalised, so "NOVÁK", "novák" and a decomposed "nova\u0301k" are one)."""
    return unicodedata.normalize("NFKC", name).casefold()


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

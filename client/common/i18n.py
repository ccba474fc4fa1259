"""The client's one translation layer: every string a player reads goes through ``_`` (gettext catalogues read with
Babel, the kept library), in English, Czech or Polish (no arcade).

Why one layer: the client is played where the game is played — Czech šprtec and Polish hokej stołowy clubs — so
every label, hint and message is looked up in ``client/locale/<lang>/LC_MESSAGES/sprtec.po`` (compiled to ``.mo``
by ``client.common.catalogues``, at first use when missing or older than its ``.po``). The language follows the
system locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) unless the player chooses one in the
settings. Rule ids stay in the texts ("(VIII.1a)") in every language: players know them from the printed rules.

Strings with values use named fields (``_("{name} left the match").format(name=…)``) so a translation may put
them in its own order; ``N_`` marks a string for extraction where it is defined and translated where shown.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping

LANGUAGES: Mapping[str, str] = {"en": "English", "cs": "Čeština", "pl": "Polski"}
DEFAULT = "en"

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the system locale among ours (``cs_CZ.UTF-8`` → ``cs``); English otherwise."""
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for value in env.get(variable, "").split(":"):
            code = value.split(".")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
            if code and code not in ("c", "posix"):
                return DEFAULT
    return DEFAULT


def set_language(language: str | None) -> str:
    """Use ``language`` (None or "": the system's) for every string from now on; returns the language in use."""
    global _current, _language
    chosen = language if language is not None and language in LANGUAGES else system_language()
    if chosen == DEFAULT:
        _current, _language = gettext.NullTranslations(), DEFAULT
        return DEFAULT
    from client.common import catalogues

    _current, _language = catalogues.translations(chosen), chosen
    return chosen


def language() -> str:
    """The language in use."""
    return _language


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message for ``n``, by the language's plural rules (Czech and Polish have
    three forms)."""
    return _current.ngettext(singular, plural, n)


def team_word(team: str) -> str:
    """``home`` or ``away`` in the language in use (the seat's word, not a coach's name)."""
    return _("home") if team == "home" else _("away") if team == "away" else team


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it here (tables translated where they are shown)."""
    return message

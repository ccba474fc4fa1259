"""Czech and Polish: every string of the client goes through one translation layer; the template matches the code,
every catalogue is complete, keeps each string's named fields and rule ids, and the client speaks it."""

from __future__ import annotations

import re

import pytest

from client.common import catalogues, i18n
from client.player.lobby_model import LobbyModel
from shared.protocol import Welcome

FIELD = re.compile(r"{[a-z_]+(?::[^}]*)?}")
RULE_ID = re.compile(r"\b(?:[IVX]+(?:\.\d+[a-z]?)?|[AD]\d+)\b(?=[,)])")


@pytest.fixture(autouse=True)
def english_after():
    """Each test leaves the client speaking English again."""
    yield
    i18n.set_language("en")


def test_the_template_holds_exactly_the_strings_of_the_code():
    """``python -m client.common.catalogues extract`` has been run: no string is missing from the template, none
    is stale."""
    assert catalogues.msgids(catalogues.extract()) == catalogues.msgids(catalogues.read(catalogues.TEMPLATE))


@pytest.mark.parametrize("language", catalogues.TRANSLATED)
def test_every_catalogue_is_complete(language):
    """Every string of the template has a translation that is neither empty nor fuzzy."""
    assert catalogues.missing(language) == []


@pytest.mark.parametrize("language", catalogues.TRANSLATED)
def test_translations_keep_the_named_fields_and_the_rule_ids(language):
    """A translation has exactly its message's {fields}, and every rule id (VIII.1a, XIII, D3) stays in it."""
    for message in catalogues.read(catalogues.po_path(language)):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(FIELD.findall(ids[-1])) | set(FIELD.findall(ids[0]))
        rules = set(RULE_ID.findall(ids[0]))
        for text in strings:
            assert set(FIELD.findall(text)) <= wanted and (len(ids) > 1 or set(FIELD.findall(text)) == wanted), \
                (message.id, text)
            assert rules <= set(RULE_ID.findall(text)), (message.id, text)


def test_the_client_speaks_czech_and_polish():
    """Chosen in the settings, the lobby's words are Czech, then Polish; the rule ids stay."""
    model = LobbyModel()
    model.apply(Welcome(1, "sprtec", "Jana", "tok"))
    i18n.set_language("cs")
    labels = [item.label for item in model.items()]
    assert "Hrát proti botovi" in labels and "Konec" in labels
    assert i18n._("Only the centre forward may start (V.7)").endswith("(V.7)")
    i18n.set_language("pl")
    assert "Graj z botem" in [item.label for item in model.items()]
    i18n.set_language("en")
    assert "Play the bot" in [item.label for item in model.items()]


def test_czech_and_polish_plurals_have_their_three_forms():
    """One, a few and many periods read right in both languages."""
    i18n.set_language("cs")
    words = [i18n.ngettext("One {minutes:g}-minute period", "{count} {minutes:g}-minute periods", n)
             .format(count=n, minutes=2) for n in (1, 3, 5)]
    assert words == ["Jedna 2minutová třetina", "3 2minutové třetiny", "5 2minutových třetin"]
    i18n.set_language("pl")
    assert i18n.ngettext("One {minutes:g}-minute period", "{count} {minutes:g}-minute periods", 5).format(
        count=5, minutes=6) == "5 6-minutowych tercji"


@pytest.mark.parametrize(("environ", "language"), [
    ({"LANG": "cs_CZ.UTF-8"}, "cs"), ({"LC_ALL": "pl_PL.UTF-8", "LANG": "cs_CZ"}, "pl"),
    ({"LANGUAGE": "de:cs"}, "en"), ({"LANG": "C"}, "en"), ({}, "en"), ({"LANGUAGE": "pl"}, "pl"),
])
def test_the_language_follows_the_system_locale(environ, language):
    """The first language the locale variables name decides; one we do not have means English."""
    assert i18n.system_language(environ) == language


def test_the_compiled_catalogue_is_built_from_the_po_file(tmp_path):
    """The .mo bytes come from the .po (compiled by Babel), and a missing .mo is rebuilt at first use."""
    import io

    from babel.messages.mofile import read_mo

    catalog = read_mo(io.BytesIO(catalogues.compile_catalog("cs")))
    assert catalog.get("Quit").string == "Konec"
    assert catalogues.translations("pl").gettext("Quit") == "Zakończ"


@pytest.mark.parametrize("language", catalogues.TRANSLATED)
def test_the_lobbys_status_line_rulesets_and_bots_speak_the_players_language(language):
    """Where the lobby is (the local server, the LAN, practice), the rulesets chosen and listed, a bot's name and
    the tournament table's ruleset are in the player's language - no English, no raw id."""
    from client.common.ruleset_names import ruleset_name, shown_name
    from client.player.lobby_model import Origin
    from client.player.tournament_session import TournamentSession
    from shared.protocol import TableAssigned

    i18n.set_language(language)
    for origin in (Origin("local", "ws://127.0.0.1:8765/"), Origin("lan", "ws://10.0.0.5:8765/", "Klub"),
                   Origin("practice")):
        model = LobbyModel(origin=origin)
        line = model.status_line()
        assert not any(word in line for word in ("Connected", "Server running", "practising", "found on")), line
    model = LobbyModel()
    model.activate("screen:create")
    label = next(item.label for item in model.items() if item.command == "cycle:ruleset")
    assert label.endswith(ruleset_name("standard")) and not label.endswith(": standard")
    assert shown_name("bot (medium) K7QZP3") == f"bot ({i18n._('medium')}) K7QZP3" != "bot (medium) K7QZP3"
    assert shown_name("Jana") == "Jana"
    session = TournamentSession("ABC123", "p1")
    session.apply(TableAssigned(tournament="ABC123", stage=0, round=1, table=1, room="R1", ruleset="quick",
                                seat="home", opponent="Eva", no_show_ms=None), 0.0)
    assert " quick " not in session.ruleset_text() and ruleset_name("quick") in session.ruleset_text()


def test_one_form_for_a_periods_length_in_czech_and_polish():
    """The ruleset blurbs and the period's length read alike: digits and the same word form in each language."""
    for language, word in (("cs", "5minutová"), ("pl", "5-minutowa")):
        i18n.set_language(language)
        assert word in i18n._("One 5-minute period — a quick game")
        assert word in i18n.ngettext("One {minutes:g}-minute period", "{count} {minutes:g}-minute periods",
                                     1).format(minutes=5, count=1)


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_a_tournaments_name_is_never_declined_by_a_preposition(language):
    """The lobby's way back to the player's tournament names it after a colon, in the nominative the name is
    written in: "Wróć do Puchar Klubu" / "Zpět na Velká cena Brna" were ungrammatical (a name cannot be declined)."""
    i18n.set_language(language)
    said = i18n._("Back to {name}").format(name="Puchar Klubu")
    assert said.endswith(": Puchar Klubu"), said

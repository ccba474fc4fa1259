"""A tournament is created from the contract's file or from fields, and refused when its matches could not be
played or recorded."""

from __future__ import annotations

import json

from server.app import Server
from shared.protocol import (
    ENTRIES_PER_REQUEST,
    MAX_CLIENT_FRAME,
    MAX_TOURNAMENT_FILE_CHARS,
    CreateTournament,
    EntriesRegistered,
    EntryForm,
    Error,
    JoinTournament,
    RegisterEntries,
    TournamentCreated,
    TournamentJoined,
    encode,
)
from tests.server.players import WireClient
from tests.tournament_server.helpers import expect, file_of, refused, tournament


async def test_a_tournament_from_fields_is_one_stage_with_those_fields(server: Server) -> None:
    """name, system, rounds, ruleset and settings make the file's one stage; the seed is the server's draw."""
    client = await WireClient.connect(server.url, "maker")
    await client.send(CreateTournament(name="Pondělí", system="round_robin", ruleset="quick",
                                       settings={"period_ms": 60_000}))
    created = await expect(client, TournamentCreated)
    t = server.tournaments.runs[created.tournament].state.tournament
    assert t.name == "Pondělí" and created.entries == ()
    (stage,) = t.stages
    assert (stage.system, stage.ruleset, dict(stage.settings)) == ("round_robin", "quick", {"period_ms": 60_000})


async def test_the_files_players_become_entries_with_codes(server: Server) -> None:
    """Every player of the file is an entry waiting for its coach, each with a code of its own."""
    client = await WireClient.connect(server.url, "maker")
    await client.send(CreateTournament(file=file_of(3)))
    created = await expect(client, TournamentCreated)
    assert [e.entry for e in created.entries] == ["p1", "p2", "p3"]
    assert len({e.code for e in created.entries}) == 3


async def test_what_cannot_be_played_or_recorded_is_refused(server: Server) -> None:
    """Not a file, a file and fields together, an unknown field (BAD_FORMAT, the contract's code), a knockout whose
    ruleset has no shoot-out (BAD_SETTINGS: its draws would have no winner)."""
    client = await WireClient.connect(server.url, "maker")
    assert await refused(client, CreateTournament(file="{not json")) == "BAD_FORMAT"
    assert await refused(client, CreateTournament(file=file_of(2), name="both")) == "BAD_FORMAT"
    no_shootout = file_of(4, stages=[{"system": "knockout", "ruleset": "standard"}])
    assert await refused(client, CreateTournament(file=no_shootout)) == "BAD_SETTINGS"
    unknown = json.dumps({"players": [{"id": "a", "name": "A"}], "surprise": 1})
    assert await refused(client, CreateTournament(file=unknown)) == "BAD_FORMAT"
    assert server.tournaments.runs == {}


async def test_stage_settings_a_room_would_refuse_are_bad_settings(server: Server) -> None:
    """A setting out of its range or an unknown setting, from fields or in a file's stage, is BAD_SETTINGS (as for
    a room), not the file's BAD_FORMAT; a stage whose settings are not an object stays BAD_FORMAT."""
    client = await WireClient.connect(server.url, "maker")
    assert await refused(client, CreateTournament(settings={"period_ms": -5})) == "BAD_SETTINGS"
    assert await refused(client, CreateTournament(ruleset="quick", settings={"no_such": 1})) == "BAD_SETTINGS"
    for stage in ({"system": "swiss", "settings": {"period_ms": -5}},
                  {"system": "knockout", "ruleset": "ko", "settings": {"shootout_series": 99}}):
        assert await refused(client, CreateTournament(file=file_of(4, stages=[stage]))) == "BAD_SETTINGS"
    shapeless = file_of(4, stages=[{"system": "swiss", "settings": [1]}])
    assert await refused(client, CreateTournament(file=shapeless)) == "BAD_FORMAT"
    assert server.tournaments.runs == {}


async def test_names_a_tournament_shows_follow_the_display_name_rule(server: Server) -> None:
    """A bidi override or a control character in the tournament's name, an entry's name or club is BAD_NAME, and
    so is an entry name that shows nothing; names are kept cleaned (NFC, trimmed, single spaces)."""
    client = await WireClient.connect(server.url, "maker")
    players = [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}]
    for bad in ({"name": "Cup\u202e"}, {"players": [{"id": "a", "name": "A\nB"}, players[1]]},
                {"players": [{"id": "a", "name": "\u0301\u0308"}, players[1]]},
                {"players": [{"id": "a", "name": "Ann", "club": "SK\u200bBrno"}, players[1]]}):
        file = json.dumps({"name": "Cup", "players": players, **bad})
        assert await refused(client, CreateTournament(file=file)) == "BAD_NAME"
    assert await refused(client, CreateTournament(name="Po\u2066ndělí")) == "BAD_NAME"
    file = json.dumps({"name": " Český  pohár ", "players": [{"id": "a", "name": "Jiri\u0301  Š"}, players[1]]})
    await client.send(CreateTournament(file=file))
    created = await expect(client, TournamentCreated)
    t = server.tournaments.runs[created.tournament].state.tournament
    assert t.name == "Český pohár" and t.player("a").name == "Jirí Š" and created.entries[0].name == "Jirí Š"


async def test_two_entries_of_one_tournament_may_not_look_alike(server: Server) -> None:
    """Novák and Nоvák (a Cyrillic о) in one file, or Jiří Šťastný entered twice, are NAME_TAKEN naming both
    entries; Jiří Šťastný and Łukasz Żółć are two entries."""
    client = await WireClient.connect(server.url, "maker")
    for first, second in (("Novák", "N\u043ev\u00e1k"), ("Jiří Šťastný", "JIŘÍ ŠŤASTNÝ")):
        file = json.dumps({"players": [{"id": "a", "name": first}, {"id": "b", "name": second}]})
        await client.send(CreateTournament(file=file))
        error = await expect(client, Error)
        assert error.code == "NAME_TAKEN" and "entry a" in error.message and "entry b" in error.message
    file = json.dumps({"players": [{"id": "a", "name": "Jiří Šťastný"}, {"id": "b", "name": "Łukasz Żółć"}]})
    await client.send(CreateTournament(file=file))
    assert len((await expect(client, TournamentCreated)).entries) == 2


async def test_registered_and_self_entered_names_may_not_look_like_an_entry(server: Server) -> None:
    """RegisterEntries refuses a bidi override (BAD_NAME) and a look-alike of an entry, of the file's or of the same
    request (NAME_TAKEN, nothing entered); a player whose display name looks like an unclaimed entry's is told to
    claim it with its code instead of entering himself beside it."""
    setup = await tournament(server.url, json.dumps({"players": [{"id": "nov", "name": "Novák"}]}), checked_in=0)
    org = setup.organiser
    assert await refused(org, RegisterEntries(setup.tid, setup.secret, (EntryForm("Ann\u202e"),))) == "BAD_NAME"
    for forms in ((EntryForm("N\u043ev\u00e1k"),), (EntryForm("Ivan"), EntryForm("lvan"))):
        assert await refused(org, RegisterEntries(setup.tid, setup.secret, forms)) == "NAME_TAKEN"
    assert [p.name for p in server.tournaments.runs[setup.tid].state.tournament.players] == ["Novák"]
    await org.send(RegisterEntries(setup.tid, setup.secret, (EntryForm("  Jiří   Šťastný "),)))
    assert [e.name for e in (await expect(org, EntriesRegistered)).entries] == ["Jiří Šťastný"]
    namesake = await WireClient.connect(server.url, "JIŘÍ ŠŤASTNÝ")
    await namesake.send(JoinTournament(setup.tid))
    error = await expect(namesake, Error)
    assert error.code == "NAME_TAKEN" and "entry code" in error.message
    other = await WireClient.connect(server.url, "Łukasz Żółć")
    await other.send(JoinTournament(setup.tid))
    assert (await expect(other, TournamentJoined)).name == "Łukasz Żółć"


async def test_a_file_within_its_characters_but_past_16_kib_is_created(server: Server) -> None:
    """A file of fewer than 15,000 characters whose Polish letters make it over 16 KiB of UTF-8, and 64 entries
    whose names and clubs are as long, are answered like any other (MAX_LARGE_FRAME), not closed with 1009."""
    players = [{"id": f"p{i}", "name": f"{'Żółć' * 14} {i:03d}"} for i in range(1, 161)]
    file = json.dumps({"name": "Puchar", "players": players}, ensure_ascii=False)
    assert len(file) <= MAX_TOURNAMENT_FILE_CHARS and len(encode(CreateTournament(file=file))) > MAX_CLIENT_FRAME
    client = await WireClient.connect(server.url, "maker")
    await client.send(CreateTournament(file=file))
    created = await expect(client, TournamentCreated)
    assert len(created.entries) == 160
    forms = tuple(EntryForm(f"{'Żółć' * 15} {i:02d}", club="ąęśćźżółń" * 7, category="ąęśćźżółń" * 3)
                  for i in range(ENTRIES_PER_REQUEST))
    request = RegisterEntries(created.tournament, created.secret, forms)
    assert len(encode(request)) > MAX_CLIENT_FRAME
    await client.send(request)
    assert len((await expect(client, EntriesRegistered)).entries) == ENTRIES_PER_REQUEST

"""A tournament is created from the contract's file or from fields, and refused when its matches could not be
played or recorded."""

from __future__ import annotations

import json

from server.app import Server
from shared.protocol import CreateTournament, TournamentCreated
from tests.server.players import WireClient
from tests.tournament_server.helpers import expect, file_of, refused


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
    """Not a file, a file and fields together, a setting out of its range, an unknown field (BAD_FORMAT, the
    contract's code), a knockout whose ruleset has no shoot-out (BAD_SETTINGS: its draws would have no winner)."""
    client = await WireClient.connect(server.url, "maker")
    assert await refused(client, CreateTournament(file="{not json")) == "BAD_FORMAT"
    assert await refused(client, CreateTournament(file=file_of(2), name="both")) == "BAD_FORMAT"
    assert await refused(client, CreateTournament(settings={"period_ms": -5})) == "BAD_FORMAT"
    no_shootout = file_of(4, stages=[{"system": "knockout", "ruleset": "standard"}])
    assert await refused(client, CreateTournament(file=no_shootout)) == "BAD_SETTINGS"
    unknown = json.dumps({"players": [{"id": "a", "name": "A"}], "surprise": 1})
    assert await refused(client, CreateTournament(file=unknown)) == "BAD_FORMAT"
    assert server.tournaments.runs == {}

"""Tournament tables are rated rooms, and ``"seeding": "rating"`` uses the players' ratings on the server."""

from __future__ import annotations

from server.app import Server
from server.store.player_records import PlayerRecords, StoredRating
from shared.protocol import StartRound, TournamentDone
from shared.ratings import Rating
from shared.tournament.model import Match
from tests.server.players import WireClient
from tests.tournament_server.helpers import expect, file_of, tournament


async def test_a_coachs_rating_on_the_server_seeds_him_when_the_stage_seeds_by_rating(server: Server) -> None:
    """p4 is last by the file's ratings but the best on the server: he is seeded first, so round 1 pairs him with
    the top of the bottom half (p2) instead of p2 - p4 by the file; entries of coaches without a rating keep the
    file's."""
    file = file_of(4, stages=[{"system": "swiss", "rounds": 2, "seeding": "rating"}])
    rated = await WireClient.connect(server.url, "strong-one")
    assert rated.welcome.player_id is not None
    stored = StoredRating(rating=Rating(rating=2400.0, rd=60.0), games=40)
    await server.store.write([PlayerRecords.save_rating(rated.welcome.player_id, "standard", stored)])
    setup = await tournament(server.url, file, claimed_by={"p4": rated})
    players = {p.id: p.rating for p in server.tournaments.runs[setup.tid].state.tournament.players}
    assert players == {"p1": 1990, "p2": 1980, "p3": 1970, "p4": 2400}
    await setup.organiser.send(StartRound(setup.tid, setup.secret))
    await expect(setup.organiser, TournamentDone)
    (first,) = server.tournaments.runs[setup.tid].state.tournament.results
    pairs = [{m.home, m.away} for m in first.matches if isinstance(m, Match)]
    assert pairs == [{"p4", "p2"}, {"p1", "p3"}]
    room = server.lobby.rooms[server.tournaments.runs[setup.tid].state.tables[(0, 1, 1)].room]
    assert room.core.rated

"""One name per person in a tournament: a table's seats show the entries' names (the HUD, the move list, the
results and the replays read them there), not the players' names on the server; a name longer than a seat holds is
cut with an ellipsis; a recovered room is named again as the entries."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any, cast

from server.app import Server
from server.tournaments.tables import name_seats
from server.tournaments.tournament_core import SEAT_NAME_CHARS, seat_name
from shared.protocol import JoinRoom, RoomJoined, StartRound, TableAssigned, TournamentDone
from tests.tournament_server.helpers import expect, tournament

FILE = json.dumps({"name": "Velká cena", "seed": 3, "stages": [{"system": "swiss", "rounds": 2}],
                   "players": [{"id": "p1", "name": "Lucie Bílá", "rating": 1900},
                               {"id": "p2", "name": "Eva Malá", "rating": 1800}]})


async def test_a_tables_seats_are_named_as_the_entries(server: Server) -> None:
    """The coaches connected as coach-…; at their table both seats read Lucie Bílá and Eva Malá."""
    setup = await tournament(server.url, FILE)
    await setup.organiser.send(StartRound(setup.tid, setup.secret))
    await expect(setup.organiser, TournamentDone)
    coach = setup.coaches["p1"]
    table = await expect(coach, TableAssigned)
    assert table.opponent == "Eva Malá" and table.room is not None
    await coach.send(JoinRoom(table.room))
    joined = await expect(coach, RoomJoined)
    seats = joined.snapshot.seats
    assert seats.home is not None and seats.away is not None
    assert {seats.home.name, seats.away.name} == {"Lucie Bílá", "Eva Malá"}
    assert not coach.welcome.player.startswith(("Lucie", "Eva"))


def test_a_long_entry_name_is_cut_to_the_seat_with_an_ellipsis() -> None:
    """An entry's name may be 64 characters; the seat shows 32 at most, ending in an ellipsis."""
    long = "Jan Nepomuk Novák z Horní Dolní u Brna"
    assert seat_name("Eva Malá") == "Eva Malá"
    cut = seat_name(long)
    assert len(cut) <= SEAT_NAME_CHARS and cut.endswith("…") and long.startswith(cut[:-1])


async def test_a_recovered_tables_room_names_its_seats_as_the_entries_again(server: Server) -> None:
    """After a restart the rooms come back named as the players are on the server: name_seats names them as the
    entries again."""
    setup = await tournament(server.url, FILE)
    await setup.organiser.send(StartRound(setup.tid, setup.secret))
    await expect(setup.organiser, TournamentDone)
    state = server.tournaments.runs[setup.tid].state
    (table,) = state.tables.values()
    room = server.lobby.rooms[table.room]
    for player in list(room.core.names):
        room.core.names[player] = "as on the server"
    name_seats(cast(Any, SimpleNamespace(rooms=server.lobby.rooms)), state)
    assert sorted(room.core.names.values()) == ["Eva Malá", "Lucie Bílá"]

"""A tournament round's tables as the lobby opens and closes them: one room per match, held for its two coaches.

Why here: the tournament's core (``server.tournaments.tournament_core``) asks for tables by match and coaches; the
lobby opens rooms whose seats are held for two players (``Lobby.open_tables``, all of a round's in one write) under
the match's ruleset and its stage's settings, and closes a held room whose match never started (``Lobby.close_table``:
whoever is in it is told he left, and the room is forgotten as one that closed empty).
"""

from __future__ import annotations

from collections.abc import Sequence

from server.rooms.lobby import HeldTable, Lobby
from server.tournaments.creation import stage_overrides
from server.tournaments.state import TournamentState, match_at
from server.tournaments.tournament_core import OpenedTable, TableToOpen, seat_name
from shared.tournament.model import Tournament


async def open_tables(lobby: Lobby, t: Tournament, tables: Sequence[TableToOpen]) -> list[OpenedTable]:
    """A rated room per table, held for its coaches, under the match's ruleset and the stage's settings."""
    held = [HeldTable(ruleset=table.ruleset, overrides=stage_overrides(t.stages[table.key[0]]),
                      home=(table.home.player_id, table.home.name), away=(table.away.player_id, table.away.name))
            for table in tables]
    rooms = await lobby.open_tables(held)
    return [OpenedTable(key=table.key, room=room.code, match_id=room.match.id) for table, room in zip(tables, rooms,
                                                                                                     strict=True)]


async def close_table(lobby: Lobby, code: str) -> None:
    """Close a table's room whose match never started."""
    await lobby.close_table(code)


def name_seats(lobby: Lobby, state: TournamentState) -> None:
    """After a restart: the recovered rooms of a tournament's tables name their seats as the entries again (the rooms'
    recovery named them as the players are named on the server)."""
    for key, table in state.tables.items():
        room = lobby.rooms.get(table.room)
        if room is None:
            continue
        m = match_at(state.tournament, key)
        for entry in (m.home, m.away):
            coach = state.coaches.get(entry)
            if coach is not None:
                room.core.names[coach.player_id] = seat_name(state.name_of(entry))

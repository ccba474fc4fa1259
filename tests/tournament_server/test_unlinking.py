"""Repairing a wrong claim at registration: an entry the organiser withdrew no longer holds its coach (a duplicate
made by mistake), and the organiser may unlink an entry from the player who claimed it (UnlinkEntry: a fresh code
for its right player; the spent one no longer works; not while its match is being played; audited; kept over a
restart)."""

from __future__ import annotations

from server.app import Server
from shared.protocol import (
    EntriesRegistered,
    EntryForm,
    JoinTournament,
    RegisterEntries,
    StartRound,
    TournamentDone,
    TournamentJoined,
    UnlinkEntry,
    WithdrawEntry,
)
from tests.server.players import WireClient
from tests.tournament_server.helpers import Setup, expect, file_of, refused, tournament


def _id(server: Server, client: WireClient) -> int:
    """The player id of a connection, as the server knows it."""
    return next(pid for pid, session in server.sessions.items() if session.name == client.welcome.player)


async def _prepared(server: Server, name: str) -> tuple[Setup, str]:
    """A tournament of two entries and a third prepared for ``name``; the setup and the third's code."""
    setup = await tournament(server.url, file_of(2), checked_in=0)
    await setup.organiser.send(RegisterEntries(setup.tid, setup.secret, (EntryForm(name),)))
    return setup, (await expect(setup.organiser, EntriesRegistered)).entries[0].code


async def test_a_withdrawn_duplicate_frees_its_player_for_his_own_entry(server: Server) -> None:
    """Eva entered as herself by mistake (a second entry); the organiser withdraws it; her code then claims the
    entry prepared for her, and she coaches that one."""
    setup, code = await _prepared(server, "Lucie Bílá")
    eva = await WireClient.connect(server.url, "Eva Malá")
    await eva.send(JoinTournament(setup.tid))
    duplicate = (await expect(eva, TournamentJoined)).entry
    assert await refused(eva, JoinTournament(setup.tid, code)) == "ALREADY_ENTERED"
    await setup.organiser.send(WithdrawEntry(setup.tid, duplicate, setup.secret,
                                             reason="entered twice"))
    await expect(setup.organiser, TournamentDone)
    await eva.send(JoinTournament(setup.tid, code))
    joined = await expect(eva, TournamentJoined)
    assert joined.name == "Lucie Bílá"
    state = server.tournaments.runs[setup.tid].state
    assert state.entry_of(_id(server, eva)) == joined.entry and state.entered(_id(server, eva)) == joined.entry


async def test_the_organiser_unlinks_a_wrong_claim_and_the_entry_gets_a_fresh_code(server: Server) -> None:
    """Tomáš claimed Lucie's entry with her code; the organiser unlinks it: Tomáš coaches nothing, the spent code
    is refused, the new one makes Lucie its coach; the audit log says so; the restarted server keeps it."""
    setup, code = await _prepared(server, "Lucie Bílá")
    tid, secret = setup.tid, setup.secret
    tomas = await WireClient.connect(server.url, "Tomáš")
    await tomas.send(JoinTournament(tid, code))
    entry = (await expect(tomas, TournamentJoined)).entry
    await setup.organiser.send(UnlinkEntry(tournament=tid, secret=secret, entry=entry,
                                           reason="Tomáš took Lucie's code"))
    told = (await expect(setup.organiser, EntriesRegistered)).entries
    assert [(e.entry, e.name) for e in told] == [(entry, "Lucie Bílá")] and told[0].code != code
    state = server.tournaments.runs[tid].state
    assert entry not in state.coaches and state.entry_of(_id(server, tomas)) is None
    assert state.audit[-1].act == "unlink" and state.audit[-1].reason == "Tomáš took Lucie's code"
    lucie = await WireClient.connect(server.url, "Lucie Bílá")
    assert await refused(lucie, JoinTournament(tid, code)) == "BAD_ENTRY_CODE"
    await lucie.send(JoinTournament(tid, told[0].code))
    assert (await expect(lucie, TournamentJoined)).entry == entry
    assert server.tournaments.runs[tid].state.coaches[entry].player_id == _id(server, lucie)


async def test_unlinking_needs_the_secret_a_coach_and_no_match_being_played(server: Server) -> None:
    """A player cannot unlink (NOT_ORGANISER); an entry without a coach has nothing to unlink (NOT_ENTERED); an
    unknown entry is UNKNOWN_PLAYER; an entry whose match is being played is refused, its coach kept."""
    setup = await tournament(server.url, file_of(4))
    tid, secret = setup.tid, setup.secret
    player = setup.coaches["p1"]
    assert await refused(player, UnlinkEntry(tournament=tid, secret="guess", entry="p1")) == "NOT_ORGANISER"
    assert await refused(setup.organiser, UnlinkEntry(tournament=tid, secret=secret, entry="p9")) == "UNKNOWN_PLAYER"
    await setup.organiser.send(StartRound(tid, secret))
    await expect(setup.organiser, TournamentDone)
    assert await refused(setup.organiser, UnlinkEntry(tournament=tid, secret=secret, entry="p1")) == \
        "TOURNAMENT_CLOSED"
    assert "p1" in server.tournaments.runs[tid].state.coaches
    setup2, _code = await _prepared(server, "Nobody Yet")
    state = server.tournaments.runs[setup2.tid].state
    third = next(e for e in state.tournament.player_ids() if e not in state.coaches)
    unlink = UnlinkEntry(tournament=setup2.tid, secret=setup2.secret, entry=third)
    assert await refused(setup2.organiser, unlink) == "NOT_ENTERED"

"""Only the holder of a tournament's organiser secret does the organiser's acts; coaches act for their own entries."""

from __future__ import annotations

import hashlib
import sqlite3

from server.app import Server
from server.store.hash_key import KEY_FILE
from server.store.sqlite.sqlite_store import DATABASE
from server.tokens import Hasher
from shared.protocol import (
    AutoStartRounds,
    CheckIn,
    ClientMessage,
    EndTournament,
    EntriesRegistered,
    EntryForm,
    FileDispute,
    GiveCard,
    JoinTournament,
    OverrideResult,
    RegisterEntries,
    ResolveDispute,
    Score,
    StartRound,
    TournamentDone,
    TournamentJoined,
    WithdrawEntry,
)
from tests.server.players import WireClient
from tests.tournament_server.helpers import expect, file_of, refused, tournament, watcher


def _organiser_acts(tid: str, secret: str) -> list[ClientMessage]:
    """Every act that needs the organiser secret, with ``secret``."""
    return [
        StartRound(tid, secret),
        RegisterEntries(tid, secret, (EntryForm("Intruder"),)),
        GiveCard(tournament=tid, secret=secret, entry="p1", card="red", reason="no reason"),
        OverrideResult(tournament=tid, secret=secret, stage=0, round=1, table=1, reason="no reason",
                       score=Score(5, 0)),
        ResolveDispute(tournament=tid, secret=secret, case=1, ruling="stands", reason="no reason"),
        EndTournament(tid, secret, "no reason"),
        AutoStartRounds(tid, secret, 1000),
        CheckIn(tid, "p2", secret),
        WithdrawEntry(tid, "p2", secret),
    ]


async def test_a_player_and_a_spectator_cannot_do_the_organisers_acts(server: Server) -> None:
    """An entered coach and a spectator get NOT_ORGANISER for every organiser act (a wrong secret, or one taken
    from another tournament), and the tournament's log does not change."""
    setup = await tournament(server.url, file_of(4))
    other = await tournament(server.url, file_of(2))
    spectator, _ = await watcher(server.url, setup.tid)
    player = setup.coaches["p1"]
    before = server.tournaments.runs[setup.tid].state.version
    for client in (player, spectator):
        for secret in ("guessed", other.secret, setup.secret[:-1]):
            for act in _organiser_acts(setup.tid, secret):
                assert await refused(client, act) == "NOT_ORGANISER", act
    assert server.tournaments.runs[setup.tid].state.version == before


async def test_the_organiser_secret_and_the_entry_codes_are_kept_only_as_keyed_hashes(server: Server) -> None:
    """The store holds the organiser secret and each entry code only as HMAC-SHA-256 under the data directory's key,
    never the secret, a code or a code's bare SHA-256 (which trying every 8-character code would reverse)."""
    setup = await tournament(server.url, file_of(2), checked_in=0)
    await setup.organiser.send(RegisterEntries(setup.tid, setup.secret, (EntryForm("Late"),)))
    codes = [c.code for c in (await expect(setup.organiser, EntriesRegistered)).entries]
    key = bytes.fromhex((server.config.data_dir / KEY_FILE).read_text())
    with sqlite3.connect(server.config.data_dir / DATABASE) as conn:
        dump = "\n".join(conn.iterdump())
        (stored,) = conn.execute("SELECT secret_hash FROM tournaments WHERE id = ?", (setup.tid,)).fetchone()
    assert stored == Hasher(key).hash(setup.secret) != hashlib.sha256(setup.secret.encode()).hexdigest()
    assert setup.secret not in dump
    assert codes and all(code not in dump for code in codes)
    assert hashlib.sha256(codes[0].encode()).hexdigest() not in dump
    assert Hasher(key).hash(codes[0]) in dump


async def test_an_entry_code_claims_its_entry_once(server: Server) -> None:
    """A code makes its bearer the entry's coach; the same code again, or a wrong one, is BAD_ENTRY_CODE; a coach
    cannot enter twice (ALREADY_ENTERED)."""
    stranger = await WireClient.connect(server.url, "stranger")
    setup = await tournament(server.url, file_of(2), checked_in=0)
    await setup.organiser.send(RegisterEntries(setup.tid, setup.secret, (EntryForm("Newcomer", club="SK Brno"),)))
    code = (await expect(setup.organiser, EntriesRegistered)).entries[0].code
    first = await WireClient.connect(server.url, "first")
    await first.send(JoinTournament(setup.tid, code.lower()))
    assert (await expect(first, TournamentJoined)).name == "Newcomer"
    second = await WireClient.connect(server.url, "second")
    assert await refused(second, JoinTournament(setup.tid, code)) == "BAD_ENTRY_CODE"
    assert await refused(second, JoinTournament(setup.tid, "AAAAAAAA")) == "BAD_ENTRY_CODE"
    assert await refused(first, JoinTournament(setup.tid)) == "ALREADY_ENTERED"
    assert await refused(stranger, JoinTournament("NOSUCH")) == "TOURNAMENT_NOT_FOUND"


async def test_a_coach_acts_only_for_his_own_entry_and_his_own_matches(server: Server) -> None:
    """A coach cannot check in or withdraw another entry, nor dispute a match that is not his (NOT_ENTERED); a
    spectator has no entry at all."""
    setup = await tournament(server.url, file_of(4))
    spectator, _ = await watcher(server.url, setup.tid)
    await setup.organiser.send(StartRound(setup.tid, setup.secret))
    await expect(setup.organiser, TournamentDone)
    state = server.tournaments.runs[setup.tid].state
    first = [e for e in state.tournament.results[0].matches]
    assert len(first) == 2
    outsider = next(entry for entry in setup.coaches if entry not in (first[0].home, first[0].away))  # type: ignore[union-attr]
    assert await refused(setup.coaches["p1"], CheckIn(setup.tid, "p2")) == "NOT_ENTERED"
    assert await refused(setup.coaches["p1"], WithdrawEntry(setup.tid, "p2")) == "NOT_ENTERED"
    assert await refused(setup.coaches[outsider], FileDispute(setup.tid, 0, 1, 1, "unfair")) == "NOT_ENTERED"
    assert await refused(spectator, CheckIn(setup.tid)) == "NOT_ENTERED"
    assert await refused(spectator, FileDispute(setup.tid, 0, 1, 1, "unfair")) == "NOT_ENTERED"

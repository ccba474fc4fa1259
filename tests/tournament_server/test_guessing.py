"""Guessing entry codes over many connections: limited per address and per tournament, answered late, logged once a
burst, and over once registration closes - all over real websockets."""

from __future__ import annotations

import logging
import time

import pytest

from server.connections import address_budgets
from server.constants import CODE_GUESS_DELAY_S, ENTRY_GUESS_BURST, TOURNAMENT_GUESS_BURST
from shared.protocol import (
    CheckIn,
    CreateTournament,
    EndTournament,
    Error,
    JoinTournament,
    OverrideResult,
    Score,
    StartRound,
    TournamentCreated,
    TournamentDone,
    TournamentJoined,
)
from tests.server.conftest import Start
from tests.server.players import WireClient
from tests.tournament_server.helpers import expect, file_of, refused, tournament

WRONG = "AAAAAAAA"  # never an issued code: issued codes are random, and this test's tournaments have few


async def _guess(url: str, tid: str, code: str, *, headers: dict[str, str] | None = None,
                 name: str | None = None) -> Error | TournamentJoined:
    """One JoinTournament with ``code`` on a new connection: the refusal or the welcome into the entry."""
    client = await WireClient.connect(url, name, headers=headers)
    try:
        await client.send(JoinTournament(tid, code))
        while True:
            message = await client.recv()
            if isinstance(message, (Error, TournamentJoined)):
                return message
    finally:
        await client.close()


def _from(address: str) -> dict[str, str]:
    """The header a trusted proxy sends for a client at ``address``."""
    return {"X-Forwarded-For": address}


async def test_wrong_entry_codes_from_one_address_are_limited_over_many_connections(start_server: Start) -> None:
    """Each guess on a fresh connection from one address: the first ENTRY_GUESS_BURST wrong codes are
    BAD_ENTRY_CODE, then RATE_LIMITED with a retry time - and then even the right code is not tried."""
    server = await start_server(exempt=())
    server.limits.guess_delay_s = 0.0
    organiser = await WireClient.connect(server.url, "organiser")
    await organiser.send(CreateTournament(file=file_of(2)))
    created = await expect(organiser, TournamentCreated)
    answers = [await _guess(server.url, created.tournament, WRONG) for _ in range(ENTRY_GUESS_BURST)]
    assert {a.code for a in answers if isinstance(a, Error)} == {"BAD_ENTRY_CODE"} and len(answers) == ENTRY_GUESS_BURST
    limited = await _guess(server.url, created.tournament, created.entries[0].code)
    assert isinstance(limited, Error) and limited.code == "RATE_LIMITED" and limited.ref == "JoinTournament"
    assert limited.retry_ms is not None and 0 < limited.retry_ms <= 60_000
    other = await _guess(server.url, created.tournament, created.entries[0].code, headers=_from("10.1.1.1"))
    assert isinstance(other, Error) and other.code == "RATE_LIMITED"  # a header from an untrusted peer changes nothing


async def test_a_tournament_takes_only_so_many_wrong_codes_from_all_addresses_together(start_server: Start) -> None:
    """Through a trusted proxy each guess comes from an address of its own: after TOURNAMENT_GUESS_BURST wrong codes
    the tournament refuses a fresh address too (RATE_LIMITED), while another tournament still tries codes."""
    server = await start_server(exempt=(), trusted_proxies=("127.0.0.1",))
    server.limits.guess_delay_s = 0.0
    organiser = await WireClient.connect(server.url, "organiser")
    await organiser.send(CreateTournament(file=file_of(2)))
    cup = await expect(organiser, TournamentCreated)
    await organiser.send(CreateTournament(file=file_of(2)))
    other = await expect(organiser, TournamentCreated)
    for number in range(TOURNAMENT_GUESS_BURST):
        answer = await _guess(server.url, cup.tournament, WRONG, headers=_from(f"10.0.{number // 200}.{number % 200}"))
        assert isinstance(answer, Error) and answer.code == "BAD_ENTRY_CODE", number
    fresh = await _guess(server.url, cup.tournament, cup.entries[0].code, headers=_from("192.0.2.7"))
    assert isinstance(fresh, Error) and fresh.code == "RATE_LIMITED"
    joined = await _guess(server.url, other.tournament, other.entries[0].code, headers=_from("192.0.2.7"))
    assert isinstance(joined, TournamentJoined)


async def test_a_wrong_entry_code_is_answered_a_second_late_and_a_right_one_at_once(start_server: Start) -> None:
    """CODE_GUESS_DELAY_S: a connection tries at most one wrong code a second; the right code is not slowed."""
    server = await start_server()
    setup = await tournament(server.url, file_of(2), checked_in=0, keep_unclaimed=1)
    stranger = await WireClient.connect(server.url, "stranger")
    began = time.monotonic()
    assert await refused(stranger, JoinTournament(setup.tid, WRONG)) == "BAD_ENTRY_CODE"
    assert time.monotonic() - began >= CODE_GUESS_DELAY_S
    began = time.monotonic()
    await stranger.send(JoinTournament(setup.tid, setup.unclaimed[0].code))
    await expect(stranger, TournamentJoined)
    assert time.monotonic() - began < CODE_GUESS_DELAY_S


async def test_repeated_wrong_codes_are_logged_once_per_burst(start_server: Start,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    """Guessing on past the budget logs one WARNING naming the address and how many wrong codes it sent - not one a
    guess."""
    server = await start_server(exempt=())
    server.limits.guess_delay_s = 0.0
    organiser = await WireClient.connect(server.url, "organiser")
    await organiser.send(CreateTournament(file=file_of(2)))
    created = await expect(organiser, TournamentCreated)
    with caplog.at_level(logging.WARNING, logger=address_budgets.__name__):
        for _ in range(ENTRY_GUESS_BURST + 5):
            await _guess(server.url, created.tournament, WRONG)
    lines = [r.getMessage() for r in caplog.records if r.name == address_budgets.__name__]
    assert len(lines) == 1, lines
    assert lines[0].startswith("127.0.0.1: ") and f"{ENTRY_GUESS_BURST} wrong entry codes" in lines[0]


async def test_entry_codes_expire_when_the_tournaments_last_round_starts(start_server: Start) -> None:
    """An unclaimed entry's code still works once round 1 has started (a late arrival plays from round 2), but not
    once the last round has: REGISTRATION_CLOSED, whatever the code - and entering as oneself closes too."""
    server = await start_server()
    setup = await tournament(server.url, file_of(4, stages=[{"system": "swiss", "rounds": 2}]), checked_in=2,
                             keep_unclaimed=2)
    late, never = setup.unclaimed
    await setup.organiser.send(StartRound(setup.tid, setup.secret))
    await expect(setup.organiser, TournamentDone)
    latecomer = await WireClient.connect(server.url, "late")
    await latecomer.send(JoinTournament(setup.tid, late.code))
    assert (await expect(latecomer, TournamentJoined)).entry == late.entry
    await latecomer.send(CheckIn(setup.tid))
    await expect(latecomer, TournamentDone)
    state = server.tournaments.runs[setup.tid].state
    (first,) = state.tournament.results
    for table, _match in enumerate([m for m in first.matches if hasattr(m, "home")], start=1):
        await setup.organiser.send(OverrideResult(tournament=setup.tid, secret=setup.secret, stage=0, round=1,
                                                  table=table, reason="played on paper", score=Score(1, 0)))
        await expect(setup.organiser, TournamentDone)
    await setup.organiser.send(StartRound(setup.tid, setup.secret))
    assert (await expect(setup.organiser, TournamentDone)).id == 2
    closed = await _guess(server.url, setup.tid, never.code, name="never")
    assert isinstance(closed, Error) and closed.code == "REGISTRATION_CLOSED"
    walk_in = await WireClient.connect(server.url, "walk-in")
    assert await refused(walk_in, JoinTournament(setup.tid)) == "REGISTRATION_CLOSED"


async def test_no_code_is_tried_once_the_tournament_has_ended(start_server: Start) -> None:
    """After EndTournament an unclaimed entry's code claims nothing (TOURNAMENT_CLOSED)."""
    server = await start_server()
    setup = await tournament(server.url, file_of(3), checked_in=0, keep_unclaimed=1)
    await setup.organiser.send(EndTournament(setup.tid, setup.secret, "rained off"))
    await expect(setup.organiser, TournamentDone)
    answer = await _guess(server.url, setup.tid, setup.unclaimed[0].code, name="latecomer")
    assert isinstance(answer, Error) and answer.code == "TOURNAMENT_CLOSED"

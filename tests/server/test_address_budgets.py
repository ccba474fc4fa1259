"""What many connections from one address may do together: claim-code guesses, new players, guests who are stored
only when they need to be, the exempt loopback and trusted proxies - over real websockets, and the budgets' own
arithmetic."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from server.app import Server
from server.connections import address_budgets
from server.connections.address_budgets import NEW_PLAYER, AddressBudgets, Budgets, Kind
from server.constants import CLAIM_GUESS_BURST
from server.store.sqlite.sqlite_store import DATABASE
from shared.protocol import (
    PROTOCOL_VERSION,
    CloseCode,
    CreateRoom,
    Error,
    GetProfile,
    Hello,
    ListRooms,
    ListTournaments,
    Profile,
    RoomJoined,
    RoomList,
    TournamentList,
    Welcome,
)
from tests.server.conftest import SHORT, Start
from tests.server.players import WireClient, answer_to


def _players(server: Server) -> int:
    """How many player rows the server's database holds."""
    with sqlite3.connect(server.config.data_dir / DATABASE) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM players").fetchone()[0])


def _small_new_player_budget(monkeypatch: pytest.MonkeyPatch, burst: int) -> None:
    """Servers started after this let an address add only ``burst`` players an hour."""
    kind = address_budgets.KINDS[NEW_PLAYER]
    monkeypatch.setitem(address_budgets.KINDS, NEW_PLAYER, Kind(kind.name, kind.what, burst, kind.window_s))


async def test_wrong_claim_codes_from_one_address_are_limited_over_many_connections(start_server: Start) -> None:
    """CLAIM_GUESS_BURST Hellos with wrong claim codes, each on a new connection, are BAD_CLAIM; the next is
    RATE_LIMITED (ref Hello) with a retry time, and a right code is not tried then."""
    server = await start_server(exempt=())
    server.limits.guess_delay_s = 0.0
    for _ in range(CLAIM_GUESS_BURST):
        answer = await answer_to(server.url, Hello(PROTOCOL_VERSION, "tests", claim="AAAAAAAA"))
        assert isinstance(answer, Error) and answer.code == "BAD_CLAIM"
    limited = await answer_to(server.url, Hello(PROTOCOL_VERSION, "tests", claim="AAAAAAAA"))
    assert isinstance(limited, Error) and limited.code == "RATE_LIMITED" and limited.ref == "Hello"
    assert limited.retry_ms is not None and limited.retry_ms > 0


async def test_a_wrong_claim_code_writes_nothing(start_server: Start) -> None:
    """A wrong claim code is answered from a read: the store commits nothing for it."""
    server = await start_server()
    server.limits.guess_delay_s = 0.0
    await answer_to(server.url, Hello(PROTOCOL_VERSION, "tests", claim="AAAAAAAA"))
    before = server.store.commits
    for _ in range(5):
        await answer_to(server.url, Hello(PROTOCOL_VERSION, "tests", claim="AAAAAAAA"))
    assert server.store.commits == before


async def test_a_guest_who_only_looks_adds_no_player_and_logs_no_warning(start_server: Start,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    """Fifty tokenless connections that list rooms and tournaments and ask their own profile are welcomed as
    guest-<n> with tokens, write no player row and log nothing at WARNING."""
    server = await start_server(exempt=())
    with caplog.at_level(logging.INFO):
        for _ in range(50):
            guest = await WireClient.connect(server.url)
            for request, answer in ((ListRooms(), RoomList), (ListTournaments(), TournamentList),
                                    (GetProfile(), Profile)):
                await guest.send(request)
                assert isinstance(await guest.until(answer), answer)
            await guest.close()
    assert guest.welcome.player.startswith("guest-") and guest.welcome.player_id is not None
    assert _players(server) == 0
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_guest_is_stored_when_he_takes_a_seat_and_his_token_outlives_a_restart(start_server: Start,
                                                                                      tmp_path: Path) -> None:
    """A guest's token works on reconnecting while he is not stored; CreateRoom stores him (name and id as
    welcomed) and his token still works after a restart. A guest never stored is unknown after it (4002)."""
    data = tmp_path / "data"
    server = await start_server(data_dir=data)
    looker = await WireClient.connect(server.url)
    again = await WireClient.connect(server.url, token=looker.token)
    assert (again.welcome.player, again.welcome.player_id) == (looker.welcome.player, looker.welcome.player_id)
    coach = await WireClient.connect(server.url)
    await coach.send(CreateRoom("quick", SHORT, True))
    await coach.until(RoomJoined)
    assert _players(server) == 1
    await server.shutdown()
    restarted = await start_server(data_dir=data)
    back = await WireClient.connect(restarted.url, token=coach.token)
    assert back.welcome.player == coach.welcome.player
    assert await answer_to(restarted.url, Hello(PROTOCOL_VERSION, "tests", looker.token)) == CloseCode.BAD_TOKEN


async def test_new_players_from_one_address_are_limited(start_server: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its budget of new players an address's named Hello is closed with 1013 (try again later) and a guest
    who takes a seat is refused RATE_LIMITED; tokens of players it added still work."""
    _small_new_player_budget(monkeypatch, 3)
    server = await start_server(exempt=())
    named = [await WireClient.connect(server.url, f"player-{n}") for n in range(3)]
    assert await answer_to(server.url, Hello(PROTOCOL_VERSION, "tests", None, "one-too-many")) == \
        CloseCode.TRY_AGAIN_LATER
    guest = await WireClient.connect(server.url)
    await guest.send(CreateRoom("quick", SHORT, True))
    refusal = await guest.until(Error)
    assert refusal.code == "RATE_LIMITED" and refusal.retry_ms and refusal.ref == "CreateRoom"
    assert isinstance(await answer_to(server.url, Hello(PROTOCOL_VERSION, "tests", named[0].token)), Welcome)
    assert _players(server) == 3


async def test_the_servers_own_machine_is_exempt_but_not_through_a_proxy_it_does_not_trust(
        start_server: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the default --exempt (loopback) many new players from 127.0.0.1 are welcome; the same connections with
    an X-Forwarded-For header from a proxy the server was not told to trust count against 127.0.0.1's budget."""
    _small_new_player_budget(monkeypatch, 2)
    server = await start_server()
    for n in range(5):
        await WireClient.connect(server.url, f"local-{n}")
    proxied = {"X-Forwarded-For": "203.0.113.9"}
    for n in range(2):
        await WireClient.connect(server.url, f"proxied-{n}", headers=proxied)
    assert await answer_to(server.url, Hello(PROTOCOL_VERSION, "tests", None, "proxied-2"), proxied) == \
        CloseCode.TRY_AGAIN_LATER


async def test_a_trusted_proxy_names_each_client_by_its_own_address(start_server: Start,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Behind --trusted-proxy 127.0.0.1 the client is X-Forwarded-For's address: one client's budget spent does not
    refuse another's."""
    _small_new_player_budget(monkeypatch, 1)
    server = await start_server(exempt=(), trusted_proxies=("127.0.0.1",))
    await WireClient.connect(server.url, "first", headers={"X-Forwarded-For": "198.51.100.1"})
    assert await answer_to(server.url, Hello(PROTOCOL_VERSION, "tests", None, "again"),
                           {"X-Forwarded-For": "198.51.100.1"}) == CloseCode.TRY_AGAIN_LATER
    await WireClient.connect(server.url, "second", headers={"X-Forwarded-For": "198.51.100.2"})


def test_the_client_address_is_the_rightmost_one_no_trusted_proxy_added() -> None:
    """X-Forwarded-For is read from the nearest hop back: trusted proxies are skipped, the first other address is
    the client (what it says about hops before it is not believed); from an untrusted peer the header is ignored."""
    limits = AddressBudgets(exempt=("127.0.0.0/8",), trusted_proxies=("10.0.0.0/8",))
    assert limits.client_from("10.0.0.5", ["6.6.6.6", "198.51.100.4", "10.0.0.9"]).address == "198.51.100.4"
    assert limits.client_from("10.0.0.5", ["10.0.0.7"]).address == "10.0.0.7"
    assert limits.client_from("203.0.113.1", ["198.51.100.4"]).address == "203.0.113.1"
    assert limits.client_from("127.0.0.1", []).exempt
    assert not limits.client_from("127.0.0.1", ["198.51.100.4"]).exempt
    assert limits.client_from("::ffff:127.0.0.1", []).exempt


def test_a_budget_allows_its_burst_refills_at_its_rate_and_forgets_full_buckets() -> None:
    """A bucket of 3 over 30 s: three acts, then a wait of 10 s for the next; full again after 30 s, the key is
    forgotten when room is needed."""
    now = [0.0]
    budgets = Budgets(3, 30.0, lambda: now[0], kept=2)
    for _ in range(3):
        assert budgets.wait_s("a") == 0.0
        budgets.spend("a")
    assert budgets.wait_s("a") == pytest.approx(10.0)
    assert budgets.first_refusal("a") == (3, 0.0) and budgets.first_refusal("a") is None
    now[0] = 10.0
    assert budgets.wait_s("a") == 0.0
    now[0] = 100.0
    budgets.spend("b")
    budgets.spend("c")  # a is full again: forgotten to make room
    assert budgets.wait_s("a") == 0.0 and budgets.first_refusal("a") is None

"""Who may create tournaments (--tournaments open|named|organisers), how many an address may create, and the list
that shows the running ones first - over real websockets."""

from __future__ import annotations

import pytest

from server.connections import address_budgets
from server.connections.address_budgets import NEW_TOURNAMENT, Kind
from server.tournaments import handlers
from shared.protocol import (
    CreateTournament,
    EndTournament,
    Error,
    ListTournaments,
    Rename,
    Renamed,
    TournamentCreated,
    TournamentDone,
    TournamentList,
)
from tests.server.conftest import Start
from tests.server.players import WireClient
from tests.tournament_server.helpers import expect, file_of, refused


def _cup(name: str = "cup") -> CreateTournament:
    """A small tournament to create."""
    return CreateTournament(name=name, system="swiss", rounds=3)


async def _created(client: WireClient, request: CreateTournament | None = None) -> TournamentCreated:
    """A creation that must succeed."""
    await client.send(request or _cup())
    return await expect(client, TournamentCreated)


async def test_on_a_named_server_a_guest_may_not_create_a_tournament_until_he_has_a_name(start_server: Start) -> None:
    """The default (named): a guest's CreateTournament is NOT_ALLOWED; once renamed he may; a player who came with
    a name may at once."""
    server = await start_server(exempt=())
    guest = await WireClient.connect(server.url)
    assert await refused(guest, _cup()) == "NOT_ALLOWED"
    await guest.send(Rename("Jana Nováková"))
    await guest.until(Renamed)
    await _created(guest)
    await _created(await WireClient.connect(server.url, "Petr"))


async def test_only_the_organisers_the_owner_named_create_on_an_organisers_server(start_server: Start) -> None:
    """--tournaments organisers --organiser "Jana Nováková": she may (her name in any case), another named player
    and a guest may not."""
    server = await start_server(exempt=(), tournaments="organisers", organisers=("Jana Nováková",))
    await _created(await WireClient.connect(server.url, "JANA NOVÁKOVÁ"))
    assert await refused(await WireClient.connect(server.url, "Petr"), _cup()) == "NOT_ALLOWED"
    assert await refused(await WireClient.connect(server.url), _cup()) == "NOT_ALLOWED"


async def test_anyone_creates_on_an_open_server_and_the_owners_machine_on_any(start_server: Start) -> None:
    """--tournaments open lets a guest create; on an organisers server a guest from the exempt loopback may too (the
    owner's `sprtec organise` and `sprtec tournament run`)."""
    open_server = await start_server(exempt=(), tournaments="open")
    await _created(await WireClient.connect(open_server.url))
    strict = await start_server(tournaments="organisers", organisers=("Jana",))
    await _created(await WireClient.connect(strict.url))


async def test_an_address_creates_only_so_many_tournaments(start_server: Start,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its budget an address's CreateTournament is RATE_LIMITED with a retry time, whoever asks from there."""
    kind = address_budgets.KINDS[NEW_TOURNAMENT]
    monkeypatch.setitem(address_budgets.KINDS, NEW_TOURNAMENT, Kind(kind.name, kind.what, 2, kind.window_s))
    server = await start_server(exempt=())
    first = await WireClient.connect(server.url, "first")
    await _created(first)
    await _created(first)
    second = await WireClient.connect(server.url, "second")
    await second.send(_cup())
    refusal = await second.until(Error)
    assert refusal.code == "RATE_LIMITED" and refusal.ref == "CreateTournament" and refusal.retry_ms


async def test_the_running_tournaments_are_listed_first_and_a_flood_cannot_push_them_off(
        start_server: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    """TournamentList: running tournaments first (newest first), then those over; with room for 3 lines, the cup
    created first still shows after four newer tournaments that ended."""
    monkeypatch.setattr(handlers, "TOURNAMENTS_LISTED", 3)
    server = await start_server()
    organiser = await WireClient.connect(server.url, "organiser")
    cup = await _created(organiser, CreateTournament(file=file_of(2)))
    ended = []
    for number in range(4):
        flood = await _created(organiser, _cup(f"flood {number}"))
        await organiser.send(EndTournament(flood.tournament, flood.secret, "spam"))
        await expect(organiser, TournamentDone)
        ended.append(flood.tournament)
    late = await _created(organiser, _cup("late"))
    await organiser.send(ListTournaments())
    listing = await organiser.until(TournamentList)
    assert [t.tournament for t in listing.tournaments] == [late.tournament, cup.tournament, ended[-1]]

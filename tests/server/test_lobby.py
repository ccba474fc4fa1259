"""Lobby flows end to end: quick-match pairing by ruleset and cancelling, resigning by Leave, the rematch."""

from __future__ import annotations

from server.app import Server
from shared.model import Team
from shared.protocol import (
    CancelQuickMatch,
    CreateRoom,
    Error,
    JoinRoom,
    Leave,
    Left,
    ListRooms,
    MatchEnded,
    Presence,
    QueueStatus,
    QuickMatch,
    Rematch,
    RematchOffered,
    RoomJoined,
    RoomList,
    Score,
    Snapshot,
    Watch,
)
from tests.server.conftest import SHORT
from tests.server.players import WireClient, two_coaches


async def test_quick_match_pairs_only_the_same_ruleset_and_cancel_leaves_the_queue(server: Server):
    """quick waits for quick (standard does not match it); the pair gets a public room; cancel empties the queue."""
    cy = await WireClient.connect(server.url, "cy")
    await cy.send(QuickMatch("quick"))
    assert (await cy.until(QueueStatus)).waiting
    di = await WireClient.connect(server.url, "di")
    await di.send(QuickMatch("standard"))
    assert (await di.until(QueueStatus)).waiting
    ed = await WireClient.connect(server.url, "ed")
    await ed.send(QuickMatch("quick"))
    joined_ed = await ed.until(RoomJoined)
    joined_cy = await cy.until(RoomJoined)
    assert joined_cy.code == joined_ed.code and {joined_cy.seat, joined_ed.seat} == {"home", "away"}
    room = server.lobby.find(joined_cy.code)
    await cy.until(Snapshot)  # the match's first Snapshot follows both RoomJoined
    assert room.ruleset == "quick" and not room.private and room.status == "playing"
    assert await server.lobby.waiting(None) == 1  # di still waits for a standard match
    await di.send(CancelQuickMatch())
    status = await di.until(QueueStatus)
    assert not status.waiting and await server.lobby.waiting(None) == 0
    await di.send(CancelQuickMatch())
    assert (await di.until(Error)).code == "NOT_IN_QUEUE"


async def test_any_ruleset_pairs_with_a_named_one_whichever_asked_first(server: Server):
    """A player open to any ruleset who waits first (told ruleset nil) is paired with a later ko request, and a
    ko request that waits first with a later open one: both play ko; two open players play standard."""
    for first_asks, second_asks, played in ((None, "ko", "ko"), ("ko", None, "ko"), (None, None, "standard")):
        first = await WireClient.connect(server.url, f"first {first_asks} {second_asks}")
        await first.send(QuickMatch(first_asks))
        status = await first.until(QueueStatus)
        assert status.queued and status.ruleset == first_asks
        second = await WireClient.connect(server.url, f"second {first_asks} {second_asks}")
        await second.send(QuickMatch(second_asks))
        joined = await second.until(RoomJoined)
        assert (await first.until(RoomJoined)).code == joined.code
        assert server.lobby.find(joined.code).ruleset == played
        for coach in (first, second):
            await coach.send(Leave())
            await coach.until(Left)


async def test_a_seat_is_the_players_and_another_connection_cannot_take_it_with_the_seat_token(server: Server):
    """RoomJoined's token is the player's own (Welcome's); a third player sending it in JoinRoom is ROOM_FULL, and
    the coach, connecting again as himself, is back in his seat without any seat token."""
    ann, bob = await two_coaches(server.url, "quick", SHORT, names=("Gil", "Hal"))
    seat_token = next(m for m in bob.received if isinstance(m, RoomJoined)).token
    assert seat_token == bob.token
    ivo = await WireClient.connect(server.url, "Ivo")
    await ivo.send(JoinRoom(ann.code, seat_token))
    assert (await ivo.until(Error)).code == "ROOM_FULL"
    await bob.close()
    again = await WireClient.connect(server.url, token=bob.token)
    joined = await again.until(RoomJoined)  # his match runs: he is taken back to his seat after the Welcome
    assert joined.code == ann.code and joined.seat == bob.team


async def _pair(server: Server) -> tuple[WireClient, WireClient]:
    """Ann creates a private room with the short settings, Bob joins it."""
    return await two_coaches(server.url, "quick", SHORT, started=False)


async def test_leaving_a_running_match_resigns_it(server: Server):
    """Leave during play ends the match for the other coach with the reason RESIGNED."""
    ann, bob = await _pair(server)
    await bob.send(Leave())
    assert (await bob.until(Left)).code == ann.code
    ended = await ann.until(MatchEnded)
    assert ended.winner == ann.team and ended.reason == "RESIGNED"
    assert server.lobby.find(ann.code).match.position.result is not None


async def test_a_rematch_both_coaches_accept_starts_a_new_match_with_the_seats_swapped(server: Server):
    """After the end, both Rematch: a new match id, a fresh Snapshot, home and away swapped, each told his new seat."""
    ann, bob = await _pair(server)
    room = server.lobby.find(ann.code)
    first_id, ann_team = room.match.id, ann.team
    await bob.send(Leave())
    await ann.until(MatchEnded)
    await bob.until(Left)
    await bob.send(JoinRoom(ann.code))  # his seat is still his
    await bob.until(RoomJoined)
    await ann.send(Rematch())
    offered = await bob.until(RematchOffered)
    assert offered.team == ann_team and room.match.id == first_id
    await bob.send(Rematch())
    snapshot = await ann.until(Snapshot)
    assert snapshot.match_id != first_id and snapshot.position.result is None
    assert (await bob.until(Snapshot)).match_id == snapshot.match_id
    presence = await ann.until(Presence)
    swapped: Team = "away" if ann_team == "home" else "home"
    assert getattr(presence.seats, swapped).name == "ann"
    assert room.core.coach_name(swapped) == "ann"
    assert room.status == "playing"
    for coach, seat in ((ann, swapped), (bob, str(ann_team))):
        joined = await coach.until(RoomJoined)
        assert joined.seat == seat and coach.team == seat and joined.token == coach.token
        assert joined.snapshot.match_id == snapshot.match_id and joined.snapshot.version == snapshot.version
        assert getattr(joined.snapshot.seats, seat).name == coach.welcome.player


async def test_the_room_list_shows_ruleset_coaches_spectators_and_score(server: Server):
    """A public room's line names its ruleset, both coaches, how many watch, its status and the score."""
    ann = await WireClient.connect(server.url, "ann")
    await ann.send(CreateRoom("quick", SHORT, False))
    await ann.until(RoomJoined)
    bob = await WireClient.connect(server.url, "bob")
    await bob.send(JoinRoom(ann.code))
    await bob.until(RoomJoined)
    eve = await WireClient.connect(server.url, "eve")
    await eve.send(Watch(ann.code))
    await eve.until(RoomJoined)
    await eve.send(ListRooms())
    (info,) = [r for r in (await eve.until(RoomList)).rooms if r.code == ann.code]
    assert info.ruleset == "quick" and info.status == "playing" and info.spectators == 1
    assert info.seats.home is not None and info.seats.away is not None
    assert (info.seats.home.name, info.seats.away.name) == ("ann", "bob")
    assert info.score == Score(0, 0)


async def test_quick_match_pairs_only_equal_setting_overrides_and_checks_them(server: Server):
    """quick with period_ms=20000 skips quick without overrides and with another period; it pairs the same ones."""
    short = {"period_ms": 20_000}
    plain = await WireClient.connect(server.url, "plain")
    await plain.send(QuickMatch("quick"))
    assert (await plain.until(QueueStatus)).waiting
    longer = await WireClient.connect(server.url, "longer")
    await longer.send(QuickMatch("quick", {"period_ms": 30_000}))
    assert (await longer.until(QueueStatus)).waiting
    fy = await WireClient.connect(server.url, "fy")
    await fy.send(QuickMatch("quick", short))
    assert (await fy.until(QueueStatus)).waiting
    gus = await WireClient.connect(server.url, "gus")
    await gus.send(QuickMatch("quick", short))
    joined = await gus.until(RoomJoined)
    assert (await fy.until(RoomJoined)).code == joined.code
    room = server.lobby.find(joined.code)
    assert room.core.overrides == short and room.match.position.part.clock_ms == 20_000
    assert await server.lobby.waiting("quick") == 2
    await plain.send(CancelQuickMatch())
    await plain.until(QueueStatus)
    for bad in (QuickMatch(None, short), QuickMatch("quick", {"period_ms": "soon"}), QuickMatch("quick", {"x": 1})):
        await plain.send(bad)
        assert (await plain.until(Error)).code == "BAD_SETTINGS"
    assert await server.lobby.waiting(None) == 1  # only longer waits: no bad request was queued

"""A room's chat over real websockets: who hears whom, cleaning, the chat's own rate limit, muting, spectators'
chat limited by the room, and the organiser's silence."""

from __future__ import annotations

import asyncio

from server.app import Server
from shared.protocol import Chat, CreateRoom, Error, JoinRoom, Mute, Muted, RoomJoined, Say, Snapshot, Watch
from tests.server.conftest import SHORT
from tests.server.players import WireClient

LONG = {**SHORT, "period_ms": 600_000, "move_clock_ms": 600_000}


async def _room(server: Server, spectator_chat: str = "room") -> tuple[WireClient, WireClient, WireClient]:
    """Ann (home) and Bob (away) in a started room, and Cy watching it."""
    ann = await WireClient.connect(server.url, "Ann")
    await ann.send(CreateRoom("quick", LONG, True, spectator_chat=spectator_chat))
    await ann.until(RoomJoined)
    bob = await WireClient.connect(server.url, "Bob")
    await bob.send(JoinRoom(ann.code))
    await bob.until(RoomJoined)
    await ann.until(Snapshot)
    cy = await WireClient.connect(server.url, "Cy")
    await cy.send(Watch(ann.code))
    await cy.until(RoomJoined)
    return ann, bob, cy


async def _quiet(client: WireClient, seconds: float = 0.3) -> list[object]:
    """What a client receives within ``seconds`` (nothing, if all is well)."""
    got: list[object] = []
    try:
        while True:
            got.append(await asyncio.wait_for(client.recv(), seconds))
    except TimeoutError:
        return got


async def test_a_coachs_line_reaches_everyone_in_the_room_cleaned(server: Server):
    """A line with a newline and a bidi override reaches both coaches and the spectator as one clean line."""
    ann, bob, cy = await _room(server)
    await ann.send(Say(text="  good\nluck \u202eall  "))
    for listener in (ann, bob, cy):
        chat = await listener.until(Chat)
        assert (chat.player, chat.seat, chat.text, chat.emote) == ("Ann", "home", "good luck all", None)


async def test_an_emote_and_a_line_of_nothing(server: Server):
    """An emote travels by its name; a line with nothing printable is BAD_MESSAGE; both text and emote too."""
    ann, bob, _ = await _room(server)
    await bob.send(Say(emote="well played"))
    assert (await ann.until(Chat)).emote == "well played"
    await ann.send(Say(text="\u200b\u202e"))
    assert (await ann.until(Error)).code == "BAD_MESSAGE"
    await ann.send(Say(text="hi", emote="wow"))
    assert (await ann.until(Error)).code == "BAD_MESSAGE"


async def test_chat_has_its_own_rate_limit(server: Server):
    """Five lines at once pass; the sixth is RATE_LIMITED and reaches nobody."""
    ann, bob, _ = await _room(server)
    for n in range(6):
        await ann.send(Say(text=f"line {n}"))
    assert (await ann.until(Error)).code == "RATE_LIMITED"
    lines = [m.text for m in await _quiet(bob) if isinstance(m, Chat)]
    lines += [m.text for m in bob.received if isinstance(m, Chat)]
    assert sorted({line or "" for line in lines}) == [f"line {n}" for n in range(5)]


async def test_a_player_mutes_another(server: Server):
    """Cy mutes Ann: Ann's lines no longer reach him (Bob still hears them); unmuted, they do again."""
    ann, bob, cy = await _room(server)
    await cy.send(Mute("ann"))
    assert await cy.until(Muted) == Muted("Ann", True)
    await ann.send(Say(text="can you hear me"))
    assert (await bob.until(Chat)).text == "can you hear me"
    assert not [m for m in await _quiet(cy) if isinstance(m, Chat)]
    await cy.send(Mute("Ann", muted=False))
    await cy.until(Muted)
    await ann.send(Say(text="now?"))
    assert (await cy.until(Chat)).text == "now?"


async def test_spectators_chat_among_themselves_or_not_at_all_when_the_room_says_so(server: Server):
    """spectator_chat=spectators: Cy's line reaches spectators only; spectator_chat=off: CHAT_CLOSED."""
    ann, _, cy = await _room(server, "spectators")
    di = await WireClient.connect(server.url, "Di")
    await di.send(Watch(ann.code))
    await di.until(RoomJoined)
    await cy.send(Say(text="what a save"))
    assert (await di.until(Chat)).seat == "spectator"
    assert not [m for m in await _quiet(ann) if isinstance(m, Chat)]
    await ann.send(Say(text="thanks"))
    heard = [(await cy.until(Chat)).text, (await cy.until(Chat)).text]  # his own line first, then the coach's
    assert heard == ["what a save", "thanks"]
    _, _, fay = await _room_named(server, "off")
    await fay.send(Say(text="hello"))
    assert (await fay.until(Error)).code == "CHAT_CLOSED"


async def _room_named(server: Server, spectator_chat: str) -> tuple[WireClient, WireClient, WireClient]:
    """A second room (other names) with a spectator."""
    ed = await WireClient.connect(server.url, "Ed")
    await ed.send(CreateRoom("quick", LONG, True, spectator_chat=spectator_chat))
    await ed.until(RoomJoined)
    fo = await WireClient.connect(server.url, "Fo")
    await fo.send(JoinRoom(ed.code))
    await fo.until(RoomJoined)
    fay = await WireClient.connect(server.url, "Fay")
    await fay.send(Watch(ed.code))
    await fay.until(RoomJoined)
    return ed, fo, fay


async def test_the_organiser_silences_a_player(server: Server):
    """A player silenced in a room gets CHAT_MUTED; nobody hears him."""
    ann, bob, _ = await _room(server)
    server.lobby.rooms[ann.code].silence(bob.welcome.player_id or 0)
    await bob.send(Say(text="you cheat"))
    assert (await bob.until(Error)).code == "CHAT_MUTED"
    assert not [m for m in await _quiet(ann) if isinstance(m, Chat)]

"""The organiser's mute: an entry's coach silenced in the tournament's chat at every table, kept in the audit log and
the entries' lines, undone by unmuting; only the organiser may do it."""

from __future__ import annotations

import asyncio

from server.app import Server
from shared.protocol import Chat, Error, MuteEntry, Say, StartRound, TournamentDone
from tests.server.players import WireClient
from tests.tournament_server.conftest import SHORT
from tests.tournament_server.helpers import expect, file_of, refused, sit, tournament, update_until, watcher

QUIET_S = 0.3  # how long a client listens for a line that must not come


async def _lines(client: WireClient) -> list[Chat]:
    """The chat lines that reach ``client`` within QUIET_S."""
    found: list[Chat] = []
    try:
        while True:
            message = await asyncio.wait_for(client.recv(), QUIET_S)
            if isinstance(message, Chat):
                found.append(message)
    except TimeoutError:
        return found


async def test_a_muted_coach_is_refused_chat_muted_at_his_table_until_unmuted(server: Server) -> None:
    """Muted before the round (with a reason), a coach's Say at his table is CHAT_MUTED and his opponent hears
    nothing; the update's entry line and audit log say so; unmuted, his line reaches the table again."""
    setup = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1, "ruleset": "quick",
                                                             "settings": SHORT}]))
    spectator, _ = await watcher(server.url, setup.tid)
    org = setup.organiser
    await org.send(MuteEntry(tournament=setup.tid, secret=setup.secret, entry="p1", reason="insults"))
    assert (await expect(org, TournamentDone)).ref == "MuteEntry"
    update = await update_until(spectator, lambda u: any(e.chat_muted for e in u.entries))
    assert [e.entry for e in update.entries if e.chat_muted] == ["p1"]
    assert any(a.act == "mute" and a.who == "organiser" and a.reason == "insults" for a in update.audit)
    await org.send(StartRound(setup.tid, setup.secret))
    await expect(org, TournamentDone)
    muted, other = setup.coaches["p1"], setup.coaches["p2"]
    await asyncio.gather(sit(muted), sit(other))
    await muted.send(Say(text="you cheat"))
    assert (await expect(muted, Error)).code == "CHAT_MUTED"
    assert await _lines(other) == []
    await org.send(MuteEntry(tournament=setup.tid, secret=setup.secret, entry="p1", muted=False, reason="sorry"))
    await expect(org, TournamentDone)
    await muted.send(Say(text="good luck"))
    assert [line.text for line in await _lines(other)] == ["good luck"]
    unmuted = await update_until(spectator, lambda u: any(a.act == "unmute" for a in u.audit))
    assert not any(e.chat_muted for e in unmuted.entries)


async def test_a_mute_reaches_a_table_already_being_played_and_is_the_organisers_alone(server: Server) -> None:
    """Muted while his match is played, a coach is refused at once; a coach cannot mute anybody (NOT_ORGANISER),
    and an unknown entry is UNKNOWN_PLAYER."""
    setup = await tournament(server.url, file_of(2, stages=[{"system": "swiss", "rounds": 1, "ruleset": "quick",
                                                             "settings": SHORT}]))
    org = setup.organiser
    await org.send(StartRound(setup.tid, setup.secret))
    await expect(org, TournamentDone)
    coach, other = setup.coaches["p2"], setup.coaches["p1"]
    await asyncio.gather(sit(coach), sit(other))
    assert await refused(other, MuteEntry(tournament=setup.tid, secret="not-the-secret", entry="p2")) == \
        "NOT_ORGANISER"
    assert await refused(org, MuteEntry(tournament=setup.tid, secret=setup.secret, entry="nobody")) == \
        "UNKNOWN_PLAYER"
    await org.send(MuteEntry(tournament=setup.tid, secret=setup.secret, entry="p2"))
    await expect(org, TournamentDone)
    await coach.send(Say(emote="oops"))
    assert (await expect(coach, Error)).code == "CHAT_MUTED"
    assert await _lines(other) == []

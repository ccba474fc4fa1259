"""The chat and the match so far against the real server on port 0: two coaches and a spectator through
NetClient/NetLink talk, send emotes, mute each other and hit the chat's rate limit; a spectator who arrives after
some moves gets them in his move list from the server's replay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from client.match.chat import ChatLine, emote_request
from shared.protocol import CreateRoom, JoinRoom, Say, Watch
from tests.client.helpers import server_in_process
from tests.client.test_live import SETTINGS, Coach, _play, _room, until


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    """A real server on a free loopback port for the test."""
    with server_in_process(tmp_path / "data") as found:
        yield found


def _heard(coach: Coach) -> list[ChatLine]:
    """The lines of other players a client holds (its chat's own notices left out)."""
    return [line for line in coach.link.chat.lines if line.seat]


def test_a_line_and_an_emote_reach_the_room_with_name_and_seat(url):
    """A coach's line and a spectator's emote reach everyone in the room, each with its speaker's name and seat."""
    jana, ola, petr = _room(url)
    everyone = [jana, ola, petr]
    try:
        assert jana.link.request(Say(text="Ahoj,   hodně štěstí"))
        until(everyone, lambda: all(_heard(c) for c in everyone), "the coach's line")
        assert _heard(ola)[0] == ChatLine("Jana", "home", "Ahoj, hodně štěstí")
        assert petr.link.request(emote_request("good luck"))
        until(everyone, lambda: all(len(_heard(c)) == 2 for c in everyone), "the spectator's emote")
        assert _heard(jana)[1] == ChatLine("Petr", "spectator", "Good luck!", True)
        assert jana.link.chat.speakers == ["Jana", "Petr"]
    finally:
        for coach in everyone:
            coach.client.close()


def test_a_muted_player_is_no_longer_heard_by_the_one_who_muted_him(url):
    """Ola mutes Jana: the server confirms, Jana's next line reaches the spectator but not Ola; unmuted, it does."""
    jana, ola, petr = _room(url)
    everyone = [jana, ola, petr]
    try:
        assert ola.link.request(ola.link.chat.mute_request("Jana"))
        until(everyone, lambda: "Jana" in ola.link.chat.muted, "the mute")
        assert jana.link.request(Say(text="first"))
        until(everyone, lambda: any(line.text == "first" for line in _heard(petr)), "the line to the spectator")
        assert ola.link.request(ola.link.chat.mute_request("Jana"))
        until(everyone, lambda: "Jana" not in ola.link.chat.muted, "the end of the mute")
        assert jana.link.request(Say(text="second"))
        until(everyone, lambda: any(line.text == "second" for line in _heard(ola)), "the line after the mute")
        assert [line.text for line in _heard(ola)] == ["second"]
        assert ola.link.chat.lines[0].text == "Jana is muted: you no longer see their lines"
    finally:
        for coach in everyone:
            coach.client.close()


def test_the_chat_rate_limit_is_said_in_the_chat(url):
    """Past 5 lines in 10 s the server refuses a line with RATE_LIMITED; the chat says so, the log does not."""
    jana, ola, petr = _room(url)
    everyone = [jana, ola, petr]
    try:
        for n in range(6):
            assert petr.link.request(Say(text=f"line {n}"))
        until(everyone, lambda: any(not line.seat for line in petr.link.chat.lines), "the refusal")
        notice = next(line for line in petr.link.chat.lines if not line.seat)
        assert notice.text == "Too many lines — wait a few seconds (5 lines per 10 s)"
        assert petr.link.chat.open
        assert not any("chat" in line.text for line in petr.state.log)
    finally:
        for coach in everyone:
            coach.client.close()


def test_a_spectator_arriving_mid_match_gets_the_moves_so_far(url):
    """Three moves are played before Petr watches: his move list fills with them from the server's replay, with
    the same words as the coaches' lists, and the next move follows as number four."""
    jana, ola = Coach(url, "Jana"), Coach(url, "Ola")
    coaches = [jana, ola]
    until(coaches, lambda: all(c.welcomed() for c in coaches), "the welcomes")
    assert jana.link.request(CreateRoom("quick", SETTINGS, False))
    until(coaches, lambda: jana.state.room is not None, "the new room")
    code = jana.state.room
    assert code is not None and ola.link.request(JoinRoom(code))
    until(coaches, lambda: ola.state.seat == "away" and not jana.state.free_seats, "the second coach")
    petr = Coach(url, "Petr")
    everyone = [jana, ola, petr]
    try:
        _play(coaches, 3)
        until(everyone, petr.welcomed, "the spectator's welcome")
        assert petr.link.request(Watch(code))
        until(everyone, lambda: len(petr.state.moves) == 3, "the moves so far")
        assert petr.state.moves == jana.state.moves
        _play(everyone, 1)
        assert [e.number for e in petr.state.moves] == [1, 2, 3, 4]
        assert petr.state.moves == jana.state.moves
    finally:
        for coach in everyone:
            coach.client.close()

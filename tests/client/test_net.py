"""The network link: server messages become client state; actions carry the version; gaps ask for a resync."""

from __future__ import annotations

from dataclasses import replace

from client.match import prompts
from client.match.net import ConnectionEvent, NetClient, NetLink
from client.match.state import MatchState
from shared.model import Flick
from shared.protocol import (
    Act,
    Clocks,
    ClockUpdate,
    Error,
    MovePlayed,
    Presence,
    Resync,
    RoomJoined,
    SeatInfo,
    Seats,
    Snapshot,
    decode,
    encode,
)
from shared.protocol.messages import Message
from shared.referee.adjudicate import judge
from tests.client.helpers import basic_position
from tests.referee.builders import SETTINGS, contact, flick, position, record, stone


class FakeClient(NetClient):
    """A NetClient without a socket: an inbox filled by the test and a list of sent messages."""

    def __init__(self) -> None:
        """No thread, no socket."""
        super().__init__("ws://test")
        self.sent: list[object] = []

    def send(self, message: object) -> bool:
        """Record the message after a round trip through the codec (so it is a valid frame)."""
        assert isinstance(message, Message), message
        self.sent.append(decode(encode(message)))
        return True


def _snapshot(version: int = 5) -> Snapshot:
    """A snapshot of a fresh match with two seated coaches and two spectators."""
    seats = Seats(SeatInfo("Jana", True), SeatInfo("Piotr", False))
    return Snapshot("ABCD", version, "m1", basic_position(), Clocks(360_000, 30_000, "home", False), (), seats, 2)



def _joined(snapshot: Snapshot, seat: str = "home", token: str | None = "tok",
            now: float = 0.0) -> tuple[FakeClient, MatchState, NetLink]:
    """A link whose client has just joined room ABCD in ``seat`` with ``snapshot``, polled at ``now``."""
    client, state = FakeClient(), MatchState()
    link = NetLink(client)
    client.arrive(RoomJoined("ABCD", seat, token, snapshot), now)
    link.poll(state, now=now)
    return client, state, link

def test_room_joined_seats_the_coach_and_loads_the_snapshot():
    """After RoomJoined the state has the seat, the position, the clocks, the names and the spectators."""
    _client, state, _link = _joined(_snapshot(), now=10.0)
    assert (state.room, state.seat, state.version, state.spectators) == ("ABCD", "home", 5, 2)
    assert state.names == {"home": "Jana", "away": "Piotr"} and state.offline == {"away"}
    assert state.team_label("away") == "Piotr (offline)"
    assert state.part_clock.at(11.0) == 359_000 and state.move_clock.at(10.0) == 30_000


def test_actions_carry_the_version_they_were_decided_on():
    """A flick is sent as Act with the state's version."""
    client, _state, link = _joined(_snapshot(7))
    link.send(Flick("home", "h2", 1000.0, 0.0))
    assert isinstance(client.sent[-1], Act) and client.sent[-1].version == 7


def test_errors_and_connection_news_reach_the_log_and_presence_updates():
    """A refusal is logged as an error; Presence changes the spectators' count."""
    client, state = FakeClient(), MatchState()
    link = NetLink(client)
    client.arrive(ConnectionEvent("down", "reset"), 0.0)
    client.arrive(Error("NOT_YOUR_TURN", "away cannot move: home has a privilege", None), 0.0)
    client.arrive(Presence("ABCD", Seats(None, None), 9), 0.0)
    link.poll(state, now=0.0)
    assert [line.kind for line in state.log] == ["error", "error"] and state.spectators == 9


def test_version_gap_sends_resync():
    """A move more than one version ahead: the follower asks the server for what it missed (once)."""
    client, state, link = _joined(_snapshot(5), seat="spectator", token=None)
    ahead = MovePlayed("ABCD", 9, "home", None, None, (), basic_position(), Clocks(360_000, 30_000, "home", False), ())
    client.arrive(ahead, 0.0)
    client.arrive(replace(ahead, version=10), 0.0)
    link.poll(state, now=0.0)
    assert client.sent == [Resync("ABCD", 5)] and not state.needs_resync


def test_a_flick_refused_while_the_board_moves_waits_the_named_time_and_goes_again():
    """After a reconnect the client may not know the last move still plays back on the server: its D3 refusal
    locks input for the wait it names, then the same flick is sent again on the same version."""
    client, state, link = _joined(_snapshot(7))
    flick = Flick("home", "h2", 1000.0, 0.0)
    link.send(flick)
    client.arrive(Error("ACTION_NOT_ALLOWED", "the board is still moving (D3): wait 400 ms for the move to end",
                           "Act", 400), 0.1)
    link.poll(state, now=0.1)
    assert state.locked(0.45) and not state.my_turn(0.45) and len(client.sent) == 1
    link.poll(state, now=0.45)
    assert len(client.sent) == 1
    link.poll(state, now=0.5)
    assert client.sent[1:] == [Act(flick, 7)] and state.my_turn(0.5)
    link.poll(state, now=0.6)
    assert len(client.sent) == 2  # once


def test_a_refused_flick_is_not_sent_again_after_the_position_changed():
    """A D3 refusal followed by news (another version) drops the flick: it was aimed at an older position."""
    client, state, link = _joined(_snapshot(7))
    link.send(Flick("home", "h2", 1000.0, 0.0))
    client.arrive(Error("ACTION_NOT_ALLOWED", "the board is still moving (D3): wait 400 ms for the move to end",
                           "Act", 400), 0.1)
    client.arrive(_snapshot(8), 0.1)
    link.poll(state, now=0.1)
    link.poll(state, now=1.0)
    assert len(client.sent) == 1 and not state.locked(1.0)


def _prompted(ms_left: int | None, paused: bool = False) -> Snapshot:
    """A Snapshot awaiting home's exclusion choice (a goalie foul), its prompt with ``ms_left`` when given."""
    field = [stone(f"h{i}", x, y) for i, (x, y) in enumerate(((-100, 0), (-300, 150), (-300, -150), (-200, 0)), 2)]
    start = position(*field, stone("h6", -350, 0), stone("a2", 0, 60), stone("a7", -380, 60))
    at = judge(start, flick("h1", 0, 300), record(start, contact(6, "a7", "h1")), SETTINGS).position
    at = replace(at, to_move="home")
    prompt: dict[str, object] = {"kind": "choose_exclusion", "team": "home", "options": ["h6"], "default": None}
    if ms_left is not None:
        prompt["ms_left"] = ms_left
    return replace(_snapshot(9), position=at, clocks=Clocks(60_000, 0, "home", paused), prompts=(prompt,))


def _awaited(state: MatchState, now: float) -> prompts.Choice:
    """The exclusion choice the view would show at ``now``."""
    assert state.position is not None
    return next(c for c in prompts.choices(state.position, "home", now, state.prompt_clocks) if c.deadline is not None)


def test_the_prompt_countdown_runs_from_the_servers_ms_left_and_freezes_while_paused():
    """The countdown is arrival + ms_left (not choice_timeout_ms); a paused ClockUpdate freezes it, resuming goes on."""
    client, state, link = _joined(_prompted(3000), now=10.0)
    assert _awaited(state, 10.5).left(11.0) == 2.0
    client.arrive(ClockUpdate("ABCD", Clocks(60_000, 0, "home", True)), 11.0)
    link.poll(state, now=11.0)
    assert _awaited(state, 11.0).left(20.0) == 2.0
    client.arrive(ClockUpdate("ABCD", Clocks(60_000, 0, "home", False)), 20.0)
    link.poll(state, now=20.0)
    assert _awaited(state, 20.0).left(21.5) == 0.5


def test_a_prompt_without_ms_left_counts_the_choice_timeout_from_when_it_is_shown():
    """Older servers send no ms_left: the countdown is choice_timeout_ms from when the choice is computed."""
    _client, state, _link = _joined(_prompted(None), now=10.0)
    assert state.prompt_clocks == {}
    assert _awaited(state, 10.5).left(11.0) == SETTINGS.choice_timeout_ms / 1000.0 - 0.5


def test_a_refusal_without_retry_ms_is_only_noted():
    """An Act refusal that names no wait (retry_ms nil) neither locks input nor sends the action again."""
    client, state, link = _joined(_snapshot(7))
    link.send(Flick("home", "h2", 1000.0, 0.0))
    client.arrive(Error("ACTION_NOT_ALLOWED", "the board is still moving (D3): wait 400 ms for the move to end",
                           "Act"), 0.1)
    link.poll(state, now=0.1)
    link.poll(state, now=1.0)
    assert len(client.sent) == 1 and not state.locked(0.2) and state.log[-1].kind == "error"


def test_an_away_coachs_grace_is_counted_down_on_the_hud():
    """Product decision 5: SeatInfo.grace_ms of an away coach shows on the HUD and runs down locally."""
    from client.match import hud_model

    _client, state, link = _joined(_snapshot(), now=0.0)
    link.client.arrive(Presence("ABCD", Seats(SeatInfo("Jana", True), SeatInfo("Novák", False, 42_000)), 0), 100.0)
    link.poll(state, now=100.0)
    assert hud_model.build(state, 100.0).status == "Novák disconnected — 0:42 to come back"
    assert hud_model.build(state, 112.5).status == "Novák disconnected — 0:30 to come back"
    link.client.arrive(Presence("ABCD", Seats(SeatInfo("Jana", True), SeatInfo("Novák", True)), 0), 113.0)
    link.poll(state, now=113.0)
    assert "disconnected" not in hud_model.build(state, 113.0).status and not state.grace


def test_a_server_closed_by_its_organiser_is_said_so() -> None:
    """The connection closed by a server shutting down (1001) reads as the organiser closing it, in the match's log
    and on the lobby's status line; the client connects again by itself."""
    from client.match.net import connection_words
    from client.player.lobby_model import LobbyModel

    client, state, link = _joined(_snapshot())
    event = ConnectionEvent("stopped", "received 1001 (going away) server shutting down")
    client.arrive(event, 0.0)
    link.poll(state, now=0.0)
    assert "organiser" in state.log[-1].text and event.lost
    lobby = LobbyModel()
    lobby.apply(event)
    assert lobby.status == connection_words(event) and not lobby.connected


def test_a_refused_move_out_of_turn_names_the_coach_to_move() -> None:
    """The server's "away cannot move: it is home's turn" reads with the coaches' names, and the rule."""
    from shared.protocol import Error as ServerError

    client, state, link = _joined(_snapshot())
    client.arrive(ServerError("NOT_YOUR_TURN", "away cannot move: it is home's turn", "Act"), 0.0)
    link.poll(state, now=0.0)
    assert state.log[-1].text == "Not your move: Jana is to move (VI.1)"

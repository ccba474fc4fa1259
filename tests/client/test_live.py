"""The client against the real server on port 0: two coaches and a spectator through NetClient/NetLink agree on
every move, and a dropped coach reconnects with his token and resumes his seat."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from client.common.identity import IdentityStore
from client.match import samples
from client.match.net import NetClient, NetLink
from client.match.state import MatchState
from server.app import Server, ServerConfig
from shared.model import is_team
from shared.protocol import CreateRoom, JoinRoom, Watch, Welcome

SETTINGS = {"move_clock_ms": 0, "period_ms": 600_000}  # no clock runs out during the test
WAIT_S = 20.0


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    """A real server (physics in-line) on a free port, on its own event-loop thread; shut down after the test."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    server = Server(ServerConfig(port=0, data_dir=tmp_path / "data", workers=0))
    port = asyncio.run_coroutine_threadsafe(server.start(), loop).result(10)
    yield f"ws://127.0.0.1:{port}/"
    asyncio.run_coroutine_threadsafe(server.shutdown(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)


class Coach:
    """One client as the views drive it: a NetClient, its NetLink and the MatchState they keep."""

    def __init__(self, url: str, name: str | None, identity: IdentityStore | None = None) -> None:
        """Connect as ``name`` (None: the name kept in ``identity``), keeping the identity there when given."""
        self.client = NetClient(url, name, identity=identity)
        self.link = NetLink(self.client)
        self.state = MatchState()
        self.client.start()

    def poll(self) -> None:
        """Take in the news and play moves back in real time: the server refuses input until the last move has
        played back (RULES.md D3), so a client must not act sooner than its playback ends."""
        now = time.monotonic()
        self.link.poll(self.state, now)
        self.state.update(now)

    def welcomed(self) -> bool:
        """True once the server said Welcome (the link keeps it for the lobby)."""
        return self.link.player is not None


def until(coaches: list[Coach], done: Callable[[], bool], what: str) -> None:
    """Poll every client until ``done()``, or fail naming ``what`` after WAIT_S seconds."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        for coach in coaches:
            coach.poll()
        if done():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def _room(url: str, ola_identity: IdentityStore | None = None) -> tuple[Coach, Coach, Coach]:
    """Jana creates a room, Ola joins it (keeping her identity in ``ola_identity`` when given), Petr watches;
    returns them once all three hold the snapshot."""
    jana, ola, petr = Coach(url, "Jana"), Coach(url, "Ola", identity=ola_identity), Coach(url, "Petr")
    everyone = [jana, ola, petr]
    until(everyone, lambda: all(c.welcomed() for c in everyone), "the welcomes")
    assert jana.link.request(CreateRoom("quick", SETTINGS, False))
    until(everyone, lambda: jana.state.room is not None, "the new room")
    code = jana.state.room
    assert code is not None
    assert ola.link.request(JoinRoom(code)) and petr.link.request(Watch(code))
    until(everyone, lambda: ola.state.seat == "away" and petr.state.room == code and petr.state.spectators == 1
          and not jana.state.free_seats, "the second coach and the spectator")
    return jana, ola, petr


def _play(coaches: list[Coach], moves: int) -> None:
    """Play ``moves`` flicks of the stone nearest the puck, each by the coach whose turn it is, and wait for all."""
    players = [c for c in coaches if c.state.seat is not None]
    for _ in range(moves):
        version = max(c.state.version for c in coaches)
        mover = next(c for c in players if c.state.my_turn(time.monotonic()))
        assert mover.state.position is not None and is_team(mover.state.seat)
        flick = samples.toward_puck(mover.state.position, mover.state.seat)
        assert flick is not None
        mover.link.send(flick)

        def everyone_saw_it(v: int = version) -> bool:
            return all(c.state.version > v and not c.state.busy for c in coaches)

        until(coaches, everyone_saw_it, "every client to see the move")


def _agree(coaches: list[Coach]) -> None:
    """Every client holds the same version and the same position."""
    first = coaches[0].state
    for coach in coaches[1:]:
        assert coach.state.version == first.version
        assert coach.state.position == first.position


def test_two_coaches_and_a_spectator_agree_on_every_move(url):
    """Four real moves through the server: both coaches and the spectator end on one version and position."""
    jana, ola, petr = _room(url)
    everyone = [jana, ola, petr]
    try:
        start = jana.state.version
        _play(everyone, 4)
        _agree(everyone)
        assert jana.state.version >= start + 4 and jana.state.position.move_number >= 4
        assert petr.state.seat is None and petr.state.names == {"home": "Jana", "away": "Ola"}
    finally:
        for coach in everyone:
            coach.client.close()


def test_a_dropped_coach_reconnects_with_his_token_and_plays_on(url):
    """The socket drops; the client says Hello with its token, rejoins its seat, catches up and moves again."""
    jana, ola, petr = _room(url)
    everyone = [jana, ola, petr]
    try:
        _play(everyone, 2)
        token = ola.client.token
        ola.client._socket.close()  # the network drops under the client
        until(everyone, lambda: "away" in jana.state.offline or ola.link.connected is False,
              "the drop to be noticed")
        until(everyone, lambda: ola.link.connected and "away" not in jana.state.offline
              and jana.state.names.get("away") == "Ola",
              "the reconnect")
        assert ola.client.token == token and ola.state.seat == "away"
        _play(everyone, 2)
        _agree(everyone)
    finally:
        for coach in everyone:
            coach.client.close()


def test_welcome_is_kept_for_the_lobby(url):
    """The link hands Welcome on to the lobby (the menu enables itself with it)."""
    coach = Coach(url, "Jana")
    try:
        until([coach], coach.welcomed, "the welcome")
        assert any(isinstance(m, Welcome) for m in coach.link.other) and coach.link.player
    finally:
        coach.client.close()


@pytest.fixture
def front(url: str) -> Iterator[tuple[str, list[str]]]:
    """A real websocket server that sends every client on to ``url`` as a cluster node does (close 4004 MOVED, the
    URL as the reason); yields its own URL and the paths it was asked for."""
    from websockets.sync.server import serve

    asked: list[str] = []

    def moved(ws: object) -> None:
        """Send the client to the node that plays his room."""
        asked.append(ws.request.path)  # type: ignore[attr-defined]
        ws.close(4004, url)  # type: ignore[attr-defined]

    with serve(moved, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield f"ws://127.0.0.1:{server.socket.getsockname()[1]}/", asked
        server.shutdown()
        thread.join(5)


def test_a_client_sent_to_another_node_connects_there_and_keeps_the_identity_of_its_server(
    front: tuple[str, list[str]], url: str, tmp_path: Path
) -> None:
    """Close MOVED with a node's URL: the client connects to that node at once and is welcomed there; the token is
    kept under the server the player chose (the cluster's front), not under the node."""
    front_url, asked = front
    identity = IdentityStore(tmp_path / "config")
    coach = Coach(front_url, "Nomad", identity)
    try:
        until([coach], coach.welcomed, "welcomed through the node")
        assert asked and coach.client.node_url == url
        kept = IdentityStore(tmp_path / "config").get(front_url)
        assert kept.token and IdentityStore(tmp_path / "config").get(url).token is None
    finally:
        coach.client.close()

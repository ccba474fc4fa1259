"""The Servers page without a screen: the local server, the LAN's servers as the browser finds them (the list follows
its snapshot live), a server of another protocol version shown but not offered, and a typed address made a URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.common.local_server import LOCAL_URL
from client.player.servers_page import ConnectTo, ServersPage, address_url, server_cells
from shared.protocol import PROTOCOL_VERSION, ListRooms
from shared.protocol.lan_record import FoundServer, RunningTournament


def _server(name: str, version: int = PROTOCOL_VERSION, tournaments: int = 1) -> FoundServer:
    """A server found on the LAN."""
    return FoundServer(instance=f"{name}._sprtec._tcp.local.", name=name, url="ws://192.168.1.20:8765/",
                       address="192.168.1.20", port=8765, addresses=("192.168.1.20",), protocol_version=version,
                       players_online=5, tournaments=tuple(RunningTournament(f"T{i}", f"Cup {i}")
                                                           for i in range(tournaments)),
                       tournaments_running=tournaments)


@pytest.mark.parametrize(("typed", "url"), [
    ("192.168.1.20", "ws://192.168.1.20:8765/"), ("club.local:9000", "ws://club.local:9000/"),
    ("ws://10.0.0.5:8765/", "ws://10.0.0.5:8765/"), ("wss://sprtec.example/hall", "wss://sprtec.example:8765/hall"),
    ("http://x", None), ("", None), ("ws://h:99999", None)])
def test_a_typed_address_becomes_a_server_url(typed: str, url: str | None) -> None:
    """host, host:port or a ws URL give a URL with a port (8765 by default); another scheme or a bad port none."""
    assert address_url(typed) == url


def test_the_list_follows_the_lan_as_it_is_found() -> None:
    """The page reads the browser's snapshot each time: a server found later appears without a refresh."""
    found: tuple[FoundServer, ...] = ()
    page = ServersPage(lambda: found, LOCAL_URL, local=lambda: True)
    labels = [item.label for item in page.items()]
    assert labels[0] == "This computer" and "No server announced on the network yet" in labels
    found = (_server("Klub Šprtec Brno"),)
    rows = [item for item in page.items() if item.command.startswith("connect:")]
    assert [r.label for r in rows] == ["This computer", "Klub Šprtec Brno"]
    assert rows[1].cells == ("Klub Šprtec Brno", "192.168.1.20:8765", "Cup 0", "5 players online")
    assert page.activate(rows[1].command) == ConnectTo("ws://192.168.1.20:8765/", "Klub Šprtec Brno")


def test_this_computer_is_offered_only_while_a_server_answers_there() -> None:
    """Where nothing runs on this computer, "This computer" is not offered (it could only fail to connect); it
    appears once a server answers there."""
    running = False
    page = ServersPage(lambda: (), "", local=lambda: running)
    assert not any(item.label == "This computer" for item in page.items())
    running = True
    assert page.items()[0].command == f"connect:{LOCAL_URL}"


def test_the_local_watch_says_whether_a_server_answers() -> None:
    """LocalWatch asks the address on its thread: a refused port is no server."""
    import socket
    import time

    from client.common.local_server import LocalWatch

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    watch = LocalWatch(f"ws://127.0.0.1:{port}/", every=0.05)
    watch.running = True
    watch.start()
    deadline = time.monotonic() + 5
    while watch.running and time.monotonic() < deadline:
        time.sleep(0.02)
    watch.close()
    assert not watch.running


def test_a_server_of_another_version_is_shown_but_not_offered() -> None:
    """A server speaking another protocol version says so and cannot be chosen."""
    page = ServersPage(lambda: (_server("Klub Praha", PROTOCOL_VERSION + 1, 0),))
    row = next(item for item in page.items() if item.label == "Klub Praha")
    assert not row.enabled and server_cells(_server("Klub Praha", PROTOCOL_VERSION + 1, 0))[2:] == ("no tournament",
                                                                                           "another version")


def test_the_typed_address_connects_or_says_how_it_should_look() -> None:
    """Typing an address and Enter connects there; a wrong one is explained."""
    page = ServersPage(lambda: ())
    page.type_text("http://x")
    assert page.activate("address") is None and "ws://" in page.error
    page.address = ""
    page.type_text("10.0.0.7:8800")
    assert page.activate("address") == ConnectTo("ws://10.0.0.7:8800/")


def test_choosing_another_server_connects_there_with_its_own_identity(tmp_path: Path) -> None:
    """From the lobby of one real server: Servers → a typed address → the client is welcomed by the other server,
    its lobby says which, and the first server's connection is closed."""
    import os

    os.environ.setdefault("ARCADE_HEADLESS", "1")
    arcade = pytest.importorskip("arcade")
    from client.match.net import NetClient
    from client.player.lobby_model import OpenServers
    from tests.client.tournament_world import frames, navigator, running_server

    window = arcade.Window(1280, 760, "servers", visible=False)
    try:
        with running_server(tmp_path / "first") as first, running_server(tmp_path / "second") as second:
            nav = navigator(window, first, "Jana")
            nav.connect = lambda url: NetClient(url, "Jana")
            first_client = nav.link.client
            nav.lobby_request(OpenServers())
            page = nav.top_page()
            assert isinstance(page, ServersPage) and page.current == first
            page.type_text(second.removeprefix("ws://").rstrip("/"))
            nav.page_request(page.activate("address"))
            def welcomed() -> bool:
                """The second server's Welcome has reached the lobby (connected alone may come before it)."""
                return nav.lobby.connected and nav.link.client.url == second and nav.lobby.player is not None

            frames([nav], welcomed, "the second server's Welcome")
            assert nav.screen == "lobby" and nav.lobby.player == "Jana" and second in nav.lobby.status_line()
            assert first_client.send(ListRooms()) is False  # the first connection is closed
            nav.close()
            nav.link.client.close()
    finally:
        window.close()


class _Browser:
    """A browser whose finds arrive on a script: nothing on the first looks, then ``found`` (discovery itself is
    tested for real in tests/lan)."""

    def __init__(self, found: tuple[FoundServer, ...], after_looks: int) -> None:
        self.found, self.after_looks, self.looks, self.closed = found, after_looks, 0, False
        self.running = True

    def start(self) -> None:
        """Nothing to start."""

    def snapshot(self) -> tuple[FoundServer, ...]:
        """Nothing until the script says so."""
        self.looks += 1
        return self.found if self.looks > self.after_looks else ()

    def close(self) -> None:
        """Remember being closed."""
        self.closed = True


def test_sprtec_play_without_a_server_opens_the_one_found_on_the_lan() -> None:
    """The first server of our protocol running a tournament is chosen, as soon as it is found; the browser closes."""
    from sprtec.commands.play import choose_lan_server, lan_server

    old, club, other = _server("Old", PROTOCOL_VERSION + 1), _server("Club"), _server("Home", tournaments=0)
    assert choose_lan_server((other, old, club)) == club
    assert choose_lan_server((old, other)) == other
    assert choose_lan_server((old,)) is None
    browser = _Browser((other, club), after_looks=3)
    assert lan_server(browser, wait_s=5.0) == club and browser.looks == 4 and browser.closed
    assert lan_server(_Browser((), after_looks=0), wait_s=0.3) is None

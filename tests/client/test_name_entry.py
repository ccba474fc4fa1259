"""The name entry of a player new to a server: nothing is said before he has chosen; a taken name says so and the
next name goes on the same connection; a claim code stands in for a name; the name is kept with the token per
server. Against a scripted socket (the client's real network thread) and against the real server on port 0."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from pathlib import Path

from client.common.identity import IdentityStore
from client.match.net import NetClient
from client.player.name_entry import Introduce, NameEntry
from shared.names import name_key
from shared.protocol import CLIENT_MESSAGES, Error, Hello, Welcome, decode, encode
from tests.client.test_live import Coach, until, url  # noqa: F401  (url is the live server fixture)

URL = "ws://scripted/"


class ScriptedServer:
    """A server's Hello handling on fake sockets: names are taken whatever their case, one claim code works."""

    def __init__(self, taken: set[str], claims: dict[str, str] | None = None) -> None:
        """``taken`` names belong to other players; ``claims`` maps a working code to its player's name."""
        self.taken = {name_key(name) for name in taken}
        self.claims = dict(claims or {})
        self.sockets: list[ScriptedSocket] = []
        self.hellos: list[tuple[int, Hello]] = []  # (which connection, the Hello)

    def connect(self, address: str) -> ScriptedSocket:
        """A new connection (NetClient's ``connect``)."""
        socket = ScriptedSocket(self, len(self.sockets))
        self.sockets.append(socket)
        return socket

    def answer(self, connection: int, message: object) -> list[Error | Welcome]:
        """What the server says to a client's message."""
        if not isinstance(message, Hello):
            return []
        self.hellos.append((connection, message))
        if message.claim is not None:
            name = self.claims.pop(message.claim, None)
            if name is None:
                return [Error("BAD_CLAIM", "that claim code is not one of this server's", "Hello")]
            return [Welcome(1, "scripted", name, "7.claimed", 7)]
        if message.name is not None and name_key(message.name) in self.taken:
            return [Error("NAME_TAKEN", f"another player is called {message.name!r}", "Hello")]
        name = message.name or "guest-3"
        self.taken.add(name_key(name))
        return [Welcome(1, "scripted", name, "3.secret", 3)]


class ScriptedSocket:
    """One fake websocket connection: what the client sends is answered by the scripted server."""

    def __init__(self, server: ScriptedServer, number: int) -> None:
        """Connection ``number`` of ``server``."""
        self.server = server
        self.number = number
        self.frames: queue.Queue[bytes] = queue.Queue()
        self.closed = False

    def __enter__(self) -> ScriptedSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.closed = True

    def send(self, data: bytes) -> None:
        """A client frame: decoded strictly, as the server reads it, and answered."""
        if self.closed:
            raise ConnectionError("closed")
        for reply in self.server.answer(self.number, decode(data, CLIENT_MESSAGES)):
            self.frames.put(encode(reply))

    def recv(self, timeout: float) -> bytes:
        """The next server frame, or TimeoutError."""
        if self.closed:
            raise ConnectionError("closed")
        try:
            return self.frames.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None

    def close(self) -> None:
        """Close the connection."""
        self.closed = True


def _pump(client: NetClient, entry: NameEntry, done: Callable[[], bool], seconds: float = 5.0) -> None:
    """Hand the client's news to the name entry until ``done()``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for message in client.drain():
            entry.apply(message)
        if done():
            return
        time.sleep(0.02)
    raise AssertionError("the name entry never got its answer")


def _typed(entry: NameEntry, text: str) -> Introduce | None:
    """Type ``text`` into the focused input and press Enter; the answer it gives (None: refused on the entry)."""
    entry.focus = 0
    entry.type_text(text)
    answer = entry.key("enter")
    assert answer is None or isinstance(answer, Introduce)
    return answer


def test_a_taken_name_is_said_and_the_next_name_goes_on_the_same_connection(tmp_path: Path) -> None:
    """No connection before the player answers; NAME_TAKEN shows on the entry; "Jana K" is welcomed on the same
    connection, and the identity keeps the token with the name for this server."""
    server = ScriptedServer(taken={"JANA"})
    store = IdentityStore(tmp_path)
    client = NetClient(URL, None, connect=server.connect, identity=store, ask_name=True)
    entry = NameEntry(URL, suggestion="jana")
    client.start()
    try:
        time.sleep(0.4)
        assert client.awaiting_name and server.sockets == []  # nothing is said before the player has chosen
        request = _typed(entry, "")
        assert request == Introduce(name="jana")
        client.introduce(request.name, request.claim)
        _pump(client, entry, lambda: bool(entry.error))
        assert entry.error == "“jana” is taken on this server, or looks like a name that is — choose another name"
        assert entry.pending is None
        assert client.awaiting_name and entry.mode == "name"
        for _ in range(4):
            entry.backspace()
        request = _typed(entry, "  Jana   K ")
        assert request == Introduce(name="Jana K")  # trimmed as the server trims it
        client.introduce(request.name, request.claim)
        _pump(client, entry, lambda: entry.welcomed is not None)
        assert [(number, hello.name) for number, hello in server.hellos] == [(0, "jana"), (0, "Jana K")]
        kept = store.get(URL)
        assert (kept.token, kept.name) == ("3.secret", "Jana K") and not client.awaiting_name
    finally:
        client.close()


def test_a_name_the_client_can_tell_is_wrong_is_never_sent() -> None:
    """A name of spaces or with a control character is refused on the entry itself, with the reason."""
    entry = NameEntry(URL)
    assert _typed(entry, "   ") is None and "visible character" in entry.error
    entry.name = "Jana\u202e"
    assert entry.activate("submit") is None and "U+202E" in entry.error and entry.pending is None


def test_a_bad_claim_code_is_explained_and_a_good_one_takes_the_identity(tmp_path: Path) -> None:
    """A wrong code: BAD_CLAIM in words, still on the claim screen; the right one is welcomed as its player."""
    server = ScriptedServer(taken={"Ola"}, claims={"K7QZ3XWA": "Ola"})
    store = IdentityStore(tmp_path)
    client = NetClient(URL, None, connect=server.connect, identity=store, ask_name=True)
    entry = NameEntry(URL)
    client.start()
    try:
        entry.activate("screen:claim")
        request = _typed(entry, "k7qz-3xwb")
        assert request == Introduce(claim="K7QZ3XWB")
        client.introduce(request.name, request.claim)
        _pump(client, entry, lambda: bool(entry.error))
        assert entry.mode == "claim" and "unknown, used or expired" in entry.error.lower()
        entry.backspace()
        request = _typed(entry, "A")
        assert request is not None
        client.introduce(request.name, request.claim)
        _pump(client, entry, lambda: entry.welcomed is not None)
        assert entry.welcomed is not None and entry.welcomed.player == "Ola" and store.get(URL).token == "7.claimed"
        assert [h.claim for _, h in server.hellos] == ["K7QZ3XWB", "K7QZ3XWA"]
    finally:
        client.close()


def test_a_guest_says_no_name_and_a_kept_guest_name_is_never_asked_for(tmp_path: Path) -> None:
    """Play as a guest: Hello without a name, the server's guest-3 kept; the next start sends the token only."""
    server = ScriptedServer(taken=set())
    store = IdentityStore(tmp_path)
    client = NetClient(URL, None, connect=server.connect, identity=store, ask_name=True)
    entry = NameEntry(URL)
    client.start()
    try:
        assert entry.activate("guest") == Introduce()
        client.introduce()
        _pump(client, entry, lambda: entry.welcomed is not None)
    finally:
        client.close()
    assert server.hellos[0][1].name is None and store.get(URL).name == "guest-3"
    again = NetClient(URL, None, connect=server.connect, identity=store, ask_name=True)
    assert not again.awaiting_name and again.name is None and again.token == "3.secret"


def test_a_returning_player_is_not_asked(tmp_path: Path) -> None:
    """With a token kept for the server, the client connects at once (the entry is for new players only)."""
    store = IdentityStore(tmp_path)
    store.update(URL, token="3.secret", name="Jana")
    assert not NetClient(URL, None, identity=store, ask_name=True).awaiting_name
    assert NetClient("ws://other/", None, identity=store, ask_name=True).awaiting_name


def test_the_real_server_refuses_a_taken_name_and_welcomes_the_next(url: str, tmp_path: Path) -> None:  # noqa: F811
    """Against ``sprtec serve``'s code: Jana exists; a new client asks for "JANA" (NAME_TAKEN on the entry), then
    "Jana Nováková" on the same connection, and is welcomed with that name."""
    jana = Coach(url, "Jana")
    try:
        until([jana], jana.welcomed, "the first Jana")
    finally:
        jana.client.close()
    store = IdentityStore(tmp_path)
    client = NetClient(url, None, identity=store, ask_name=True)
    entry = NameEntry(url)
    client.start()
    try:
        first = _typed(entry, "JANA")
        assert first is not None
        client.introduce(first.name)
        _pump(client, entry, lambda: bool(entry.error), 20)
        assert "“JANA” is taken" in entry.error
        entry.name = ""
        second = _typed(entry, "Jana Nováková")
        assert second is not None
        client.introduce(second.name)
        _pump(client, entry, lambda: entry.welcomed is not None, 20)
        assert entry.welcomed is not None and entry.welcomed.player == "Jana Nováková"
        assert store.get(url).name == "Jana Nováková"
    finally:
        client.close()


def test_a_name_asked_for_on_the_command_line_renames_a_returning_player(url: str, tmp_path: Path) -> None:  # noqa: F811
    """``sprtec play --name``: a player the server knows as Jana, started with --name "Jana K", is renamed once
    welcomed; the identity and the settings' offered name follow; no name entry is shown."""
    import os

    os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade

    from client.common.sound import Sounds
    from client.match.net import NetLink
    from client.player.lobby_model import LobbyModel
    from client.player.navigator import Navigator

    store = IdentityStore(tmp_path)
    first = Coach(url, "Jana", store)
    try:
        until([first], first.welcomed, "Jana's first visit")
    finally:
        first.client.close()
    window = arcade.Window(800, 500, "rename", visible=False)
    client = NetClient(url, "Jana K", identity=store, ask_name=True)
    nav = Navigator(window, NetLink(client), LobbyModel(), Sounds(muted=True))
    nav.wanted_name = "Jana K"
    client.start()
    try:
        nav.show_first()
        deadline = time.monotonic() + 20
        while nav.lobby.player != "Jana K" and time.monotonic() < deadline:
            nav.poll()
            time.sleep(0.02)
        assert nav.screen == "lobby" and nav.lobby.player == "Jana K"
        assert store.get(url).name == "Jana K" and nav.user.name == "Jana K"
    finally:
        client.close()
        window.close()

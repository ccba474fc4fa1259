"""Enter in a text field submits that field, on every menu: typing takes the focus to the field and keeps it there
however the pointer rests on another button, so the entry code typed on the Tournaments page enters with that code
(never "Enter as myself"), a typed server address is connected to (never "This computer"), a typed name is played
under (never "I have a claim code"). Driven through the menu view's own key, text and pointer events in a hidden
window."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import palette  # noqa: E402
from client.common.menu_view import LobbyView  # noqa: E402
from client.player.name_entry import Introduce, NameEntry  # noqa: E402
from client.player.servers_page import ConnectTo, ServersPage  # noqa: E402
from client.player.tournament_list import TournamentsPage  # noqa: E402
from shared.protocol import Error, JoinTournament, TournamentInfo, TournamentList  # noqa: E402

INFO = TournamentInfo(tournament="ABC123", name="Brno Open", status="registering", stage=0, round=0, entries=6,
                      playing=0)


@pytest.fixture(scope="module")
def window() -> Iterator[Any]:
    """One hidden window of the client's default size."""
    win = arcade.Window(1280, 760, "typing", visible=False)
    yield win
    win.close()


def _shown(window: Any, model: Any) -> tuple[LobbyView, list[object]]:
    """``model`` in a menu view, drawn once (its buttons laid out); the requests it sends are collected."""
    sent: list[object] = []
    view = LobbyView(model, sent.append)
    window.show_view(view)
    view.clear(color=palette.BACKGROUND)
    view.draw_at(0.0)
    return view, sent


def _point_at(view: LobbyView, command: str) -> None:
    """The pointer comes to rest on the item of ``command`` (which lights it), then twitches on it."""
    b = next(b for b in view.buttons if b.command == command)
    x, y = int(b.left + b.width / 2), int(b.bottom + b.height / 2)
    view.on_mouse_motion(x, y, 0, 0)
    view.on_mouse_motion(x + 2, y, 2, 0)


def _type(view: LobbyView, text: str) -> None:
    """Characters typed one by one, as the window's text events bring them."""
    for char in text:
        view.on_text(char)


def _enter(view: LobbyView) -> None:
    """The Return key."""
    view.on_key_press(arcade.key.RETURN, 0)


def test_an_entry_code_typed_with_the_pointer_on_enter_as_myself_enters_with_the_code(window: Any) -> None:
    """The trap of a club event: the highlight (or the pointer) on "Enter as myself", the code typed, Enter - the
    code is sent, and "Enter as myself" takes no click while a code is typed."""
    page = TournamentsPage()
    page.apply(TournamentList((INFO,)))
    page.activate("choose:ABC123")
    view, sent = _shown(window, page)
    _point_at(view, "join")
    _type(view, "k7q2x9mb")
    view.on_mouse_motion(int(view.buttons[2].left + 5), int(view.buttons[2].bottom + 5), 1, 1)
    _enter(view)
    assert sent == [JoinTournament("ABC123", "K7Q2X9MB")]
    assert page.activate("join") is None


def test_enter_on_an_empty_code_says_what_to_type() -> None:
    """Enter before a code is typed sends nothing and says what is missing."""
    page = TournamentsPage()
    page.apply(TournamentList((INFO,)))
    page.activate("choose:ABC123")
    assert page.key("enter") is None and "code" in page.error


def test_a_name_of_a_prepared_entry_is_told_its_entry_waits() -> None:
    """Entering as himself under the name of an entry the organiser prepared: told that an entry waits for him
    and to type its code; the focus is on the code field."""
    page = TournamentsPage()
    page.apply(TournamentList((INFO,)))
    page.activate("choose:ABC123")
    page.focus = 2
    page.activate("join")
    page.apply(Error("NAME_TAKEN", "entry p1 of ABC123 is called 'Jana'", "JoinTournament"))
    assert "waits for you" in page.error and "code" in page.error
    focused = page.focused()
    assert focused is not None and focused.kind == "input"


def test_a_typed_address_is_connected_to_whatever_the_pointer_rests_on(window: Any) -> None:
    """The Servers page: the pointer on the first server, an address typed, Enter: that address."""
    page = ServersPage(lambda: (), "", lambda: None, local=lambda: True)
    view, sent = _shown(window, page)
    _point_at(view, next(b.command for b in view.buttons if b.command.startswith("connect:")))
    _type(view, "192.168.1.20:9000")
    _enter(view)
    assert sent == [ConnectTo("ws://192.168.1.20:9000/")]


def test_a_typed_name_is_played_under_whatever_the_pointer_rests_on(window: Any) -> None:
    """The name entry: the pointer on "I have a claim code", a name typed, Enter: the Hello with that name."""
    entry = NameEntry("ws://club:8765/")
    view, sent = _shown(window, entry)
    _point_at(view, "screen:claim")
    _type(view, "Jana Nováková")
    _enter(view)
    assert sent == [Introduce(name="Jana Nováková")]


def test_an_arrow_gives_the_pointer_and_the_keys_back(window: Any) -> None:
    """After typing, the arrows move the highlight again and hovering lights what it rests on."""
    entry = NameEntry("ws://club:8765/")
    view, sent = _shown(window, entry)
    _type(view, "Jana")
    view.on_key_press(arcade.key.DOWN, 0)
    _point_at(view, "guest")
    _enter(view)
    assert sent == [Introduce()]

"""The chat panel in the match screen, headless: a conversation with emotes, a muted player with a refusal, and
typing that never reaches the match's keys or the board (pictures kept with ``SPRTEC_SHOTS=DIR``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import palette  # noqa: E402
from client.match import samples  # noqa: E402
from client.match.chat import ChatLog  # noqa: E402
from client.match.chat_view import panel_rect, seat_colour  # noqa: E402
from client.match.match_view import MatchView  # noqa: E402
from shared.protocol import Chat, ClientMessage, Error, Muted, Say  # noqa: E402

WIDTH, HEIGHT = 1280, 760


class Sent:
    """A link that keeps what the view sends (the chat's requests and the coach's actions) and feeds nothing."""

    def __init__(self) -> None:
        """Nothing sent yet; the room's chat is empty."""
        self.chat = ChatLog()
        self.player = "Jana"
        self.requests: list[ClientMessage] = []
        self.actions: list[object] = []

    def poll(self, state, now) -> None:
        """No news."""

    def send(self, action) -> None:
        """Keep a coach's action."""
        self.actions.append(action)

    def request(self, message: ClientMessage) -> bool:
        """Keep a request, as a connected link would send it."""
        self.requests.append(message)
        return True


@pytest.fixture(scope="module")
def window():
    """One hidden window of the default size."""
    win = arcade.Window(WIDTH, HEIGHT, "chat", visible=False)
    yield win
    win.close()


def _view(window) -> tuple[MatchView, Sent]:
    """Jana's match after a few moves, with the chat link."""
    link = Sent()
    view = MatchView(samples.match_state(moves=4), link, clock=lambda: 0.0)
    window.show_view(view)
    return view, link


def _render(window, view: MatchView, path: Path):
    """Draw the view and save the picture."""
    view.clear(color=palette.BACKGROUND)
    view.draw_at(0.0)
    image = arcade.get_image(0, 0, window.width, window.height).convert("RGB")
    image.save(path)
    return image


def _seen(view: MatchView) -> list[str]:
    """The texts the chat panel drew this frame."""
    pool = view.chat_panel.texts._pool
    return [label.text for key, label in pool.items() if label.text and key != "measure"]


def _read(view: MatchView) -> str:
    """The chat panel's words as one text (wrapped rows joined again)."""
    return " ".join(" ".join(_seen(view)).split())


def test_a_conversation_with_emotes(window, shots):
    """Both coaches and a spectator talk: each line under its speaker's name in his seat's colour, emotes in words,
    the emote buttons and the mute buttons for the others."""
    view, link = _view(window)
    link.chat.toggle()
    names = samples.NAMES
    for player, seat, text, emote in ((names["home"], "home", None, "good luck"),
                                      (names["away"], "away", None, "good luck"),
                                      ("Petr", "spectator", "Hezky rozehrané, držím palce oběma!", None),
                                      (names["away"], "away", "Ten odraz od mantinelu byl štěstí", None),
                                      (names["home"], "home", None, "nice shot"),
                                      ("Petr", "spectator", None, "wow")):
        link.chat.hear(Chat("KL7R", player, seat, text, emote))
    image = _render(window, view, shots / "chat-conversation.png")
    seen = _seen(view)
    assert "Good luck!" in seen and "Nice shot!" in seen and "Wow!" in seen
    assert f"{names['away']}: " in seen and "Petr: " in seen
    assert {f"Mute {names['away']}", "Mute Petr"} <= {b.label for b in view.chat_panel.buttons}
    rect = panel_rect(view.layout().board)
    name = next(label for label in view.chat_panel.texts._pool.values() if label.text == f"{names['away']}: ")
    assert tuple(name.color[:3]) == seat_colour("away")
    inside = image.getpixel((int(rect.left + 3), int(rect.bottom + rect.height / 2)))
    assert inside != palette.WOOD  # the panel covers the board there


def test_a_muted_player_and_the_chats_refusals(window, shots):
    """After muting the spectator his button offers to unmute him, and the refusals are plain lines in the chat."""
    view, link = _view(window)
    link.chat.hear(Chat("KL7R", "Petr", "spectator", "first!"))
    link.chat.muted_changed(Muted("Petr", True))
    link.chat.refused(Error("RATE_LIMITED", "chat: at most 5 lines per 10 seconds", "Say"))
    link.chat.refused(Error("CHAT_CLOSED", "spectators cannot chat in this room", "Say"))
    _render(window, view, shots / "chat-muted.png")
    seen = _read(view)
    assert "Unmute Petr" in {b.label for b in view.chat_panel.buttons}
    assert "Petr is muted: you no longer see their lines" in seen
    assert "Too many lines — wait a few seconds (5 lines per 10 s)" in seen
    assert "Spectators' chat is closed in this room" in seen


def test_typing_never_reaches_the_match(window):
    """With the chat typing, M, L, ? and Escape are the chat's: the sound stays, the move list stays, no help opens;
    Enter sends the line and gives the keys back; a click on the panel is not a press on the board."""
    view, link = _view(window)
    muted, wanted = view.sounds.muted, view.list_wanted
    view.on_key_press(arcade.key.C, 0)
    assert link.chat.open and not link.chat.typing
    view.on_key_press(arcade.key.ENTER, 0)
    assert link.chat.typing
    for key, char in ((arcade.key.M, "m"), (arcade.key.L, "l"), (arcade.key.SPACE, " "), (arcade.key.QUESTION, "?")):
        view.on_key_press(key, 0)
        view.on_text(char)
    assert view.sounds.muted == muted and view.list_wanted == wanted and link.chat.draft == "ml ?"
    assert window.current_view is view
    view.on_key_press(arcade.key.BACKSPACE, 0)
    view.on_key_press(arcade.key.ENTER, 0)
    assert link.requests == [Say(text="ml")] and link.chat.draft == "" and not link.chat.typing
    view.on_key_press(arcade.key.ENTER, 0)
    view.on_text("x")
    view.on_key_press(arcade.key.ESCAPE, 0)
    assert not link.chat.typing and link.chat.draft == "x" and view.confirm is None
    view.draw_at(0.0)
    emote = next(b for b in view.chat_panel.buttons if b.command == "emote:thanks")
    view.on_mouse_press(emote.left + 4, emote.bottom + 4, arcade.MOUSE_BUTTON_LEFT, 0)
    assert link.requests[-1] == Say(emote="thanks") and view.aim is None
    mute = next(b for b in view.chat_panel.buttons if b.command.startswith("mute:"))
    view.on_mouse_press(mute.left + 4, mute.bottom + 4, arcade.MOUSE_BUTTON_LEFT, 0)
    assert link.requests[-1].muted and link.actions == []


def test_the_corner_button_opens_the_chat_and_counts_unread_lines(window):
    """Lines heard while the panel is closed are counted on its corner button; the button opens the panel."""
    view, link = _view(window)
    link.chat.hear(Chat("KL7R", "Petr", "spectator", "ahoj"))
    view.draw_at(0.0)
    button = next(b for b in view.corner_buttons if b.command == "chat")
    assert button.label == "Chat (1)"
    view.on_mouse_press(button.left + 4, button.bottom + 4, arcade.MOUSE_BUTTON_LEFT, 0)
    assert link.chat.open and link.chat.unread == 0


def test_the_chat_is_found_behind_a_link_that_wraps_the_network_link(window):
    """The navigator is every view's link and holds the network link: the view chats through that one."""

    class Wrapping:
        """A link that polls for the views and keeps the network link (as client.player.navigator does)."""

        def __init__(self) -> None:
            """Wrap a network link."""
            self.link = Sent()

        def poll(self, state, now) -> None:
            """No news."""

        def send(self, action) -> None:
            """Nothing to carry."""

    wrapping = Wrapping()
    view = MatchView(samples.match_state(moves=2), wrapping, clock=lambda: 0.0)
    window.show_view(view)
    assert view.chat is wrapping.link.chat
    view.on_key_press(arcade.key.ENTER, 0)
    view.on_text("ahoj")
    view.on_key_press(arcade.key.ENTER, 0)
    assert wrapping.link.requests == [Say(text="ahoj")]


def test_the_chat_in_czech_at_the_minimum_window(shots):
    """At the smallest window the panel stays inside the board, and its words are Czech."""
    from client.common import i18n
    from client.common.layout import MIN_HEIGHT, MIN_WIDTH

    i18n.set_language("cs")
    win = arcade.Window(MIN_WIDTH, MIN_HEIGHT, "chat small", visible=False)
    try:
        link = Sent()
        view = MatchView(samples.match_state(moves=4), link, clock=lambda: 0.0)
        win.show_view(view)
        link.chat.start_typing()
        link.chat.hear(Chat("KL7R", "Petr", "spectator", emote="well played"))
        link.chat.hear(Chat("KL7R", samples.NAMES["away"], "away", "Díky, příště vám to vrátíme"))
        link.chat.type("Dobrá hra")
        _render(win, view, shots / "chat-czech-minimum.png")
        board, rect = view.layout().board, view.chat_panel.rect
        assert rect is not None and board.left <= rect.left and rect.right <= board.right
        assert board.bottom <= rect.bottom and rect.top <= board.top
        seen = _read(view)
        assert "Dobře zahráno!" in seen and "Dobrá hra|" in seen
        assert {"Hodně štěstí!", "Páni!"} <= {b.label for b in view.chat_panel.buttons}
    finally:
        win.close()
        i18n.set_language("en")

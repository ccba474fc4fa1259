"""The chat model: lines with their speaker's seat, emotes in words, the bound on lines kept and on a line typed,
the server's refusals said plainly, mutes, and the draft that never becomes a match key."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from client.common import i18n
from client.match.chat import KEPT_LINES, ChatLine, ChatLog, emote_request, emote_words, printable
from shared.protocol import Chat, Error, Muted, Say
from shared.protocol.messages import CHAT_CHARS, EMOTES


def test_a_heard_line_keeps_name_seat_and_words():
    """A Chat becomes a line with the speaker's name and seat; an emote is shown in words and marked."""
    chat = ChatLog()
    chat.hear(Chat("ABCDEF", "Jana", "home", text="ahoj"))
    chat.hear(Chat("ABCDEF", "Petr", "spectator", emote="nice shot"))
    assert chat.lines == [ChatLine("Jana", "home", "ahoj"), ChatLine("Petr", "spectator", "Nice shot!", True)]
    assert chat.speakers == ["Jana", "Petr"] and chat.unread == 2


def test_the_chat_keeps_only_its_newest_lines():
    """Past KEPT_LINES the oldest lines are forgotten."""
    chat = ChatLog()
    for n in range(KEPT_LINES + 5):
        chat.hear(Chat("ABCDEF", "Jana", "home", text=f"line {n}"))
    assert len(chat.lines) == KEPT_LINES and chat.lines[0].text == "line 5"


def test_emotes_are_translated():
    """Every quick emote has words of its own in Czech, and an unknown one reads as its name."""
    try:
        i18n.set_language("cs")
        assert emote_words("good luck") == "Hodně štěstí!"
        assert len({emote_words(e) for e in EMOTES}) == len(EMOTES)
    finally:
        i18n.set_language("en")
    assert emote_words("shrug") == "Shrug"


def test_chat_refusals_are_said_plainly_and_open_the_panel():
    """CHAT_MUTED, CHAT_CLOSED and RATE_LIMITED of a Say, and NO_PLAYER of a Mute, become the chat's own lines."""
    chat = ChatLog()
    for code in ("CHAT_MUTED", "CHAT_CLOSED", "RATE_LIMITED"):
        assert chat.refused(Error(code, "server words", "Say"))
    assert chat.refused(Error("NO_PLAYER", "no player", "Mute"))
    assert [line.text for line in chat.lines] == [
        "The organiser has silenced you: your lines are not sent",
        "Spectators' chat is closed in this room",
        "Too many lines — wait a few seconds (5 lines per 10 s)",
        "Nobody on this server is called that",
    ]
    assert all(line.seat == "" for line in chat.lines) and chat.open


def test_other_refusals_are_not_the_chats():
    """A RATE_LIMITED of another request is the connection's, not the chat's."""
    assert not ChatLog().refused(Error("RATE_LIMITED", "slow down", "Act"))


def test_a_mute_toggles_by_the_servers_word():
    """mute_request asks to mute a player not muted and to unmute a muted one; Muted changes the set."""
    chat = ChatLog()
    assert chat.mute_request("Ola").muted
    chat.muted_changed(Muted("Ola", True))
    assert chat.muted == {"Ola"} and not chat.mute_request("Ola").muted
    chat.muted_changed(Muted("Ola", False))
    assert chat.muted == set()


def test_the_mutable_names_leave_out_ourselves():
    """Mute buttons are offered for the coaches and everyone heard, once each, never for ourselves."""
    chat = ChatLog()
    chat.hear(Chat("ABCDEF", "Petr", "spectator", text="hi"))
    chat.hear(Chat("ABCDEF", "Jana", "home", text="hi"))
    assert chat.mutable("Jana", ["Jana", "Ola"]) == ["Ola", "Petr"]


@given(st.text(max_size=400))
def test_a_draft_is_bounded_and_printable(typed):
    """Whatever is typed, the draft holds at most CHAT_CHARS printable characters."""
    chat = ChatLog()
    chat.type(typed)
    assert len(chat.draft) <= CHAT_CHARS and printable(chat.draft) == chat.draft


def test_the_draft_becomes_one_say_with_its_spaces_collapsed():
    """take_line sends the draft with spaces collapsed and clears it; a draft of spaces sends nothing."""
    chat = ChatLog()
    chat.type("  dobrý\t  tah ")
    assert chat.draft == "  dobrý  tah "
    assert chat.take_line() == Say(text="dobrý tah") and chat.draft == ""
    chat.type("   ")
    assert chat.take_line() is None


def test_typing_opens_the_panel_and_hiding_it_stops_typing():
    """start_typing opens the panel and reads the unread lines; toggling it shut ends typing."""
    chat = ChatLog()
    chat.hear(Chat("ABCDEF", "Jana", "home", text="hi"))
    chat.start_typing()
    assert chat.open and chat.typing and chat.unread == 0
    chat.toggle()
    assert not chat.open and not chat.typing


def test_leaving_the_room_forgets_its_lines_but_not_the_mutes():
    """Mutes last with the connection; the room's lines and speakers go with the room."""
    chat = ChatLog()
    chat.hear(Chat("ABCDEF", "Jana", "home", text="hi"))
    chat.muted_changed(Muted("Jana", True))
    chat.leave()
    assert chat.lines == [] and chat.speakers == [] and chat.muted == {"Jana"}


def test_an_emote_request_names_the_emote():
    """Each quick emote is sent as Say{emote}."""
    assert [emote_request(e) for e in EMOTES] == [Say(emote=e) for e in EMOTES]


def test_at_a_tournament_table_the_chat_names_the_entries_and_mutes_the_right_player():
    """A tournament table's seats are named as the entries ("Ola Nowak"), the chat's lines come with the players'
    server names ("Ola"): a coach's line reads with his entry's name, no mute button is offered for ourselves (under
    either name), and the opponent's button is labelled with his entry's name but mutes his server name - the one
    the server knows (a Mute of "Tom Dvorak" named nobody)."""
    from client.match.chat import rows

    names = {"home": "Ola Nowak", "away": "Tom Dvorak"}
    chat = ChatLog()
    chat.hear(Chat("ABCDEF", "Ola", "home", text="hej"), names)
    chat.hear(Chat("ABCDEF", "Tom", "away", text="powodzenia"), names)
    chat.hear(Chat("ABCDEF", "Petr", "spectator", text="hi"), names)
    assert [row.name for row in rows(chat.lines, 40)] == ["Ola Nowak: ", "Tom Dvorak: ", "Petr: "]
    mutable = chat.mutable({"Ola Nowak", "Ola"}, list(names.values()))
    assert mutable == ["Tom", "Petr"]
    assert [chat.shown(name) for name in mutable] == ["Tom Dvorak", "Petr"]
    assert chat.mute_request("Tom").player == "Tom"

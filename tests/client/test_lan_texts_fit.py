"""Headless renders of the LAN screens whose words must be read whole at the default window size: the desk's
entry codes (handed out to the players), the Servers page's tournaments, and the heads of the standings on the
player's waiting screen. Each slot's text as drawn is compared with its text: a cut one ends in "…"."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import i18n, palette  # noqa: E402
from client.common.local_server import LOCAL_URL  # noqa: E402
from client.common.menu_view import LobbyView  # noqa: E402
from client.common.tournament_model import Box, standings_columns  # noqa: E402
from client.common.tournament_widgets import draw_standings  # noqa: E402
from client.desk.desk_model import DeskModel  # noqa: E402
from client.desk.desk_view import DeskView  # noqa: E402
from client.player.servers_page import ServersPage, server_cells  # noqa: E402
from server.app import Server  # noqa: E402
from shared.protocol import PROTOCOL_VERSION  # noqa: E402
from shared.protocol.lan_record import FoundServer, RunningTournament  # noqa: E402
from tests.client.test_desk_model import created, pump, registered, url_of  # noqa: E402
from tests.server.players import WireClient  # noqa: E402

WIDTH, HEIGHT = 1280, 760


@pytest.fixture(scope="module")
def window() -> Iterator[Any]:
    """One hidden window of the client's default size."""
    win = arcade.Window(WIDTH, HEIGHT, "lan texts", visible=False)
    yield win
    win.close()


def drawn(view: Any, key: str) -> str:
    """The text slot ``key`` shows as last drawn (cut with "…" when it did not fit)."""
    label = view.texts.peek(key)
    assert label is not None, key
    return str(label.text)


def _draw(window: Any, view: Any) -> None:
    """Two frames of ``view`` (the first lays the buttons out)."""
    window.show_view(view)
    for _frame in range(2):
        view.clear(color=palette.BACKGROUND)
        view.draw_at(0.0)


async def test_the_desk_shows_each_entry_code_whole(window: Any, server: Server) -> None:
    """Entries and check-in: every code the desk knows is drawn whole in its row, to be read out to the player, and
    the row's name, club and state whole beside it."""
    wire = await WireClient.connect(url_of(server), "desk")
    model = DeskModel(server=url_of(server), seed=5)
    await created(model, wire)
    codes = [await registered(model, wire, name, club) for name, club in
             (("Tomáš Dvořák", "HC Olomouc"), ("Agnieszka Nowak", "KS Kraków"))]
    await pump(model, wire, lambda: len(model.entries()) == 2)
    await wire.close()
    model.activate("screen:entries")
    view = DeskView(model, lambda request: None)
    _draw(window, view)
    rows = [i for i, item in enumerate(model.items()) if len(item.cells) == 4]
    assert len(rows) == 2
    for i in rows:  # name, club, "not checked in", the code: each whole
        assert tuple(drawn(view, f"item{i}.{col}") for col in range(4)) == model.items()[i].cells
    assert sorted(drawn(view, f"item{i}.3") for i in rows) == sorted(codes)


async def test_the_entry_codes_screen_tells_the_player_the_way_whole_and_names_the_button(window: Any,
                                                                                            server: Server) -> None:
    """The code just registered, with the player's way to it: every line of the instructions drawn whole, in
    English, Czech and Polish, naming the button that takes the code (and warning of the one that does not)."""
    wire = await WireClient.connect(url_of(server), "desk")
    model = DeskModel(server=url_of(server), seed=5)
    await created(model, wire)
    await registered(model, wire, "Kasia Wiśniewska", "KS Kraków")
    await wire.close()
    try:
        for language in ("en", "cs", "pl"):
            i18n.set_language(language)
            view = DeskView(model, lambda request: None)
            _draw(window, view)
            lines = [(i, item.label) for i, item in enumerate(model.items()) if item.kind == "text"]
            for i, label in lines:
                assert drawn(view, f"item{i}") == label, language
            said = " ".join(label for _i, label in lines)
            assert i18n._("Enter with this code") in said and i18n._("Enter as myself (no code)") in said
            assert i18n._("Tournaments") in said
    finally:
        i18n.set_language("en")


async def test_the_desks_chat_screen_shows_each_coach_and_whether_he_may_chat_whole(window: Any,
                                                                                   server: Server) -> None:
    """Chat at the tables: each entry's name, club and chat state drawn whole beside its Mute button, in Czech
    too (its longest words)."""
    wire = await WireClient.connect(url_of(server), "desk")
    model = DeskModel(server=url_of(server), seed=5)
    await created(model, wire)
    for name, club in (("Tomáš Dvořák", "HC Olomouc"), ("Agnieszka Nowak", "KS Kraków")):
        await registered(model, wire, name, club)
    await pump(model, wire, lambda: len(model.entries()) == 2)
    await wire.close()
    try:
        for language in ("en", "cs"):
            i18n.set_language(language)
            model.activate("screen:chat")
            view = DeskView(model, lambda request: None)
            _draw(window, view)
            rows = [i for i, item in enumerate(model.items()) if len(item.cells) == 3]
            assert len(rows) == 2
            for i in rows:
                assert tuple(drawn(view, f"item{i}.{col}") for col in range(3)) == model.items()[i].cells
    finally:
        i18n.set_language("en")


def test_the_servers_page_names_the_tournaments_of_a_lan_server(window: Any) -> None:
    """A LAN server's row: its name, address, its tournament by name and players online, none cut."""
    found = FoundServer(instance="Klub Šprtec Brno._sprtec._tcp.local.", name="Klub Šprtec Brno",
                        url="ws://192.168.100.120:8765/", address="192.168.100.120", port=8765,
                        addresses=("192.168.100.120",), protocol_version=PROTOCOL_VERSION, players_online=12,
                        tournaments=(RunningTournament("AYRGF3", "Velká cena Brna"),), tournaments_running=1)
    page = ServersPage(lambda: (found,), LOCAL_URL)  # nothing on this computer: the row is lit, and still whole
    view = LobbyView(page, lambda request: None)
    _draw(window, view)
    row = next(i for i, item in enumerate(page.items()) if item.label == "Klub Šprtec Brno")
    assert tuple(drawn(view, f"item{row}.{col}") for col in range(4)) == server_cells(found)
    assert "Velká cena Brna" in drawn(view, f"item{row}.2")


def test_the_waiting_screens_standings_heads_are_whole(window: Any) -> None:
    """The waiting screen's standings (six tenths of the window) with the Swiss tie-breaks: every column's head
    whole, shrunk when it must be, and inside its column."""
    from client.common.widgets import Texts

    texts = Texts()
    columns = standings_columns(("buchholz", "goals_capped", "buchholz2"))
    width = (WIDTH - 32) * 0.6 - 12  # client.player.tournament_view: the waiting screen's split
    area = Box(16, 100, width, 500)
    window.clear()
    draw_standings(texts, "standings", area, (), columns)
    for i, column in enumerate(columns):
        label = texts.peek(f"standings.head.{i}")
        assert label is not None and label.text == column.heading
        end = columns[i + 1].start if i + 1 < len(columns) else 1.0
        assert label.x + label.content_width <= area.left + 6 + (area.width - 12) * end


def test_the_finished_desk_says_the_tournament_has_ended_whole(window: Any) -> None:
    """A finished tournament's desk: the line that replaces the next round's buttons is drawn whole, in both
    languages."""
    from client.common import i18n
    from shared.protocol import TournamentUpdate

    for language in ("en", "cs"):
        i18n.set_language(language)
        model = DeskModel(server="ws://127.0.0.1:1/", tournament="ABCDEF", secret="s")
        model.update = TournamentUpdate(
            tournament="ABCDEF", name="Brno Open 2026", sequence=9, version=9, status="finished", system="swiss",
            stage=0, round=5, standings_stage=0, after_round=5, complete=True, entries=(), standings=(), tables=(),
            byes=(), bracket=(), cards=(), suspended=(), cases=(), audit=())
        view = DeskView(model, lambda request: None)
        _draw(window, view)
        row = next(i for i, item in enumerate(model.items()) if item.command == "ended")
        shots = os.environ.get("SPRTEC_SHOTS")
        if shots:
            arcade.get_image(0, 0, WIDTH, HEIGHT).save(Path(shots) / f"desk-finished-{language}.png")
        assert drawn(view, f"item{row}") == model.items()[row].label
    i18n.set_language("en")


def test_a_row_cut_short_gives_its_whole_text_when_lit(window: Any) -> None:
    """A list's row whose cell cannot be read whole in its column: lit, the hint line under the list gives the
    whole row, numbers and all (a tooltip for the keyboard and the pointer alike)."""
    from client.common.menu import Item, Page

    long_name = "Velká cena Brna a okolí v billiard-hockey 2026, 3. kolo Českého poháru (Kategorie M, 12 hráčů)"

    class Rows(Page):
        """One long row and Back."""

        def items(self) -> list[Item]:
            """The rows."""
            return [Item(long_name, "row", "room", "the row's own hint", cells=(long_name, "192.168.1.20:8765"),
                         stops=(0.0, 0.6)), Item("Back", "back")]

        def wide(self) -> bool:
            """A table."""
            return True

    page = Rows()
    view = LobbyView(page, lambda request: None)
    _draw(window, view)
    assert drawn(view, "item0.0") != long_name  # cut in its column
    assert drawn(view, "hint") == f"{long_name}  ·  192.168.1.20:8765"
    page.focus = 1
    _draw(window, view)
    assert drawn(view, "hint") == ""


def test_the_override_confirmation_reads_its_reason_whole(window: Any) -> None:
    """The question of an override names the table, both players, the result and the organiser's reason: every
    line of it is drawn whole on the confirmation (in English and Czech), the reason's last word included."""
    from client.desk.desk_model import Pending
    from shared.protocol import OverrideResult

    reason = "the referee of board 3 saw the away coach flick twice during the last power play, confirmed by both"
    for language in ("en", "cs"):
        i18n.set_language(language)
        model = DeskModel(server="ws://127.0.0.1:1/", tournament="ABCDEF", secret="s")
        request = OverrideResult(tournament="ABCDEF", secret="s", stage=0, round=2, table=3, reason=reason,
                                 score=None, walkover="home", shootout=None)
        question = i18n._("Set table {n} ({home} – {away}) to {result}: {reason}?").format(
            n=3, home="Jaroslav Křížek", away="Magdaléna Dvořáková", result="5:0", reason=reason)
        model.pending, model.screen = Pending(question, i18n._("Can be undone."), request), "confirm"
        view = DeskView(model, lambda request: None)
        _draw(window, view)
        texts = [(i, item.label) for i, item in enumerate(model.items()) if item.kind == "text"]
        assert texts and reason.split()[-1] in " ".join(label for _, label in texts)
        for i, label in texts:
            assert drawn(view, f"item{i}") == label, (language, label)
    i18n.set_language("en")

"""Headless pictures of the players' screens, in English and in Czech, from a real server on port 0 whose players are
real (welcomed with their names; the established ones' ratings stored in its database as a season would leave
them): the name entry and its NAME_TAKEN message, the HUD with both ratings, the results of a rated match the
client's navigator played with the rating change, the profile with that match, the leaderboard and a claim code.
Each picture is checked for what it must show; set ``SPRTEC_SHOTS=DIR`` to keep them there."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import i18n, palette  # noqa: E402
from client.common.identity import IdentityStore  # noqa: E402
from client.common.menu import Close, OpenClaimCode, OpenLeaderboard  # noqa: E402
from client.common.menu_view import LobbyView  # noqa: E402
from client.common.rating_text import signed  # noqa: E402
from client.common.sound import Sounds  # noqa: E402
from client.match import samples  # noqa: E402
from client.match.net import NetClient, NetLink  # noqa: E402
from client.player.claim_code import ClaimPage  # noqa: E402
from client.player.leaderboard_model import LeaderboardPage  # noqa: E402
from client.player.lobby_model import LobbyModel  # noqa: E402
from client.player.navigator import Navigator  # noqa: E402
from client.player.profile_model import ProfilePage  # noqa: E402
from client.player.results_view import ResultsView  # noqa: E402
from server.app import Server, ServerConfig  # noqa: E402
from server.players import now_ms  # noqa: E402
from server.store.player_records import PlayerRecords, StoredRating  # noqa: E402
from shared.protocol import CreateRoom, JoinRoom, Welcome  # noqa: E402
from shared.ratings import Rating  # noqa: E402
from tests.client.test_live import Coach, until  # noqa: E402

WIDTH, HEIGHT = 1280, 760
SETTINGS = {"period_ms": 8000, "move_clock_ms": 2000}  # two flicks each, then the move clocks end the period
WAIT_S = 60.0
LANGUAGES = ("en", "cs")
ME, OPPONENT = "Jana Nováková", "Piotr Kowalski"
NEW_NAMES = {"en": "Ola Zielińska", "cs": "Věra Štěpánková"}  # a new player per language of the name entry
# the established players of the quick family: (name, rating, RD, rated matches)
SEASON = (("Tomáš Dvořák", 1748, 52, 64), ("Agnieszka Nowak", 1712, 55, 41), ("Lukáš Svoboda", 1690, 61, 38),
          ("Kasia Wiśniewska", 1655, 58, 52), ("Marek Černý", 1631, 66, 29), ("Ewa Zielińska", 1604, 70, 25),
          ("Ondřej Král", 1577, 64, 33), ("Bartek Wójcik", 1549, 59, 47), ("Petra Malá", 1523, 68, 22),
          ("HC Kladno", 1498, 62, 30), ("Sokol Kraków", 1466, 57, 35))


@dataclass
class World:
    """The real server, the window, and the navigator of Jana's client as the tests left it."""

    url: str
    server: Server
    loop: asyncio.AbstractEventLoop
    window: Any  # arcade.Window
    nav: Navigator
    hud: dict[str, dict[str, str]]  # language: the HUD's name labels as drawn during the match
    folder: Path


def _run(world_loop: asyncio.AbstractEventLoop, coroutine: object) -> object:
    """Run a coroutine on the server's loop and wait for it."""
    return asyncio.run_coroutine_threadsafe(coroutine, world_loop).result(20)  # type: ignore[arg-type]


def _welcomed(url: str, name: str) -> int:
    """A player of the server: connect with ``name`` until welcomed; his player id."""
    coach = Coach(url, name)
    try:
        until([coach], coach.welcomed, f"the welcome of {name}")
        welcome = next(m for m in coach.link.other if isinstance(m, Welcome))
        assert welcome.player_id is not None
        return welcome.player_id
    finally:
        coach.client.close()


def _rate(world_loop: asyncio.AbstractEventLoop, server: Server, player: int, rating: int, rd: int,
          games: int) -> None:
    """Store a quick-family rating for ``player`` as it stands now."""
    stored = StoredRating(rating=Rating(rating=rating, rd=rd, last_played_ms=now_ms()), games=games)
    _run(world_loop, server.store.write([PlayerRecords.save_rating(player, "quick", stored)]))


def _render(window: Any, view: Any, path: Path) -> None:
    """Draw ``view`` as it is now and save the picture."""
    window.show_view(view)
    view.clear(color=palette.BACKGROUND)
    view.draw_at(time.monotonic())
    arcade.get_image(0, 0, window.width, window.height).convert("RGB").save(path)


def _frames(nav: Navigator, done: Callable[[], bool], what: str, also: Callable[[], None] = lambda: None) -> None:
    """Run the shown view's frames until ``done()``."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        view = nav.window.current_view
        if view is not None:
            view.on_update(0.05)
        also()
        if done():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}: {[line.text for line in nav.state.log[-4:]]}")


def _play_rated_match(world: World, piotr: Coach) -> None:
    """Jana creates a rated room, Piotr joins; two flicks each, the HUD drawn once both ratings stand beside the
    names, then the move clocks run the period out; the navigator ends on the results."""
    nav = world.nav
    assert nav.link.request(CreateRoom("quick", SETTINGS, True, rated=True))
    _frames(nav, lambda: nav.state.room is not None, "the rated room", piotr.poll)
    assert piotr.link.request(JoinRoom(nav.state.room))  # type: ignore[arg-type]
    flicks = {"home": 0, "away": 0}

    def play() -> None:
        """Piotr follows the match; each coach flicks the stone nearest the puck, twice; the HUD is drawn once."""
        piotr.poll()
        now = time.monotonic()
        state = nav.state
        if nav.screen == "match" and len(state.ratings) == 2 and not world.hud:
            for language in LANGUAGES:
                i18n.set_language(language)
                view = nav.window.current_view
                _render(world.window, view, world.folder / f"hud-ratings-{language}.png")
                world.hud[language] = {team: _text(view, f"{team}.name") for team in ("home", "away")}
            i18n.set_language("en")
        for coach_state, send in ((state, nav.send), (piotr.state, piotr.link.send)):
            seat = coach_state.seat
            if seat is not None and flicks[seat] < 2 and coach_state.my_turn(now) \
                    and not coach_state.waiting_for_opponent():
                flick = samples.toward_puck(coach_state.position, seat)  # type: ignore[arg-type]
                if flick is not None:
                    send(flick)
                    flicks[seat] += 1

    _frames(nav, lambda: nav.screen == "results" and nav.link.rated_news is not None, "the rated results", play)
    assert flicks == {"home": 2, "away": 2} and world.hud


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, shots: Path) -> Iterator[World]:
    """A real server with a season's established players, and Jana's client after a rated match against Piotr."""
    folder = shots
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    server = Server(ServerConfig(port=0, data_dir=tmp_path_factory.mktemp("data"), workers=0))
    port = _run(loop, server.start())
    url = f"ws://127.0.0.1:{port}/"
    window = arcade.Window(WIDTH, HEIGHT, "players", visible=False)
    client = NetClient(url, ME)
    piotr: Coach | None = None
    try:
        for name, rating, rd, games in SEASON:
            _rate(loop, server, _welcomed(url, name), rating, rd, games)
        piotr = Coach(url, OPPONENT)
        until([piotr], piotr.welcomed, "Piotr's welcome")
        nav = Navigator(window, NetLink(client), LobbyModel(origin=f"Server {url}"), Sounds(muted=True))
        client.start()
        nav.show_first()
        _frames(nav, lambda: nav.lobby.connected and nav.lobby.player == ME, "Jana's welcome", piotr.poll)
        _rate(loop, server, _player_id(server, OPPONENT), 1620, 60, 44)
        _rate(loop, server, _player_id(server, ME), 1512, 131, 6)
        built = World(url, server, loop, window, nav, {}, folder)
        _play_rated_match(built, piotr)
        yield built
    finally:
        i18n.set_language("en")
        client.close()
        if piotr is not None:
            piotr.client.close()
        window.close()
        _run(loop, server.shutdown())
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


def _player_id(server: Server, name: str) -> int:
    """A player's id by his name, as the server's records keep it."""
    from shared.names import name_key

    found = PlayerRecords(server.store).by_name_key(name_key(name))
    assert found is not None, name
    return int(found[0])


def _text(view: Any, key: str) -> str:
    """The text of a view's label slot as last drawn."""
    label = view.texts.peek(key)
    assert label is not None, key
    return str(label.text)


def _menu(nav: Navigator) -> LobbyView:
    """The menu the navigator shows now."""
    view = nav.window.current_view
    assert isinstance(view, LobbyView)
    return view


def _labels(view: LobbyView) -> list[str]:
    """The texts of a menu's items as drawn (cells joined)."""
    found = []
    for index, item in enumerate(view.model.items()):
        label = view.texts.peek(f"item{index}")
        cells = [view.texts.peek(f"item{index}.{i}") for i in range(len(item.cells))]
        found.append(" | ".join(c.text for c in cells if c is not None) if item.cells else
                     label.text if label is not None else "")
    return found


def test_the_hud_shows_both_coaches_ratings(world: World) -> None:
    """During the rated match both names carry their rating; Jana's is provisional ("1512?"), in both languages."""
    assert world.hud["en"] == {"home": f"{ME} (you)  1512?", "away": f"{OPPONENT}  1620"}
    assert world.hud["cs"]["home"].endswith("1512?") and "(vy)" in world.hud["cs"]["home"]


def test_the_results_show_the_rating_change_of_both_coaches(world: World) -> None:
    """The results screen names both coaches and says "before → after (±n)" for each, from the server's Rated."""
    view = world.window.current_view
    assert isinstance(view, ResultsView)
    news = world.nav.link.rated_news
    assert news is not None and {c.player for c in news.changes} == {ME, OPPONENT}
    for language in LANGUAGES:
        i18n.set_language(language)
        _render(world.window, view, world.folder / f"results-rated-{language}.png")
        lines = [_text(view, f"ratings{i}") for i in range(2)]
        for change, line in zip(sorted(news.changes, key=lambda c: c.team != "home"), lines, strict=True):
            assert line.startswith(change.player) and f"{change.before} → {change.after}" in line and "(" in line
        assert ME in _text(view, "score") and OPPONENT in _text(view, "score")
    i18n.set_language("en")
    assert sorted(c for _, c in view.results().profiles) == [f"profile:{ME}", f"profile:{OPPONENT}"]


def test_my_profile_shows_the_rated_match(world: World) -> None:
    """Own profile from the results: the name, the quick rating with RD ("?" while provisional), one match played,
    and its row with Piotr, the score from Jana's side and the rating change."""
    nav = world.nav
    nav.choose(f"profile:{ME}")
    page = nav.top_page()
    assert isinstance(page, ProfilePage)
    _frames(nav, lambda: page.profile is not None, "the profile")
    news = nav.link.rated_news
    assert news is not None
    mine = next(c for c in news.changes if c.player == ME)
    try:
        for language in LANGUAGES:
            i18n.set_language(language)
            view = _menu(nav)
            _render(world.window, view, world.folder / f"profile-{language}.png")
            assert _text(view, "title") == ME
            notes = " ".join(_text(view, f"note{i}") for i in range(3))
            assert f"quick {mine.after}{'?' if mine.provisional else ''}" in notes and f"RD {mine.rd}" in notes
            row = next(label for label in _labels(view) if label.startswith(OPPONENT))
            line = page.profile.last[0]  # type: ignore[union-attr]
            assert line.match_id == news.match_id and line.rating_change is not None
            assert f" | {signed(line.rating_change)} | " in row and (" | 0 : 0 | " in row) == (line.score.home == 0
                                                                                              == line.score.away)
    finally:
        i18n.set_language("en")
        nav.page_request(Close())
    assert isinstance(nav.window.current_view, ResultsView)


def test_the_leaderboard_ranks_the_established_players_and_opens_a_profile(world: World) -> None:
    """The quick family: the season's players by rating, eight a page, rank, name, rating and RD; the next page;
    a name opens that player's profile."""
    nav = world.nav
    nav.page_request(OpenLeaderboard("quick"))
    page = nav.top_page()
    assert isinstance(page, LeaderboardPage)
    _frames(nav, lambda: page.shown() is not None, "the leaderboard")
    board = page.shown()
    assert board is not None and board.total >= len(SEASON) and board.players[0].player == "Tomáš Dvořák"
    try:
        for language in LANGUAGES:
            i18n.set_language(language)
            view = _menu(nav)
            _render(world.window, view, world.folder / f"leaderboard-{language}.png")
            rows = [label for label in _labels(view) if label.startswith("1.") or label.startswith("2.")]
            assert rows[0] == "1. | Tomáš Dvořák | 1748 | 52 | 64" and rows[1].startswith("2. | Agnieszka Nowak")
        nav.page_request(page.activate("next"))
        _frames(nav, lambda: page.shown() is not None, "the second page")
        ninth = page.shown().players[0]  # type: ignore[union-attr]
        assert ninth.rank == 9
        nav.page_request(page.activate(f"profile:{ninth.player}"))
        other = nav.top_page()
        assert isinstance(other, ProfilePage) and other.player == ninth.player
        _frames(nav, lambda: other.profile is not None, "a ranked player's profile")
        assert other.profile is not None and other.profile.ratings[0].rating == ninth.rating
        nav.page_request(Close())
    finally:
        i18n.set_language("en")
        nav.page_request(Close())


def test_a_claim_code_is_shown_large_with_its_expiry(world: World) -> None:
    """Settings → Use this identity on another machine: the server's code in two groups, "Expires in 10:00"."""
    nav = world.nav
    nav.page_request(OpenClaimCode())
    page = nav.top_page()
    assert isinstance(page, ClaimPage)
    _frames(nav, lambda: page.code is not None, "the claim code")
    try:
        for language in LANGUAGES:
            i18n.set_language(language)
            view = _menu(nav)
            _render(world.window, view, world.folder / f"claim-code-{language}.png")
            code = _text(view, "item0")
            assert code.replace(" ", "") == page.code and len(code) == 9
            assert _text(view, "item1").endswith(("10:00", "9:59"))
    finally:
        i18n.set_language("en")
        nav.page_request(Close())


def _first_start(world: World, language: str, folder: Path) -> Navigator:
    """A client started for the first time on the world's server (no identity in ``folder``), in ``language``: the
    name entry is shown."""
    i18n.set_language(language)
    client = NetClient(world.url, None, identity=IdentityStore(folder), ask_name=True)
    nav = Navigator(world.window, NetLink(client), LobbyModel(origin=f"Server {world.url}"), Sounds(muted=True))
    client.start()
    nav.show_first()
    return nav


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_wrong_claim_code_is_refused_whole_under_the_field(world: World, language: str, tmp_path: Path) -> None:
    """"I have a claim code" with a code the server never gave: BAD_CLAIM told whole under the field, saying where
    a new claim code comes from."""
    nav = _first_start(world, language, tmp_path)
    try:
        view = _menu(nav)
        view.model.activate("screen:claim")
        view.on_text("ABCD2345")
        view.on_key_press(arcade.key.ENTER, 0)
        _frames(nav, lambda: bool(view.model.error), "the server's BAD_CLAIM")
        _render(world.window, view, world.folder / f"claim-refused-{language}.png")
        assert _text(view, "error") == i18n._("Unknown, used or expired claim code — get a new one in Settings on "
                                              "the other machine")
    finally:
        i18n.set_language("en")
        nav.link.client.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_name_entry_and_a_taken_name(world: World, language: str, tmp_path: Path) -> None:
    """A new client of the server asks who the player is; "piotr KOWALSKI" is taken (NAME_TAKEN from the server,
    told on the entry); another name is welcomed and the lobby follows."""
    nav = _first_start(world, language, tmp_path)
    try:
        view = _menu(nav)
        assert nav.screen == "name"
        _render(world.window, view, world.folder / f"name-entry-{language}.png")
        assert _text(view, "item0") == i18n._("Name: {name}_").format(name="")
        view.on_text("piotr KOWALSKI")
        view.on_key_press(arcade.key.ENTER, 0)
        _frames(nav, lambda: bool(view.model.error), "the server's NAME_TAKEN")
        _render(world.window, view, world.folder / f"name-taken-{language}.png")
        error = _text(view, "error")
        taken = i18n._("“{name}” is taken on this server, or looks like a name that is — choose another name")
        assert "piotr KOWALSKI" in error and error == taken.format(name="piotr KOWALSKI")
        for _ in range(len("piotr KOWALSKI")):
            view.on_key_press(arcade.key.BACKSPACE, 0)
        view.on_text(NEW_NAMES[language])
        view.on_key_press(arcade.key.ENTER, 0)
        _frames(nav, lambda: nav.screen == "lobby", "the welcome")
        assert nav.lobby.player == NEW_NAMES[language]
    finally:
        i18n.set_language("en")
        nav.link.client.close()

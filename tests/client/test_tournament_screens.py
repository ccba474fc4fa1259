"""Headless pictures of the tournament screens, in English and in Czech, from tournaments really run on a server on
port 0 by the organiser's protocol messages (results set by XVII.5 overrides, cards given, one table really being
played): the player's waiting screen, the hall's standings with tie-breaks, rank changes and points by round, the
hall's tables with the one being played, that table watched live by the hall, and a knockout bracket drawn as a
bracket. Each picture is checked for what it must show; set ``SPRTEC_SHOTS=DIR`` to keep them there."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import i18n  # noqa: E402
from client.common.tournament_model import bracket_layout, entry_names  # noqa: E402
from client.hall.hall_director import HallDirector  # noqa: E402
from client.hall.hall_model import Shown  # noqa: E402
from client.match.match_view import MatchView  # noqa: E402
from client.match.net import NetClient, NetLink  # noqa: E402
from client.player.lobby_model import OpenTournaments  # noqa: E402
from client.player.navigator import Navigator  # noqa: E402
from client.player.tournament_list import TournamentsPage  # noqa: E402
from client.player.tournament_session import TournamentSession  # noqa: E402
from client.player.tournament_view import TournamentView  # noqa: E402
from shared.protocol import JoinRoom, TableLine, TournamentUpdate  # noqa: E402
from tests.client.tournament_world import (  # noqa: E402
    Organised,
    Wire,
    claim_and_check_in,
    frames,
    navigator,
    organise,
    running_server,
)

WIDTH, HEIGHT = 1280, 760
LANGUAGES = ("en", "cs")
ME = "Jana Nováková"
OTHERS = ["Tomáš Dvořák", "Agnieszka Nowak", "Lukáš Svoboda", "Kasia Wiśniewska", "Marek Černý"]
KNOCKOUT_FIELD = [*OTHERS, "Ewa Zielińska", "Ondřej Král", "Piotr Kowalski"]
SWISS = [{"system": "swiss", "rounds": 4, "ruleset": "quick"}]
KNOCKOUT = [{"system": "knockout", "ruleset": "ko", "third_place": True}]
SCORES = [(3, 1), (2, 2), (0, 4), (5, 2), (1, 0)]  # the tables' results, shifted each round


@dataclass(kw_only=True)
class World:
    """Jana's navigator and the hall's director in one window (one GL context: arcade draws in one), the
    tournaments, the table being played, the folder."""

    nav: Navigator
    hall_window: Any
    hall_link: NetLink
    hall: HallDirector | None
    swiss: Organised
    knockout: Organised
    played: TableLine
    folder: Path


def _save(window: Any, view: Any, path: Path) -> None:
    """Draw ``view`` as it is now and save the picture."""
    window.switch_to()
    view.on_draw()
    arcade.get_image(0, 0, window.width, window.height).convert("RGB").save(path)


def _enter(nav: Navigator, tid: str, code: str) -> None:
    """Jana enters with her entry code from the lobby's Tournaments page, and checks in."""
    nav.lobby_request(OpenTournaments())
    page = nav.top_page()
    assert isinstance(page, TournamentsPage)
    frames([nav], lambda: any(t.tournament == tid for t in page.tournaments), "the list")
    page.activate(f"choose:{tid}")
    page.type_text(code)
    nav.page_request(page.activate("join_code"))
    frames([nav], lambda: nav.screen == "tournament" and nav.tournament is not None
           and nav.tournament.update is not None and nav.tournament.entry is not None, "her screen")
    nav.tournament_command("checkin")
    frames([nav], lambda: nav.tournament is not None and nav.tournament.checked_in(), "her check-in")


def _decide(organised: Organised, number: int, tables: tuple[TableLine, ...], knockout: bool = False) -> None:
    """Every table of round ``number`` set on paper (a knockout's draws broken by one goal; Jana wins hers, so she
    is at a table in round 3 rather than given its bye)."""
    for i, line in enumerate(sorted(tables, key=lambda t: t.table)):
        home, away = SCORES[(i + number) % len(SCORES)]
        if knockout and home == away:
            away += 1
        if ME in (line.home_name, line.away_name):
            home, away = (4, 1) if line.home_name == ME else (1, 4)
        organised.decide(number, line.table, home, away)


def _swiss(url: str, nav: Navigator, coaches: dict[str, Wire], organiser: Wire,
           hall_link: NetLink) -> tuple[Organised, HallDirector, TableLine]:
    """Six players, two rounds set on paper (a yellow and a red card in round 2; the hall follows from the start);
    in round 3 Jana's table is set at once and two coaches really sit down at theirs (the red card's player sits
    out). The hall's director and the table being played."""
    swiss = organise(url, organiser, "Brno Open 2026", [ME, *OTHERS], SWISS)
    swiss.watch()
    hall = HallDirector(nav.window, hall_link, swiss.tid, on_close=lambda: None)
    hall.follow()
    for name in OTHERS:
        claim_and_check_in(coaches[name], swiss, name)
    _enter(nav, swiss.tid, swiss.codes[ME])
    for number in (1, 2):
        assert swiss.start_round() == number
        _decide(swiss, number, swiss.round_tables(number))
        if number == 2:
            swiss.card("Marek Černý", "yellow", "slow play after a warning")
            swiss.card("Lukáš Svoboda", "red", "threw a stone at the board")
        frames([nav], lambda n=number: nav.tournament is not None  # type: ignore[misc]
               and nav.tournament.update is not None and nav.tournament.update.after_round == n
               and nav.tournament.update.status == "between" and hall.update is not None
               and hall.update.after_round == n, f"the end of round {number}", also=hall.poll)
    assert swiss.start_round() == 3
    tables = swiss.round_tables(3)
    mine = next(t for t in tables if ME in (t.home_name, t.away_name))
    swiss.decide(3, mine.table, 1, 3)
    played = next(t for t in tables if t.table != mine.table and t.room is not None)
    for name in (played.home_name, played.away_name):
        coaches[name].send(JoinRoom(played.room))  # type: ignore[arg-type]
    frames([nav], lambda: _status(nav, played.table) == "playing" and _status(nav, mine.table) == "ended"
           and nav.screen == "tournament", "one table being played, Jana's decided", also=hall.poll)
    return swiss, hall, played


def _label(view: Any, key: str) -> str:
    """The text of a view's label slot as last drawn."""
    label = view.texts.peek(key)
    assert label is not None, key
    return str(label.text)


def _status(nav: Navigator, table: int) -> str:
    """How Jana's screen has a table of the current round."""
    session = nav.tournament
    if session is None or session.update is None:
        return ""
    return next((t.status for t in session.update.tables if t.table == table), "")


def _knockout(url: str, coaches: dict[str, Wire], organiser: Wire) -> Organised:
    """Eight players (Jana not among them); the quarter- and semi-finals set on paper; the final and the match for
    third place open."""
    knockout = organise(url, organiser, "Kraków Cup", KNOCKOUT_FIELD, KNOCKOUT)
    knockout.watch()
    for name in KNOCKOUT_FIELD:
        claim_and_check_in(coaches[name], knockout, name)
    for number in (1, 2):
        assert knockout.start_round() == number
        _decide(knockout, number, knockout.round_tables(number), knockout=True)
    assert knockout.start_round() == 3
    knockout.round_tables(3)
    return knockout


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, shots: Path) -> Iterator[World]:
    """A server with the Swiss tournament in its third round and the knockout at its final; Jana's client on her
    waiting screen; the hall's connection (its director starts with the first hall test)."""
    folder = shots
    window = arcade.Window(WIDTH, HEIGHT, "tournament screens", visible=False)
    wires: list[Wire] = []
    nav: Navigator | None = None
    hall_client: NetClient | None = None
    with running_server(tmp_path_factory.mktemp("data")) as url:
        try:
            organiser = Wire(url, "Organiser")
            wires.append(organiser)
            coaches = {name: Wire(url, name.split()[0]) for name in KNOCKOUT_FIELD}
            wires.extend(coaches.values())
            nav = navigator(window, url, "Jana")
            hall_client = NetClient(url)
            hall_link = NetLink(hall_client)
            hall_client.start()
            swiss, hall, played = _swiss(url, nav, coaches, organiser, hall_link)
            knockout = _knockout(url, coaches, organiser)
            yield World(nav=nav, hall_window=window, hall_link=hall_link, hall=hall, swiss=swiss, knockout=knockout,
                        played=played, folder=folder)
        finally:
            i18n.set_language("en")
            if nav is not None:
                nav.link.client.close()
            if hall_client is not None:
                hall_client.close()
            for wire in wires:
                wire.close()
            window.close()


def _hall(world: World, organised: Organised, ready: Callable[[TournamentUpdate], bool]) -> HallDirector:
    """The hall of ``organised`` on the hall's connection (the one before it closed), once ``ready`` holds."""
    if world.hall is not None and world.hall.tournament == organised.tid:
        if not world.hall.shown:
            world.hall.start()
        return world.hall
    if world.hall is not None:
        world.hall.close()
    hall = HallDirector(world.hall_window, world.hall_link, organised.tid, on_close=lambda: None)
    world.hall = hall
    hall.start()

    def done() -> bool:
        """Run the hall's frames; True once its tournament is ``ready``."""
        hall.poll()
        return hall.update is not None and ready(hall.update)

    frames([], done, "the hall's update")
    return hall


def _hall_page(world: World, shown: Shown) -> Any:
    """Hold the hall on ``shown`` and run its frames a moment; the view it shows."""
    hall = world.hall
    assert hall is not None
    if not hall.shown:  # the world's hall followed the tournament from its start without being on the screen
        hall.start()
    hall.cycle.hold(shown, hall.clock())
    hall.cycle.held_until = float("inf")
    for _frame in range(10):
        hall.poll()
    return world.hall_window.current_view


def test_the_waiting_screen_shows_the_standings_and_the_tables_still_played(world: World) -> None:
    """Jana's match of round 3 is decided: her screen shows the standings after round 2 (her line lit, rank changes)
    and the round's tables: hers ended, the other being played with its score and time."""
    nav = world.nav
    view = nav.window.current_view
    assert isinstance(view, TournamentView) and nav.tournament is not None
    assert nav.tournament.phase(nav.clock()) == "waiting"
    for language in LANGUAGES:
        i18n.set_language(language)
        _save(nav.window, view, world.folder / f"tournament-waiting-{language}.png")
        assert _label(view, "standings.title") == i18n._("Standings after round {n}").format(n=2)
    i18n.set_language("en")
    statuses = {tile.status for tile in nav.tournament.tiles()}
    assert statuses == {"ended", "playing"}
    names = {_label(view, f"standings.{n}.2") for n in range(6)}
    assert ME in names and "Tomáš Dvořák" in names
    assert "Still playing" in nav.tournament.playing_line()


def test_the_hall_shows_standings_with_rank_changes_and_points_by_round(world: World) -> None:
    """The hall's standings after round 2: every player's line with the Swiss tie-breaks, a rise or a fall since
    round 1 beside some, two rounds of points on each line's chart, the red card's suspension."""
    hall = _hall(world, world.swiss, lambda u: u.round == 3 and bool(u.tables))
    for language in LANGUAGES:
        i18n.set_language(language)
        view = _hall_page(world, Shown("standings"))
        _save(world.hall_window, view, world.folder / f"hall-standings-{language}.png")
        assert _label(view, "page") == ""  # "Standings" once: the heading says it
        heads = {_label(view, f"standings.head.{i}") for i in range(12)}
        assert {i18n._("Bch"), i18n._("Goals*"), i18n._("Bch²"), i18n._("By round")} <= heads
    i18n.set_language("en")
    assert hall.update is not None
    rows = view.rows(hall.update)
    assert len(rows) == 6 and all(len(row.points_by_round) == 2 for row in rows)
    assert any(row.change not in (None, 0) for row in rows)
    assert next(r for r in rows if r.name == "Lukáš Svoboda").suspended


def test_the_hall_lists_the_cards_and_who_sits_out_his_next_match(world: World) -> None:
    """The cards page: each card with its player, round and reason; the red card's player suspended."""
    for language in LANGUAGES:
        i18n.set_language(language)
        view = _hall_page(world, Shown("cards"))
        _save(world.hall_window, view, world.folder / f"hall-cards-{language}.png")
        assert _label(view, "card0.why") == "slow play after a warning"
        assert _label(view, "card1.who") == f"{i18n._('R')}  Lukáš Svoboda"
        assert "Lukáš Svoboda" in _label(view, "suspended")
    i18n.set_language("en")


def test_the_hall_shows_the_rounds_tables_and_watches_the_one_being_played(world: World) -> None:
    """The hall's tables page has a tile per table of round 3; the table being played is then watched live: the
    match view of its room, as a spectator."""
    hall = _hall(world, world.swiss, lambda u: u.round == 3 and bool(u.tables))
    for language in LANGUAGES:
        i18n.set_language(language)
        view = _hall_page(world, Shown("tables"))
        _save(world.hall_window, view, world.folder / f"hall-tables-{language}.png")
    i18n.set_language("en")
    assert hall.update is not None and len(view.tiles) == len(hall.update.tables)
    played = world.played
    _hall_page(world, Shown("table", played.room, played.table))

    def watching() -> bool:
        """Run the hall's frames; True once it shows the live table."""
        hall.poll()
        return isinstance(world.hall_window.current_view, MatchView) and hall.state.position is not None

    frames([], watching, "the live table")
    live = world.hall_window.current_view
    assert isinstance(live, MatchView) and hall.state.room == played.room and hall.state.seat is None
    assert f"Table {played.table} — live  ·  Brno Open 2026" in [line.text for line in hall.state.log]
    _save(world.hall_window, live, world.folder / "hall-live-table.png")
    _hall_page(world, Shown("standings"))
    assert hall.watching is None and world.hall_window.current_view is hall.view


def test_the_hall_draws_the_knockout_bracket_as_a_bracket(world: World) -> None:
    """Eight players: four quarter-finals, two semi-finals each level between the two it came from, the final
    between them and the match for third place under it; the winners lit."""
    director = _hall(world, world.knockout, lambda u: any(b.round == 3 for b in u.bracket))
    for language in LANGUAGES:
        i18n.set_language(language)
        view = _hall_page(world, Shown("bracket"))
        _save(world.hall_window, view, world.folder / f"hall-bracket-{language}.png")
    i18n.set_language("en")
    assert director.update is not None
    layout = bracket_layout(director.update.bracket, entry_names(director.update))
    assert layout.columns == 3 and len(layout.slots) == 8 and len(layout.joins) == 6
    semis = [s for s in layout.slots if s.round == 2]
    quarters = sorted((s for s in layout.slots if s.round == 1), key=lambda s: -s.y)
    assert sorted(s.y for s in semis) == sorted([(quarters[0].y + quarters[1].y) / 2,
                                                 (quarters[2].y + quarters[3].y) / 2])
    assert all(s.winner is not None for s in layout.slots if s.round < 3)
    assert _label(view, "bracket.0.home") in KNOCKOUT_FIELD


def test_the_player_sees_the_final_ranking_at_the_end(world: World) -> None:
    """The knockout's final and the match for third place are set: the tournament is finished and a player's screen
    shows the final ranking of every player, the champion first, his own line lit."""
    director = _hall(world, world.knockout, lambda u: any(b.round == 3 for b in u.bracket))
    knockout = world.knockout
    assert director.update is not None
    for line in director.update.tables:
        knockout.decide(3, line.table, 3, 1)
    knockout.organiser.expect(TournamentUpdate, lambda u: u.tournament == knockout.tid and u.status == "finished")

    def finished() -> bool:
        """Run the hall's frames; True once it knows the tournament is over."""
        director.poll()
        return director.update is not None and director.update.status == "finished"

    frames([], finished, "the end of the knockout")
    final = director.update
    assert final is not None
    session = TournamentSession(knockout.tid, knockout.entries["Tomáš Dvořák"], "Tomáš Dvořák")
    session.history = director.history  # a client that followed the last rounds, as the hall did
    session.apply(final, 0.0)
    view = TournamentView(session, lambda command: None)
    for language in LANGUAGES:
        i18n.set_language(language)
        world.hall_window.show_view(view)
        _save(world.hall_window, view, world.folder / f"tournament-final-{language}.png")
        assert _label(view, "ranking.title") == i18n._("Final ranking")
    i18n.set_language("en")
    assert session.phase(0.0) == "final" and final.complete
    champion = next(b for b in final.bracket if b.kind == "final").winner
    assert final.ranking[0].entry == champion and _label(view, "ranking.0.1") == final.ranking[0].name
    assert len(final.ranking) == len(KNOCKOUT_FIELD)  # everybody, the ones out in the first round too

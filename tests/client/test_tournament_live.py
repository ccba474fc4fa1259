"""Two players' clients in a tournament on a real server: each finds it in the lobby's Tournaments page, enters (one
as himself, one with the organiser's entry code) and checks in; one waits in the hall; when the organiser starts the
round each is shown "Round 1 — table N: you play …" with the walkover countdown (the hall gives way to it) and is
then taken to his table by himself."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import i18n  # noqa: E402
from client.hall.hall_view import HallView  # noqa: E402
from client.player.lobby_model import OpenTournaments  # noqa: E402
from client.player.navigator import Navigator  # noqa: E402
from client.player.results_view import ResultsView  # noqa: E402
from client.player.tournament_list import TournamentsPage  # noqa: E402
from client.player.tournament_session import TAKE_TO_TABLE_S  # noqa: E402
from client.player.tournament_view import TournamentView  # noqa: E402
from shared.protocol import (  # noqa: E402
    EntriesRegistered,
    JoinRoom,
    Leave,
    RegisterEntries,
    TableAssigned,
    TournamentUpdate,
)
from shared.protocol.messages import EntryForm  # noqa: E402
from tests.client.tournament_world import (  # noqa: E402
    Organised,
    Wire,
    assigned,
    claim_and_check_in,
    frames,
    navigator,
    organise,
    running_server,
)

PLAYERS = ["Tomáš Dvořák", "Agnieszka Nowak"]  # entered by the file; the two clients come on top


def _enter(nav: Navigator, tid: str, code: str | None = None) -> None:
    """The lobby's Tournaments page → the tournament → enter (as himself, or with ``code``) → check in."""
    nav.lobby_request(OpenTournaments())
    page = nav.top_page()
    assert isinstance(page, TournamentsPage)
    frames([nav], lambda: any(t.tournament == tid for t in page.tournaments), "the list of tournaments")
    page.activate(f"choose:{tid}")
    if code is None:
        page.activate("join")  # his year of birth and sex, left empty
        request = page.activate("join_me")
    else:
        page.type_text(code)
        request = page.activate("join_code")
    nav.page_request(request)
    frames([nav], lambda: nav.screen == "tournament" and nav.tournament is not None
           and nav.tournament.entry is not None and nav.tournament.update is not None, "the player's screen")
    nav.tournament_command("checkin")
    frames([nav], lambda: nav.tournament is not None and nav.tournament.checked_in(), "the check-in")


@pytest.mark.slow
def test_players_enter_from_the_lobby_and_are_taken_to_their_tables(tmp_path: Path) -> None:
    """Jana enters as herself, Piotr with his entry code; Jana opens the hall; the round gives each a table: the
    hall closes, the screen names the table, the opponent, the seat and its kit, counts the walkover down, and
    TAKE_TO_TABLE_S later each is seated in its room."""
    windows = [arcade.Window(1280, 760, "jana", visible=False), arcade.Window(1280, 760, "piotr", visible=False)]
    shots = Path(os.environ.get("SPRTEC_SHOTS", tmp_path))
    with running_server(tmp_path / "data") as url:
        organiser = Wire(url, "Organiser")
        others: list[Wire] = []
        navs: list[Navigator] = []
        try:
            organised = organise(url, organiser, "Brno Open", PLAYERS, [{"system": "swiss", "rounds": 2}])
            organised.watch()
            organiser.send(RegisterEntries(organised.tid, organised.secret, (EntryForm("Piotr Kowalski"),)))
            registered = organiser.expect(EntriesRegistered)
            piotr_code = registered.entries[0].code
            for name in PLAYERS:
                coach = Wire(url, f"{name.split()[0]}")
                claim_and_check_in(coach, organised, name)
                others.append(coach)
            jana, piotr = navigator(windows[0], url, "Jana Nováková"), navigator(windows[1], url, "Piotr K")
            navs = [jana, piotr]
            _enter(jana, organised.tid)
            _enter(piotr, organised.tid, piotr_code)
            assert piotr.tournament is not None and piotr.tournament.name == "Piotr Kowalski"
            jana.tournament_command("hall")  # she waits watching the hall: her table takes her out of it
            frames(navs, lambda: isinstance(windows[0].current_view, HallView) and jana.hall is not None
                   and jana.hall.update is not None, "Jana's hall")
            assert organised.start_round() == 1
            frames(navs, lambda: all(n.tournament is not None and n.tournament.assignment is not None
                                     for n in navs), "both tables")
            started = time.monotonic()
            for nav in navs:
                session = nav.tournament
                assert session is not None and session.assignment is not None
                a: TableAssigned = session.assignment
                assert nav.screen == "tournament" and session.phase(time.monotonic()) == "assigned"
                assert isinstance(nav.window.current_view, TournamentView) and nav.hall is None
                text = session.assignment_text()
                assert text.startswith(f"Round 1 — table {a.table}: you play {a.opponent} (")
                assert ("home, red" if a.seat == "home" else "away, yellow") in text
                assert "walkover" in session.walkover_text(time.monotonic())
                assert nav.state.room is None  # not yet: the assignment is read first
            for language in ("en", "cs"):
                i18n.set_language(language)
                _save(jana, shots / f"tournament-assignment-{language}.png")
            i18n.set_language("en")
            frames(navs, lambda: all(n.screen == "match" for n in navs), "both players at their tables",
                   seconds=TAKE_TO_TABLE_S + 20)
            assert time.monotonic() - started >= TAKE_TO_TABLE_S - 0.5
            for nav in navs:
                assert nav.tournament is not None and nav.tournament.assignment is not None
                assert nav.state.room == nav.tournament.assignment.room
                assert nav.state.seat == nav.tournament.assignment.seat
            _round_one_ends_in_resignations(organised, others, navs)
            _the_next_table_takes_them_from_the_results(organised, navs)
        finally:
            i18n.set_language("en")
            for nav in navs:
                nav.link.client.close()
            for wire in [organiser, *others]:
                wire.close()
            for window in windows:
                window.close()


def _round_one_ends_in_resignations(organised: Organised, wires: list[Wire], navs: list[Navigator]) -> None:
    """The other coaches sit down too, so every match starts; then one coach of each table resigns (Leave: a walkover
    for the other) - a wire coach, or Piotr when the two clients play each other. Jana ends on her results."""
    for wire in wires:
        room = assigned(wire, organised, 1).room
        assert room is not None
        wire.send(JoinRoom(room))
    organised.organiser.expect(TournamentUpdate, lambda u: u.round == 1 and len(u.tables) == 2
                               and all(t.status == "playing" for t in u.tables))
    jana, piotr = navs
    assert jana.tournament is not None and piotr.tournament is not None
    assert jana.tournament.assignment is not None and piotr.tournament.assignment is not None
    if jana.tournament.assignment.room == piotr.tournament.assignment.room:  # the clients play each other
        piotr.leave()
        assert piotr.screen == "tournament"  # from his table back to his tournament, not the lobby
        wires[0].send(Leave())  # and the two wire coaches each other
    else:
        for wire in wires:
            wire.send(Leave())
    frames(navs, lambda: jana.screen == "results", "Jana's results")
    results = jana.window.current_view
    assert isinstance(results, ResultsView)
    assert results.results().options[-1] == ("Back to the tournament", "lobby")  # her table's: no rematch
    assert "rematch" not in [command for _label, command in results.results().options]
    organised.organiser.expect(TournamentUpdate, lambda u: u.round == 1 and u.status == "between")


def _the_next_table_takes_them_from_the_results(organised: Organised, navs: list[Navigator]) -> None:
    """Round 2 starts while Jana looks at her results: her screen shows her new table (and keeps it, the results
    behind it), then she is taken there."""
    jana = navs[0]
    assert organised.start_round() == 2
    frames(navs, lambda: jana.tournament is not None and jana.tournament.assignment is not None
           and jana.tournament.assignment.round == 2, "Jana's second table")
    shown = time.monotonic()
    frames(navs, lambda: time.monotonic() - shown > 1.0, "a second of frames")
    assert jana.screen == "tournament" and isinstance(jana.window.current_view, TournamentView)
    assert jana.tournament is not None and jana.tournament.assignment is not None
    table = jana.tournament.assignment.room
    frames(navs, lambda: jana.screen == "match" and jana.state.room == table, "Jana at her second table",
           seconds=TAKE_TO_TABLE_S + 20)


def _save(nav: Navigator, path: Path) -> None:
    """Draw the navigator's tournament screen as it is now and save it."""
    view = nav.window.current_view
    assert isinstance(view, TournamentView)
    nav.window.switch_to()
    view.on_draw()
    arcade.get_image(0, 0, nav.window.width, nav.window.height).convert("RGB").save(path)

"""The screens of a round on physical boards, from a tournament the server's own core runs (no socket): the player's
board - "Board 4, on the board: enter the score", his opponent's entry to confirm, the board he referees - and the
desk's result form of a board, each drawn headless in English, Czech and Polish and checked for what it must say.
Set ``SPRTEC_SHOTS=DIR`` to keep the pictures there."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import i18n  # noqa: E402
from client.common.tournament_model import tile_of  # noqa: E402
from client.desk.desk_model import DeskModel  # noqa: E402
from client.desk.desk_view import DeskView  # noqa: E402
from client.player import board_entry  # noqa: E402
from client.player.tournament_session import TournamentSession  # noqa: E402
from client.player.tournament_view import TournamentView  # noqa: E402
from server.tournaments.log import ORGANISER, Outcome  # noqa: E402
from server.tournaments.tournament_core import Send, TournamentCore  # noqa: E402
from server.tournaments.views import board_of, update  # noqa: E402
from shared.protocol import EnterResult, TableAssigned, TournamentJoined, TournamentUpdate  # noqa: E402
from tests.tournament_server.test_boards import _core  # noqa: E402
from tests.tournament_server.test_tournament_core import T0  # noqa: E402

WIDTH, HEIGHT = 1280, 760
LANGUAGES = ("en", "cs", "pl")


@pytest.fixture(scope="module")
def window() -> Iterator[Any]:
    """One hidden window for the module's pictures."""
    win = arcade.Window(WIDTH, HEIGHT, "boards", visible=False)
    yield win
    win.close()
    i18n.set_language("en")


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """Where the pictures go (SPRTEC_SHOTS, or the test's own folder)."""
    kept = os.environ.get("SPRTEC_SHOTS")
    path = Path(kept) if kept else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def _round() -> tuple[TournamentCore, dict[int, TableAssigned]]:
    """Eight entries on boards, round 1 started by the core; what each coach (player i) was told."""
    core, _rows = _core(8)
    told = {e.player_id: e.message for e in core.start_round(ORGANISER, T0) if isinstance(e, Send)
            and isinstance(e.message, TableAssigned)}
    return core, told


def _update(core: TournamentCore) -> TournamentUpdate:
    """The update the server would push now."""
    return update(core.state, board_of(core.state), sequence=1, live={}, room_info=lambda _code: None, now_ms=T0,
                  next_round_ms=None)


def _session(core: TournamentCore, told: dict[int, TableAssigned], player: int) -> TournamentSession:
    """Player ``player``'s session after his TableAssigned and the latest update."""
    entry = f"p{player}"
    session = TournamentSession("T")
    session.apply(TournamentJoined("T", entry, f"P{player}"), 0.0)
    session.apply(told[player], 0.0)
    session.apply(_update(core), 0.0)
    return session


def _save(window: Any, view: Any, path: Path) -> None:
    """Draw ``view`` and save the picture."""
    window.show_view(view)
    view.on_draw()
    arcade.get_image(0, 0, window.width, window.height).convert("RGB").save(path)


def _labels(view: Any) -> list[str]:
    """Every text the view drew."""
    return [text.text for text in view.texts.texts.values()] if hasattr(view.texts, "texts") else []


def test_a_player_at_a_board_enters_the_score_and_his_opponent_confirms_it(window: Any, folder: Path) -> None:
    """Board 1's home player: "on the board: enter the score", − and + give 3:1, Enter sends it; his opponent sees
    it entered and his button confirms it; once both agree the board's tile shows the result."""
    core, told = _round()
    line = _update(core).tables[0]
    home, away = int(line.home[1:]), int(line.away[1:])
    first = _session(core, told, home)
    assert first.phase(0.0) == "board"
    assert "enter the score" in board_entry.status(first.board(), first.entry)
    assert board_entry.referee_line(first.assignment).startswith("Referee: ")  # type: ignore[arg-type]
    view = TournamentView(first, lambda _c: None, clock=lambda: 0.0)
    for command in ("score:home:1", "score:home:1", "score:home:1", "score:away:1", "score:away:1", "score:away:-1"):
        _verb, side, by = command.split(":")
        first.draft.step(side, int(by))
    assert first.draft.text() == "3:1"
    for language in LANGUAGES:
        i18n.set_language(language)
        _save(window, view, folder / f"board-enter-{language}.png")
        assert view.buttons[0].label == i18n._("Enter {score}").format(score="3:1")
    i18n.set_language("en")
    sent = first.enter_result()
    assert isinstance(sent, EnterResult) and (sent.table, sent.score.home, sent.score.away) == (1, 3, 1)  # type: ignore[union-attr]
    core.enter_result((0, 1, 1), Outcome(score=(3, 1)), by=line.home, now=T0 + 1)
    first.apply(_update(core), 1.0)
    assert "waiting for" in board_entry.status(first.board(), first.entry)
    second = _session(core, told, away)
    assert second.draft.text() == "3:1" and board_entry.confirms(second.board(), second.entry, second.draft)
    view = TournamentView(second, lambda _c: None, clock=lambda: 0.0)
    for language in LANGUAGES:
        i18n.set_language(language)
        _save(window, view, folder / f"board-confirm-{language}.png")
        assert view.buttons[0].label == i18n._("Confirm {score}").format(score="3:1")
    i18n.set_language("en")
    core.enter_result((0, 1, 1), Outcome(score=(3, 1)), by=line.away, now=T0 + 2)
    second.apply(_update(core), 2.0)
    assert second.phase(2.0) != "board"
    assert tile_of(_update(core).tables[0]).score == "3:1"


def test_a_player_is_told_the_board_he_referees(window: Any, folder: Path) -> None:
    """A referee of the round sees "you referee board N (home – away)" in his state line."""
    core, told = _round()
    lines = _update(core).tables
    referee_line = next(t for t in lines if t.referee is not None)
    referee = int(referee_line.referee[1:])  # type: ignore[index]
    session = _session(core, told, referee)
    text = session.state_line(0.0)
    assert f"you referee board {referee_line.table} ({referee_line.home_name} – {referee_line.away_name})" in text
    for language, words in (("cs", "rozhodujete hřiště"), ("pl", "sędziujesz planszę")):
        i18n.set_language(language)
        assert f"{words} {referee_line.table} ({referee_line.home_name} – {referee_line.away_name})" in \
            session.state_line(0.0)
    i18n.set_language("en")


def test_the_desk_enters_a_boards_result_from_the_referees_sheet(window: Any, folder: Path) -> None:
    """The desk's Board results: the board chosen with its referee and a coach's entry shown, the score set, the
    act confirmed first, then the EnterResult with the organiser's secret."""
    core, _told = _round()
    m = _update(core).tables[1]
    core.enter_result((0, 1, 2), Outcome(score=(0, 2)), by=m.away, now=T0 + 1)
    desk = DeskModel(server="ws://127.0.0.1:8765/", tournament="T")
    desk.secret = "s3cret"
    desk.apply(_update(core))
    home = [item.command for item in desk.items()]
    assert "screen:board" in home
    desk.activate("screen:board")
    desk.cycle("cycle:board", 1)
    desk.form.update(home=2, away=1)
    view = DeskView(desk, lambda _r: None)
    for language in LANGUAGES:
        i18n.set_language(language)
        _save(window, view, folder / f"desk-board-{language}.png")
        labels = [item.label for item in desk.items()]
        assert labels[0] == i18n._("Board {n}: {home} – {away}").format(n=2, home=m.home_name, away=m.away_name)
    desk.activate("back")
    desk.activate("screen:tables")
    for language in LANGUAGES:
        i18n.set_language(language)
        _save(window, view, folder / f"desk-board-tiles-{language}.png")
    i18n.set_language("en")
    desk.activate("back")
    desk.activate("screen:board")
    desk.cycle("cycle:board", 1)
    desk.form.update(home=2, away=1)
    labels = [item.label for item in desk.items()]
    assert f"Referee: {m.referee_name}" in labels and any("entered 0:2" in label for label in labels)
    desk.activate("board")
    assert desk.screen == "confirm" and desk.pending is not None
    request = desk.activate("yes")
    assert isinstance(request, EnterResult) and request.secret == "s3cret" and request.table == 2
    assert (request.score.home, request.score.away) == (2, 1)  # type: ignore[union-attr]


def test_the_standings_on_every_screen_count_the_boards_refereed(window: Any, folder: Path) -> None:
    """After a round on boards the standings have a Ref column: 1 for each referee whose board has a result."""
    from client.common.tournament_model import StandingsHistory, row_cells, standing_rows, standings_columns

    core, _told = _round()
    for table in range(1, 5):
        core.enter_result((0, 1, table), Outcome(score=(2, table % 3)), by=None, now=T0 + table)
    shown = _update(core)
    columns = standings_columns(("buchholz", "goals_capped", "buchholz2"), refereed=True)
    assert [c.key for c in columns].count("refereed") == 1
    rows = standing_rows(shown, StandingsHistory())
    referees = {b.referee for b in core.state.referees.boards}
    index = [c.key for c in columns].index("refereed")
    assert {r.entry for r in rows if row_cells(r, columns)[index] == "1"} == referees
    desk = DeskModel(server="ws://127.0.0.1:8765/", tournament="T")
    desk.apply(shown)
    desk.activate("screen:standings")
    view = DeskView(desk, lambda _r: None)
    for language in LANGUAGES:
        i18n.set_language(language)
        _save(window, view, folder / f"desk-standings-refereed-{language}.png")
    i18n.set_language("en")


def test_the_desk_puts_the_tournament_on_boards_and_names_a_referee_by_hand(window: Any, folder: Path) -> None:
    """Home's Physical boards asks first and gives PlayOnBoards (undoable); the board screen names a referee of the
    organiser's choice, XVII.3's agreement with it, and the core takes it as the board's referee."""
    from server.tournaments.log import RefereeSet
    from shared.protocol import PlayOnBoards, SetReferee

    core, _told = _round()
    desk = DeskModel(server="ws://127.0.0.1:8765/", tournament="T")
    desk.secret = "s3cret"
    desk.apply(_update(core))
    assert desk.on_boards()
    view = DeskView(desk, lambda _r: None)
    for language in LANGUAGES:
        i18n.set_language(language)
        _save(window, view, folder / f"desk-home-boards-{language}.png")
    i18n.set_language("en")
    assert any(item.label == "Physical boards: yes" for item in desk.items())
    desk.activate("boards")
    request = desk.activate("yes")
    assert isinstance(request, PlayOnBoards) and request.on_board is False and request.stage is None
    desk.activate("screen:board")
    line = desk.boards()[0]
    clubs = {p.id: p.club for p in core.state.tournament.players}
    mate = next(e for e in desk.referees() if clubs[e.entry] == clubs[line.home])
    while desk.referees()[desk.form["referee"] % len(desk.referees())].entry != mate.entry:
        desk.cycle("cycle:referee", 1)
    desk.cycle("cycle:agreed", 1)
    desk.activate("referee")
    request = desk.activate("yes")
    assert isinstance(request, SetReferee) and request.referee == mate.entry and request.agreed
    core.commit([RefereeSet(stage=request.stage, round=request.round, table=request.table, referee=request.referee,
                            agreed=request.agreed, reason=request.reason)], ORGANISER, T0 + 5)
    assert core.state.referees.referee_of(0, 1, line.table) == mate.entry

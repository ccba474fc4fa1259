"""Headless pictures of the final ranking, from a Czech Cup tournament a real server on port 0 has (created from its
file with every round played, its players of every category): the desk's ranking of one category with its winner
and cup points, the hall's category page, and the player's final screen with his own place. Each is checked for
what it must show; ``SPRTEC_SHOTS=DIR`` keeps them to be looked at."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import i18n  # noqa: E402
from client.common.tournament_model import StandingsHistory  # noqa: E402
from client.desk.desk_model import DeskModel  # noqa: E402
from client.desk.desk_view import DeskView  # noqa: E402
from client.hall.hall_model import Shown  # noqa: E402
from client.hall.hall_view import HallView  # noqa: E402
from client.player.tournament_session import TournamentSession  # noqa: E402
from client.player.tournament_view import TournamentView  # noqa: E402
from shared.protocol import CreateTournament, TournamentCreated, TournamentUpdate, WatchTournament  # noqa: E402
from shared.tournament.course import follow  # noqa: E402
from shared.tournament.events import ApplyPairing, RecordResult, advance  # noqa: E402
from shared.tournament.pairing import pair_course  # noqa: E402
from shared.tournament.reading import read_tournament  # noqa: E402
from shared.tournament.writing import to_json  # noqa: E402
from tests.client.tournament_world import Wire, running_server  # noqa: E402

WIDTH, HEIGHT = 1280, 760
PLAYERS = [("Jan Novák", "SK Brno", 1990, "m", False), ("Eva Malá", "TJ Ostrava", 2001, "f", False),
           ("Petr Mladý", "BHC Most", 2009, "m", False), ("Karel Starý", "SK Brno", 1958, "m", True),
           ("Tomáš Dvořák", "Sokol Praha", 2013, "m", False), ("Agnieszka Nowak", "KS Kraków", 1995, "f", False),
           ("Lukáš Svoboda", "BHC Most", 2016, "m", False), ("Kasia Wiśniewska", "KS Kraków", 2010, "f", False),
           ("Marek Černý", "TJ Ostrava", 1984, "m", False), ("Ondřej Král", "Sokol Praha", 2008, "m", False),
           ("Jiří Šťastný", "SK Brno", 1961, "m", True), ("Zuzana Horká", "BHC Most", 2014, "f", False)]


def _played_file() -> str:
    """A ČP24 tournament of twelve whose three Swiss rounds are played (the better seeded home side wins, every
    third match a draw), as the engine pairs them."""
    file = {"name": "Český pohár Brno", "seed": 7, "date": "2026-03-14", "cup": {"tier": "cp24", "season": 2026},
            "stages": [{"system": "swiss", "rounds": 3}],
            "players": [{"id": f"p{i}", "name": n, "club": c, "year_of_birth": y, "sex": s, "veteran": v}
                        for i, (n, c, y, s, v) in enumerate(PLAYERS, start=1)]}
    course = follow(read_tournament(file))
    for _number in range(3):
        pairing = pair_course(course)
        course = advance(course, ApplyPairing(pairing=pairing))
        for i, m in enumerate(pairing.matches):
            score = (2, 2) if i % 3 == 2 else (3 + i % 2, i % 2)
            course = advance(course, RecordResult(round=pairing.round, home=m.home, away=m.away, score=score))
    return json.dumps(to_json(course.tournament), ensure_ascii=False)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TournamentUpdate]:
    """The tournament's update as the server sends it to a watcher."""
    with running_server(tmp_path_factory.mktemp("data")) as url:
        organiser = Wire(url, "Organiser")
        try:
            organiser.send(CreateTournament(file=_played_file()))
            created = organiser.expect(TournamentCreated)
            organiser.send(WatchTournament(created.tournament))
            yield organiser.expect(TournamentUpdate, lambda u: u.tournament == created.tournament)
        finally:
            organiser.close()


@pytest.fixture(scope="module")
def window() -> Iterator[Any]:
    """One hidden window for every picture."""
    shown = arcade.Window(WIDTH, HEIGHT, "ranking screens", visible=False)
    yield shown
    i18n.set_language("en")
    shown.close()


def _save(window: Any, view: Any, path: Path) -> None:
    """Draw ``view`` as it is now and save the picture."""
    window.show_view(view)
    window.switch_to()
    view.on_draw()
    arcade.get_image(0, 0, window.width, window.height).convert("RGB").save(path)


def _label(view: Any, key: str) -> str:
    """The text of a view's label slot as last drawn."""
    label = view.texts.peek(key)
    assert label is not None, key
    return str(label.text)


def test_the_update_carries_the_whole_ranking_with_categories_and_cup_points(finished: TournamentUpdate) -> None:
    """Twelve ranked, every category present, one winner in each, ČP24's points for a field of 12."""
    assert finished.complete and finished.cup_tier == "cp24" and finished.cup_field == 12
    assert len(finished.ranking) == 12 and finished.ranking[0].cup_points == 200 + 12 - 70
    winners = {line.category for line in finished.ranking if line.category_winner}
    assert winners == {"V", "P", "L", "Z", "J", "M"}


@pytest.mark.parametrize("language", ("en", "cs"))
def test_the_desk_shows_the_ranking_of_one_category_with_its_winner(finished: TournamentUpdate, window: Any,
                                                                    shots: Path, language: str) -> None:
    """The desk's ranking screen, women's view: only the women, ranked 1., 2., 3. among them, the winner starred,
    the cup points of their places overall."""
    i18n.set_language(language)
    model = DeskModel(server="ws://127.0.0.1:1/", tournament=finished.tournament, secret="s")
    model.apply(finished)
    model.activate("screen:ranking")
    model.activate("view:L")
    view = DeskView(model, lambda _request: None)
    _save(window, view, shots / f"desk-ranking-women-{language}.png")
    women = [line for line in finished.ranking if line.category == "L"]
    assert _label(view, "ranking.0.1") == f"★ {women[0].name}" and _label(view, "ranking.0.0") == "1."
    assert _label(view, "ranking.1.3") == "L 2." and _label(view, "ranking.0.4") == str(women[0].cup_points)
    assert view.texts.peek(f"ranking.{len(women)}.1") is None  # only the women


@pytest.mark.parametrize("language", ("en", "cs"))
def test_the_hall_shows_a_category_page(finished: TournamentUpdate, window: Any, shots: Path,
                                        language: str) -> None:
    """The hall's juniors page: its title names the category, its lines are the juniors by their place."""
    i18n.set_language(language)
    shown = Shown("ranking", category="J")
    view = HallView(finished.tournament, lambda: finished, StandingsHistory(), lambda: shown)
    _save(window, view, shots / f"hall-ranking-juniors-{language}.png")
    juniors = [line for line in finished.ranking if line.category == "J"]
    assert "J" in _label(view, "page") and _label(view, "ranking.0.1") == f"★ {juniors[0].name}"


def test_the_player_sees_his_place_overall_and_in_his_category(finished: TournamentUpdate, window: Any,
                                                              shots: Path) -> None:
    """The player's final screen: the whole ranking, his line lit, his own place in words."""
    i18n.set_language("en")
    line = next(r for r in finished.ranking if r.category == "Z")
    session = TournamentSession(finished.tournament, entry=line.entry, name=line.name)
    session.apply(replace(finished, sequence=finished.sequence + 1), 0.0)
    view = TournamentView(session, lambda _command: None, clock=lambda: 0.0)
    _save(window, view, shots / "player-final-ranking.png")
    assert _label(view, "ranking.own").startswith(f"You are {line.rank}. overall, 1. of older pupils (Z)")

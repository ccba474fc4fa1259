"""A league's player in the client: he takes his roster place with his code on the lobby's Leagues page, and when
the organiser starts a round at tables his client takes him to his table at once, the log under the board saying
"Round 1 of BHC Most–SK Brno: you play SK Brno 1, board 1" (and the same in Czech); the picture of his match screen
is saved (``SPRTEC_SHOTS=DIR`` keeps it)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import i18n  # noqa: E402
from client.player.league_list import LeaguesPage  # noqa: E402
from client.player.lobby_model import OpenLeagues  # noqa: E402
from shared.protocol import (  # noqa: E402
    CreateLeague,
    JoinLeague,
    JoinRoom,
    LeagueCreated,
    LeagueDone,
    LeagueGameAssigned,
    LeagueJoined,
    OpenMatchDay,
    RoomJoined,
    StartLeagueRound,
    SubmitLineup,
)
from tests.client.tournament_world import Wire, frames, navigator, running_server  # noqa: E402
from tests.league_server.helpers import league_file  # noqa: E402


def _done(wire: Wire, request: object) -> LeagueDone:
    """A league request that must be carried out."""
    wire.send(request)  # type: ignore[arg-type]
    return wire.expect(LeagueDone, lambda d: d.ref == type(request).__name__)


@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_player_is_told_his_game_and_taken_to_its_table(tmp_path: Path, language: str) -> None:
    """m1 in the client, b1 on a wire; the round starts at tables: m1's client is in the room of his game, seated
    home, with the sentence in his log."""
    i18n.set_language(language)
    window = arcade.Window(1280, 760, visible=False)
    try:
        with running_server(tmp_path / "data") as url:
            organiser = Wire(url, "organiser")
            organiser.send(CreateLeague(file=json.dumps(league_file(size=1)), no_show_ms=60_000))
            created = organiser.expect(LeagueCreated)
            codes = {p.player: p.code for p in created.players}
            lid, secret = created.league, created.secret
            nav = navigator(window, url, "Jan Novák")
            nav.lobby_request(OpenLeagues())  # the lobby's Leagues: choose the league, type the code, Enter
            page = nav.top_page()
            assert isinstance(page, LeaguesPage)
            frames([nav], lambda: any(info.league == lid for info in page.leagues), "the list of leagues")
            page.activate(f"choose:{lid}")
            page.type_text(codes["m1"].lower())
            nav.page_request(page.activate("join"))
            joined = "You play for BHC Most as BHC Most 1" if language == "en" else "Hraješ za BHC Most jako BHC Most 1"
            frames([nav], lambda: page.joined == joined, "the place taken")
            nav.page_request(page.activate("back"))
            nav.page_request(page.activate("back"))  # back in the lobby, waiting
            other = Wire(url, "Eva Malá")
            other.send(JoinLeague(lid, codes["b1"]))
            other.expect(LeagueJoined)
            _done(organiser, OpenMatchDay(lid, secret, 1))
            for team, player in (("most", "m1"), ("brno", "b1")):
                _done(organiser, SubmitLineup(league=lid, fixture="d1f1", players=(player,), team=team,
                                              secret=secret))
            _done(organiser, StartLeagueRound(league=lid, secret=secret, fixture="d1f1"))
            told = other.expect(LeagueGameAssigned)
            other.send(JoinRoom(told.room))
            other.expect(RoomJoined)
            frames([nav], lambda: nav.state.room == told.room and nav.state.position is not None, "m1 at his table")
            words = "Round 1 of BHC Most–SK Brno: you play SK Brno 1, board 1" if language == "en" else \
                "1. směna utkání BHC Most–SK Brno: hraješ proti SK Brno 1, stůl 1"
            assert any(line.text == words for line in nav.state.log), [line.text for line in nav.state.log]
            assert nav.state.seat == "home"
            view = window.current_view
            assert view is not None
            window.switch_to()
            view.on_draw()
            shot = tmp_path / f"league-player-{language}.png"
            arcade.get_image(0, 0, window.width, window.height).convert("RGB").save(shot)
            keep = os.environ.get("SPRTEC_SHOTS")
            if keep:
                Path(keep).mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, Path(keep) / shot.name)
            nav.link.client.close()
            other.close()
            organiser.close()
    finally:
        i18n.set_language("en")
        window.close()

"""A player disputes a result of his from his client, on a real server: two coaches, the organiser decides their
table (XVII.5); the player's tournament screen offers "Dispute my result", his reason typed on the page goes to the
organiser as a case (FileDispute), the page says its number and the organiser's updates list it (headless)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.player.dispute_page import DisputePage  # noqa: E402
from client.player.tournament_view import TournamentView  # noqa: E402
from shared.protocol import JoinTournament, TournamentUpdate  # noqa: E402
from tests.client.tournament_world import (  # noqa: E402
    Wire,
    claim_and_check_in,
    frames,
    navigator,
    organise,
    running_server,
)


def test_a_player_disputes_a_result_from_his_tournament_screen(tmp_path: Path) -> None:
    """Jana's table set 0:5 by the organiser: she opens the dispute from her screen, types why, Enter; the
    organiser has case 1 with her reason."""
    window = arcade.Window(1280, 760, "jana", visible=False)
    with running_server(tmp_path / "data") as url:
        organiser, eva = Wire(url, "Organiser"), Wire(url, "Eva")
        nav = None
        try:
            organised = organise(url, organiser, "Brno Open", ["Jana Nováková", "Eva Malá"],
                                 [{"system": "swiss", "rounds": 1}])
            organised.watch()
            claim_and_check_in(eva, organised, "Eva Malá")
            nav = navigator(window, url, "Jana")
            nav.link.request(JoinTournament(organised.tid, organised.codes["Jana Nováková"]))
            frames([nav], lambda: nav.screen == "tournament" and nav.tournament is not None
                   and nav.tournament.update is not None and nav.tournament.entry is not None, "her screen")
            nav.tournament_command("checkin")
            frames([nav], lambda: nav.tournament is not None and nav.tournament.checked_in(), "her check-in")
            assert organised.start_round() == 1
            table = organised.round_tables(1)[0]
            organised.decide(1, table.table, *((0, 5) if table.home == "p1" else (5, 0)))
            frames([nav], lambda: nav.tournament is not None and nav.tournament.disputable() is not None,
                   "her decided table")
            view = window.current_view
            assert isinstance(view, TournamentView)
            view.on_draw()
            assert [b.command for b in view.buttons][:1] == ["dispute"]
            nav.tournament_command("dispute")
            page = nav.top_page()
            assert isinstance(page, DisputePage) and "Jana Nováková" in page.match
            page.type_text("my goal in period 2 was not counted")
            nav.page_request(page.key("enter"))
            frames([nav], lambda: page.case is not None, "the case number")
            assert page.case == 1 and not page.error
            update = organiser.expect(TournamentUpdate, lambda u: bool(u.cases))
            assert [(c.id, c.kind, c.by, c.reason) for c in update.cases] == [
                (1, "dispute", "p1", "my goal in period 2 was not counted")]
        finally:
            if nav is not None:
                nav.link.client.close()
            organiser.close()
            eva.close()
            window.close()

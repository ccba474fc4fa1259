"""The player's tournament screen keeps "Watch in the hall" and "Back to the lobby" where they are whatever comes
and goes beside them (check in, go to my table, a board's score): a click on check-in, the button gone, must not
land on the hall next (headless)."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.player.tournament_session import TournamentSession  # noqa: E402
from client.player.tournament_view import TournamentView  # noqa: E402
from shared.protocol import TableAssigned, TableLine  # noqa: E402
from tests.client.test_tournament_player import _update  # noqa: E402


def test_the_hall_and_the_lobby_stay_under_the_pointer_when_check_in_goes() -> None:
    """Before check-in, after it, and with a table waiting: the hall's and the lobby's buttons are in one place."""
    window = arcade.Window(1280, 760, "tournament", visible=False)
    try:
        places = []
        for checked_in, table in ((False, False), (True, False), (True, True)):
            session = TournamentSession("ABC123", "p1")
            session.apply(_update(status="registering" if not table else "playing", round=0 if not table else 1,
                                  checked_in=checked_in), 0.0)
            if table:
                session.apply(TableAssigned(tournament="ABC123", stage=0, round=1, table=1, room="R1",
                                            ruleset="quick", seat="home", opponent="Eva", no_show_ms=60_000), 0.0)
            view = TournamentView(session, lambda command: None, clock=lambda: 0.0)
            window.show_view(view)
            view.on_draw()
            shown = {b.command: (b.left, b.bottom, b.width) for b in view.buttons}
            assert ("checkin" in shown) == (not checked_in) and ("table" in shown) == table
            places.append((shown["hall"], shown["lobby"]))
        assert places[0] == places[1] == places[2]
    finally:
        window.close()


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_every_button_of_the_players_tournament_screen_is_read_at_its_size(language: str) -> None:
    """Check-in, the way to the table, the dispute, the hall and the lobby in each language: no label shrinks below
    12 pt to fit its button (Polish "Jestem: potwierdzam obecność" was drawn at 9 pt, hard to read at a club's
    distance)."""
    from client.common import i18n

    window = arcade.Window(1280, 760, "tournament", visible=False)
    i18n.set_language(language)
    try:
        decided = TableLine(table=1, home="p1", away="p2", home_name="Jana", away_name="Eva", kind="match",
                            ruleset="quick", status="walkover", walkover="away")
        for table in (False, True, None):  # check-in; the way to his table; the dispute of his decided match
            session = TournamentSession("ABC123", "p1")
            session.apply(_update(status="registering" if table is False else "playing", round=0 if table is False
                                  else 1, checked_in=table is None, tables=(decided,) if table is None else ()), 0.0)
            if table:
                session.apply(TableAssigned(tournament="ABC123", stage=0, round=1, table=1, room="R1",
                                            ruleset="quick", seat="home", opponent="Eva", no_show_ms=60_000), 0.0)
            view = TournamentView(session, lambda command: None, clock=lambda: 0.0)
            window.show_view(view)
            view.on_draw()
            assert table is not None or view.buttons[0].command == "dispute"
            for i, button in enumerate(view.buttons):
                label = view.texts.peek(f"button{i}")
                assert label is not None and label.font_size >= 12, (button.label, label and label.font_size)
    finally:
        i18n.set_language("en")
        window.close()

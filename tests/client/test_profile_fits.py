"""A profile's table of matches read whole in each language (headless): its heads and a row's cells are not cut
short - the Polish heads were "Wynik…" beside "Wynik", and a casual match's "towarz…"."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import i18n, palette  # noqa: E402
from client.common.menu_view import LobbyView  # noqa: E402
from client.player.profile_model import ProfilePage  # noqa: E402
from tests.client.test_player_pages import _profile  # noqa: E402


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_a_profiles_heads_and_rows_are_drawn_whole(language: str) -> None:
    """The head row and every match row: no cell drawn cut; the score's head and the result's differ."""
    window = arcade.Window(1280, 760, "profile", visible=False)
    i18n.set_language(language)
    try:
        page = ProfilePage()
        page.apply(_profile())
        view = LobbyView(page, lambda request: None)
        window.show_view(view)
        for _frame in range(2):
            view.clear(color=palette.BACKGROUND)
            view.draw_at(0.0)
        rows = [(i, item) for i, item in enumerate(page.items()) if item.cells]
        assert rows and len(set(rows[0][1].cells)) == len(rows[0][1].cells), rows[0][1].cells
        cut = [view.whole_text(i, item) for i, item in rows if view.whole_text(i, item)]
        assert not cut, cut
    finally:
        i18n.set_language("en")
        window.close()

"""Headless renders of the lobby, results and prompt screens, checked by pixels (one hidden window)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common import palette  # noqa: E402
from client.common.menu_view import FILL, FILL_LIT, LobbyView  # noqa: E402
from client.match import (  # noqa: E402
    prompts,
    samples,
)
from client.match.match_view import MatchView  # noqa: E402
from client.player.lobby_model import LobbyModel  # noqa: E402
from client.player.results_view import ResultsView  # noqa: E402
from shared.protocol import Welcome  # noqa: E402

WIDTH, HEIGHT = 1280, 760


@pytest.fixture(scope="module")
def window():
    """One hidden window shared by every render of this module."""
    win = arcade.Window(WIDTH, HEIGHT, "screens", visible=False)
    yield win
    win.close()


def render(window, view, path: Path):
    """Draw ``view`` once and return the picture (saved at ``path`` to look at)."""
    window.show_view(view)
    view.clear(color=palette.BACKGROUND)
    view.draw_at(0.0)
    image = arcade.get_image(0, 0, window.width, window.height).convert("RGB")
    image.save(path)
    return image


def at(image, x: float, y: float):
    """The RGB at screen pixel (x, y) (arcade's y runs upwards, PIL's downwards)."""
    return image.getpixel((round(x), image.height - 1 - round(y)))


def near(rgb, target, tol: int = 40) -> bool:
    """Colours equal within ``tol`` per channel."""
    return all(abs(a - b) <= tol for a, b in zip(rgb, target, strict=False))


def bright_pixels(image, box: tuple[int, int, int, int]) -> int:
    """How many near-white pixels (text) lie in ``box`` = (left, bottom, right, top) in screen pixels."""
    left, bottom, right, top = box
    crop = image.crop((left, image.height - top, right, image.height - bottom))
    return sum(1 for p in crop.getdata() if min(p) > 200)


def _lobby() -> LobbyModel:
    """A welcomed lobby on its main menu."""
    model = LobbyModel()
    model.apply(Welcome(1, "sprtec", "Jana", "tok"))
    return model


def test_lobby_menu_shows_its_items_and_the_hovered_one_lights_up(window, tmp_path):
    """Each menu button holds text; the focused/hovered button has the lit colour, another the plain one."""
    view = LobbyView(_lobby(), lambda request: None)
    window.show_view(view)
    render(window, view, tmp_path / "lobby-first.png")  # the first frame lays the buttons out
    laid = view.layout()
    second = laid[1][1]
    view.on_mouse_motion(second.left + 20, second.bottom + 5, 0, 0)
    image = render(window, view, tmp_path / "lobby.png")
    for _, b in laid:
        assert bright_pixels(image, (int(b.left), int(b.bottom), int(b.left + b.width), int(b.bottom + b.height))) > 30
    first = laid[0][1]
    assert near(at(image, second.left + 6, second.bottom + 6), FILL_LIT[:3])
    assert near(at(image, first.left + 6, first.bottom + 6), FILL[:3], 25)
    assert bright_pixels(image, (400, HEIGHT - 90, 880, HEIGHT - 10)) > 500  # the title


def test_a_pointer_left_over_an_item_after_a_screen_change_lights_only_the_focus(window, tmp_path):
    """After a click opens a new menu, the item under the resting pointer stays plain; only the focus is lit."""
    view = LobbyView(_lobby(), lambda request: None)
    window.show_view(view)
    render(window, view, tmp_path / "lobby-rest-first.png")
    laid = view.layout()
    second = laid[1][1]
    view.hover = (second.left + 20, second.bottom + 5)  # where the pointer rests, no motion event since
    image = render(window, view, tmp_path / "lobby-rest.png")
    assert near(at(image, laid[0][1].left + 6, laid[0][1].bottom + 6), FILL_LIT[:3])
    assert near(at(image, second.left + 6, second.bottom + 6), FILL[:3], 25)


def test_lobby_click_sends_the_request_of_the_item_under_the_pointer(window, tmp_path):
    """A click on 'Quick match' opens its screen; a click on 'Find an opponent' there hands QuickMatch on."""
    sent: list[object] = []
    view = LobbyView(_lobby(), sent.append)
    window.show_view(view)
    render(window, view, tmp_path / "lobby-click.png")
    quick = next(b for item, b in view.layout() if item.command == "screen:quick")
    view.on_mouse_press(int(quick.left + 10), int(quick.bottom + 10), arcade.MOUSE_BUTTON_LEFT, 0)
    assert sent == [] and view.model.screen == "quick"
    render(window, view, tmp_path / "lobby-quick.png")
    find = next(b for item, b in view.layout() if item.command == "quick")
    view.on_mouse_press(int(find.left + 10), int(find.bottom + 10), arcade.MOUSE_BUTTON_LEFT, 0)
    assert type(sent[-1]).__name__ == "QuickMatch"


def test_results_show_headline_score_and_buttons_and_rematch_is_chosen(window, tmp_path):
    """The headline is drawn in amber, the buttons carry text, a click on Rematch reports 'rematch'."""
    ended = samples.ended_match()
    chosen: list[str] = []
    view = ResultsView(ended.state, ended.ended, chosen.append)
    image = render(window, view, tmp_path / "results.png")
    amber = sum(1 for p in image.crop((400, 150, 880, 260)).getdata() if near(p, palette.WARNING, 30))
    assert amber > 300
    rematch = view.buttons[0]
    assert bright_pixels(image, (int(rematch.left), int(rematch.bottom), int(rematch.left + rematch.width),
                                 int(rematch.bottom + rematch.height))) > 30
    view.on_mouse_press(int(rematch.left + 5), int(rematch.bottom + 5), arcade.MOUSE_BUTTON_LEFT, 0)
    assert chosen == ["rematch"]


def test_prompt_panel_opens_the_arrangement_and_shades_the_legal_third(window, tmp_path):
    """At the face-off the panel offers 'Move defenders'; clicking it shades the own defensive third green."""
    state = samples.match_state(moves=0, seat="home")
    view = MatchView(state, clock=lambda: 0.0)
    before = render(window, view, tmp_path / "prompt.png")
    assert view.prompt_buttons and view.prompt_buttons[0].command == prompts.ARRANGE
    b = view.prompt_buttons[0]
    assert bright_pixels(before, (int(b.left), int(b.bottom), int(b.left + b.width), int(b.bottom + b.height))) > 20
    view.on_mouse_press(int(b.left + 5), int(b.bottom + 5), arcade.MOUSE_BUTTON_LEFT, 0)
    assert view.arrangement is not None
    after = render(window, view, tmp_path / "arrange.png")
    end = state.position.own_end("home")
    sx, sy = view.transform().to_screen(300.0 * end, 250.0)
    assert at(after, sx, sy)[0] < at(before, sx, sy)[0] - 20  # tinted green: less red than plain wood
    assert [c for _, c in ((x.label, x.command) for x in view.prompt_buttons)] == ["confirm", "cancel"]
    assert not view.prompt_buttons[0].enabled  # nothing moved yet: nothing to confirm


def test_a_row_of_many_choices_keeps_each_label_inside_its_button(window):
    """The face-off's four offers in the prompt panel of the default window (narrowed to fit): every label is
    shrunk into its own button instead of running over the next one."""
    from client.common.buttons import fit_row
    from client.common.widgets import Texts, draw_buttons

    offers = (("Move defenders", "arrange"), ("Power play with h7", "pp_swap_out:h7"),
              ("Power play with h6", "pp_swap_out:h6"), ("Power play with h4", "pp_swap_out:h4"))
    panel_w = min(WIDTH - 28.0, max(500.0, WIDTH * 0.46))  # client.match.match_view's prompt panel
    left = WIDTH - 14 - panel_w
    laid = fit_row(offers, left + 10, left + panel_w - 10, 14, height=30)
    texts = Texts()
    window.clear()
    draw_buttons(texts, laid, None, "prompt")
    for i, b in enumerate(laid):
        label = texts.peek(f"prompt{i}")
        assert label is not None and label.text == b.label
        assert label.content_width <= b.width - 7, (b.label, label.content_width, b.width)

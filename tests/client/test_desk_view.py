"""The desk's pictures: the QR code's modules as the QR specification lays them out, and ``sprtec organise
--screenshot`` drawing the address screen with the code beside the addresses (headless, a real server)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

from client.common.qr_code import QUIET_ZONE, qr_modules, qr_pixels

ROOT = Path(__file__).resolve().parents[2]


def finder_at(rows: tuple[tuple[bool, ...], ...], top: int, left: int) -> bool:
    """True when a finder pattern (a dark 7x7 ring, a light ring, a dark 3x3 centre) starts at ``top``, ``left``."""
    for y in range(7):
        for x in range(7):
            ring = max(abs(y - 3), abs(x - 3))
            if rows[top + y][left + x] != (ring != 2):
                return False
    return True


def test_the_qr_code_of_an_address_has_its_three_finder_patterns() -> None:
    """The code of a LAN address is a square of 21 + 4k modules with finder patterns in three corners."""
    rows = qr_modules("ws://192.168.1.20:8765/")
    side = len(rows)
    assert all(len(row) == side for row in rows) and (side - 21) % 4 == 0
    assert finder_at(rows, 0, 0) and finder_at(rows, 0, side - 7) and finder_at(rows, side - 7, 0)
    assert not finder_at(rows, side - 7, side - 7)


def test_the_qr_picture_has_a_light_quiet_zone_and_the_modules_scaled() -> None:
    """The picture adds the quiet zone of light modules and draws each module as a square of pixels."""
    rows = qr_modules("ws://10.0.0.7:8765/")
    size, pixels = qr_pixels("ws://10.0.0.7:8765/", 3)
    assert size == (len(rows) + 2 * QUIET_ZONE) * 3 and len(pixels) == size * size
    assert set(pixels[: size * QUIET_ZONE * 3]) == {255}  # the top border
    first = (QUIET_ZONE * 3) * size + QUIET_ZONE * 3  # the first module's top-left pixel: a finder's dark corner
    assert pixels[first] == 0 and pixels[first + 2] == 0 and pixels[first + 2 * size] == 0


def test_organise_draws_the_address_screen_with_its_qr_code(tmp_path: Path) -> None:
    """``sprtec organise --screenshot --screen address`` saves the desk with the code: a white square with dark
    modules on the right of the window."""
    shot = tmp_path / "address.png"
    done = subprocess.run([sys.executable, "-m", "sprtec.cli", "organise", "--data", str(tmp_path / "data"),
                           "--port", "0", "--screenshot", str(shot), "--screen", "address"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "ARCADE_HEADLESS": "1"})
    assert done.returncode == 0, done.stderr
    image = Image.open(shot).convert("L")
    width, height = image.size
    right = image.crop((width * 2 // 3, height // 4, width, height * 3 // 4))
    values = list(right.getdata())
    assert values.count(255) > len(values) // 5 and values.count(0) > len(values) // 10


def test_the_qr_code_opens_the_tournament_page_on_a_phone() -> None:
    """The code encodes the tournament's web page on the first LAN address (the server serves it on the game's
    port), and the address screen writes that page out; before a tournament exists, the server's home page."""
    from client.desk.desk_model import DeskModel

    desk = DeskModel(server="ws://127.0.0.1:8765/", addresses=("ws://192.168.1.20:8765/",), tournament="T7")
    assert desk.page_url() == "http://192.168.1.20:8765/tournaments/T7"
    desk.screen = "address"
    assert any(item.label == "http://192.168.1.20:8765/tournaments/T7" for item in desk.items())
    assert DeskModel(server="ws://127.0.0.1:8765/").page_url() == "http://127.0.0.1:8765"


def test_nothing_on_the_desks_home_moves_when_the_tournament_ends() -> None:
    """The last result in, the round's row says the tournament has ended - in a row of the buttons' height, so
    Tables, Override, Export and Close stay under the pointer where they were during the rounds."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade

    from client.desk.desk_model import DeskModel
    from client.desk.desk_view import DeskView
    from tests.client.test_tournament_player import _update

    window = arcade.Window(1280, 760, "desk", visible=False)
    try:
        model = DeskModel(server="ws://127.0.0.1:8765/", tournament="ABC123", secret="s", seed=5)
        model.screen = "home"
        places = {}
        for status in ("between", "finished"):
            model.update = _update(status=status, round=2)
            view = DeskView(model, lambda request: None)
            window.show_view(view)
            view.on_draw()
            places[status] = {item.command: (b.left, b.bottom, b.width) for item, b in view.layout()
                              if item.command.startswith(("screen:", "close", "undo"))}
        assert places["finished"] == places["between"]
        ended = [item for item in model.items() if "has ended" in item.label]
        assert ended and not ended[0].enabled
    finally:
        window.close()


def test_the_tournaments_name_on_the_desks_home_stays_clear_of_the_qr_code() -> None:
    """A long name on the home screen shrinks to the room the corner's QR code leaves on both sides of the centred
    heading: all of 'Český pohár Expres — Brno' is readable beside the code (its last letters were under it)."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade

    from client.desk.desk_model import DeskModel
    from client.desk.desk_view import CORNER_QR, DeskView
    from tests.client.test_tournament_player import _update

    window = arcade.Window(1280, 760, "desk", visible=False)
    try:
        model = DeskModel(server="ws://127.0.0.1:8765/", tournament="ABC123", secret="s", seed=5)
        model.screen = "home"
        model.update = _update(status="registering", round=0, name="Český pohár Expres — Brno")
        view = DeskView(model, lambda request: None)
        window.show_view(view)
        view.on_draw()
        heading = view.texts.peek("title")
        assert heading is not None and heading.text == "Český pohár Expres — Brno"
        right = heading.x + heading.content_width / 2
        assert right <= window.width - CORNER_QR - 18, (right, heading.font_size)
    finally:
        window.close()

"""``sprtec hall`` as a user runs it: a real ``sprtec serve`` on port 0, a tournament created from the example file
with ``sprtec tournament create``, and the hall's screenshot of its standings (headless); an unknown tournament is
refused with the server's word and exit status 1."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.client.helpers import served

ROOT = Path(__file__).resolve().parents[2]


def _sprtec(*args: str, config: Path) -> subprocess.CompletedProcess[str]:
    """Run ``sprtec`` with the test's own config directory (headless)."""
    env = dict(os.environ, ARCADE_HEADLESS="1", SPRTEC_CONFIG_DIR=str(config))
    return subprocess.run([sys.executable, "-m", "sprtec", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=180)


@pytest.mark.slow
def test_sprtec_hall_saves_the_standings_of_a_tournament(tmp_path: Path) -> None:
    """The example Swiss tournament (two rounds already played in its file): the hall's screenshot is saved."""
    with served(tmp_path / "data", 0) as url:
        created = _sprtec("tournament", "create", str(ROOT / "examples" / "tournament-swiss.json"), "--server", url,
                          config=tmp_path / "organiser")
        assert created.returncode == 0, created.stderr
        found = re.match(r"tournament (\w+)", created.stdout)
        assert found is not None, created.stdout
        shot = tmp_path / "hall.png"
        hall = _sprtec("hall", "--server", url, "--tournament", found.group(1), "--screenshot", str(shot),
                       config=tmp_path / "hall")
        assert hall.returncode == 0, hall.stderr
        with Image.open(shot) as image:
            assert image.size == (1280, 760)
            assert len(set(image.convert("RGB").getdata())) > 50  # a picture, not an empty window
        missing = _sprtec("hall", "--server", url, "--tournament", "NOSUCH", "--screenshot", str(tmp_path / "x.png"),
                          "--wait", "5", config=tmp_path / "hall")
        assert missing.returncode == 1 and "no tournament NOSUCH" in missing.stderr, missing.stderr
        assert "no tournament has the id 'NOSUCH'" in missing.stderr  # the server's own words
        assert not (tmp_path / "x.png").exists()


def test_the_halls_phone_address_is_one_a_phone_on_the_lan_reaches() -> None:
    """The hall started beside the desk connects to 127.0.0.1 (or localhost): its "On your phone" line names this
    machine's LAN address, the server's port kept; a server given by its LAN address is named as given."""
    from sprtec.commands.hall import phone_page

    lan = ["192.0.2.2", "10.0.0.7"]
    assert phone_page("ws://127.0.0.1:34767/", "REU73K", lan) == "http://192.0.2.2:34767/tournaments/REU73K"
    assert phone_page("ws://localhost:8765/", "REU73K", lan) == "http://192.0.2.2:8765/tournaments/REU73K"
    assert phone_page("ws://10.0.0.5:8765/", "REU73K", lan) == "http://10.0.0.5:8765/tournaments/REU73K"
    assert phone_page("ws://127.0.0.1:8765/", "REU73K", []) == "http://127.0.0.1:8765/tournaments/REU73K"


def test_the_halls_status_line_says_the_server_was_closed() -> None:
    """The organiser closes the desk: the hall's status line says so (and a lost connection that it reconnects)
    instead of "Connected as guest-7" over standings that no longer move; connected again, whom it is again."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade

    from client.hall.hall_director import HallDirector
    from client.match.net import ConnectionEvent, NetClient, NetLink
    from shared.protocol import Welcome

    window = arcade.Window(640, 400, "hall", visible=False)
    try:
        link = NetLink(NetClient("ws://127.0.0.1:9/", "hall"))
        director = HallDirector(window, link, "REU73K", page="http://192.0.2.2:9/tournaments/REU73K")
        assert director.view.page == "http://192.0.2.2:9/tournaments/REU73K"
        for message in (Welcome(1, "sprtec", "guest-7", "t"), ConnectionEvent("stopped", "1001")):
            link.apply(director.state, message, 0.0)
        director.poll(now=0.0)
        assert director.status() == "The server was closed (the organiser stopped it) — connecting again when it runs"
        link.apply(director.state, ConnectionEvent("failed", "[Errno 111]"), 1.0)
        director.poll(now=1.0)
        assert director.status().startswith("The server was closed")
        link.apply(director.state, ConnectionEvent("up"), 2.0)
        director.poll(now=2.0)
        assert director.status() == "Connected as guest-7"
    finally:
        window.close()

"""A round on a physical board entered and confirmed by its two players in real windows: ``sprtec serve --port
0``, a tournament created on boards by ``sprtec tournament create --on-boards``, two ``sprtec play`` clients on X
displays of their own (Xvfb), each entering with his code by keyboard; the organiser checks them in and starts the
round from the command line; Jana sets 3:1 with the + buttons and clicks Enter, Piotr sees her 3:1 and clicks
Confirm - and the board's result stands on the server. Where to click comes from the client's own layout, laid out in
a hidden window of the client's size (as tests/client/test_real_window.py does). Screenshots of both displays are
saved beside the test's files. Needs Xvfb, xdotool and ImageMagick's ``import``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.client.test_real_window import (
    MISSING,
    Mirror,
    Person,
    _enter_name,
    _start_xvfb,
    _tournament_state,
    display,  # noqa: F401 - the fixture: the first X display
)

pytestmark = [
    pytest.mark.slow(seconds=35),
    pytest.mark.skipif(bool(MISSING), reason="a real window needs Xvfb, xdotool and ImageMagick: "
                       "apt-get install xvfb xdotool x11-xkb-utils x11-xserver-utils imagemagick"),
]

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common.menu_view import LobbyView  # noqa: E402
from client.player.lobby_model import LobbyModel  # noqa: E402
from client.player.tournament_list import TournamentsPage  # noqa: E402
from client.player.tournament_session import TournamentSession  # noqa: E402
from client.player.tournament_view import TournamentView  # noqa: E402
from shared.protocol import TableAssigned, TournamentInfo, TournamentJoined, TournamentList, Welcome  # noqa: E402
from tests.client.helpers import served  # noqa: E402
from tests.polling import until  # noqa: E402

PLAYERS = {"jana": "Jana Nováková", "piotr": "Piotr Kowalski"}


def _until(check, what: str, seconds: float = 30.0):
    """Poll ``check()`` until it gives something true."""
    return until(check, seconds, what)


def _enter(person: Person, mirror: Mirror, url: str, name: str, config: Path, tid: str, code: str) -> None:
    """The first start: his name, then Tournaments, the cup chosen, the code typed and Return."""
    _enter_name(person, mirror, url, name, config)
    time.sleep(1.0)
    model = LobbyModel(origin=f"Server {url}")
    model.apply(Welcome(1, "sprtec", name, "t"))
    x, y, _w = mirror.item(model, "tournaments")
    person.click(x, y)
    time.sleep(1.5)
    page = TournamentsPage()
    page.apply(TournamentList((TournamentInfo(tournament=tid, name="Český pohár", status="registering", stage=0,
                                              round=0, entries=2, playing=0),)))
    view = mirror.lay(LobbyView(page, lambda request: None))
    row = next(b for item, b in view.layout() if item.command == f"choose:{tid}")
    person.click(row.left + row.width / 2, row.bottom + row.height / 2)
    person.type(code.lower())
    person.press("Return")


def _board_view(mirror: Mirror, url: str, tid: str, entry: str) -> TournamentView:
    """His board's screen as the client lays it out (the server's update, his board as TableAssigned says it)."""
    update = _tournament_state(url, tid)
    line = update.tables[0]  # type: ignore[attr-defined]
    seat = "home" if line.home == entry else "away"
    session = TournamentSession(tid)
    session.apply(TournamentJoined(tid, entry, PLAYERS[entry]), time.monotonic())
    session.apply(TableAssigned(tournament=tid, stage=0, round=1, table=line.table, room=None, ruleset=line.ruleset,
                                seat=seat, opponent=line.away_name if seat == "home" else line.home_name,
                                on_board=True), time.monotonic())
    session.apply(update, time.monotonic())
    return mirror.lay(TournamentView(session, lambda _c: None, clock=time.monotonic))


def _press(person: Person, view: TournamentView, command: str) -> None:
    """Click the screen's button of ``command``."""
    button = next(b for b in view.buttons if b.command == command)
    person.click(button.left + button.width / 2, button.bottom + button.height / 2)


def test_two_players_enter_and_confirm_a_boards_score_in_real_windows(display, tmp_path):  # noqa: F811
    """Jana enters 3:1 of their board with the mouse, Piotr confirms it with one click; the server records it."""
    second_log = (tmp_path / "xvfb-2.log").open("w")
    xvfb, other_display = _start_xvfb(second_log)
    file = tmp_path / "cup.json"
    file.write_text(json.dumps({"name": "Český pohár", "seed": 5, "stages": [{"system": "swiss", "rounds": 3}],
                                "players": [{"id": entry, "name": name} for entry, name in PLAYERS.items()]}))
    clients: list[subprocess.Popen[bytes]] = []
    mirror = None
    logs = []
    try:
        subprocess.run(["xdotool", "getmouselocation"], env={**os.environ, "DISPLAY": other_display},
                       capture_output=True, timeout=20)
        subprocess.run(["setxkbmap", "-display", other_display, "cz"], check=True, timeout=20)
        with served(tmp_path / "data", workers=0) as url:
            organiser = {**os.environ, "SPRTEC_CONFIG_DIR": str(tmp_path / "organiser")}
            created = subprocess.run([sys.executable, "-m", "sprtec", "tournament", "create", str(file), "--server",
                                      url, "--on-boards", "--json"], env=organiser, capture_output=True, text=True,
                                     timeout=60, check=True)
            answer = json.loads(created.stdout)
            tid = answer["tournament"]
            codes = {e["entry"]: e["code"] for e in answer["entries"]}
            people = {}
            for entry, where in (("jana", display), ("piotr", other_display)):
                home, config, shots = (tmp_path / entry / part for part in ("home", "config", "shots"))
                for folder in (home, config, shots):
                    folder.mkdir(parents=True)
                env = {**os.environ, "DISPLAY": where, "HOME": str(home), "SPRTEC_CONFIG_DIR": str(config),
                       "LIBGL_ALWAYS_SOFTWARE": "1"}
                env.pop("ARCADE_HEADLESS", None)
                log = (tmp_path / f"play-{entry}.log").open("w")
                logs.append(log)
                client = subprocess.Popen([sys.executable, "-m", "sprtec", "play", "--server", url, "--mute"],
                                          env=env, cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=log,
                                          stderr=subprocess.STDOUT)
                clients.append(client)
                person = Person(where, shots)
                person.find("sprtec", client)
                people[entry] = (person, config)
            mirror = Mirror(people["jana"][0].width, people["jana"][0].height)
            time.sleep(1.5)
            for entry, (person, config) in people.items():
                _enter(person, mirror, url, PLAYERS[entry], config, tid, codes[entry])
            _until(lambda: all(e.claimed for e in _tournament_state(url, tid).entries), "both entries claimed")
            for entry in PLAYERS:
                subprocess.run([sys.executable, "-m", "sprtec", "tournament", "checkin", tid, entry, "--server", url],
                               env=organiser, check=True, timeout=60, capture_output=True)
            subprocess.run([sys.executable, "-m", "sprtec", "tournament", "start-round", tid, "--server", url],
                           env=organiser, check=True, timeout=60, capture_output=True)
            time.sleep(2.0)  # the TableAssigned takes each client to his board's screen
            jana, _ = people["jana"]
            piotr, _ = people["piotr"]
            jana.look("1-jana-board")
            view = _board_view(mirror, url, tid, "jana")
            line = _tournament_state(url, tid).tables[0]
            jana_home = line.home == "jana"
            for command in (["score:home:1"] * 3 + ["score:away:1"] if jana_home else
                            ["score:home:1"] + ["score:away:1"] * 3):
                _press(jana, view, command)
            jana.look("2-jana-three-one")
            _press(jana, view, "enter")
            entered = _until(lambda: _tournament_state(url, tid).tables[0].entered_by,
                             "Jana's entry on the server")
            assert entered == "jana"
            time.sleep(1.0)
            piotr.look("3-piotr-confirms")
            view = _board_view(mirror, url, tid, "piotr")
            assert view.buttons[0].command == "enter" and view.buttons[0].label.startswith("Confirm")
            _press(piotr, view, "enter")
            done = _until(lambda: next((t for t in _tournament_state(url, tid).tables
                                        if t.status == "ended"), None), "the board's result standing")
            assert (done.score.home, done.score.away) == ((3, 1) if jana_home else (1, 3))
            time.sleep(1.0)
            piotr.look("4-piotr-after")
            assert all(client.poll() is None for client in clients), "a client stopped"
    finally:
        if mirror is not None:
            mirror.close()
        for client in clients:
            client.terminate()
            client.wait(15)
        for log in logs:
            log.close()
        xvfb.terminate()
        xvfb.wait(10)
        second_log.close()
    for entry in PLAYERS:
        text = (tmp_path / f"play-{entry}.log").read_text()
        assert "Traceback" not in text, text[-2000:]

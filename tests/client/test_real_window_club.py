"""A club's LAN tournament of three players in real windows, run from the organiser's desk as at a real event:
``sprtec organise FILE`` (the server, the tournament and the desk in one) and three ``sprtec play`` windows on one X
display (Xvfb), driven with xdotool as people drive them. Each player enters by the code the organiser gave him,
typed on the keyboard and sent with Enter; two check in with a click, the third checks in and goes home (his
window closed): round 1 gives the first player the bye and the other two a table, where the one who came clicks
"Go to my table now" and wins by walkover when the no-show time runs out. The organiser gives the absent one a
yellow card, overrides the walkover (a score, with its reason) and ends the tournament, every act through its
confirmation, clicked. Each step waits on what the server says, not on a fixed time; screenshots are saved next to
the test's files. Needs Xvfb, xdotool and ImageMagick's ``import``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.client.test_real_window import MISSING, Mirror, Person, _tournament_state, display  # noqa: F401
from tests.polling import until

pytestmark = [
    pytest.mark.slow(seconds=55),
    pytest.mark.skipif(bool(MISSING), reason="a real window needs Xvfb, xdotool and ImageMagick: "
                       "apt-get install xvfb xdotool x11-xkb-utils x11-xserver-utils imagemagick"),
]

arcade = pytest.importorskip("arcade")

from client.common.menu_view import LobbyView  # noqa: E402
from client.desk.desk_model import DeskModel  # noqa: E402
from client.desk.desk_view import DeskView  # noqa: E402
from client.player.tournament_session import TournamentSession  # noqa: E402
from client.player.tournament_view import TournamentView  # noqa: E402

PLAYERS = {"adam": "Adam Kral", "bara": "Bara Novak", "cyril": "Cyril Dvorak"}  # ASCII: typed on any keymap
CUP = {"name": "Club Cup", "seed": 7, "stages": [{"system": "swiss", "rounds": 2, "ruleset": "quick",
                                                  "settings": {"period_ms": 30_000}}],
       "players": [{"id": entry, "name": name} for entry, name in PLAYERS.items()]}
NO_SHOW_S = 6.0  # the walkover comes this long after the table opens


class Seat(Person):
    """A person at one of several windows of the display: brings it to the front before acting on it."""

    def take(self, process: subprocess.Popen[bytes], title: str, known: set[str], seconds: float = 40.0) -> None:
        """Wait for a window titled ``title`` that is not one of ``known`` (the others' windows), and keep it."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and process.poll() is None:
            fresh = [w for w in self.run("search", "--name", title).split() if w not in known]
            if fresh:
                self.window = fresh[0]
                known.add(self.window)
                values = dict(line.split("=") for line in self.run("getwindowgeometry", "--shell",
                                                                    self.window).split() if "=" in line)
                self.x, self.y = int(values["X"]), int(values["Y"])
                self.width, self.height = int(values["WIDTH"]), int(values["HEIGHT"])
                return
            time.sleep(0.3)
        raise AssertionError(f"no new window titled {title!r} appeared (exit {process.poll()})")

    def front(self) -> None:
        """Raise the window and give it the keyboard (no window manager does it on this display)."""
        self.run("windowraise", self.window)
        self.run("windowfocus", "--sync", self.window)
        time.sleep(0.2)

    def click(self, ax: float, ay: float) -> None:
        """Click there; a pointer resting on that very pixel already (the same button of another window, laid out
        alike) is not moved: ``mousemove --sync`` would wait for a motion that never comes (15 s)."""
        x, y = self.at(ax, ay)
        if self.run("getmouselocation", "--shell").split()[:2] == [f"X={x}", f"Y={y}"]:
            self.run("click", "1")
            time.sleep(0.25)
        else:
            super().click(ax, ay)

    def press_on(self, view: Any, command: str) -> None:
        """Click the centre of the button of ``command`` as the mirrored ``view`` lays it out."""
        laid = [b for _item, b in view.layout()] if isinstance(view, LobbyView) else view.buttons
        button = next(b for b in laid if b.command == command)
        self.front()
        self.click(button.left + button.width / 2, button.bottom + button.height / 2)


def _until(what: str, ready: Callable[[], Any], seconds: float = 25.0) -> Any:
    """Wait until ``ready()`` gives something true (polled every 0.3 s); its value."""
    return until(ready, seconds, what, every=0.3)


def _organise(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str, str, dict[str, str]]:
    """``sprtec organise`` on the tournament file: its process, the server's URL, the tournament and the codes."""
    file = tmp_path / "cup.json"
    file.write_text(json.dumps(CUP))
    out, err = tmp_path / "organise.out", tmp_path / "organise.err"
    desk = subprocess.Popen([sys.executable, "-m", "sprtec", "organise", str(file), "--port", "0", "--data",
                             str(tmp_path / "data"), "--no-show", str(NO_SHOW_S)],
                            env={**env, "SPRTEC_CONFIG_DIR": str(tmp_path / "organiser")}, cwd=tmp_path,
                            stdin=subprocess.DEVNULL, stdout=out.open("w"), stderr=err.open("w"))

    def started() -> dict[str, Any] | None:
        """The JSON line organise prints once the tournament is there."""
        assert desk.poll() is None, err.read_text()
        lines = out.read_text().splitlines()
        return json.loads(lines[0]) if lines else None

    said = _until("sprtec organise to start", started, 60.0)
    codes = {line.split("\t")[0]: line.split("\t")[2] for line in err.read_text().splitlines()
             if line.count("\t") == 2}
    assert set(codes) == set(PLAYERS), err.read_text()
    return desk, said["server"], said["tournament"], codes


class Desk:
    """The organiser's desk: his window, and a model of it laid out in the mirror (where its buttons are)."""

    def __init__(self, person: Seat, mirror: Mirror, url: str, tid: str) -> None:
        """The desk's window and the same screens in the mirror."""
        self.person, self.mirror, self.url, self.tid = person, mirror, url, tid
        self.model = DeskModel(server=url, tournament=tid, secret="mirrored", seed=1)
        self.model.screen = "home"

    def sync(self) -> Any:
        """The tournament as it is now, in the mirrored desk; the update."""
        update = _tournament_state(self.url, self.tid)
        self.model.apply(update)
        return update

    def act(self, command: str) -> None:
        """Click a command of the screen shown (the mirror follows)."""
        view = self.mirror.lay(DeskView(self.model, lambda request: None))
        self.person.press_on(view, command)
        self.model.activate(command)

    def confirm(self) -> None:
        """Click "Yes, do it" on the confirmation (its "No, back" lit, as a safe default), back to the home."""
        assert self.model.screen == "confirm"
        self.act("yes")
        self.model.screen, self.model.pending = "home", None

    def type_reason(self, text: str) -> None:
        """Type the reason (typing goes to the screen's field), Enter moves on to the act's button."""
        self.person.front()
        self.person.type(text)
        self.model.form["reason"] = text
        self.person.press("Return")


def _player(tmp_path: Path, env: dict[str, str], url: str, entry: str) -> subprocess.Popen[bytes]:
    """``sprtec play`` for one player, named on the command line (his name on the server is his own)."""
    home = tmp_path / entry
    home.mkdir()
    return subprocess.Popen([sys.executable, "-m", "sprtec", "play", "--server", url, "--name", entry.title(),
                             "--mute"], env={**env, "HOME": str(home), "SPRTEC_CONFIG_DIR": str(home)},
                            cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=(tmp_path / f"{entry}.log").open("w"),
                            stderr=subprocess.STDOUT)


def _enter_with_code(seat: Seat, code: str) -> None:
    """Lobby → Tournaments → the cup → the code typed → Enter, all on the keyboard (each first item is lit)."""
    seat.front()
    seat.press("Return")  # Tournaments
    time.sleep(1.0)  # the list comes from the server
    seat.press("Return")  # the cup, the list's first row
    seat.type(code.lower())
    seat.press("Return")


def _session_view(mirror: Mirror, update: Any, entry: str) -> Any:
    """The player's tournament screen as it lays out for ``update``."""
    session = TournamentSession(update.tournament, entry)
    session.apply(update, time.monotonic())
    return mirror.lay(TournamentView(session, lambda command: None, clock=time.monotonic))


def test_a_club_tournament_of_three_is_run_from_the_desk_in_real_windows(display, tmp_path):  # noqa: F811
    """Registration by code with Enter, check-in, a bye, a no-show's walkover, a card, an override and the end,
    every player's and organiser's act by mouse or keyboard in real windows."""
    shots = tmp_path / "shots"
    shots.mkdir()
    env = {**os.environ, "DISPLAY": display, "HOME": str(tmp_path), "LIBGL_ALWAYS_SOFTWARE": "1"}
    env.pop("ARCADE_HEADLESS", None)
    processes: list[subprocess.Popen[bytes]] = []
    started = time.monotonic()
    mirror = None
    try:
        organiser, url, tid, codes = _organise(tmp_path, env)
        processes.append(organiser)
        known: set[str] = set()
        person = Seat(display, shots)
        person.take(organiser, "Organiser's desk", known)
        mirror = Mirror(person.width, person.height)
        desk = Desk(person, mirror, url, tid)
        seats: dict[str, Seat] = {}
        for entry in PLAYERS:  # one window after the other: their titles are alike
            client = _player(tmp_path, env, url, entry)
            processes.append(client)
            seats[entry] = Seat(display, shots)
            seats[entry].take(client, "sprtec", known)
        clients = dict(zip(PLAYERS, processes[1:], strict=True))
        time.sleep(1.5)  # the lobbies are welcomed

        for entry, seat in seats.items():
            _enter_with_code(seat, codes[entry])
            _until(f"{entry}'s code to claim his entry", lambda e=entry: next(
                line.claimed for line in _tournament_state(url, tid).entries if line.entry == e))
        seats["adam"].front()
        seats["adam"].look("1-entered-with-the-code")
        update = desk.sync()
        assert sorted(line.entry for line in update.entries) == sorted(PLAYERS)  # no second entry

        for entry, seat in seats.items():  # "I am here: check in"
            seat.press_on(_session_view(mirror, update, entry), "checkin")
        _until("the three to be checked in", lambda: all(line.checked_in for line in desk.sync().entries))
        clients["cyril"].terminate()  # Cyril checked in and went home: he will not come to his table
        clients["cyril"].wait(15)

        desk.act("start")
        desk.confirm()
        update = _until("round 1 to be paired", lambda: (u := desk.sync()).tables and u)
        table = update.tables[0]
        assert update.byes == ("adam",) and {table.home, table.away} == {"bara", "cyril"}, (update.byes, table)
        person.front()
        person.look("2-round-1-started")
        seats["adam"].front()
        seats["adam"].look("3-the-bye")
        seats["bara"].press_on(_assigned_view(mirror, update, "bara"), "table")  # "Go to my table now"
        update = _until("the no-show's walkover", lambda: (u := desk.sync()).tables[0].status == "walkover" and u,
                        NO_SHOW_S + 20)
        seats["bara"].front()
        seats["bara"].look("4-walkover")

        desk.act("screen:card")
        while "Cyril" not in next(i.label for i in desk.model.items() if i.command == "cycle:entry"):
            desk.act("cycle:entry")
        desk.type_reason("did not come to his table")
        desk.model.focus = [i.command for i in desk.model.items()].index("card")
        person.look("5-card")
        desk.act("card")
        desk.confirm()
        _until("the card", lambda: [(c.entry, c.card) for c in desk.sync().cards] == [("cyril", "yellow")])

        desk.act("screen:override")
        desk.type_reason("late, excused by the referee")
        desk.act("override")
        desk.confirm()
        update = _until("the override", lambda: (u := desk.sync()).tables[0].status == "ended" and u)
        assert any(a.act == "override" for a in update.audit), update.audit

        desk.act("screen:end")
        desk.type_reason("the hall closes")
        desk.act("end")
        desk.confirm()
        _until("the end", lambda: desk.sync().status == "ended")
        person.front()
        person.look("6-desk-at-the-end")
        time.sleep(1.0)  # the last update reaches the players' screens
        seats["bara"].front()
        seats["bara"].look("7-bara-at-the-end")
        seats["adam"].front()
        seats["adam"].look("8-adam-at-the-end")
        for entry in ("adam", "bara"):
            assert clients[entry].poll() is None, f"{entry}'s client stopped"
        assert organiser.poll() is None, "the desk stopped"
    finally:
        if mirror is not None:
            mirror.close()
        for process in reversed(processes):  # the desk last: it stops its server
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
                raise AssertionError(f"{process.args[3]} did not end on SIGTERM") from None
    print(f"the club's tournament took {time.monotonic() - started:.1f} s", file=sys.stderr)
    for log in (tmp_path / "adam.log", tmp_path / "bara.log", tmp_path / "organise.err"):
        assert "Traceback" not in log.read_text(), log.read_text()[-2000:]


def _assigned_view(mirror: Mirror, update: Any, entry: str) -> Any:
    """The player's screen with his table of the update's round shown (its "Go to my table now"), as it lays out."""
    from shared.protocol import TableAssigned

    table = update.tables[0]
    seat = "home" if table.home == entry else "away"
    session = TournamentSession(update.tournament, entry)
    session.apply(update, time.monotonic())
    session.apply(TableAssigned(tournament=update.tournament, stage=update.stage, round=update.round,
                                table=table.table, room=table.room, ruleset="quick", seat=seat, opponent="",
                                no_show_ms=1000), time.monotonic())
    return mirror.lay(TournamentView(session, lambda command: None, clock=time.monotonic))

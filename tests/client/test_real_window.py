"""A whole match in a real window, played as a person plays it: ``sprtec serve --port 0``, ``sprtec play`` on an X
display (Xvfb), and mouse clicks, drags and keys sent with xdotool — a name typed on the first start, through the
lobby to "Create a room" (quick, a 30-second period, rated) that a headless ``sprtec bot --room CODE`` joins, flicks
pulled back on our stones, choices answered with clicks, the results screen with both coaches' rating changes,
"Save replay", and the saved match opened from "My replays". In the middle of the match a line is typed into the
chat (Return, the words, Return) and reaches the room. A second test registers for a tournament as at a club event:
the entry code typed with the pointer resting on "Enter as myself", then Return, claims the prepared entry.

Typed letters reach the client as text events (``on_text``), composed by X from the keymap: the client never builds
characters from key codes. An accented letter dropped under load was xdotool's doing - a letter missing from the
keymap is typed through a key it remaps for a moment, and a window that reads the key after the map is restored
reads nothing - so the display gets a Czech keymap, where á, é, ř, š… are keys of their own.

Where to click comes from where the client draws: this test lays the same views out in a hidden window of the
client's size (the layouts are pure functions of the window size and what is shown), and follows the match as a
spectator of the client's room (the room the client keeps in its identity file), so it knows whose turn it is
and where our stones lie — as a person at the screen would. Screenshots of the X display are saved next to the
test's temporary files. Needs Xvfb, xdotool and ImageMagick's ``import``; the Makefile installs them as root.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

TOOLS = ("Xvfb", "xdotool", "import", "setxkbmap", "xmodmap")
MISSING = [tool for tool in TOOLS if shutil.which(tool) is None]
pytestmark = [
    pytest.mark.slow(seconds=20),
    pytest.mark.skipif(bool(MISSING), reason="a real window needs Xvfb, xdotool and ImageMagick: "
                       "apt-get install xvfb xdotool x11-xkb-utils x11-xserver-utils imagemagick"),
]

os.environ.setdefault("ARCADE_HEADLESS", "1")
arcade = pytest.importorskip("arcade")

from client.common.menu_view import LobbyView  # noqa: E402
from client.common.rating_text import results_lines  # noqa: E402
from client.match import samples  # noqa: E402
from client.match.match_view import MatchView  # noqa: E402
from client.match.net import NetClient, NetLink  # noqa: E402
from client.match.state import MatchState  # noqa: E402
from client.player.bot_process import BotProcess  # noqa: E402
from client.player.lobby_model import LobbyModel  # noqa: E402
from client.player.results_view import ResultsView  # noqa: E402
from shared.match import legal_stones  # noqa: E402
from shared.protocol import Watch, Welcome  # noqa: E402
from tests.client.helpers import served  # noqa: E402

ME = "Jana Nováková"
MATCH_SECONDS = 100.0  # the whole match must end within this (a 30 s period, the moves' playback, the bot)
PULL_MM = 110.0  # how far a person pulls back on a stone: a firm flick
CHAT_LINE = "ahoj, hezky m l c"  # typed into the chat mid-match: M, L and C are match keys, but not while typing


def _start_xvfb(log: IO[str]) -> tuple[subprocess.Popen[bytes], str]:
    """Xvfb on a display number it chooses itself (``-displayfd``: the first free one, taken atomically, so tests
    running side by side never pick the same) and that number's name. ``-noreset``: by default an X server resets
    whenever its last client disconnects, which throws away the keymap ``setxkbmap`` and ``xmodmap`` set, and a
    client connecting during the reset cannot open the display (``setxkbmap`` right after the readiness probe
    failed so, once in a full run)."""
    read, write = os.pipe()
    try:
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp",
                                 "-noreset"],
                                stdout=log, stderr=subprocess.STDOUT, pass_fds=(write,))
    finally:
        os.close(write)
    with os.fdopen(read, "rb") as chosen:
        number = chosen.readline().decode().strip()
    assert number.isdigit(), f"Xvfb named no display (exit {xvfb.poll()})"
    return xvfb, f":{number}"


@pytest.fixture
def display(tmp_path: Path) -> Iterator[str]:
    """A fresh X display (Xvfb on a free number, answering clients), stopped by its pid afterwards."""
    log = (tmp_path / "xvfb.log").open("w")
    xvfb, name = _start_xvfb(log)
    try:
        env = {**os.environ, "DISPLAY": name}
        for _ in range(100):  # the display answers a client before the test goes on
            if subprocess.run(["xdotool", "getmouselocation"], env=env, capture_output=True).returncode == 0:
                break
            assert xvfb.poll() is None, (tmp_path / "xvfb.log").read_text()
            time.sleep(0.1)
        # A Czech keyboard, as the coach's: á is a key of the map (kept: the server never resets, ``_start_xvfb``). A
        # letter the map lacks is bound to a key of its own before it is typed (Person.type).
        subprocess.run(["setxkbmap", "-display", name, "cz"], env=env, check=True, timeout=20)
        yield name
    finally:
        xvfb.terminate()
        xvfb.wait(10)
        log.close()


class Person:
    """Someone at the X display: finds the client's window, looks at it, clicks, drags and presses keys."""

    def __init__(self, display: str, shots: Path) -> None:
        """Work on ``display``; screenshots go to ``shots``."""
        self.env = {**os.environ, "DISPLAY": display}
        self.bound: set[str] = set()  # letters bound to a key of their own on this display (``_bind``)
        self.shots = shots
        self.window = ""
        self.x = self.y = self.width = self.height = 0

    def run(self, *args: str) -> str:
        """One xdotool command's output."""
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=20).stdout

    def find(self, title: str, process: subprocess.Popen[bytes], seconds: float = 40.0) -> None:
        """Wait for the window whose title holds ``title`` (shown by ``process``) and learn where it is."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and process.poll() is None:
            found = self.run("search", "--name", title).split()
            if found:
                self.window = found[0]
                geometry = self.run("getwindowgeometry", "--shell", self.window)
                values = dict(line.split("=") for line in geometry.split() if "=" in line)
                self.x, self.y = int(values["X"]), int(values["Y"])
                self.width, self.height = int(values["WIDTH"]), int(values["HEIGHT"])
                return
            time.sleep(0.3)
        raise AssertionError(f"no window titled {title!r} appeared")

    def at(self, ax: float, ay: float) -> tuple[str, str]:
        """The display pixel of the window's point (ax, ay) in arcade's coordinates (y up)."""
        return str(round(self.x + ax)), str(round(self.y + self.height - ay))

    def point(self, ax: float, ay: float) -> None:
        """Move the pointer to the window's point (ax, ay) and wait until it is there. Not when it is there already:
        ``xdotool mousemove --sync`` to where the pointer is waits 15 s for a motion that never comes."""
        x, y = self.at(ax, ay)
        where = dict(part.split(":") for part in self.run("getmouselocation").split() if ":" in part)
        if (where.get("x"), where.get("y")) != (x, y):
            self.run("mousemove", "--sync", x, y)

    def click(self, ax: float, ay: float) -> None:
        """Move the pointer there and click."""
        self.point(ax, ay)
        time.sleep(0.15)
        self.run("click", "1")
        time.sleep(0.25)

    def drag(self, start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> None:
        """Press at ``start``, pull to ``end`` through a few points, let go (a slingshot pull)."""
        self.point(*start)
        time.sleep(0.1)
        self.run("mousedown", "1")
        for i in range(1, steps + 1):
            t = i / steps
            self.run("mousemove", *self.at(start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t))
            time.sleep(0.03)
        self.run("mouseup", "1")

    def type(self, text: str) -> None:
        """Type ``text`` on the keyboard (into the window under the pointer), then let it settle.

        Every letter beyond ASCII is bound to a spare key of its own first, for good (``_bind``), so that one the
        keymap lacks never goes through xdotool's own binding: that lasts only while xdotool presses the key, and a
        client that reads the key after the binding is undone reads nothing (a Tk entry and the client under a
        loaded machine both lost an á so)."""
        for letter in dict.fromkeys(c for c in text if not c.isascii()):
            self._bind(letter)
        self.run("type", "--delay", "60", text)
        time.sleep(0.3)

    def _bind(self, letter: str) -> None:
        """Bind ``letter``'s keysym (named as xdotool names it: ``U`` and its code point) to a key with no symbols,
        once per display."""
        if letter in self.bound:
            return
        table = subprocess.run(["xmodmap", "-pke"], env=self.env, capture_output=True, text=True, timeout=20,
                               check=True).stdout.splitlines()
        spare = [line.split()[1] for line in table if "=" in line and line.split("=", 1)[1].strip() == ""]
        assert spare, "no spare key left on the display to bind a letter to"
        subprocess.run(["xmodmap", "-e", f"keycode {spare[-1]} = U{ord(letter):04X}"], env=self.env, timeout=20,
                       check=True)
        self.bound.add(letter)

    def press(self, key: str) -> None:
        """Press one key by its X name (``Return``, ``Escape``)."""
        self.run("key", key)
        time.sleep(0.3)

    def look(self, name: str) -> Path:
        """A screenshot of the display (to check pixels and to look at)."""
        path = self.shots / f"{name}.png"
        subprocess.run(["import", "-window", "root", str(path)], env=self.env, check=True, timeout=30)
        return path


class Mirror:
    """The client's views laid out in a hidden window of the client's size: where their buttons and stones are."""

    def __init__(self, width: int, height: int) -> None:
        """A hidden window as large as the client's."""
        self.window = arcade.Window(width, height, "mirror", visible=False)

    def lay(self, view):
        """Draw ``view`` once, as the client does, so its layout is computed."""
        self.window.show_view(view)
        view.draw_at(time.monotonic())
        return view

    def item(self, model: LobbyModel, command: str) -> tuple[float, float, float]:
        """The lobby button of ``command``: its centre and width."""
        view = self.lay(LobbyView(model, lambda request: None))
        button = next(b for item, b in view.layout() if item.command == command)
        return button.left + button.width / 2, button.bottom + button.height / 2, button.width

    def close(self) -> None:
        """Close the hidden window."""
        self.window.close()


def _follow(url: str, room: str) -> tuple[NetClient, NetLink, MatchState]:
    """Watch ``room`` as a spectator: the match as the person sees it on the screen."""
    client = NetClient(url, "eyes")
    link = NetLink(client)
    state = MatchState()
    client.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and state.position is None:
        for message in client.drain():
            link.apply(state, message, time.monotonic())
            if isinstance(message, Welcome):
                client.send(Watch(room))
        time.sleep(0.05)
    assert state.position is not None, f"could not watch room {room}"
    return client, link, state


def _as_coach(state: MatchState) -> MatchState:
    """The spectator's state seen from the home seat (our seat in the bot's room)."""
    import copy

    mine = copy.copy(state)
    mine.seat = "home"
    return mine


def _flick(person: Person, mirror: Mirror, state: MatchState) -> bool:
    """Pull back on the legal stone nearest the puck, away from the puck, and let go; False when there is none."""
    position = state.position
    assert position is not None
    flick = samples.toward_puck(position, "home")
    if flick is None:
        return False
    view = mirror.lay(MatchView(_as_coach(state), clock=time.monotonic))
    stone = position.stone(flick.stone)
    assert stone is not None and flick.stone in legal_stones(position, "home")
    speed = math.hypot(flick.vx, flick.vy)
    tf = view.transform()
    start = tf.to_screen(stone.x, stone.y)
    end = tf.to_screen(stone.x - flick.vx / speed * PULL_MM, stone.y - flick.vy / speed * PULL_MM)
    person.drag(start, end)
    return True


def _answer(person: Person, mirror: Mirror, state: MatchState) -> bool:
    """Click the first button of a choice the match waits for from us; False when none is awaited."""
    view = mirror.lay(MatchView(_as_coach(state), clock=time.monotonic))
    awaited = [c for c in view.choices(time.monotonic()) if c.deadline is not None]
    if not awaited or not view.prompt_buttons:
        return False
    button = view.prompt_buttons[0]
    person.click(button.left + button.width / 2, button.bottom + button.height / 2)
    return True


def _kept(config: Path, field: str, seconds: float = 30.0) -> str:
    """A field of the identity the client keeps for its one server, once it is there."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            servers = json.loads((config / "identity.json").read_text())["servers"]
            found = [entry.get(field) for entry in servers.values() if entry.get(field)]
            if found:
                return str(found[0])
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.2)
    raise AssertionError(f"the client never kept a {field} in its identity file")


def _enter_name(person: Person, mirror: Mirror, url: str, name: str, config: Path) -> None:
    """The first start on a server asks who we are: type the name into the entry, Enter; the lobby follows."""
    from client.player.name_entry import NameEntry

    entry = NameEntry(url)
    view = mirror.lay(LobbyView(entry, lambda request: None))
    field = next(b for item, b in view.layout() if item.kind == "input")
    person.click(field.left + field.width / 2, field.bottom + field.height / 2)
    person.look("0-name-entry")
    person.type(name)
    person.press("Return")
    assert _kept(config, "name") == name and _kept(config, "token")


def _step_left(person: Person, mirror: Mirror, model: LobbyModel, command: str, times: int) -> None:
    """Click the left third of a choice ``times`` times (◀), and keep the model in step."""
    x, y, width = mirror.item(model, command)
    model.focus = [item.command for item in model.items()].index(command)
    for _ in range(times):
        person.click(x - width / 2 + 20, y)
        model.key("left")


def _rgb(pixel: object) -> tuple[int, ...]:
    """A pixel of an RGB image as its three channels."""
    assert isinstance(pixel, tuple)
    return tuple(int(c) for c in pixel)


def _on_screen(picture: Path, person: Person, labels: list) -> None:
    """Each label (as the mirror laid it out) is drawn on the display: light text pixels at both ends of its width,
    none just past them (a shorter or longer line - "rating…" - would not fill that box)."""
    from PIL import Image

    image = Image.open(picture).convert("RGB")

    def lit(left: float, right: float, baseline: float) -> int:
        """Light text pixels in a band from ``left`` to ``right`` above ``baseline`` (window coordinates)."""
        top = person.y + person.height - baseline
        return sum(1 for px in range(round(left), round(right)) for py in range(round(top) - 14, round(top) + 3)
                   if min(_rgb(image.getpixel((person.x + px, py)))) > 200)

    for label in labels:
        assert label is not None and label.text
        half = label.content_width / 2
        left, right = label.x - half, label.x + half
        assert lit(left, left + 12, label.y) and lit(right - 12, right, label.y), label.text
        assert not lit(left - 40, left - 4, label.y) and not lit(right + 4, right + 40, label.y), label.text


@pytest.mark.slow(seconds=60)
def test_a_whole_match_played_with_the_mouse_in_a_real_window(display, tmp_path):
    """A name on the first start → lobby → Create a room, rated, quick, 30 s → a headless sprtec bot joins → a match
    of flicks and clicks → results with both rating changes → Save replay → My replays opens it."""
    home, config, shots = tmp_path / "home", tmp_path / "config", tmp_path / "shots"
    for folder in (home, config, shots):
        folder.mkdir()
    person = Person(display, shots)
    with served(tmp_path / "data", workers=0) as url:
        env = {**os.environ, "DISPLAY": display, "HOME": str(home), "SPRTEC_CONFIG_DIR": str(config),
               "LIBGL_ALWAYS_SOFTWARE": "1"}
        env.pop("ARCADE_HEADLESS", None)
        log = (tmp_path / "play.log").open("w")
        client = subprocess.Popen([sys.executable, "-m", "sprtec", "play", "--server", url, "--mute"], env=env,
                                  cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        mirror = eyes = None
        bot = BotProcess()
        try:
            person.find("sprtec", client)
            mirror = Mirror(person.width, person.height)
            time.sleep(1.5)  # the window shows its first screen
            _enter_name(person, mirror, url, ME, config)
            time.sleep(1.0)  # the lobby is welcomed by the server
            person.look("1-lobby")
            model = LobbyModel(origin=f"Server {url}")
            model.apply(Welcome(1, "sprtec", ME, "t"))
            x, y, _w = mirror.item(model, "screen:create")
            person.click(x, y)
            model.activate("screen:create")
            _step_left(person, mirror, model, "cycle:ruleset", 1)  # standard → quick (one 5-minute period)
            _step_left(person, mirror, model, "cycle:period", 4)  # ◀ on the period: 5 → 3 → 2 → 1 → 0.5 minutes
            assert model.ruleset == "quick" and model.period == 0.5
            x, y, _w = mirror.item(model, "cycle:rated")
            person.click(x, y)  # casual → rated
            model.activate("cycle:rated")
            assert model.rated
            person.look("2-create-a-rated-room")
            x, y, _w = mirror.item(model, "create")
            person.click(x, y)

            room = _kept(config, "room")
            bot.start(url, room, "quick", {"period_ms": 30_000}, "easy")  # the opponent: a headless sprtec bot
            eyes, link, state = _follow(url, room)
            deadline = time.monotonic() + MATCH_SECONDS
            acted_on, acted_at, free_since, shot_taken = -1, 0.0, None, False
            while link.ended is None and time.monotonic() < deadline:
                now = time.monotonic()
                link.poll(state, now)
                state.update(now)
                position = state.position
                idle = position is not None and not state.locked(now) and not state.waiting_for_opponent() \
                    and position.result is None
                free_since = (free_since or now) if idle else None
                # act once the board has been still a moment (the client plays the last move back too), and again
                # if nothing came of it (a pull that missed, a refusal)
                if not idle or now - free_since < 0.5 or (state.version == acted_on and now - acted_at < 4.0):
                    time.sleep(0.05)
                    continue
                if _answer(person, mirror, state) or (position.to_move == "home" and _flick(person, mirror, state)):
                    acted_on, acted_at = state.version, time.monotonic()
                ours = [e for e in state.moves if e.team == "home" and " m/s" in e.what]
                if not shot_taken and len(ours) >= 2:
                    person.look("3-match")
                    shot_taken = True
                    person.press("Return")  # chat: every key is the line's until Return sends it
                    person.type(CHAT_LINE)
                    person.press("Return")
                    person.look("3-chat")
                time.sleep(0.05)
            ours = [e for e in state.moves if e.team == "home" and " m/s" in e.what]
            assert link.ended is not None, f"the match did not end in {MATCH_SECONDS:g} s ({len(ours)} flicks)"
            assert len(ours) >= 2, f"our flicks were not played: {state.moves}"
            heard = [(line.player, line.seat, line.text) for line in link.chat.lines]
            assert (ME, "home", CHAT_LINE) in heard, f"the line typed in the chat did not reach the room: {heard}"

            for _ in range(100):  # the ratings' news follows MatchEnded
                if link.rated_news is not None:
                    break
                link.poll(state, time.monotonic())
                time.sleep(0.1)
            assert link.rated_news is not None and link.rated_news.match_id == link.ended.match_id
            lines = results_lines(True, link.rated_news, link.ended.match_id, state.coaches_named(), 0.0)
            assert lines[0].startswith(ME) and " → " in lines[0]
            time.sleep(4.0)  # the last move plays back, then the results screen
            results = mirror.lay(ResultsView(_as_coach(state), link.ended, lambda command: None,
                                             ratings=lambda: lines))
            _on_screen(person.look("4-results"), person, [results.texts.peek(f"ratings{i}") for i in range(2)])
            save = next(b for b in results.buttons if b.command == "save")
            person.click(save.left + save.width / 2, save.bottom + save.height / 2)
            saved = home / "sprtec-replays" / f"{link.ended.match_id}.json"
            for _ in range(100):
                if saved.exists():
                    break
                time.sleep(0.1)
            assert saved.exists(), "Save replay wrote no file"
            assert json.loads(saved.read_text())["format"] == "sprtec-scenario/1"
            person.look("5-saved")
            back = next(b for b in results.buttons if b.command == "lobby")
            person.click(back.left + back.width / 2, back.bottom + back.height / 2)
            time.sleep(0.8)

            model.back_from_match()
            x, y, _w = mirror.item(model, "screen:replays")
            person.click(x, y)
            model.replay_folders = (home, tmp_path)
            model.activate("screen:replays")
            assert model.replays and model.replays[0].path == saved
            time.sleep(0.5)
            person.look("6-my-replays")
            x, y, _w = mirror.item(model, "open:0")
            person.click(x, y)
            time.sleep(2.5)
            picture = person.look("7-replay")

            from PIL import Image

            image = Image.open(picture).convert("RGB")
            bar = [image.getpixel((person.x + px, person.y + person.height - 89)) for px in range(40, 1200, 40)]
            assert all(p in ((60, 66, 76), (30, 80, 200), (240, 240, 240)) for p in bar), bar  # the scrub bar
            assert client.poll() is None, "the client stopped"
        finally:
            bot.stop()
            if eyes is not None:
                eyes.close()
            if mirror is not None:
                mirror.close()
            client.terminate()
            client.wait(15)
            log.close()
    text = (tmp_path / "play.log").read_text()
    assert "exit status -15" not in text and "Traceback" not in text, text[-2000:]


def _tournament_state(url: str, tid: str) -> object:
    """The tournament as a watcher sees it now (its first TournamentUpdate), over a connection of its own."""
    from websockets.sync.client import connect

    from shared.protocol import (
        PROTOCOL_VERSION,
        SERVER_MESSAGES,
        Hello,
        TournamentUpdate,
        WatchTournament,
        decode,
        encode,
    )

    with connect(url, compression=None, open_timeout=10) as socket:
        socket.send(encode(Hello(PROTOCOL_VERSION, "tests-watcher")))
        socket.send(encode(WatchTournament(tid)))
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            message = decode(socket.recv(timeout=10), SERVER_MESSAGES)
            if isinstance(message, TournamentUpdate):
                return message
    raise AssertionError("no TournamentUpdate")


def test_an_entry_code_typed_and_entered_with_return_claims_the_prepared_entry(display, tmp_path):
    """The club event's registration, by keyboard: the organiser prepared Lucie Bílá's entry; the player, named
    Eva Malá on this server, opens Tournaments, chooses the cup, leaves the pointer resting on "Enter as myself",
    types the code and presses Return - the code claims the prepared entry (no second entry is made), and her
    accented name typed on the first start arrived whole."""
    from client.player.tournament_list import TournamentsPage
    from shared.protocol import TournamentInfo, TournamentList

    home, config, shots = tmp_path / "home", tmp_path / "config", tmp_path / "shots"
    for folder in (home, config, shots):
        folder.mkdir()
    person = Person(display, shots)
    file = tmp_path / "cup.json"
    file.write_text(json.dumps({"name": "Velká cena Brna", "seed": 5, "stages": [{"system": "swiss", "rounds": 3}],
                                "players": [{"id": "lucie", "name": "Lucie Bílá"},
                                            {"id": "tomas", "name": "Tomáš Dvořák"}]}))
    with served(tmp_path / "data", workers=0) as url:
        env = {**os.environ, "DISPLAY": display, "HOME": str(home), "SPRTEC_CONFIG_DIR": str(config),
               "LIBGL_ALWAYS_SOFTWARE": "1"}
        env.pop("ARCADE_HEADLESS", None)
        created = subprocess.run([sys.executable, "-m", "sprtec", "tournament", "create", str(file), "--server", url,
                                  "--json"], env={**env, "SPRTEC_CONFIG_DIR": str(tmp_path / "organiser")},
                                 capture_output=True, text=True, timeout=60, check=True)
        answer = json.loads(created.stdout)
        tid = answer["tournament"]
        code = next(e["code"] for e in answer["entries"] if e["entry"] == "lucie")
        log = (tmp_path / "play.log").open("w")
        client = subprocess.Popen([sys.executable, "-m", "sprtec", "play", "--server", url, "--mute"], env=env,
                                  cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        mirror = None
        try:
            person.find("sprtec", client)
            mirror = Mirror(person.width, person.height)
            time.sleep(1.5)
            _enter_name(person, mirror, url, "Eva Malá", config)
            time.sleep(1.0)
            model = LobbyModel(origin=f"Server {url}")
            model.apply(Welcome(1, "sprtec", "Eva Malá", "t"))
            x, y, _w = mirror.item(model, "tournaments")
            person.click(x, y)
            time.sleep(1.5)  # the list comes from the server
            page = TournamentsPage()
            page.apply(TournamentList((TournamentInfo(tournament=tid, name="Velká cena Brna", status="registering",
                                                      stage=0, round=0, entries=2, playing=0),)))
            view = mirror.lay(LobbyView(page, lambda request: None))
            row = next(b for item, b in view.layout() if item.command == f"choose:{tid}")
            person.click(row.left + row.width / 2, row.bottom + row.height / 2)
            page.activate(f"choose:{tid}")
            view = mirror.lay(LobbyView(page, lambda request: None))
            myself = next(b for item, b in view.layout() if item.command == "join")
            person.point(myself.left + myself.width / 2, myself.bottom + myself.height / 2)
            time.sleep(0.3)
            person.look("8-tournament-chosen")
            person.type(code.lower())
            person.press("Return")
            deadline = time.monotonic() + 20
            update = _tournament_state(url, tid)
            while time.monotonic() < deadline:
                update = _tournament_state(url, tid)
                if any(e.claimed for e in update.entries):
                    break
                time.sleep(0.5)
            person.look("9-entered-with-the-code")
            entries = {e.name: e.claimed for e in update.entries}
            assert entries == {"Lucie Bílá": True, "Tomáš Dvořák": False}, entries  # no second entry
            assert _kept(config, "name") == "Eva Malá"
            assert client.poll() is None, "the client stopped"
        finally:
            if mirror is not None:
                mirror.close()
            client.terminate()
            client.wait(15)
            log.close()
    text = (tmp_path / "play.log").read_text()
    assert "Traceback" not in text, text[-2000:]

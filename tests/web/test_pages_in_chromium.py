"""The pages in a real headless Chromium against a real server: a bots' tournament followed live to its end, a
match watched from its middle to the siren, a replay stepped, a phone and a hall's big screen."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.polling import until
from tests.web.browser import (
    BIG_SCREEN,
    PHONE,
    browser,
    free_port,
    get_json,
    shots_dir,
    skip_without_browser,
    sprtec,
    wait_ready,
)

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
SHORT = ["--setting", "periods=1", "--setting", "period_ms=20000", "--setting", "break_ms=0",
         "--setting", "move_clock_ms=3000", "--setting", "choice_timeout_ms=1000"]
# The tournament's matches are shorter: the page is under test, not the matches (the watched one is the bots'). The
# test follows it from the first round's standings: the 3-second gap before the second round is one version it sees.
TOURNAMENT_SHORT = [*SHORT[:2], "--setting", "period_ms=10000", *SHORT[4:]]


@dataclass
class Hall:
    """A server with a bots' quick match on it."""

    base: str
    url: str
    data: Path
    folder: Path
    room: str
    shots: Path


def _file(folder: Path) -> Path:
    """A 4-player Swiss of 2 rounds, with names to find."""
    names = ["Jan Novák", "Petr Svoboda", "Tomáš Dvořák", "Martin Černý"]
    players = [{"id": f"p{i}", "name": n, "club": "SK Brno", "rating": 1800 - 10 * i} for i, n in enumerate(names)]
    path = folder / "tournament.json"
    path.write_text(json.dumps({"format": "sprtec-tournament/1", "name": "Brno open", "seed": 7, "players": players,
                                "stages": [{"system": "swiss", "rounds": 2}]}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    """`sprtec serve`, and two `sprtec bot --quick-match` playing on it."""
    skip_without_browser()
    folder = tmp_path_factory.mktemp("hall")
    data, port = folder / "data", free_port()
    base, url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/"
    children = [sprtec("serve", "--data", str(data), "--port", str(port), "--workers", "1", log=folder / "server.log")]
    try:
        wait_ready(base)
        for name in ("Ann", "Bob"):
            children.append(sprtec("bot", "--server", url, "--quick-match", "--ruleset", "quick", "--random",
                                   "--name", name, *SHORT, log=folder / f"bot-{name}.log"))
        room = until(lambda: [r["code"] for r in get_json(base, "/api/v1/rooms")["rooms"] if r["tournament"] is None],
                     60, "the bots' quick match starts")[0]
        yield Hall(base=base, url=url, data=data, folder=folder, room=room, shots=shots_dir(folder / "shots"))
    finally:
        for child in reversed(children):
            child.terminate()
        for child in children:
            child.wait(30)


@pytest.fixture
def tournament(hall: Hall) -> Iterator[str]:
    """A bots' tournament started on the hall's server for this test (`sprtec tournament run --bots --server`): its
    id, once created."""
    known = {t["id"] for t in get_json(hall.base, "/api/v1/tournaments")["tournaments"]}
    child = sprtec("tournament", "run", str(_file(hall.folder)), "--bots", "--server", hall.url, "--data",
                   str(hall.data), "--level", "random", "--gap-ms", "3000", *TOURNAMENT_SHORT,
                   log=hall.folder / "run.log")
    try:
        yield until(lambda: [t["id"] for t in get_json(hall.base, "/api/v1/tournaments")["tournaments"]
                             if t["id"] not in known], 60, "the tournament is created")[0]
    finally:
        child.terminate()
        child.wait(30)


def _stones(position: dict[str, Any]) -> list[tuple[str, float, float, bool]]:
    """A position's stones and puck as (id, x, y, flipped), to compare the page's with the server's."""
    stones = [(s["id"], s["x"], s["y"], bool(s.get("flipped"))) for s in position["stones"]]
    return [*sorted(stones), ("puck", position["puck"]["x"], position["puck"]["y"], False)]


def _page(context: Any, base: str, path: str, viewport: dict[str, int], language: str) -> Any:
    """A new tab on ``path`` in ``language``; a script error fails the test."""
    page = context.new_page()
    page.set_viewport_size(viewport)
    page.set_extra_http_headers({"Accept-Language": language})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base}{path}")
    page.errors = errors
    return page


def test_a_match_watched_from_its_middle_to_the_siren_shows_the_stones_where_the_server_put_them(hall: Hall) -> None:
    """A late arrival gets the moves so far; every move after is played back; at the end the board's stones and
    puck are exactly the final position of the server's last move, and the move list has every move."""
    until(lambda: len(get_json(hall.base, f"/api/v1/rooms/{hall.room}/moves")["moves"]) >= 4, 60, "a few moves")
    with browser() as context:
        page = _page(context, hall.base, f"/watch/{hall.room}", {"width": 1280, "height": 800}, "cs")
        page.wait_for_function("window.sprtec.version && window.sprtec.version() > 0", timeout=30_000)
        arrived = page.evaluate("window.sprtec.version()")
        page.wait_for_timeout(3000)
        page.screenshot(path=str(hall.shots / "watch-live-cs.png"))
        page.wait_for_function("document.getElementById('status').textContent.length > 0", timeout=120_000)
        page.wait_for_function("window.sprtec.player.idle()", timeout=60_000)
        match_id = page.evaluate("document.querySelector('#status a').getAttribute('href').split('/').pop()")
        moves = get_json(hall.base, f"/api/v1/matches/{match_id}/moves")["moves"]
        shown = page.evaluate("window.sprtec.shown()")
        listed = page.locator("#moves li.move").count()
        page.screenshot(path=str(hall.shots / "watch-end-cs.png"))
        assert not page.errors, page.errors
    assert moves[0]["version"] <= arrived < moves[-1]["version"]  # it came in the middle
    assert _stones(shown) == _stones(moves[-1]["position"])
    assert shown["score"] == moves[-1]["position"]["score"]
    assert listed == len(moves)


def test_a_replay_steps_move_by_move_to_the_servers_positions(hall: Hall) -> None:
    """On /replays/ID each Next plays the next move back and stops at its position; Back goes to the one before."""
    match_id = until(lambda: _last_match(hall.base, "Ann"), 180, "the bots' quick match ends", every=2)
    moves = get_json(hall.base, f"/api/v1/matches/{match_id}/moves")["moves"]
    with browser() as context:
        page = _page(context, hall.base, f"/replays/{match_id}", {"width": 1280, "height": 800}, "en")
        page.wait_for_selector("#next")
        for step in range(1, 4):
            page.click("#next")
            page.wait_for_function(f"window.sprtec.index() === {step} && window.sprtec.player.idle()", timeout=30_000)
            assert _stones(page.evaluate("window.sprtec.shown()")) == _stones(moves[step - 1]["position"])
        assert page.inner_text("#status") == f"Move 3 of {len(moves)}"
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("window.sprtec.index() === 2")
        assert _stones(page.evaluate("window.sprtec.shown()")) == _stones(moves[1]["position"])
        page.screenshot(path=str(hall.shots / "replay-en.png"))
        assert not page.errors, page.errors


def _last_match(base: str, player: str) -> str | None:
    """The id of the player's last finished match, once he has one."""
    if not _exists(base, f"/api/v1/players/{player}"):
        return None
    last = get_json(base, f"/api/v1/players/{player}")["last"]
    return str(last[0]["match_id"]) if last else None


def _exists(base: str, path: str) -> bool:
    """The API answers ``path`` with 200."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"{base}{path}", timeout=10) as answer:
            return bool(answer.status == 200)
    except urllib.error.HTTPError:
        return False


def test_the_tournament_page_follows_the_tournament_live_to_its_final_standings(hall: Hall, tournament: str) -> None:
    """Opened while a round is played, the page updates by itself (no reload) until the tournament is finished; its
    standings and final ranking are then the API's, a player finds his own line by his name, and it fits a phone
    and a big screen."""
    with browser() as context:
        phone = _page(context, hall.base, f"/tournaments/{tournament}", PHONE, "cs")
        phone.wait_for_selector("#tables table, #tables p")
        seen = {phone.evaluate("document.body.dataset.version")}
        phone.screenshot(path=str(hall.shots / "tournament-phone-cs.png"), full_page=True)
        big = _page(context, hall.base, f"/tournaments/{tournament}", BIG_SCREEN, "en")
        big.wait_for_selector("#standings table")
        big.screenshot(path=str(hall.shots / "tournament-big-en.png"))
        deadline = time.monotonic() + 300
        while phone.evaluate("document.body.dataset.status") != "finished" and time.monotonic() < deadline:
            seen.add(phone.evaluate("document.body.dataset.version"))
            time.sleep(1)
        assert phone.evaluate("document.body.dataset.status") == "finished"
        assert len(seen) > 2  # it changed under our eyes, without a reload
        standings = get_json(hall.base, f"/api/v1/tournaments/{tournament}/standings")["standings"]
        names = {p["id"]: p["name"] for p in get_json(hall.base, f"/api/v1/tournaments/{tournament}")["players"]}
        rows = phone.locator("#standings tbody tr")
        entries = [rows.nth(i).get_attribute("data-entry") for i in range(rows.count())]
        assert entries == [s["player"] for s in standings]
        assert [int(rows.nth(i).locator("td.points").inner_text()) for i in range(rows.count())] == \
            [s["points"] for s in standings]
        phone.wait_for_function("document.body.dataset.ranking === 'final'", timeout=30_000)
        ranking = get_json(hall.base, f"/api/v1/tournaments/{tournament}/ranking")["ranking"]
        ranked = phone.locator("#ranking tbody tr")
        assert [ranked.nth(i).get_attribute("data-entry") for i in range(ranked.count())] == \
            [r["player"] for r in ranking]
        phone.fill("#find", "cerny")  # without the accents, as typed on a phone
        phone.wait_for_function("document.body.dataset.mine === 'p3'")
        assert names["p3"] == "Martin Černý"
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        phone.screenshot(path=str(hall.shots / "tournament-phone-final-cs.png"), full_page=True)
        big.wait_for_function("document.body.dataset.status === 'finished'")
        big.screenshot(path=str(hall.shots / "tournament-big-final-en.png"), full_page=True)
        assert not phone.errors and not big.errors, phone.errors + big.errors


def test_the_home_page_and_a_profile_in_czech_and_english(hall: Hall, tournament: str) -> None:
    """/ lists the live matches and the tournament, each a link; a profile shows ratings with RD and last matches
    linking to their replays."""
    with browser() as context:
        for language in ("cs", "en"):
            home = _page(context, hall.base, "/", {"width": 1280, "height": 800}, language)
            home.wait_for_selector(f"#tournaments a[href='/tournaments/{tournament}']")
            home.screenshot(path=str(hall.shots / f"home-{language}.png"))
            assert home.evaluate("document.documentElement.lang") == language
            assert not home.errors, home.errors
        until(lambda: _last_match(hall.base, "Ann"), 180, "Ann's match ends", every=2)
        for language in ("cs", "en"):
            profile = _page(context, hall.base, "/players/Ann", {"width": 1280, "height": 800}, language)
            profile.wait_for_selector("a[href^='/replays/']")
            profile.screenshot(path=str(hall.shots / f"profile-{language}.png"))
            assert not profile.errors, profile.errors


def test_a_finished_knockout_draws_its_bracket_and_the_leaderboard_page_answers(hall: Hall) -> None:
    """A knockout of 12 created from its finished file (``sprtec tournament create``): the page draws the bracket,
    one column a round, each match's winner marked as the file has it; /leaderboard draws its page (nobody is
    established on this young server: it says so) in Polish."""
    file = ROOT / "tests" / "tournament" / "golden" / "knockout-12" / "final.tournament.json"
    created = subprocess.run([sys.executable, "-m", "sprtec", "tournament", "create", str(file), "--server", hall.url,
                              "--as", "Organiser", "--json"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert created.returncode == 0, created.stderr
    tid = json.loads(created.stdout)["tournament"]
    t = json.loads(file.read_text(encoding="utf-8"))
    names = {p["id"]: p["name"] for p in t["players"]}
    last = t["results"][-1]["matches"]
    winners = sorted(names[m["home"] if m["score"][0] > m["score"][1] else m["away"]] for m in last)
    with browser() as context:
        page = _page(context, hall.base, f"/tournaments/{tid}", BIG_SCREEN, "en")
        page.wait_for_selector("#bracket .bracket-match")
        columns = page.locator("#bracket .bracket-round")
        assert columns.count() == len(t["results"])
        marked = columns.nth(columns.count() - 1).locator(".bracket-side.winner span")
        assert sorted(marked.nth(i).inner_text().strip() for i in range(marked.count())) == winners
        page.screenshot(path=str(hall.shots / "tournament-bracket-en.png"), full_page=True)
        board = _page(context, hall.base, "/leaderboard", {"width": 1280, "height": 800}, "pl")
        board.wait_for_selector("p.empty, table")
        assert board.evaluate("document.documentElement.lang") == "pl"
        board.screenshot(path=str(hall.shots / "leaderboard-pl.png"))
        assert not page.errors and not board.errors, page.errors + board.errors

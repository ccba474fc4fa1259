"""The league's page in a real headless Chromium against a real server: a three-team day entered on boards, the page
in Czech and English showing the table, the team matches with their team scores and the grid of the one being
played, the home page linking to it; no script error. Screenshots in the shots folder (``SPRTEC_SHOTS``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.client.test_league_hall import _play
from tests.web.browser import browser, free_port, shots_dir, skip_without_browser, sprtec, wait_ready

pytestmark = pytest.mark.slow


def test_the_league_page_shows_its_table_and_its_team_matches_grids(tmp_path: Path) -> None:
    """Two team matches finished and the third in its round 3: three grids, the table's three teams, in cs and en."""
    skip_without_browser()
    data, port = tmp_path / "data", free_port()
    base, url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/"
    server = sprtec("serve", "--data", str(data), "--port", str(port), "--workers", "0", log=tmp_path / "server.log")
    shots = shots_dir(tmp_path / "shots")
    try:
        wait_ready(base)
        lid, update = asyncio.run(_play(url))
        with browser() as context:
            for language in ("cs", "en"):
                page = context.new_page()
                page.set_viewport_size({"width": 1280, "height": 1400})
                page.set_extra_http_headers({"Accept-Language": language})
                errors: list[str] = []
                page.on("pageerror", lambda error, found=errors: found.append(str(error)))
                page.goto(f"{base}/leagues/{lid}")
                page.wait_for_selector("table.grid")
                page.wait_for_selector("#table tbody tr")
                assert page.locator("table.grid").count() == 3
                assert page.locator("#table tbody tr").count() == 3
                assert page.locator("table.grid td.won, table.grid td.lost, table.grid td.draw").count() == 65
                assert page.evaluate("document.documentElement.lang") == language
                page.screenshot(path=str(shots / f"league-page-{language}.png"), full_page=True)
                home = context.new_page()
                home.goto(f"{base}/")
                home.wait_for_selector(f"#leagues a[href='/leagues/{lid}']")
                assert not errors, errors
        assert update.day == 1
    finally:
        server.terminate()
        server.wait(30)

"""The hall of a team league as a club runs it: a real ``sprtec serve``, a three-team day of 5-player teams whose
games are entered by hand (two team matches finished, the third in its round 3), and ``sprtec hall --league``'s
headless pictures of the third match's 5 × 5 grid filling with results and of the league table, in English and in
Czech; the grid's words come from the pure model, checked against the same update. Set ``SPRTEC_SHOTS=DIR`` to keep
the pictures there."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from client.common import i18n
from client.common.league_model import grid_of, match_heading, match_state, table_lines
from shared.protocol import (
    CreateLeague,
    LeagueCreated,
    LeagueDone,
    LeagueResult,
    LeagueUpdate,
    OpenMatchDay,
    Score,
    StartLeagueRound,
    SubmitLineup,
    WatchLeague,
)
from sprtec.commands.tournament_client import Connection
from tests.client.helpers import served

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "league-demo.json"


async def _play(url: str) -> tuple[str, LeagueUpdate]:
    """Create the demo league, open day 1, give every line-up, and enter on boards d1f1 and d1f2 whole and three
    rounds of d1f3; the last update."""
    organiser = await Connection.open(url, "organiser")
    created = await organiser.ask(CreateLeague(file=DEMO.read_text(encoding="utf-8")), LeagueCreated)
    lid, secret = created.league, created.secret
    await organiser.ask(OpenMatchDay(lid, secret, 1), LeagueDone)
    file = json.loads(DEMO.read_text(encoding="utf-8"))
    rosters = {t["id"]: tuple(p["id"] for p in t["players"]) for t in file["teams"]}
    day = [f for f in file["fixtures"] if f["day"] == 1]
    for f in day:
        for team in (f["home"], f["away"]):
            await organiser.ask(SubmitLineup(league=lid, fixture=f["id"], players=rosters[team], team=team,
                                             secret=secret), LeagueDone)
    for index, f in enumerate(day):
        for number in range(1, 6 if index < 2 else 4):
            await organiser.ask(StartLeagueRound(league=lid, secret=secret, fixture=f["id"], boards=True), LeagueDone)
            for board in range(1, 6):
                goals = (board * 3 + number + index) % 4, (board + number * 2) % 3
                await organiser.ask(LeagueResult(league=lid, secret=secret, fixture=f["id"], round=number,
                                                 board=board, score=Score(*goals)), LeagueDone)
    update = await organiser.ask(WatchLeague(lid), LeagueUpdate)
    await organiser.close()
    return lid, update


def _hall(url: str, lid: str, page: str, shot: Path, language: str, config: Path) -> None:
    """``sprtec hall --league`` saves the page's picture in the language."""
    env = dict(os.environ, ARCADE_HEADLESS="1", SPRTEC_CONFIG_DIR=str(config), LANGUAGE=language)
    done = subprocess.run([sys.executable, "-m", "sprtec", "hall", "--server", url, "--league", lid, "--page", page,
                           "--screenshot", str(shot)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    with Image.open(shot) as image:
        assert image.size == (1280, 760)
        assert len(set(image.convert("RGB").getdata())) > 50


@pytest.mark.slow
def test_the_hall_shows_a_team_match_as_a_grid_and_the_league_table(tmp_path: Path) -> None:
    """The third match's grid: 15 squares with results, 10 to come, the team score of those 15 games; the table:
    one team that played two matches and two that played one, and the players' season lines under it; pictures in
    English and Czech."""
    keep = os.environ.get("SPRTEC_SHOTS")
    with served(tmp_path / "data", 0) as url:
        lid, update = asyncio.run(_play(url))
        third = next(f for f in update.fixtures if f.fixture == "d1f3")
        grid = grid_of(update, third)
        flat = [c for row in grid.cells for c in row]
        assert sum(c.state == "played" for c in flat) == 15 and sum(c.state == "later" for c in flat) == 10
        assert sum(grid.row_won) + sum(grid.column_won) == sum(grid.score) == third.team_score.home + \
            third.team_score.away
        assert match_heading(grid).startswith("Kladno  ") and match_state(grid).startswith("Round 3 of 5")
        assert sorted(line.played for line in table_lines(update)) == [1, 1, 2]
        assert sum(p.won for p in update.players) == sum(r.games_for for r in update.table)  # the season lines
        i18n.set_language("cs")
        try:
            assert match_state(grid).startswith("Směna 3 z 5")
        finally:
            i18n.set_language("en")
        for language in ("en", "cs"):
            for page in ("match:d1f3", "table"):
                shot = tmp_path / f"league-{page.replace(':', '-')}-{language}.png"
                _hall(url, lid, page, shot, language, tmp_path / f"hall-{language}")
                if keep:
                    Path(keep).mkdir(parents=True, exist_ok=True)
                    shutil.copy(shot, Path(keep) / shot.name)

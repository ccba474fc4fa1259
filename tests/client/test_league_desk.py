"""The organiser's desk of a league day against a real server, without a window: the day opened, both line-ups given
board by board, a round started on boards and its results entered, the team score as the server counts it; then
``sprtec organise --league``'s pictures of the day's screen and of a line-up being given, in English and Czech
(``SPRTEC_SHOTS=DIR`` keeps them)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from client.common import i18n
from client.desk.league_desk_model import LeagueDeskModel
from shared.protocol import CreateLeague, LeagueCreated
from tests.client.tournament_world import Wire, running_server
from tests.league_server.helpers import league_file

ROOT = Path(__file__).resolve().parents[2]


def _pump(desk: Wire, model: LeagueDeskModel, done: Callable[[], bool], what: str) -> None:
    """The server's news into the model until ``done``."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for message in desk.client.drain():
            model.apply(message)
        if done():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}: {model.error}")


def _act(desk: Wire, model: LeagueDeskModel, command: str) -> None:
    """A command of the desk; what it asks is sent."""
    request = model.activate(command)
    for message in ([request] if request is not None else []) + model.take_pending():
        desk.send(message)  # type: ignore[arg-type]


def _fixture(model: LeagueDeskModel, fixture: str) -> object:
    """A fixture's line of the latest update."""
    assert model.update is not None
    return next(f for f in model.update.fixtures if f.fixture == fixture)


@pytest.mark.slow
def test_the_desk_runs_a_league_day_on_boards(tmp_path: Path) -> None:
    """Open day 1; give Most's line-up in the order m2, m1 (one ←/→ on each board) and Brno's as listed; start
    round 1 on boards; enter 2:1 and 0:0; the team score is 1:0 and the next round is offered."""
    with running_server(tmp_path / "data") as url:
        organiser = Wire(url, "organiser")
        organiser.send(CreateLeague(file=json.dumps(league_file(size=2))))
        created = organiser.expect(LeagueCreated)
        desk = Wire(url, "desk")
        model = LeagueDeskModel(server=url, league=created.league, secret=created.secret)
        for request in model.first_requests():
            desk.send(request)
        _pump(desk, model, lambda: model.update is not None, "the league")
        assert [i.command for i in model.items()] == ["day:1", "quit"]
        _act(desk, model, "day:1")
        _pump(desk, model, lambda: model.update is not None and model.update.day == 1, "day 1")
        commands = [i.command for i in model.items()]
        assert "lineup:d1f1:most" in commands and "lineup:d1f1:brno" in commands
        _act(desk, model, "lineup:d1f1:most")
        assert [i.label for i in model.items()][:2] == ["Board 1: BHC Most 1", "Board 2: BHC Most 2"]
        model.cycle("board:0", 1)
        assert not next(i for i in model.items() if i.command == "give").enabled  # m2 on both boards
        model.cycle("board:1", -1)
        _act(desk, model, "give")
        _pump(desk, model, lambda: _fixture(model, "d1f1").lineup_home_in, "Most's line-up")  # type: ignore
        _act(desk, model, "lineup:d1f1:brno")
        _act(desk, model, "give")
        _pump(desk, model, lambda: _fixture(model, "d1f1").lineup_away_in, "both line-ups")  # type: ignore
        assert _fixture(model, "d1f1").lineup_home == ("m2", "m1")  # type: ignore[attr-defined]
        _act(desk, model, "boards:d1f1")
        _pump(desk, model, lambda: any(i.command == "results:d1f1" for i in model.items()), "round 1 on boards")
        _act(desk, model, "results:d1f1")
        for _ in range(2):
            model.cycle("goals:1:0", 1)
        model.cycle("goals:1:1", 1)
        _act(desk, model, "save")
        _pump(desk, model, lambda: all(g.status == "ended" for g in _fixture(model, "d1f1").games), "the results")  # type: ignore
        line = _fixture(model, "d1f1")
        assert (line.team_score.home, line.team_score.away) == (1, 0)  # type: ignore[attr-defined]
        assert "start:d1f1" in [i.command for i in model.items()] and model.screen == "home"
        keep = os.environ.get("SPRTEC_SHOTS")
        for language in ("en", "cs"):
            for screen in ("home", "lineup"):
                shot = tmp_path / f"league-desk-{screen}-{language}.png"
                env = dict(os.environ, ARCADE_HEADLESS="1", SPRTEC_CONFIG_DIR=str(tmp_path / f"c-{language}"),
                           LANGUAGE=language)
                done = subprocess.run([sys.executable, "-m", "sprtec", "organise", "--league", created.league,
                                       "--server", url, "--secret", created.secret, "--screenshot", str(shot),
                                       "--league-screen", screen], cwd=ROOT, env=env, capture_output=True, text=True,
                                      timeout=120)
                assert done.returncode == 0, done.stderr
                with Image.open(shot) as image:
                    assert len(set(image.convert("RGB").getdata())) > 30
                if keep:
                    Path(keep).mkdir(parents=True, exist_ok=True)
                    shutil.copy(shot, Path(keep) / shot.name)
        desk.close()
        organiser.close()
    i18n.set_language("en")

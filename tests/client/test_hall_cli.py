"""``sprtec hall`` as a user runs it: a real ``sprtec serve`` on port 0, a tournament created from the example file
with ``sprtec tournament create``, and the hall's screenshot of its standings (headless); an unknown tournament is
refused with the server's word and exit status 1."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from PIL import Image

from tests.client.helpers import served

ROOT = Path(__file__).resolve().parents[2]


def _sprtec(*args: str, config: Path) -> subprocess.CompletedProcess[str]:
    """Run ``sprtec`` with the test's own config directory (headless)."""
    env = dict(os.environ, ARCADE_HEADLESS="1", SPRTEC_CONFIG_DIR=str(config))
    return subprocess.run([sys.executable, "-m", "sprtec", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=180)


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

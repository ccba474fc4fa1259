"""The saved replays a player can open from the lobby ("My replays"), and the players' names that go with them
(no arcade).

Why here: ``client.match.replay_saver`` keeps matches in ``~/sprtec-replays`` (or the current directory when the home
is not writable), so "My replays" lists the ``.json`` files of both places, newest first, without a terminal.
An exported scenario may carry the coaches' names as a ``players`` object ({"home": …, "away": …}); older servers'
do not, so the saver also writes them beside the replay as ``<match>.players.json``. Both are read — the list and
the replay alike — the object in the file first, set aside before the scenario is parsed.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from client.common.i18n import _
from client.match.replay_saver import FOLDER
from shared.notation import Scenario, scenario_from_json

PLAYERS_SUFFIX = ".players.json"
LIMIT = 200  # the most replays listed


@dataclass(frozen=True, slots=True)
class ReplayFile:
    """One saved replay: where it is, when it was saved, and the coaches' names if known."""

    path: Path
    modified: float
    names: dict[str, str]
    score: tuple[int, int] | None = None  # the final score, when it was kept beside the replay

    def label(self) -> str:
        """One line for the list: the names (or the file name) with the final score, and the date."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.modified))
        home, away = self.names.get("home", _("Home")), self.names.get("away", _("Away"))
        if self.score is not None:
            who = f"{home} {self.score[0]}:{self.score[1]} {away}"
        else:
            who = _("{home} v {away}").format(home=home, away=away) if self.names else self.path.stem
        return f"{who}  ·  {when}  ·  {self.path.name}"


def folders(home: Path | None = None, here: Path | None = None) -> list[Path]:
    """Where saved replays are: ``~/sprtec-replays`` and the current directory."""
    found = []
    try:
        found.append((home or Path.home()) / FOLDER)
    except RuntimeError:  # no home directory known
        pass
    found.append(here or Path.cwd())
    return found


def players_path(replay: Path) -> Path:
    """The names file written beside ``replay``."""
    return replay.with_name(replay.stem + PLAYERS_SUFFIX)


def _names(raw: Any) -> dict[str, str]:
    """A {"home": name, "away": name} object, kept only when well formed."""
    if not isinstance(raw, dict):
        return {}
    return {team: str(raw[team])[:32] for team in ("home", "away") if isinstance(raw.get(team), str) and raw[team]}


def score_of(replay: Path) -> tuple[int, int] | None:
    """The final score kept in a replay's names file (``score``: [home, away]), else None."""
    try:
        raw = json.loads(players_path(replay).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    score = raw.get("score") if isinstance(raw, dict) else None
    if isinstance(score, list) and len(score) == 2 and all(type(goals) is int and 0 <= goals < 1000
                                                             for goals in score):
        return (score[0], score[1])
    return None


def names_of(replay: Path) -> dict[str, str]:
    """The coaches' names of a replay: from its names file, else empty."""
    try:
        return _names(json.loads(players_path(replay).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return {}


def embedded_names(text: str) -> dict[str, str]:
    """The coaches' names a scenario's text carries itself (its ``players`` object), else empty."""
    if '"players"' not in text:
        return {}
    try:
        raw = json.loads(text)
    except ValueError:
        return {}
    return _names(raw.get("players")) if isinstance(raw, dict) else {}


def write_names(replay: Path, names: dict[str, str], score: tuple[int, int] | None = None) -> None:
    """Keep the coaches' names beside a saved replay, with its final score (nothing when neither is known)."""
    kept: dict[str, object] = dict(_names(names))
    if score is not None:
        kept["score"] = list(score)
    if kept:
        players_path(replay).write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")


def read(replay: Path) -> tuple[Scenario, dict[str, str]]:
    """A replay file's scenario and names (a ``players`` object in the file wins over the names file)."""
    text = replay.read_text(encoding="utf-8")
    names = names_of(replay)
    try:
        raw = json.loads(text)
    except ValueError:
        return scenario_from_json(text), names  # raises the notation's own error, naming the problem
    if isinstance(raw, dict) and "players" in raw:
        names = _names(raw.pop("players")) or names
    return scenario_from_json(raw), names


def find(home: Path | None = None, here: Path | None = None) -> list[ReplayFile]:
    """The saved replays of both folders, newest first (names files and unreadable entries left out)."""
    seen: set[Path] = set()
    found: list[ReplayFile] = []
    for folder in folders(home, here):
        try:
            paths = sorted(folder.glob("*.json"))
        except OSError:
            continue
        for path in paths:
            if path.name.endswith(PLAYERS_SUFFIX) or path.resolve() in seen:
                continue
            seen.add(path.resolve())
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
                modified = path.stat().st_mtime
            except OSError:
                continue
            head = text[:400]
            if "sprtec-scenario" not in head and "sprtec-position" not in head:
                continue  # some other JSON file of the current directory
            found.append(ReplayFile(path, modified, embedded_names(text) or names_of(path), score_of(path)))
    found.sort(key=lambda r: (-r.modified, str(r.path)))
    return found[:LIMIT]

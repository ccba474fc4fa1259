"""An export's folder: each file written (its folders made), the list of them in the order written, and a match's
replay - the scenario ``sprtec export`` would print - when the match was played.

Why one piece: a tournament's export and a league's both write a folder of files from the data directory and a
replay per match a table played; a table whose match never started (a no-show, a table reopened after a restart)
has none.
"""

from __future__ import annotations

from pathlib import Path

from server.replays.replay_export import scenario_text
from server.store.match_reads import ExportError, read_match


class Folder:
    """The files of one export under ``root`` (created if need be)."""

    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root = root
        self.files: list[Path] = []

    def write(self, name: str, text: str) -> Path:
        """One text file (UTF-8)."""
        path = self._path(name)
        path.write_text(text, encoding="utf-8")
        return path

    def write_bytes(self, name: str, data: bytes) -> Path:
        """One binary file (a spreadsheet)."""
        path = self._path(name)
        path.write_bytes(data)
        return path

    def replay(self, data_dir: Path, name: str, match_id: str) -> Path | None:
        """The match's scenario as ``name``; None when the match never started."""
        try:
            text = scenario_text(read_match(data_dir, match_id))
        except ExportError:
            return None
        return self.write(name, text + "\n")

    def _path(self, name: str) -> Path:
        """Where ``name`` goes (its folder made), counted as written."""
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        self.files.append(path)
        return path

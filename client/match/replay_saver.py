""""Save replay" on the results screen: ask the server for the match's scenario and keep it as a file (no arcade).

Why: a player of a remote server has no data directory to export from, yet may want his match again. The
server sends the same scenario ``sprtec export`` prints (``GetReplay`` → ``Replay``); it is written as it came
to ``~/sprtec-replays/<match_id>.json`` (or, when the home directory is not writable, to the current directory),
and the screen and the terminal say where and how to replay it (``sprtec replay <path>``): the screen with the
path short (``~/sprtec-replays/…``, so the line fits the panel), the terminal in full, where it can be copied.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from client.common.i18n import _
from shared.protocol import ClientMessage, Error, GetReplay, Replay

FOLDER = "sprtec-replays"
SAFE_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")  # a match id that is safe as a file name (the server's are 12 hex)


def save(match_id: str, scenario: str, home: Path | None = None, here: Path | None = None) -> Path:
    """Write ``scenario`` to ``<home>/sprtec-replays/<match_id>.json`` (home: the user's); when that fails, to
    ``<here>/<match_id>.json`` (here: the current directory). Raises OSError when neither can be written."""
    if not SAFE_ID.fullmatch(match_id):
        raise OSError(f"the match id {match_id!r} is not a safe file name")
    name = f"{match_id}.json"
    try:
        folder = (home or Path.home()) / FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        path.write_text(scenario, encoding="utf-8")
    except (OSError, RuntimeError):  # RuntimeError: Path.home() when no home directory is known
        path = (here or Path.cwd()) / name
        path.write_text(scenario, encoding="utf-8")
    return path


class ReplaySaver:
    """The state of one results screen's "Save replay": what was asked, and the line the screen shows."""

    def __init__(self, send: Callable[[ClientMessage], bool], home: Path | None = None, here: Path | None = None,
                 report: Callable[[str], None] = print) -> None:
        """``send`` sends a request (False while disconnected); ``report`` also gets the final line (the terminal,
        where the path can be copied); ``home`` and ``here`` replace the user's directories in tests."""
        self.send = send
        self.home = home
        self.here = here
        self.report = report
        self.asked: str | None = None
        self.names: dict[str, str] = {}
        self.score: tuple[int, int] | None = None  # the match's final score, kept beside the replay
        self.status = ""
        self.saved: Path | None = None  # the file the last answer was saved to

    def ask(self, match_id: str, names: dict[str, str] | None = None, score: tuple[int, int] | None = None) -> None:
        """Ask the server for ``match_id``'s replay (once at a time); ``names`` are the coaches' and ``score`` the
        final score, kept beside it (My replays lists them)."""
        self.names, self.score = dict(names or {}), score
        if self.asked == match_id:
            return
        if not self.send(GetReplay(match_id)):
            self.status = _("Not connected — try Save replay again in a moment")
            return
        self.asked, self.status = match_id, _("Asking the server for the replay…")

    def take(self, message: object) -> bool:
        """Handle the answer to our GetReplay (a Replay, or an Error about it); True when the message was it."""
        if isinstance(message, Error) and message.ref == "GetReplay" and self.asked is not None:
            self.asked = None
            self._tell(not_saved(message.message))
            return True
        if not isinstance(message, Replay) or message.match_id != self.asked:
            return False
        self.asked = None
        try:
            path = save(message.match_id, message.scenario, self.home, self.here)
        except OSError as exc:
            self._tell(not_saved(str(exc)))
        else:
            from client.match.replay_library import write_names

            self.saved = path
            try:
                write_names(path, self.names, self.score)
            except OSError:
                pass  # the replay itself is saved; it will show Home and Away
            short = _short(path, self.home)
            self._tell(_("Saved to {path} — replay: sprtec replay {path}").format(path=short),
                       _("Saved to {path} — replay: sprtec replay {path}").format(path=path))
        return True

    def _tell(self, line: str, printed: str | None = None) -> None:
        """Show ``line`` on the screen and print it (or its long form ``printed``)."""
        self.status = line
        self.report(printed or line)


def not_saved(why: str) -> str:
    """The line that says the replay was not saved, and why."""
    return _("Replay not saved: {why}").format(why=why)


def _short(path: Path, home: Path | None) -> str:
    """``path`` as the shell may type it: ``~/…`` under the home directory, else as it is."""
    try:
        return f"~/{path.relative_to(home or Path.home()).as_posix()}"
    except (ValueError, RuntimeError):
        return str(path)

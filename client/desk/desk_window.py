"""The desk's window and what it does beside the protocol: the connection, watching a table in a window of its own,
reading a tournament file, exporting, and keeping the organiser secret of a tournament the desk created.

Why here and not in the client: the desk's owner reads the server's data directory (the export is ``sprtec
tournament export``'s, ``server.tournaments.export``) and starts ``sprtec watch`` children, which a client module has
no business doing; the model (``client.desk.desk_model``) asks for these acts and this module carries them out. Children
are stopped by their pid when the desk closes.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from client.desk.desk_model import DeskModel, ExportTournament, OpenTournamentFile, PrintSheets, WatchTable
from shared.protocol import Welcome
from shared.protocol.lan_record import DESK_CLIENT


def export_tournament(data_dir: Path, request: ExportTournament) -> tuple[Path, ...]:
    """Write the tournament's file, standings (JSON, CSV), audit log and replays as ``sprtec tournament export``
    does; the files written."""
    from server.tournaments.export import export

    return export(data_dir, request.tournament, Path(request.out).expanduser()).files


def print_sheets(data_dir: Path, request: PrintSheets) -> tuple[Path, int]:
    """The printed sheets of the tournament as ``sprtec tournament print --data`` writes them, every sheet the
    tournament has by now (before round 1 there is no round's sheet, before a result no standings): the PDF written,
    ``sheets-ID.pdf`` in the folder, and how many sheets it holds."""
    from server.tournaments.export import read_state
    from server.tournaments.printed_sheets import ready_sheets, served_referees, sheets_pdf

    state = read_state(data_dir, request.tournament)[0]
    ready = ready_sheets(state.tournament)
    out = Path(request.out).expanduser()
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"sheets-{request.tournament}.pdf"
    path.write_bytes(sheets_pdf(state.tournament, ready, referees=served_referees(state)))
    return path, len(ready)


class Watchers:
    """The ``sprtec watch`` windows the desk opened, one per table, stopped by pid when it closes."""

    def __init__(self, server: str) -> None:
        """Watch tables of ``server``."""
        self.server = server
        self.children: dict[str, subprocess.Popen[bytes]] = {}

    def open(self, room: str) -> None:
        """A spectator's window on ``room`` (not a second one while the first is open)."""
        running = self.children.get(room)
        if running is not None and running.poll() is None:
            return
        self.children[room] = subprocess.Popen([sys.executable, "-m", "sprtec.cli", "watch", "--server", self.server,
                                                "--room", room])

    def stop(self) -> None:
        """Close every watching window this desk opened."""
        for child in self.children.values():
            if child.poll() is None:
                child.terminate()
        for child in self.children.values():
            try:
                child.wait(5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        self.children.clear()


class DeskLink:
    """What the desk's window asks for, carried out (``send``), and the server's news taken in (``poll``)."""

    def __init__(self, model: DeskModel, client: Any, watchers: Watchers, window: Any, data_dir: Path,
                 keep: Callable[[str, str], None], keep_codes: Callable[[str, dict[str, str]], None] | None) -> None:
        """Link the desk's model to its connection, its watching windows and its window."""
        self.model, self.client, self.watchers, self.window = model, client, watchers, window
        self.data_dir = data_dir
        self.keep, self.keep_codes = keep, keep_codes
        self.kept: set[str] = set()
        self.saved_codes = dict(model.codes)

    def send(self, request: object) -> None:
        """Carry out a request of the desk: to the server, or one of the desk's own acts."""
        from client.common.menu import QUIT

        if request is QUIT:
            self.window.close()
        elif isinstance(request, WatchTable):
            self.watchers.open(request.room)
        elif isinstance(request, OpenTournamentFile):
            self.open_file(request.path)
        elif isinstance(request, ExportTournament):
            self.export(request)
        elif isinstance(request, PrintSheets):
            self.print(request)
        elif request is not None and not self.client.send(request):
            self.model.not_sent()

    def open_file(self, path: str) -> None:
        """Create the tournament of a file the organiser named (or say why it cannot be read)."""
        try:
            text = Path(path).expanduser().read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as problem:
            self.model.unreadable(path, str(problem))
            return
        if not self.client.send(self.model.file_request(text)):
            self.model.not_sent()

    def export(self, request: ExportTournament) -> None:
        """Export from the data directory, telling the model what was written or what went wrong."""
        try:
            files = export_tournament(self.data_dir, request)
        except Exception as problem:  # the data could not be read or the folder written: say so, go on
            self.model.exported((), str(problem))
        else:
            self.model.exported(tuple(str(f) for f in files))

    def print(self, request: PrintSheets) -> None:
        """Print the sheets from the data directory, telling the model where the PDF is or what went wrong."""
        try:
            path, sheets = print_sheets(self.data_dir, request)
        except Exception as problem:  # the data could not be read or the folder written: say so, go on
            self.model.printed("", 0, str(problem))
        else:
            self.model.printed(str(path), sheets)

    def poll(self) -> None:
        """The server's news into the model; the secret of a tournament created here, and every entry code told,
        are kept at once."""
        model = self.model
        for message in self.client.drain():
            if isinstance(message, Welcome):
                for first in model.first_requests():
                    self.client.send(first)
            for follow_up in model.apply(message):
                self.client.send(follow_up)
        created = model.created
        if created is not None and created.tournament not in self.kept:
            self.keep(created.tournament, created.secret)
            self.kept.add(created.tournament)
            self.window.set_caption(f"sprtec — {created.tournament}")
        if self.keep_codes is not None and model.tournament is not None and model.codes != self.saved_codes:
            self.keep_codes(model.tournament, model.codes)
            self.saved_codes = dict(model.codes)


def run_desk(*, server: str, addresses: tuple[str, ...], data_dir: Path, tournament: str | None,
             secret: str | None, keep: Callable[[str, str], None], codes: dict[str, str] | None = None,
             keep_codes: Callable[[str, dict[str, str]], None] | None = None, screenshot: Path | None = None,
             prepare: Callable[[DeskModel], None] | None = None, wait_s: float = 20.0, seed: int = 1) -> int:
    """Open the desk on ``server`` until its window closes (or save a screenshot of it: ``prepare`` sets the screen
    up once the tournament has arrived); ``keep(tournament, secret)`` keeps a tournament the desk created, and
    ``keep_codes(tournament, codes)`` the entry codes the desk knows (``codes``: those kept before)."""
    from client.common import i18n, user_settings
    from client.common import window as app

    app.prepare(screenshot)
    from client.desk.desk_view import DeskView
    from client.match.net import NetClient

    i18n.set_language(user_settings.load().language or None)
    model = DeskModel(server=server, addresses=addresses, tournament=tournament, secret=secret, seed=seed,
                      export_dir=str(Path.home() / "sprtec-export"))
    model.codes.update(codes or {})
    client = NetClient(server, None, identity=None, program=DESK_CLIENT)  # not a player online
    watchers = Watchers(server)
    window = app.open_window(model.heading(), screenshot)
    client.on_news = getattr(window, "wake_soon", None)  # an idle desk ticks again when news comes
    link = DeskLink(model, client, watchers, window, data_dir, keep, keep_codes)
    client.start()
    try:
        window.show_view(DeskView(model, link.send, link.poll))
        if screenshot is not None:
            _settle(app, window, model, tournament, server, wait_s, prepare)
        return app.finish(window, screenshot)
    finally:
        watchers.stop()
        client.close()


def _settle(app: Any, window: Any, model: DeskModel, tournament: str | None, server: str, wait_s: float,
            prepare: Callable[[DeskModel], None] | None) -> None:
    """Before a screenshot: wait for the tournament (or, without one, the connection), then set the screen up."""
    started = time.monotonic()

    def ready() -> bool:
        """The tournament (or, without one, the connection) is there to be shown."""
        arrived = model.update is not None if tournament else model.connected
        return arrived and time.monotonic() - started > 0.3

    if not app.settle(window, ready, wait_s):
        print(f"sprtec organise: nothing to show from {server} after {wait_s:g} s", file=sys.stderr)
    if prepare is not None:
        prepare(model)

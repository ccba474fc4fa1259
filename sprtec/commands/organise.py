"""``sprtec organise [FILE]``: the organiser's one command - the LAN server with its data, the tournament, the desk.

Why one command: at a club event the organiser should not start a server, copy a URL and keep a secret by hand.
This starts ``sprtec serve --lan`` (every interface, announced with mDNS) as a child on the data directory
(platformdirs' ``user_data_dir("sprtec")`` unless ``--data``), waits until it welcomes a Hello, and then:

- with FILE, creates the tournament from it - unless a running tournament of the same name, whose organiser secret
  is kept, is already in that data (a second start reopens it, it never creates it twice);
- without FILE, reopens the newest running tournament of that data whose secret is kept, or lets the desk create one.

The secret is kept as ``sprtec tournament create`` keeps it (``tournaments.json``, 0600, in the config dir) under
the loopback URL and each LAN URL - so ``sprtec tournament … --server URL`` works after - and under the data
directory, which finds it again whatever port the server gets. Then the desk's window opens; closing it (or
SIGTERM, SIGINT, SIGHUP) stops the server cleanly (SIGTERM to the child by its pid, and its graceful shutdown).
``--no-window`` prints one JSON line (server, urls, tournament) and runs until a signal; ``--screenshot PATH``
saves the desk's ``--screen`` and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from server.constants import DEFAULT_PORT

HELP = ("the organiser: start the LAN server with its data, create (from FILE) or reopen the tournament, and open "
        "the organiser's desk; closing the desk stops the server")
READY_S = 30.0
STOP_S = 15.0
SCREENS = ("home", "create", "register", "entries", "tables", "standings", "ranking", "round", "card", "override",
           "disputes", "export", "address", "end")
FINISHED = ("finished", "ended")
CODES_FILE = "entry-codes.json"
LEAGUE_SCREENS = ("home", "lineup", "results")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE, --data, --port, --name, --no-window, --screenshot, --screen, --wait."""
    parser.add_argument("file", metavar="FILE", nargs="?", help="a tournament file (docs/TOURNAMENT.md) to create")
    parser.add_argument("--data", default=None, help="the server's data directory (default: the user's data "
                        "directory, e.g. ~/.local/share/sprtec)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT}; 0 picks "
                        "a free one)")
    parser.add_argument("--name", default=None, help="the name announced on the LAN (default: sprtec on <hostname>)")
    parser.add_argument("--no-window", action="store_true", help="no desk: print the server and the tournament as "
                        "one JSON line and run until interrupted")
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save a PNG of the desk and exit")
    parser.add_argument("--screen", choices=SCREENS, default="home", help="with --screenshot: the desk's screen")
    parser.add_argument("--wait", type=float, default=20.0, help="seconds a screenshot waits for the server")
    parser.add_argument("--no-show", type=float, default=None, metavar="SECONDS",
                        help="with FILE: a coach not at his table this long after it opens loses by walkover "
                             "(default 300)")
    parser.add_argument("--league", default=None, metavar="ID",
                        help="the desk of a team league's match days on --server (its secret kept by `sprtec league "
                             "create`, or --secret): open the day, line-ups, start each round, boards' results")
    parser.add_argument("--server", default=None, metavar="URL", help="with --league: the league's server")
    parser.add_argument("--secret", default=None, help="with --league: the organiser secret (default: the kept one)")
    parser.add_argument("--league-screen", choices=LEAGUE_SCREENS, default="home",
                        help="with --league and --screenshot: the desk's screen (lineup: the first one to give)")


def data_directory(given: str | None) -> Path:
    """The data directory: the one given, or the user's (platformdirs)."""
    import platformdirs

    return Path(given) if given else Path(platformdirs.user_data_dir("sprtec"))


def data_key(data: Path) -> str:
    """The key the organiser secrets of a data directory's tournaments are kept under, beside the URLs."""
    return f"data:{data.resolve()}"


class ServerProcess:
    """``sprtec serve --lan`` as a child on the data directory, stopped by its pid."""

    def __init__(self, data: Path, port: int, name: str | None) -> None:
        """Prepare the command line."""
        self.command = [sys.executable, "-m", "sprtec.cli", "serve", "--lan", "--port", str(port), "--data",
                        str(data), "--log-level", "WARNING"]
        if name:
            self.command += ["--name", name]
        self.child: subprocess.Popen[bytes] | None = None

    def start(self, timeout_s: float = READY_S) -> int:
        """Start it and read the port it listens on from its first line (``ws://0.0.0.0:PORT/``)."""
        self.child = subprocess.Popen(self.command, stdout=subprocess.PIPE)
        assert self.child.stdout is not None
        ready, _w, _x = select.select([self.child.stdout], [], [], timeout_s)
        line = self.child.stdout.readline().decode().strip() if ready else ""
        if not line.startswith("ws://"):
            self.stop()
            raise RuntimeError("the server did not start (see its message above)")
        return int(line.rstrip("/").rpartition(":")[2])

    def stop(self) -> int | None:
        """SIGTERM, a graceful shutdown awaited; killed only when it does not end. Its exit status."""
        child, self.child = self.child, None
        if child is None:
            return None
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
        try:
            return child.wait(STOP_S)
        except subprocess.TimeoutExpired:
            child.kill()
            return child.wait()


def wait_until_welcomed(url: str, timeout_s: float = READY_S) -> bool:
    """True once the server at ``url`` welcomes a Hello."""
    from client.common.local_server import answers

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if answers(url, 1.0):
            return True
        time.sleep(0.2)
    return False


async def open_tournament(url: str, urls: list[str], data: Path, file_text: str | None,
                          no_show_ms: int | None = None) -> tuple[str | None, str | None]:
    """The tournament the desk opens and its secret: reopened when kept, created from the file (with its no-show
    time, None: the server's), or none yet."""
    from shared.protocol import CreateTournament, ListTournaments, TournamentCreated, TournamentList
    from sprtec.commands.tournament_client import Connection, recall

    connection = await Connection.open(url)
    try:
        listing = await connection.ask(ListTournaments(), TournamentList)
        kept = [(t, recall(data_key(data), t.tournament)) for t in listing.tournaments if t.status not in FINISHED]
        running = [(t, secret) for t, secret in kept if secret is not None]
        if file_text is not None:
            name = _file_name(file_text)
            same = [(t, secret) for t, secret in running if t.name == name]
            if same:
                return same[0][0].tournament, same[0][1]
            created = await connection.ask(CreateTournament(file=file_text, no_show_ms=no_show_ms),
                                           TournamentCreated)
            keep_secret(url, urls, data, created.tournament, created.secret)
            keep_codes(data, created.tournament, {e.entry: e.code for e in created.entries})
            for entry in created.entries:
                print(f"{entry.entry}\t{entry.name}\t{entry.code}", file=sys.stderr)
            return created.tournament, created.secret
        if running:
            return running[0][0].tournament, running[0][1]
        return None, None
    finally:
        await connection.close()


def codes_path() -> Path:
    """Where the desk keeps the entry codes it was told, to show them again when it reopens (0600, like the
    secrets: a code claims an entry)."""
    from client.common.config_dir import config_dir

    return config_dir() / CODES_FILE


def kept_codes(data: Path, tournament: str) -> dict[str, str]:
    """The entry codes kept for a tournament of this data directory."""
    from client.common.config_dir import read_json

    found = read_json(codes_path()).get(data_key(data), {}).get(tournament, {})
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def keep_codes(data: Path, tournament: str, codes: dict[str, str]) -> None:
    """Keep a tournament's entry codes (0600)."""
    from client.common.config_dir import read_json, write_private

    path = codes_path()
    kept = read_json(path)
    kept.setdefault(data_key(data), {})[tournament] = dict(codes)
    write_private(path, kept)


def keep_secret(url: str, urls: list[str], data: Path, tournament: str, secret: str) -> None:
    """Keep the organiser secret under the loopback URL, each LAN URL and the data directory."""
    from sprtec.commands.tournament_client import remember

    for key in (url, *urls, data_key(data)):
        remember(key, tournament, secret)


def _file_name(text: str) -> str | None:
    """The tournament's name in a file's text (None when it has none or is not JSON: the server says why)."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    name = value.get("name") if isinstance(value, dict) else None
    return name if isinstance(name, str) else None


def run(args: argparse.Namespace) -> int:
    """Start the server, open the tournament and the desk; stop the server when the desk closes."""
    if args.league is not None:
        return _league_desk(args)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, leave_on_signal)
    file_text = None
    if args.file is not None:
        try:
            file_text = Path(args.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as problem:
            print(f"sprtec organise: cannot read {args.file}: {problem}", file=sys.stderr)
            return 2
    data = data_directory(args.data)
    server = ServerProcess(data, args.port, args.name)
    try:
        return _serve_and_desk(args, server, data, file_text)
    except Stopped:
        return 0
    finally:
        status = server.stop()
        if status is not None:
            print(f"sprtec organise: server stopped (exit status {status})", file=sys.stderr)


class Stopped(Exception):
    """SIGTERM, SIGINT or SIGHUP: the organiser (or his system) ends the command; the server is stopped."""


def leave_on_signal(signum: int, frame: object) -> None:
    """A signal ends the command normally, so the server is stopped in ``finally``: while the desk's window loop
    runs it is asked to end (as closing the desk does), with no raise - the handler may run inside a finalizer or a
    window callback that swallows what it raises (the desk then stayed open and the server running after SIGTERM,
    and "Exception ignored in ..." went to the log); before the window, the command stops with ``Stopped``."""
    window_loop = sys.modules.get("pyglet.app")
    if window_loop is not None and window_loop.event_loop.is_running:
        window_loop.exit()
        return
    raise Stopped(signum)


def _serve_and_desk(args: argparse.Namespace, server: ServerProcess, data: Path, file_text: str | None) -> int:
    """Start the server, open the tournament, run the desk (or wait, with --no-window)."""
    from server.lan.announcer import interface_addresses

    try:
        port = server.start()
    except RuntimeError as problem:
        print(f"sprtec organise: {problem}", file=sys.stderr)
        return 1
    url = f"ws://127.0.0.1:{port}/"
    urls = [f"ws://{address}:{port}/" for address in interface_addresses()]
    if not wait_until_welcomed(url):
        print(f"sprtec organise: the server at {url} does not answer", file=sys.stderr)
        return 1
    from shared.protocol import ProtocolError
    from sprtec.commands.tournament_client import Refused

    no_show_ms = None if args.no_show is None else round(args.no_show * 1000)
    try:
        tournament, secret = asyncio.run(open_tournament(url, urls, data, file_text, no_show_ms))
    except (Refused, ProtocolError) as problem:
        print(f"sprtec organise: the tournament was not created: {problem}", file=sys.stderr)
        return 1
    print(json.dumps({"server": url, "urls": urls, "tournament": tournament, "data": str(data)}), flush=True)
    if args.no_window:
        while server.child is not None and server.child.poll() is None:
            time.sleep(0.5)
        return 1  # the server ended by itself
    return _desk(args, url, urls, data, tournament, secret)


def _desk(args: argparse.Namespace, url: str, urls: list[str], data: Path, tournament: str | None,
          secret: str | None) -> int:
    """The desk's window (or its screenshot)."""
    import secrets as random_source

    from client.desk.desk_window import run_desk

    screen = args.screen

    def prepare(model: object) -> None:
        """The screen asked for the screenshot."""
        if screen != "home":
            model.activate(f"screen:{screen}")  # type: ignore[attr-defined]

    return run_desk(server=url, addresses=tuple(urls), data_dir=data, tournament=tournament, secret=secret,
                    keep=lambda tid, key: keep_secret(url, urls, data, tid, key),
                    codes=kept_codes(data, tournament) if tournament else {},
                    keep_codes=lambda tid, codes: keep_codes(data, tid, codes), screenshot=args.screenshot,
                    prepare=prepare, wait_s=args.wait, seed=random_source.randbelow(2**31))


def _league_desk(args: argparse.Namespace) -> int:
    """The desk of a league on a running server (``sprtec league create`` made it there and kept its secret)."""
    from client.desk.league_desk_model import LeagueDeskModel
    from client.desk.league_desk_window import run_league_desk
    from sprtec.commands.tournament_client import recall

    if args.server is None:
        print("sprtec organise: --league needs --server URL (the server the league runs on)", file=sys.stderr)
        return 2
    secret = args.secret or recall(args.server, args.league.upper())
    if secret is None:
        print(f"sprtec organise: no organiser secret kept for {args.league} on {args.server}: give --secret",
              file=sys.stderr)
        return 2

    def prepare(model: LeagueDeskModel) -> None:
        """The screen a screenshot shows: the first act of its kind on the home screen."""
        wanted = {"lineup": "lineup:", "results": "results:"}.get(args.league_screen)
        found = next((i for i in model.items() if wanted and i.command.startswith(wanted)), None)
        if found is not None:
            model.activate(found.command)

    return run_league_desk(server=args.server, league=args.league, secret=secret, screenshot=args.screenshot,
                           prepare=prepare, wait_s=args.wait)

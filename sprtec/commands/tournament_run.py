"""``sprtec tournament run FILE --bots``: a whole tournament of bots on a private server, from the first round to the
final standings - the demo, and the smoke test of everything a tournament needs.

Why a real server and real coaches: it runs what an organiser runs at a club - ``sprtec serve`` as a child process
(``client.player.practice.ServerProcess``), the tournament created from the file over the protocol, one coach per entry
(``tournament_coach``: claims its entry with its code, checks in, plays every table it is given), the rounds
starting by themselves a moment after each round's last match - and at the end exports the tournament from the
server's data directory and prints its final ranking (every player across the stages, with categories, category
winners and Czech Cup points: ``sprtec-ranking/1``), which must equal what ``sprtec tournament ranking`` makes of
the exported file, as the exported standings must equal ``sprtec tournament standings`` of it.
``--setting period_ms=...`` (and any other match setting) makes the matches short.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from shared.protocol import StartRound, TournamentDone, TournamentUpdate, WatchTournament
from shared.protocol.web_address import tournament_page
from sprtec.commands import add_setting_argument, parse_settings
from sprtec.commands.tournament_client import Connection
from sprtec.commands.tournament_coach import CoachOptions, CoachReport, coach

SERVER_START_S = 60.0
NAME_LIMIT = 24  # a display name's length (shared.names)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE, --bots, --setting, --data, --out, --level, --no-show-ms, --gap-ms, --timeout, --verbose."""
    parser.add_argument("file", metavar="FILE", help="the tournament file (docs/TOURNAMENT.md)")
    parser.add_argument("--bots", action="store_true", required=True, help="every entry is coached by a bot")
    add_setting_argument(parser, "a match setting for every stage, e.g. period_ms=20000 for short matches")
    parser.add_argument("--data", default=None, help="the server's data directory (default: a new temporary one; "
                                                     "with --server, that server's: ./data)")
    parser.add_argument("--server", default=None, metavar="URL",
                        help="play on this running server (e.g. `make run`'s ws://127.0.0.1:8765/) instead of a "
                             "private one; --data names its data directory for the export")
    parser.add_argument("--out", default=None, help="where to export the tournament (default: DATA/export-ID)")
    parser.add_argument("--level", default="easy", choices=("easy", "medium", "hard", "random"),
                        help="the bots play shared.ai at this level, or random legal flicks (default easy)")
    parser.add_argument("--no-show-ms", type=int, default=60_000, metavar="MS",
                        help="a bot not at its table this long loses by walkover (default 60000)")
    parser.add_argument("--gap-ms", type=int, default=1_000, metavar="MS",
                        help="each next round starts this long after a round's last match (default 1000)")
    parser.add_argument("--timeout", type=float, default=3600.0, metavar="S", help="give up after S seconds")
    parser.add_argument("--verbose", action="store_true", help="the bots say where they play")


def run(args: argparse.Namespace) -> int:
    """Play the tournament; print the final ranking (exit 0), or why it failed (exit 1)."""
    try:
        file = json.loads(Path(args.file).read_text(encoding="utf-8"))
        overrides = parse_settings(args.setting)
    except (OSError, ValueError) as exc:
        print(f"sprtec tournament run: {exc}", file=sys.stderr)
        return 2
    for stage in file.setdefault("stages", [{"system": "swiss"}]):
        stage["settings"] = {**stage.get("settings", {}), **overrides}
    if args.data:
        data = Path(args.data)
    else:
        data = Path("data") if args.server else Path(tempfile.mkdtemp(prefix="sprtec-tournament-"))
    try:
        return asyncio.run(asyncio.wait_for(_run(args, file, data), args.timeout))
    except TimeoutError:
        print(f"sprtec tournament run: not finished after {args.timeout:.0f} s; data in {data}", file=sys.stderr)
        return 1
    except RuntimeError as exc:
        print(f"sprtec tournament run: {exc}; data in {data}", file=sys.stderr)
        return 1


async def _run(args: argparse.Namespace, file: dict[str, Any], data: Path) -> int:
    """Start the server, create the tournament, start the coaches, follow it to its end, export, print."""
    from client.player.practice import ServerProcess
    from sprtec.commands.tournament_actions import create

    data.mkdir(parents=True, exist_ok=True)
    server = None if args.server else ServerProcess(data, workers=0, log=data / "server.log", log_level="WARNING")
    if server is not None:
        server.start()
    coaches: list[asyncio.Task[CoachReport]] = []
    try:
        url = args.server if server is None else await asyncio.to_thread(server.wait, SERVER_START_S)
        if url is None:
            raise RuntimeError((server.error if server is not None else None) or "the server did not start")
        organiser = await Connection.open(url, "organiser" if server is not None else None)  # a guest on a shared one
        created, codes = await create(organiser, file, no_show_ms=args.no_show_ms, next_round_after_ms=args.gap_ms)
        tid = created.tournament
        _say(f"server {url}, data in {data}, tournament {tid}")
        _say(f"watch it from another terminal: sprtec tournament status {tid} --server {url}")
        _say(f"or in a browser: {tournament_page(url, tid)}")
        for c in codes:
            level = None if args.level == "random" else args.level
            name = _display_name(c.name, c.entry) if server is not None else _shared_name(c.name, c.entry, tid)
            options = CoachOptions(name=name, code=c.code, level=level,
                                   verbose=args.verbose)
            coaches.append(asyncio.create_task(coach(url, tid, options)))
        update = await organiser.ask(WatchTournament(tid), TournamentUpdate)
        update = await _until(organiser, update, lambda u: all(e.checked_in for e in u.entries))
        await organiser.ask(StartRound(tid, created.secret), TournamentDone)
        update = await _follow(organiser, update)
        await asyncio.gather(*coaches)
        await organiser.close()
    finally:
        for task in coaches:
            task.cancel()
        await asyncio.gather(*coaches, return_exceptions=True)
        if server is not None:
            await asyncio.to_thread(server.stop, 30)
    return _export(data, tid, Path(args.out) if args.out else data / f"export-{tid}")


async def _until(connection: Connection, update: TournamentUpdate, done: Any) -> TournamentUpdate:
    """Updates until ``done(update)``."""
    while not done(update):
        message = await connection.receive(timeout=None)
        if isinstance(message, TournamentUpdate):
            update = message
    return update


async def _follow(connection: Connection, update: TournamentUpdate) -> TournamentUpdate:
    """Follow the tournament to its end, saying when each round starts and ends."""
    said = ""
    started = time.monotonic()
    while update.status not in ("finished", "ended"):
        message = await connection.receive(timeout=None)
        if not isinstance(message, TournamentUpdate):
            continue
        update = message
        now = f"stage {update.stage} round {update.round} {update.status}"
        if now != said and update.status in ("playing", "between"):
            said = now
            _say(f"{time.monotonic() - started:6.1f} s  {now}")
    _say(f"{time.monotonic() - started:6.1f} s  the tournament is {update.status}")
    return update


def _export(data: Path, tid: str, out: Path) -> int:
    """Export the tournament, print its final ranking, check it and the standings against what ``sprtec tournament``
    makes of the exported file."""
    from server.tournaments.export import export
    from sprtec.commands.tournament import ranking_answer, standings_answer

    done = export(data, tid, out)
    file = (out / "tournament.json").read_bytes()
    ranking = (out / "ranking.json").read_text(encoding="utf-8")
    sys.stdout.write(ranking)
    sys.stdout.flush()
    _say(f"exported {len(done.files)} files to {out}")
    for name, answer in (("standings", standings_answer(file)), ("ranking", ranking_answer(file))):
        if answer != (0, (out / f"{name}.json").read_text(encoding="utf-8")):
            _say(f"the exported {name} differ from `sprtec tournament {name}` of the exported file")
            return 1
    return 0


def _display_name(name: str, entry: str) -> str:
    """The bot's display name: the entrant's name when it fits, else the entry's id."""
    return name if len(name) <= NAME_LIMIT else entry[:NAME_LIMIT]


def _shared_name(name: str, entry: str, tid: str) -> str:
    """A bot's display name on a shared server, where the names of an earlier run are taken: the entrant's name and
    the tournament's id."""
    return f"{_display_name(name, entry)[:NAME_LIMIT - len(tid) - 1]} {tid}"


def _say(text: str) -> None:
    """A progress line on standard error."""
    print(f"sprtec tournament run: {text}", file=sys.stderr, flush=True)

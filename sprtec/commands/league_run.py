"""``sprtec league run FILE --bots``: whole match days of a league played by bots on a real server, each day
exported and its table checked - the demo, and the smoke test of everything a league needs.

Why a real server and real players (as ``sprtec tournament run``): it runs what a club runs - ``sprtec serve`` as a
child process (or ``--server``), the league created from the file over the protocol with the first roster player of
each team its captain, one bot per roster player (``league_coach``: takes his place with his code, gives his team's
line-ups as captain, plays every game he is sent to) - and the organiser's part: each day opened, each fixture's
next round started as soon as its players are free (on a three-team day every team plays two fixtures, so they are
played one after the other). After each day the league is exported from the server's data directory
(``OUT/day-N``), and the exported ``table.json`` must equal what ``sprtec league table`` makes of the exported
``league.json``; the last day's table is printed. ``--setting period_ms=...`` makes the games short.
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

from shared.protocol import LeagueDone, LeagueUpdate, OpenMatchDay, StartLeagueRound, WatchLeague
from sprtec.commands import add_setting_argument, parse_settings
from sprtec.commands.league_coach import PlayerReport, league_player
from sprtec.commands.tournament_client import Connection, Refused
from sprtec.commands.tournament_coach import CoachOptions
from sprtec.commands.tournament_run import SERVER_START_S, _display_name, _shared_name

COMMAND = "sprtec league run"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE, --bots, --day, --setting, --data, --server, --out, --level, --no-show-ms, --timeout, --verbose."""
    parser.add_argument("file", metavar="FILE", help="the league file (sprtec-league/1) with its fixtures by day")
    parser.add_argument("--bots", action="store_true", required=True, help="every roster player is a bot")
    parser.add_argument("--day", type=int, action="append", default=None, metavar="N",
                        help="play this match day (repeat for several, in order; default: every day of the file)")
    add_setting_argument(parser, "a match setting of every game, e.g. period_ms=20000 for short games")
    parser.add_argument("--data", default=None, help="the server's data directory (default: a new temporary one; "
                                                     "with --server, that server's: ./data)")
    parser.add_argument("--server", default=None, metavar="URL", help="play on this running server instead")
    parser.add_argument("--out", default=None, help="where to export each day (default: DATA/export-ID)")
    parser.add_argument("--level", default="random", choices=("easy", "medium", "hard", "random"),
                        help="the bots play shared.ai at this level, or random legal flicks (default random)")
    parser.add_argument("--no-show-ms", type=int, default=60_000, metavar="MS",
                        help="a bot not at its table this long loses its game by walkover (default 60000)")
    parser.add_argument("--absent", action="append", default=[], metavar="PLAYER",
                        help="this roster player has no bot: he loses every game he is named for by walkover")
    parser.add_argument("--timeout", type=float, default=3600.0, metavar="S", help="give up after S seconds")
    parser.add_argument("--verbose", action="store_true", help="the bots say where they play")


def run(args: argparse.Namespace) -> int:
    """Play the days; print the last day's table (exit 0), or why it failed (exit 1)."""
    try:
        text = Path(args.file).read_text(encoding="utf-8")
        file = json.loads(text)
        settings = parse_settings(args.setting)
    except (OSError, ValueError) as exc:
        print(f"{COMMAND}: {exc}", file=sys.stderr)
        return 2
    fixtures = file.get("fixtures", []) if isinstance(file, dict) else []
    days = args.day or sorted({f.get("day") for f in fixtures if isinstance(f, dict) and isinstance(f.get("day"),
                                                                                                      int)})
    data = Path(args.data) if args.data else (Path("data") if args.server else
                                              Path(tempfile.mkdtemp(prefix="sprtec-league-")))
    try:
        return asyncio.run(asyncio.wait_for(_run(args, text, file, settings, days, data), args.timeout))
    except TimeoutError:
        print(f"{COMMAND}: not finished after {args.timeout:.0f} s; data in {data}", file=sys.stderr)
        return 1
    except (RuntimeError, Refused) as exc:
        print(f"{COMMAND}: {exc}; data in {data}", file=sys.stderr)
        return 1


async def _run(args: argparse.Namespace, text: str, file: dict[str, Any], settings: dict[str, Any], days: list[int],
               data: Path) -> int:
    """Start the server, create the league, start the players, play each day, export it, print the last table."""
    from client.player.practice import ServerProcess
    from sprtec.commands.league_actions import create

    data.mkdir(parents=True, exist_ok=True)
    server = None if args.server else ServerProcess(data, workers=0, log=data / "server.log", log_level="WARNING")
    if server is not None:
        server.start()
    players: list[asyncio.Task[PlayerReport]] = []
    status = 0
    try:
        url = args.server if server is None else await asyncio.to_thread(server.wait, SERVER_START_S)
        if url is None:
            raise RuntimeError((server.error if server is not None else None) or "the server did not start")
        organiser = await Connection.open(url, "organiser" if server is not None else None)
        captains = {t["id"]: next(p["id"] for p in t["players"] if p["id"] not in args.absent)
                    for t in file.get("teams", []) if any(p["id"] not in args.absent for p in t.get("players", []))}
        created = await create(organiser, text, captains=captains, no_show_ms=args.no_show_ms, settings=settings)
        lid = created.league
        _say(f"server {url}, data in {data}, league {lid}")
        _say(f"watch it from another terminal: sprtec league status {lid} --server {url}")
        wanted = {f["id"] for f in file.get("fixtures", []) if f.get("day") in days}

        def over(update: LeagueUpdate) -> bool:
            """Every fixture of the days being played is finished."""
            return all(f.finished for f in update.fixtures if f.fixture in wanted)

        for p in created.players:
            if p.player in args.absent:
                continue
            name = _display_name(p.name, p.player) if server is not None else _shared_name(p.name, p.player, lid)
            options = CoachOptions(name=name, code=p.code, level=None if args.level == "random" else args.level,
                                   verbose=args.verbose)
            players.append(asyncio.create_task(league_player(url, lid, options, over)))
        update = await organiser.ask(WatchLeague(lid), LeagueUpdate)
        present = len(created.players) - len({p.player for p in created.players} & set(args.absent))
        update = await _until(organiser, update, lambda u: sum(map(sum, (t.claimed for t in u.teams))) >= present)
        out = Path(args.out) if args.out else data / f"export-{lid}"
        for day in days:
            update = await _play_day(organiser, lid, created.secret, day, update)
            status = status or _export(data, lid, out / f"day-{day}", last=day == days[-1])
        await asyncio.gather(*players)
        await organiser.close()
    finally:
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        if server is not None:
            await asyncio.to_thread(server.stop, 30)
    return status


async def _play_day(organiser: Connection, lid: str, secret: str, day: int, update: LeagueUpdate) -> LeagueUpdate:
    """Open the day, wait for the captains' line-ups, start each fixture's next round whenever its players are free,
    until every fixture of the day is finished."""
    started = time.monotonic()
    await organiser.ask(OpenMatchDay(lid, secret, day), LeagueDone)
    _say(f"day {day} open")
    asked: dict[str, int] = {}  # fixture -> the round this run started last (an update may not show it yet)
    while True:
        fixtures = [f for f in update.fixtures if f.day == day]
        if fixtures and all(f.finished for f in fixtures) and update.day == day:
            break
        busy = {p for f in update.fixtures for g in f.games if g.status in ("waiting", "playing")
                for p in (g.home, g.away)}
        busy |= {p for f in fixtures if f.round < asked.get(f.fixture, 0) for p in (*f.lineup_home, *f.lineup_away)}
        for f in fixtures:
            ready = f.lineup_home_in and f.lineup_away_in and f.round < update.team_size and \
                f.round >= asked.get(f.fixture, 0) and \
                all(g.status in ("ended", "walkover") for g in f.games if g.round == f.round)
            players = set(f.lineup_home) | set(f.lineup_away)
            if update.day == day and ready and not (players & busy):
                done = await organiser.ask(StartLeagueRound(league=lid, secret=secret, fixture=f.fixture), LeagueDone)
                asked[f.fixture] = done.id or 0
                _say(f"{time.monotonic() - started:6.1f} s  {f.fixture} round {done.id} started")
                busy |= players
        update = await _next(organiser, update)
    for f in (f for f in update.fixtures if f.day == day):
        _say(f"{f.fixture}: {f.home} {f.team_score.home}:{f.team_score.away} {f.away}, points "
             f"{f.points.home if f.points else 0}:{f.points.away if f.points else 0}")
    return update


async def _next(connection: Connection, update: LeagueUpdate) -> LeagueUpdate:
    """The next update of the league."""
    while True:
        message = await connection.receive(timeout=None)
        if isinstance(message, LeagueUpdate) and message.league == update.league:
            return message


async def _until(connection: Connection, update: LeagueUpdate, done: Any) -> LeagueUpdate:
    """Updates until ``done(update)``."""
    while not done(update):
        update = await _next(connection, update)
    return update


def _export(data: Path, lid: str, out: Path, *, last: bool) -> int:
    """Export the league; check its table against ``sprtec league table`` of the exported file; print the last."""
    from server.leagues.export import export
    from sprtec.commands.league import table_answer

    done = export(data, lid, out)
    table = (out / "table.json").read_text(encoding="utf-8")
    _say(f"exported {len(done.files)} files to {out}")
    if table_answer((out / "league.json").read_bytes()) != (0, table):
        _say("the exported table differs from `sprtec league table` of the exported file")
        return 1
    if last:
        sys.stdout.write(table)
        sys.stdout.flush()
    return 0


def _say(text: str) -> None:
    """A progress line on standard error."""
    print(f"{COMMAND}: {text}", file=sys.stderr, flush=True)

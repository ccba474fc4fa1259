"""The organiser's and captains' ``sprtec league`` actions against a server: create, open-day, lineup, start-round,
result, status - and export, which reads a data directory instead.

Why each action is one request (as ``sprtec tournament``'s, ``tournament_actions``): every act is one protocol request
answered by one message (docs/PROTOCOL.md "Leagues"), so an action opens a connection, sends it with the league's
organiser secret (``--secret``, or the one ``create`` kept in the organiser's secrets file), prints the answer and
exits 0 - or prints the server's refusal on standard error and exits 1 (2 for arguments the command refuses).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared.protocol import (
    CreateLeague,
    LeagueCreated,
    LeagueDone,
    LeagueResult,
    LeagueUpdate,
    OpenMatchDay,
    StartLeagueRound,
    SubmitLineup,
    WatchLeague,
)
from sprtec.commands import add_setting_argument, parse_settings
from sprtec.commands.tournament_actions import connected, score_of, server_argument
from sprtec.commands.tournament_client import Connection, recall, remember

COMMAND = "sprtec league"


def organiser_arguments(parser: argparse.ArgumentParser) -> None:
    """The league id, --server and --secret."""
    parser.add_argument("league", metavar="ID", help="the league's id (as create printed it)")
    server_argument(parser)
    parser.add_argument("--secret", default=None, help="the organiser secret (default: the one create kept)")


def create_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE, --server, --captain, --no-show-ms, --setting, --as, --json."""
    parser.add_argument("file", metavar="FILE", help="the league file (sprtec-league/1, docs/TOURNAMENT.md)")
    server_argument(parser)
    parser.add_argument("--captain", action="append", default=[], metavar="TEAM=PLAYER",
                        help="the team's captain, who gives its line-ups (repeat per team)")
    parser.add_argument("--no-show-ms", type=int, default=None, metavar="MS",
                        help="a player not at his game's table this long after it opens loses it (default 300000)")
    add_setting_argument(parser, "a match setting of every game (e.g. period_ms=60000)")
    parser.add_argument("--as", dest="as_name", default=None, metavar="NAME",
                        help="create as the player NAME (a server may let only named players create)")
    parser.add_argument("--json", action="store_true", help="print the answer as one JSON object")


def open_day_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments and DAY."""
    organiser_arguments(parser)
    parser.add_argument("day", type=int, metavar="DAY", help="the match day (the fixtures' day in the file)")


def lineup_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, --fixture, --team and PLAYER..."""
    organiser_arguments(parser)
    parser.add_argument("--fixture", required=True, help="the fixture's id")
    parser.add_argument("--team", required=True, help="the team whose line-up this is")
    parser.add_argument("players", nargs="+", metavar="PLAYER", help="k roster players' ids in board order")


def start_round_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, --fixture and --boards."""
    organiser_arguments(parser)
    parser.add_argument("--fixture", required=True, help="the fixture's id")
    parser.add_argument("--boards", action="store_true",
                        help="the round is played on boards at the club: its results are entered with result")


def result_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, --fixture, ROUND BOARD, the result and --reason."""
    organiser_arguments(parser)
    parser.add_argument("--fixture", required=True, help="the fixture's id")
    parser.add_argument("round", type=int, metavar="ROUND")
    parser.add_argument("board", type=int, metavar="BOARD")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--score", type=score_of, default=None, metavar="H:A", help="the game's home and away goals")
    group.add_argument("--walkover", choices=("home", "away"), default=None, help="the side that wins by walkover")
    parser.add_argument("--reason", default="", help="why (for a correction)")


def status_arguments(parser: argparse.ArgumentParser) -> None:
    """ID, --server."""
    parser.add_argument("league", metavar="ID")
    server_argument(parser)


def export_arguments(parser: argparse.ArgumentParser) -> None:
    """ID, --data, --out."""
    parser.add_argument("league", metavar="ID")
    parser.add_argument("--data", required=True, help="the server's data directory")
    parser.add_argument("--out", required=True, help="the directory to write the files into")


def run_create(args: argparse.Namespace) -> int:
    """Create a league from a file; keep its secret; print its id and every roster player's code."""
    try:
        text = Path(args.file).read_text(encoding="utf-8")
        captains = dict(_pair(c) for c in args.captain)
        settings = parse_settings(args.setting)
    except (OSError, ValueError) as exc:
        print(f"{COMMAND} create: {exc}", file=sys.stderr)
        return 2

    async def act(connection: Connection) -> int:
        """Create, then print."""
        created = await create(connection, text, captains=captains, no_show_ms=args.no_show_ms, settings=settings)
        kept = remember(args.server, created.league, created.secret)
        if args.json:
            print(json.dumps({"league": created.league, "secret_file": str(kept),
                              "players": [{"player": p.player, "team": p.team, "name": p.name, "code": p.code}
                                          for p in created.players]}, ensure_ascii=False))
        else:
            print(f"league {created.league} (organiser secret kept in {kept})")
            for p in created.players:
                print(f"  {p.team:<12} {p.player:<16} {p.name:<28} code {p.code}")
        return 0

    return connected(args.server, act, lambda: Connection.as_organiser(args.server, args.as_name), COMMAND)


async def create(connection: Connection, text: str, *, captains: dict[str, str] | None = None,
                 no_show_ms: int | None = None, settings: dict[str, Any] | None = None) -> LeagueCreated:
    """Create a league from a file's text."""
    return await connection.ask(CreateLeague(file=text, captains=captains or {}, no_show_ms=no_show_ms,
                                             settings=settings or {}), LeagueCreated)


def run_open_day(args: argparse.Namespace) -> int:
    """Open a match day."""
    return _organiser(args, lambda lid, secret: OpenMatchDay(lid, secret, args.day),
                      lambda _d: f"day {args.day} is open")


def run_lineup(args: argparse.Namespace) -> int:
    """Give a team's line-up as the organiser."""
    return _organiser(args, lambda lid, secret: SubmitLineup(league=lid, fixture=args.fixture,
                                                             players=tuple(args.players), team=args.team,
                                                             secret=secret),
                      lambda _d: f"the line-up of {args.team} for {args.fixture}: {' '.join(args.players)}")


def run_start_round(args: argparse.Namespace) -> int:
    """Start a fixture's next round."""
    return _organiser(args, lambda lid, secret: StartLeagueRound(league=lid, secret=secret, fixture=args.fixture,
                                                                 boards=args.boards),
                      lambda d: f"round {d.id} of {args.fixture} started" + (" on boards" if args.boards else ""))


def run_result(args: argparse.Namespace) -> int:
    """Enter or correct a game's result."""
    return _organiser(args, lambda lid, secret: LeagueResult(league=lid, secret=secret, fixture=args.fixture,
                                                             round=args.round, board=args.board, score=args.score,
                                                             walkover=args.walkover, reason=args.reason),
                      lambda _d: f"{args.fixture} round {args.round} board {args.board} set")


def run_status(args: argparse.Namespace) -> int:
    """Print the league as it stands now (the open day's fixtures, their team scores, the table)."""
    from sprtec.commands.league_status import render

    async def act(connection: Connection) -> int:
        """Watch once and print."""
        print(render(await connection.ask(WatchLeague(args.league), LeagueUpdate)), end="")
        return 0

    return connected(args.server, act, command=COMMAND)


def run_export(args: argparse.Namespace) -> int:
    """Write the league's files from the data directory."""
    from server.leagues.export import LeagueExportError, export

    try:
        done = export(Path(args.data), args.league, Path(args.out))
    except LeagueExportError as exc:
        print(f"{COMMAND} export: {exc}", file=sys.stderr)
        return 1
    for path in done.files:
        print(path)
    return 0


def _organiser(args: argparse.Namespace, request: Callable[[str, str], Any], say: Callable[[LeagueDone], str]) -> int:
    """One organiser request with the league's secret; print what ``say`` makes of the answer."""
    lid = args.league.upper()
    secret = args.secret or recall(args.server, lid)
    if secret is None:
        print(f"{COMMAND}: no organiser secret kept for {lid} on {args.server}: give --secret", file=sys.stderr)
        return 2

    async def act(connection: Connection) -> int:
        """Ask and print."""
        print(say(await connection.ask(request(lid, secret), LeagueDone)))
        return 0

    return connected(args.server, act, command=COMMAND)


def _pair(text: str) -> tuple[str, str]:
    """TEAM=PLAYER."""
    team, sep, player = text.partition("=")
    if not sep or not team or not player:
        raise ValueError(f"--captain: expected TEAM=PLAYER, not {text!r}")
    return team, player



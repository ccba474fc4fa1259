"""The organiser's ``sprtec tournament`` actions against a server: create, register, checkin, withdraw, start-round,
take-back, swap, card, mute, override, resolve, end, status - and export, which reads a data directory instead.

Why each action is a pair (its arguments, its run) over one request: every act of the organiser is one protocol
request answered by one message (docs/PROTOCOL.md "Tournaments"), so an action opens a connection, sends it with
the tournament's organiser secret (``--secret``, or the one ``create`` kept: ``tournament_client``), prints what
the server answered and exits 0 - or prints the server's refusal on standard error and exits 1 (2 for arguments
the command itself refuses).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from shared.protocol import (
    ENTRIES_PER_REQUEST,
    MAX_LARGE_FRAME,
    MAX_TOURNAMENT_FILE_CHARS,
    AutoStartRounds,
    CheckIn,
    ClientMessage,
    CreateTournament,
    EndTournament,
    EntriesRegistered,
    EntryCode,
    EntryForm,
    GiveCard,
    MuteEntry,
    OverrideResult,
    RegisterEntries,
    ResolveDispute,
    Score,
    StartRound,
    SwapEntries,
    TakeBackRound,
    TournamentCreated,
    TournamentDone,
    TournamentUpdate,
    UnlinkEntry,
    WatchTournament,
    WithdrawEntry,
    encode,
)
from sprtec.commands import add_setting_argument, parse_settings
from sprtec.commands.tournament_client import Connection, Refused, recall, remember


class UsageError(Exception):
    """Arguments the command refuses before asking the server (exit status 2)."""


# ------------------------------------------------------------------------------------------------ arguments


def server_argument(parser: argparse.ArgumentParser) -> None:
    """--server URL (required)."""
    parser.add_argument("--server", required=True, help="the server's websocket URL, e.g. ws://127.0.0.1:8765/")


def organiser_arguments(parser: argparse.ArgumentParser) -> None:
    """The tournament id, --server and --secret."""
    parser.add_argument("tournament", metavar="ID", help="the tournament's id (as create printed it)")
    server_argument(parser)
    parser.add_argument("--secret", default=None, help="the organiser secret (default: the one create kept)")


def create_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE, --server, --no-show-ms, --next-round-after-ms, --setting, --json."""
    parser.add_argument("file", metavar="FILE", help="the tournament file (docs/TOURNAMENT.md)")
    server_argument(parser)
    parser.add_argument("--no-show-ms", type=int, default=None, metavar="MS",
                        help="a coach not at his table this long after it opens loses by walkover (default 300000)")
    parser.add_argument("--on-boards", action="store_true",
                        help="every match is played on a physical board: no rooms, results entered by hand")
    parser.add_argument("--next-round-after-ms", type=int, default=None, metavar="MS",
                        help="start each next round this long after a round's last match (default: start-round)")
    add_setting_argument(parser, "a match setting for every stage (e.g. period_ms=60000), over the file's")
    parser.add_argument("--as", dest="as_name", default=None, metavar="NAME",
                        help="create as the player NAME (a server may let only named players, or its organisers, "
                             "create); his token is kept, so later runs are him again")
    parser.add_argument("--json", action="store_true", help="print the answer as one JSON object")


def register_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments and the entrant's fields."""
    organiser_arguments(parser)
    parser.add_argument("--name", required=True, help="the player's name as everyone sees it")
    parser.add_argument("--club", default="", help="his club")
    parser.add_argument("--category", default="", help="his category")
    parser.add_argument("--rating", type=int, default=None, help="his rating (seeding by rating)")
    parser.add_argument("--id", default=None, help="the entry's id in the tournament file (default: from the name)")
    parser.add_argument("--born", type=_year, default=None, metavar="YEAR",
                        help="his year of birth (the Czech Cup category follows from it, TOURNAMENT.md)")
    parser.add_argument("--sex", choices=("m", "f"), default=None, help="m or f (women are category L)")
    parser.add_argument("--veteran", action="store_true", help="he is a veteran (category V)")


def withdraw_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, ENTRY and --reason."""
    organiser_arguments(parser)
    parser.add_argument("entry", metavar="ENTRY", help="the entry who leaves after the current round")
    parser.add_argument("--reason", default="", help="why (kept in the audit log)")


def take_back_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, --stage, --round and --reason."""
    organiser_arguments(parser)
    parser.add_argument("--stage", type=int, default=None, help="the round's stage (default: the round last paired)")
    parser.add_argument("--round", type=int, default=None, help="the round (default: the round last paired)")
    parser.add_argument("--reason", required=True, help="why (kept in the audit log)")


def swap_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, FIRST SECOND and --reason."""
    organiser_arguments(parser)
    parser.add_argument("first", metavar="FIRST", help="an entry of the round last paired")
    parser.add_argument("second", metavar="SECOND", help="the entry he changes places with")
    parser.add_argument("--reason", required=True, help="why (kept in the audit log)")


def checkin_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments and ENTRY."""
    organiser_arguments(parser)
    parser.add_argument("entry", metavar="ENTRY", help="the entry to check in")


def start_round_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments and --auto-after-ms."""
    organiser_arguments(parser)
    parser.add_argument("--auto-after-ms", type=int, default=None, metavar="MS",
                        help="from now on start each next round MS after the last match of a round")


def card_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, ENTRY, CARD, --reason, --stage, --round."""
    organiser_arguments(parser)
    parser.add_argument("entry", metavar="ENTRY", help="the coach's entry")
    parser.add_argument("card", choices=("yellow", "red", "disqualified"))
    parser.add_argument("--reason", required=True, help="why")
    parser.add_argument("--stage", type=int, default=None, help="the stage of the match (default: the current)")
    parser.add_argument("--round", type=int, default=None, help="the round of the match (default: the current)")


def mute_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, --player ENTRY, --unmute, --reason."""
    organiser_arguments(parser)
    parser.add_argument("--player", required=True, metavar="ENTRY",
                        help="the entry whose coach is silenced in the tournament's chat (its id)")
    parser.add_argument("--unmute", action="store_true", help="let him speak again")
    parser.add_argument("--reason", default="", help="why (kept in the audit log)")


def unlink_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, --player ENTRY, --reason."""
    organiser_arguments(parser)
    parser.add_argument("--player", required=True, metavar="ENTRY",
                        help="the entry whose claim is undone (its id): it gets a fresh code for its right player")
    parser.add_argument("--reason", default="", help="why (kept in the audit log)")


def _result_arguments(parser: argparse.ArgumentParser, *, required: bool) -> None:
    """--score H:A, --shootout SIDE, --walkover SIDE."""
    group = parser.add_mutually_exclusive_group(required=required)
    group.add_argument("--score", type=score_of, default=None, metavar="H:A", help="home and away goals")
    group.add_argument("--walkover", choices=("home", "away"), default=None, help="the side that wins by walkover")
    parser.add_argument("--shootout", choices=("home", "away"), default=None,
                        help="the shoot-out's winner of a drawn knockout match")


def override_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, STAGE ROUND TABLE, the result and --reason."""
    organiser_arguments(parser)
    parser.add_argument("stage", type=int)
    parser.add_argument("round", type=int)
    parser.add_argument("table", type=int)
    _result_arguments(parser, required=True)
    parser.add_argument("--reason", required=True, help="why (XVII.5)")


def resolve_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, CASE, the ruling, a changed result and --reason."""
    organiser_arguments(parser)
    parser.add_argument("case", type=int, metavar="CASE", help="the dispute's number")
    parser.add_argument("ruling", choices=("stands", "changed", "replay"))
    _result_arguments(parser, required=False)
    parser.add_argument("--reason", required=True, help="why")


def end_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments and --reason."""
    organiser_arguments(parser)
    parser.add_argument("--reason", required=True, help="why")


def status_arguments(parser: argparse.ArgumentParser) -> None:
    """ID, --server, --once, --json."""
    parser.add_argument("tournament", metavar="ID")
    server_argument(parser)
    parser.add_argument("--once", action="store_true", help="print the status once and exit")
    parser.add_argument("--json", action="store_true", help="with --once: the tournament's standings JSON "
                                                            "(TOURNAMENT.md) of the update instead of the table")


def export_arguments(parser: argparse.ArgumentParser) -> None:
    """ID, --data, --out."""
    parser.add_argument("tournament", metavar="ID")
    parser.add_argument("--data", required=True, help="the server's data directory")
    parser.add_argument("--out", required=True, help="the directory to write the files into")


# ------------------------------------------------------------------------------------------------ running


def run_create(args: argparse.Namespace) -> int:
    """Create a tournament from a file; keep its secret; print its id and the entry codes."""
    text = Path(args.file).read_text(encoding="utf-8")
    file = json.loads(text)
    overrides = parse_settings(args.setting)
    if overrides:
        for stage in file.setdefault("stages", [{"system": "swiss"}]):
            stage["settings"] = {**stage.get("settings", {}), **overrides}

    async def act(connection: Connection) -> int:
        """Create (in parts when the file does not fit one request), then print."""
        created, codes = await create(connection, file, no_show_ms=args.no_show_ms,
                                      next_round_after_ms=args.next_round_after_ms, on_boards=args.on_boards)
        kept = remember(args.server, created.tournament, created.secret)
        if args.json:
            print(json.dumps({"tournament": created.tournament, "secret_file": str(kept),
                              "entries": [{"entry": c.entry, "name": c.name, "code": c.code} for c in codes]},
                             ensure_ascii=False))
        else:
            print(f"tournament {created.tournament} (organiser secret kept in {kept})")
            for c in codes:
                print(f"  {c.entry:<24} {c.name:<28} entry code {c.code}")
        return 0

    return connected(args.server, act, lambda: Connection.as_organiser(args.server, args.as_name))


async def create(connection: Connection, file: dict[str, Any], *, no_show_ms: int | None = None,
                 next_round_after_ms: int | None = None,
                 on_boards: bool = False) -> tuple[TournamentCreated, list[EntryCode]]:
    """Create a tournament from a file's JSON; a file too large for one request is created without its players,
    who are then registered in batches. Returns the answer and every entry's code."""
    whole = CreateTournament(file=json.dumps(file, ensure_ascii=False), no_show_ms=no_show_ms,
                             next_round_after_ms=next_round_after_ms, on_boards=on_boards)
    if len(encode(whole)) <= MAX_LARGE_FRAME and len(whole.file or "") <= MAX_TOURNAMENT_FILE_CHARS:
        created = await connection.ask(whole, TournamentCreated)
        return created, list(created.entries)
    if file.get("results") or file.get("absent") or file.get("withdrawn") or file.get("discipline"):
        raise UsageError("this file is too large for one request and has results: create it without them")
    players = file.get("players", [])
    bare = CreateTournament(file=json.dumps({**file, "players": []}, ensure_ascii=False), no_show_ms=no_show_ms,
                            next_round_after_ms=next_round_after_ms, on_boards=on_boards)
    created = await connection.ask(bare, TournamentCreated)
    codes: list[EntryCode] = []
    for start in range(0, len(players), ENTRIES_PER_REQUEST):
        forms = tuple(EntryForm(p["name"], p.get("club", ""), p.get("category", ""), p.get("rating"), p.get("id"),
                                p.get("year_of_birth"), p.get("sex"), bool(p.get("veteran", False)))
                      for p in players[start:start + ENTRIES_PER_REQUEST])
        answer = await connection.ask(RegisterEntries(created.tournament, created.secret, forms), EntriesRegistered)
        codes += answer.entries
    return created, codes


def run_register(args: argparse.Namespace) -> int:
    """Enter one player; print his entry code."""
    form = EntryForm(args.name, args.club, args.category, args.rating, args.id, args.born, args.sex, args.veteran)
    return _organiser(args, lambda tid, secret: RegisterEntries(tid, secret, (form,)), EntriesRegistered,
                      lambda a: "\n".join(f"{c.entry} {c.name}: entry code {c.code}" for c in a.entries))


def run_withdraw(args: argparse.Namespace) -> int:
    """An entry leaves after the current round (his results stay)."""
    return _organiser(args, lambda tid, secret: WithdrawEntry(tid, args.entry, secret, args.reason), TournamentDone,
                      lambda _a: f"{args.entry} withdrawn after the current round")


def run_take_back(args: argparse.Namespace) -> int:
    """Take back the round last paired (none of its matches begun or decided)."""
    return _organiser(args, lambda tid, secret: TakeBackRound(tournament=tid, secret=secret, reason=args.reason,
                                                              stage=args.stage, round=args.round), TournamentDone,
                      lambda _a: f"the round last paired of {args.tournament} is taken back: start-round pairs it "
                                 "again")


def run_swap(args: argparse.Namespace) -> int:
    """Swap two entries of the round last paired."""
    return _organiser(args, lambda tid, secret: SwapEntries(tournament=tid, secret=secret, first=args.first,
                                                            second=args.second, reason=args.reason), TournamentDone,
                      lambda _a: f"{args.first} and {args.second} have changed places")


def run_checkin(args: argparse.Namespace) -> int:
    """Check an entry in."""
    return _organiser(args, lambda tid, secret: CheckIn(tid, args.entry, secret), TournamentDone,
                      lambda _a: f"{args.entry} checked in")


def run_start_round(args: argparse.Namespace) -> int:
    """Start the next round (and let the later ones start by themselves with --auto-after-ms)."""
    async def act(connection: Connection, tid: str, secret: str) -> str:
        """Set the automatic start first, then start the round."""
        if args.auto_after_ms is not None:
            await connection.ask(AutoStartRounds(tid, secret, args.auto_after_ms), TournamentDone)
        done = await connection.ask(StartRound(tid, secret), TournamentDone)
        return f"round {done.id} started"

    return _organiser_act(args, act)


def run_card(args: argparse.Namespace) -> int:
    """Give a card."""
    return _organiser(args, lambda tid, secret: GiveCard(tournament=tid, secret=secret, entry=args.entry,
                                                         card=args.card, reason=args.reason, stage=args.stage,
                                                         round=args.round), TournamentDone,
                      lambda _a: f"{args.card} card to {args.entry}")


def run_mute(args: argparse.Namespace) -> int:
    """Silence an entry's coach in the tournament's chat, or let him speak again."""
    muted = not args.unmute
    return _organiser(args, lambda tid, secret: MuteEntry(tournament=tid, secret=secret, entry=args.player,
                                                          muted=muted, reason=args.reason), TournamentDone,
                      lambda _a: f"{args.player} {'muted' if muted else 'unmuted'} in the chat of {args.tournament}")


def run_unlink(args: argparse.Namespace) -> int:
    """Undo a claim: the entry loses its coach; print its fresh code."""
    return _organiser(args, lambda tid, secret: UnlinkEntry(tournament=tid, secret=secret, entry=args.player,
                                                            reason=args.reason), EntriesRegistered,
                      lambda a: "\n".join(f"{c.entry} {c.name}: unlinked; new entry code {c.code}"
                                          for c in a.entries))


def run_override(args: argparse.Namespace) -> int:
    """Set a match's result (XVII.5)."""
    return _organiser(args, lambda tid, secret: OverrideResult(tournament=tid, secret=secret, stage=args.stage,
                                                               round=args.round, table=args.table, reason=args.reason,
                                                               score=args.score, walkover=args.walkover,
                                                               shootout=args.shootout),
                      TournamentDone, lambda _a: f"stage {args.stage} round {args.round} table {args.table} set")


def run_resolve(args: argparse.Namespace) -> int:
    """Decide a dispute."""
    if args.ruling == "changed" and args.score is None and args.walkover is None:
        print("sprtec tournament resolve: a changed result needs --score or --walkover", file=sys.stderr)
        return 2
    return _organiser(args, lambda tid, secret: ResolveDispute(tournament=tid, secret=secret, case=args.case,
                                                               ruling=args.ruling, reason=args.reason,
                                                               score=args.score, walkover=args.walkover,
                                                               shootout=args.shootout),
                      TournamentDone, lambda _a: f"case {args.case}: {args.ruling}")


def run_end(args: argparse.Namespace) -> int:
    """End the tournament."""
    return _organiser(args, lambda tid, secret: EndTournament(tid, secret, args.reason), TournamentDone,
                      lambda _a: f"tournament {args.tournament} ended")


def run_status(args: argparse.Namespace) -> int:
    """Print the tournament's status once, or redraw it on every update until interrupted."""
    from sprtec.commands.tournament_status import CLEAR, render

    async def act(connection: Connection) -> int:
        """Watch and print."""
        first = await connection.ask(WatchTournament(args.tournament), TournamentUpdate)
        if args.once:
            print(json.dumps(standings_of(first), ensure_ascii=False) if args.json else render(first), end="")
            return 0
        update = first
        while True:
            sys.stdout.write(CLEAR + render(update, args.server))
            sys.stdout.flush()
            message = await connection.receive(timeout=None)
            if isinstance(message, TournamentUpdate) and message.tournament == update.tournament:
                update = message

    try:
        return connected(args.server, act)
    except KeyboardInterrupt:
        return 0


def run_export(args: argparse.Namespace) -> int:
    """Write the tournament's files from the data directory."""
    from server.tournaments.export import TournamentExportError, export

    try:
        done = export(Path(args.data), args.tournament, Path(args.out))
    except TournamentExportError as exc:
        print(f"sprtec tournament export: {exc}", file=sys.stderr)
        return 1
    for path in done.files:
        print(path)
    return 0


def standings_of(update: TournamentUpdate) -> dict[str, Any]:
    """The update's standings as TOURNAMENT.md's ``sprtec-standings/1`` object."""
    rows = [{"rank": s.rank, "shared": s.shared, "player": s.entry, "points": s.points, "played": s.played,
             "wins": s.wins, "draws": s.draws, "losses": s.losses, "byes": s.byes, "goals_for": s.goals_for,
             "goals_against": s.goals_against, "tiebreaks": dict(s.tiebreaks), "yellow": s.yellow, "red": s.red,
             "suspended_next": s.suspended_next} for s in update.standings]
    return {"format": "sprtec-standings/1", "stage": update.standings_stage, "after_round": update.after_round,
            "complete": update.complete, "standings": rows}


# ------------------------------------------------------------------------------------------------ plumbing


def _organiser(args: argparse.Namespace, request: Callable[[str, str], ClientMessage], answer: type,
               say: Callable[[Any], str]) -> int:
    """One organiser request with the tournament's secret; print what ``say`` makes of the answer."""
    async def act(connection: Connection, tid: str, secret: str) -> str:
        """Ask."""
        return say(await connection.ask(request(tid, secret), answer))

    return _organiser_act(args, act)


def _organiser_act(args: argparse.Namespace, act: Callable[[Connection, str, str], Awaitable[str]]) -> int:
    """Find the secret, connect, act, print."""
    tid = args.tournament.upper()
    secret = args.secret or recall(args.server, tid)
    if secret is None:
        print(f"sprtec tournament: no organiser secret kept for {tid} on {args.server}: give --secret",
              file=sys.stderr)
        return 2

    async def run(connection: Connection) -> int:
        """Act and print."""
        print(await act(connection, tid, secret))
        return 0

    return connected(args.server, run)


def connected(server: str, act: Callable[[Connection], Awaitable[int]],
              connect: Callable[[], Awaitable[Connection]] | None = None, command: str = "sprtec tournament") -> int:
    """Run ``act`` on a fresh connection (a guest's, unless ``connect`` makes another); a refusal or a failed
    connection is reported as ``command``'s (exit 1)."""
    async def main() -> int:
        """Connect, act, close."""
        connection = await (connect() if connect is not None else Connection.open(server))
        try:
            return await act(connection)
        finally:
            await connection.close()

    from websockets.exceptions import WebSocketException

    try:
        return asyncio.run(main())
    except Refused as exc:
        hint = " (create as a named player: --as NAME)" if exc.code == "NOT_ALLOWED" else ""
        print(f"{command}: {exc.code}: {exc.message}{hint}", file=sys.stderr)
        return 1
    except UsageError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return 2
    except (OSError, TimeoutError, WebSocketException) as exc:
        print(f"{command}: cannot talk to {server}: {exc}", file=sys.stderr)
        return 1


def _year(text: str) -> int:
    """A year of birth: a number, not in the future (the server checks it against the tournament's season too)."""
    import datetime

    this_year = datetime.date.today().year
    if not text.isdigit() or not 1 <= int(text) <= this_year:
        raise argparse.ArgumentTypeError(f"expected a year of birth up to {this_year}, such as 2011, not {text!r}")
    return int(text)


def score_of(text: str) -> Score:
    """H:A as a Score."""
    home, sep, away = text.partition(":")
    if not sep or not home.isdigit() or not away.isdigit():
        raise argparse.ArgumentTypeError(f"expected a score H:A such as 3:1, not {text!r}")
    return Score(int(home), int(away))

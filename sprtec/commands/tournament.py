"""``sprtec tournament ACTION``: the tournament commands of docs/TOURNAMENT.md.

Why a table of actions: ``standings``, ``pair`` and ``ranking`` read a tournament file, ``import`` a tournament saved
by the organisers' program (``tournament_import``); the organiser's actions (create, register, checkin, start-round,
card, mute, unlink, override, resolve, end, status - talking to a server; export and print, reading its data or a
file; run, a whole tournament of bots) are rows of ``ACTIONS`` with their own arguments, their modules imported only
when chosen (``tournament_actions``, ``tournament_run``). The file actions print exactly the contract: one JSON object
on standard output and exit 0, or ``{"error": {"code", "message"}}`` on standard output and exit 2 (a file that
cannot be read is ``BAD_FORMAT``); ``--pretty`` indents by two spaces.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

HELP = ("tournaments: the standings, next pairing and final ranking of a file (docs/TOURNAMENT.md), the import of a "
        "tournament saved by the organisers' program, and the organiser's acts on a server (create, register, "
        "checkin, start-round, card, mute, unlink, override, resolve, end, status, export, print, run)")


@dataclass(frozen=True, kw_only=True, slots=True)
class Action:
    """One ``sprtec tournament`` action: its help line, its arguments and what it runs."""

    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One sub-parser per action."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, action in ACTIONS.items():
        sub = actions.add_parser(name, help=action.help, description=action.help)
        action.add_arguments(sub)
        sub.set_defaults(run_action=action.run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen action."""
    return int(args.run_action(args))


def _file_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE (``-`` for standard input) and ``--pretty``."""
    parser.add_argument("file", metavar="FILE", help="the tournament file, or - to read standard input")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")


def _standings_arguments(parser: argparse.ArgumentParser) -> None:
    """The file arguments and ``--stage N``."""
    _file_arguments(parser)
    parser.add_argument("--stage", type=_stage_number, default=None, metavar="N",
                        help="the standings of stage N (default: the last stage with a result)")


def _run_standings(args: argparse.Namespace) -> int:
    """Print the standings after the last finished round of the stage."""
    return respond(args, lambda data: standings_answer(data, stage=args.stage, pretty=args.pretty))


def _run_pair(args: argparse.Namespace) -> int:
    """Print the pairing of the next round."""
    return respond(args, lambda data: pair_answer(data, pretty=args.pretty))


def _run_ranking(args: argparse.Namespace) -> int:
    """Print the final ranking across the stages."""
    return respond(args, lambda data: ranking_answer(data, pretty=args.pretty))


def standings_answer(data: bytes, *, stage: int | None = None, pretty: bool = False) -> tuple[int, str]:
    """The exit status and the text ``sprtec tournament standings`` prints for a file's bytes."""
    from shared.tournament.course import follow
    from shared.tournament.standings import standings
    from shared.tournament.table import to_json

    return _answer(data, lambda t: to_json(standings(follow(t), stage)), pretty)


def pair_answer(data: bytes, *, pretty: bool = False) -> tuple[int, str]:
    """The exit status and the text ``sprtec tournament pair`` prints for a file's bytes."""
    from shared.tournament.pairing import pair, to_json

    return _answer(data, lambda t: to_json(pair(t)), pretty)


def ranking_answer(data: bytes, *, pretty: bool = False) -> tuple[int, str]:
    """The exit status and the text ``sprtec tournament ranking`` prints for a file's bytes."""
    from shared.tournament.ranking import rank, to_json

    return _answer(data, lambda t: to_json(rank(t)), pretty)


def _answer(data: bytes, compute: Callable[[Any], dict[str, Any]], pretty: bool) -> tuple[int, str]:
    """0 and the answer's JSON, or 2 and the contract's error object."""
    from shared.tournament.errors import TournamentError
    from shared.tournament.reading import parse

    try:
        return 0, json_text(compute(parse(data)), pretty)
    except TournamentError as exc:
        return 2, json_text(exc.to_json(), pretty)


def respond(args: argparse.Namespace, answer: Callable[[bytes], tuple[int, str]]) -> int:
    """Read FILE (or standard input), print the answer on standard output as UTF-8, return its status."""
    from shared.tournament.errors import TournamentError

    try:
        data = read_file(args.file)
    except TournamentError as exc:
        status, text = 2, json_text(exc.to_json(), args.pretty)
    else:
        status, text = answer(data)
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    return status


def read_file(name: str) -> bytes:
    """The bytes of FILE, or of standard input for ``-``; ``BAD_FORMAT`` when it cannot be read."""
    return sys.stdin.buffer.read() if name == "-" else _read(name)


def _read(name: str) -> bytes:
    """The bytes of FILE; a file that cannot be read is ``BAD_FORMAT`` (the contract has no other code)."""
    from shared.tournament.errors import TournamentError

    try:
        with open(name, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise TournamentError("BAD_FORMAT", f"cannot read {name}: {exc.strerror or exc}") from None


def json_text(value: dict[str, Any], pretty: bool) -> str:
    """One JSON object and a newline, as every file action prints it (``pretty``: indented by two spaces)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=2 if pretty else None) + "\n"


def _stage_number(text: str) -> int:
    """A stage index: 0, 1, 2, ..."""
    try:
        number = int(text)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a stage number 0, 1, 2, ..., not {text!r}")
    return number


ACTIONS: dict[str, Action] = {
    "standings": Action(
        help="print the standings after the last round with results (one JSON object)",
        add_arguments=_standings_arguments,
        run=_run_standings,
    ),
    "pair": Action(
        help="print the pairing of the next round, as the server would make it (one JSON object)",
        add_arguments=_file_arguments,
        run=_run_pair,
    ),
    "ranking": Action(
        help="print the final ranking of every player across the stages, with categories and Czech Cup points",
        add_arguments=_file_arguments,
        run=_run_ranking,
    ),
}


def served(name: str, arguments: str, help_text: str, module: str = "tournament_actions") -> Action:
    """An action that talks to a server (or reads its data), imported only when chosen."""

    def add(parser: argparse.ArgumentParser) -> None:
        """The action's arguments."""
        getattr(importlib.import_module(f"sprtec.commands.{module}"), arguments)(parser)

    def run_it(args: argparse.Namespace) -> int:
        """The action."""
        return int(getattr(importlib.import_module(f"sprtec.commands.{module}"), name)(args))

    return Action(help=help_text, add_arguments=add, run=run_it)


ACTIONS.update({
    "create": served("run_create", "create_arguments",
                      "create a tournament on a server from a file; prints its id and the entry codes"),
    "register": served("run_register", "register_arguments", "enter a player; prints his entry code"),
    "checkin": served("run_checkin", "checkin_arguments", "check an entry in (absent from rounds until then)"),
    "withdraw": served("run_withdraw", "withdraw_arguments",
                        "an entry leaves the tournament after the current round (his results stay)"),
    "start-round": served("run_start_round", "start_round_arguments",
                           "pair the next round and open its tables (--auto-after-ms: later rounds by themselves)"),
    "take-back": served("run_take_back", "take_back_arguments",
                         "take back the round last paired while none of its matches has begun or has a result "
                         "(its tables close; start-round pairs it again)"),
    "swap": served("run_swap", "swap_arguments",
                    "swap two entries of the round last paired before its matches begin (seats or a bye), with a "
                    "reason"),
    "card": served("run_card", "card_arguments", "give a coach a yellow or red card, or disqualify him"),
    "mute": served("run_mute", "mute_arguments",
                    "silence an entry's coach in the tournament's chat at every table (--unmute: let him speak)"),
    "unlink": served("run_unlink", "unlink_arguments",
                      "undo a wrong claim: the entry loses its coach and gets a fresh code, printed"),
    "override": served("run_override", "override_arguments", "set the result of a match (XVII.5), with a reason"),
    "result": served("run_result", "result_arguments", "enter the result of a match played on a physical board "
                     "(the referee's sheet)", module="tournament_boards"),
    "boards": served("run_boards", "boards_arguments", "play the tournament, a stage or one table on physical "
                     "boards (--online: back online)", module="tournament_boards"),
    "referee": served("run_referee", "referee_arguments", "name a board's referee by hand (XVII.2; --agreed: "
                      "XVII.3)", module="tournament_boards"),
    "resolve": served("run_resolve", "resolve_arguments",
                       "decide a dispute: the result stands, is changed, or the match is replayed"),
    "end": served("run_end", "end_arguments", "end the tournament now (no more rounds)"),
    "status": served("run_status", "status_arguments",
                      "the standings and tables, live in the terminal (--once: print once and exit)"),
    "export": served("run_export", "export_arguments",
                      "write a tournament from a data directory: its file, standings (JSON, CSV), audit, replays"),
    "print": served("run_print", "print_arguments", "print sheets as a PDF: the entry list, a round's sheet for "
                     "the referees, the standings, the final ranking by category", module="tournament_sheets"),
    "import": served("run_import", "import_arguments", "a tournament saved by the organisers' program (turnaj-sprtec) "
                      "as a tournament file, its referees beside it", module="tournament_import"),
    "run": served("run", "add_arguments", "play a whole tournament of bots on a private server; prints the "
                   "final ranking", module="tournament_run"),
})

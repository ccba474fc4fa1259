"""``sprtec league ACTION``: the team-league commands of TOURNAMENT.md "Team competitions".

Why a table of actions, as ``sprtec tournament``: ``games`` and ``table`` read a league file; the actions that talk
to a server (``league_actions``: create, open-day, lineup, start-round, result, status; export, reading its data;
``league_run``: match days of bots) are further rows of ``ACTIONS``, their modules imported only when chosen.
The file actions print exactly the contract: one JSON object on standard output and exit 0, or
``{"error": {"code", "message"}}`` on standard output and exit 2 (a file that cannot be read is
``BAD_FORMAT``); ``--pretty`` indents by two spaces. Reading FILE and printing are ``sprtec tournament``'s own
(``respond``, ``json_text``), so both commands answer alike.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from sprtec.commands.tournament import Action, json_text, respond, served

HELP = ("team leagues: the schedule of a fixture and the league table of a file (TOURNAMENT.md \"Team "
        "competitions\"), and a league on a server (create, open-day, lineup, start-round, result, status, export, "
        "run)")


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
    parser.add_argument("file", metavar="FILE", help="the league file, or - to read standard input")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")


def _games_arguments(parser: argparse.ArgumentParser) -> None:
    """The file arguments and ``--fixture ID``."""
    _file_arguments(parser)
    parser.add_argument("--fixture", required=True, metavar="ID", help="the fixture's id")


def _run_games(args: argparse.Namespace) -> int:
    """Print the schedule of one fixture."""
    return respond(args, lambda data: games_answer(data, args.fixture, pretty=args.pretty))


def _run_table(args: argparse.Namespace) -> int:
    """Print the league table and the players' lines."""
    return respond(args, lambda data: table_answer(data, pretty=args.pretty))


def games_answer(data: bytes, fixture: str, *, pretty: bool = False) -> tuple[int, str]:
    """The exit status and the text ``sprtec league games FILE --fixture ID`` prints for a file's bytes."""
    from shared.league.schedule import team_match, to_json

    return _answer(data, lambda league: to_json(team_match(league, fixture)), pretty)


def table_answer(data: bytes, *, pretty: bool = False) -> tuple[int, str]:
    """The exit status and the text ``sprtec league table FILE`` prints for a file's bytes."""
    from shared.league.table import league_table_json

    return _answer(data, league_table_json, pretty)


def _answer(data: bytes, compute: Callable[[Any], dict[str, Any]], pretty: bool) -> tuple[int, str]:
    """0 and the answer's JSON, or 2 and the contract's error object."""
    from shared.league.errors import LeagueError
    from shared.league.reading import parse

    try:
        return 0, json_text(compute(parse(data)), pretty)
    except LeagueError as exc:
        return 2, json_text(exc.to_json(), pretty)


ACTIONS: dict[str, Action] = {
    "games": Action(
        help="print the schedule of a fixture's team match: its rounds, boards, home and away (one JSON object)",
        add_arguments=_games_arguments,
        run=_run_games,
    ),
    "table": Action(
        help="print the league table of the finished fixtures and every player's games (one JSON object)",
        add_arguments=_file_arguments,
        run=_run_table,
    ),
}
ACTIONS.update({
    "create": served("run_create", "create_arguments", "create a league on a server from a file; prints its id and "
                     "every roster player's code", module="league_actions"),
    "open-day": served("run_open_day", "open_day_arguments", "open a match day: its line-ups and rounds",
                       module="league_actions"),
    "lineup": served("run_lineup", "lineup_arguments", "give a team's line-up of a fixture (board order)",
                     module="league_actions"),
    "start-round": served("run_start_round", "start_round_arguments",
                          "start a fixture's next round at tables (--boards: played at the club)",
                          module="league_actions"),
    "result": served("run_result", "result_arguments", "enter or correct a game's result", module="league_actions"),
    "status": served("run_status", "status_arguments", "the open day's games, the team scores and the table",
                     module="league_actions"),
    "export": served("run_export", "export_arguments", "write a league from a data directory: its file with every "
                     "game, the table (JSON, CSV), the players, a replay per game", module="league_actions"),
    "run": served("run", "add_arguments", "play match days of bots on a server; prints the last day's table",
                  module="league_run"),
})

"""The organiser's ``sprtec tournament`` actions for matches played on physical boards: ``result`` (a board's result
as the referee's sheet gives it), ``boards`` (the tournament, a stage or one table on boards, or back online) and
``referee`` (a board's referee named by hand, XVII.2-XVII.3).

Why beside the other actions (``tournament_actions``) and alike: each is one organiser request over the protocol
(docs/PROTOCOL.md "Physical boards") with the kept organiser secret, printing the answer and exiting 0, or the
server's refusal - ``NOT_ON_BOARD``, ``RESULT_ENTERED``, ``BAD_RESULT``, ``REFEREE_CONFLICT`` - with exit 1.
"""

from __future__ import annotations

import argparse
import sys

from shared.protocol import EnterResult, PlayOnBoards, SetReferee, TournamentDone
from sprtec.commands.tournament_actions import _organiser, _result_arguments, organiser_arguments


def result_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, --table, --score H:A | --walkover SIDE, --shootout, --stage, --round."""
    organiser_arguments(parser)
    parser.add_argument("--table", type=int, required=True, metavar="N", help="the board's number")
    _result_arguments(parser, required=True)
    parser.add_argument("--stage", type=int, default=None, help="the stage of the match (default: the current)")
    parser.add_argument("--round", type=int, default=None, help="the round of the match (default: the current)")


def boards_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, --stage, --round and --table, --online, --reason."""
    organiser_arguments(parser)
    parser.add_argument("--stage", type=int, default=None, help="only this stage (default: the whole tournament)")
    parser.add_argument("--round", type=int, default=None, help="with --table: the round of the table "
                                                                "(default: the current)")
    parser.add_argument("--table", type=int, default=None, help="only this table of a round")
    parser.add_argument("--online", action="store_true", help="back online instead (a room for each match)")
    parser.add_argument("--reason", default="", help="why (kept in the audit log)")


def referee_arguments(parser: argparse.ArgumentParser) -> None:
    """The organiser arguments, STAGE ROUND TABLE, --player or --nobody, --agreed, --reason."""
    organiser_arguments(parser)
    parser.add_argument("stage", type=int)
    parser.add_argument("round", type=int)
    parser.add_argument("table", type=int)
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--player", metavar="ENTRY", default=None, help="the entry who referees the board")
    who.add_argument("--nobody", action="store_true", help="the board has no referee named yet")
    parser.add_argument("--agreed", action="store_true",
                        help="both players accept a referee of their club (XVII.3)")
    parser.add_argument("--reason", default="", help="why (kept in the audit log)")


def run_result(args: argparse.Namespace) -> int:
    """Enter a board's result (it stands: the organiser entered it)."""
    where = f"board {args.table}" + ("" if args.round is None else f" of round {args.round}")
    return _organiser(args, lambda tid, secret: EnterResult(tournament=tid, secret=secret, table=args.table,
                                                            stage=args.stage, round=args.round, score=args.score,
                                                            walkover=args.walkover, shootout=args.shootout),
                      TournamentDone, lambda _a: f"{where}: {_result_text(args)}")


def run_boards(args: argparse.Namespace) -> int:
    """Put the tournament, a stage or a table on boards (or back online)."""
    if args.table is None and args.round is not None:
        print("sprtec tournament boards: --round names the round of a --table", file=sys.stderr)
        return 2
    on_board = not args.online
    what = "the tournament" if args.stage is None and args.table is None else (
        f"table {args.table}" if args.table is not None else f"stage {args.stage}")
    return _organiser(args, lambda tid, secret: PlayOnBoards(tournament=tid, secret=secret, on_board=on_board,
                                                             stage=args.stage, round=args.round, table=args.table,
                                                             reason=args.reason),
                      TournamentDone, lambda _a: f"{what}: {'on boards' if on_board else 'online'}")


def run_referee(args: argparse.Namespace) -> int:
    """Name a board's referee."""
    return _organiser(args, lambda tid, secret: SetReferee(tournament=tid, secret=secret, stage=args.stage,
                                                           round=args.round, table=args.table, referee=args.player,
                                                           agreed=args.agreed, reason=args.reason),
                      TournamentDone, lambda _a: f"board {args.table} of round {args.round}: referee "
                                                 f"{args.player or 'nobody'}")


def _result_text(args: argparse.Namespace) -> str:
    """The result given, in words."""
    if args.walkover is not None:
        return f"walkover to {args.walkover}"
    shootout = f", shoot-out to {args.shootout}" if args.shootout else ""
    return f"{args.score.home}:{args.score.away}{shootout}"

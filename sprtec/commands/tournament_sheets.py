"""``sprtec tournament print``: the printed sheets as a PDF - the entry list, a round's sheet for the referees, the
standings, the final ranking by category - of a tournament in a server's data directory or of a tournament file.

Why both: at the club the tournament runs on the server, so ``print ID --data DIR`` reads its data (read-only, as
``export`` does, beside the running server); a tournament moved from the organisers' program, or one kept as a file,
prints from the file (``print FILE``). The sheets are ``server.tournaments.printed_sheets``'s, which the desk's
Print calls too. A board's referee comes from ``--referees FILE`` (``sprtec-referees/1``, as ``import`` writes it)
until the server keeps referee duty.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from server.tournaments.printed_sheets import SHEETS


def print_arguments(parser: argparse.ArgumentParser) -> None:
    """TARGET, --data, --sheet (repeatable), --stage, --round, --referees, --out."""
    parser.add_argument("target", metavar="ID|FILE",
                        help="the tournament's id with --data, else a tournament file (- for standard input)")
    parser.add_argument("--data", default=None, metavar="DIR", help="the server's data directory")
    parser.add_argument("--sheet", action="append", choices=SHEETS, required=True,
                        help="entries, round, standings or ranking (repeat it for several sheets in one PDF)")
    parser.add_argument("--stage", type=_number(0), default=None, metavar="N",
                        help="the stage of the round or standings sheet (default: the current)")
    parser.add_argument("--round", type=_number(1), default=None, metavar="N",
                        help="the round of the round sheet (default: the last paired)")
    parser.add_argument("--referees", default=None, metavar="FILE", help="the boards' referees (sprtec-referees/1)")
    parser.add_argument("--out", required=True, metavar="FILE.pdf", help="the PDF to write")


def run_print(args: argparse.Namespace) -> int:
    """Write the PDF and print its path; 1 with the reason when the tournament or a sheet cannot be had."""
    from server.tournaments.export import TournamentExportError, read_state
    from server.tournaments.printed_sheets import SheetError, SheetRequest, served_referees, sheets_pdf
    from shared.tournament.board_referees import read_referees
    from shared.tournament.errors import TournamentError
    from shared.tournament.reading import loads, parse
    from sprtec.commands.tournament import read_file

    try:
        served = None
        if args.data is not None:
            state = read_state(Path(args.data), args.target)[0]
            t, served = state.tournament, served_referees(state)
        else:
            t = parse(read_file(args.target))
        referees = served if args.referees is None else read_referees(loads(read_file(args.referees)), t)
        requests = [SheetRequest(sheet=s, stage=args.stage, round=args.round) for s in args.sheet]
        data = sheets_pdf(t, requests, referees=referees)
    except (TournamentExportError, SheetError) as exc:
        print(f"sprtec tournament print: {exc}", file=sys.stderr)
        return 1
    except TournamentError as exc:
        print(f"sprtec tournament print: {json.dumps(exc.to_json(), ensure_ascii=False)}", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    print(out)
    return 0


def _number(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum``."""

    def parse(text: str) -> int:
        """The number."""
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number of at least {minimum}, not {text!r}")
        return value

    return parse
